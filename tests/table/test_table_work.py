"""The table's work per action is bounded (counted, never timed): each hand event is filtered
for each viewer once, when it is published, not again at every later flush."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import make_table, play_passively, start_hand

import boardroom.engine.view as view_module


@pytest.mark.parametrize("game", ["plo", "esg", "allocator-redraw", "stud-hilo"])
def test_each_hand_event_is_filtered_once_per_viewer(game: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table, clock = make_table(players=4, game=game)
    filtered: list[Any] = []
    real = view_module.event_as_seen

    def counting(hand: Any, viewer: Any, event: Any, shown: Any, **hiding: Any) -> Any:
        filtered.append(event)
        return real(hand, viewer, event, shown, **hiding)

    monkeypatch.setattr(view_module, "event_as_seen", counting)
    start_hand(table, clock)
    hand = table.hand
    assert hand is not None
    play_passively(table)
    viewers = 4 + 1  # each seat in the hand, and the spectators
    assert len(filtered) == len(hand.events) * viewers

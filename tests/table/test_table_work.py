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


@pytest.mark.parametrize("game", ["plo", "esg", "allocator-redraw", "stud-hilo"])
def test_what_a_batch_shows_later_is_worked_out_once_per_batch(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A push hides in each event the cards a later event of its batch shows; which cards those
    are is worked out once per published batch, for every viewer alike, not once per viewer."""
    from boardroom.table.driver import Driver

    table, clock = make_table(players=4, game=game)
    worked_out: list[int] = []
    batches: list[int] = []
    real_later, real_flush = view_module._shown_later, Driver._flush

    def counting_later(hand: Any, start: int) -> Any:
        worked_out.append(start)
        return real_later(hand, start)

    def counting_flush(self: Any) -> None:
        hand = self.hand
        if hand is not None and self._published < len(hand.events):
            batches.append(self._published)
        real_flush(self)

    monkeypatch.setattr(view_module, "_shown_later", counting_later)
    monkeypatch.setattr(Driver, "_flush", counting_flush)
    start_hand(table, clock)
    play_passively(table)
    assert batches  # the deal, each action, the showdown
    assert worked_out == batches

"""A room's straddle (issue 15): the host's UTG or button straddle is posted in every blind
game's hand of three players or more, survives a restart mid-hand, shows in the top bar's
posts, and a bad setting is refused by name."""

from __future__ import annotations

import pytest
from table_helpers import actor_seat, make_table, play_passively, start_hand

from boardroom.engine import Call
from boardroom.engine.events import BlindPosted
from boardroom.table import Table, TableError, TableSettings


def _posts(table: Table) -> list[tuple[int, int, str]]:
    assert table.hand is not None
    return [(e.seat, e.amount, e.blind) for e in table.hand.events
            if isinstance(e, BlindPosted)]


@pytest.mark.parametrize("game", ["plo", "esg", "tilt", "holdem"])
def test_a_utg_straddle_room_straddles_every_hand(game: str) -> None:
    table, clock = make_table(4, game=game, straddle="utg")
    for _ in range(3):
        start_hand(table, clock)
        posts = _posts(table)
        assert [kind for _, _, kind in posts] == ["small", "big", "straddle"]
        assert posts[-1][1] == 4
        assert table.hand is not None
        assert table.hand.current_bet == 4
        play_passively(table)
        assert sum(table.chips_of(seat) for seat in range(4)) == 800


def test_a_button_straddle_is_posted_by_the_button_and_shown_in_the_posts() -> None:
    table, clock = make_table(4, straddle="button")
    start_hand(table, clock)
    assert _posts(table)[-1] == (table.button, 4, "straddle")
    posts = table.public_state()["posts"]
    assert posts == {"forced_bets": "blinds", "small_blind": 1, "big_blind": 2, "straddle": 4,
                     "straddler": "button"}


def test_no_straddle_by_default_and_none_heads_up() -> None:
    table, clock = make_table(4)
    start_hand(table, clock)
    assert [kind for _, _, kind in _posts(table)] == ["small", "big"]
    assert table.public_state()["posts"]["straddle"] == 0
    table, clock = make_table(2, straddle="utg")
    start_hand(table, clock)
    assert [kind for _, _, kind in _posts(table)] == ["small", "big"]


def test_ante_games_have_no_straddle() -> None:
    table, clock = make_table(4, game="xmas", straddle="utg")
    start_hand(table, clock)
    assert _posts(table) == []


def test_a_straddled_hand_restored_mid_hand_goes_on_the_same() -> None:
    table, clock = make_table(4, straddle="utg")
    start_hand(table, clock)
    table.act(actor_seat(table), Call())
    restored = Table.from_state(table.settings, table.to_state(), clock=clock)
    assert restored.hand is not None
    assert table.hand is not None
    assert restored.hand.events == table.hand.events
    assert restored.hand.straddle_seat == table.hand.straddle_seat


def test_a_bad_straddle_setting_is_refused_by_name() -> None:
    with pytest.raises(TableError,
                       match="straddle must be one of off, utg, button, not 'mississippi'"):
        TableSettings(straddle="mississippi").check()

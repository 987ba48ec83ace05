"""Dealer's Choice: the button picks before the deal, on a timer; no pick repeats the game."""

from __future__ import annotations

import pytest
from table_helpers import kinds, make_table, play_passively, start_hand

from boardroom.table import DEALING, PICKING, TableError


def test_the_button_picks_and_the_pick_is_announced_before_the_deal() -> None:
    table, clock = make_table(players=3, game="dealers-choice", pick_clock=20.0)
    start_hand(table, clock)
    assert table.phase == PICKING
    assert table.picker == table.button == 0
    events = table.drain()
    request = events[-1]
    assert request.kind == "pick_requested"
    assert request.data["seat"] == 0
    assert "plo" in request.data["choices"]
    assert table.next_deadline() == clock.now + 20.0
    with pytest.raises(TableError, match=r"the button \(seat 0\) picks the game, not seat 1"):
        table.pick(1, "plo")
    with pytest.raises(TableError, match="unknown variant 'chess'"):
        table.pick(0, "chess")
    with pytest.raises(TableError, match="PLO is dealt with 4, 5, 6 hole cards, not 7"):
        table.pick(0, "plo", {"hole_cards": 7})
    with pytest.raises(TableError, match="unknown variant options"):
        table.pick(0, "plo", {"colour": "red"})
    table.pick(0, "plo", {"hole_cards": 5})
    assert table.phase == DEALING
    events = table.drain()
    assert kinds(events)[:2] == ["game_picked", "hand_started"]
    assert events[0].data == {"seat": 0, "game": "plo", "name": "PLO",
                              "options": {"hole_cards": 5}, "by_button": True}
    assert table.hand is not None
    assert table.hand.variant.hole_cards == 5
    with pytest.raises(TableError, match="nobody is picking a game now"):
        table.pick(0, "plo")


def test_no_pick_in_time_deals_esg_first_then_the_previous_game() -> None:
    table, clock = make_table(players=3, game="dealers-choice", pick_clock=20.0)
    start_hand(table, clock)
    clock.advance(20.0)
    table.tick()
    assert table.hand is not None
    assert table.hand.variant.id == "esg"
    picked = next(e for e in table.drain() if e.kind == "game_picked")
    assert picked.data["by_button"] is False
    play_passively(table)
    start_hand(table, clock)
    assert table.picker == 1
    table.pick(1, "stud-hilo", {"bring_in": "lowest"})
    play_passively(table)
    start_hand(table, clock)
    assert table.picker == 2
    clock.advance(20.0)
    table.tick()
    assert table.hand is not None
    assert table.hand.variant.id == "stud-hilo"
    assert table.hand.variant.bring_in is not None
    assert table.hand.variant.bring_in.value == "lowest"


def test_a_game_that_does_not_fit_the_players_cannot_be_picked() -> None:
    table, clock = make_table(players=8, game="dealers-choice", max_seats=8)
    start_hand(table, clock)
    assert "esg" not in table.drain()[-1].data["choices"]
    with pytest.raises(TableError, match="ESG is not one of the games to pick from"):
        table.pick(0, "esg")
    with pytest.raises(TableError, match="with 6 hole cards deals to at most 7 players, not 8"):
        table.pick(0, "bomb", {"hole_cards": 6})
    clock.advance(100.0)
    table.tick()  # ESG does not fit eight players: the first game that does
    assert table.hand is not None
    assert table.hand.variant.max_players >= 8


def test_every_pickable_variant_deals_with_the_rooms_stakes() -> None:
    table, clock = make_table(players=2, game="dealers-choice")
    for game in list(_choices(table, clock)):
        assert table.phase == PICKING
        table.pick(table.picker, game)
        assert table.hand is not None
        assert table.hand.variant.id == game
        play_passively(table)
        start_hand(table, clock)
        assert table.chips_on_table() == table.balance


def _choices(table, clock):  # type: ignore[no-untyped-def]
    start_hand(table, clock)
    return list(table.drain()[-1].data["choices"])


def test_the_button_may_pick_every_game_of_the_card_room() -> None:
    table, clock = make_table(players=2, game="dealers-choice")
    choices = set(_choices(table, clock))
    assert {"holdem", "stud", "razz", "stud5", "five-card-draw", "27-single-draw",
            "27-triple-draw", "badugi"} <= choices

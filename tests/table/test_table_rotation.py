"""Rotations: HORSE and a host's own list of games, a game an orbit or every N hands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_helpers import kinds, make_table, play_passively, start_hand

from boardroom.rules import HORSE, Rotation, SpecError, find_game
from boardroom.table import Table, TableError, TableSettings
from boardroom.table.rotation import RotationState, passes, step


def play_hand(table: Table, clock: Any) -> tuple[str, dict[str, Any], int]:
    """Deal and play the next hand; its game, options and button."""
    start_hand(table, clock)
    hand = table.hand
    assert hand is not None
    setup = (table.hand_setup["game"], dict(table.hand_setup["options"]), table.button)
    play_passively(table)
    return setup  # type: ignore[return-value]


def test_horse_deals_its_five_games_in_order_each_for_one_orbit() -> None:
    table, clock = make_table(players=3, game="horse", max_seats=7)
    played = [play_hand(table, clock) for _ in range(16)]
    games = [game for game, _, _ in played]
    assert games == ["holdem"] * 3 + ["omaha-hilo"] * 3 + ["razz"] * 3 + ["stud"] * 3 + \
        ["stud-hilo"] * 3 + ["holdem"]
    assert [button for _, _, button in played][:6] == [0, 1, 2, 0, 1, 2]
    assert played[0][1] == {"betting": "fixed-limit"}
    assert played[3][1] == {"betting": "fixed-limit"}
    assert played[6][1] == {}


def test_the_change_is_announced_before_the_next_games_first_hand() -> None:
    table, clock = make_table(players=2, game="horse", max_seats=7)
    for _ in range(2):
        play_hand(table, clock)
    table.drain()
    start_hand(table, clock)
    events = table.drain()
    assert kinds(events)[:2] == ["game_changed", "hand_started"]
    assert events[0].data == {"game": "omaha-hilo", "name": "Omaha Hi-Lo",
                              "options": {"betting": "fixed-limit"}, "at": 1}


def test_everyone_sees_the_game_now_the_next_and_when_it_changes() -> None:
    table, clock = make_table(players=3, game="rotation", rotate_every=2,
                              rotation=("esg", "plo"))
    before = table.public_state()["rotation"]
    assert before["game"]["game"] == "esg"
    assert before["next"]["game"] == "plo"
    assert before["hands_left"] == 2
    assert before["started"] is False
    play_hand(table, clock)
    assert table.public_state()["rotation"]["hands_left"] == 1
    assert table.public_state()["rotation"]["last"] is False
    start_hand(table, clock)
    shown = table.public_state()["rotation"]
    assert shown["hands_left"] == 0
    assert shown["last"] is True
    play_passively(table)
    assert play_hand(table, clock)[0] == "plo"
    assert table.public_state()["rotation"]["next"]["name"] == "ESG"


def test_the_orbit_is_the_button_going_round_whoever_comes_and_goes() -> None:
    table, clock = make_table(players=4, game="horse", max_seats=7)
    play_hand(table, clock)  # button 0
    play_hand(table, clock)  # button 1
    table.leave(2)  # the button skips seat 2 from now on
    assert table.public_state()["rotation"]["last"] is False
    start_hand(table, clock)  # button 3: the last of the orbit started at 0
    assert table.button == 3
    assert table.public_state()["rotation"]["last"] is True
    play_passively(table)
    assert play_hand(table, clock)[0] == "omaha-hilo"


def test_passing_the_first_button_counts_whether_it_lands_on_it_or_jumps_it() -> None:
    assert passes(start=0, previous=3, button=0, seats=6)
    assert passes(start=4, previous=3, button=5, seats=6)  # seat 4 emptied meanwhile
    assert not passes(start=0, previous=0, button=1, seats=6)
    assert not passes(start=0, previous=1, button=3, seats=6)
    state, changed = step(HORSE, RotationState(), None, 2, 6)
    assert (state, changed) == (RotationState(0, 1, 2), False)
    state, changed = step(HORSE.with_every(1), state, 2, 3, 6)
    assert (state, changed) == (RotationState(1, 1, 3), True)


def test_a_rotation_survives_a_restart_where_it_was() -> None:
    table, clock = make_table(players=2, game="rotation", rotate_every=3,
                              rotation=({"game": "holdem", "betting": "pot-limit"}, "xmas"))
    for _ in range(4):
        play_hand(table, clock)
    again = Table.from_state(table.settings, table.to_state(), clock=clock,
                             rng=random.Random(2))
    assert again.rotation_state == table.rotation_state == RotationState(1, 1, 1)
    assert play_hand(again, clock)[0] == "xmas"
    settings = TableSettings.from_dict(table.settings.to_dict())
    assert settings == table.settings


@pytest.mark.parametrize(("settings", "message"), [
    ({"game": "rotation", "rotation": ["plo"]}, "a rotation lists 2 to 20 games, not 1"),
    ({"game": "rotation"}, "a rotation lists 2 to 20 games, not 0"),
    ({"game": "rotation", "rotation": ["plo", "chess"]}, "unknown variant 'chess'"),
    ({"game": "rotation", "rotation": ["plo", "horse"]}, "a rotation cannot include 'horse'"),
    ({"game": "rotation", "rotation": ["plo", "dealers-choice"]},
     "a rotation cannot include 'dealers-choice'"),
    ({"game": "rotation", "rotation": ["plo", {"game": "plo", "hole_cards": 9}]},
     "PLO in the rotation: PLO is dealt with 4, 5, 6 hole cards, not 9"),
    ({"game": "rotation", "rotation": ["plo", {"game": "esg", "colour": "red"}]},
     "unknown options \\['colour'\\] for 'esg'"),
    ({"game": "rotation", "rotation": ["plo", 7]}, "a rotation's game is a game id"),
    ({"game": "rotation", "rotation": "plo,esg"}, "rotation must be a list of games"),
    ({"game": "plo", "rotation": ["plo", "esg"]}, 'goes with game "rotation", not \'plo\''),
    ({"game": "horse", "rotate_every": 101}, "every 1 to 100 hands, or every orbit"),
    ({"game": "horse", "rotate_every": -1}, "every 1 to 100 hands, or every orbit"),
    ({"game": "horse", "max_seats": 9}, "HORSE seats at most 7 \\(its smallest game\\), not 9"),
    ({"game": "horse", "betting": "no-limit"}, "in a rotation each game carries its own options"),
])
def test_a_rotation_that_cannot_work_is_refused_naming_why(settings: dict[str, Any],
                                                           message: str) -> None:
    with pytest.raises(TableError, match=message):
        TableSettings.from_dict(settings)


def test_horse_is_a_game_of_the_registry() -> None:
    horse = find_game("HORSE")
    assert isinstance(horse, Rotation)
    assert [game.variant.name for game in horse.games] == [
        "Texas Hold'em", "Omaha Hi-Lo", "Razz", "7 Card Stud", "7 Card Stud Hi-Lo"]
    assert {game.variant.betting.value for game in horse.games} == {"fixed-limit"}
    with pytest.raises(SpecError, match="a rotation lists 2 to 20 games"):
        Rotation.custom([])

"""The replayer trusts nothing: a mutated copy of a golden history, one per kind of history
that could not have been dealt or is malformed, is refused with the exact message, naming the
line of the file and players one way (``player "p1" (seat 2)``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardroom.engine.history import HistoryError, replay_text

TESTS = Path(__file__).parents[1]
PLO = TESTS / "engine" / "golden" / "pot_limit_max.phh"  # PO, 4 players, seats 1-4
FOLDS = TESTS / "engine" / "golden" / "everyone_folds.phh"  # PLO won preflop
ESG = TESTS / "multiboard" / "golden" / "esg__catch_up.phh"  # 6 players, p1 is seat 2
ALLOCATOR = TESTS / "multiboard" / "golden" / "allocator__allocation.phh"


def mutated(path: Path, *changes: tuple[str, str]) -> str:
    text = path.read_text()
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def refusal(path: Path, *changes: tuple[str, str]) -> str:
    with pytest.raises(HistoryError) as caught:
        replay_text(mutated(path, *changes))
    return str(caught.value)


def test_the_golden_files_replay() -> None:
    for path in (PLO, FOLDS, ESG, ALLOCATOR):
        assert replay_text(path.read_text()).is_over


# -- cards that could not have been dealt ----------------------------------------------------


@pytest.mark.parametrize(("path", "old", "new", "message"), [
    pytest.param(PLO, '"d dh p2 2c3d4h6s"', '"d dh p2 2c3dAc6s"',
                 "line 23: action 2 ('d dh p2 2c3dAc6s'): Ac is dealt to player \"p2\" (seat 2) "
                 "and to player \"p1\" (seat 1) at line 22, action 1", id="to two players"),
    pytest.param(PLO, '"d db Kh"', '"d db Kd"',
                 "line 22: action 1 ('d dh p1 AcAdKcKd'): Kd is dealt to player \"p1\" (seat 1) "
                 "and to board A at line 34, action 13", id="to a player and a board"),
    pytest.param(PLO, '"d dh p1 AcAdKcKd"', '"d dh p1 AcAdKcAc"',
                 "line 22: action 1 ('d dh p1 AcAdKcAc'): Ac is dealt twice to player \"p1\" "
                 "(seat 1) (first at line 22, action 1)", id="twice to one player"),
    pytest.param(PLO, '"d db 2d"', '"d db 4c"',
                 "line 37: action 16 ('d db 4c'): 4c is dealt twice to the boards (first to "
                 "board A at line 31, action 10)", id="twice to the boards"),
    pytest.param(ESG, '"d dh p1 8cQsKs # redraw"', '"d dh p1 8cQs3d # redraw"',
                 "line 42: action 15 ('d dh p1 8cQs3d # redraw'): player \"p1\" (seat 2) "
                 "redraws 3d, a card player \"p2\" (seat 3) holds (dealt at line 29, action 2); "
                 "a redraw comes from the pool", id="a redraw another live hand holds"),
    pytest.param(ESG, '"d dh p1 8cQsKs # redraw"', '"d dh p1 8cQs9h # redraw"',
                 "line 42: action 15 ('d dh p1 8cQs9h # redraw'): player \"p1\" (seat 2) "
                 "redraws 9h, a card of board A at line 52, action 25; the boards' cards are "
                 "never in the pool", id="a redraw that lies on a board"),
    pytest.param(ESG, '"d dh p1 3c # redraw"', '"d dh p1 Kc # redraw"',
                 "line 54: action 27 ('d dh p1 Kc # redraw'): player \"p1\" (seat 2) redraws "
                 "Kc, a card player \"p4\" (seat 5) holds (dealt at line 31, action 4); a redraw "
                 "comes from the pool", id="a redraw of a hand that folds only later"),
])
def test_a_card_dealt_twice_is_refused(path: Path, old: str, new: str, message: str) -> None:
    assert refusal(path, (old, new)) == message


def test_a_redraw_of_a_folded_hand_is_the_pool_s() -> None:
    """p3 folds preflop and its 3c goes back to the pool: p1 may redraw it on the turn."""
    text = ESG.read_text()
    assert text.index('"p3 f"') < text.index('"d dh p1 3c # redraw"')
    assert "3c" in text.split('"d dh p3 ')[1].split('"')[0]
    assert replay_text(text).redraws[1] == 8


def test_hole_cards_beyond_what_the_game_deals() -> None:
    assert refusal(PLO, ('"d dh p1 AcAdKcKd"', '"d dh p1 AcAdKcKd5s"')) == (
        "line 22: action 1 ('d dh p1 AcAdKcKd5s'): the history deals player \"p1\" (seat 1) "
        "5 hole cards here, the hand deals 4")
    assert refusal(PLO, ('"d dh p1 AcAdKcKd"', '"d dh p1 AcAdKc"')) == (
        "line 22: action 1 ('d dh p1 AcAdKc'): the history deals player \"p1\" (seat 1) "
        "3 hole cards here, the hand deals 4")


def test_redraw_counts_are_checked_street_by_street() -> None:
    """p1 keeps its 4 redraw cards in all but moves one from the flop to the turn: the flop
    gives each of the four players in the hand 3 (RULES.md s.3), so it is refused there."""
    message = refusal(ESG, ('"d dh p1 8cQsKs # redraw"', '"d dh p1 8cQs # redraw"'),
                      ('"d dh p1 3c # redraw"', '"d dh p1 Ks3c # redraw"'))
    assert message == (
        "line 42: action 15 ('d dh p1 8cQs # redraw'): player \"p1\" (seat 2) redraws 2 cards "
        "where the rule book gives each of the 4 players in the hand 3 on the flop "
        "(min(K - R, floor(pool / L)) = min(3 - 0, floor(18 / 4)), RULES.md s.3)")


def test_a_redraw_written_on_the_wrong_street() -> None:
    """The flop's redraw written after the flop's first bet: the flop deals it earlier."""
    assert refusal(ESG, ('"d dh p1 8cQsKs # redraw",\n', ""),
                   ('"p1 cc",\n    "p2 cc",\n    "p4 cbr 2",',
                    '"p1 cc",\n    "d dh p1 8cQsKs # redraw",\n    "p2 cc",\n    "p4 cbr 2",'),
                   ) == (
        "line 39: action 12 ('p2 cc'): after it, the hand deals a redraw of 3 cards to "
        "player \"p1\" (seat 2), and the history deals none there (its next cards for them "
        "are at line 46, action 19)")


def test_cards_left_over_are_refused() -> None:
    assert refusal(FOLDS, ('"p2 f",\n', '"p2 f",\n    "d db 4c5d9c",\n')) == (
        "line 25: action 7 ('d db 4c5d9c'): the history deals board A 3 cards here, the hand "
        "deals none (the hand is over)")
    assert refusal(PLO, ('"d db 4c5d9c"', '"d db 4c5d9c8s"')) == (
        "line 31: action 10 ('d db 4c5d9c8s'): the history deals board A 4 cards here, the "
        "hand deals 3")


def test_an_allocation_of_cards_the_player_does_not_hold() -> None:
    assert refusal(ALLOCATOR, ('"p1 _allocate A:Jh5c', '"p1 _allocate A:Jh5s')) == (
        "line 38: action 23 ('p1 _allocate A:Jh5s B:9c3s Hand:KdQd'): player \"p1\" (seat 2) "
        "allocates to A a card it does not hold")


# -- malformed fields: the field and its line, never a traceback -----------------------------


@pytest.mark.parametrize(("old", "new", "message"), [
    ('starting_stacks = [\n    200,', 'starting_stacks = [\n    "200",',
     "line 15: field 'starting_stacks': holds '200', which is not a whole number of chips"),
    ('starting_stacks = [\n    200,', 'starting_stacks = [\n    0,',
     "line 15: field 'starting_stacks': player \"p1\" (seat 1) has a stack of 0; a player is "
     "dealt in with 1 chip or more"),
    ('finishing_stacks = [\n    199,', 'finishing_stacks = [\n    198,',
     "line 49: field 'finishing_stacks': holds 799 chips where the hand starts with 800; "
     "chips are never made or lost"),
    ('min_bet = 2', 'min_bet = "2"', "line 14: field 'min_bet': must be a whole number, "
     "not '2'"),
    ('antes = [\n    0,', 'antes = [\n    -1,',
     "line 2: field 'antes': holds -1, which is not a whole number of chips"),
    ('_variant = "plo"', '_variant = "plo9"', "line 55: field '_variant': unknown variant "
     "'plo9' (known: esg, esg-low, xmas, balance, bomb, allocator, allocator-redraw, tilt, "
     "plo, omaha-hilo, courchevel, stud-hilo, holdem, stud, razz, stud5, five-card-draw, "
     "27-single-draw, 27-triple-draw, badugi, dealers-choice)"),
    ('hole_cards = 4', 'hole_cards = "four"', "line 57: field '_options': option "
     "'hole_cards' must be a whole number, not 'four'"),
    ('seats = [\n    1,', 'seats = [\n    0,',
     "line 43: field 'seats': holds 0, which is not a seat number (1 or more)"),
    ('"p3 cbr 7"', '7', "line 21: field 'actions': holds 7, which is not a string"),
    ('"p3 cbr 7"', '"p3 cbr seven"', "line 26: action 5 ('p3 cbr seven'): 'seven' is not a "
     "whole number of chips"),
    ('"p3 cbr 7"', '"p9 cbr 7"', "line 26: action 5 ('p9 cbr 7'): there is no player 'p9'; "
     "the players are p1 to p4"),
    ('"d db Kh"', '"d db Kx"', "line 34: action 13 ('d db Kx'): 'Kx' is not a card"),
])
def test_a_malformed_field_names_the_field_and_line(old: str, new: str, message: str) -> None:
    assert refusal(PLO, (old, new)) == message


def test_players_are_named_one_way_with_the_history_s_names() -> None:
    """With PHH's ``players`` field the errors use the names; the seat is the history's."""
    text = mutated(PLO, ("seats = [", 'players = ["ann", "bob", "cy", "dee"]\nseats = ['),
                   ('"p4 cbr 24"', '"p1 cbr 24"'))
    with pytest.raises(HistoryError) as caught:
        replay_text(text)
    assert str(caught.value) == ("line 27: action 6 ('p1 cbr 24'): player \"ann\" (seat 1) "
                                 "acts out of turn; player \"dee\" (seat 4) is to act")


def test_every_hand_at_the_showdown_is_written_once() -> None:
    assert refusal(PLO, ('    "p3 sm 7c8d9hTs",\n', "")) == (
        "line 21: field 'actions': player \"p3\" (seat 3) shows at the showdown, and the "
        "history has no 'p3 sm' action")
    assert refusal(PLO, ('"p4 sm",', '"p4 sm",\n    "p4 sm",')) == (
        "line 42: action 21 ('p4 sm'): player \"p4\" (seat 4) is already shown or mucked at "
        "line 41, action 20")


def test_a_redraw_the_hand_does_not_deal() -> None:
    """p3 folded preflop: no redraw for it on the flop; and a redraw must say it is one."""
    assert refusal(ESG, ('"d dh p2 9dAcQc # redraw",', '"d dh p2 9dAcQc # redraw",\n'
                         '    "d dh p3 2h # redraw",')) == (
        "line 44: action 17 ('d dh p3 2h # redraw'): player \"p3\" (seat 4) folded at line 34, "
        "action 7 and is dealt no more cards")
    assert refusal(ESG, ('"d dh p1 8cQsKs # redraw"', '"d dh p1 8cQsKs"')) == (
        "line 42: action 15 ('d dh p1 8cQsKs'): the hand redraws 3 cards to player \"p1\" "
        "(seat 2) here, and this action is not a redraw ('# redraw')")

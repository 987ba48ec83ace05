"""Golden hands, one per rule of RULES.md sections 2, 4 and 5, replayed by ``boardroom replay``.

The files are in ``golden/`` (written from ``golden_hands.py``); the expected numbers below were
worked out by hand. Illegal variants of a file must exit with code 2 naming the action at fault.
Players p1..pn are seats 0..n-1 (the button is the last player).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardroom.cli import main

GOLDEN = Path(__file__).parent / "golden"


def replay(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    assert main(["replay", str(path), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert sum(result["final_stacks"]) == sum(result["starting_stacks"])
    return result


def golden(capsys: pytest.CaptureFixture[str], name: str) -> dict[str, Any]:
    return replay(capsys, GOLDEN / f"{name}.phh")


def broken(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, old: str, new: str,
           occurrence: int = 1) -> str:
    """Replay ``name`` with the ``occurrence``-th ``old`` replaced by ``new``: the error text."""
    text = (GOLDEN / f"{name}.phh").read_text()
    parts = text.split(old)
    assert len(parts) > occurrence, f"{old!r} occurs fewer than {occurrence} times"
    text = old.join(parts[:occurrence]) + new + old.join(parts[occurrence:])
    path = tmp_path / f"{name}_broken.phh"
    path.write_text(text)
    assert main(["replay", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def pots(result: dict[str, Any]) -> list[tuple[int, list[int], list[int]]]:
    return [(pot["amount"], pot["eligible"], pot["winners"]) for pot in result["pots"]]


# -- RULES.md section 2: betting ------------------------------------------------------------


def test_pot_limit_maximum(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Blinds 1/2: the first player may raise to 7, the next one to 24 (s.2, s.7)."""
    result = golden(capsys, "pot_limit_max")
    assert result["final_stacks"] == [199, 198, 227, 176]
    assert pots(result) == [(51, [2, 3], [2])]
    error = broken(capsys, tmp_path, "pot_limit_max", "p4 cbr 24", "p4 cbr 25")
    assert "action 6 ('p4 cbr 25')" in error
    assert "raise to 25 is above the pot limit of 24" in error


def test_no_limit_any_amount_up_to_the_stack(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """No limit: all-in for 300 preflop; the uncalled 150 goes back; two pots (s.2)."""
    result = golden(capsys, "no_limit_all_in")
    assert result["final_stacks"] == [300, 100, 150]
    assert pots(result) == [(300, [0, 1, 2], [0]), (100, [1, 2], [1])]
    error = broken(capsys, tmp_path, "no_limit_all_in", "p3 cbr 300", "p3 cbr 301")
    assert 'more than player "p3" (seat 3) has (all-in is 300)' in error


def test_fixed_limit_bet_sizes_and_cap(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    """Fixed limit: small bet on the first two rounds, big bet after, four bets a round (s.2)."""
    result = golden(capsys, "fixed_limit_hilo")
    assert result["final_stacks"] == [108, 108, 84]
    capped = broken(capsys, tmp_path, "fixed_limit_hilo", "p3 cc", "p3 cbr 10")
    assert "capped at 4 bets" in capped
    big = broken(capsys, tmp_path, "fixed_limit_hilo", "p1 cbr 4", "p1 cbr 2", occurrence=1)
    assert "bet to 2 is below the minimum of 4" in big  # the turn is a big-bet round


def test_minimum_bet_and_raise(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Minimum bet: the big blind; minimum raise: the largest bet or raise of the round."""
    result = golden(capsys, "minimum_raise")
    assert result["final_stacks"] == [216, 198, 186]
    error = broken(capsys, tmp_path, "minimum_raise", "p1 cbr 10", "p1 cbr 9")
    assert "raise to 9 is below the minimum of 10" in error
    error = broken(capsys, tmp_path, "minimum_raise", "p1 cbr 2", "p1 cbr 1")
    assert "bet to 1 is below the minimum of 2" in error


def test_short_all_in_does_not_reopen(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    """An all-in short of a full raise lets those who acted only call or fold (s.2)."""
    result = golden(capsys, "short_all_in")
    assert result["final_stacks"] == [199, 43, 186, 186]
    assert pots(result) == [(43, [1, 2, 3], [1])]
    error = broken(capsys, tmp_path, "short_all_in", "p4 cc", "p4 cbr 30")
    assert "does not reopen the betting" in error


def test_side_pots_and_uncalled_bet(capsys: pytest.CaptureFixture[str]) -> None:
    """Side pots by contribution levels; the uncalled part of a bet is returned (s.2)."""
    result = golden(capsys, "no_limit_all_in")
    assert [pot["amount"] for pot in result["pots"]] == [300, 100]
    assert sum(pot["amount"] for pot in result["pots"]) == 400  # 550 minus the returned 150


def test_folded_chips_stay_in_the_pot(capsys: pytest.CaptureFixture[str]) -> None:
    """The small blind folds its 1 chip; it stays in the main pot (s.2)."""
    result = golden(capsys, "short_all_in")
    assert result["pots"][0]["amount"] == 1 + 14 * 3
    assert 0 not in result["pots"][0]["eligible"]


def test_everyone_folds(capsys: pytest.CaptureFixture[str]) -> None:
    """The last player left takes the pot without showing (s.2)."""
    result = golden(capsys, "everyone_folds")
    assert result["final_stacks"] == [99, 98, 103]
    assert result["showdown"] == []


def test_all_in_run_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """All-in preflop: the board is dealt out with no betting (s.2); every hand is shown."""
    result = golden(capsys, "no_limit_all_in")
    assert [seat for seat, _ in result["showdown"]] == [2, 0, 1]
    assert all(kind == "show" for _, kind in result["showdown"])
    error = broken(capsys, tmp_path, "no_limit_all_in", '"p2 cc",', '"p2 cc", "p1 cc",')
    assert "the hand is already over" in error


# -- RULES.md section 4: the classic Omaha games ----------------------------------------------


def test_plo_with_five_hole_cards_heads_up(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    """5-card PLO; heads-up the button (p2) posts the small blind and acts first preflop."""
    result = golden(capsys, "plo5_heads_up")
    assert result["final_stacks"] == [102, 98]
    error = broken(capsys, tmp_path, "plo5_heads_up", '"p2 cc",', '"p1 cc",')
    assert 'player "p1" (seat 1) acts out of turn; player "p2" (seat 2) is to act' in error


def test_omaha_hilo_split(capsys: pytest.CaptureFixture[str]) -> None:
    """Half to the best high (trip nines), half to the best low (7-5-3-2-A)."""
    result = golden(capsys, "fixed_limit_hilo")
    assert result["pots"][0]["shares"] == {"0": 24, "1": 24}


def test_omaha_hilo_odd_chip_to_the_high(capsys: pytest.CaptureFixture[str]) -> None:
    result = golden(capsys, "hilo_odd_chip")
    assert result["pots"][0]["shares"] == {"1": 3, "2": 2}


def test_omaha_hilo_no_low_high_scoops(capsys: pytest.CaptureFixture[str]) -> None:
    result = golden(capsys, "hilo_no_low")
    assert result["pots"][0]["shares"] == {"1": 5}


def test_courchevel_first_flop_card_before_preflop_betting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (GOLDEN / "courchevel.phh").read_text()
    assert text.index('"d db 4c"') < text.index('"p2 cc"')
    result = golden(capsys, "courchevel")
    assert result["variant"] == "courchevel"
    assert result["final_stacks"] == [102, 98]
    error = broken(capsys, tmp_path, "courchevel", '"d db 4c",\n', "")
    assert "the history deals 4 more cards to board A where the hand needs" not in error
    assert "board A" in error


def test_showdown_order_last_aggressor_first_and_losers_muck(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The river bettor (p2) shows first, then clockwise; p1 cannot win and mucks."""
    result = golden(capsys, "showdown_order")
    assert result["showdown"] == [[1, "show"], [2, "show"], [0, "muck"]]
    assert result["final_stacks"] == [96, 96, 108]


def test_showdown_order_without_a_river_bet(capsys: pytest.CaptureFixture[str]) -> None:
    """No river bet: the first live player left of the button shows first."""
    result = golden(capsys, "minimum_raise")
    assert result["showdown"] == [[0, "show"], [2, "muck"]]


def test_exact_tie_splits_odd_chip_left_of_button(capsys: pytest.CaptureFixture[str]) -> None:
    """Two broadways split 5 chips; the odd chip goes to the first seat left of the button."""
    result = golden(capsys, "split_pot_odd_chip")
    assert result["pots"][0]["shares"] == {"1": 3, "2": 2}


# -- RULES.md section 5: 7 Card Stud Hi-Lo -------------------------------------------------


def test_stud_hilo_streets_limits_and_split(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    """Antes, lowest up card brings in (2c), completion to the small bet, the big bet from
    fifth street; pair of kings showing opens; high (flush) and low (wheel) split 63."""
    result = golden(capsys, "stud_hilo")
    assert result["final_stacks"] == [111, 110, 79]
    assert result["pots"][0]["shares"] == {"0": 32, "1": 31}
    error = broken(capsys, tmp_path, "stud_hilo", "p3 cbr 10", "p3 cbr 11")
    assert "bet to 11 is above the maximum of 10" in error


def test_stud_later_streets_open_with_best_showing_hand(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    error = broken(capsys, tmp_path, "stud_hilo", '"p3 cbr 5",\n    "p1 cc",\n    "p2 cc",\n'
                   '    "d dh p1 6h"', '"p1 cc",\n    "p2 cc",\n    "p3 cbr 5",\n'
                   '    "d dh p1 6h"', occurrence=1)
    assert 'player "p1" (seat 1) acts out of turn; player "p3" (seat 3) is to act' in error


def test_stud_bring_in_highest_card_with_suit_order(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    """Seed 004: the highest up card pays the bring-in; 7s beats 7h (spades > hearts)."""
    result = golden(capsys, "stud_bring_in_highest")
    assert result["final_stacks"] == [99, 102, 99]
    error = broken(capsys, tmp_path, "stud_bring_in_highest", '"p2 pb"', '"p1 pb"')
    assert 'player "p1" (seat 1) acts out of turn; player "p2" (seat 2) is to act' in error


# -- the rest of the card room: 5 Card Stud and Razz ------------------------------------------


def test_five_card_stud_streets_and_bring_in(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """One down and one up; the lowest up card (2c) brings in; K-3 showing opens third street,
    a pair of kings showing fourth, with the big bet; trip kings take 48."""
    result = golden(capsys, "stud5")
    assert result["final_stacks"] == [79, 94, 127]
    error = broken(capsys, tmp_path, "stud5", '"p2 pb"', '"p1 pb"')
    assert 'player "p1" (seat 1) acts out of turn; player "p2" (seat 2) is to act' in error
    error = broken(capsys, tmp_path, "stud5", "p3 cbr 10", "p3 cbr 5")
    assert "bet to 5 is below the minimum of 10" in error


def test_razz_bring_in_and_lowest_hand_showing(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """The king brings in (the ace is low); 7-6 showing opens fourth street ahead of a pair of
    aces showing; 7-6-4-2-A beats 7-6-5-3-A for the pot of 59."""
    result = golden(capsys, "razz")
    assert result["final_stacks"] == [97, 131, 72]
    error = broken(capsys, tmp_path, "razz", '"p1 pb"', '"p3 pb"')
    assert 'player "p3" (seat 3) acts out of turn; player "p1" (seat 1) is to act' in error
    error = broken(capsys, tmp_path, "razz", "p2 cbr 5", "p3 cbr 5")
    assert 'player "p3" (seat 3) acts out of turn; player "p2" (seat 2) is to act' in error


def test_five_card_draw(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Each player throws and is dealt in turn from the button's left; after the draw the first
    player left of the button opens; trip aces beat trip queens for the pot of 38."""
    result = golden(capsys, "five_card_draw")
    assert result["final_stacks"] == [122, 94, 84]
    error = broken(capsys, tmp_path, "five_card_draw", '"p1 sd 7s2h"', '"p1 sd 7s"')
    assert "shows Ac Ad Kc Ah 4d but was dealt Ac Ad Kc 2h Ah 4d" in error
    error = broken(capsys, tmp_path, "five_card_draw", '"p2 sd 4c"', '"p2 sd 4d"')
    assert 'player "p2" (seat 2) may throw only cards it holds' in error
    error = broken(capsys, tmp_path, "five_card_draw", '"d dh p2 7c"', '"d dh p2 4c"')
    assert "a card it has just thrown" in error


def test_stud_seats_at_most_seven(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = ("variant = 'F7S/8'\nantes = [1, 1, 1, 1, 1, 1, 1, 1]\nbring_in = 2\nsmall_bet = 5\n"
            "big_bet = 10\nstarting_stacks = [100, 100, 100, 100, 100, 100, 100, 100]\n"
            "actions = []\n")
    path = tmp_path / "eight.phh"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    assert "deals 2 to 7 players, not 8" in capsys.readouterr().err


def test_malformed_history(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text("variant = 'PO'\nactions = [\n")
    assert main(["replay", str(path)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
    error = broken(capsys, tmp_path, "pot_limit_max", "p3 cbr 7", "p3 raise 7")
    assert "action 5 ('p3 raise 7') is not an action" in error

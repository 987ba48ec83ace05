"""The rules at the edges where a player is all-in on a forced bet (issue 10; RULES.md sections
2 and 5), in blind games, ante games and stud, heads-up and three-handed."""

from __future__ import annotations

import random

import pytest
from engine_invariants import check_invariants

from boardroom.cards import parse_cards
from boardroom.engine import Deck, Hand, ScriptedCards, Stakes
from boardroom.engine import events as ev
from boardroom.engine.showdown import Pot
from boardroom.rules import BettingStructure, find_variant

BLIND_GAMES = ["plo", "omaha-hilo", "esg", "tilt"]
ANTE_GAMES = ["bomb", "xmas", "allocator"]


def dealt(variant_id: str, stakes: Stakes, stacks: list[int], button: int,
          seed: int = 1) -> Hand:
    return Hand(find_variant(variant_id), stakes, stacks, button,
                cards=Deck(rng=random.Random(seed)))


def returned(hand: Hand) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in hand.events if isinstance(e, ev.UncalledReturned)]


def play_out(hand: Hand) -> None:
    """Check or call down to the end (a seat to act always has something to decide)."""
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        assert not (legal.check and legal.raise_min is None), "prompted without a decision"
        if legal.bring_in is not None:
            hand.post_bring_in()
        elif legal.check:
            hand.check()
        else:
            hand.call()
        check_invariants(hand)


# -- forced bets for less: the full big blind is still the bet to call -------------------------


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_both_blinds_all_in_on_their_antes_leave_the_big_blind_to_call(game: str) -> None:
    stakes = Stakes(small_blind=1, big_blind=2, ante=2)
    hand = dealt(game, stakes, [2, 2, 100, 100], button=3)
    assert hand.bets == [0, 0, 0, 0]  # both blinds went all-in on the ante
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.seat == 2
    assert (legal.fold, legal.check, legal.call) == (True, False, 2)
    assert not legal.is_bet  # a raise over the big blind, not an opening bet
    if hand.variant.betting is BettingStructure.FIXED_LIMIT:
        assert (legal.raise_min, legal.raise_max) == (4, 4)
    else:
        # Pot limit: 2 + (8 antes + 2 to call) = 12.
        assert (legal.raise_min, legal.raise_max) == (4, 12)
    hand.raise_to(4)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call) == (3, 4)
    hand.fold()
    check_invariants(hand)
    # Nobody matched more than the antes (the blinds are all-in on them): seat 2 gets back
    # everything it put in above them.
    assert returned(hand) == [(2, 4)]


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_three_handed_with_both_blinds_all_in_on_antes_the_button_must_call_or_fold(
    game: str,
) -> None:
    stakes = Stakes(small_blind=1, big_blind=2, ante=2)
    hand = dealt(game, stakes, [2, 2, 100], button=2)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.fold, legal.check, legal.call) == (2, True, False, 2)
    assert legal.raise_min is None  # every other player is all-in
    hand.call()
    assert hand.is_over
    check_invariants(hand)
    assert returned(hand) == [(2, 2)]  # the call is matched by nobody
    assert sum(result.pot.amount for result in hand.results) == 6


# -- unmatched chips go back whatever ends the hand --------------------------------------------


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_heads_up_big_blind_all_in_on_the_ante_wins_only_what_it_matched(game: str) -> None:
    """RULES.md s.2: ante 2, blinds 1/2, the big blind has 1 chip; the button folds."""
    stakes = Stakes(small_blind=1, big_blind=2, ante=2)
    hand = dealt(game, stakes, [1, 100], button=1)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.fold, legal.call, legal.raise_min) == (1, True, 1, None)
    hand.fold()
    check_invariants(hand)
    assert returned(hand) == [(1, 2)]
    assert [(r.pot.amount, r.pot.eligible) for r in hand.results] == [(2, (0,))]
    assert hand.stacks == [2, 99]


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_heads_up_big_blind_all_in_on_the_ante_at_showdown(game: str) -> None:
    stakes = Stakes(small_blind=1, big_blind=2, ante=2)
    hand = dealt(game, stakes, [1, 100], button=1)
    hand.call()
    assert hand.is_over
    check_invariants(hand)
    assert returned(hand) == [(1, 3)]
    assert [r.pot.amount for r in hand.results] == [2]
    assert sorted(hand.stacks) in ([0, 101], [1, 100], [2, 99])


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_three_handed_short_big_blind_everyone_folds(game: str) -> None:
    # Seat 1's big blind is all-in on the ante (1 chip); seat 0 put in 3, seat 2 put in 2.
    stakes = Stakes(small_blind=1, big_blind=2, ante=2)
    hand = dealt(game, stakes, [100, 1, 100], button=2)
    hand.fold()  # seat 2
    hand.fold()  # seat 0
    check_invariants(hand)
    assert returned(hand) == [(0, 1)]  # above what any opponent put in
    assert hand.stacks == [98, 5, 98]


@pytest.mark.parametrize("game", ANTE_GAMES)
def test_ante_game_short_ante_is_returned_above_what_it_matched(game: str) -> None:
    stakes = Stakes(ante=2, big_blind=2)
    hand = dealt(game, stakes, [1, 100], button=1)
    assert hand.is_over  # nobody could respond: no prompt
    check_invariants(hand)
    assert returned(hand) == [(1, 1)]
    assert [(r.pot.amount, r.pot.eligible) for r in hand.results] == [(2, (0, 1))]


@pytest.mark.parametrize("game", ANTE_GAMES)
def test_ante_game_three_handed_short_ante_makes_a_main_and_a_side_pot(game: str) -> None:
    stakes = Stakes(ante=2, big_blind=2)
    hand = Hand(find_variant(game), stakes, [1, 100, 100], 2, cards=Deck(rng=random.Random(3)),
                manual_allocation=False)
    assert hand.pots() == [Pot(3, (0, 1, 2)), Pot(2, (1, 2))]
    play_out(hand)
    assert [(r.pot.amount, r.pot.eligible) for r in hand.results] == [(3, (0, 1, 2)),
                                                                       (2, (1, 2))]


# -- nobody is prompted when no one could respond ----------------------------------------------


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_heads_up_small_blind_calls_all_in_for_less_and_the_big_blind_is_not_prompted(
    game: str,
) -> None:
    hand = dealt(game, Stakes(small_blind=2, big_blind=4), [100, 3], button=1)
    assert hand.actor == 1
    hand.call()  # 1 more chip: all-in for 3, short of the big blind
    assert hand.actor is None
    assert hand.is_over
    check_invariants(hand)
    assert returned(hand) == [(0, 1)]
    assert not any(isinstance(e, ev.Checked) for e in hand.events)


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_heads_up_small_blind_calls_all_in_exactly_and_the_big_blind_is_not_prompted(
    game: str,
) -> None:
    hand = dealt(game, Stakes(small_blind=1, big_blind=2), [100, 2], button=1)
    hand.call()
    assert hand.is_over
    check_invariants(hand)
    assert not any(isinstance(e, ev.Checked) for e in hand.events)


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_three_handed_big_blind_not_prompted_when_everyone_else_is_all_in(game: str) -> None:
    hand = dealt(game, Stakes(small_blind=1, big_blind=2), [2, 100, 2], button=2)
    hand.call()  # seat 2, all-in
    hand.call()  # seat 0, the small blind, all-in
    assert hand.is_over
    check_invariants(hand)
    assert not any(isinstance(e, ev.Checked) for e in hand.events)


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_big_blind_not_prompted_after_a_fold_and_an_all_in_call(game: str) -> None:
    hand = dealt(game, Stakes(small_blind=1, big_blind=2), [2, 100, 100], button=2)
    hand.fold()  # seat 2
    hand.call()  # seat 0 all-in
    assert hand.is_over
    check_invariants(hand)


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_big_blind_still_has_its_option_when_a_caller_has_chips(game: str) -> None:
    hand = dealt(game, Stakes(small_blind=1, big_blind=2), [2, 100, 100], button=2)
    hand.call()  # seat 2 has chips behind
    hand.call()  # seat 0 all-in
    assert hand.actor == 1
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.check
    assert legal.raise_min is not None


# -- stud: the bring-in passes over a seat all-in on the ante ----------------------------------

STUD_STAKES = Stakes(ante=2, bring_in=2, small_bet=5, big_bet=10)


def stud_hand(rule: str, up: list[str], stacks: list[int]) -> Hand:
    """Third street up cards ``up`` (seats 0.., button last); everything else filler."""
    variant = find_variant("stud-hilo").with_options(bring_in=rule)
    fillers = iter(parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d "
                               "9d Td Jd Qd Kd Ad 2h 3h 4h 5h"))
    ups = parse_cards(" ".join(up))
    hole = {}
    for seat, card in enumerate(ups):
        downs = []
        while len(downs) < 6:
            filler = next(fillers)
            if filler not in ups:
                downs.append(filler)
        hole[seat] = [downs[0], downs[1], card, *downs[2:]]
    return Hand(variant, STUD_STAKES, stacks, len(stacks) - 1, cards=ScriptedCards(hole, {}))


@pytest.mark.parametrize(("rule", "up"), [("lowest", ["2s", "Ks", "3s"]),
                                          ("highest", ["As", "3s", "Ks"])])
def test_bring_in_falls_to_the_next_seat_with_chips(rule: str, up: list[str]) -> None:
    # Seat 0 holds the card that brings in but is all-in on its ante: seat 1 brings in, not
    # seat 2 (who holds the next card in bring-in order).
    hand = stud_hand(rule, up, [1, 100, 100])
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.bring_in) == (1, 2)
    assert legal.raise_min == 5  # or complete to the small bet
    assert hand.pots() == [Pot(3, (0, 1, 2)), Pot(2, (1, 2))]  # the short ante's main pot
    play_out(hand)
    main = hand.results[0].pot
    assert (main.amount, main.eligible) == (3, (0, 1, 2))


def test_bring_in_passes_clockwise_round_the_table() -> None:
    # Seat 2 (last, the button) holds the bring-in card, all-in: it passes to seat 0.
    hand = stud_hand("lowest", ["Ks", "3s", "2s"], [100, 100, 1])
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.bring_in) == (0, 2)


def test_heads_up_stud_short_ante_comes_back_and_nobody_is_prompted() -> None:
    hand = stud_hand("lowest", ["Ks", "2s"], [1, 100])
    assert hand.is_over
    check_invariants(hand)
    assert returned(hand) == [(1, 1)]
    assert [(r.pot.amount, r.pot.eligible) for r in hand.results] == [(2, (0, 1))]

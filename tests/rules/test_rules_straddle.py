"""Straddles (issue 15): a UTG or button straddle of twice the big blind in every blind game,
posted before the cards, acting last preflop, and a short straddle treated as RULES.md s.2
treats every forced bet posted all-in for less (the full straddle stays the bet to call; the
part nobody matched goes back)."""

from __future__ import annotations

import random

import pytest

from boardroom.engine import Call, Check, Deck, Draw, Fold, Hand, RaiseTo, Stakes, StakesError
from boardroom.engine import events as ev
from boardroom.rules import BettingStructure, ForcedBets, find_variant
from boardroom.rules.variants import VARIANTS

BLIND_GAMES = [v.id for v in VARIANTS if v.forced_bets is ForcedBets.BLINDS]
STAKES = Stakes(small_blind=1, big_blind=2)


def _hand(game: str, stacks: list[int], straddle: str | None, button: int = 0) -> Hand:
    variant = find_variant(game)
    return Hand(variant, STAKES, stacks, button, cards=Deck(rng=random.Random(7)),
                straddle=straddle)


def _posts(hand: Hand) -> list[tuple[int, int, str]]:
    return [(e.seat, e.amount, e.blind) for e in hand.events if isinstance(e, ev.BlindPosted)]


def test_every_blind_game_is_covered() -> None:
    assert {"esg", "esg-low", "balance", "tilt", "plo", "omaha-hilo", "courchevel", "holdem",
            "five-card-draw", "27-single-draw", "27-triple-draw", "badugi"} <= set(BLIND_GAMES)


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_utg_straddle_posts_twice_the_big_blind_and_acts_last(game: str) -> None:
    # Button 0: small blind 1, big blind 2, UTG 3 straddles 4; seat 0 (the button) acts first.
    hand = _hand(game, [100] * 4, "utg")
    assert _posts(hand) == [(1, 1, "small"), (2, 2, "big"), (3, 4, "straddle")]
    assert hand.straddle_seat == 3
    assert hand.current_bet == 4
    assert hand.actor == 0
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.call == 4
    assert not legal.check
    if hand.variant.betting is BettingStructure.FIXED_LIMIT:
        assert (legal.raise_min, legal.raise_max) == (6, 6)  # the straddle is the second bet
    else:
        assert legal.raise_min == 8  # a full raise is at least the straddle
        if hand.variant.betting is BettingStructure.POT_LIMIT:
            assert legal.raise_max == 4 + (1 + 2 + 4) + 4  # RULES.md s.2 with the straddle in
    for _ in range(3):  # button, small blind, big blind call
        hand.apply(hand.actor or 0, Call())
    assert hand.actor == 3  # the straddler last, with the option
    option = hand.legal_actions()
    assert option is not None
    assert option.check
    assert option.raise_min is not None
    hand.apply(3, Check())
    assert hand.street_index == 1 or hand.is_drawing
    assert sum(hand.contributed) == 16


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_button_straddle_starts_the_action_with_the_small_blind(game: str) -> None:
    hand = _hand(game, [100] * 4, "button")
    assert _posts(hand) == [(1, 1, "small"), (2, 2, "big"), (0, 4, "straddle")]
    order = []
    while hand.street_index == 0 and not hand.is_drawing and hand.actor is not None:
        order.append(hand.actor)
        hand.apply(hand.actor, Call() if hand.to_call(hand.actor) else Check())
    assert order == [1, 2, 3, 0]  # small blind, big blind, UTG, then the button


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_three_handed_the_utg_straddle_is_the_button(game: str) -> None:
    hand = _hand(game, [50] * 3, "utg")
    assert _posts(hand)[-1] == (0, 4, "straddle")
    assert hand.actor == 1  # the small blind, left of the straddler


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_heads_up_has_no_straddle(game: str) -> None:
    hand = _hand(game, [50, 50], "utg")
    assert [post[2] for post in _posts(hand)] == ["small", "big"]
    assert hand.straddle_seat is None
    assert hand.current_bet == 2


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_a_short_straddle_is_all_in_and_the_full_straddle_stays_to_call(game: str) -> None:
    # UTG has 3 chips: all-in straddling for 3, but the others still face 4.
    hand = _hand(game, [100, 100, 100, 3], "utg")
    assert _posts(hand)[-1] == (3, 3, "straddle")
    assert hand.current_bet == 4
    assert hand.legal_actions() is not None
    assert hand.legal_actions().call == 4
    hand.apply(0, Fold())
    hand.apply(1, Fold())
    hand.apply(2, Fold())  # the big blind folds too: the straddler wins what it could
    assert hand.is_over
    returned = [e for e in hand.events if isinstance(e, ev.UncalledReturned)]
    assert returned == [ev.UncalledReturned(3, 1)]  # 3 against the big blind's 2
    assert hand.stacks == [100, 99, 98, 3 + 1 + 2]
    assert sum(hand.stacks) == 303


@pytest.mark.parametrize("game", BLIND_GAMES)
def test_a_short_straddle_called_makes_a_side_pot(game: str) -> None:
    hand = _hand(game, [100, 100, 100, 3], "utg")
    hand.apply(0, Fold())
    hand.apply(1, Call())  # the small blind completes to 4
    hand.apply(2, Call())  # the big blind too
    pots = hand.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(9, (1, 2, 3)), (2, (1, 2))]
    while not hand.is_over:
        seat = hand.actor
        if seat is None:
            break
        legal = hand.legal_actions()
        assert legal is not None
        if legal.draw is not None:
            hand.apply(seat, Draw())
        else:
            hand.apply(seat, Check() if legal.check else Call())
    assert sum(hand.stacks) == 303


@pytest.mark.parametrize("game", ["plo", "esg", "tilt"])
def test_a_straddler_all_in_for_less_than_the_big_blind_still_leaves_the_straddle_to_call(
        game: str) -> None:
    hand = _hand(game, [100, 100, 100, 1], "utg")
    assert _posts(hand)[-1] == (3, 1, "straddle")
    assert hand.current_bet == 4
    hand.apply(0, RaiseTo(8))  # a full raise over the straddle
    assert hand.current_bet == 8


def test_a_straddle_needs_a_blind_game() -> None:
    with pytest.raises(StakesError, match="no blinds: no straddle"):
        Hand(find_variant("xmas"), Stakes(ante=1, big_blind=2), [50] * 4, 0, straddle="utg")
    with pytest.raises(StakesError, match="'utg' or 'button'"):
        Hand(find_variant("plo"), STAKES, [50] * 4, 0, straddle="double")
    with pytest.raises(StakesError, match="dead small blind"):
        Hand(find_variant("plo"), STAKES, [50] * 4, 0, straddle="utg", dead_small_blind=True)

"""Betting, pots and the flow of a hand (RULES.md sections 1, 2, 4 and 5), hand by hand."""

from __future__ import annotations

import random

import pytest
from engine_invariants import check_invariants

from boardroom.cards import parse_cards
from boardroom.engine import ActionError, Deck, Hand, NotYourTurnError, Stakes, StakesError
from boardroom.engine import events as ev
from boardroom.engine.betting import pot_limit_max_raise_to
from boardroom.engine.pots import side_pots, uncalled_bet
from boardroom.engine.showdown import Pot
from boardroom.engine.view import events_for, view_for
from boardroom.rules import find_variant

PLO = find_variant("plo")
BLINDS = Stakes(small_blind=1, big_blind=2)


def plo_hand(stacks: list[int], button: int = 0, seed: int = 1, **options: object) -> Hand:
    variant = PLO.with_options(**options) if options else PLO  # type: ignore[arg-type]
    return Hand(variant, BLINDS, stacks, button, cards=Deck(rng=random.Random(seed)))


def test_pot_limit_worked_examples() -> None:
    """RULES.md s.7: blinds 1/2, the first player may raise to 7, the next one to 24."""
    assert pot_limit_max_raise_to(2, 3, 2) == 7
    hand = plo_hand([200] * 4, button=3)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.call, legal.raise_min, legal.raise_max) == (2, 2, 4, 7)
    hand.raise_to(7)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.raise_min, legal.raise_max) == (3, 12, 24)


def test_precise_errors() -> None:
    hand = plo_hand([200] * 4, button=3)
    with pytest.raises(ActionError, match="raise to 8 is above the pot limit of 7"):
        hand.raise_to(8)
    with pytest.raises(ActionError, match="raise to 3 is below the minimum of 4"):
        hand.raise_to(3)
    with pytest.raises(ActionError, match="cannot check facing a bet of 2"):
        hand.check()
    assert not hand.can_raise_to(8)
    assert hand.can_raise_to(7)
    hand.fold()
    hand.fold()
    hand.fold()  # the small blind folds: the big blind wins without a showdown
    assert hand.is_over
    with pytest.raises(NotYourTurnError):
        hand.call()
    assert hand.stacks == [199, 201, 200, 200]
    assert not any(isinstance(e, ev.HandShown) for e in hand.events)


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() -> None:
    hand = plo_hand([100, 100], button=1)
    posted = [e for e in hand.events if isinstance(e, ev.BlindPosted)]
    assert [(e.seat, e.blind) for e in posted] == [(1, "small"), (0, "big")]
    assert hand.actor == 1
    hand.call()
    assert hand.actor == 0
    hand.check()
    assert hand.street is not None
    assert hand.street.name == "flop"
    assert hand.actor == 0  # the big blind acts first after the flop; the button last


def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    # Seat 2 raises to 4, seat 3 to 10 (a full raise of 6); the big blind goes all-in for 14,
    # short of a full raise: seat 2 still faces seat 3's full raise and may re-raise, seat 3
    # faces only the short all-in and may only call or fold.
    hand = plo_hand([200, 14, 200, 200], button=3)
    hand.raise_to(4)  # seat 2
    hand.raise_to(10)  # seat 3 (button)
    hand.fold()  # seat 0 small blind
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.seat == 1
    hand.raise_to(14)  # all-in, 4 more than 10: short of a full raise of 6
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.seat == 2
    assert legal.raise_min == 20  # the minimum raise is a full raise (6) over the all-in
    hand.call()
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.seat == 3
    assert legal.raise_min is None
    refusal = hand.raise_refusal()
    assert refusal is not None
    assert "does not reopen" in refusal
    with pytest.raises(ActionError, match="does not reopen"):
        hand.raise_to(30)
    hand.call()
    check_invariants(hand)


def test_fixed_limit_cap_of_four_bets() -> None:
    hand = plo_hand([500] * 3, button=0, betting="fixed-limit")
    # Preflop the big blind is the first bet: three raises of the small bet (2) follow.
    for expected in (4, 6, 8):
        legal = hand.legal_actions()
        assert legal is not None
        assert (legal.raise_min, legal.raise_max) == (expected, expected)
        hand.raise_to(expected)
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.raise_min is None
    with pytest.raises(ActionError, match="capped at 4 bets"):
        hand.raise_to(10)
    hand.call()
    hand.call()
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.raise_min, legal.raise_max) == (2, 2)  # flop: the small bet
    hand.check()
    hand.check()
    hand.check()
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.raise_min, legal.raise_max) == (4, 4)  # turn: the big bet


def test_side_pots_by_contribution_levels_with_folded_chips() -> None:
    pots = side_pots([50, 100, 100, 30], [True, True, True, False])
    assert pots == [Pot(180, (0, 1, 2)), Pot(100, (1, 2))]
    assert uncalled_bet([0, 40, 10, 10]) == (1, 30)
    assert uncalled_bet([20, 20, 5]) is None


def test_uncalled_bet_returned_and_all_in_run_out() -> None:
    hand = plo_hand([30, 500, 500], button=2)
    hand.raise_to(7)  # seat 0 small blind? no: three-handed, seat 0 is SB, 1 BB, 2 first
    check_invariants(hand)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.raise_max is not None and legal.seat == 0:
            hand.raise_to(legal.raise_max)
        elif legal.call is not None:
            hand.call()
        else:
            hand.check()
        check_invariants(hand)
    assert hand.is_over


def test_everyone_folds_wins_without_showdown_and_views_hide_cards() -> None:
    hand = plo_hand([100, 100, 100], button=0)
    seat = hand.actor
    assert seat is not None
    spectator = view_for(hand, None)
    assert all(card is None for s in spectator.seats for card in s.cards)
    own = view_for(hand, seat)
    assert all(card is not None for card in own.seats[seat].cards)
    assert all(card is None for s in own.seats if s.seat != seat for card in s.cards)
    assert own.legal is not None
    assert spectator.legal is None
    hand.fold()
    hand.fold()
    assert hand.is_over
    assert all(isinstance(e, ev.HoleDealt) and all(c is None for c in e.cards)
               for e in events_for(hand, None) if isinstance(e, ev.HoleDealt))


def test_stakes_are_checked() -> None:
    with pytest.raises(StakesError):
        Stakes(small_blind=-1)
    with pytest.raises(StakesError, match="needs blinds"):
        Hand(PLO, Stakes(ante=1), [100, 100], 0)
    with pytest.raises(StakesError, match="not 1"):
        Hand(PLO, BLINDS, [100], 0)


def test_burns_before_each_community_deal() -> None:
    deck = list(range(52))
    hand = Hand(PLO, BLINDS, [100, 100], 0, cards=Deck(deck))
    hand.call()
    hand.check()
    assert hand.burned == [8]
    assert hand.boards["A"] == [9, 10, 11]
    assert hand.hole[1] == list(parse_cards("2c 2d 2h 2s"))


def test_bring_in_ties_by_suit() -> None:
    """Highest card (seed 004): s > h > c > d; lowest card: clubs lowest (c < d < h < s)."""
    from boardroom.engine.stud import best_showing_seat, bring_in_seat
    from boardroom.rules import BringIn

    up = list(enumerate(parse_cards("7h 7s 2d 2c")))
    assert bring_in_seat(up, BringIn.HIGHEST) == 1
    assert bring_in_seat(up, BringIn.LOWEST) == 3
    assert bring_in_seat(list(enumerate(parse_cards("7d 7c"))), BringIn.HIGHEST) == 1
    showing = [(0, parse_cards("Ks Qd")), (1, parse_cards("2c 2d")), (2, parse_cards("2h 2s"))]
    assert best_showing_seat(showing) == 1  # a pair beats king-queen; equal pairs: first seat

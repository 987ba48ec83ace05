"""Property test over random hands of every variant in the registry with stacks from 1 chip up,
so that antes, blinds and bring-ins often put players all-in (issue 10; RULES.md s.2, s.5).

After every action: chips are conserved and no card is in two places (``check_invariants``).
Whenever someone is to act, they have a decision to make: never a lone check with nothing else
allowed. At the end no chip nobody matched stays in the pots: the largest contribution equals
the second largest (the rest went back to its owner), whether the hand ended by folds or at a
showdown, and every pot is paid to players eligible for it.
"""

from __future__ import annotations

import random

from engine_invariants import check_invariants, random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardroom.engine import Deck, Hand, Stakes
from boardroom.rules import ForcedBets, Variant
from boardroom.rules.variants import VARIANTS


def _stakes(variant: Variant, ante: int, small_blind: int) -> Stakes:
    if variant.forced_bets is ForcedBets.BLINDS:
        return Stakes(small_blind=small_blind, big_blind=2, ante=ante)
    if variant.forced_bets is ForcedBets.BRING_IN:
        return Stakes(ante=max(ante, 1), bring_in=2, small_bet=4, big_bet=8)
    return Stakes(ante=max(ante, 1), big_blind=2)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    variant = draw(st.sampled_from(VARIANTS))
    hole = draw(st.sampled_from(sorted(variant.max_players_by_hole)))
    variant = variant.with_options(hole_cards=hole)
    betting = draw(st.sampled_from(variant.betting_options or (variant.betting,)))
    variant = variant.with_options(betting=betting.value)
    players = draw(st.integers(2, min(variant.max_players, 6)))
    # Mostly tiny stacks: forced bets often put players all-in, for less or exactly.
    stacks = draw(st.lists(st.one_of(st.integers(1, 5), st.integers(1, 60)),
                           min_size=players, max_size=players))
    stakes = _stakes(variant, draw(st.integers(0, 3)), draw(st.integers(1, 2)))
    seed = draw(st.integers(0, 2**32 - 1))
    hand = Hand(variant, stakes, stacks, draw(st.integers(0, players - 1)),
                cards=Deck(rng=random.Random(seed)))
    return hand, random.Random(seed)


def _act(hand: Hand, rng: random.Random) -> None:
    legal = hand.legal_actions()
    assert legal is not None
    assert not (legal.check and legal.raise_min is None and legal.bring_in is None), (
        f"seat {legal.seat} prompted with nothing to decide")
    random_action(hand, legal, rng)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_random_hands_with_forced_all_ins(dealt: tuple[Hand, random.Random]) -> None:
    hand, rng = dealt
    check_invariants(hand)
    while not hand.is_over:
        _act(hand, rng)
        check_invariants(hand)
    top, second = sorted(hand.contributed)[-2:][::-1]
    assert top == second, f"{top - second} unmatched chips stayed in the pots"
    for result in hand.results:
        assert set(result.shares) <= set(result.pot.eligible)
        assert sum(result.shares.values()) == result.pot.amount
    assert sum(hand.stacks) == sum(hand.starting_stacks)

"""Property tests: random hands of every single-board game, driven by hypothesis.

After every event chips are conserved and no card is dealt twice; every listed legal action is
accepted and every unlisted one rejected; the pot-limit maximum is RULES.md's formula.
"""

from __future__ import annotations

import random

from engine_invariants import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.engine import ActionError, Deck, Hand, Stakes
from boardroom.rules import BettingStructure, Variant, find_variant

GAMES: list[tuple[Variant, Stakes]] = []
for structure in ("pot-limit", "no-limit", "fixed-limit"):
    for holes in (4, 5, 6):
        GAMES.append((find_variant("plo").with_options(hole_cards=holes, betting=structure),
                      Stakes(small_blind=1, big_blind=2)))
    GAMES.append((find_variant("courchevel").with_options(betting=structure),
                  Stakes(small_blind=5, big_blind=10, ante=1)))
    GAMES.append((find_variant("holdem").with_options(betting=structure),
                  Stakes(small_blind=1, big_blind=2)))
for structure in ("pot-limit", "fixed-limit"):
    GAMES.append((find_variant("omaha-hilo").with_options(betting=structure),
                  Stakes(small_blind=1, big_blind=2)))
    for bring_in in ("highest", "lowest"):
        GAMES.append((find_variant("stud-hilo").with_options(betting=structure,
                                                              bring_in=bring_in),
                      Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)))
    for game in ("stud", "razz", "stud5"):
        GAMES.append((find_variant(game).with_options(betting=structure),
                      Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)))

Action = tuple[str, int]


def build(game: int, stacks: list[int], button: int, seed: int, actions: list[Action]) -> Hand:
    variant, stakes = GAMES[game]
    hand = Hand(variant, stakes, stacks, button, cards=Deck(rng=random.Random(seed)))
    for action in actions:
        apply(hand, action)
    return hand


def apply(hand: Hand, action: Action) -> None:
    kind, amount = action
    if kind == "fold":
        hand.fold()
    elif kind == "check":
        hand.check()
    elif kind == "call":
        hand.call()
    elif kind == "bring_in":
        hand.post_bring_in()
    else:
        hand.raise_to(amount)


def check_legal_actions(hand: Hand, replay: list[Action], rebuild: object) -> list[Action]:
    legal = hand.legal_actions()
    assert legal is not None
    assert hand.can_fold() == legal.fold
    assert hand.can_check() == legal.check
    assert hand.can_call() == (legal.call is not None)
    assert hand.can_post_bring_in() == (legal.bring_in is not None)
    listed: list[Action] = []
    if legal.fold:
        listed.append(("fold", 0))
    if legal.check:
        listed.append(("check", 0))
    if legal.call is not None:
        listed.append(("call", 0))
    if legal.bring_in is not None:
        listed.append(("bring_in", 0))
    seat = legal.seat
    all_in = hand.stacks[seat] + hand.bets[seat]
    if legal.raise_min is None:
        assert hand.raise_refusal() is not None
        for amount in (hand.current_bet + 1, all_in):
            assert not hand.can_raise_to(amount)
    else:
        low, high = legal.raise_min, legal.raise_max
        assert high is not None
        assert low <= high <= all_in
        for amount in {low, high, (low + high) // 2}:
            assert hand.can_raise_to(amount)
            listed.append(("raise", amount))
        assert not hand.can_raise_to(low - 1)
        assert not hand.can_raise_to(high + 1)
        if hand.variant.betting is BettingStructure.POT_LIMIT and high < all_in:
            # RULES.md s.2: current bet + every chip in the pots and on the table + the call.
            owed = hand.current_bet - hand.bets[seat]
            assert high == max(low, hand.current_bet + sum(hand.contributed) + owed)
    # Every listed action is accepted by a fresh copy of the hand.
    for action in listed:
        copy = rebuild(replay)  # type: ignore[operator]
        apply(copy, action)
        check_invariants(copy)
    return listed


@settings(max_examples=120, deadline=None)
@given(
    game=st.integers(0, len(GAMES) - 1),
    seats=st.integers(2, 7),
    data=st.data(),
    seed=st.integers(0, 2**32),
)
def test_random_hands_keep_every_invariant(game: int, seats: int, data: st.DataObject,
                                           seed: int) -> None:
    variant, _ = GAMES[game]
    seats = min(seats, variant.max_players)
    stacks = data.draw(st.lists(st.integers(6, 400), min_size=seats, max_size=seats))
    button = data.draw(st.integers(0, seats - 1))
    actions: list[Action] = []

    def rebuild(replay: list[Action]) -> Hand:
        return build(game, stacks, button, seed, replay)

    hand = rebuild([])
    check_invariants(hand)
    while not hand.is_over:
        listed = check_legal_actions(hand, actions, rebuild)
        action = data.draw(st.sampled_from(listed))
        apply(hand, action)
        actions.append(action)
        check_invariants(hand)
        if hand.is_over:
            break
    assert hand.actor is None
    try:
        hand.fold()
    except ActionError:
        pass
    else:
        raise AssertionError("a finished hand accepted an action")

"""``boardroom bench engine``: random-action 6-max PLO hands, our engine against PokerKit.

Both engines play the same kind of hand with the same action policy: at every decision a random
choice among fold (when legal), check or call, the minimum raise and the pot-limit maximum.
Cards are dealt, shown and paid by each engine itself (PokerKit with its automations), so the
numbers compare whole hands: forced bets, dealing, betting, showdown and settlement.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

SEATS = 6
STACK = 200


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=3000, help="hands per engine")
    parser.add_argument("--seed", type=int, default=1)


def _choose(rng: random.Random, can_fold: bool, low: int | None, high: int | None) -> int:
    """0 fold, 1 check/call, 2 minimum raise, 3 maximum raise."""
    options = [1, 1]
    if can_fold:
        options.append(0)
    if low is not None:
        options += [2, 3]
    return rng.choice(options)


def play_ours(hands: int, seed: int) -> float:
    from boardroom.engine import Deck, Hand, Stakes
    from boardroom.rules import find_variant

    variant = find_variant("plo")
    stakes = Stakes(small_blind=1, big_blind=2)
    rng = random.Random(seed)
    start = time.perf_counter()
    for number in range(hands):
        hand = Hand(variant, stakes, [STACK] * SEATS, number % SEATS, cards=Deck(rng=rng))
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            choice = _choose(rng, legal.fold, legal.raise_min, legal.raise_max)
            if choice == 0:
                hand.fold()
            elif choice == 1:
                if legal.check:
                    hand.check()
                else:
                    hand.call()
            else:
                assert legal.raise_min is not None
                assert legal.raise_max is not None
                hand.raise_to(legal.raise_min if choice == 2 else legal.raise_max)
    return time.perf_counter() - start


def play_pokerkit(hands: int, seed: int) -> float:
    from pokerkit import Automation, PotLimitOmahaHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(hands):
        state: Any = PotLimitOmahaHoldem.create_state(
            automations, False, 0, (1, 2), 2, (STACK,) * SEATS, SEATS)
        while state.status:
            can_raise = state.can_complete_bet_or_raise_to()
            low = state.min_completion_betting_or_raising_to_amount if can_raise else None
            high = state.max_completion_betting_or_raising_to_amount if can_raise else None
            choice = _choose(rng, state.can_fold(), low, high)
            if choice == 0:
                state.fold()
            elif choice == 1:
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(low if choice == 2 else high)
    return time.perf_counter() - start


def run(args: argparse.Namespace) -> int:
    hands: int = args.hands
    if hands <= 0:
        raise ValueError("--hands must be at least 1")
    ours = play_ours(hands, args.seed)
    try:
        theirs: float | None = play_pokerkit(max(1, hands // 10), args.seed)
        peer_hands = max(1, hands // 10)
    except ImportError:
        theirs, peer_hands = None, 0
    ours_rate = hands / ours
    print(f"random-action 6-max PLO, stacks {STACK}, blinds 1/2")
    print(f"{'engine':<22}{'hands':>8}{'seconds':>10}{'hands/s':>12}{'ratio':>8}")
    print(f"{'boardroom':<22}{hands:>8}{ours:>10.2f}{ours_rate:>12.0f}{'':>8}")
    if theirs is None:
        print("pokerkit is not installed: pip install -e '.[test]'")
        return 1
    theirs_rate = peer_hands / theirs
    print(f"{'pokerkit 0.7.7':<22}{peer_hands:>8}{theirs:>10.2f}{theirs_rate:>12.0f}"
          f"{ours_rate / theirs_rate:>7.1f}x")
    return 0

"""``boardroom bench equity``: the all-in equity of every game, timed, beside PokerKit's.

For every game with an equity (``engine.equity.supports``), heads-up and at its most players,
and for every street that can leave cards to come, a seeded hand is played with everyone
shoving on that street; its first run-out spot is timed (the best of ``--repeat`` runs, wall and
CPU milliseconds) against the goal of 300 ms, judged on CPU time as the wall time counts other
processes too. Then the single-board games PokerKit covers (Hold'em, PLO, Omaha Hi-Lo) are timed
beside PokerKit's ``calculate_equities`` (at most ``PEER_DEALS`` deals, it is slow): the ratio
of CPU time per deal, and both answers for the first player.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from boardroom.cards import format_card, new_deck
from boardroom.engine import Deck, Hand
from boardroom.engine.betting import default_stakes
from boardroom.engine.equity import Equity, runout_equity, supports
from boardroom.engine.runout import RunoutSpot
from boardroom.rules import VARIANTS, Variant, find_variant

GOAL_MS = 300.0
PEER_DEALS = 1_000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs of every spot, the best counts (default: 3)")
    parser.add_argument("--seed", type=int, default=7, help="deck seed (default: 7)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")


def shove_hand(variant: Variant, stacks: Sequence[int], street: int, seed: int) -> Hand:
    """A hand of ``variant`` (deck shuffled by ``seed``, stakes ``default_stakes``) where
    everyone checks or calls until ``street`` and then makes the largest raise at every
    decision, played to its end."""
    deck = new_deck()
    random.Random(seed).shuffle(deck)
    hand = Hand(variant, default_stakes(variant), stacks, 0,
                cards=Deck(deck, rng=random.Random(seed)))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if hand.street_index >= street and legal.raise_max is not None:
            hand.raise_to(legal.raise_max)
        elif legal.check:
            hand.check()
        elif legal.bring_in is not None:
            hand.post_bring_in()
        else:
            hand.call()
    return hand


def shove_spot(variant: Variant, players: int, street: int, seed: int) -> RunoutSpot | None:
    """The first run-out spot of ``shove_hand`` with equal stacks (None: nobody was all-in by
    its end)."""
    hand = shove_hand(variant, [30 if variant.is_stud else 200] * players, street, seed)
    return hand.runout[0] if hand.runout else None


def _best(run: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall * 1000, cpu * 1000, result


def _ours(variant: Variant, spot: RunoutSpot) -> Callable[[], Equity]:
    def run() -> Equity:
        return runout_equity(variant, spot)
    return run


def _pokerkit(variant: Variant, spot: RunoutSpot, samples: int) -> Callable[[], list[float]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pokerkit as pk
    hand_types: tuple[type[pk.Hand], ...] = {
        "holdem": (pk.StandardHighHand,), "plo": (pk.OmahaHoldemHand,),
        "omaha-hilo": (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand)}[variant.id]
    ranges = [[list(pk.Card.parse("".join(format_card(c) for c in cards)))]
              for _, cards in spot.hands]
    board = list(pk.Card.parse("".join(format_card(c) for c in dict(spot.boards)["A"])))

    def run() -> list[float]:
        return pk.calculate_equities(ranges, board, variant.hole_cards, 5, pk.Deck.STANDARD,
                                     hand_types, sample_count=samples)
    return run


def run(args: argparse.Namespace) -> int:
    repeat: int = args.repeat
    if repeat < 1:
        raise ValueError("--repeat must be at least 1")
    chosen = {g for g in args.games.split(",") if g}
    games = [v for v in VARIANTS if supports(v) and (not chosen or v.id in chosen)]
    unknown = chosen - {v.id for v in VARIANTS}
    if unknown:
        raise ValueError(f"no such game: {', '.join(sorted(unknown))}")
    print(f"all-in equity, best of {repeat}; goal {GOAL_MS:.0f} ms per spot")
    print(f"{'game':<18}{'players':>8} {'street':<9}{'how':<7}{'deals':>8}{'margin':>8}"
          f"{'wall ms':>9}{'cpu ms':>8}  verdict")
    worst, missed = 0.0, 0
    spots: dict[str, tuple[RunoutSpot, Equity]] = {}
    for variant in games:
        for players in sorted({2, variant.max_players}):
            for street in range(len(variant.streets) - 1):
                spot = shove_spot(variant, players, street, args.seed)
                if spot is None or spot.street_index != street:
                    continue
                wall, cpu, equity = _best(_ours(variant, spot), repeat)
                worst = max(worst, cpu)
                missed += cpu > GOAL_MS
                margin = "exact" if equity.exact else f"±{float(equity.margin) * 100:.1f}%"
                print(f"{variant.id:<18}{players:>8} {spot.street:<9}"
                      f"{'exact' if equity.exact else 'sample':<7}{equity.deals:>8}{margin:>8}"
                      f"{wall:>9.1f}{cpu:>8.1f}  {'meets' if cpu <= GOAL_MS else 'MISSES'}")
                if variant.id in ("holdem", "plo", "omaha-hilo") and players == 2:
                    spots.setdefault(f"{variant.id} {spot.street}", (spot, equity))
    print(f"slowest spot {worst:.1f} CPU ms; {missed} spot(s) over the goal (judged on CPU "
          f"time: the wall time also counts other processes on a shared machine)")
    print()
    print(f"beside PokerKit's calculate_equities (Monte Carlo, at most {PEER_DEALS} deals: it is "
          f"slow), heads-up; ratio of CPU time per deal")
    print(f"{'spot':<22}{'ours':>16}{'PokerKit':>18}{'ratio':>8}{'ours p1':>9}"
          f"{'PokerKit p1':>13}")
    for name, (spot, equity) in spots.items():
        variant = find_variant(name.split()[0])
        _, ours, mine = _best(_ours(variant, spot), repeat)
        peer_deals = min(PEER_DEALS, equity.deals)
        _, theirs, peer = _best(_pokerkit(variant, spot, peer_deals), 1)
        seat = spot.hands[0][0]  # PokerKit's first player
        first = next(s.share for s in mine.pots[0].seats if s.seat == seat)
        ratio = (theirs / peer_deals) / (ours / equity.deals)
        print(f"{name:<22}{f'{ours:.1f} ms/{equity.deals}':>16}"
              f"{f'{theirs:.1f} ms/{peer_deals}':>18}{ratio:>7.0f}x"
              f"{float(first) * 100:>8.1f}%{peer[0] * 100:>12.1f}%")
    return 1 if missed else 0

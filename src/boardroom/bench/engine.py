"""``boardroom bench engine``: random-action hands per second, our engine against PokerKit.

Every engine plays whole hands with the same action policy: at every decision a random choice
among fold (when legal), check or call, the minimum raise and the pot-limit maximum. Cards are
dealt, shown and paid by each engine itself (PokerKit with its automations), so the numbers
compare whole hands: forced bets, dealing, redraws, betting, allocation (the engine's allocation
for every seat), showdown and settlement. Ours: 6-max PLO and every multi-board variant (at its
max players, up to 6); PokerKit: 6-max PLO with one and with two boards
(``starting_board_count=2``), side by side in the same run; and each game of the rest of the
card room (Hold'em no limit and fixed limit, 7 Card Stud, Razz) against PokerKit's same game
(the bring-in always posted, by both); ``--card-room`` runs those pairs alone. Every engine
is timed in CPU seconds of this process (``time.process_time``), not wall time: on a shared
machine the ratio then compares work, not the other processes. Last, the time to build the views,
with pills and NUTS, for all seats of a 7-player Balance river (median of repeated builds), and
per variant for every seat of a river: the first views of a new board state and the views
after a bet (the pills cached, ``boardroom.engine.pills``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from typing import Any

SEATS = 6
STACK = 200
MULTIBOARD = ("esg", "esg-low", "xmas", "balance", "bomb", "allocator", "allocator-redraw",
              "tilt")
# The rest of the card room against PokerKit's same game: (our game, betting, PokerKit class).
CARD_ROOM = (
    ("holdem", "no-limit", "NoLimitTexasHoldem"),
    ("holdem", "fixed-limit", "FixedLimitTexasHoldem"),
    ("stud", "fixed-limit", "FixedLimitSevenCardStud"),
    ("razz", "fixed-limit", "FixedLimitRazz"),
    ("27-single-draw", "no-limit", "NoLimitDeuceToSevenLowballSingleDraw"),
    ("27-triple-draw", "fixed-limit", "FixedLimitDeuceToSevenLowballTripleDraw"),
    ("badugi", "fixed-limit", "FixedLimitBadugi"),
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=3000, help="PLO hands for our engine; "
                        "each multi-board variant and PokerKit play a tenth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3,
                        help="interleaved rounds; each engine's best round counts")
    parser.add_argument("--card-room", action="store_true",
                        help="only the rest of the card room against PokerKit's same games")


# The policy's options, check or call twice as likely: by (fold legal, raise legal).
_OPTIONS = {(False, False): (1, 1), (True, False): (1, 1, 0), (False, True): (1, 1, 2, 3),
            (True, True): (1, 1, 0, 2, 3)}


def _choose(rng: random.Random, can_fold: bool, low: int | None, high: int | None) -> int:
    """0 fold, 1 check/call, 2 minimum raise, 3 maximum raise: each option as likely (check
    or call counted twice), drawn with one ``rng.random()`` (C), not ``rng.choice`` over a
    list built each time (Python): both engines' drivers pay it alike, at every decision."""
    options = _OPTIONS[can_fold, low is not None]
    return options[int(rng.random() * len(options))]


def _how_many(rng: random.Random, most: int) -> int:
    """0 to ``most`` cards to throw, each count as likely (one ``rng.random()``, as above)."""
    return int(rng.random() * (most + 1))


def play_ours(hands: int, seed: int, variant_id: str = "plo", betting: str | None = None,
              work: Counter[str] | None = None) -> float:
    """CPU seconds for ``hands`` random-action hands of our engine; ``work`` (untimed runs
    only) counts what they did: hands, betting decisions, draws and bring-ins."""
    from boardroom.engine import Deck, Hand
    from boardroom.engine.betting import default_stakes
    from boardroom.rules import find_variant

    variant = find_variant(variant_id).with_options(betting=betting)
    seats = min(SEATS, variant.max_players)
    stakes = default_stakes(variant)
    rng = random.Random(seed)
    start = time.process_time()
    for number in range(hands):
        hand = Hand(variant, stakes, [STACK] * seats, number % seats, cards=Deck(rng=rng))
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            if legal.bring_in is not None:
                hand.post_bring_in()  # PokerKit's policy below does the same
                if work is not None:
                    work["bring-ins"] += 1
                continue
            if legal.draw is not None:  # the draw: the first 0 to N cards, as for PokerKit
                hand.draw(hand.hole[legal.seat][:_how_many(rng, legal.draw)])
                if work is not None:
                    work["draws"] += 1
                continue
            if work is not None:
                work["decisions"] += 1
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
        if work is not None:
            work["hands"] += 1
    return time.process_time() - start


def _pokerkit_state(game: str, automations: tuple[Any, ...], boards: int) -> Any:
    """A new PokerKit state of ``game`` at the stakes ``play_ours`` uses (default_stakes)."""
    import pokerkit

    stacks = (STACK,) * SEATS
    if game == "PotLimitOmahaHoldem":
        return pokerkit.PotLimitOmahaHoldem.create_state(
            automations, False, 0, (1, 2), 2, stacks, SEATS, starting_board_count=boards)
    if game == "NoLimitTexasHoldem":
        return pokerkit.NoLimitTexasHoldem.create_state(
            automations, False, 0, (1, 2), 2, stacks, SEATS)
    if game in ("FixedLimitTexasHoldem", "FixedLimitDeuceToSevenLowballTripleDraw",
                "FixedLimitBadugi"):
        return getattr(pokerkit, game).create_state(
            automations, False, 0, (1, 2), 2, 4, stacks, SEATS)
    if game == "NoLimitDeuceToSevenLowballSingleDraw":
        return pokerkit.NoLimitDeuceToSevenLowballSingleDraw.create_state(
            automations, False, 0, (1, 2), 2, stacks, SEATS)
    # Stud: ante 1, bring-in 1, bets 2/4.
    peer = getattr(pokerkit, game)
    return peer.create_state(automations, True, 1, 1, 2, 4, stacks, SEATS)


def play_pokerkit(hands: int, seed: int, boards: int = 1,
                  game: str = "PotLimitOmahaHoldem", work: Counter[str] | None = None) -> float:
    """CPU seconds for ``hands`` random-action hands of PokerKit's ``game``; ``work`` as for
    ``play_ours``."""
    from pokerkit import Automation

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    import warnings

    # The draw: PokerKit says so each time it deals its discards again; not news in a bench.
    warnings.filterwarnings("ignore", "Returning reserved", UserWarning)
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(hands):
        state: Any = _pokerkit_state(game, automations, boards)
        while state.status:
            if state.can_post_bring_in():
                state.post_bring_in()
                if work is not None:
                    work["bring-ins"] += 1
                continue
            if state.can_stand_pat_or_discard():
                held = state.hole_cards[state.stand_patter_or_discarder_index]
                state.stand_pat_or_discard(held[:_how_many(rng, len(held))])
                if work is not None:
                    work["draws"] += 1
                continue
            if work is not None:
                work["decisions"] += 1
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
        if work is not None:
            work["hands"] += 1
    return time.process_time() - start


VIEW_VARIANTS = ("esg", "balance", "tilt", "allocator-redraw", "xmas", "plo")


def river_hand(variant_id: str, seed: int, seats: int | None = None) -> Any:
    """A hand of ``variant_id`` at its river betting, everyone checking or calling to it, at the
    variant's max players (up to 7)."""
    from boardroom.engine import Deck, Hand, Stakes
    from boardroom.rules import ForcedBets, find_variant

    variant = find_variant(variant_id)
    count = seats or min(7, variant.max_players)
    if variant.forced_bets is ForcedBets.BLINDS:
        stakes = Stakes(small_blind=1, big_blind=2)
    else:
        stakes = Stakes(ante=1, big_blind=2)
    hand = Hand(variant, stakes, [STACK] * count, 0, cards=Deck(rng=random.Random(seed)),
                manual_allocation=True)
    while hand.street is not None and hand.street.name != "river":
        if hand.can_check():
            hand.check()
        else:
            hand.call()
    return hand


def river_views(variant_id: str, seed: int, repeats: int = 30, *, cold: bool = True,
                seats: int | None = None) -> float:
    """Median CPU seconds of this process to build the views (pills and NUTS) of every seat at
    a river (CPU time, not wall time: the machine is shared).

    ``cold`` clears the pill caches before each build, as a new street does (the first views
    after a change); otherwise the same state is viewed again, as after a bet.
    """
    from boardroom.engine import pills
    from boardroom.engine.view import view_for

    hand = river_hand(variant_id, seed, seats)
    clear = getattr(pills, "clear_caches", None)
    times = []
    for _ in range(repeats):
        if cold and clear is not None:
            clear()
        start = time.process_time()
        for seat in range(hand.seat_count):
            view_for(hand, seat)
        times.append(time.process_time() - start)
    return statistics.median(times)


def balance_river_views(seed: int, repeats: int = 30) -> float:
    """Median CPU seconds to build the views (pills and NUTS) of all 7 seats at a Balance river."""
    return river_views("balance", seed, repeats, seats=7)


def view_table(seed: int, repeats: int = 30) -> str:
    """Per variant, the median time to build every seat's view at a river: first (the caches
    cleared, as after a new card) and again (the same state, as after a bet or a check)."""
    lines = [f"views with pills and NUTS, every seat at a river, CPU ms (median of {repeats}): "
             f"first = after a new card (caches cleared), again = after a bet (same cards)",
             f"{'variant':<20}{'seats':>6}{'first ms':>10}{'again ms':>10}"]
    for variant_id in VIEW_VARIANTS:
        seats = river_hand(variant_id, seed).seat_count
        first = river_views(variant_id, seed, repeats)
        again = river_views(variant_id, seed, repeats, cold=False)
        lines.append(f"{variant_id:<20}{seats:>6}{first * 1000:>10.2f}{again * 1000:>10.2f}")
    return "\n".join(lines)


def suggest_time(seed: int, repeats: int = 30) -> float:
    """Median seconds for the allocation optimiser ("suggest") on 15 Allocator Redraw cards."""
    from boardroom.engine.allocation import best_allocation
    from boardroom.rules import find_variant

    variant = find_variant("allocator-redraw")
    rng = random.Random(seed)
    times = []
    for _ in range(repeats):
        deck = list(range(52))
        rng.shuffle(deck)
        boards = {"A": deck[15:20], "B": deck[20:25]}
        start = time.perf_counter()
        best_allocation(variant, deck[:15], boards)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _work(work: Counter[str]) -> str:
    hands = max(1, work["hands"])
    return (f"{work['decisions'] / hands:>8.2f} decisions{work['draws'] / hands:>7.2f} draws"
            f"{work['bring-ins'] / hands:>6.2f} bring-ins")


def _row(name: str, hands: int, seconds: float, ratio: str = "") -> str:
    return f"{name:<26}{hands:>8}{seconds:>10.2f}{hands / seconds:>12.0f}{ratio:>10}"


def run(args: argparse.Namespace) -> int:
    hands: int = args.hands
    repeat: int = args.repeat
    if hands <= 0 or repeat <= 0:
        raise ValueError("--hands and --repeat must be at least 1")
    few = max(1, hands // 10)
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("pokerkit is not installed: pip install -e '.[test]'")
        return 1
    # Every engine runs once per round, the rounds interleaved so that a busy machine slows
    # them alike; the best round of each counts. Caches are warmed before timing.
    card_room_only: bool = args.card_room
    jobs: dict[str, tuple[int, Any]] = {}
    if not card_room_only:
        jobs["boardroom plo"] = (hands, lambda s: play_ours(hands, s))
        for variant_id in MULTIBOARD:
            jobs[f"boardroom {variant_id}"] = (
                few, lambda s, v=variant_id: play_ours(few, s, v))
        jobs["pokerkit 0.7.7 plo"] = (few, lambda s: play_pokerkit(few, s))
        jobs["pokerkit 0.7.7 plo 2 boards"] = (few, lambda s: play_pokerkit(few, s, boards=2))
        for variant_id in MULTIBOARD:
            play_ours(3, args.seed, variant_id)
    pairs: list[tuple[str, str]] = []
    for variant_id, betting, peer_game in CARD_ROOM:
        ours, theirs = f"boardroom {variant_id} {betting}", f"pokerkit {peer_game}"
        jobs[ours] = (hands // 2, lambda s, v=variant_id, b=betting: play_ours(
            hands // 2, s, v, b))
        jobs[theirs] = (few, lambda s, g=peer_game: play_pokerkit(few, s, game=g))
        pairs.append((ours, theirs))
    for variant_id, betting, peer_game in CARD_ROOM:
        play_ours(3, args.seed, variant_id, betting)
        play_pokerkit(1, args.seed, game=peer_game)  # PokerKit's first hand imports and warms
    best = {name: float("inf") for name in jobs}
    for round_ in range(repeat):
        for name, (_, job) in jobs.items():
            best[name] = min(best[name], job(args.seed + round_))
    rates = {name: jobs[name][0] / best[name] for name in jobs}
    print(f"random-action hands, stacks {STACK}, blinds 1/2 or ante 1 (min bet 2), "
          f"{SEATS} players (fewer where the variant's max is lower); best of {repeat} "
          f"interleaved rounds; CPU seconds of this process")
    print(f"{'engine':<26}{'hands':>8}{'seconds':>10}{'hands/s':>12}{'ratio':>10}")
    peer_of = dict(pairs)
    for name, (count, _) in jobs.items():
        ratio = ""
        if not name.startswith("pokerkit"):
            peer = peer_of.get(name) or ("pokerkit 0.7.7 plo" if name.endswith("plo")
                                         else "pokerkit 0.7.7 plo 2 boards")
            ratio = f"{rates[name] / rates[peer]:.1f}x"
        print(_row(name, count, best[name], ratio))
    print("work per hand, untimed runs of the same hands' count: betting decisions, draws, "
          "bring-ins (each engine deals, shows down and pays by itself)")
    for (variant_id, betting, peer_game), (ours, theirs) in zip(CARD_ROOM, pairs, strict=True):
        mine: Counter[str] = Counter()
        theirs_work: Counter[str] = Counter()
        play_ours(few, args.seed, variant_id, betting, work=mine)
        play_pokerkit(few, args.seed, game=peer_game, work=theirs_work)
        print(f"{ours.removeprefix('boardroom '):<34}{_work(mine)}")
        print(f"{theirs:<34}{_work(theirs_work)}")
    for ours, theirs in pairs:
        speedup = rates[ours] / rates[theirs]
        verdict = "met" if speedup >= 25 else "NOT met"
        print(f"{ours.removeprefix('boardroom ')} / {theirs}: {speedup:.1f}x (goal 25x): "
              f"{verdict}")
    if card_room_only:
        return 0
    peer_two = rates["pokerkit 0.7.7 plo 2 boards"]
    rates = {name.removeprefix("boardroom "): rate for name, rate in rates.items()}
    print("ratio: ours / pokerkit (plo against plo, multi-board variants against 2-board plo, "
          "the rest of the card room against PokerKit's same game)")
    print(f"ESG / PokerKit 2-board PLO: {rates['esg'] / peer_two:.1f}x (target 15x)")
    median = balance_river_views(args.seed)
    print(f"views with pills and NUTS, all 7 seats of a Balance river: {median * 1000:.2f} ms "
          f"median, CPU (target under 10 ms)")
    print(view_table(args.seed))
    print(f"allocation suggestion, 15 cards into 2/2/3: {suggest_time(args.seed) * 1000:.2f} ms "
          f"median (limit 200 ms)")
    return 0

"""``boardroom bench bots``: decision time per variant, and the bots' win rates over many hands.

Timing: every variant is played by a table of equity bots (tight, loose, tight, loose) for
``--timing-hands`` hands; each decision is timed and the median and p99 are printed (the bots'
budget is 300 ms a decision). Win rates (``--hands N``, 0 to skip): for each game of ``RATED``
(the multi-board variants and the rest of the card room) and each equity style, a 4-handed
table of that style, the random bot and two calling stations (tight: ``tight, random, station,
station``) plays N hands; the margin is the per-hand difference between the style's chips and
the opponent's (paired by hand), per 100 hands with a 95% confidence interval, against the
random bot and against the calling station.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from boardroom.bots.players import make_bot
from boardroom.bots.simulate import mean_ci, simulate
from boardroom.rules import VARIANTS, find_variant

MULTI_BOARD = ("esg", "esg-low", "xmas", "balance", "bomb", "allocator", "allocator-redraw",
               "tilt")
# The rest of the card room (issue 14): Hold'em, the studs and the draw games.
CARD_ROOM = ("holdem", "stud", "razz", "stud5", "five-card-draw", "27-single-draw",
             "27-triple-draw", "badugi")
RATED = MULTI_BOARD + CARD_ROOM  # the games whose win margins the bench rates by default


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timing-hands", type=int, default=20,
                        help="hands per variant for the decision times (default: 20)")
    parser.add_argument("--hands", type=int, default=0,
                        help="hands per variant and style for the win rates (0: skip; the "
                             "issue asks for 5000)")
    parser.add_argument("--games", default=None,
                        help="comma-separated game ids (default: every variant for timing; "
                             "the multi-board ones and the rest of the card room for win "
                             "rates)")
    parser.add_argument("--variants", dest="games", help=argparse.SUPPRESS)  # the old name
    parser.add_argument("--samples", type=int, default=200,
                        help="Monte Carlo samples per decision (default: 200)")
    parser.add_argument("--styles", default="tight,loose",
                        help="comma-separated equity styles whose win rates are rated "
                             "(default: tight,loose)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the win rates")
    parser.add_argument("--seed", type=int, default=1)


def decision_times(variant_id: str, hands: int, samples: int, seed: int) -> list[float]:
    variant = find_variant(variant_id)
    styles = ["tight", "loose", "tight", "loose"]
    bots = [(f"{s}-{i}", make_bot(s, seed * 100 + i, samples)) for i, s in enumerate(styles)]
    result = simulate(variant, bots, hands, seed)
    return [t for stats in result.players for t in stats.decisions]


def margins(variant_id: str, style: str, hands: int, samples: int, seed: int,
            ) -> tuple[str, str, tuple[float, float, float], tuple[float, float, float]]:
    """The style's margin per 100 hands over the random bot and over a calling station."""
    variant = find_variant(variant_id)
    styles = [style, "random", "station", "station"]
    bots = [(s, make_bot(s, seed * 100 + i, samples)) for i, s in enumerate(styles)]
    result = simulate(variant, bots, hands, seed)
    me, rand, station = result.players[0], result.players[1], result.players[2]
    over_random = mean_ci([100 * (a - b) for a, b in zip(me.net, rand.net, strict=True)])
    over_station = mean_ci([100 * (a - b) for a, b in zip(me.net, station.net, strict=True)])
    return variant_id, style, over_random, over_station


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(args: argparse.Namespace) -> int:
    chosen = [v.strip() for v in args.games.split(",")] if args.games else None
    styles = [s.strip() for s in args.styles.split(",") if s.strip()]
    unknown = [s for s in styles if s not in ("tight", "loose")]
    if unknown or not styles:
        raise ValueError(f"--styles takes tight and/or loose, not {args.styles!r}")
    timing = chosen or [variant.id for variant in VARIANTS]
    if args.timing_hands > 0:
        print(f"decision time, {args.samples} samples, 4 equity bots, "
              f"{args.timing_hands} hands per variant")
        print(f"{'variant':<18}{'decisions':>10}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}")
        for variant_id in timing:
            times = decision_times(variant_id, args.timing_hands, args.samples, args.seed)
            print(f"{variant_id:<18}{len(times):>10}{1000 * statistics.median(times):>11.1f}"
                  f"{1000 * _percentile(times, 0.99):>9.1f}{1000 * max(times):>9.1f}",
                  flush=True)
    if args.hands <= 0:
        return 0
    rated = chosen or list(RATED)
    print(f"\nwin margins per 100 hands (95% CI), {args.hands} hands per line, "
          f"table: STYLE, random, station, station")
    print(f"{'variant':<18}{'style':<7}{'over random':>32}{'over station':>32}")
    jobs = [(v, s) for v in rated for s in styles]
    failures = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(margins, v, s, args.hands, args.samples, args.seed)
                   for v, s in jobs]
        for future in futures:
            variant_id, style, over_random, over_station = future.result()
            cells = []
            for mean, low, high in (over_random, over_station):
                ok = low > 0
                failures += not ok
                cells.append(f"{mean:>8.1f} [{low:>7.1f}, {high:>7.1f}] {'ok' if ok else 'NO'}")
            print(f"{variant_id:<18}{style:<7}{cells[0]:>32}{cells[1]:>32}", flush=True)
    if failures:
        print(f"{failures} margin(s) whose 95% CI does not exclude zero", file=sys.stderr)
        return 1
    return 0

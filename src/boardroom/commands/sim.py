"""``boardroom sim``: bots play N hands of a variant against each other, with no server.

Reports per player chips won per 100 hands with a 95% confidence interval, the showdown rate
and the points won per category; per variant how often each category is split or void, how
often redraws are cut short by the pool, and the average pot. ``--out DIR`` writes the numbers
as CSV and a few PNG plots.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardroom.bots.simulate import SimResult


def configure(parser: argparse.ArgumentParser) -> None:
    from boardroom.bots.players import STYLES  # the bots load only when `sim` runs

    parser.add_argument("--game", default="esg", help="game id (default: esg)")
    parser.add_argument("--variant", dest="game", help=argparse.SUPPRESS)  # the old name
    parser.add_argument("--hands", type=int, default=200, help="hands to play (default: 200)")
    parser.add_argument("--players", default="tight,loose,random,station",
                        help=f"comma-separated bot styles, one per seat ({', '.join(STYLES)})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal and the bots")
    parser.add_argument("--samples", type=int, default=200,
                        help="Monte Carlo samples per decision of the equity bots")
    parser.add_argument("--out", type=Path, default=None, help="write CSV and PNG files here")


class Progress:
    """A progress bar on stderr."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total, self.width, self.shown = total, width, -1

    def __call__(self, done: int) -> None:
        step = done * 100 // self.total
        if step == self.shown and done != self.total:
            return
        self.shown = step
        filled = done * self.width // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
                         f"{done}/{self.total} hands")
        if done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    from boardroom.bots.players import STYLES, make_bot
    from boardroom.bots.simulate import simulate
    from boardroom.cli import UsageError
    from boardroom.rules import SpecError, find_variant

    try:
        variant = find_variant(args.game)
    except SpecError as error:
        raise UsageError(str(error)) from None
    styles = [s.strip() for s in args.players.split(",") if s.strip()]
    if any(style not in (*STYLES, "calling-station") for style in styles):
        raise UsageError(f"--players takes bot styles: {', '.join(STYLES)}")
    if not 2 <= len(styles) <= variant.max_players:
        raise UsageError(f"{variant.name} deals to 2 to {variant.max_players} players")
    if args.hands < 1 or args.samples < 1:
        raise UsageError("--hands and --samples must be at least 1")
    bots = [(f"{style}-{seat + 1}", make_bot(style, args.seed * 1000 + seat, args.samples))
            for seat, style in enumerate(styles)]
    result = simulate(variant, bots, args.hands, args.seed, progress=Progress(args.hands))
    print(report(result))
    if args.out is not None:
        write_out(result, args.out)
        print(f"\nwrote CSV and PNG files to {args.out}")
    return 0


def report(result: SimResult) -> str:
    variant = result.variant
    names = variant.category_names
    lines = [f"{variant.name}: {result.hands} hands, {len(result.players)} players, "
             f"average pot {result.average_pot:.1f} chips"]
    header = f"{'player':<14}{'chips/100':>11}{'95% CI':>20}{'showdown':>10}{'rebuys':>8}"
    header += "".join(f"{name:>9}" for name in names)
    lines += ["", header + "   (points per 100 hands)"]
    for stats in result.players:
        mean, low, high = stats.per_100()
        row = (f"{stats.name:<14}{mean:>11.1f}{f'[{low:.1f}, {high:.1f}]':>20}"
               f"{stats.showdown_rate:>9.0%} {stats.rebuys:>7}")
        row += "".join(f"{100 * float(stats.points.get(n, 0)) / result.hands:>9.1f}"
                       for n in names)
        lines.append(row)
    lines += ["", f"{'category':<10}{'split':>8}{'void':>8}   (of {result.showdowns} showdowns)"]
    for name in names:
        lines.append(f"{name:<10}{result.rate(result.split, name):>8.1%}"
                     f"{result.rate(result.void, name):>8.1%}")
    if result.redraw_hands:
        share = result.redraws_cut / result.redraw_hands
        lines.append(f"\nredraws cut short by the pool in {share:.1%} of "
                     f"{result.redraw_hands} hands with redraws")
    return "\n".join(lines)


def write_out(result: SimResult, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    names = result.variant.category_names
    with (out / "players.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["player", "style", "hands", "chips_per_100", "ci_low", "ci_high",
                         "showdown_rate", "rebuys", *(f"points_{n}" for n in names)])
        for stats in result.players:
            mean, low, high = stats.per_100()
            writer.writerow([stats.name, stats.style, stats.hands, f"{mean:.3f}", f"{low:.3f}",
                             f"{high:.3f}", f"{stats.showdown_rate:.4f}", stats.rebuys,
                             *(str(stats.points.get(n, 0)) for n in names)])
    with (out / "categories.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["variant", "category", "showdowns", "split", "void"])
        for name in names:
            writer.writerow([result.variant.id, name, result.showdowns,
                             result.split.get(name, 0), result.void.get(name, 0)])
    with (out / "variant.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["variant", "hands", "showdowns", "average_pot", "redraw_hands",
                         "redraws_cut"])
        writer.writerow([result.variant.id, result.hands, result.showdowns,
                         f"{result.average_pot:.3f}", result.redraw_hands, result.redraws_cut])
    with (out / "hands.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["hand", "pot", *(stats.name for stats in result.players)])
        for index, pot in enumerate(result.pots):
            writer.writerow([index + 1, pot, *(stats.net[index] for stats in result.players)])
    _plots(result, out)


def _plots(result: SimResult, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from itertools import accumulate

    import matplotlib.pyplot as plt

    names = result.variant.category_names
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for stats in result.players:
        axes.plot(range(1, stats.hands + 1), list(accumulate(stats.net)), label=stats.name)
    axes.set(title=f"{result.variant.name}: cumulative chips", xlabel="hand", ylabel="chips")
    axes.legend()
    figure.savefig(out / "chips.png", dpi=100)
    plt.close(figure)

    figure, axes = plt.subplots(figsize=(8, 4.5))
    means, errors = [], []
    for stats in result.players:
        mean, low, _ = stats.per_100()
        means.append(mean)
        errors.append(mean - low)
    axes.bar([s.name for s in result.players], means, yerr=errors, capsize=6)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set(title=f"{result.variant.name}: chips won per 100 hands (95% CI)", ylabel="chips")
    figure.savefig(out / "winrate.png", dpi=100)
    plt.close(figure)

    figure, axes = plt.subplots(figsize=(8, 4.5))
    positions = range(len(names))
    axes.bar([p - 0.2 for p in positions], [result.rate(result.split, n) for n in names],
             width=0.4, label="split")
    axes.bar([p + 0.2 for p in positions], [result.rate(result.void, n) for n in names],
             width=0.4, label="void")
    axes.set_xticks(list(positions), list(names))
    axes.set(title=f"{result.variant.name}: categories at showdown", ylabel="share of showdowns")
    axes.legend()
    figure.savefig(out / "categories.png", dpi=100)
    plt.close(figure)

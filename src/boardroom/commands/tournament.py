"""``boardroom tournament sim``: a bots-only tournament played to the end in this process.

The director (``boardroom.tournament``) runs the tournament; the engine deals every hand; each
bot answers the view of its own seat only. Prints the places and prizes, the hands played and
the eliminations per level; ``--out DIR`` writes them as CSV with two PNG plots (players left
over the hands, eliminations per level).
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardroom.bots import Bot
    from boardroom.engine import Hand
    from boardroom.tournament import Director, HandPlan, Structure


def configure(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sim = commands.add_parser("sim", help="bots play a whole tournament in-process",
                              description="Bots play a whole tournament in-process (no server).")
    games = sim.add_mutually_exclusive_group()
    games.add_argument("--game", default=None,
                       help="a variant id or dealers-choice (default: plo)")
    games.add_argument("--rotation", default=None,
                       help="comma-separated variant ids, one per level in turn")
    sim.add_argument("--entrants", type=int, default=9, help="players (default: 9)")
    sim.add_argument("--structure", default="turbo",
                     help="a preset (turbo, standard, deep) or a TOML file (default: turbo)")
    sim.add_argument("--table-size", type=int, default=None,
                     help="seats per table (default: the game's most, at most 9)")
    sim.add_argument("--buy-in", type=int, default=100, help="units per entry (default: 100)")
    sim.add_argument("--players", default="tight,loose,random,station",
                     help="bot styles, given to the entrants in turn")
    sim.add_argument("--samples", type=int, default=30,
                     help="Monte Carlo samples per decision of the equity bots (default: 30)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the draw, the deal, the bots")
    sim.add_argument("--out", type=Path, default=None, help="write CSV and PNG files here")


@dataclass
class Outcome:
    """What a bots-only tournament did, for the report, the files and the benchmark."""

    director: Director
    styles: dict[str, str]
    hands: int = 0
    seconds: float = 0.0  # simulated clock
    wall: float = 0.0  # seconds it took
    cpu: float = 0.0  # CPU seconds this process spent
    director_cpu: float = 0.0  # ... of which in the director's calls
    hands_per_level: dict[int, int] = field(default_factory=dict)
    players_left: list[tuple[int, int]] = field(default_factory=list)  # (hand, players)


def structure_from(text: str) -> Structure:
    """A preset by name, or a TOML file when ``text`` names one."""
    from boardroom.tournament import find_structure, load_structure

    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        return load_structure(path)
    return find_structure(text)


def bot_tournament(director: Director, bots: dict[str, Bot], *, seed: int,
                   progress: Progress | None = None) -> Outcome:
    """Play ``director``'s tournament to the end with ``bots`` (player id -> bot)."""
    from boardroom.engine.view import view_for
    from boardroom.tournament import inprocess

    outcome = Outcome(director, {p: bot.style for p, bot in bots.items()})
    timed = _Timed(director)

    def act(hand: Hand, seat: int, player: str) -> None:
        action = bots[player].respond(view_for(hand, seat))
        if action is None:
            raise RuntimeError(f"bot {player} did not answer")  # pragma: no cover
        hand.apply(seat, action)

    entrants = len(director.players)

    def after_hand(d: Director, plan: HandPlan, hand: Hand) -> None:
        outcome.hands_per_level[plan.level] = outcome.hands_per_level.get(plan.level, 0) + 1
        left = len(d.alive)
        if not outcome.players_left or outcome.players_left[-1][1] != left:
            outcome.players_left.append((outcome.hands + 1, left))
        outcome.hands += 1
        d.drain()
        if progress is not None:
            progress(entrants - left)

    started, cpu = time.perf_counter(), time.process_time()
    stats = inprocess.run(timed, act, seed=seed, after_hand=after_hand)  # type: ignore[arg-type]
    outcome.wall = time.perf_counter() - started
    outcome.cpu = time.process_time() - cpu
    outcome.director_cpu = timed.spent
    outcome.seconds = stats.seconds
    if progress is not None:
        progress(entrants)
    return outcome


class _Timed:
    """The director, with the CPU time spent in its calls from the runner counted (CPU time,
    so that other processes on a shared machine do not inflate it)."""

    def __init__(self, director: Director) -> None:
        self._director = director
        self.spent = 0.0

    def __getattr__(self, name: str) -> object:
        value = getattr(self._director, name)
        if name not in ("next_hand", "hand_ended", "start"):
            return value

        def timed(*args: object, **kwargs: object) -> object:
            started = time.process_time()
            try:
                return value(*args, **kwargs)
            finally:
                self.spent += time.process_time() - started

        return timed


class Progress:
    """A progress bar on stderr, by players eliminated."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total, self.width, self.shown = max(total, 1), width, -1

    def __call__(self, done: int) -> None:
        import sys

        step = done * 100 // self.total
        if step == self.shown:
            return
        self.shown = step
        filled = done * self.width // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] "
                         f"{done}/{self.total} players out")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def make_director(args: argparse.Namespace) -> tuple[Director, dict[str, Bot]]:
    from boardroom.bots.players import STYLES, make_bot
    from boardroom.cli import UsageError
    from boardroom.rules import DEALERS_CHOICE, find_game
    from boardroom.tournament import Director, TournamentConfig

    if args.rotation is not None:
        games = tuple(g.strip() for g in args.rotation.split(",") if g.strip())
        if len(games) < 2:
            raise UsageError("--rotation takes two or more variant ids, comma-separated")
    else:
        games = (args.game or "plo",)
    for game in games:
        try:
            find_game(game)
        except ValueError as error:
            raise UsageError(f"no such game {game!r}: {error}") from None
    styles = [s.strip() for s in args.players.split(",") if s.strip()]
    if not styles or any(style not in STYLES for style in styles):
        raise UsageError(f"--players takes bot styles: {', '.join(STYLES)}")
    if args.entrants < 2:
        raise UsageError("--entrants must be at least 2")
    if args.samples < 1:
        raise UsageError("--samples must be at least 1")
    size = args.table_size
    if size is None:
        limits = [max(v.max_players for v in DEALERS_CHOICE.choices(2))
                  if find_game(g) is DEALERS_CHOICE else find_game(g).max_players  # type: ignore[union-attr]
                  for g in games]
        size = min(9, *limits)
    config = TournamentConfig(structure_from(args.structure), games=games, table_size=size,
                              buy_in=args.buy_in)
    director = Director(config, seed=args.seed)
    bots: dict[str, Bot] = {}
    width = len(str(args.entrants))
    for k in range(args.entrants):
        style = styles[k % len(styles)]
        player = f"{style}-{k + 1:0{width}d}"
        director.register(player, player, 0.0, bot=True)
        bots[player] = make_bot(style, args.seed * 100_003 + k, args.samples)
    return director, bots


def run(args: argparse.Namespace) -> int:
    director, bots = make_director(args)
    outcome = bot_tournament(director, bots, seed=args.seed,
                             progress=Progress(len(director.players)))
    print(report(outcome))
    if args.out is not None:
        write_out(outcome, args.out)
        print(f"\nwrote CSV and PNG files to {args.out}")
    return 0


def report(outcome: Outcome) -> str:
    from boardroom.tournament.payouts import percent_label

    d = outcome.director
    config = d.config
    games = ", ".join(config.games)
    lines = [f"{config.structure.name} tournament of {games}: {d.entries} entrants, "
             f"{outcome.hands} hands, {len(outcome.hands_per_level)} levels, "
             f"{outcome.seconds / 3600:.1f} hours on the simulated clock "
             f"({outcome.wall:.1f} s here)",
             f"prize pool {d.prize_pool} units, {d.payout_table.places} places paid", "",
             f"{'place':>6}  {'player':<20}{'prize':>9}{'share':>9}"]
    for finish in d.standings():
        if not finish.prize:
            break
        tie = "T" if finish.tied > 1 else " "
        share = percent_label(Fraction(finish.prize, d.prize_pool))
        lines.append(f"{tie}{finish.place:>5}  {finish.player:<20}{finish.prize:>9}{share:>9}")
    lines += ["", f"{'level':>5}{'blinds':>18}{'ante':>8}{'hands':>8}{'out':>6}"]
    for index in sorted(outcome.hands_per_level):
        level = config.structure.level(index)
        lines.append(f"{index + 1:>5}{f'{level.small_blind}/{level.big_blind}':>18}"
                     f"{level.ante:>8}{outcome.hands_per_level[index]:>8}"
                     f"{d.level_eliminations.get(index, 0):>6}")
    return "\n".join(lines)


def write_out(outcome: Outcome, out: Path) -> None:
    d = outcome.director
    out.mkdir(parents=True, exist_ok=True)
    with (out / "results.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["place", "tied", "player", "style", "prize"])
        for finish in d.standings():
            writer.writerow([finish.place, finish.tied, finish.player,
                             outcome.styles.get(finish.player, ""), finish.prize])
    with (out / "levels.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["level", "small_blind", "big_blind", "ante", "hands", "eliminations"])
        for index in sorted(outcome.hands_per_level):
            level = d.structure.level(index)
            writer.writerow([index + 1, level.small_blind, level.big_blind, level.ante,
                             outcome.hands_per_level[index], d.level_eliminations.get(index, 0)])
    with (out / "players_left.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["hand", "players_left"])
        writer.writerows(outcome.players_left)
    _plots(outcome, out)


def _plots(outcome: Outcome, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = outcome.director
    figure, axes = plt.subplots(figsize=(8, 4.5))
    hands: Sequence[int] = [h for h, _ in outcome.players_left]
    axes.step(hands, [n for _, n in outcome.players_left], where="post")
    axes.set(title=f"{d.structure.name}: players left", xlabel="hands played (all tables)",
             ylabel="players")
    figure.savefig(out / "players_left.png", dpi=100)
    plt.close(figure)

    figure, axes = plt.subplots(figsize=(8, 4.5))
    levels = sorted(outcome.hands_per_level)
    axes.bar([str(i + 1) for i in levels], [d.level_eliminations.get(i, 0) for i in levels])
    axes.set(title=f"{d.structure.name}: eliminations per level", xlabel="level",
             ylabel="players eliminated")
    figure.savefig(out / "eliminations.png", dpi=100)
    plt.close(figure)

"""``boardroom bench cli``: how long the command line takes to start, and to check many hands.

Each measure launches fresh processes of the installed ``boardroom`` script (``python -m
boardroom`` without one), several times, and prints the median and the best beside the goal:
``boardroom --help`` and ``boardroom replay FILE`` (one 6-max PLO hand to showdown) under
0.25 s each. Last, ``boardroom replay FOLDER --json`` over ``--hands`` random-action hands of
every game in one process: hands checked per minute. The hands are played here by the engine
with a seeded deck and written with ``engine.history.dumps``.

The package is byte-compiled first (``compileall``), as ``pip install`` does: an environment
with ``PYTHONDONTWRITEBYTECODE`` set would otherwise compile every module on every launch, which
no installed copy does. The evaluator's tables come from their cache file (see
``evaluation._tables``); one launch without it, which builds and writes it, is shown apart.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

GOAL = 0.25  # seconds, for `boardroom --help` and `boardroom replay ONE_FILE`
GAMES = ("plo", "omaha-hilo", "courchevel", "stud-hilo", "esg", "esg-low", "xmas", "balance",
         "bomb", "allocator", "allocator-redraw", "tilt")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per measure "
                        "(default: 10)")
    parser.add_argument("--hands", type=int, default=1200,
                        help="hands replayed in one `boardroom replay FOLDER` (default: 1200)")
    parser.add_argument("--seed", type=int, default=1)


def command() -> list[str]:
    """The ``boardroom`` script next to this interpreter, else ``python -m boardroom``."""
    script = Path(sys.executable).with_name("boardroom")
    if script.exists():
        return [str(script)]
    found = shutil.which("boardroom")
    return [found] if found else [sys.executable, "-m", "boardroom"]


def launch_times(args: Sequence[str], runs: int,
                 env: dict[str, str] | None = None) -> list[float]:
    """Wall seconds of ``runs`` fresh processes of ``args``, each run to its end."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       env=env)
        times.append(time.perf_counter() - start)
    return times


def random_hand_text(variant_id: str, rng: random.Random) -> str:
    """A random-action hand of ``variant_id`` at its max players (up to 6), as history text."""
    from boardroom.engine import Deck, Hand, Stakes
    from boardroom.engine.history import dumps
    from boardroom.rules import ForcedBets, find_variant

    variant = find_variant(variant_id)
    seats = min(6, variant.max_players)
    if variant.is_stud:
        stakes = Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4)
    elif variant.forced_bets is ForcedBets.BLINDS:
        stakes = Stakes(small_blind=1, big_blind=2)
    else:
        stakes = Stakes(ante=1, big_blind=2)
    stacks = [rng.randint(20, 200) for _ in range(seats)]
    hand = Hand(variant, stakes, stacks, rng.randrange(seats), cards=Deck(rng=rng))
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        pick = rng.random()
        if legal.bring_in is not None:
            hand.post_bring_in()
        elif pick < 0.15 and legal.fold:
            hand.fold()
        elif pick < 0.3 and legal.raise_min is not None:
            hand.raise_to(legal.raise_min)
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return dumps(hand)


def _row(name: str, times: Sequence[float], goal: bool = True) -> str:
    median, best = statistics.median(times), min(times)
    verdict = "meets" if median < GOAL else "misses"
    judged = f"{GOAL:>7.2f}  {verdict} the goal" if goal else f"{'-':>7}  "
    return f"{name:<34}{median:>9.3f}{best:>9.3f}{judged} ({len(times)} runs)"


def byte_compile() -> None:
    """Compile the package's modules to ``__pycache__``, as an install does."""
    import boardroom

    compileall.compile_dir(Path(boardroom.__file__).parent, quiet=1)


def run(args: argparse.Namespace) -> int:
    runs: int = args.runs
    hands: int = args.hands
    if runs < 1 or hands < 1:
        raise ValueError("--runs and --hands must be at least 1")
    rng = random.Random(args.seed)
    boardroom = command()
    with tempfile.TemporaryDirectory(prefix="boardroom-bench-cli-") as folder:
        root = Path(folder)
        one = root / "one.phh"
        while True:  # a PLO hand that reaches a showdown, so the evaluator is loaded
            text = random_hand_text("plo", rng)
            if " sm " in text:
                break
        one.write_text(text, encoding="utf-8")
        many = root / "many"
        many.mkdir()
        for number in range(hands):
            game = GAMES[number % len(GAMES)]
            (many / f"{number:05}-{game}.phh").write_text(random_hand_text(game, rng),
                                                          encoding="utf-8")
        byte_compile()
        print(f"fresh processes of {' '.join(boardroom)}, byte-compiled; seconds")
        print(f"{'command':<34}{'median':>9}{'best':>9}{'goal':>7}")
        cold = {**os.environ, "BOARDROOM_CACHE_DIR": str(root / "cache")}
        print(_row("replay, no table cache yet", launch_times(
            [*boardroom, "replay", str(one)], 1, env=cold), goal=False))
        print(_row("boardroom --help", launch_times([*boardroom, "--help"], runs)))
        print(_row("boardroom replay ONE_FILE", launch_times([*boardroom, "replay", str(one)],
                                                             runs)))
        start = time.perf_counter()
        done = subprocess.run([*boardroom, "replay", str(many), "--json"],
                              capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - start
        checked = len(done.stdout.splitlines())
        print(f"boardroom replay FOLDER --json: {checked} of {hands} hands of {len(GAMES)} games "
              f"replayed in {seconds:.2f} s: {checked / seconds * 60:,.0f} hands a minute"
              f"{'' if done.returncode == 0 else f' (exit {done.returncode})'}")
        if done.returncode != 0:
            print(done.stderr.strip()[:2000], file=sys.stderr)
            return 1
    return 0

"""``boardroom replay PATH... [--json]``: replay hand histories through the engine.

A hand run more than once prints every run's boards and each run's share of every pot.

Each path is a history file or a folder (every ``.phh`` inside, recursively, in name order).
Every action and every card is checked; a history that could not have been played is refused
with the line at fault (``HistoryError``, a ``ValueError``). Each refusal is printed and the
other files are still replayed; the exit code is 2 when any file was refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", type=Path, nargs="+", metavar="PATH",
                        help="a hand history (TOML, PHH superset) or a folder of .phh files")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per hand, one per line")


def _paid(hand: Any) -> list[tuple[int, int, Any]]:
    """Every pot paid: the run whose share it is (1 for a hand run once), the pot's index
    (0: the main pot) and its result."""
    runs = [(run.number, run.results) for run in hand.runs] or [(1, hand.results)]
    return [(number, index, result) for number, results in runs
            for index, result in enumerate(results)]


def summary(hand: Any, players: Any) -> dict[str, Any]:
    """The result of a replayed hand: stacks by seat, every run's boards (a hand run more than
    once) and every pot (each run's share of it) with its winners, points and category
    winners."""
    from boardroom.cards import format_cards

    return {
        "variant": hand.variant.id,
        "players": [players[seat] for seat in range(hand.seat_count)],
        "button": hand.button,
        "starting_stacks": list(hand.starting_stacks),
        "final_stacks": list(hand.stacks),
        "runs": [{"run": run.number,
                  "boards": {name: format_cards(cards) for name, cards in run.boards}}
                 for run in hand.runs],
        "pots": [
            {
                "run": number,
                "pot": index,
                "amount": result.pot.amount,
                "eligible": list(result.pot.eligible),
                "winners": list(result.shares),
                "shares": {str(seat): chips for seat, chips in result.shares.items()},
                # Points games (RULES.md s.3): exact fractions as strings, "3/2"; each category's
                # winners (empty: void).
                "points": {str(seat): str(points) for seat, points in result.points.items()},
                "categories": {c.name: list(c.winners) for c in result.categories},
            }
            for number, index, result in _paid(hand)
        ],
        "showdown": [[seat, "show" if shown else "muck"] for seat, shown in hand.shown.items()],
    }


def histories(paths: Sequence[Path]) -> Iterator[Path]:
    """The files to replay: each path as given, a folder as every ``.phh`` inside it."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.phh") if p.is_file())
        else:
            yield path


def run(args: argparse.Namespace) -> int:
    from boardroom.cards import format_cards
    from boardroom.engine.history import HistoryError, loads, replay

    paths: list[Path] = args.paths
    empty = [path for path in paths if path.is_dir() and not any(path.rglob("*.phh"))]
    files = list(histories(paths))
    several = len(files) > 1
    refused = 0
    for path in files:
        try:
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as error:
                raise HistoryError(f"cannot read it: {error.strerror or error}") from None
            except UnicodeDecodeError:
                raise HistoryError("cannot read it: not UTF-8 text") from None
            setup = loads(text)
            hand = replay(setup)
        except HistoryError as error:
            refused += 1
            print(f"boardroom replay: error: {path}: {error}", file=sys.stderr)
            continue
        players = {seat: setup.label(seat) for seat in range(hand.seat_count)}
        result = summary(hand, players)
        if args.json:
            print(json.dumps({"file": str(path), **result}))
            continue
        if several:
            print(f"{path}:")
        print(f"{hand.variant.name}: {hand.seat_count} players, button {players[hand.button]}")
        for seat in range(hand.seat_count):
            cards = format_cards(hand.hole[seat])
            delta = hand.stacks[seat] - hand.starting_stacks[seat]
            print(f"  {players[seat]:>4} {hand.starting_stacks[seat]:>8} -> "
                  f"{hand.stacks[seat]:>8} ({delta:+d})  {cards}")
        runs = len(hand.runs) > 1
        if runs:
            for run in result["runs"]:
                for name, board in run["boards"].items():
                    print(f"  run {run['run']} board {name}: {board}")
        else:
            for name, board in hand.boards.items():
                print(f"  board {name}: {format_cards(board)}")
        for pot in result["pots"]:
            kind = "main pot" if pot["pot"] == 0 else f"side pot {pot['pot']}"
            winners = ", ".join(f"{players[s]} {c}" for s, c in zip(
                pot["winners"], pot["shares"].values(), strict=True))
            run_of = f"run {pot['run']}: " if runs else ""
            print(f"  {run_of}{kind} {pot['amount']}: {winners}")
    for folder in empty:
        print(f"boardroom replay: error: {folder}: no .phh file in this folder", file=sys.stderr)
    if several:
        print(f"boardroom replay: {len(files) - refused} of {len(files)} histories replayed, "
              f"{refused} refused", file=sys.stderr)
    return 2 if refused or empty else 0

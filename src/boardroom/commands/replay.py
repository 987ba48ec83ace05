"""``boardroom replay FILE [--json]``: replay a hand history through the engine.

Every action is checked; a malformed or illegal history raises ``HistoryError`` (a
``ValueError``), which the command line turns into exit code 2 with the field or action at fault.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a hand history (TOML, PHH superset)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def summary(hand: Any, players: Any) -> dict[str, Any]:
    """The result of a replayed hand: stacks by seat and every pot with its winners, points
    and category winners."""
    return {
        "variant": hand.variant.id,
        "players": [players[seat] for seat in range(hand.seat_count)],
        "button": hand.button,
        "starting_stacks": list(hand.starting_stacks),
        "final_stacks": list(hand.stacks),
        "pots": [
            {
                "amount": result.pot.amount,
                "eligible": list(result.pot.eligible),
                "winners": list(result.shares),
                "shares": {str(seat): chips for seat, chips in result.shares.items()},
                # Points games (RULES.md s.3): exact fractions as strings, "3/2"; each category's
                # winners (empty: void).
                "points": {str(seat): str(points) for seat, points in result.points.items()},
                "categories": {c.name: list(c.winners) for c in result.categories},
            }
            for result in hand.results
        ],
        "showdown": [[seat, "show" if shown else "muck"] for seat, shown in hand.shown.items()],
    }


def run(args: argparse.Namespace) -> int:
    from boardroom.cards import format_cards
    from boardroom.engine.history import HistoryError, loads, replay

    path: Path = args.file
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise HistoryError(f"cannot read {path}: {error}") from None
    setup = loads(text)
    hand = replay(setup)
    players = {seat: f"p{k + 1}" for k, seat in enumerate(setup.seat_of)}
    result = summary(hand, players)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{hand.variant.name}: {hand.seat_count} players, button {players[hand.button]}")
    for seat in range(hand.seat_count):
        cards = format_cards(hand.hole[seat])
        delta = hand.stacks[seat] - hand.starting_stacks[seat]
        print(f"  {players[seat]:>4} {hand.starting_stacks[seat]:>8} -> {hand.stacks[seat]:>8} "
              f"({delta:+d})  {cards}")
    for name, board in hand.boards.items():
        print(f"  board {name}: {format_cards(board)}")
    for index, pot in enumerate(result["pots"]):
        kind = "main pot" if index == 0 else f"side pot {index}"
        winners = ", ".join(f"{players[s]} {c}" for s, c in zip(
            pot["winners"], pot["shares"].values(), strict=True))
        print(f"  {kind} {pot['amount']}: {winners}")
    return 0

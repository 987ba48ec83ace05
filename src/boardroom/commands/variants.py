"""``boardroom games [--json]``: every game with its boards, hole cards, streets, categories."""

from __future__ import annotations

import argparse
import json
from typing import Any

from boardroom.rules.describe import describe_variant


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _street_text(street: dict[str, Any]) -> str:
    reveals = " ".join(f"{board}{count}" for board, count in street["reveals"].items())
    dealt = " ".join(f"{street[k]} {k.split('_')[1]}" for k in ("hole_down", "hole_up")
                     if k in street)
    detail = ", ".join(part for part in (reveals, dealt) if part)
    cap = f" redraw<={street['redraw_cap']}" if street.get("redraw_cap") else ""
    return f"{street['name']}{f' ({detail})' if detail else ''}{cap}"


def run(args: argparse.Namespace) -> int:
    from boardroom.rules import iter_games

    described = [describe_variant(game) for game in iter_games()]
    if args.json:
        print(json.dumps({"games": described}, indent=2))
        return 0
    for info in described:
        print(f"{info['id']:<17} {info['name']}")
        print(f"{'':<17} {info['summary']}")
        if "choices" in info:
            print(f"{'':<17} picks from: {', '.join(info['choices'])}\n")
            continue
        if "rotation" in info:
            games = ", ".join(g["game"] + (f" ({g['betting']})" if "betting" in g else "")
                              for g in info["rotation"])
            every = f"{info['every']} hands" if info["every"] else "an orbit"
            print(f"{'':<17} deals in turn, {every} each: {games}\n")
            continue
        boards = ", ".join(
            f"{b['name']}({b['size']}{', tilted ' + str(b['tilted']) if 'tilted' in b else ''})"
            for b in info["boards"]) or "none"
        holes = "/".join(str(n) for n in info["hole_card_options"])
        players = "/".join(str(n) for n in info["max_players"].values())
        print(f"{'':<17} boards: {boards}; hole cards: {holes}; max players: {players}")
        print(f"{'':<17} {info['forced_bets']}, "
              f"{' or '.join(info['betting_options'])}; split: {info['split']}")
        print(f"{'':<17} streets: {' > '.join(_street_text(s) for s in info['streets'])}")
        categories = ", ".join(
            f"{c['name']} [{c['construction']}{' ' + c['board'] if 'board' in c else ''}"
            f"{', ' + c['ranking'] if c['ranking'] != 'high' else ''}]"
            for c in info["categories"])
        print(f"{'':<17} categories: {categories}")
        if info["allocation"]:
            print(f"{'':<17} allocation: "
                  f"{' / '.join(f'{k} {v}' for k, v in info['allocation'].items())}")
        print()
    return 0

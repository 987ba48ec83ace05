"""``boardroom verify HISTORY...``: check that each hand was dealt from its committed seeds.

For every file (a hand history in TOML, or the JSON the room's ``/hands/N`` answers with), the
revealed server seed is checked against the commitment published before the hand, the deck is
recomputed from it and every player's seed (``boardroom.fairness``), and every card the history
shows (hole cards, boards, redraws, shown hands) must be the card the deck dealt there. Exit 0
when every file verifies, 2 when one does not (the reason names the action, card and position).
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", type=Path, nargs="+", metavar="HISTORY",
                        help="a hand history (TOML, or the JSON of /api/rooms/ID/hands/N)")


def read_history(path: Path) -> dict[str, Any]:
    """The history in ``path`` as data; ``FairnessError`` when it cannot be read."""
    from boardroom.fairness import FairnessError

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FairnessError(f"cannot read {path}: {error}") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as error:
            raise FairnessError(f"{path} is not valid JSON: {error}") from None
        record = data.get("history", data) if isinstance(data, dict) else None
        if not isinstance(record, dict):
            raise FairnessError(f"{path} holds no hand history")
        return record
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FairnessError(f"{path} is not a TOML hand history: {error}") from None


def run(args: argparse.Namespace) -> int:
    from boardroom.fairness import FIELD, FairnessError, verify_history

    failed = 0
    for path in args.files:
        try:
            record = read_history(path)
            found = verify_history(record)
        except FairnessError as error:
            failed += 1
            print(f"{path}: NOT VERIFIED: {error}")
            continue
        fields = record[FIELD]
        made = sum(bool(m) for m in fields.get("server_made", []))
        print(f"{path}: verified: hand {fields['hand_no']} of room {fields['room']}, "
              f"{found.checked} cards from commitment {fields['commitment'][:16]}... "
              f"({len(fields['client_seeds'])} client seeds, {made} made by the server)")
        if found.unplaced:
            print(f"{path}: {found.unplaced} cards came from the discards shuffled back, which "
                  f"this view cannot place: it does not show every discard")
    return 2 if failed else 0

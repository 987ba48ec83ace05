"""Finished hands as each viewer may read them (hand histories with unseen cards removed).

The store keeps a hand as ``Table.hand_record`` (its deck and actions). ``history_for`` deals it
again and writes its history (``engine.history``, a PHH superset) with every card the viewer may
not see written ``??``: other players' cards that were never shown, and the burns. The player
who held a hand sees it; nobody else does, the host included. Every history also reveals the
hand's seeds (``_fairness``), so anyone can verify the deal (docs/fairness.md).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from boardroom import fairness
from boardroom.engine import history
from boardroom.engine.view import events_for
from boardroom.table import fair
from boardroom.table.record import current, rebuild_hand
from boardroom.table.settings import TableSettings


def history_for(settings: TableSettings, record: Mapping[str, Any],
                player: str | None) -> dict[str, Any]:
    """The history of finished hand ``record`` as ``player`` (None: anyone) may read it."""
    record = current(record)
    hand = rebuild_hand(settings, record)
    viewer = next((seated["seat"] for seated in record["players"]
                   if player is not None and seated["player"] == player), None)
    seen = copy.copy(hand)
    seen.events = events_for(hand, viewer)
    seen.burned = []
    written = history.to_record(seen)
    names = {seated["seat"]: seated["name"] for seated in record["players"]}
    order = hand.clockwise  # the table seats in PHH's order, p1 first
    written["players"] = [names[seat] for seat in order]
    written["_table_seats"] = list(order)
    written["_hand_no"] = record["hand_no"]
    tags = record.get("tournament")
    if tags:  # a tournament's hand: which tournament, level (1-based) and table
        written["_tournament"] = tags["id"]
        written["_level"] = tags["level"]
        written["_table"] = tags["table"]
    shown_after = record.get("shown_after")
    if shown_after:  # cards shown after the hand (public): by PHH label, in the label order
        labels = {f"p{order.index(int(seat)) + 1}": "".join(cards)
                  for seat, cards in shown_after.items()}
        written["_shown_after"] = dict(sorted(labels.items()))
    if "rabbit" in record:  # the rabbit hunt: board cards never dealt, in the order they'd come
        written["_rabbit"] = [f"d db {''.join(cards)} # board {board}"
                              for board, cards in record["rabbit"]]
    revealed = fair.history_fields(record, hand.variant)
    if revealed is not None:
        # Every viewer gets the revealed seeds (docs/fairness.md: they give the whole deck).
        written[fairness.FIELD] = revealed
    return written

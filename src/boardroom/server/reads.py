"""The answers of a room's HTTP routes that need its table as it is now (``GET
/api/rooms/{id}``, the ledger's chips on the table): computed where the room's actor runs. In a
cluster, a worker asked about a room another worker runs forwards the question to it
(``server.cluster``), so every worker gives the same answer."""

from __future__ import annotations

import csv
import io
from collections.abc import Awaitable, Callable
from typing import Any

from boardroom.server.room import Room
from boardroom.store import Store
from boardroom.table import Table

FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """A text cell a spreadsheet will not run: one that starts like a formula gets a leading
    apostrophe (OWASP's advice for CSV injection). Player names are the only text cells."""
    return "'" + cell if cell.startswith(FORMULA_LEADS) else cell


async def room_summary(room: Room) -> dict[str, Any]:
    """``GET /api/rooms/{id}``: the table as every viewer may know it, and its bots."""
    return {"room": room.id, "table": room.table.public_state(), "bots": room.bots.styles()}


async def ledger_csv(store: Store, room_id: str, table: Table | None) -> str:
    """The room's ledger as CSV: each player's buy-ins, adjustments, cash-outs, chips on the
    table now (``table``: None for a room nobody runs, a closed one) and net."""
    players: dict[str, dict[str, Any]] = {}
    for row in await store.ledger(room_id):
        entry = players.setdefault(row.player, {"name": row.name, "buy_ins": 0,
                                                "adjustments": 0, "cash_outs": 0})
        entry["name"] = row.name
        if row.entry in ("buy-in", "rebuy"):
            entry["buy_ins"] += row.amount
        elif row.entry == "adjust":
            entry["adjustments"] += row.amount
        else:
            entry["cash_outs"] -= row.amount
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player", "buy_ins", "adjustments", "cash_outs", "on_table", "net"])
    for player, entry in players.items():
        seat = table.seat_of(player) if table is not None else None
        on_table = table.chips_of(seat) if table is not None and seat is not None else 0
        net = entry["cash_outs"] + on_table - entry["buy_ins"] - entry["adjustments"]
        writer.writerow([spreadsheet_safe(entry["name"]), entry["buy_ins"],
                         entry["adjustments"], entry["cash_outs"], on_table, net])
    return out.getvalue()


async def _ledger(room: Room) -> str:
    return await ledger_csv(room.store, room.id, room.table)


# What a worker may be asked about a room it runs, by name (the names cross Redis).
READS: dict[str, Callable[[Room], Awaitable[Any]]] = {"room": room_summary, "ledger": _ledger}

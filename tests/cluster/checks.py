"""What the store of a cluster must hold for a room after any failure: each hand started
once (numbers 1, 2, 3... with no gap), versions with no gap, every finished hand stored once,
and on the table exactly the chips its ledger put there."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from leaks import Entitled, entitlements_of
from sqlalchemy import text

from boardroom.store import Store, database_url
from boardroom.table import Table, TableSettings
from boardroom.table.changes import with_changes


@dataclass
class Stored:
    state: dict[str, Any]
    version: int
    started: list[tuple[int, str]]  # (hand_no, commitment), in log order
    ended: list[int]
    versions: list[int]
    commands: list[str] = field(default_factory=list)  # every stored command key
    entitled: Entitled = field(default_factory=Entitled)


async def open_store(database: str) -> Store:
    from pathlib import Path

    return await Store.open(database_url(database, Path("/nonexistent")))


async def check_room(store: Store, room: str) -> Stored:
    """Assert the invariants above, on what the store holds for ``room`` in one snapshot (a
    repeatable-read transaction: the room's worker writes on meanwhile); what is stored."""
    async with store.engine.connect() as connection:
        connection = await connection.execution_options(isolation_level="REPEATABLE READ")
        async with connection.begin():
            settings, whole, written = (await connection.execute(text(
                "select settings, state, version from rooms where id = :r"), {"r": room})).one()
            events = (await connection.execute(text(
                "select version, kind, command_id, payload, change from events "
                "where room_id = :r order by version"), {"r": room})).all()
            ended = [n for (n,) in (await connection.execute(text(
                "select hand_no from hands where room_id = :r order by hand_no"),
                {"r": room})).all()]
            ledger = [a for (a,) in (await connection.execute(text(
                "select amount from ledger where room_id = :r"), {"r": room})).all()]
    changes = [json.loads(e.change) for e in events if e.version > written and e.change]
    state = with_changes(json.loads(whole), changes)
    payloads = [(e.version, e.kind, json.loads(e.payload)) for e in events]
    started = [(p["data"]["hand_no"], p["data"]["commitment"])
               for _, kind, p in payloads if kind == "hand_started"]
    numbers = [n for n, _ in started]
    assert numbers == list(range(1, len(numbers) + 1)), (room, numbers)  # each dealt once
    versions = [e.version for e in events]
    assert versions == list(range(1, state["version"] + 1)), room
    assert ended == sorted(set(ended)), room
    assert set(ended) <= set(numbers), room
    table = Table.from_state(TableSettings.from_dict(json.loads(settings)), state,
                             clock=lambda: 0.0)
    assert table.chips_on_table() == sum(ledger), room  # no chip lost or made
    commands = [e.command_id for e in events if e.command_id is not None]
    assert len(commands) == len(set(commands)), room  # no command applied twice
    entitled, _ = entitlements_of([(e.version, e.kind, e.payload) for e in events])
    return Stored(state, state["version"], started, ended, versions, commands, entitled)

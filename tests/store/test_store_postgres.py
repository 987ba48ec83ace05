"""The store on PostgreSQL: a fresh database on the test session's PostgreSQL server (Debian's
package, started once in a temporary folder: ``tests/cluster/services.py``) runs the same
migrations and round trip as SQLite."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from boardroom.store import (
    EventRow,
    HandRow,
    LedgerRow,
    RoomRow,
    Store,
    StoreError,
    database_url,
)


async def test_postgres_migrates_and_round_trips(database: str, tmp_path: Path) -> None:
    url = database_url(database, tmp_path)
    assert url.startswith("postgresql+asyncpg://")
    store = await Store.open(url)
    try:
        await store.create_room(RoomRow("r1", 1.0, {"game": "plo"}, "h", {}, 0, False))
        await store.append("r1", version=1, state={"x": 1}, closed=False,
                           events=[EventRow(1, "seated", None, "c1", 1.5, {"seat": 0})],
                           ledger=[LedgerRow(1, 1.5, 0, "p", "Ann", "buy-in", 200)],
                           hands=[HandRow(1, "plo", 2.0, {"deck": [3]})])
    finally:
        await store.close()
    store = await Store.open(url)  # the second open finds the schema at the head
    try:
        (room,) = await store.rooms()
        assert (room.state, room.version) == ({"x": 1}, 1)
        assert await store.recent_commands("r1", 5) == [("c1", 1)]
        assert (await store.ledger("r1"))[0].amount == 200
        assert (await store.hand("r1", 1)) == HandRow(1, "plo", 2.0, {"deck": [3]})
    finally:
        await store.close()


async def test_an_unreachable_postgres_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StoreError, match="cannot open the database"):
        await Store.open(database_url(f"postgresql://nobody@127.0.0.1:{port}/x", tmp_path))

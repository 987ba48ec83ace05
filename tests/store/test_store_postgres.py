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


async def test_writes_to_postgres_go_through_asyncpg_not_sqlalchemys_execution(
        database: str, tmp_path: Path) -> None:
    """Each commit is one transaction on asyncpg's own connection, its statements compiled
    once: no write goes through SQLAlchemy's execution (counted by the engine's statement
    hook); a failed write lands nothing and names the database's reason, never the rows; a
    write with a stale lease token is refused whole and the others of its batch land."""
    import asyncio

    from sqlalchemy import event

    from boardroom.store import LeaseLost, leases

    store = await Store.open(database_url(database, tmp_path))
    through_engine: list[str] = []

    def counted(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        through_engine.append(statement)

    try:
        for room_id in ("r1", "r2"):
            await store.create_room(RoomRow(room_id, 1.0, {"game": "plo"}, "h", {}, 0, False))
        token = await leases.take(store, "r2", "me", 30.0)
        assert token is not None
        event.listen(store.engine.sync_engine, "before_cursor_execute", counted)
        await store.append("r1", version=1, state=None, closed=False, change={"v": 1},
                           events=[EventRow(1, "bet", 1, "c1", 1.0, {"cards": ["As"]})])
        await store.append("r1", version=2, state={"v": 2}, closed=False,
                           events=[EventRow(2, "hand_ended", 1, None, 1.0, {})],
                           hands=[HandRow(1, "plo", 1.0, {"deck": []})], host_hash="h2")
        secret = EventRow(2, "hand", 1, None, 1.0, {"cards": ["Qh", "7c"]})
        with pytest.raises(StoreError, match="duplicate key") as failed:
            await store.append("r1", version=2, state={}, closed=False, events=[secret])
        assert "Qh" not in str(failed.value)
        stale, fresh = await asyncio.gather(
            store.append("r2", version=1, state={}, closed=False, token=token + 1,
                         events=[EventRow(1, "x", None, None, 1.0, {})]),
            store.append("r1", version=3, state={"v": 3}, closed=False, token=None,
                         events=[EventRow(3, "x", None, None, 1.0, {})]),
            return_exceptions=True)
        assert isinstance(stale, LeaseLost)
        assert fresh is None
        assert not any(s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
                       for s in through_engine)
        room = await store.room("r1")
        assert room is not None
        assert (room.version, room.state, room.host_hash) == (3, {"v": 3}, "h2")
        assert [e.version for e in await store.events("r1")] == [1, 2, 3]
        assert await store.events("r2") == []
        assert await store.hands("r1") == [HandRow(1, "plo", 1.0, {"deck": []})]
    finally:
        await store.close()


async def test_connections_the_database_ended_are_replaced_and_reads_fail_clearly(
        database: str, tmp_path: Path) -> None:
    """A worker paused past PostgreSQL's idle-in-transaction timeout (or a database restarted)
    finds its pooled connections closed: the next read and write take fresh ones instead of
    failing on a dead one, and a read that cannot reach the database at all is a StoreError
    naming the reason, never SQLAlchemy's error with its statement."""
    import asyncpg

    url = database_url(database, tmp_path)
    store = await Store.open(url)
    try:
        await store.create_room(RoomRow("r1", 1.0, {"game": "plo"}, "h", {}, 0, False))
        assert (await store.room("r1")) is not None  # pooled connections, opened
        admin = await asyncpg.connect(database)
        try:
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        finally:
            await admin.close()
        assert ended >= 1
        row = await store.room("r1")
        assert row is not None
        assert row.id == "r1"
        await store.append("r1", version=1, state={"x": 1}, closed=False)
        assert (await store.room("r1")).version == 1  # type: ignore[union-attr]
    finally:
        await store.close()
    from sqlalchemy.ext.asyncio import create_async_engine

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    gone = Store(create_async_engine(f"postgresql+asyncpg://nobody@127.0.0.1:{port}/x"), None)
    try:
        with pytest.raises(StoreError, match="cannot read the database") as raised:
            await gone.room("r1")  # the database went away: no connection to be had
        assert "SELECT" not in str(raised.value)
    finally:
        await gone.engine.dispose()

"""Room leases and fenced writes on a real PostgreSQL (``store.leases``): a lease is taken only
when free or expired, with a token one more than any before; a write with a stale token lands
nothing and fails no other room's write in the same group commit."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from boardroom.store import EventRow, LeaseLost, RoomRow, Store, StoreError, database_url, leases


async def _open(database: str, tmp_path: Path) -> Store:
    return await Store.open(database_url(database, tmp_path))


def _event(version: int) -> EventRow:
    return EventRow(version, "chat", None, None, 1.0, {"data": {"text": "hi"}})


async def test_a_lease_is_taken_once_until_it_expires_and_its_token_grows(
        database: str, tmp_path: Path) -> None:
    store = await _open(database, tmp_path)
    try:
        assert await leases.take(store, "r1", "w1", seconds=0.5) == 1
        assert await leases.take(store, "r1", "w2", seconds=0.5) is None  # w1 holds it
        assert await leases.holder(store, "r1") == ("w1", 1)
        await asyncio.sleep(0.7)
        assert await leases.holder(store, "r1") is None  # expired
        assert await leases.take(store, "r1", "w2", seconds=5) == 2
        assert await leases.renew(store, "w1", {"r1": 1}) == {}  # w1 lost it: nothing to renew
        assert await leases.renew(store, "w2", {"r1": 1}) == {}  # not with an old token
        assert await leases.renew(store, "w2", {"r1": 2}) == {"r1": 2}
        assert not await leases.release(store, "r1", "w2", 1)  # not with an old token
        assert await leases.release(store, "r1", "w2", 2)
        assert await leases.renew(store, "w2", {"r1": 2}) == {}  # released: handed over
        assert await leases.take(store, "r1", "w1") == 3  # released: taken at once
    finally:
        await store.close()


async def test_many_workers_racing_for_one_lease_one_wins(database: str, tmp_path: Path) -> None:
    stores = [await _open(database, tmp_path) for _ in range(4)]
    try:
        tokens = await asyncio.gather(*(leases.take(store, "r1", f"w{n}")
                                        for n, store in enumerate(stores)))
        assert sorted(tokens, key=lambda t: t or 0) == [None, None, None, 1]
    finally:
        for store in stores:
            await store.close()


async def test_a_write_with_a_stale_token_lands_nothing_and_fails_no_other_room(
        database: str, tmp_path: Path) -> None:
    store = await _open(database, tmp_path)
    try:
        for room in ("r1", "r2"):
            token = await leases.take(store, room, "w1", seconds=0.3)
            await store.create_room(RoomRow(room, 1.0, {}, "h", {"v": 0}, 0, False), token=token)
        await asyncio.sleep(0.5)
        assert await leases.take(store, "r1", "w2") == 2  # w2 took r1; w1 still runs r2
        assert await leases.renew(store, "w1", {"r1": 1, "r2": 1}) == {"r2": 1}
        stale = store.append("r1", version=1, state={"v": 1}, closed=False,
                             events=[_event(1)], token=1)
        fresh = store.append("r2", version=1, state={"v": 1}, closed=False,
                             events=[_event(1)], token=1)
        results = await asyncio.gather(stale, fresh, return_exceptions=True)
        assert isinstance(results[0], LeaseLost)
        assert results[1] is None
        assert (await store.room("r1")).state == {"v": 0}  # type: ignore[union-attr]
        assert await store.events("r1") == []
        assert (await store.room("r2")).state == {"v": 1}  # type: ignore[union-attr]
        await store.append("r1", version=1, state={"v": 1}, closed=False, events=[_event(1)],
                           token=2)  # the new owner's write lands
        assert [e.version for e in await store.events("r1")] == [1]
    finally:
        await store.close()


async def test_workers_share_one_seat_token_secret(database: str, tmp_path: Path) -> None:
    first, second = await _open(database, tmp_path), await _open(database, tmp_path)
    try:
        secret = await leases.shared_secret(first)
        assert len(secret) == 64
        assert await leases.shared_secret(second) == secret
    finally:
        await first.close()
        await second.close()


async def test_leases_on_sqlite_are_a_clear_error(tmp_path: Path) -> None:
    store = await Store.open(database_url(None, tmp_path))
    try:
        with pytest.raises(StoreError, match="room leases need PostgreSQL"):
            await leases.take(store, "r1", "w1")
    finally:
        await store.close()


async def test_a_paused_writer_holding_its_lease_rows_does_not_stop_a_take(
        database: str, tmp_path: Path) -> None:
    """A worker paused (SIGSTOP) in the middle of a fenced write holds its lease rows ``FOR
    SHARE`` until it runs again: the database ends its session once it has sat idle in its
    transaction for a lease's length, so another worker takes the lease all the same, and the
    paused write lands nothing."""
    paused, other = await _open(database, tmp_path), await _open(database, tmp_path)
    try:
        token = await leases.take(paused, "r1", "w1", seconds=0.5)
        await paused.create_room(RoomRow("r1", 1.0, {}, "h", {"v": 0}, 0, False), token=token)
        async with paused.engine.connect() as connection:
            transaction = await connection.begin()
            held = await connection.execute(text(
                "SELECT token FROM room_leases WHERE room_id = 'r1' FOR SHARE"))
            assert held.scalar() == token  # the write's fencing check: then the pause
            taken = None
            async with asyncio.timeout(3 * leases.LEASE_SECONDS):
                while taken is None:
                    taken = await leases.take(other, "r1", "w2")
                    await asyncio.sleep(0.1)
            assert taken == 2
            # It wakes up: the session its transaction was in is gone.
            with pytest.raises(DBAPIError):
                await connection.execute(text(
                    "UPDATE rooms SET state = '{\"v\": 1}' WHERE id = 'r1'"))
            with contextlib.suppress(DBAPIError):
                await transaction.rollback()
        assert (await other.room("r1")).state == {"v": 0}  # type: ignore[union-attr]
    finally:
        await paused.close()
        await other.close()

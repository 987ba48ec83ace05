"""A worker takes a dead worker's many rooms at once: in batches, each one lease statement and
a few reads for all its rooms, never a round of queries per room (a kill -9 of the owner of 103
rooms took 109 s to adopt them one after another). In-process workers on a real PostgreSQL and
Redis; the statements counted, not timed."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from redis_tap import tapped
from services import Postgres, Redis
from sqlalchemy import event

from boardroom.server.app import Server
from boardroom.server.cluster import ADOPT_BATCH, BROADCAST, load_key
from boardroom.server.config import ServerConfig
from boardroom.server.protocol import RateLimit, parse
from boardroom.server.room import Room
from boardroom.server.viewer import Viewer
from boardroom.store import RoomRow, Store, database_url, leases
from boardroom.table import Table, TableSettings

ROOMS = 40


def _worker(name: str, database: str, redis_server: Redis, folder: Path, *, lease: float,
            renew: float) -> Server:
    return Server(ServerConfig(data=folder / name, database=database, redis=redis_server.url,
                               worker_id=name, lease_seconds=lease, renew_seconds=renew))


async def test_a_worker_takes_many_orphans_in_a_few_statements(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    database = pg.database("adoption")
    dead = _worker("dead", database, redis_server, tmp_path, lease=1.0, renew=0.2)
    await dead.start()
    rooms = []
    for n in range(ROOMS):
        room_id, _ = await dead.create_room(TableSettings(game="plo"))
        viewer = Viewer(f"sid{n}", RateLimit(0.0))
        room = dead.rooms[room_id]
        for command in ({"id": f"join{n}", "type": "join", "room": room_id,
                         "role": "spectator"},
                        {"id": f"chat{n}", "type": "chat", "text": f"hello {n}"}):
            assert (await room.submit(viewer, parse(command)))["ok"]
        rooms.append(room_id)
    assert await leases.holder(dead.store, rooms[0]) == ("dead", 1)
    # kill -9: the worker stops running its rooms and renewing their leases, releasing nothing
    for room in dead.rooms.values():
        await room.stop()
    dead.rooms.clear()
    await dead.stop()

    heir = _worker("heir", database, redis_server, tmp_path, lease=120.0, renew=120.0)
    await heir.start()
    assert heir.cluster is not None
    for task in heir.cluster._loops:  # not one step run yet: this test sweeps, once
        task.cancel()
    try:
        statements: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            statements.append(statement)

        while len(await leases.orphans(heir.store)) < ROOMS:  # the dead worker's leases lapse
            await asyncio.sleep(0.1)
        # The dead worker still counts as alive (its load key outlives it a moment, and the
        # heir heard of it before it died): its leases lapsed, so it renews nothing and the
        # sweep takes every orphan at once rather than leaving it its share of them, for the
        # next sweep.
        heir.cluster.live = {"dead": {"rooms": ROOMS, "tournaments": 0, "draining": False}}
        await heir.cluster.redis.set(load_key("dead"), json.dumps(heir.cluster.live["dead"]),
                                     px=60_000)
        batches = math.ceil(ROOMS / ADOPT_BATCH)
        event.listen(heir.store.engine.sync_engine, "before_cursor_execute", count)
        async with tapped(redis_server.url) as heard:
            await heir.cluster._sweep()
            event.remove(heir.store.engine.sync_engine, "before_cursor_execute", count)
            # Redis delivers in order: once this is heard, so was everything the sweep said
            await heir.cluster.redis.publish(BROADCAST, "end of the sweep")
            async with asyncio.timeout(30):
                while (BROADCAST, b"end of the sweep") not in heard:
                    await asyncio.sleep(0.05)
        # the other workers are told who runs the rooms taken: one message a batch
        told = [data for channel, data in heard if channel == BROADCAST]
        assert len(told) == batches + 1, len(told)
        assert set(rooms) <= set(heir.rooms)
        assert batches <= 2  # (a room at a time took 1 + 5 statements a room: 201)
        # the orphans' query and how long ago their leases lapsed, then a lease statement and
        # four reads a batch (the rooms, their state changes, their last commands, their last
        # hands)
        assert len(statements) <= 2 + 5 * batches, statements
        for n, room_id in enumerate(rooms):
            assert await leases.holder(heir.store, room_id) == ("heir", 2)
            room = heir.rooms[room_id]
            remembered = {answer["id"] for sender, kept in room.answers.items()
                          for command_id in kept
                          if (answer := room.recall(sender, command_id)) is not None}
            assert f"chat{n}" in remembered  # its own commands, and no other room's
            assert remembered <= {f"join{n}", f"chat{n}"}, remembered
            assert heir.rooms[room_id].running
    finally:
        await heir.cluster.redis.delete(load_key("dead"))
        await heir.stop()


async def test_a_lease_taken_is_renewed_while_its_room_is_restored(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    """A worker renews a lease from the moment it takes it, not from the moment its room runs:
    a restore slower than a lease (a loaded machine, a large room) must not let the lease lapse,
    or another worker (or this one's next sweep) takes the room while it is still being
    restored, and two actors run it. The restore is held back here for three leases' length;
    the lease's holder and token are read, not timed."""
    database = pg.database("slow_restore")
    store = await Store.open(database_url(database, tmp_path))
    heir = _worker("heir", database, redis_server, tmp_path, lease=1.0, renew=0.2)
    restoring, go_on = asyncio.Event(), asyncio.Event()
    try:
        settings = TableSettings(game="plo")
        table = Table(settings, clock=time.time, room="slow")
        token = await leases.take(store, "slow", "dead", seconds=0.2)  # its owner died
        await store.create_room(RoomRow("slow", time.time(), settings.to_dict(), "h",
                                        table.to_state(), table.version, False), token=token)
        await heir.start()
        restore = heir.restore_many

        async def slow_restore(rows: Sequence[RoomRow]) -> list[Room]:
            restoring.set()
            await go_on.wait()
            return await restore(rows)

        heir.restore_many = slow_restore  # type: ignore[method-assign]
        async with asyncio.timeout(30):
            await restoring.wait()
        assert await leases.holder(store, "slow") == ("heir", 2)
        await asyncio.sleep(3.0)  # three leases' length: only renewals keep it
        assert await leases.holder(store, "slow") == ("heir", 2)
        assert await leases.take(store, "slow", "other") is None
        go_on.set()
        async with asyncio.timeout(30):
            while "slow" not in heir.rooms or not heir.rooms["slow"].running:
                await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # a few renewals of the running room
        assert heir.rooms["slow"].lease == 2
        assert heir.rooms["slow"].running
        assert await leases.holder(store, "slow") == ("heir", 2)
    finally:
        go_on.set()
        await heir.stop()
        await store.close()

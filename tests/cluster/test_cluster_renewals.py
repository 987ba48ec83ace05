"""How a worker keeps its leases, and how it loses them (``store.leases.Keeper``): renewed from
a thread and a database connection of its own, so a busy event loop does not let them lapse;
not renewed once the event loop stops answering, so a stalled worker's rooms move; a new room's
lease renewed while the room is being stored; and a worker whose process ended (its liveness
lock free) has its leases taken without waiting for them to lapse. In-process workers on a real
PostgreSQL and Redis; lease holders and tokens are read, never durations asserted."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from services import Postgres, Redis

from boardroom.server import tournament as tournament_host
from boardroom.server.app import Server
from boardroom.server.config import ServerConfig
from boardroom.store import RoomRow, Store, TournamentRow, database_url, leases
from boardroom.store import tournament as tournament_row
from boardroom.table import Table, TableSettings
from boardroom.tournament import Level, Structure, TournamentConfig


def _worker(name: str, database: str, redis_server: Redis, folder: Path, *, lease: float,
            renew: float) -> Server:
    return Server(ServerConfig(data=folder / name, database=database, redis=redis_server.url,
                               worker_id=name, lease_seconds=lease, renew_seconds=renew))


@contextlib.contextmanager
def _taker(database: str, folder: Path, room: str, seconds: float) -> Iterator[list[int]]:
    """Another worker ("other"), on a thread and an event loop of its own (the worker tested
    may hold its own loop up), trying to take ``room``'s lease every 0.1 s for ``seconds``:
    the tokens it took (none while the lease is kept)."""
    taken: list[int] = []

    async def take() -> None:
        store = await Store.open(database_url(database, folder))
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not taken:
                token = await leases.take(store, room, "other", seconds=60)
                if token is not None:
                    taken.append(token)
                await asyncio.sleep(0.1)
        finally:
            await store.close()

    thread = threading.Thread(target=lambda: asyncio.run(take()))
    thread.start()
    try:
        yield taken
    finally:
        thread.join()


async def _busy(seconds: float, tasks: int, step: float) -> None:
    """Hold the event loop up as a loaded worker's is: ``tasks`` tasks each running ``step``
    seconds of work between two turns of the loop, for ``seconds``."""
    deadline = time.monotonic() + seconds

    async def work() -> None:
        while time.monotonic() < deadline:
            time.sleep(step)
            await asyncio.sleep(0)

    await asyncio.gather(*(work() for _ in range(tasks)))


async def test_a_busy_event_loop_keeps_its_leases(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    """Each turn of the worker's loop takes half a second (25 tasks, 20 ms each): renewals run
    on the loop, each a few turns of it (the database's answer, Redis's), came further apart
    than a lease (3 s). The keeper renews from its own thread while the loop still answers."""
    database = pg.database("busy_loop")
    worker = _worker("busy", database, redis_server, tmp_path, lease=3.0, renew=0.2)
    await worker.start()
    try:
        room_id, _ = await worker.create_room(TableSettings(game="plo"))
        assert await leases.holder(worker.store, room_id) == ("busy", 1)
        with _taker(database, tmp_path, room_id, seconds=9.0) as taken:
            await _busy(9.0, tasks=25, step=0.02)  # three leases' length
        assert taken == []
        assert await leases.holder(worker.store, room_id) == ("busy", 1)
        assert worker.rooms[room_id].running
    finally:
        await worker.stop()


async def test_a_stalled_event_loop_lets_its_leases_lapse(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    """A loop that does not answer at all (a worker stuck) serves nobody: the keeper stops
    renewing, the lease lapses, another worker takes it, and the stalled worker, running
    again, gives the room up."""
    database = pg.database("stalled_loop")
    worker = _worker("stuck", database, redis_server, tmp_path, lease=1.0, renew=0.2)
    await worker.start()
    try:
        room_id, _ = await worker.create_room(TableSettings(game="plo"))
        with _taker(database, tmp_path, room_id, seconds=10.0) as taken:
            time.sleep(4.0)  # the whole loop stuck for four leases; the keeper's thread runs
        assert taken == [2]
        async with asyncio.timeout(30):
            while room_id in worker.rooms:
                await asyncio.sleep(0.05)
        assert await leases.holder(worker.store, room_id) == ("other", 2)
    finally:
        await worker.stop()


async def test_a_new_rooms_lease_is_renewed_while_it_is_stored(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    """A room being made holds its lease from the moment it is taken: a slow first write (a
    loaded database) must not let it lapse before the room runs."""
    database = pg.database("slow_create")
    worker = _worker("maker", database, redis_server, tmp_path, lease=1.0, renew=0.2)
    await worker.start()
    storing, go_on = asyncio.Event(), asyncio.Event()
    create = worker.store.create_room
    made: list[str] = []

    async def slow_create(row: RoomRow, *, token: int | None = None) -> None:
        made.append(row.id)
        storing.set()
        await go_on.wait()
        await create(row, token=token)

    worker.store.create_room = slow_create  # type: ignore[method-assign]
    try:
        making = asyncio.create_task(worker.create_local_room(TableSettings(game="plo")))
        async with asyncio.timeout(30):
            await storing.wait()
        (room_id,) = made
        await asyncio.sleep(3.0)  # three leases' length: only renewals keep it
        assert await leases.holder(worker.store, room_id) == ("maker", 1)
        assert await leases.take(worker.store, room_id, "other") is None
        go_on.set()
        async with asyncio.timeout(30):
            assert (await making)[0] == room_id
        await asyncio.sleep(1.0)  # a few renewals of the running room
        assert worker.rooms[room_id].running
        assert worker.rooms[room_id].lease == 1
        assert await leases.holder(worker.store, room_id) == ("maker", 1)
    finally:
        go_on.set()
        await worker.stop()


async def test_a_new_tournaments_lease_is_renewed_while_it_is_first_saved(
        pg: Postgres, redis_server: Redis, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament being made holds its lease from the moment it is taken, as a new room
    does: a slow first save (a loaded database) must not let it lapse before it runs."""
    database = pg.database("slow_tournament")
    worker = _worker("maker", database, redis_server, tmp_path, lease=1.0, renew=0.2)
    await worker.start()
    saving, go_on = asyncio.Event(), asyncio.Event()
    save = tournament_host.save_tournament
    saved: list[str] = []

    async def slow_save(store: Store, row: TournamentRow, *,
                        lease: tuple[str, int] | None = None) -> None:
        if not saved:  # the first save only
            saved.append(row.id)
            saving.set()
            await go_on.wait()
        await save(store, row, lease=lease)

    monkeypatch.setattr(tournament_host, "save_tournament", slow_save)
    config = TournamentConfig(Structure("test", 1000, (Level(10, 20, minutes=10),)),
                              games=("plo",), table_size=6)
    try:
        making = asyncio.create_task(
            worker.create_local_tournament(config, "Sunday", action_clock=30.0))
        async with asyncio.timeout(30):
            await saving.wait()
        key = leases.tournament_key(saved[0])
        await asyncio.sleep(3.0)  # three leases' length: only renewals keep it
        assert await leases.holder(worker.store, key) == ("maker", 1)
        assert await leases.take(worker.store, key, "other") is None
        go_on.set()
        async with asyncio.timeout(30):
            host, _ = await making
        assert host.id == saved[0]
        await asyncio.sleep(1.0)  # a few renewals of the running tournament
        assert worker.tournaments[host.id].lease == 1
        assert await leases.holder(worker.store, key) == ("maker", 1)
        assert (await tournament_row(worker.store, host.id)) is not None
    finally:
        go_on.set()
        await worker.stop()


async def test_a_workers_leases_are_taken_once_its_process_ended(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    """A worker killed (its sessions end, its liveness lock with them) leaves leases that live
    on for a whole minute here: the live workers' sweeps take its rooms once two sweeps in a
    row found it gone, without waiting for them to lapse. A live worker's leases are never
    taken so, nor those of a worker never seen holding its lock (an earlier release's)."""
    database = pg.database("ended")
    dead = _worker("dead", database, redis_server, tmp_path, lease=60.0, renew=0.2)
    alive = _worker("alive", database, redis_server, tmp_path, lease=60.0, renew=0.2)
    heir = _worker("heir", database, redis_server, tmp_path, lease=60.0, renew=0.2)
    await dead.start()
    await alive.start()
    await heir.start()
    try:
        # a room of a worker of an earlier release, which takes no liveness lock: never judged
        # ended (a rolling upgrade must not move every room of the workers not upgraded yet)
        old = await leases.take(alive.store, "older", "old", seconds=60)
        settings = TableSettings(game="plo")
        table = Table(settings, clock=time.time, room="older")
        await alive.store.create_room(RoomRow("older", time.time(), settings.to_dict(), "h",
                                              table.to_state(), table.version, False),
                                      token=old)
        dead_rooms = [(await dead.create_local_room(TableSettings(game="plo")))[0]
                      for _ in range(3)]
        alive_rooms = [(await alive.create_local_room(TableSettings(game="plo")))[0]
                       for _ in range(3)]
        config = TournamentConfig(Structure("test", 1000, (Level(10, 20, minutes=10),)),
                                  games=("plo",), table_size=6)
        host, _ = await dead.create_local_tournament(config, "Sunday", action_clock=30.0)
        key = leases.tournament_key(host.id)
        async with asyncio.timeout(20):  # the others' sweeps have seen it alive
            while any("dead" not in w.cluster._seen_locked for w in (alive, heir)
                      if w.cluster is not None):
                await asyncio.sleep(0.05)
        # kill -9: its rooms and tournament stop, nothing is released, its sessions end
        for room in dead.rooms.values():
            await room.stop()
        dead.rooms.clear()
        await host.stop()
        dead.tournaments.clear()
        await dead.stop()
        for room_id in dead_rooms:
            assert await leases.holder(alive.store, room_id) == ("dead", 1)  # it lives on
        holders: dict[str, tuple[str, int] | None] = {}
        async with asyncio.timeout(20):  # a third of the dead worker's leases' length
            while any(holders.get(r) is None or holders[r][0] == "dead" for r in dead_rooms):
                holders = {r: await leases.holder(alive.store, r) for r in dead_rooms}
                await asyncio.sleep(0.1)
        for room_id in dead_rooms:  # taken by a live worker (each takes its share)
            assert holders[room_id] in (("heir", 2), ("alive", 2))
            async with asyncio.timeout(20):
                while room_id not in {**heir.rooms, **alive.rooms}:
                    await asyncio.sleep(0.05)
        async with asyncio.timeout(20):  # its tournament too (registering: no tables yet)
            while (await leases.holder(alive.store, key) or ("dead", 1))[0] == "dead":
                await asyncio.sleep(0.1)
        assert await leases.holder(alive.store, key) in (("heir", 2), ("alive", 2))
        for room_id in alive_rooms:
            assert room_id not in heir.rooms
            assert await leases.holder(alive.store, room_id) == ("alive", 1)
        assert await leases.holder(alive.store, "older") == ("old", 1)
    finally:
        await heir.stop()
        await alive.stop()

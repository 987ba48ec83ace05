"""A worker told to stop (SIGTERM) hands its tournaments over whole: the director's work in
hand (a table's hand report, which may move players between tables, close a table's room and
then save) is finished, never cut half-way. Cut, it left a table's room closed and its players
moved out while the tournament's saved state still had them playing a hand there: the worker
taking it over waited for that hand's end for good (``test_sigterm_of_the_owner_hands_the_
tournament_over_whole_and_it_finishes``, 1 run in 6 or so). An in-process worker on a real
PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path

from services import Postgres, Redis

from boardroom.server.app import Server
from boardroom.server.config import ServerConfig
from boardroom.store import Store, database_url, leases, tournament
from boardroom.tournament import Level, Structure, TournamentConfig


async def test_a_drain_finishes_the_directors_work_in_hand(
        pg: Postgres, redis_server: Redis, tmp_path: Path) -> None:
    database = pg.database("tournament_drain")
    worker = Server(ServerConfig(data=tmp_path / "drainer", database=database,
                                 redis=redis_server.url, worker_id="drainer"))
    await worker.start()
    config = TournamentConfig(Structure("test", 1000, (Level(10, 20, minutes=10),)),
                              games=("plo",), table_size=6)
    host, _ = await worker.create_local_tournament(config, "Sunday", action_clock=30.0)
    in_hand, go_on = asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def report() -> None:  # as a table's hand report does: under the lock, then saved
        async with host._lock:
            in_hand.set()
            await go_on.wait()
            host.version += 1
            await host.save()
            finished.append("saved")

    host._pending.append(asyncio.create_task(report()))
    async with asyncio.timeout(30):
        await in_hand.wait()
    draining = asyncio.create_task(worker.stop())  # SIGTERM: the drain
    await asyncio.sleep(0.5)
    assert not draining.done()  # the drain waits for the report
    go_on.set()
    async with asyncio.timeout(60):
        await draining
    assert finished == ["saved"]
    store = await Store.open(database_url(database, tmp_path))
    try:
        row = await tournament(store, host.id)
        assert row is not None
        assert row.state["version"] == host.version  # its last save is the report's
        assert await leases.holder(store, leases.tournament_key(host.id)) is None  # handed over
    finally:
        await store.close()

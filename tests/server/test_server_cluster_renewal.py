"""A worker's sweeps for orphaned rooms go on whatever a take-over does: a take that fails (a
busy database's pool timing out) is tried again at the next sweep, never given up on. Counted,
with the store's lease calls and the lease keeper replaced. (That a worker's own leases are
renewed while it takes rooms over is the keeper's: tests/cluster/test_cluster_renewals.py.)"""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from boardroom.server import cluster as cluster_module
from boardroom.server.cluster import Cluster
from boardroom.store.leases import Swept


async def _nothing(*_args: Any) -> Any:
    return {}


async def _no_lapse(*_args: Any) -> tuple[float, set[str]]:
    return 0.0, set()


class _Keeper:
    """The lease keeper, idle: renewals are not what these tests count."""

    def __init__(self, *_args: Any, **_options: Any) -> None:
        self.alive = threading.Event()
        self.alive.set()
        self.lag = self.gap = 0.0

    def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass


async def test_a_failed_take_over_never_stops_the_sweeps(monkeypatch: pytest.MonkeyPatch) -> None:
    async def sweep(_store: Any) -> Swept:
        return Swept(free=["orphan"], gone={}, locked=set(), unlocked=set())

    monkeypatch.setattr(cluster_module.leases, "Keeper", _Keeper)
    monkeypatch.setattr(cluster_module.leases, "sweep", sweep)
    monkeypatch.setattr(cluster_module.leases, "lapsed", _no_lapse)
    attempts: list[str] = []

    async def failing_adopt(rooms: list[str]) -> int:
        attempts.extend(rooms)
        raise RuntimeError("the pool timed out")  # what a busy database may raise

    server = SimpleNamespace(rooms={}, tournaments={}, store=SimpleNamespace(engine=None),
                             hub=SimpleNamespace(remote_viewers=list))
    worker = Cluster(server, "redis://127.0.0.1:1", "w1", lease=0.4, renew=0.02)  # type: ignore[arg-type]
    for name, stub in (("_publish_load", _nothing), ("_loads", _nothing),
                       ("adopt_many", failing_adopt), ("_listen", _nothing),
                       ("_sweep_tournaments", _nothing)):
        monkeypatch.setattr(worker, name, stub)
    server.store.engine = SimpleNamespace(url="postgresql://unused")
    await worker.start()
    try:
        await asyncio.sleep(0.5)
    finally:
        for task in worker._loops:
            task.cancel()
        await asyncio.gather(*worker._loops, return_exceptions=True)
        await worker.redis.aclose()
    assert len(attempts) >= 3  # tried again at every sweep, not once and never again

"""A worker keeps renewing the leases of the rooms it runs while it takes over others: taking a
room restores it from the store, which on a busy machine takes a while a room, and a worker that
took a hundred orphans in one sweep used to leave its own leases unrenewed for that long (they
lapsed, and other workers took its rooms). Counted, with the store's lease calls replaced."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from boardroom.server import cluster as cluster_module
from boardroom.server.cluster import Cluster


async def _nothing(*_args: Any) -> Any:
    return {}


async def _no_lapse(*_args: Any) -> tuple[float, set[str]]:
    return 0.0, set()


async def _run_worker(monkeypatch: pytest.MonkeyPatch, rooms: dict[str, Any], adopt: Any,
                      seconds: float) -> None:
    """A worker of fake rooms, its Redis and listening stubbed, swept with ``adopt`` for
    ``seconds``."""
    server = SimpleNamespace(rooms=rooms, tournaments={}, store=None,
                             hub=SimpleNamespace(remote_viewers=list))
    worker = Cluster(server, "redis://127.0.0.1:1", "w1", lease=0.4, renew=0.02)  # type: ignore[arg-type]
    for name, stub in (("_publish_load", _nothing), ("_loads", _nothing), ("adopt_many", adopt),
                       ("_listen", _nothing), ("_sweep_tournaments", _nothing)):
        monkeypatch.setattr(worker, name, stub)
    monkeypatch.setattr(cluster_module.leases, "lapsed", _no_lapse)
    await worker.start()
    try:
        await asyncio.sleep(seconds)
    finally:
        for task in worker._loops:
            task.cancel()
        await asyncio.gather(*worker._loops, return_exceptions=True)
        await worker.redis.aclose()


@pytest.mark.asyncio
async def test_leases_are_renewed_while_orphans_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    renewals: list[int] = []  # how many adoptions were under way at each renewal
    adopting = 0

    async def renew(_store: Any, _owner: str, rooms: list[str], _seconds: float) -> dict[str, int]:
        renewals.append(adopting)
        return dict.fromkeys(rooms, 1)

    async def orphans(_store: Any) -> list[str]:
        return [f"orphan{n}" for n in range(3)]

    monkeypatch.setattr(cluster_module.leases, "renew", renew)
    monkeypatch.setattr(cluster_module.leases, "orphans", orphans)
    async def slow_adopt(_rooms: list[str]) -> int:
        nonlocal adopting
        adopting += 1
        await asyncio.sleep(0.3)  # a restore on a busy machine
        adopting -= 1
        return 0

    await _run_worker(monkeypatch, {"mine": SimpleNamespace(lease=1)}, slow_adopt, 1.0)
    during = sum(1 for under_way in renewals if under_way)
    assert during >= 3, renewals  # renewed again and again while rooms were being taken


async def test_a_failed_take_over_never_stops_the_sweeps(monkeypatch: pytest.MonkeyPatch) -> None:
    async def renew(_store: Any, _owner: str, rooms: list[str], _seconds: float) -> dict[str, int]:
        return dict.fromkeys(rooms, 1)

    async def orphans(_store: Any) -> list[str]:
        return ["orphan"]

    monkeypatch.setattr(cluster_module.leases, "renew", renew)
    monkeypatch.setattr(cluster_module.leases, "orphans", orphans)
    attempts: list[str] = []

    async def failing_adopt(rooms: list[str]) -> int:
        attempts.extend(rooms)
        raise RuntimeError("the pool timed out")  # what a busy database may raise

    await _run_worker(monkeypatch, {}, failing_adopt, 0.5)
    assert len(attempts) >= 3  # tried again at every sweep, not once and never again

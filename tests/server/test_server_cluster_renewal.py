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
    hub = SimpleNamespace(remote_viewers=list)
    server = SimpleNamespace(rooms={"mine": SimpleNamespace(lease=1)}, store=None, hub=hub)
    worker = Cluster(server, "redis://127.0.0.1:1", "w1", lease=0.4, renew=0.02)  # type: ignore[arg-type]

    async def nothing(*_args: Any) -> Any:
        return {}

    async def slow_adopt(_room: str) -> bool:
        nonlocal adopting
        adopting += 1
        await asyncio.sleep(0.3)  # a restore on a busy machine
        adopting -= 1
        return False

    monkeypatch.setattr(worker, "_publish_load", nothing)
    monkeypatch.setattr(worker, "_loads", nothing)
    monkeypatch.setattr(worker, "adopt", slow_adopt)
    monkeypatch.setattr(worker, "_listen", nothing)
    await worker.start()
    try:
        await asyncio.sleep(1.0)
    finally:
        for task in worker._loops:
            task.cancel()
        await asyncio.gather(*worker._loops, return_exceptions=True)
        await worker.redis.aclose()
    during = sum(1 for under_way in renewals if under_way)
    assert during >= 3, renewals  # renewed again and again while rooms were being taken


async def test_a_failed_take_over_never_stops_the_sweeps(monkeypatch: pytest.MonkeyPatch) -> None:
    async def renew(_store: Any, _owner: str, rooms: list[str], _seconds: float) -> dict[str, int]:
        return dict.fromkeys(rooms, 1)

    async def orphans(_store: Any) -> list[str]:
        return ["orphan"]

    monkeypatch.setattr(cluster_module.leases, "renew", renew)
    monkeypatch.setattr(cluster_module.leases, "orphans", orphans)
    hub = SimpleNamespace(remote_viewers=list)
    server = SimpleNamespace(rooms={}, store=None, hub=hub)
    worker = Cluster(server, "redis://127.0.0.1:1", "w1", lease=0.4, renew=0.02)  # type: ignore[arg-type]
    attempts: list[str] = []

    async def nothing(*_args: Any) -> Any:
        return {}

    async def failing_adopt(room: str) -> bool:
        attempts.append(room)
        raise RuntimeError("the pool timed out")  # what a busy database may raise

    monkeypatch.setattr(worker, "_publish_load", nothing)
    monkeypatch.setattr(worker, "_loads", nothing)
    monkeypatch.setattr(worker, "adopt", failing_adopt)
    monkeypatch.setattr(worker, "_listen", nothing)
    await worker.start()
    try:
        await asyncio.sleep(0.5)
    finally:
        for task in worker._loops:
            task.cancel()
        await asyncio.gather(*worker._loops, return_exceptions=True)
        await worker.redis.aclose()
    assert len(attempts) >= 3  # tried again at every sweep, not once and never again

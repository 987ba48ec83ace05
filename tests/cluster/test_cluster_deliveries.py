"""Updates for another worker's connections cross Redis, all of them, in order: a burst of
deliveries (a loaded worker's rooms all pushing at once) loses none of them, and each worker's
channel carries them in the order they were sent. A worker of an earlier release, which does
not say it reads batches, gets one message per delivery. In-process workers on a real
PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from redis_tap import tapped
from services import Postgres, Redis

from boardroom.server.app import Server
from boardroom.server.cluster import load_key, worker_channel
from boardroom.server.config import ServerConfig
from boardroom.server.encode import Fragment
from boardroom.server.protocol import RateLimit
from boardroom.server.seal import Sealer
from boardroom.server.viewer import Viewer
from boardroom.store import leases

DELIVERIES = 300  # three times redis-py's pool of connections (100)


def _worker(name: str, database: str, redis_server: Redis, folder: Path) -> Server:
    return Server(ServerConfig(data=folder / name, database=database, redis=redis_server.url,
                               worker_id=name, renew_seconds=0.2))


async def test_a_burst_of_deliveries_arrives_whole_and_in_order_on_each_channel(
        pg: Postgres, redis_server: Redis, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """300 deliveries sent at once by one worker, alternately to a worker of this release and
    to one of an earlier release (its load as such a worker writes it, without a word of
    batches): every one is heard and arrives, each channel's in the order sent; the earlier
    release's worker sees no batch, one message a delivery."""
    database = pg.database("deliveries")
    sender = _worker("dsend", database, redis_server, tmp_path)
    receiver = _worker("drecv", database, redis_server, tmp_path)
    await sender.start()
    await receiver.start()
    got: list[Any] = []

    async def record(sids: list[str], kind: str, payload: Any) -> None:
        got.append((sids, kind, json.loads(str(payload))))

    receiver.hub.deliver = record  # type: ignore[method-assign]
    cluster = sender.cluster
    assert cluster is not None
    sealer = Sealer(await leases.shared_secret(sender.store))
    old_channel, new_channel = worker_channel("dold"), worker_channel("drecv")

    def opened(channel: str, data: bytes) -> Any:
        return sealer.open(channel, data) if channel in (old_channel, new_channel) else None

    try:
        # a worker of an earlier release: alive (its load key) and not reading batches
        await cluster.redis.set(load_key("dold"), json.dumps(
            {"rooms": 0, "tournaments": 0, "draining": False}), px=60_000)
        async with asyncio.timeout(20):
            while not {"drecv", "dold"} <= set(cluster.live):
                await asyncio.sleep(0.05)
        async with tapped(redis_server.url, opened) as seen:
            viewers = {origin: [Viewer(f"{origin}-{n}", RateLimit(0.0), origin=origin)
                                for n in range(3)] for origin in ("drecv", "dold")}
            heard = await asyncio.gather(*(
                cluster.deliver(viewers["drecv" if n % 2 else "dold"][n % 3:n % 3 + 1], "update",
                            Fragment(json.dumps({"n": n})))
                for n in range(DELIVERIES)))
            assert heard == [True] * DELIVERIES  # each one published to a listening worker
            async with asyncio.timeout(20):
                while len(got) < DELIVERIES // 2 or \
                        sum(channel == old_channel for channel, _ in seen) < DELIVERIES // 2:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)  # nothing more comes
        assert [payload["n"] for _, _, payload in got] == list(range(1, DELIVERIES, 2))
        assert [(sids, kind) for sids, kind, _ in got] == [
            ([f"drecv-{n % 3}"], "update") for n in range(1, DELIVERIES, 2)]
        to_old = [message for channel, message in seen if channel == old_channel]
        assert [message["op"] for message in to_old] == ["deliver"] * (DELIVERIES // 2)
        assert [json.loads(message["fragment"])["n"] for message in to_old] == \
            list(range(0, DELIVERIES, 2))
        to_new = [message for channel, message in seen if channel == new_channel]
        assert 0 < len(to_new) < DELIVERIES // 2  # sealed together, several a message
        assert not [r for r in caplog.records if "cannot publish" in r.getMessage()]
    finally:
        await receiver.stop()
        await sender.stop()

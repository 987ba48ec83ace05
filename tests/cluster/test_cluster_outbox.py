"""A worker's outbox (``server.cluster``: one queue, one publisher task) never leaves a sender
waiting: with Redis unreachable every send is answered "nobody heard", and a message that cannot
be sealed fails its own sender only, the messages sent with it travelling on. A worker's part
alone here, on a real Redis or none."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from redis_tap import tapped
from services import Redis

from boardroom.server.cluster import Cluster, worker_channel
from boardroom.server.seal import Sealer

SECRET = secrets.token_bytes(32)


def _cluster(url: str) -> Cluster:
    return Cluster(None, url, "sender", secret=SECRET)  # type: ignore[arg-type]


async def _close(cluster: Cluster) -> None:
    if cluster._publisher is not None:
        cluster._publisher.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cluster._publisher
    await cluster.redis.aclose()


async def test_with_redis_unreachable_every_send_is_answered_nobody_heard() -> None:
    cluster = _cluster("redis://127.0.0.1:1/0")  # nothing listens on port 1
    try:
        async with asyncio.timeout(30):
            heard = await asyncio.gather(*(cluster._send(worker_channel("other"), {"n": n})
                                           for n in range(300)))
        assert heard == [0] * 300
    finally:
        await _close(cluster)


async def test_a_message_that_cannot_be_sealed_fails_its_sender_only(
        redis_server: Redis) -> None:
    cluster = _cluster(redis_server.url)
    cluster.live = {"other": {"batch": True}}  # a worker that reads batches
    channel = worker_channel("other")
    sealer = Sealer(SECRET)
    try:
        async with tapped(redis_server.url, lambda c, data: sealer.open(c, data)) as seen:
            sends = [cluster._send(channel, {"n": 1}),
                     cluster._send(channel, {"n": object()}),  # not JSON
                     cluster._send(channel, {"n": 3})]
            async with asyncio.timeout(30):
                answers: list[Any] = await asyncio.gather(*sends, return_exceptions=True)
                assert answers[0] == answers[2] == 1  # the tap heard each
                assert isinstance(answers[1], TypeError)
                while len(seen) < 2:
                    await asyncio.sleep(0.05)
        assert [message for _, message in seen] == [{"n": 1}, {"n": 3}]
    finally:
        await _close(cluster)

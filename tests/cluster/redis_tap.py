"""Listening to everything a cluster publishes on Redis (``PSUBSCRIBE *``), as a subscriber
with access to Redis would, for the tests that check what crosses it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis.asyncio as aioredis


async def _listen(url: str, into: list[tuple[str, Any]], ready: asyncio.Event,
                  read: Callable[[str, bytes], Any]) -> None:
    client = aioredis.Redis.from_url(url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    await pubsub.psubscribe("*")
    ready.set()
    try:
        async for message in pubsub.listen():
            if message.get("type") == "pmessage":
                channel = message["channel"].decode()
                into.append((channel, read(channel, bytes(message["data"]))))
    finally:
        await pubsub.aclose()
        await client.aclose()


@contextlib.asynccontextmanager
async def tapped(url: str, read: Callable[[str, bytes], Any] = lambda _channel, data: data,
                 ) -> AsyncIterator[list[tuple[str, Any]]]:
    """Every message published while inside, as ``(channel, read(channel, data))`` (the raw
    bytes by default), in the order Redis delivered them."""
    seen: list[tuple[str, Any]] = []
    ready = asyncio.Event()
    listener = asyncio.create_task(_listen(url, seen, ready, read))
    await ready.wait()
    try:
        yield seen
    finally:
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener

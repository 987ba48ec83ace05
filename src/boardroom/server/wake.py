"""A wake-up flag for one waiting task: ``asyncio.Event`` without its queue of waiters.

Every room and every bot seat holds one for its whole life (and each connection served through
ASGI, for its writer), and an ``asyncio.Event`` keeps a ``collections.deque`` of waiters (about
760 bytes, even empty). A room's actor, a bot's driver or a connection's writer is the only
task that ever waits on its flag, so a single future, made only while it waits, is all the
bookkeeping needed: 56 bytes at rest.
"""

from __future__ import annotations

import asyncio


class Wake:
    """``set`` wakes the task waiting in ``wait`` (or lets its next ``wait`` return at once);
    ``clear`` takes the flag down. One task waits at a time: a second waiter is a bug."""

    __slots__ = ("_flag", "_waiter")

    def __init__(self) -> None:
        self._flag = False
        self._waiter: asyncio.Future[None] | None = None

    def is_set(self) -> bool:
        return self._flag

    def set(self) -> None:
        self._flag = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        self._flag = False

    async def wait(self) -> None:
        """Return once the flag is up (at once if it is); cancelling the wait leaves it."""
        if self._flag:
            return
        if self._waiter is not None:
            raise RuntimeError("a Wake has one waiter at a time")
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

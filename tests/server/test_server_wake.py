"""The room's and the bot seats' wake-up flag (``server.wake``), which stands in for an
``asyncio.Event`` with one waiter."""

from __future__ import annotations

import asyncio

import pytest

from boardroom.server.wake import Wake


async def test_a_flag_set_before_the_wait_lets_it_through_until_cleared() -> None:
    wake = Wake()
    wake.set()
    await asyncio.wait_for(wake.wait(), 1)
    await asyncio.wait_for(wake.wait(), 1)  # still up: nothing took it down
    wake.clear()
    assert not wake.is_set()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(wake.wait(), 0.05)


async def test_a_set_wakes_the_waiting_task() -> None:
    wake = Wake()
    waiting = asyncio.create_task(wake.wait())
    await asyncio.sleep(0)
    assert not waiting.done()
    wake.set()
    await asyncio.wait_for(waiting, 1)
    assert wake.is_set()


async def test_a_cancelled_wait_leaves_the_flag_ready_for_the_next() -> None:
    wake = Wake()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.01):
            await wake.wait()
    waiting = asyncio.create_task(wake.wait())  # a fresh wait after the cancelled one
    await asyncio.sleep(0)
    wake.set()
    await asyncio.wait_for(waiting, 1)


async def test_a_second_waiter_is_refused() -> None:
    wake = Wake()
    first = asyncio.create_task(wake.wait())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one waiter"):
        await wake.wait()
    wake.set()
    await first

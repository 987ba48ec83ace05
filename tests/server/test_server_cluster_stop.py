"""A worker's stop waits for its loops and its work in hand, but never forever
(``cluster.end_tasks``): a CI run once hung 600 s in a worker's drain, every thread idle."""

from __future__ import annotations

import asyncio
import logging

import pytest

from boardroom.server.cluster import end_tasks


async def test_tasks_that_end_are_waited_for_and_their_failures_retrieved() -> None:
    async def work(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    async def failing() -> None:
        raise ValueError("broken")

    tasks = [asyncio.create_task(work(0.01)), asyncio.create_task(failing())]
    await end_tasks(tasks, "w1", wait=5.0)
    assert tasks[0].result() == "done"
    assert isinstance(tasks[1].exception(), ValueError)


async def test_a_task_still_running_after_the_wait_is_cancelled() -> None:
    cancelled = []

    async def slow() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    task = asyncio.create_task(slow())
    await end_tasks([task], "w1", wait=0.05)
    assert task.cancelled()
    assert cancelled == [True]


async def test_a_task_that_swallows_its_cancel_is_left_and_named(
        caplog: pytest.LogCaptureFixture) -> None:
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                continue  # as a library that swallows a cancel does

    task = asyncio.create_task(stubborn(), name="stubborn-listener")
    await asyncio.sleep(0)
    with caplog.at_level(logging.WARNING, logger="boardroom.cluster"):
        async with asyncio.timeout(5):
            await end_tasks([task], "w1", wait=0.05)
    assert not task.done()
    assert "worker w1: left task stubborn-listener running at its stop" in caplog.text
    assert "test_server_cluster_stop.py" in caplog.text
    release.set()
    task.cancel()
    await asyncio.wait([task], timeout=1)


async def test_a_stop_run_from_one_of_the_tasks_does_not_wait_on_itself() -> None:
    async def stopper() -> str:
        me = asyncio.current_task()
        assert me is not None
        await end_tasks([me], "w1", wait=5.0)
        return "stopped"

    task = asyncio.create_task(stopper())
    async with asyncio.timeout(2):
        assert await task == "stopped"

"""A database that fails a room's write and then cannot be read for a while (a PostgreSQL
restart, a worker paused past its sessions' timeout): the command is answered ``not_saved``, the
room waits until it can read its state back and plays on from it; nothing escapes as a
traceback, and stopping the room meanwhile is clean."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from server_helpers import FakeClock, clients, first_turn, new_room, running_server, seat_all

from boardroom.store import Store, StoreError

PLAYERS = 3


def _choice(legal: dict[str, Any]) -> dict[str, Any]:
    return {"action": "check"} if legal["check"] else {"action": "call"}


async def test_a_failed_write_and_an_unreadable_store_are_waited_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    append, rooms = Store.append, Store.rooms
    failing = {"writes": 0, "reads": 0}

    async def flaky_append(self: Store, room_id: str, **kw: Any) -> None:
        if failing["writes"]:
            failing["writes"] -= 1
            raise StoreError("cannot write to the database: connection is closed")
        await append(self, room_id, **kw)

    async def flaky_rooms(self: Store, **kw: Any) -> Any:
        if failing["reads"]:
            failing["reads"] -= 1
            raise StoreError("cannot read the database: connection is closed")
        return await rooms(self, **kw)

    monkeypatch.setattr(Store, "append", flaky_append)
    monkeypatch.setattr(Store, "rooms", flaky_rooms)
    caplog.set_level(logging.WARNING)
    async with running_server(tmp_path, clock=clock) as running:
        room, _ = await new_room(running, game="plo")
        async with clients(running.url, PLAYERS + 1) as people:
            players, watcher = people[:PLAYERS], people[PLAYERS]
            await seat_all(room, players, watcher)
            turn = await first_turn(clock, players, watcher)
            actor = players[turn["data"]["seat"]]
            version = running.server.rooms[room].table.version
            failing.update(writes=1, reads=3)
            refused = await actor.cmd("act", **_choice(turn["data"]["legal"]))
            assert not refused["ok"], refused
            assert refused["code"] == "not_saved", refused
            assert failing == {"writes": 0, "reads": 0}  # it read until the store answered
            assert running.server.rooms[room].table.version == version  # what the store holds
            await actor.ok("act", **_choice(turn["data"]["legal"]))  # and it plays on
            # a room stopped while it cannot read its state back stops cleanly
            failing.update(writes=1, reads=10 ** 6)
            turn = await watcher.wait_for(
                lambda e, v=turn["version"]: e["kind"] == "turn" and e["version"] > v)
            actor = players[turn["data"]["seat"]]
            pending = asyncio.ensure_future(actor.cmd("act", **_choice(turn["data"]["legal"])))
            while failing["writes"]:
                await asyncio.sleep(0.01)
            await running.server.rooms[room].stop()
            answer = await pending
            assert not answer["ok"], answer
            assert answer["code"] == "unavailable", answer  # its room stopped
            failing.update(reads=0)
    assert not [r for r in caplog.records if r.exc_info], \
        [r.getMessage() for r in caplog.records if r.exc_info]
    assert any("cannot read" in r.getMessage() for r in caplog.records)

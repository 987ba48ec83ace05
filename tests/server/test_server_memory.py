"""What a room keeps does not grow with the hands it plays (the soak bench, ``boardroom bench
soak``, found a server with 20 bot rooms growing about 11 MiB per 1,000 hands): these tests
count the entries kept, never bytes or time."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import itertools
import platform
import random
import time
import tracemalloc
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from server_helpers import (
    Client,
    FakeClock,
    clients,
    host_bots,
    new_room,
    running_server,
    seat_all,
)

from boardroom.engine import pills
from boardroom.server import housekeeping
from boardroom.server.room import (
    RECENT_CHAT,
    REMEMBERED_COMMANDS,
    REMEMBERED_EACH,
    REMEMBERED_SENDERS,
    Room,
)


async def _until(check: Callable[[], bool], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_a_bot_room_remembers_no_more_commands_as_it_plays(tmp_path: Path) -> None:
    """Bots' commands are submitted in the server and never retried: none is remembered for a
    retry, in memory or (for a restart) in the store, so a bot room keeps the same few
    answers (the host's) however many hands it plays."""
    async with running_server(tmp_path, bot_think=0.0) as running:
        room_id, secret = await new_room(running, game="plo", pause_between_hands=0,
                                         starting_stack=1000)
        async with clients(running.url, 1) as (host,):
            await host_bots(host, room_id, secret)
            room = running.server.rooms[room_id]
            await _until(lambda: room.table.hand_no >= 3)
            early = room.remembered()
            await _until(lambda: room.table.hand_no >= 12)
            assert room.remembered() == early == 3  # the host's three add_bot
            stored = await running.server.store.recent_commands(room_id, 100_000)
            assert len(stored) == 3


@contextlib.asynccontextmanager
async def _joined(tmp_path: Path, count: int) -> AsyncIterator[tuple[Room, list[Client]]]:
    """A room and ``count`` clients that joined it (spectators), with no rate limit."""
    async with running_server(tmp_path) as running:
        running.server.hub.clock = itertools.count(0.0, 1.0).__next__  # no rate limit here
        room_id, _ = await new_room(running)
        async with clients(running.url, count) as joined:
            for client in joined:
                await client.ok("join", room=room_id)
            yield running.server.rooms[room_id], joined


async def test_a_players_commands_are_remembered_up_to_the_bound(tmp_path: Path) -> None:
    async with _joined(tmp_path, 1) as (room, (player,)):
        for number in range(REMEMBERED_EACH + 20):
            await player.send({"id": f"line{number}", "type": "chat", "text": "hi"})
        assert room.remembered() == REMEMBERED_EACH
        last = await player.send({"id": f"line{REMEMBERED_EACH + 19}", "type": "chat",
                                  "text": "hi"})
        assert last.get("duplicate") is True  # a retry of a recent command: applied once
        first = await player.send({"id": "line0", "type": "chat", "text": "hi"})
        assert "duplicate" not in first  # too old to be a retry: applied as a new one


async def test_each_sender_keeps_its_last_answers_however_busy_the_others_are(
        tmp_path: Path) -> None:
    """A retry is of the sender's own latest commands: another player's many commands never
    push a player's last ones out (a room-wide bound did: at a busy table a retry after a
    reconnect could find its command forgotten and apply it twice)."""
    async with _joined(tmp_path, 2) as (room, (quiet, busy)):
        said = await quiet.send({"id": "q1", "type": "chat", "text": "once"})
        for number in range(REMEMBERED_COMMANDS + 10):  # more than a room once kept
            await busy.send({"id": f"b{number}", "type": "chat", "text": "busy"})
        again = await quiet.send({"id": "q1", "type": "chat", "text": "once"})
        assert again == {**said, "duplicate": True}
        assert room.remembered() == 1 + REMEMBERED_EACH


async def test_a_room_keeps_the_last_lines_of_chat_only(tmp_path: Path) -> None:
    async with _joined(tmp_path, 1) as (room, (player,)):
        for number in range(RECENT_CHAT + 7):
            await player.ok("chat", text=f"line {number}")
        assert len(room.chat) == RECENT_CHAT
        snapshot = (await player.ok("snapshot"))["snapshot"]
        lines = [line["data"]["text"] for line in snapshot["chat"]]
        assert lines == [f"line {number}" for number in range(7, RECENT_CHAT + 7)]


async def test_a_room_keeps_no_views_of_the_last_hand_while_the_next_is_played(
        tmp_path: Path) -> None:
    """Between hands every audience is shown the hand that just ended, built from its replay
    (the replayed hand, each audience's view of it and their encoded parts: about 150 KiB of
    an ESG room). Once the commit is pushed only the texts sent are kept (the views are let
    go: a new audience's is built again). Once the next hand is dealt nobody is shown it
    until that hand ends, and a new record replaces it then: the room keeps none of it while
    the next hand is played, not even its record (about 10 KiB: unless its equity is still
    being worked out, to announce it when it comes)."""
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        running.server.hub.clock = itertools.count(0.0, 1.0).__next__  # no rate limit here
        room_id, _ = await new_room(running, game="esg", pause_between_hands=1,
                                    starting_stack=2000)
        async with clients(running.url, 3) as people:
            players, watcher = people[:2], people[2]
            await seat_all(room_id, players, watcher)
            room = running.server.rooms[room_id]

            async def deal(number: int) -> None:
                clock.now += 1.5  # the pause between hands runs out
                await players[0].ok("snapshot")  # wakes the actor: it deals
                await _until(lambda: room.table.hand_no == number, timeout=10)

            await deal(1)
            hand = room.table.hand
            assert hand is not None
            assert hand.seat_to_act is not None
            await players[hand.seat_to_act].ok("act", action="fold")
            await _until(lambda: room.table.hand is None, timeout=10)
            assert room._last_views  # each audience's last hand, as the text it was sent
            assert not room._last_hand_views  # the views it was made from: let go
            assert not room._last_texts
            assert room._kept.previous is None  # one change's parts kept, not two
            shown = (await watcher.ok("snapshot"))["snapshot"]["last_hand"]
            async with clients(running.url, 1) as (late,):  # a new audience: built again
                joined = await late.ok("join", room=room_id, role="spectator")
                assert joined["snapshot"]["last_hand"] == shown
                mine = (await players[0].ok("snapshot"))["snapshot"]["last_hand"]
                assert mine["hand_no"] == shown["hand_no"] == 1
            await deal(2)
            assert room._last_hand is None
            assert room._last_hunt is None
            assert room._last_record is None  # its record too: no equity of it was coming
            assert not room._last_views
            assert not room._last_hand_views
            assert not room._last_texts
            after = (await watcher.ok("snapshot"))["snapshot"]
            assert after["last_hand"] is None
            assert after["hand"] is not None


async def test_a_server_trims_the_c_heap_every_few_seconds_while_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """glibc keeps the pages a burst of messages freed; the server hands them back to the
    system every ``TRIM_SECONDS`` (``malloc_trim``), and stops when it stops."""
    calls: list[float] = []
    monkeypatch.setattr(housekeeping, "TRIM_SECONDS", 0.01)
    monkeypatch.setattr(housekeeping, "memory_trimmer",
                        lambda: lambda: calls.append(time.monotonic()))
    async with running_server(tmp_path):
        await _until(lambda: len(calls) >= 3, timeout=30)
    stopped = len(calls)
    await asyncio.sleep(0.1)
    assert len(calls) == stopped


def test_the_c_heap_is_trimmed_with_glibc_s_own_call() -> None:
    trim = housekeeping.memory_trimmer()
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("malloc_trim is glibc's")
    assert trim is not None
    assert trim() in (0, 1)  # 1: some memory was given back


async def test_a_remembered_answer_costs_little_more_than_its_id(tmp_path: Path) -> None:
    """A busy room remembers the last ``REMEMBERED_EACH`` answers of each of its last
    ``REMEMBERED_SENDERS`` senders (for retries): most are ``{"id", "ok", "version"}`` and are
    kept as their version alone, under the command's id, the answer made again on a retry.
    Counted by tracemalloc: the bytes each remembered answer keeps beyond its id."""
    async with running_server(tmp_path) as running:
        room_id, _ = await new_room(running)
        room = running.server.rooms[room_id]
        senders = [f"player-{number:04}" for number in range(REMEMBERED_SENDERS)]
        ids = [f"line{number}" for number in range(REMEMBERED_EACH)]
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for sender in senders:
                for number, command_id in enumerate(ids):
                    room.remember(sender, command_id,
                                  {"id": command_id, "ok": True, "version": 5000 + number})
            gc.collect()
            kept = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        count = REMEMBERED_SENDERS * REMEMBERED_EACH
        assert room.remembered() == count
        # bytes an answer on CPython 3.11, its sender's dict's share included: about 70 (57 in
        # one dict of the room's keyed by sender and id together; 345 when each was a dict
        # of three)
        assert kept / count < 90
        assert room.recall(senders[3], "line7") == {"id": "line7", "ok": True, "version": 5007}
        refused = {"id": "x", "ok": False, "code": "busy", "error": "the table is busy"}
        room.remember(senders[-1], "x", refused)
        assert room.recall(senders[-1], "x") == refused
        assert room.recall(senders[-1], "y") is None
        assert room.recall(senders[-1], "line0") is None  # its oldest went: first in, first out
        assert room.recall(senders[-1], "line1") is not None
        room.remember("player-new", "z", refused)  # one sender more: the least recent goes
        assert room.recall("player-new", "z") == refused
        assert room.recall(senders[0], "line5") is None
        assert room.recall(senders[1], "line5") is not None
        assert len(room.answers) == REMEMBERED_SENDERS


async def test_a_server_trims_the_c_heap_once_before_it_serves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the start freed (the warm-up's garbage) goes back before the first request, so a
    measure of the memory before any table (``bench server``'s base) is not of a heap that a
    trim two seconds later shrinks below it (a row of two tables printed -2,976 KiB a table)."""
    calls: list[float] = []
    monkeypatch.setattr(housekeeping, "TRIM_SECONDS", 3600.0)
    monkeypatch.setattr(housekeeping, "memory_trimmer",
                        lambda: lambda: calls.append(time.monotonic()))
    async with running_server(tmp_path) as running:
        assert len(calls) == 1
        await running.http.get("/healthz")
        assert len(calls) == 1


async def test_a_finished_hand_s_board_tables_are_dropped(tmp_path: Path) -> None:
    """The pills' tables of every holding on a board (about 6 KB a board state) are built
    for a round of views and dropped when it ends (the seats' pills are kept while the board
    is in play): a room keeps none of a hand's tables while it is played or after it
    (counted), nor, once the hand is over, any seat's pills (about 1 KB a seat)."""
    nuts = importlib.import_module("boardroom.evaluation.nuts")
    pills.clear_caches()
    clock = FakeClock()
    async with running_server(tmp_path, clock=clock) as running:
        running.server.hub.clock = itertools.count(0.0, 1.0).__next__  # no rate limit here
        room_id, _ = await new_room(running, game="esg", pause_between_hands=1,
                                    starting_stack=2000)
        async with clients(running.url, 3) as people:
            players, watcher = people[:2], people[2]
            await seat_all(room_id, players, watcher)
            room = running.server.rooms[room_id]
            clock.now += 1.5  # the pause between hands runs out
            await players[0].ok("snapshot")  # wakes the actor: it deals
            await _until(lambda: room.table.hand_no == 1, timeout=10)
            built = nuts.cache_info()["built"]
            boards: list[tuple[int, ...]] = []
            while (hand := room.table.hand) is not None:
                seat = hand.seat_to_act
                if seat is not None:
                    boards = [tuple(cards) for cards in hand.boards.values()]
                    assert not [key for key in nuts._tables if key[1] in boards]
                    await players[seat].ok("act", action="check" if hand.can_check()
                                           else "call")
                else:
                    await asyncio.sleep(0.01)
            assert all(len(board) == 5 for board in boards)
            assert nuts.cache_info()["built"] - built >= 6  # two boards', street by street
            assert room._last_views  # the hand's last views were built from its tables
            assert not [key for key in nuts._tables if key[1] in boards]
            assert pills.cache_info().currsize == pills.cache_info().owners == 0  # nor pills


async def test_a_server_views_a_hand_of_every_game_as_it_starts_and_keeps_none_of_it(
        tmp_path: Path) -> None:
    """Before the first request a server plays one example hand of every game and views it
    from each seat (so the code of pills and NUTS, numpy's included, is paged in before any
    table, not counted against the first tables), and keeps none of it: no pill, no board's
    holdings table (counted)."""
    nuts = importlib.import_module("boardroom.evaluation.nuts")
    pills.clear_caches()
    async with running_server(tmp_path):
        assert nuts.cache_info()["built"] > 0  # boards' tables were built and scanned
        assert pills.cache_info().misses > 0
        assert nuts.cache_info()["size"] == 0
        info = pills.cache_info()
        assert (info.currsize, info.owners) == (0, 0)


@pytest.mark.parametrize("game", ["tilt", "esg", "allocator-redraw"])
def test_a_finished_hand_viewed_at_every_step_leaves_no_board_table(game: str) -> None:
    """Every holdings table a hand's views built, street by street, goes with the hand: Tilt's
    diagonal included (its tilted cards come in board order, not in the order dealt, so a
    street's diagonal is no start of the last one's, and once stayed until the bound of
    2,048): each round of views drops its tables, and the hand's end its seats' pills."""
    nuts = importlib.import_module("boardroom.evaluation.nuts")
    from boardroom.engine import Hand
    from boardroom.engine.example import default_stakes
    from boardroom.engine.view import forget_pills, views_for
    from boardroom.rules import find_variant

    nuts.clear_cache()
    pills.clear_caches()
    variant = find_variant(game)
    hand = Hand(variant, default_stakes(variant), [200] * 4, 0, rng=random.Random(7))
    while not hand.is_over:
        views_for(hand, hand.seats)
        legal = hand.legal_actions()
        if legal is not None and legal.draw is not None:
            hand.stand_pat()
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    views_for(hand, hand.seats)
    assert nuts.cache_info()["built"] > 2
    forget_pills(hand)
    assert nuts.cache_info()["size"] == 0
    assert pills.cache_info().currsize == 0


def test_the_descriptions_and_settling_values_play_fills_stay_bounded() -> None:
    """Every strength a showdown or a pill meets is described and its settling value kept in
    process-wide caches: bounded, so a server that plays for hours does not keep every class
    of every ranking it ever met (unbounded, the descriptions were about 1.2 MB after 100 s of
    100 ESG tables, and still growing)."""
    from boardroom.engine import hand as engine_hand
    from boardroom.evaluation import Ranking
    from boardroom.evaluation.values import describe

    for strength in range(1, Ranking.HIGH.class_count + 1):
        assert describe(Ranking.HIGH, strength)
        assert engine_hand._strength_value(Ranking.HIGH, strength).strength == strength
    for cache in (describe, engine_hand._strength_value):
        info = cache.cache_info()
        assert info.maxsize is not None
        assert info.currsize <= info.maxsize < 2048

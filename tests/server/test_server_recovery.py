"""A real server process: players and spectators play hands of every variant, the server is
killed with SIGKILL mid-hand and restarted on the same data folder, the players reconnect with
their seat tokens and finish the hand with the same cards, and no chip is created or lost.
Every payload any client received is checked against the event log: no card reached a viewer
before that viewer was entitled to it. The default run plays one game of each kind (a board game,
a multi-board game with redraws, an Allocator, a stud game, a draw game); ``-m slow`` plays every
variant."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from leaks import cards_in, entitlements
from server_helpers import Client, free_port, serve

from action_script import random_throw
from boardroom.fairness import check_history
from boardroom.rules import VARIANTS, find_variant

GAMES = [variant.id for variant in VARIANTS]  # every variant a table deals
# One of each kind, for the default run: a board game, a multi-board game with redraws, an
# Allocator (with redraws), a stud game (hi-lo, so split pots) and a draw game (three draws).
KINDS = ["holdem", "esg", "allocator-redraw", "stud-hilo", "27-triple-draw"]
PLAYERS = 3
STACK = 1000


@dataclass
class Seat:
    seat: int | None  # None: the spectator
    client: Client
    token: str | None = None
    log: list[tuple[str, Any]] = field(default_factory=list)  # payloads of earlier connections
    snapshot: dict[str, Any] | None = None  # the last join's snapshot (after the restart)


@dataclass
class RoomPlay:
    game: str
    room: str
    seats: list[Seat]

    def events(self) -> list[dict[str, Any]]:
        return self.seats[-1].client.events  # the spectator sees every table event


@contextlib.asynccontextmanager
async def drivers(rooms: list[RoomPlay], seed: int) -> AsyncIterator[None]:
    """Every player acts at its turn, at random among the legal actions, until cancelled."""
    tasks = [asyncio.create_task(_play(seat, random.Random(seed * 100 + n), room.game))
             for n, room in enumerate(rooms) for seat in room.seats if seat.seat is not None]
    try:
        yield
    finally:
        stopped = [task.exception() for task in tasks if task.done() and not task.cancelled()]
        print(f"players that stopped playing: {stopped}")  # shown if the test fails
        pending, deadline = set(tasks), time.monotonic() + 20
        while pending and time.monotonic() < deadline:
            for task in pending:  # again and again: on Python 3.11 a cancel that lands as a
                task.cancel()  # command's answer does is swallowed by wait_for in sio.call
            _, pending = await asyncio.wait(pending, timeout=0.5)
        assert not pending, f"{len(pending)} players did not stop"
    assert not stopped, f"a player stopped playing: {stopped[0]!r}"


async def _play(seat: Seat, rng: random.Random, game: str) -> None:
    handled = seeded = 0
    sizes = find_variant(game).allocation_sizes
    if seat.snapshot is not None:  # rejoined: what the snapshot asks of us, as a browser shows
        await _answer_snapshot(seat, seat.snapshot, rng, sizes)
    while True:
        await asyncio.sleep(0.02)
        commitments = [e for e in seat.client.events if e["kind"] == "fair_commitment"]
        if commitments and commitments[-1]["version"] > seeded:  # our own seed, as a browser
            seeded = commitments[-1]["version"]
            await seat.client.cmd("seed", hand_no=commitments[-1]["data"]["hand_no"],
                                  seed=rng.randbytes(32).hex())
        asks = [e for e in seat.client.events
                if e["kind"] in ("turn", "allocating", "choosing_runs")]
        if not asks or asks[-1]["version"] <= handled:
            continue
        ask = asks[-1]
        handled = ask["version"]
        if ask["kind"] == "allocating":
            if seat.seat in ask["data"]["seats"]:
                await _allocate(seat, sizes)
        elif ask["kind"] == "choosing_runs":  # all-in: run it 1 to 3 times, at random
            if seat.seat in ask["data"]["seats"]:
                await seat.client.cmd("runs", runs=rng.randint(1, ask["data"]["most"]))
        elif ask["data"]["seat"] == seat.seat:
            await _act(seat, ask["data"]["legal"], rng)


async def _answer_snapshot(seat: Seat, snapshot: dict[str, Any], rng: random.Random,
                           sizes: dict[str, int]) -> None:
    """Act on a decision the snapshot shows waiting for this seat: one announced before the
    kill has no new ``turn`` event, and a player who waited for one would leave its clock and
    time bank to run out (90 s) rather than play (a browser shows the action bar from its
    snapshot)."""
    hand = snapshot.get("hand")
    if hand is None or hand["is_over"]:
        return
    if hand["actor"] == seat.seat and hand["legal"] is not None:
        await _act(seat, hand["legal"], rng)
    elif hand["allocating"] and seat.seat in hand["allocation_pending"]:
        await _allocate(seat, sizes)
    elif seat.seat in hand["runs_pending"]:
        await seat.client.cmd("runs", runs=rng.randint(1, hand["runs_most"]))


def _my_hand_cards(hand: dict[str, Any] | None, seat: int) -> list[Any] | None:
    """The cards of table ``seat`` in a hand view (None: no hand, or not dealt in)."""
    mine = next((s for s in hand["seats"] if s["seat"] == seat), None) if hand else None
    return mine["cards"] if mine is not None else None


async def _allocate(seat: Seat, sizes: dict[str, int]) -> None:
    snapshot = (await seat.client.cmd("snapshot")).get("snapshot") or {}
    mine = _my_hand_cards(snapshot.get("hand"), seat.seat)
    if mine is None:
        return
    allocation, start = {}, 0
    for name, size in sizes.items():  # the first cards, in order: legal, if naive
        allocation[name] = mine[start:start + size]
        start += size
    await seat.client.cmd("allocate", cards=allocation)


async def _act(seat: Seat, legal: dict[str, Any], rng: random.Random) -> None:
    if legal["draw"] is not None:  # the draw games: throw some of this seat's cards
        snapshot = (await seat.client.cmd("snapshot")).get("snapshot") or {}
        mine = _my_hand_cards(snapshot.get("hand"), seat.seat)
        if mine is None:
            return
        await seat.client.cmd("act", action="draw", cards=random_throw(mine, legal["draw"], rng))
        return
    options: list[dict[str, Any]] = []
    if legal["check"]:
        options += [{"action": "check"}] * 6
    if legal["call"] is not None:
        options += [{"action": "call"}] * 6
    if legal["fold"]:
        options.append({"action": "fold"})
    if legal["bring_in"] is not None:
        options.append({"action": "bring_in"})
    if legal["raise_min"] is not None and legal["raise_min"] <= 12:  # small pots: nobody busts
        options += [{"action": "raise", "amount": legal["raise_min"]}] * 2
    await seat.client.cmd("act", **rng.choice(options))


async def _until(check: Any, timeout: float, what: str) -> None:
    started = time.monotonic()
    while time.monotonic() < started + timeout:
        if check():
            print(f"{what}: {time.monotonic() - started:.1f} s")  # shown if the test fails
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _hands_ended(room: RoomPlay) -> set[int]:
    return {e["data"]["hand_no"] for e in room.events() if e["kind"] == "hand_ended"}


def _mid_hand(room: RoomPlay) -> int | None:
    """The hand in progress (after at least one complete hand), or None."""
    started = [e for e in room.events() if e["kind"] == "hand_started"]
    if not started or not _hands_ended(room):
        return None
    last: int = started[-1]["data"]["hand_no"]
    return None if last in _hands_ended(room) else last


def _my_cards(log: list[tuple[str, Any]], seat: int, hand_no: int) -> list[str]:
    """The hole cards a player holds in ``hand_no`` by what it saw: dealt to it, less those it
    threw in a draw."""
    cards: list[str] = []
    current = None
    for kind, event in log:
        if kind != "event":
            continue
        if event["kind"] == "hand_started":
            current = event["data"]["hand_no"]
        elif event["kind"] == "hand" and current == hand_no:
            body = event["event"]
            if body["type"] in ("HoleDealt", "Redrawn") and body["seat"] == seat:
                cards += body["cards"]
            elif body["type"] == "Discarded" and body["seat"] == seat:  # the draw
                cards = [card for card in cards if card not in body["cards"]]
    return cards


async def test_kill_restart_and_finish_one_game_of_each_kind_without_leaks(
        tmp_path: Path) -> None:
    assert set(KINDS) <= set(GAMES)
    await _kill_restart_and_finish(tmp_path, KINDS)


@pytest.mark.slow
async def test_kill_restart_and_finish_every_variant_without_leaks(tmp_path: Path) -> None:
    await _kill_restart_and_finish(tmp_path, GAMES)


async def _kill_restart_and_finish(tmp_path: Path, games: list[str]) -> None:
    data, log = tmp_path / "data", tmp_path / "server.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    rooms: list[RoomPlay] = []
    with serve(data, port, log) as process:
        async with httpx.AsyncClient(base_url=url) as http:
            hosts = []
            for game in games:
                made = await http.post("/api/rooms", json={
                    "game": game, "pause_between_hands": 0.2, "starting_stack": STACK})
                assert made.status_code == 201, made.text
                rooms.append(RoomPlay(game, made.json()["room"], []))
                hosts.append(made.json()["host_secret"])
        for room, secret in zip(rooms, hosts, strict=True):
            # The spectator hosts the room and holds its first deal until every player's
            # seed is in, so the players' seeds reach a deal however slow the machine is
            # (in a pause of 0.2 s, a loaded machine's players sent theirs too late).
            spectator = await Client(url).connect()
            await spectator.ok("join", room=room.room, role="spectator", host_secret=secret)
            await spectator.ok("pause")
            for seat in range(PLAYERS):
                client = await Client(url).connect()
                await client.ok("join", room=room.room)
                answer = await client.ok("sit", seat=seat, name=f"P{seat}")
                room.seats.append(Seat(seat, client, answer["token"]))
            for seat in room.seats:
                await seat.client.ok("seed", hand_no=1, seed=random.randbytes(32).hex())
            await spectator.ok("resume")
            room.seats.append(Seat(None, spectator))
        async with drivers(rooms, seed=1):
            await _until(lambda: all(_mid_hand(room) for room in rooms), 120,
                         "every room to finish a hand and be in the middle of the next")
            process.kill()  # SIGKILL, mid-hand, with commands in flight
            process.wait()
        seen_hand = {room.room: max((e["data"]["hand_no"] for e in room.events()
                                     if e["kind"] == "hand_started"), default=0)
                     for room in rooms}
        for room in rooms:
            for seat in room.seats:
                seat.log = list(seat.client.received)
                await seat.client.close()

    in_progress: dict[str, int] = {}
    resumed = 0
    with serve(data, port, log):
        for room in rooms:
            for seat in room.seats:
                seat.client = await Client(url).connect()
                if seat.seat is None:
                    await seat.client.ok("join", room=room.room, role="spectator")
                    continue
                joined = await seat.client.ok("join", room=room.room, token=seat.token)
                snapshot = seat.snapshot = joined["snapshot"]
                assert snapshot["you"]["seat"] == seat.seat
                table, hand = snapshot["table"], snapshot["hand"]
                # The kill came mid-hand (or, racing the last actions, in the short pause
                # after it): the stored hand is the one the players last saw, or the next.
                assert table["hand_no"] in (seen_hand[room.room], seen_hand[room.room] + 1)
                in_progress.setdefault(room.room, table["hand_no"] + (hand is None))
                stacks = sum(s["stack"] for s in table["seats"] if not s["empty"])
                in_pots = sum(p["amount"] for p in hand["pots"]) if hand else 0
                assert stacks + in_pots == PLAYERS * STACK, room.game
                mine = _my_hand_cards(hand, seat.seat)
                if mine is None:
                    continue
                before = _my_cards(seat.log, seat.seat, table["hand_no"])
                if before:  # the same cards, dealt again from the stored deck
                    assert mine[:len(before)] == before, room.game
                    resumed += 1
        assert resumed >= PLAYERS * len(rooms) // 2  # most seats were mid-hand at the kill
        async with drivers(rooms, seed=2):
            await _until(lambda: all(in_progress[room.room] in _hands_ended(room)
                                     for room in rooms), 150, "the interrupted hands to end")
        for room in rooms:
            snapshot = (await room.seats[-1].client.ok("snapshot"))["snapshot"]
            stacks = sum(s["stack"] for s in snapshot["table"]["seats"] if not s["empty"])
            pots = sum(p["amount"] for p in snapshot["hand"]["pots"]) if snapshot["hand"] else 0
            assert stacks + pots == PLAYERS * STACK, room.game
        async with httpx.AsyncClient(base_url=url) as http:
            for room in rooms:
                ledger = (await http.get(f"/api/rooms/{room.room}/ledger.csv")).text
                rows = [line.split(",") for line in ledger.strip().splitlines()[1:]]
                assert sum(int(r[1]) for r in rows) == PLAYERS * STACK
                assert sum(int(r[5]) for r in rows) == 0, ledger
                hands = (await http.get(f"/api/rooms/{room.room}/hands")).json()["hands"]
                assert in_progress[room.room] in [h["hand_no"] for h in hands]
                verified = 0  # every deal verifies, the one interrupted by the kill too
                for listed in hands:
                    number = listed["hand_no"]
                    found = (await http.get(f"/api/rooms/{room.room}/hands/{number}")).json()
                    verified += check_history(found["history"])  # (0 cards if all folded)
                assert verified > 0, room.game
        for room in rooms:
            for seat in room.seats:
                seat.log += seat.client.received
                await seat.client.close()
    assert "Traceback" not in log.read_text()
    _check_no_leaks(data / "boardroom.db", rooms)
    _check_no_seeds(data / "boardroom.db", rooms)


# -- the leak check ----------------------------------------------------------------------------


def _check_no_leaks(database: Path, rooms: list[RoomPlay]) -> None:
    checked = 0
    for room in rooms:
        entitled, kinds = entitlements(database, room.room)
        for seat in room.seats:
            version = 0
            for kind, payload in seat.log:
                if isinstance(payload, dict):
                    version = max(version, payload.get("version") or 0,
                                  (payload.get("snapshot") or {}).get("version") or 0)
                    if kind == "event":
                        # Published means stored: the log holds the same event.
                        assert kinds.get(payload["version"]) == payload["kind"]
                cards = cards_in(payload)
                allowed = entitled.at(version, seat.seat)
                assert cards <= allowed, (room.game, seat.seat, kind, cards - allowed)
                checked += 1
    assert checked > 1000


def _check_no_seeds(database: Path, rooms: list[RoomPlay]) -> None:
    """No seed, the server's or a player's, reached any viewer in any message (histories, read
    over HTTP after their hands, are the only place they are revealed)."""
    with sqlite3.connect(database) as db:
        records = [json.loads(text) for (text,) in db.execute("select record from hands")]
        states = [json.loads(text) for (text,) in db.execute("select state from rooms")]
        states += [change["set"] for (text,) in db.execute(  # changes of the state since
            "select change from events where change is not null")
            if "set" in (change := json.loads(text)) and "fair_next" in change["set"]]
    seeds: set[str] = set()
    for fair in [r["fair"] for r in records] + [s["hand"]["fair"] for s in states
                                                if s.get("hand")]:
        seeds |= {fair["server_seed"], *fair["client_seeds"]}
    for state in states:
        pending = state.get("fair_next")
        if pending:
            seeds |= {pending["server_seed"], *pending["client_seeds"].values()}
    sent_by_players = sum(not made for r in records for made in r["fair"]["server_made"])
    assert len(records) >= len(rooms)
    assert sent_by_players >= PLAYERS * len(rooms)  # every first deal took its players' seeds
    for room in rooms:
        for seat in room.seats:
            text = json.dumps(seat.log)
            leaked = [seed for seed in seeds if seed in text]
            assert not leaked, (room.game, seat.seat, leaked[:1])

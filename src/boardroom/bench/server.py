"""``boardroom bench server``: a real server under N tables of scripted players, over loopback.

Starts ``boardroom serve`` in a child process on 127.0.0.1 (a temporary data folder), then for
each N creates N rooms, seats ``--players`` clients at each (one WebSocket each, speaking the
socket.io protocol directly so that the load generator stays light) and lets the player on turn
act at random among its legal actions, ``--rate`` actions per table per second, for
``--duration`` seconds. Prints the actions per second it got and the latency from sending an
action to receiving the event it caused (p50, p99). Bounded: at most 500 tables and 300 seconds
a run; everything stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_TABLES = 500
MAX_DURATION = 300.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", default="10,100,300",
                        help="comma-separated table counts, one run each (default: 10,100,300)")
    parser.add_argument("--players", type=int, default=6, help="players per table (default: 6)")
    parser.add_argument("--duration", type=float, default=20.0,
                        help="seconds of play per run (default: 20)")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="actions per table per second (default: 1)")
    parser.add_argument("--game", default="plo", help="variant id (default: plo)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--url", default=None,
                        help="bench a server already running on this machine "
                             "(http://127.0.0.1:PORT) instead of starting one")


def run(args: argparse.Namespace) -> int:
    from boardroom.cli import UsageError

    try:
        counts = [int(n) for n in args.tables.split(",") if n.strip()]
    except ValueError:
        raise UsageError(f"--tables takes numbers separated by commas, not {args.tables!r}") \
            from None
    if not counts or any(not 1 <= n <= MAX_TABLES for n in counts):
        raise UsageError(f"table counts run from 1 to {MAX_TABLES}")
    if not 0 < args.duration <= MAX_DURATION:
        raise UsageError(f"--duration runs from 0 to {MAX_DURATION:g} seconds")
    if not 2 <= args.players <= 10 or not 0 < args.rate <= 10:
        raise UsageError("--players runs from 2 to 10 and --rate from 0 to 10")
    _raise_file_limit(max(counts) * args.players * 2 + 200)
    print(f"boardroom bench server: {args.game}, {args.players} players a table, "
          f"{args.rate:g} action/table/s, {args.duration:g} s a run, loopback")
    print(f"{'tables':>6} {'clients':>7} {'actions':>8} {'actions/s':>10} {'target/s':>9} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'errors':>6}")
    if args.url is not None and not args.url.startswith(("http://127.0.0.1:",
                                                         "http://localhost:")):
        raise UsageError("--url must be a loopback address (http://127.0.0.1:PORT)")
    with contextlib.nullcontext(args.url) if args.url else _server() as url:
        for count in counts:
            result = asyncio.run(_run(url, count, args))
            print(result.row(), flush=True)
    return 0


# -- the server process --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def _server() -> Iterator[str]:
    import httpx

    data = Path(tempfile.mkdtemp(prefix="boardroom-bench-"))
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "boardroom", "serve", "--host", "127.0.0.1",
                                "--port", str(port), "--data", str(data), "--log-level",
                                "warning"])
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(data, ignore_errors=True)


def _raise_file_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


# -- a light socket.io client ----------------------------------------------------------------------


class Player:
    """One seat's WebSocket, speaking Engine.IO 4 / Socket.IO 5 frames directly."""

    def __init__(self, table: TableRun, seat: int) -> None:
        self.table, self.seat = table, seat
        self.ws: Any = None
        self._acks: dict[int, asyncio.Future[Any]] = {}
        self._next_ack = 0
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, session: Any, url: str) -> None:
        self.ws = await session.ws_connect(
            url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
            max_msg_size=0)
        opening = await self.ws.receive_str()
        if not opening.startswith("0"):
            raise RuntimeError(f"unexpected Engine.IO opening {opening[:40]!r}")
        await self.ws.send_str("40")
        while not (await self.ws.receive_str()).startswith("40"):
            pass
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self.ws is not None:
            await self.ws.close()

    async def command(self, message: dict[str, Any]) -> Any:
        self._next_ack += 1
        ack = self._next_ack
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._acks[ack] = future
        await self.ws.send_str(f"42{ack}" + json.dumps(["command", message]))
        return await asyncio.wait_for(future, 30)

    async def _read(self) -> None:
        async for frame in self.ws:
            text = frame.data
            if not isinstance(text, str):
                continue
            if text == "2":
                await self.ws.send_str("3")
            elif text.startswith("43"):
                digits = len(text) - len(text[2:].lstrip("0123456789"))
                ack = int(text[2:digits])
                future = self._acks.pop(ack, None)
                if future is not None and not future.done():
                    future.set_result(json.loads(text[digits:])[0])
            elif text.startswith("42"):
                name, payload = json.loads(text[2:])
                if name == "event":
                    self.table.on_event(self, payload)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0


@dataclass
class TableRun:
    room: str
    stats: Stats
    rng: random.Random
    players: list[Player] = field(default_factory=list)
    turn: dict[str, Any] | None = None  # the last turn event
    version: int = 0
    pending: tuple[int, float] | None = None  # (version when sent, time sent)
    seed_for: int | None = None  # a hand whose commitment is out: its players send seeds

    def on_event(self, player: Player, payload: dict[str, Any]) -> None:
        if player is not self.players[0]:
            return  # one player's copy of each event is enough to follow the table
        self.version = payload["version"]
        if self.pending is not None and payload["version"] > self.pending[0]:
            self.stats.latencies.append(time.perf_counter() - self.pending[1])
            self.pending = None
        if payload["kind"] == "fair_commitment":
            self.seed_for = payload["data"]["hand_no"]
        if payload["kind"] == "turn":
            self.turn = payload
        elif payload["kind"] in ("hand_ended", "paused", "closing"):
            self.turn = None

    async def send_seeds(self) -> None:
        """Each player's own random seed for the next deal, as the browser sends it."""
        hand_no, self.seed_for = self.seed_for, None
        for player in self.players:
            if hand_no is not None:
                # A seed the table refuses (it came after the deal) just leaves the server to
                # make one, as for a browser: not an error of the run.
                await player.command({"id": f"s{hand_no}-{player.seat}", "type": "seed",
                                      "hand_no": hand_no, "seed": secrets.token_hex(32)})

    async def act(self) -> None:
        turn = self.turn
        if turn is None or self.pending is not None:
            return
        self.turn = None
        legal = turn["data"]["legal"]
        seat = turn["data"]["seat"]
        options = []
        if legal["check"]:
            options += ["check"] * 6
        if legal["call"] is not None:
            options += ["call"] * 6
        if legal["fold"]:
            options.append("fold")
        if legal["bring_in"] is not None:
            options.append("bring_in")
        if legal["raise_min"] is not None:
            options += ["raise"] * 2
        action = self.rng.choice(options)
        message: dict[str, Any] = {"id": f"a{turn['version']}", "type": "act", "action": action}
        if action == "raise":
            message["amount"] = legal["raise_min"]
        for player in self.players:
            if player.seat == seat:
                self.pending = (self.version, time.perf_counter())
                answer = await player.command(message)
                self.stats.actions += 1
                if not answer.get("ok"):
                    self.stats.errors += 1
                    self.pending = None
                return


@dataclass
class Result:
    tables: int
    clients: int
    actions: int
    seconds: float
    target: float
    latencies: list[float]
    errors: int

    def row(self) -> str:
        ms = sorted(1000 * x for x in self.latencies) or [0.0]
        p50 = statistics.median(ms)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        return (f"{self.tables:>6} {self.clients:>7} {self.actions:>8} "
                f"{self.actions / self.seconds:>10.1f} {self.target:>9.1f} {p50:>7.1f} "
                f"{p99:>7.1f} {ms[-1]:>7.1f} {self.errors:>6}")


async def _run(url: str, count: int, args: argparse.Namespace) -> Result:
    import aiohttp
    import httpx

    stats = Stats()
    rng = random.Random(args.seed * 1000 + count)
    tables: list[TableRun] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for _ in range(count):
            made = await http.post("/api/rooms", json={
                "game": args.game, "max_seats": args.players, "pause_between_hands": 1.0,
                "action_clock": 30, "starting_stack": 10_000})
            made.raise_for_status()
            tables.append(TableRun(made.json()["room"], stats, random.Random(rng.random())))
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session, _players(tables) as all_:
        gate = asyncio.Semaphore(50)

        async def seat(table: TableRun, number: int) -> None:
            async with gate:
                player = Player(table, number)
                table.players.append(player)
                await player.connect(session, url)
                await player.command({"id": "join", "type": "join", "room": table.room})
                answer = await player.command({"id": "sit", "type": "sit", "seat": number,
                                               "name": f"bot{number}"})
                if not answer.get("ok"):
                    raise RuntimeError(f"could not sit: {answer}")

        for table in tables:  # the first player of each table follows its events
            await seat(table, 0)
        await asyncio.gather(*(seat(table, n) for table in tables
                               for n in range(1, args.players)))
        all_.extend(p for table in tables for p in table.players)
        await asyncio.sleep(2.0)  # the first hands start
        start = time.perf_counter()
        stop = start + args.duration
        await asyncio.gather(*(_drive(table, args.rate, stop, rng.random()) for table in tables))
        seconds = time.perf_counter() - start
    return Result(count, count * args.players, stats.actions, seconds, count * args.rate,
                  stats.latencies, stats.errors)


@contextlib.asynccontextmanager
async def _players(tables: list[TableRun]) -> AsyncIterator[list[Player]]:
    players: list[Player] = []
    try:
        yield players
    finally:
        for table in tables:
            for player in table.players:
                if player.ws is not None and not player.ws.closed:
                    with contextlib.suppress(Exception):
                        await player.command({"id": "bye", "type": "leave"})
                await player.close()


async def _drive(table: TableRun, rate: float, stop: float, phase: float) -> None:
    """One action every 1/rate seconds at this table, when someone is to act."""
    interval = 1.0 / rate
    next_at = time.perf_counter() + phase * interval
    while next_at < stop:
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        if table.seed_for is not None:
            await table.send_seeds()
        if table.turn is None or table.pending is not None:
            next_at = min(next_at + 0.05, stop)  # between hands, or waiting for the event
            continue
        await table.act()
        next_at += interval

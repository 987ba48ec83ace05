"""``boardroom bench server``: a real server under N tables of clients, over loopback.

Starts ``boardroom serve`` in a child process on 127.0.0.1 (a temporary data folder), or benches
one already running (``--url``, with ``--pid`` for its CPU and memory). For each game and each N
it creates N rooms and seats ``--players`` clients at each, plus a spectator; every client is a
raw WebSocket speaking the Engine.IO 4 / Socket.IO 5 text protocol (many per process, so the
load generator stays light) and offering per-message deflate as every browser does. The seat to
act acts ``--rate`` times per table per second.

``--clients browser`` (the default) behaves like the web client of the server it talks to: a
server that pushes ``update`` messages (each with the viewer's view) is never asked for a
snapshot but on a version gap; against a server that sends bare ``event`` messages (before
pushes) every client asks for a snapshot after each burst of events, 40 ms after the last, one
at a time, as that web client did. Players act from their own view (the action bar a browser
shows), and in the Allocator games commit the server's suggested allocation (the ``suggest``
command, or the old snapshot's ``suggestion``). ``--clients scripted`` is the older, lighter
mode: players act from the ``turn`` events and never read a view.

Each run prints: actions/s; p50/p99/max milliseconds from sending an action to each client
receiving the first message after it (every client of the table), and the p99 to each client
holding the view after it (an update, or the snapshot that follows); the server's CPU time per
action and its resident memory per table (from ``/proc/PID``); errors; the load generator's own
CPU (percent of one core); the machine's load average as the run starts; and the KiB of
pushes (``update`` frames' text) all of a table's clients received per action. Bounded: at most
1,000 tables and 300 seconds a run; everything stops by itself.

Memory per table is the server's peak resident memory during the row (sampled once a second
from seating to the end of play, tables seated and playing) less its resident memory before any
table, divided by the tables; ``anon KiB`` is the same for its anonymous part (RssAnon: the
heaps), without the file-backed pages of the evaluator's memory-mapped tables, which become
resident as boards are evaluated, whatever the number of tables, and are shared with every
process on the machine. So each row gets a fresh server: one server serving every row
reuses for a later row the memory an earlier row freed (the allocator keeps it), and printed
0 KiB a table for rows that held hundreds. With ``--url`` one server serves every row, and its
memory before the first row is every row's base: later rows show only an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
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
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson

from boardroom.server import patch as patches

T = TypeVar("T")

MAX_TABLES = 1000
MAX_DURATION = 300.0
SNAPSHOT_DELAY = 0.040  # the old web client's wait after an event before asking for a snapshot
GAMES = ("plo", "esg", "allocator-redraw")
START_WAIT = 300.0  # seconds a server may take to start (a busy machine starts one slowly)


class BenchError(ValueError):
    """A bench that cannot run (its server did not start): said in words, no traceback."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", default="10,100,300",
                        help="comma-separated table counts, one run each (default: 10,100,300; "
                             f"at most {MAX_TABLES}); each run on a fresh server, its memory per "
                             "table the run's peak against that server's memory before any "
                             "table (one server for every run let a later run reuse the memory "
                             "an earlier one freed, and print 0)")
    parser.add_argument("--game", default=",".join(GAMES),
                        help=f"comma-separated variant ids, one series each "
                             f"(default: {','.join(GAMES)})")
    parser.add_argument("--clients", choices=("browser", "scripted"), default="browser",
                        help="browser: clients that use the protocol as the web client does "
                             "(default); scripted: players act from turn events, no views")
    parser.add_argument("--players", type=int, default=6, help="players per table (default: 6)")
    parser.add_argument("--duration", type=float, default=120.0,
                        help="seconds of play per run (default: 120: about three hands a table "
                             "at one action a second, showdowns and new deals included; a "
                             "table's memory and the CPU an action costs both grow through "
                             "its first hand)")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="actions per table per second (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--url", default=None,
                        help="bench a server already running on this machine "
                             "(http://127.0.0.1:PORT) instead of starting one")
    parser.add_argument("--pid", type=int, default=None,
                        help="with --url: the server's process id, for its CPU time and memory")
    parser.add_argument("--ws", default=None,
                        choices=["boardroom", "websockets-sansio", "websockets", "wsproto"],
                        help="the WebSocket implementation of the servers the bench starts "
                             "(boardroom serve --ws; default: serve's own, boardroom)")


def run(args: argparse.Namespace) -> int:
    from boardroom.cli import UsageError

    try:
        counts = [int(n) for n in args.tables.split(",") if n.strip()]
    except ValueError:
        raise UsageError(f"--tables takes numbers separated by commas, not {args.tables!r}") \
            from None
    if not counts or any(not 1 <= n <= MAX_TABLES for n in counts):
        raise UsageError(f"table counts run from 1 to {MAX_TABLES}")
    games = [game.strip() for game in args.game.split(",") if game.strip()]
    from boardroom.rules import VARIANTS

    known = {variant.id for variant in VARIANTS}
    unknown = [game for game in games if game not in known]
    if not games or unknown:
        raise UsageError(f"unknown game {unknown[0] if unknown else args.game!r} "
                         f"(one of: {', '.join(sorted(known))})")
    if not 0 < args.duration <= MAX_DURATION:
        raise UsageError(f"--duration runs from 0 to {MAX_DURATION:g} seconds")
    if not 2 <= args.players <= 10 or not 0 < args.rate <= 10:
        raise UsageError("--players runs from 2 to 10 and --rate from 0 to 10")
    if args.url is not None and not args.url.startswith(("http://127.0.0.1:",
                                                         "http://localhost:")):
        raise UsageError("--url must be a loopback address (http://127.0.0.1:PORT)")
    if args.ws is not None and args.url is not None:
        raise UsageError("--ws is for the servers the bench starts, not with --url")
    if args.pid is not None and (args.url is None or not Path(f"/proc/{args.pid}").exists()):
        raise UsageError("--pid goes with --url and names a running process")
    raise_file_limit(max(counts) * (args.players + 1) * 2 + 200)
    print(f"boardroom bench server: {args.players} players and 1 spectator a table, "
          f"{args.rate:g} action/table/s, {args.duration:g} s a run, {args.clients} clients, "
          f"loopback", flush=True)
    if args.url:
        print(f"server {args.url}" + (f" (pid {args.pid}: memory per table against its memory "
                                      "before the first row)" if args.pid
                                      else " (no pid: no CPU or memory)"))
    else:
        print("a fresh server for each row (memory per table against its memory before any "
              "table)")
    print(Result.HEADER, flush=True)
    base = rss_kib(args.pid) if args.url else None
    for game in games:
        for count in counts:
            options = ("--ws", args.ws) if args.ws else ()
            with contextlib.nullcontext((args.url, args.pid)) if args.url \
                    else serve_child(*options) as (url, pid):
                result = run_light(_run(url, pid, game, count, args,
                                        baseline=base if args.url else rss_kib(pid)))
            print(result.row(), flush=True)
    return 0


def run_light(main: Coroutine[Any, Any, T]) -> T:
    """Run the load generator's ``main`` on uvloop's event loop when it is installed (uvicorn's
    standard extra brings it, and the server runs on it): its own work a message is a fraction
    of asyncio's, so the clients take less of the cores they share with the server. The cyclic
    collector is off meanwhile: one process holds every client's view (2,100 clients at 300
    tables), and its passes over them stalled every client at once, a pause no browser, with a
    heap of its own, sees (a run is minutes; what reference counting does not free waits)."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    with contextlib.suppress(ImportError):
        import uvloop
        factory = uvloop.new_event_loop
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(main)
    finally:
        if collecting:
            gc.enable()


# -- the server process --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serve_child(*options: str, output: Any = None) -> Iterator[tuple[str, int]]:
    """``boardroom serve`` in a child process on a free loopback port and a temporary data
    folder (removed after), with extra ``options``; its output goes to ``output`` (a file)
    when given. Yields the URL and the pid; stops the server at the end."""
    import httpx

    data = Path(tempfile.mkdtemp(prefix="boardroom-bench-"))
    port = _free_port()
    # glibc's arenas as a deployed server has them (deploy/boardroom.env), unless set
    env = {"MALLOC_ARENA_MAX": "2", **os.environ}
    process = subprocess.Popen([sys.executable, "-m", "boardroom", "serve", "--host", "127.0.0.1",
                                "--port", str(port), "--data", str(data), "--log-level",
                                "warning", *options], stdout=output, stderr=output, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        # A busy machine starts a server slowly (it takes about 3 s of CPU): a soak under
        # `nice -n 10` at a load of 50 did not answer in 120 s. One client for every try
        # (``httpx.get`` loads the CA certificates each time: 67 ms of CPU taken from the server
        # starting beside it).
        deadline = time.monotonic() + START_WAIT
        with httpx.Client(timeout=1) as http:
            while True:
                try:
                    if http.get(f"{url}/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                status = process.poll()
                if status is not None:
                    raise BenchError(f"the server exited (status {status}) before it answered "
                                     f"{url}/healthz")
                if time.monotonic() > deadline:
                    raise BenchError(f"the server did not answer {url}/healthz within "
                                     f"{START_WAIT:g} s (a machine this busy cannot bench it)")
                time.sleep(0.1)
        yield url, process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(data, ignore_errors=True)


def raise_file_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def _cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU time of process ``pid`` (from /proc/PID/stat)."""
    if pid is None:
        return None
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


def proc_status(pid: int, *names: str) -> dict[str, int]:
    """The first number of each field ``names`` of /proc/PID/status (sizes in KiB, counts);
    zeros if the process is gone."""
    found = dict.fromkeys(names, 0)
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in found:
                found[name] = int(value.split()[0])
    return found


def memory_kib(pid: int) -> tuple[int, int, int]:
    """Process ``pid``'s resident memory in KiB: all of it (VmRSS), its anonymous part
    (RssAnon) and its file-backed part (RssFile), from /proc/PID/status; zeros if it is gone."""
    found = proc_status(pid, "VmRSS", "RssAnon", "RssFile")
    return found["VmRSS"], found["RssAnon"], found["RssFile"]


def rss_kib(pid: int | None) -> tuple[int, int] | None:
    """Resident memory of process ``pid`` in KiB: all of it (VmRSS) and its anonymous part
    (RssAnon: the heaps, without mapped files such as the evaluator's tables, whose pages
    become resident as boards are evaluated and are shared with every process)."""
    if pid is None or not Path(f"/proc/{pid}").exists():
        return None
    rss, anon, _ = memory_kib(pid)
    return (rss, anon) if rss else None


class Peak:
    """The highest resident memory of process ``pid`` seen by ``sample``, and the highest
    anonymous part (KiB each; None: no pid or no sample)."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.kib: tuple[int, int] | None = None

    def sample(self) -> None:
        now = rss_kib(self.pid)
        if now is not None:
            self.kib = now if self.kib is None else (max(self.kib[0], now[0]),
                                                     max(self.kib[1], now[1]))

    async def follow(self, every: float = 1.0) -> None:
        """Sample now and every ``every`` seconds until cancelled."""
        while True:
            self.sample()
            await asyncio.sleep(every)


# -- a light socket.io client ----------------------------------------------------------------------


class Socket:
    """One socket.io connection over a raw WebSocket, speaking Engine.IO 4 / Socket.IO 5 frames
    directly (many per process, so a load generator stays light); ``on(name, payload)`` gets
    each push. ``compress`` offers per-message deflate (window bits; 0: not offered)."""

    def __init__(self, on: Callable[[str, Any], None], *, compress: int = 15) -> None:
        self.on = on
        self.compress = compress
        self.ws: Any = None
        self._acks: dict[int, asyncio.Future[Any]] = {}
        self.sent = 0  # commands sent (each one's ack number)
        self.pushed = 0  # characters of the pushes received (the frames' text)
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, session: Any, url: str) -> None:
        self.ws = await session.ws_connect(
            url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
            max_msg_size=0, compress=self.compress)
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
        """Send a ``command`` and wait (at most 30 s) for its answer."""
        self.sent += 1
        ack = self.sent
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._acks[ack] = future
        await self.ws.send_str(f"42{ack}" + orjson.dumps(["command", message]).decode())
        return await asyncio.wait_for(future, 30)

    async def ask(self, kind: str, **args: Any) -> Any:
        """The command of type ``kind`` with ``args`` (its id numbered by this socket)."""
        return await self.command({"id": f"m{self.sent + 1}", "type": kind, **args})

    async def _read(self) -> None:
        async for frame in self.ws:
            text = frame.data
            if not isinstance(text, str):
                continue
            if text == "2":
                await self.ws.send_str("3")
            elif text.startswith("43"):
                digits = len(text) - len(text[2:].lstrip("0123456789"))
                future = self._acks.pop(int(text[2:digits]), None)
                if future is not None and not future.done():
                    future.set_result(orjson.loads(text[digits:])[0])
            elif text.startswith("42"):
                self.pushed += len(text)
                name, payload = orjson.loads(text[2:])
                self.on(name, payload)


class Client(Socket):
    """A seat or a spectator at one table of the bench (every browser offers per-message
    deflate, so it does too).

    It keeps what the web client keeps: the last version and view (from updates, or from the
    snapshots it asks for after events when the server does not push)."""

    def __init__(self, table: TableRun, seat: int | None) -> None:
        super().__init__(self._on_push)
        self.table, self.seat = table, seat
        self.version = 0  # the last version this client has the view of
        self.view: dict[str, Any] | None = None
        self.heard = 0  # the last version any message told this client about
        self._pull: asyncio.TimerHandle | None = None
        self._pulling = False
        self._pull_again = False
        self.allocated_hand: int | None = None
        self.acted_at = -1  # the version of the view this client last acted on
        self._early: dict[str, Any] | None = None  # an update that beat the join's answer
        self.seeded_hand: int | None = None  # the hand this player sent its deal seed for

    async def close(self) -> None:
        if self._pull is not None:
            self._pull.cancel()
        await super().close()

    def _on_push(self, name: str, payload: Any) -> None:
        if name == "update":
            self._on_update(payload)
        elif name == "event":
            self._on_event(payload)

    def apply_snapshot(self, snapshot: dict[str, Any] | None) -> None:
        if snapshot is not None and snapshot["version"] >= self.version:
            self.version, self.view = snapshot["version"], snapshot
            self.table.on_view(self)
        early, self._early = self._early, None
        if early is not None:
            self._on_update(early)

    def _on_update(self, payload: dict[str, Any]) -> None:
        self.table.pushes = True
        self._heard(payload["version"], payload["events"])
        if self.view is None:
            self._early = payload  # the web client waits for the join's snapshot
            return
        if payload["version"] <= self.version:
            return
        follows = bool(payload["events"]) and payload["events"][0]["version"] == self.version + 1
        view = patches.fold(self.view, self.version, payload) if follows else None
        if view is None:
            self._ask(0.0)  # a gap: the web client asks for a snapshot
            return
        self.version = payload["version"]
        self.view = view
        self.table.on_view(self)

    def _on_event(self, payload: dict[str, Any]) -> None:
        self._heard(payload["version"], (payload,))
        if self.table.browser:
            self._ask(SNAPSHOT_DELAY)  # the web client before pushes: a snapshot per burst

    def _heard(self, version: int, events: Any) -> None:
        if version > self.heard:
            self.heard = version
            self.table.on_message(self, version, events)

    def _ask(self, delay: float) -> None:
        if self._pull is not None:
            self._pull.cancel()
        self._pull = asyncio.get_running_loop().call_later(
            delay, lambda: asyncio.ensure_future(self._snapshot()))

    async def _snapshot(self) -> None:
        if self._pulling:
            self._pull_again = True
            return
        self._pulling = True
        try:
            answer = await self.command({"id": f"s{self.sent + 1}", "type": "snapshot"})
        except (TimeoutError, ConnectionError):
            self.table.stats.errors += 1
            return
        finally:
            self._pulling = False
        self.table.stats.snapshots += 1
        if answer.get("ok"):
            self.apply_snapshot(answer["snapshot"])
        if self._pull_again:
            self._pull_again = False
            self._ask(0.0)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # action -> first message, per client
    view_latencies: list[float] = field(default_factory=list)  # action -> the view after it
    actions: int = 0
    errors: int = 0
    snapshots: int = 0
    hands: int = 0  # hands that ended while recording (the spectators heard them)
    recording: bool = False


@dataclass
class TableRun:
    room: str
    host_secret: str
    stats: Stats
    rng: random.Random
    browser: bool
    clients: list[Client] = field(default_factory=list)
    turn: dict[str, Any] | None = None  # scripted: the last turn event
    version: int = 0  # the highest version any client heard of
    pending: tuple[int, float, set[int], set[int]] | None = None  # version, sent at, who heard
    pushes: bool = False  # the server pushes views (updates)
    seeding: set[asyncio.Task[None]] = field(default_factory=set)  # seeds on their way

    def on_message(self, client: Client, version: int, events: Any) -> None:
        self.version = max(self.version, version)
        pending = self.pending
        if pending is not None and version > pending[0] and id(client) not in pending[2]:
            pending[2].add(id(client))
            if self.stats.recording:
                self.stats.latencies.append(time.perf_counter() - pending[1])
        for event in events:
            if event["kind"] == "fair_commitment" and client.seat is not None and \
                    client.seeded_hand != event["data"]["hand_no"]:
                client.seeded_hand = event["data"]["hand_no"]
                task = asyncio.ensure_future(self.send_seed(client, client.seeded_hand))
                self.seeding.add(task)
                task.add_done_callback(self.seeding.discard)
            elif event["kind"] == "hand_ended" and client is self.clients[-1] and \
                    self.stats.recording:
                self.stats.hands += 1
        if client is self.clients[-1]:  # the spectator follows the turns for scripted players
            for event in events:
                if event["kind"] == "turn":
                    self.turn = event
                elif event["kind"] in ("hand_ended", "paused", "closing"):
                    self.turn = None

    def on_view(self, client: Client) -> None:
        pending = self.pending
        if pending is not None and client.version > pending[0] and \
                id(client) not in pending[3]:
            pending[3].add(id(client))
            if self.stats.recording:
                self.stats.view_latencies.append(time.perf_counter() - pending[1])

    async def send_seed(self, client: Client, hand_no: int) -> None:
        """A player's own random seed for hand ``hand_no``'s deal as soon as it hears the
        commitment, as each browser sends its own (web/js/seed.js). A seed that still comes
        after the deal is refused and the server makes one, as for a browser: not an error of
        the run."""
        with contextlib.suppress(TimeoutError, ConnectionError):
            await client.command({"id": f"s{hand_no}-{client.seat}", "type": "seed",
                                  "hand_no": hand_no, "seed": secrets.token_hex(32)})

    def _next_move(self) -> tuple[Client, dict[str, Any]] | None:
        """Who acts now and how: a scripted player from the turn event, a browser-like one
        from its own view (its action bar, or its allocation tray)."""
        if not self.browser:
            turn = self.turn
            if turn is None:
                return None
            self.turn = None
            player = next(c for c in self.clients if c.seat == turn["data"]["seat"])
            return player, _choice(turn["data"]["legal"], self.rng, turn["version"])
        for client in self.clients[:-1]:
            view = client.view
            hand = view.get("hand") if view else None
            if not hand or hand.get("is_over"):
                continue
            if client.version <= client.acted_at:
                continue  # a person clicks once, then waits for the table to move
            if hand.get("legal") is not None and hand.get("actor") == hand.get("viewer"):
                client.acted_at = client.version
                return client, _choice(hand["legal"], self.rng, client.version)
            table = view["table"] if view else {}
            if hand.get("allocating") and hand.get("viewer") in hand.get("allocation_pending", ()) \
                    and client.allocated_hand != table.get("hand_no"):
                client.allocated_hand, client.acted_at = table.get("hand_no"), client.version
                return client, {"type": "allocate", "cards": None}
        return None

    async def act(self) -> bool:
        move = self._next_move()
        if move is None:
            return False
        client, message = move
        if message["type"] == "allocate":
            view = client.view or {}
            hint = view.get("suggestion")
            if self.pushes:  # the Suggest button: the suggest command
                answer = await client.command({"id": f"h{client.version}", "type": "suggest"})
                hint = answer.get("suggestion")
            if hint is None:
                return False
            message = {"id": f"a{client.version}", "type": "allocate", "cards": hint}
        self.pending = (self.version, time.perf_counter(), set(), set())
        try:
            answer = await client.command(message)
        except (TimeoutError, ConnectionError):
            answer = {"ok": False}
        if self.stats.recording:
            self.stats.actions += 1
            if not answer.get("ok"):
                self.stats.errors += 1
        if not answer.get("ok"):
            self.pending = None
        return True


def _choice(legal: dict[str, Any], rng: random.Random, version: int) -> dict[str, Any]:
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
    action = rng.choice(options)
    message: dict[str, Any] = {"id": f"a{version}", "type": "act", "action": action}
    if action == "raise":
        message["amount"] = legal["raise_min"]
    return message


@dataclass
class Result:
    game: str
    tables: int
    clients: int
    actions: int
    seconds: float
    target: float
    latencies: list[float]
    view_latencies: list[float]
    errors: int
    snapshots: int
    cpu_per_action: float | None  # ms
    rss_per_table: float | None  # KiB
    anon_per_table: float | None  # KiB: the anonymous part (RssAnon)
    own_cpu: float  # percent of one core
    load: float
    pushed_per_action: float | None = None  # KiB of pushes all of a table's clients received
    hands: int = 0  # hands that ended in the run, every table's


    HEADER = (f"{'game':>16} {'tables':>6} {'clients':>7} {'actions':>7} {'act/s':>6} "
              f"{'target':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'view p99':>8} "
              f"{'cpu/act ms':>10} {'KiB/table':>9} {'anon KiB':>8} {'snaps':>6} {'errors':>6} "
              f"{'bench cpu':>9} {'load':>5} {'KiB/act':>7} {'hands/table':>11}")

    def row(self) -> str:
        def tail(values: list[float]) -> tuple[float, float, float]:
            ms = sorted(1000 * x for x in values) or [0.0]
            return statistics.median(ms), ms[min(len(ms) - 1, int(0.99 * len(ms)))], ms[-1]

        p50, p99, top = tail(self.latencies)
        view99 = tail(self.view_latencies)[1]
        cpu = f"{self.cpu_per_action:.2f}" if self.cpu_per_action is not None else "-"
        rss = f"{self.rss_per_table:.0f}" if self.rss_per_table is not None else "-"
        anon = f"{self.anon_per_table:.0f}" if self.anon_per_table is not None else "-"
        pushed = f"{self.pushed_per_action:.1f}" if self.pushed_per_action is not None else "-"
        return (f"{self.game:>16} {self.tables:>6} {self.clients:>7} {self.actions:>7} "
                f"{self.actions / self.seconds:>6.1f} {self.target:>6.1f} {p50:>7.1f} "
                f"{p99:>7.1f} {top:>7.1f} {view99:>8.1f} {cpu:>10} {rss:>9} {anon:>8} "
                f"{self.snapshots:>6} {self.errors:>6} {self.own_cpu:>8.0f}% {self.load:>5.2f} "
                f"{pushed:>7} {self.hands / self.tables:>11.1f}")


async def _run(url: str, pid: int | None, game: str, count: int,
               args: argparse.Namespace, baseline: tuple[int, int] | None = None,
               window: Callable[[], Callable[[], None]] | None = None,
               url_of: Callable[[str], str] | None = None) -> Result:
    """One row: ``count`` tables of ``game``. Memory per table is the server's peak resident
    memory from seating to the end of play less ``baseline`` (its memory before any table;
    None: its memory as this row starts), per table. ``window`` is called as the measuring
    window opens, and what it returns as it closes (``bench cluster``'s own counters);
    ``url_of(room)``, the server a table's clients connect to (``url`` when None)."""
    import aiohttp
    import httpx

    load = os.getloadavg()[0]
    stats = Stats()
    rng = random.Random(args.seed * 1000 + count)
    tables: list[TableRun] = []
    rss_before = rss_kib(pid) if baseline is None else baseline
    peak = Peak(pid)
    browser = args.clients == "browser"
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for _ in range(count):
            made = await http.post("/api/rooms", json={
                "game": game, "max_seats": args.players, "pause_between_hands": 1.0,
                "action_clock": 30, "starting_stack": 10_000})
            made.raise_for_status()
            body = made.json()
            tables.append(TableRun(body["room"], body["host_secret"], stats,
                                   random.Random(rng.random()), browser))
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        gate = asyncio.Semaphore(50)

        async def join(table: TableRun, seat: int | None) -> None:
            async with gate:
                client = Client(table, seat)
                table.clients.append(client)
                await client.connect(session, url if url_of is None else url_of(table.room))
                if seat is None:
                    answer = await client.command({"id": "join", "type": "join",
                                                   "room": table.room, "role": "spectator",
                                                   "host_secret": table.host_secret})
                    client.apply_snapshot(answer.get("snapshot"))
                    return
                answer = await client.command({"id": "join", "type": "join", "room": table.room})
                client.apply_snapshot(answer.get("snapshot"))
                answer = await client.command({"id": "sit", "type": "sit", "seat": seat,
                                               "name": f"bot{seat}"})
                if not answer.get("ok"):
                    raise RuntimeError(f"could not sit: {answer}")

        try:
            for number in range(args.players):
                await asyncio.gather(*(join(table, number) for table in tables))
            await asyncio.gather(*(join(table, None) for table in tables))  # the spectators
            sampler = asyncio.create_task(peak.follow())
            await asyncio.sleep(2.0)  # the first hands start
            cpu_start, own_start = _cpu_seconds(pid), resource.getrusage(resource.RUSAGE_SELF)
            closing = window() if window is not None else None
            pushed = -sum(client.pushed for table in tables for client in table.clients)
            stats.recording = True
            start = time.perf_counter()
            stop = start + args.duration
            await asyncio.gather(*(_drive(table, args.rate, stop, rng.random())
                                   for table in tables))
            seconds = time.perf_counter() - start
            stats.recording = False
            pushed += sum(client.pushed for table in tables for client in table.clients)
            cpu_end, own_end = _cpu_seconds(pid), resource.getrusage(resource.RUSAGE_SELF)
            if closing is not None:
                closing()
            sampler.cancel()
            peak.sample()
        finally:
            await _close_all(tables)
    cpu = None
    if cpu_start is not None and cpu_end is not None and stats.actions:
        cpu = 1000 * (cpu_end - cpu_start) / stats.actions
    rss = anon = None
    if rss_before is not None and peak.kib is not None:
        rss = (peak.kib[0] - rss_before[0]) / count
        anon = (peak.kib[1] - rss_before[1]) / count
    own = (own_end.ru_utime + own_end.ru_stime - own_start.ru_utime - own_start.ru_stime)
    return Result(game, count, count * (args.players + 1), stats.actions, seconds,
                  count * args.rate, stats.latencies, stats.view_latencies, stats.errors,
                  stats.snapshots, cpu, rss, anon, 100 * own / seconds, load,
                  pushed / stats.actions / 1024 if stats.actions else None, stats.hands)


async def _close_all(tables: list[TableRun]) -> None:
    """The host closes each room and the players leave, so no table plays on after its run."""
    async def close(table: TableRun) -> None:
        for client in table.clients:
            if client.ws is not None and not client.ws.closed:
                with contextlib.suppress(Exception):
                    kind = "close" if client.seat is None else "leave"
                    await client.command({"id": f"bye-{kind}", "type": kind})
        for client in table.clients:
            await client.close()

    gate = asyncio.Semaphore(50)

    async def gated(table: TableRun) -> None:
        async with gate:
            await close(table)

    await asyncio.gather(*(gated(table) for table in tables))


async def _drive(table: TableRun, rate: float, stop: float, phase: float) -> None:
    """One action every 1/rate seconds at this table, when someone is to act."""
    interval = 1.0 / rate
    next_at = time.perf_counter() + phase * interval
    while next_at < stop:
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        if not await table.act():
            next_at = min(next_at + 0.05, stop)  # between hands, or waiting for a view
            continue
        next_at += interval

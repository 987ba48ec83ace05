"""The live part of ``boardroom bench tournament``: a bots tournament through a real server over
loopback.

``boardroom serve`` runs in a child process (bots act at once, a temporary data folder). The
bench creates a tournament (ESG, tables of six, levels of a few hands), enters ``people``
scripted players through the HTTP routes and fills the field with the server's bots, starts it
and plays it to the end. Each person is a socket of ``bench server``'s light client
(``Socket``): it joins its table with the seat token ``/me`` gives, acts from its own view
(check, else call) and follows the ``tournament`` message to a new table when it is moved. A
spectator watches every table.

It reports hands per second (every table's hands, over the wall time from the start to the
end), the p50/p99/max milliseconds from a person sending an action to that person receiving the
update that follows it, the p99 from any action's commit (the event's ``at``, the server's clock
on this machine) to a spectator receiving it, the server's CPU seconds, and its peak resident
memory (VmHWM).
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardroom.bench.server import Socket
from boardroom.server import patch as patches

LEVELS = [(10, 0), (15, 0), (25, 0), (40, 5), (60, 10), (100, 15), (150, 25), (250, 40),
          (400, 60), (600, 100), (1000, 150), (1500, 250), (2500, 400), (4000, 600)]
HANDS_A_LEVEL = 4
STACK = 1500
MAX_WALL = 1800.0  # seconds: a live run stops here, finished or not
PACE = 0.15  # seconds at least between a person's actions (the server allows 10 messages a second)
ACTION_EVENTS = ("Folded", "Checked", "Called", "RaisedTo", "BringInPosted", "Discarded",
                 "AllocationCommitted")


def live_structure() -> dict[str, Any]:
    """A turbo counted in hands (a level ends when a table has dealt HANDS_A_LEVEL hands)."""
    return {"name": "live bench", "starting_stack": STACK,
            "levels": [{"small_blind": sb, "big_blind": 2 * sb, "ante": ante,
                        "hands": HANDS_A_LEVEL} for sb, ante in LEVELS]}


@dataclass
class Numbers:
    action_ms: list[float] = field(default_factory=list)  # a person's action -> their update
    delivery_ms: list[float] = field(default_factory=list)  # an action's commit -> a spectator
    actions: int = 0
    moves: int = 0
    errors: int = 0
    first_error: str = ""

    def error(self, text: str) -> None:
        self.errors += 1
        self.first_error = self.first_error or text


class Person:
    """A scripted entrant: acts from its view (check, else call), follows its moves."""

    def __init__(self, numbers: Numbers) -> None:
        self.numbers = numbers
        self.socket = Socket(self._push, compress=0)
        self.room: str | None = None
        self.version = 0
        self.sent_at: float | None = None  # the action waiting for its update
        self.acted_on = -1
        self.wake = asyncio.Event()
        self.view: dict[str, Any] | None = None
        self.stale = False  # a gap in the pushes: the view is to be asked for again
        self.moved: dict[str, Any] | None = None
        self.last_sent = 0.0

    def _push(self, name: str, payload: Any) -> None:
        if name == "update" and payload.get("room") == self.room:
            if self.sent_at is not None:
                self.numbers.action_ms.append(1000 * (time.perf_counter() - self.sent_at))
                self.sent_at = None
            view = patches.fold(self.view, self.version, payload)
            if view is None:  # a patch of a view it does not hold: a snapshot, as the web
                self.stale = True  # client asks
                self.wake.set()
                return
            self.version, self.view = payload["version"], view
            self.wake.set()
        elif name == "tournament":
            if payload.get("kind") == "moved" and payload.get("room"):
                self.moved = payload
            self.wake.set()

    async def join(self, room: str, token: str) -> None:
        self.room = room
        answer = await self.socket.ask("join", room=room, token=token)
        if not answer.get("ok"):
            self.numbers.error(f"join: {answer.get('error')}")
            return
        self.version = answer["snapshot"]["version"]
        self.view = answer["snapshot"]
        self.wake.set()

    async def play(self, finished: asyncio.Event) -> None:
        while not finished.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 1.0)
            self.wake.clear()
            if self.moved is not None:
                moved, self.moved = self.moved, None
                self.numbers.moves += 1
                await self.join(moved["room"], moved["token"])
                continue
            if self.stale:
                self.stale = False
                answer = await self.socket.ask("snapshot")
                if answer.get("ok"):
                    self.version = answer["snapshot"]["version"]
                    self.view = answer["snapshot"]
                continue
            hand = (self.view or {}).get("hand") or {}
            legal = hand.get("legal")
            if not legal or hand.get("actor") != hand.get("viewer") or \
                    self.version <= self.acted_on:
                continue  # not this person's turn, or already acted on this view
            self.acted_on = self.version
            action = "check" if legal.get("check") else "call" if legal.get("call") is not None \
                else "fold"
            wait = self.last_sent + PACE - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            self.sent_at = self.last_sent = time.perf_counter()
            answer = await self.socket.ask("act", action=action)
            self.numbers.actions += 1
            if not answer.get("ok"):
                self.sent_at = None
                self.numbers.error(f"{action}: {answer.get('error')}")


@dataclass
class LiveOutcome:
    entrants: int
    people: int
    tables: int
    hands: int
    wall: float
    server_cpu: float | None
    peak_rss_kib: int | None
    numbers: Numbers
    finished: bool
    load: tuple[float, float, float]
    styles: list[str]


def _tail(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (0.0, 0.0, 0.0)
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return statistics.median(ordered), p99, ordered[-1]


def peak_rss_kib(pid: int) -> int | None:
    """The peak resident memory of ``pid`` in KiB (VmHWM)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


async def _play(url: str, pid: int, entrants: int, people: int, game: str,
                styles: list[str]) -> LiveOutcome:
    import aiohttp
    import httpx

    from boardroom.bench.server import _cpu_seconds, raise_file_limit

    raise_file_limit(4096)
    numbers = Numbers()
    load = _loadavg()
    async with httpx.AsyncClient(base_url=url, timeout=60) as http, \
            aiohttp.ClientSession() as session:
        async def post(path: str, body: dict[str, Any], **headers: str) -> Any:
            response = await http.post(path, json=body, headers=headers)
            if response.status_code >= 300:
                raise RuntimeError(f"{path}: {response.status_code} {response.text[:200]}")
            return response.json()

        made = await post("/api/tournaments", {
            "name": "Live bench", "games": [game], "structure": live_structure(),
            "table_size": 6, "action_clock": 30.0})
        tournament, host = made["tournament"], {"X-Host-Secret": made["host_secret"]}
        base = f"/api/tournaments/{tournament}"
        tokens = []
        for k in range(people):
            entry = await post(f"{base}/entries", {"name": f"Person {k + 1}"})
            tokens.append(entry["token"])
        bots = entrants - people
        for k, style in enumerate(styles):  # the styles share the field, in turn
            left = bots // len(styles) + (1 if k < bots % len(styles) else 0)
            while left > 0:
                count = min(left, 200)
                await post(f"{base}/bots", {"style": style, "count": count}, **host)
                left -= count
        players = [Person(numbers) for _ in tokens]
        for player in players:
            await player.socket.connect(session, url)
        cpu_before = _cpu_seconds(pid)
        started = time.perf_counter()
        lobby = await post(f"{base}/start", {}, **host)
        tables = len(lobby["tables"])
        spectators: list[Socket] = []

        def watched(name: str, payload: Any) -> None:
            if name != "update":
                return
            now = time.time()
            for event in payload["events"]:
                if event.get("kind") == "hand" and \
                        event.get("event", {}).get("type") in ACTION_EVENTS:
                    numbers.delivery_ms.append(1000 * (now - event["at"]))

        for table in lobby["tables"]:
            spectator = Socket(watched, compress=0)
            await spectator.connect(session, url)
            await spectator.ask("join", room=table["room"], role="spectator")
            spectators.append(spectator)
        for player, token in zip(players, tokens, strict=True):
            where = (await http.get(f"{base}/me", headers={"X-Seat-Token": token})).json()
            await player.join(where["room"], where["token"])
        finished = asyncio.Event()
        tasks = [asyncio.create_task(p.play(finished)) for p in players]
        try:
            while time.perf_counter() - started < MAX_WALL:
                lobby = (await http.get(base)).json()
                if lobby["finished"]:
                    break
                await asyncio.sleep(0.5)
        finally:
            wall = time.perf_counter() - started
            finished.set()
            for task in tasks:
                with contextlib.suppress(Exception):
                    await task
        cpu_after = _cpu_seconds(pid)
        peak = peak_rss_kib(pid)
        hands = 0
        for room in [t["room"] for t in lobby["tables"]] + lobby["closed_tables"]:
            hands += len((await http.get(f"/api/rooms/{room}/hands")).json()["hands"])
        for socket in [*spectators, *(p.socket for p in players)]:
            with contextlib.suppress(Exception):
                await socket.close()
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return LiveOutcome(entrants, people, tables, hands, wall, cpu, peak, numbers,
                       bool(lobby["finished"]), load, styles)


def _loadavg() -> tuple[float, float, float]:
    with contextlib.suppress(OSError):
        one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
        return float(one), float(five), float(fifteen)
    return (0.0, 0.0, 0.0)


def run_live(entrants: int, people: int, game: str, styles: list[str]) -> LiveOutcome:
    from boardroom.bench.server import serve_child

    with serve_child("--bot-think", "0") as (url, pid):
        return asyncio.run(_play(url, pid, entrants, people, game, styles))


def report(outcome: LiveOutcome, game_name: str) -> list[str]:
    n = outcome.numbers
    p50, p99, worst = _tail(n.action_ms)
    _, d99, dmax = _tail(n.delivery_ms)
    rss = f"{outcome.peak_rss_kib / 1024:.0f} MiB" if outcome.peak_rss_kib else "n/a"
    cpu = f"{outcome.server_cpu:.1f}" if outcome.server_cpu is not None else "n/a"
    goal = "met" if p99 < 100 else "NOT met"
    return [
        f"live: a {outcome.entrants}-entrant {game_name} tournament through a server over "
        f"loopback ({outcome.people} scripted people, the rest the server's bots "
        f"({', '.join(outcome.styles)}); "
        f"{outcome.tables} tables of 6; load average {outcome.load[0]:.1f} "
        f"{outcome.load[1]:.1f} {outcome.load[2]:.1f} at the start)",
        f"{'hands':>8}{'wall s':>9}{'hands/s':>9}{'server cpu s':>14}{'peak RSS':>10}"
        f"{'finished':>10}",
        f"{outcome.hands:>8}{outcome.wall:>9.1f}{outcome.hands / outcome.wall:>9.1f}{cpu:>14}"
        f"{rss:>10}{'yes' if outcome.finished else 'NO':>10}",
        f"a person's action -> their update: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max "
        f"{worst:.1f} ms over {len(n.action_ms)} actions (goal p99 under 100 ms: {goal})",
        f"any action's commit -> a spectator: p99 {d99:.1f} ms, max {dmax:.1f} ms over "
        f"{len(n.delivery_ms)} deliveries; {n.moves} moves followed, {n.errors} errors"
        + (f" (the first: {n.first_error})" if n.first_error else ""),
    ]

"""In-process servers and socket.io clients for the server tests."""

from __future__ import annotations

import asyncio
import compileall
import contextlib
import functools
import itertools
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import socketio
import uvicorn
from wire_check import check, fetch_schema

import boardroom
from boardroom.server import Server, ServerConfig, create_app, uvicorn_options
from boardroom.server import patch as patches
from boardroom.server.wire import View

VIEW_KEYS = tuple(View.__annotations__)  # the parts of a snapshot that updates carry


class FakeClock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


START_TIMEOUT = 180.0  # seconds a child server may take to answer its health check


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@functools.cache
def _byte_compiled() -> None:
    """Byte-compile the package once, as ``pip install`` does: with ``PYTHONDONTWRITEBYTECODE``
    set (this workplace sets it) each child server compiled every module of it again, about a
    seventh of its start's CPU; the flag stops only writing, so the children read these."""
    compileall.compile_dir(Path(boardroom.__file__).parent, quiet=1)


@contextlib.contextmanager
def serve(data: Path, port: int, log: Path, *options: str) -> Iterator[subprocess.Popen[bytes]]:
    """``boardroom serve`` in a child process on ``port`` (extra ``options`` passed on), its
    output appended to ``log``; stopped with SIGTERM at the end unless it is already dead."""
    _byte_compiled()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "boardroom", "serve", "--port", str(port), "--data", str(data),
             "--log-level", "warning", *options], stdout=out, stderr=subprocess.STDOUT)
    try:
        # A server starts in a few seconds, but at a load of 20 or more (and with bytecode
        # caching off) its imports and the evaluator's warm-up can take over a minute.
        # One client for every try: ``httpx.get`` makes a client, and loads the system's CA
        # certificates, each time (67 ms of CPU), which starved the server starting beside it.
        deadline = time.monotonic() + START_TIMEOUT
        with httpx.Client(timeout=1) as http:
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    if http.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@dataclass
class Running:
    url: str
    server: Server
    http: httpx.AsyncClient


@contextlib.asynccontextmanager
async def running_server(data: Path, **config: Any) -> AsyncIterator[Running]:
    """A uvicorn server on a free loopback port, in this event loop."""
    app = create_app(ServerConfig(data=data, **config))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                                           lifespan="on", timeout_graceful_shutdown=10,
                                           **uvicorn_options(app)))
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    assert server.started
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=url) as http:
            yield Running(url, app.server, http)
    finally:
        server.should_exit = True
        await task


class Client:
    """A socket.io client that records every payload it receives, and checks each against the
    JSON Schema the server serves (``wire_check``): a message off the schema fails the test."""

    _ids = itertools.count()

    def __init__(self, url: str, answer_timeout: float = 10.0) -> None:
        self.url = url
        self.answer_timeout = answer_timeout  # seconds a command's answer may take
        self.sio = socketio.AsyncClient(reconnection=False)
        self.schema = ""  # the served schema's text, fetched on connecting
        self.events: list[dict[str, Any]] = []  # every pushed event, in order
        # every pushed update, as it came, with ``view``: the view after it (a patch folded
        # into the view this connection held)
        self.updates: list[dict[str, Any]] = []
        self.views: dict[str, tuple[int, dict[str, Any]]] = {}  # room -> version, view held
        self.received: list[tuple[str, Any]] = []  # every payload, for the leak checks
        self.violations: list[str] = []  # pushes off the schema (raised again by ``close``)
        self.sio.on("update", self._on_update)
        self.sio.on("host", lambda data: self._push("host", data))
        self.sio.on("error", lambda data: self._push("error", data))

    def _push(self, event: str, data: Any) -> None:
        self.received.append((event, data))
        self._check(event, data)

    def _check(self, event: str, data: Any) -> None:
        """A pushed message is checked where it arrives; a handler's exception would be lost
        in the socket.io client's task, so it is also kept and raised again by ``close``."""
        try:
            check(self.schema, event, data)
        except AssertionError as error:
            self.violations.append(str(error))
            raise

    def hold(self, answer: Any) -> None:
        """Keep the view of a command's answer that holds a snapshot (join, snapshot)."""
        snapshot = answer.get("snapshot") if isinstance(answer, dict) else None
        if isinstance(snapshot, dict):
            self._hold(snapshot["room"], snapshot["version"],
                       {key: snapshot[key] for key in VIEW_KEYS})

    def _hold(self, room: str, version: int, view: dict[str, Any]) -> None:
        held = self.views.get(room)
        if held is None or version >= held[0]:
            self.views[room] = (version, view)

    def fold(self, data: dict[str, Any]) -> dict[str, Any]:
        """The view after update ``data``: its view, or its patch folded into the view this
        connection holds, which must be its base's (else the server sent a patch of a view
        the connection does not hold: a failure)."""
        room = data["room"]
        if "patch" in data:
            held = self.views.get(room)
            if held is None or held[0] != data["base"]:
                self.violations.append(f"a patch of version {data['base']} of the view, "
                                       f"which this connection holds at "
                                       f"{held[0] if held else None}")
                raise AssertionError(self.violations[-1])
            view = patches.apply(held[1], data["patch"])
        else:
            view = data["view"]
        self._hold(room, data["version"], view)
        return view

    def _on_update(self, data: dict[str, Any]) -> None:
        """An update: its events one by one, then its view at the update's version (a patch
        is folded into the view this connection holds, which must be its base's)."""
        self._check("update", data)
        if "patch" in data:
            self.received.append(("patch", {"version": data["version"],
                                            "patch": data["patch"]}))
        view = self.fold(data)
        self.updates.append({**data, "view": view})
        for event in data["events"]:
            self.events.append(event)
            self.received.append(("event", event))
        self.received.append(("view", {"version": data["version"], **view}))

    async def connect(self) -> Client:
        self.schema = await fetch_schema(self.url)
        # python-socketio gives up on the namespace's answer after wait_timeout (1 s unless
        # told): a server starved of CPU on a loaded machine answers later, so the bound is the
        # same 20 s as the whole connection's, or the client's answer timeout when longer (the
        # kill test's 60 s: at a load of 45 one of 22 spectators took over 25 s to connect).
        bound = max(20.0, self.answer_timeout)
        await asyncio.wait_for(self.sio.connect(self.url, transports=["websocket"],
                                                wait_timeout=bound), bound + 5)
        return self

    async def close(self) -> None:
        # Waits for the reader (sio.wait() would sleep a second); bounded, for a dead server.
        await asyncio.wait_for(self.sio.disconnect(), 20)
        await asyncio.wait_for(self.sio.eio.wait(), 20)
        assert not self.violations, self.violations[0]

    async def send(self, message: Any) -> dict[str, Any]:
        answer: dict[str, Any] = await self.sio.call("command", message,
                                                     timeout=self.answer_timeout)
        self.received.append(("answer", answer))
        check(self.schema, "answer", answer)
        self.hold(answer)
        return answer

    async def cmd(self, kind: str, **args: Any) -> dict[str, Any]:
        return await self.send({"id": f"c{next(self._ids)}", "type": kind, **args})

    async def ok(self, kind: str, **args: Any) -> dict[str, Any]:
        answer = await self.cmd(kind, **args)
        assert answer["ok"], answer
        return answer

    async def wait_for(self, check: Callable[[dict[str, Any]], bool],
                       timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            for event in self.events[seen:]:
                if check(event):
                    return event
            seen = len(self.events)
            await asyncio.sleep(0.01)
        raise AssertionError(f"no such event; last: {self.events[-3:]}")

    def kinds(self) -> list[str]:
        return [event["kind"] for event in self.events]


@contextlib.asynccontextmanager
async def clients(url: str, count: int) -> AsyncIterator[list[Client]]:
    made = [await Client(url).connect() for _ in range(count)]
    try:
        yield made
    finally:
        for client in made:
            await client.close()


async def seat_all(room: str, players: list[Client], watcher: Client | None = None) -> None:
    """Each of ``players`` joins ``room`` and sits at the seat of its index (named P0, P1...);
    ``watcher`` joins it as a spectator."""
    for seat, client in enumerate(players):
        await client.ok("join", room=room)
        await client.ok("sit", seat=seat, name=f"P{seat}")
    if watcher is not None:
        await watcher.ok("join", room=room, role="spectator")


async def first_turn(clock: FakeClock, players: list[Client],
                     watcher: Client) -> dict[str, Any]:
    """Let the pause before the first hand run out, wake the room and wait for the hand's
    first ``turn`` event, as ``watcher`` sees it."""
    clock.now += 5
    await players[0].ok("snapshot")
    return await watcher.wait_for(lambda e: e["kind"] == "turn")


async def new_room(running: Running, **options: Any) -> tuple[str, str]:
    response = await running.http.post("/api/rooms", json=options)
    assert response.status_code == 201, response.text
    body = response.json()
    return body["room"], body["host_secret"]


async def host_bots(host: Client, room_id: str, secret: str, seats: int = 3,
                    style: str = "station") -> None:
    """``host`` joins ``room_id`` as its host, a spectator, and seats ``seats`` bots."""
    await host.ok("join", room=room_id, role="spectator", host_secret=secret)
    for seat in range(seats):
        await host.ok("add_bot", seat=seat, style=style)

"""The real-time channel's transport: Socket.IO 5 over Engine.IO 4, on WebSockets only, as an
ASGI app at ``/socket.io/``.

Every client (the browser's socket.io-client, python-socketio's client, the benches' raw
WebSocket clients) connects with ``?EIO=4&transport=websocket``; nothing else is served (no
long polling, no binary packets, one namespace, ``/``). The wire is the protocol's own:

- the server opens with ``0{"sid",...,"pingInterval","pingTimeout","maxPayload"}``; the client
  connects the namespace with ``40`` (or ``40{auth}``) and is answered ``40{"sid": SID}``,
  SID being the connection's id everywhere else (``Viewer.sid``);
- an event is ``42["name",...]``, or ``42N["name",...]`` when it wants an answer, which goes
  back as ``43N[answer]``; ``41`` (or ``1``, or the socket closing) ends the connection;
- the server pings (``2``) every ``PING_INTERVAL`` seconds and closes a connection that does
  not answer (``3``) within ``PING_TIMEOUT``.

Why not python-socketio's server (docs/decisions.md, "A transport of our own"): per message
it made two tasks per recipient (the emit's own, and python-engineio's writer with its
``wait_for``), and each connection kept about 19 KiB of its objects; at 6 players and a
spectator a table this was about a sixth of the server's CPU per action. Here a push is one
encoding and a call per recipient that queues the text and wakes that connection's writer.
A frame is checked and parsed in one pass (``limits.read_frame``); one that is not a
well-formed packet is dropped with one log line for the first few of a connection; a frame
over ``MAX_FRAME`` closes the connection (1009), and so does a writer whose client has stopped
reading for ``MAX_BACKLOG`` messages.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from boardroom.server.encode import WireJSON
from boardroom.server.limits import (
    LOGGED_BAD_FRAMES,
    Packet,
    Receive,
    Scope,
    Send,
    read_frame,
)
from boardroom.server.wake import Wake

log = logging.getLogger("boardroom.server")

PING_INTERVAL = 25.0  # seconds between the server's pings of a connection
PING_TIMEOUT = 20.0  # seconds a connection has to answer a ping before it is closed
MAX_FRAME = 65536  # characters of one frame from a client (a command is at most 4 KB)
MAX_BACKLOG = 512  # messages waiting for a client that has stopped reading: then it is closed
PATH = "/socket.io"
_CLOSING: set[asyncio.Task[None]] = set()  # closes under way (a task must be referenced)

# What the server calls: a connection came (sid; the connect's auth data), an event came (sid,
# name, its arguments; what it returns answers an event that asked), a connection went (sid).
OnConnect = Callable[[str, Any], None]
OnEvent = Callable[[str, str, list[Any]], Awaitable[Any]]
OnDisconnect = Callable[[str], Coroutine[Any, Any, None]]


class Connection:
    """One client's WebSocket, whatever carries its frames: its Engine.IO and Socket.IO state
    (the carrier's subclass sends and closes)."""

    __slots__ = ("bad", "client", "closed", "connected", "next_ping", "pong_due", "sid")

    def __init__(self, sid: str, client: tuple[str, int], now: float) -> None:
        self.sid = sid
        self.client = client
        self.connected = False  # the namespace is connected (``40`` answered)
        self.closed = False
        self.bad = 0  # malformed frames dropped
        self.next_ping = now + PING_INTERVAL
        self.pong_due: float | None = None

    def put(self, text: str) -> None:
        """Queue ``text`` for the client, after everything queued before it."""
        raise NotImplementedError

    def close(self, code: int = 1000) -> None:
        """Close the WebSocket (once): what is queued is dropped."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Stop sending (the socket is gone)."""
        self.closed = True

    def _overflowing(self, waiting: int) -> bool:
        """Whether ``waiting`` messages behind, the client has stopped reading: then closed."""
        if waiting < MAX_BACKLOG:
            return False
        log.warning("closed the connection of %s:%s: it stopped reading (%d messages "
                    "waiting)", self.client[0], self.client[1], waiting)
        self.close(1008)
        return True


class AsgiConnection(Connection):
    """A connection served through ASGI (any ASGI server's WebSockets): a writer task sends
    what is queued, one message at a time."""

    __slots__ = ("_wake", "_writer", "queue", "send")

    def __init__(self, sid: str, send: Send, client: tuple[str, int], now: float) -> None:
        super().__init__(sid, client, now)
        self.send = send
        self.queue: collections.deque[str] = collections.deque()
        self._wake = Wake()  # the writer's: something is queued, or the connection closed
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def put(self, text: str) -> None:
        if self.closed or self._overflowing(len(self.queue)):
            return
        self.queue.append(text)
        self._wake.set()

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self.queue.clear()
        with contextlib.suppress(RuntimeError):  # the event loop is closing
            keep(asyncio.get_running_loop().create_task(self._close(code)))
        self._wake.set()

    async def stop(self) -> None:
        self.closed = True
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):  # already closed by the client
            await self.send({"type": "websocket.close", "code": code})

    async def _write(self) -> None:
        try:
            while not self.closed:
                while self.queue:
                    await self.send({"type": "websocket.send", "text": self.queue.popleft()})
                if self.closed:
                    return
                self._wake.clear()  # the queue is empty here: wait for the next put or close
                await self._wake.wait()
        except Exception:  # the client went away mid-send: the reader sees it and cleans up
            self.closed = True


def keep(task: asyncio.Task[Any]) -> None:
    """Hold a task that nothing awaits until it is done (the loop keeps only weak ones)."""
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)


class Transport:
    """The ``/socket.io/`` endpoint and every connection to it: as an ASGI app (``__call__``)
    and for ``websocket.SocketProtocol``, which carries frames without ASGI."""

    def __init__(self, on_connect: OnConnect, on_event: OnEvent, on_disconnect: OnDisconnect,
                 *, clock: Callable[[], float] = time.monotonic) -> None:
        self.on_connect = on_connect
        self.on_event = on_event
        self.on_disconnect = on_disconnect
        self.clock = clock
        self.connections: dict[str, Connection] = {}
        self._pinger: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- sending -------------------------------------------------------------------------------

    def emit(self, event: str, payload: Any, to: list[str]) -> None:
        """Send event ``event`` with ``payload`` (a ``Fragment`` goes as the JSON it is) to
        the connections ``to`` that are here and connected; encoded once for all of them."""
        text = "42" + WireJSON.dumps([event, payload])
        for sid in to:
            connection = self.connections.get(sid)
            if connection is not None and connection.connected:
                connection.put(text)

    def disconnect(self, sid: str) -> None:
        """Close connection ``sid`` from the server's side."""
        connection = self.connections.get(sid)
        if connection is not None:
            connection.put("41")
            connection.close()

    # -- serving -------------------------------------------------------------------------------

    @staticmethod
    def refusal(path: str, query_string: str) -> str | None:
        """Why a WebSocket asked for at ``path`` with ``query_string`` is refused (None: it is
        Engine.IO 4 over WebSocket, as served)."""
        if path != PATH and not path.startswith(PATH + "/"):
            return f"no WebSocket is served at {path[:80]}"
        query = urllib.parse.parse_qs(query_string)
        if query.get("EIO") != ["4"] or query.get("transport") != ["websocket"] or \
                "sid" in query:
            return "connect with EIO=4&transport=websocket"
        return None

    def opened(self, connection: Connection) -> None:
        """A WebSocket accepted: Engine.IO's opening goes first."""
        self._start_pinging()
        self.connections[connection.sid] = connection
        connection.put("0" + json.dumps({
            "sid": new_id(), "upgrades": [], "pingInterval": int(PING_INTERVAL * 1000),
            "pingTimeout": int(PING_TIMEOUT * 1000), "maxPayload": MAX_FRAME}))

    async def gone(self, connection: Connection) -> None:
        """A WebSocket closed (either side): the connection is forgotten."""
        if self.connections.get(connection.sid) is connection:
            del self.connections[connection.sid]
        connection.closed = True
        await connection.stop()
        if connection.connected:
            connection.connected = False
            await self.on_disconnect(connection.sid)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await _refuse_http(send)
            return
        if self.refusal(scope.get("path", ""),
                        scope.get("query_string", b"").decode("latin-1")) is not None:
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008})
            return
        first = await receive()
        if first["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        client = tuple(scope.get("client") or ("?", 0))
        connection = AsgiConnection(new_id(), send, (str(client[0]), int(client[1])),
                                    self.clock())
        connection.start()
        self.opened(connection)
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return  # websocket.disconnect
                text = message.get("text")
                if text is None:
                    self.bad_frame(connection, len(message.get("bytes") or b""),
                                   "binary frames are not used")
                else:
                    self.received(connection, text)
        finally:
            await self.gone(connection)

    def received(self, connection: Connection, text: str) -> None:
        """A text frame from ``connection``'s client."""
        if len(text) > MAX_FRAME:
            log.warning("closed the connection of %s:%s: a frame of %d characters (at most "
                        "%d)", connection.client[0], connection.client[1], len(text),
                        MAX_FRAME)
            connection.close(1009)
            return
        fault, packet = read_frame(text)
        if fault is not None:
            self.bad_frame(connection, len(text), fault)
            return
        if connection.closed:
            return
        if packet is not None:
            self._packet(connection, packet)
        elif text == "3":
            connection.pong_due = None
        elif text == "2":
            connection.put("3")
        elif text == "1":
            connection.close()

    def _packet(self, connection: Connection, packet: Packet) -> None:
        if packet.namespace not in ("", "/"):
            connection.put(f"44{packet.namespace},"
                           + json.dumps({"message": "Invalid namespace"}))
            return
        if packet.kind == "0":
            if connection.connected:
                return
            connection.connected = True
            self.on_connect(connection.sid, packet.data)
            connection.put("40" + json.dumps({"sid": connection.sid}))
            return
        if packet.kind == "1":
            if connection.connected:
                connection.connected = False
                self._spawn(self.on_disconnect(connection.sid))
            connection.close()
            return
        if packet.kind != "2" or not connection.connected:
            return  # an ack from a client (the server asks none) or an event before connecting
        data = packet.data
        self._spawn(self._dispatch(connection, str(data[0]), data[1:], packet.ack))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _dispatch(self, connection: Connection, event: str, args: list[Any],
                        ack: int | None) -> None:
        """Run an event's handler in a task of its own (a slow command never holds up the
        connection's next frames, as python-socketio's server did); its answer, if asked."""
        try:
            answer = await self.on_event(connection.sid, event, args)
        except Exception:
            log.exception("the %r event of a connection failed", event[:40])
            return
        if ack is not None and not connection.closed:
            connection.put(f"43{ack}" + WireJSON.dumps([answer]))

    def bad_frame(self, connection: Connection, size: int, fault: str) -> None:
        """Drop a malformed frame of ``size`` (logged for the first few of a connection)."""
        connection.bad += 1
        if connection.bad <= LOGGED_BAD_FRAMES:
            log.warning("dropped a malformed socket.io frame from %s:%s (%d bytes): %s%s",
                        connection.client[0], connection.client[1], size, fault,
                        "; later ones are dropped silently"
                        if connection.bad == LOGGED_BAD_FRAMES else "")

    # -- keeping connections alive ------------------------------------------------------------

    def _start_pinging(self) -> None:
        if self._pinger is None or self._pinger.done():
            self._pinger = asyncio.get_running_loop().create_task(self._ping_all())

    async def _ping_all(self) -> None:
        """Ping each connection every ``PING_INTERVAL``; close one that has not answered the
        last ping within ``PING_TIMEOUT``. One task for every connection."""
        while True:
            await asyncio.sleep(1.0)
            if not self.connections:
                return
            now = self.clock()
            for connection in list(self.connections.values()):
                if connection.pong_due is not None:
                    if now > connection.pong_due:
                        connection.close(1001)
                elif now >= connection.next_ping:
                    connection.next_ping = now + PING_INTERVAL
                    connection.pong_due = now + PING_TIMEOUT
                    connection.put("2")

    async def close(self) -> None:
        """Close every connection (the server is stopping)."""
        for connection in list(self.connections.values()):
            connection.close(1001)
        if self._pinger is not None:
            self._pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pinger


def new_id() -> str:
    return secrets.token_urlsafe(15)


async def _refuse_http(send: Send) -> None:
    """Engine.IO's answer to a transport it does not serve (long polling)."""
    body = json.dumps({"code": 0, "message": "Transport unknown: connect with "
                       "transport=websocket"}).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})

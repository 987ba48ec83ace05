"""The WebSocket protocol uvicorn runs for the real-time channel: frames go straight between the
socket and ``transport.Transport``, without ASGI in between.

uvicorn's own WebSocket protocols hand each connection to an ASGI app: a task per connection
running the app, a queue of ASGI messages, a dict per message each way, and the handshake's
request, response and scope kept for the connection's life. This one uses the sans-I/O
``ServerProtocol`` of the ``websockets`` library for the handshake and the framing, and keeps a
connection's state to that protocol and a ``DirectConnection``: no task, no queue while the
client reads, a push written to the socket in the call that sends it
(docs/decisions.md, "A WebSocket protocol of our own").

uvicorn takes it as its ``ws`` setting (``uvicorn_options``): it parses the HTTP request, and
when the request asks for a WebSocket it hands the socket to this protocol with the request's
bytes. Only ``/socket.io/?EIO=4&transport=websocket`` is served; any other WebSocket request is
refused with an HTTP error naming what is wrong. ``boardroom serve --ws websockets-sansio`` (or
``wsproto``) serves the same channel through uvicorn's ASGI protocols instead.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from typing import Any, cast

from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from boardroom.server.transport import MAX_FRAME, Connection, Transport, keep, new_id

log = logging.getLogger("boardroom.server")

CLOSE_TIMEOUT = 10.0  # seconds a client has to answer a close before its socket is dropped
# The largest frame read: MAX_FRAME characters of UTF-8, at most 4 bytes each (the transport
# then measures the text in characters, as Engine.IO's maxPayload does).
MAX_BYTES = 4 * MAX_FRAME


class DirectConnection(Connection):
    """A connection whose pushes are framed and written to its socket at once. While the
    socket's buffer is full (the client reads slower than it is sent to), pushes wait in a
    queue, up to ``MAX_BACKLOG`` of them."""

    __slots__ = ("protocol", "waiting")

    def __init__(self, sid: str, protocol: SocketProtocol, client: tuple[str, int],
                 now: float) -> None:
        super().__init__(sid, client, now)
        self.protocol = protocol
        self.waiting: collections.deque[str] | None = None  # while the socket is paused

    def put(self, text: str) -> None:
        if self.closed:
            return
        waiting = self.waiting
        if waiting is None:
            self.protocol.send_text(text)
        elif not self._overflowing(len(waiting)):
            waiting.append(text)

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self.waiting = None
        self.protocol.send_close(code)

    def paused(self) -> None:
        if self.waiting is None:
            self.waiting = collections.deque()

    def resumed(self) -> None:
        waiting, self.waiting = self.waiting, None
        while waiting and self.waiting is None and not self.closed:
            self.protocol.send_text(waiting.popleft())
        if waiting and self.waiting is not None:  # paused again: the rest waits on
            waiting.extend(self.waiting)
            self.waiting = waiting


class SocketProtocol(asyncio.Protocol):
    """One WebSocket of the real-time channel (``uvicorn_options`` binds ``channel``)."""

    # one a connection: slots instead of an instance dictionary (about 300 bytes less)
    __slots__ = ("_closer", "_lost", "connection", "live", "peer", "socket", "ws")
    channel: Transport  # the transport every connection of this class joins

    def __init__(self, config: Any = None, server_state: Any = None, app_state: Any = None,
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        del config, app_state, _loop  # uvicorn's: nothing here reads them
        # uvicorn's set of live connections: a server shutting down calls ``shutdown`` on each
        self.live: set[Any] = server_state.connections if server_state is not None else set()
        self.ws = ServerProtocol(max_size=MAX_BYTES)
        self.socket: asyncio.Transport | None = None
        self.connection: DirectConnection | None = None
        self.peer = ("?", 0)
        self._closer: asyncio.TimerHandle | None = None
        self._lost = False

    # -- asyncio's calls -------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.socket = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.live.add(self)
        # uvicorn's HTTP protocol that read the request is turning the socket over to this one
        # (it is still the transport's protocol now). Its httptools parser holds it through the
        # parser's callbacks, a cycle that only the collector's rare full passes free: about
        # 0.6 KiB a connection kept for minutes. Its parser goes once its call has returned.
        previous = transport.get_protocol()
        if getattr(previous, "parser", None) is not None:
            asyncio.get_running_loop().call_soon(_drop_parser, previous)
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.peer = (str(peer[0]), int(peer[1]))

    def data_received(self, data: bytes) -> None:
        try:
            self.ws.receive_data(data)
        except EOFError:  # data after the client's end of stream: nothing to read
            return
        for event in self.ws.events_received():
            if isinstance(event, Request):
                self._handshake(event)
            elif isinstance(event, Frame):
                self._frame(event)
        self._flush()
        if self.ws.close_expected():
            self._close_soon()

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self.live.discard(self)
        if self._closer is not None:
            self._closer.cancel()
            self._closer = None
        connection = self.connection
        if connection is not None:
            keep(asyncio.get_running_loop().create_task(self.channel.gone(connection)))

    def pause_writing(self) -> None:
        if self.connection is not None:
            self.connection.paused()

    def resume_writing(self) -> None:
        if self.connection is not None:
            self.connection.resumed()

    def shutdown(self) -> None:
        """uvicorn is stopping: close as a restarting server does (1012)."""
        if self.connection is not None and not self.connection.closed:
            self.connection.close(1012)
        elif self.socket is not None:
            self.socket.close()

    # -- the WebSocket -------------------------------------------------------------------------

    def _handshake(self, request: Request) -> None:
        path, _, query = request.path.partition("?")
        refusal = self.channel.refusal(path, query)
        if refusal is not None:
            response = self.ws.reject(404 if refusal.startswith("no WebSocket") else 400,
                                      refusal + "\n")
        else:
            response = self.ws.accept(request)
        self.ws.send_response(response)
        self._flush()
        if response.status_code != 101:
            if self.socket is not None:
                self.socket.close()
            return
        forwarded = request.headers.get("X-Forwarded-For")
        if forwarded and self.peer[0] in ("127.0.0.1", "::1"):  # a proxy on this host
            self.peer = (forwarded.rsplit(",", 1)[-1].strip()[:64], 0)
        # The handshake's protocol keeps its request (the headers, about 3.7 KiB a connection)
        # for the connection's life, in its parser's frame: the frames go on through a protocol
        # made open (the library's ``state`` for a handshake done elsewhere). uvicorn hands over
        # the request's head alone, and a client sends no frame before the 101, so the first
        # protocol holds nothing more to read. Its parser (a generator whose frame holds the
        # protocol: a cycle, left to the collector's passes) is closed, so reference counting
        # frees the protocol and the request at once.
        handshake, self.ws = self.ws, ServerProtocol(max_size=MAX_BYTES, state=State.OPEN)
        handshake.parser.close()
        self.connection = DirectConnection(new_id(), self, self.peer, self.channel.clock())
        self.channel.opened(self.connection)

    def _frame(self, frame: Frame) -> None:
        connection = self.connection
        if connection is None:
            return
        if frame.opcode is Opcode.TEXT:
            if not frame.fin:  # clients send whole frames; a fragmented one is refused
                self.channel.bad_frame(connection, len(frame.data), "fragmented frames are "
                                       "not used")
                return
            try:
                text = bytes(frame.data).decode()
            except UnicodeDecodeError:
                connection.close(1007)
                return
            self.channel.received(connection, text)
        elif frame.opcode in (Opcode.BINARY, Opcode.CONT):
            self.channel.bad_frame(connection, len(frame.data), "binary frames are not used")
        elif frame.opcode is Opcode.CLOSE:
            connection.closed = True  # the library answered it; the socket closes next

    def send_text(self, text: str) -> None:
        """Frame ``text`` and write it (``DirectConnection.put``)."""
        if self._lost:
            return
        try:
            self.ws.send_text(text.encode())
        except InvalidState:  # closing: nothing more goes out
            return
        self._flush()

    def send_close(self, code: int) -> None:
        if self._lost or self.ws.state is not State.OPEN:
            return
        self.ws.send_close(code)
        self._flush()
        self._close_soon()

    def _flush(self) -> None:
        socket = self.socket
        if socket is None or self._lost:
            return
        for data in self.ws.data_to_send():
            if data:
                socket.write(data)
            elif socket.can_write_eof():  # the library's end of stream: half-close
                with contextlib.suppress(OSError, RuntimeError):
                    socket.write_eof()

    def _close_soon(self) -> None:
        """The closing handshake is under way: drop the socket if the client does not finish
        it within ``CLOSE_TIMEOUT``."""
        if self._closer is None and self.socket is not None and not self._lost:
            socket = self.socket
            self._closer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, socket.close)


def _drop_parser(protocol: asyncio.BaseProtocol) -> None:
    """Break the cycle between uvicorn's HTTP protocol of a socket turned WebSocket and its
    parser, so reference counting frees both (``SocketProtocol.connection_made``)."""
    protocol.parser = None  # type: ignore[attr-defined]


def protocol_for(channel: Transport) -> type[SocketProtocol]:
    """The protocol class uvicorn instantiates per WebSocket, its connections joining
    ``channel``."""
    return type("BoundSocketProtocol", (SocketProtocol,), {"channel": channel, "__slots__": ()})

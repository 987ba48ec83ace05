"""Limits on what clients send, applied before anything parses it: HTTP request bodies, and the
socket.io endpoint's frames.

Every body the routes accept is a few hundred bytes of JSON; without a limit, a 10 MB body to
``POST /api/rooms`` held the event loop (and with it every table's clocks and events) while it
was parsed. The middleware reads the body as it arrives, refuses it with a 413 as soon as it
passes the limit (whether the client announced its length or sent it in chunks), and hands the
app a body it has already read in full.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, NamedTuple

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 64 * 1024
# A refused body up to this size is read to its end (unparsed) before the 413 goes out, so the
# client, still sending, reads the answer instead of a reset connection; a larger one is cut off.
DRAIN_BYTES = 16 * 1024 * 1024


class BodyLimit:
    """ASGI middleware: HTTP bodies over ``limit`` bytes get ``413`` and never reach the app."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = dict(scope.get("headers") or []).get(b"content-length")
        if announced is not None and (not announced.isdigit() or int(announced) > self.limit):
            if announced.isdigit() and int(announced) <= DRAIN_BYTES:
                await self._drain(receive)
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                if message.get("more_body", False):
                    await self._drain(receive, size)
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _drain(receive: Receive, size: int = 0) -> None:
        """Read and drop the rest of a refused body, up to ``DRAIN_BYTES`` in all."""
        while size <= DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                return
            size += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"the request body is larger than {self.limit:,} bytes"}
                          ).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


# -- socket.io frames -------------------------------------------------------------------------

log = logging.getLogger("boardroom.server")

# Engine.IO 4 text frames a client may send as they are (close, ping, pong, upgrade, noop); a
# message ("4...") carries a Socket.IO packet, checked below.
_PLAIN_FRAMES = frozenset({"1", "2", "3", "2probe", "3probe", "5", "6"})
_NAMESPACE_AND_ACK = re.compile(r"(/[^,]*,)?(\d*)")
LOGGED_BAD_FRAMES = 3  # per connection; the rest are dropped without a word


class Packet(NamedTuple):
    """A client's Socket.IO packet, read once: its type ("0" connect, "1" disconnect, "2" event,
    "3" ack), its namespace ("" or "/name"), its ack number (None: none asked) and its JSON
    data, parsed (None: none)."""

    kind: str
    namespace: str
    ack: int | None
    data: Any


def read_frame(text: str) -> tuple[str | None, Packet | None]:
    """A text frame from a client, checked and read in one pass: ``(fault, None)`` when it is
    not a well-formed Engine.IO / Socket.IO packet (``fault`` says why; ``server.transport``
    drops it with a log line), ``(None, None)`` for a plain Engine.IO frame (ping, pong,
    close...), else ``(None, packet)``. A Socket.IO event or ack must be a JSON array, an
    event's first element its name (a string); connect carries nothing, a namespace or a JSON
    object; binary packets are not used by Boardroom's clients."""
    if text in _PLAIN_FRAMES:
        return None, None
    if not text.startswith("4"):
        return "not an Engine.IO packet a client sends", None
    body = text[1:]
    if not body or body[0] not in "0123":
        return "not a Socket.IO packet a client sends", None
    kind, rest = body[0], body[1:]
    match = _NAMESPACE_AND_ACK.match(rest)
    assert match is not None  # both groups may be empty
    namespace = (match.group(1) or "")[:-1]
    ack = int(match.group(2)) if match.group(2) else None
    body = rest[match.end():]
    if kind == "1":
        return (None, Packet(kind, namespace, ack, None)) if not body else \
            ("a disconnect carries nothing", None)
    if kind == "0":
        if not body:
            return None, Packet(kind, namespace, ack, None)
        try:
            auth = json.loads(body)
        except ValueError:
            return "a connect's data is not JSON", None
        return (None, Packet(kind, namespace, ack, auth)) if isinstance(auth, dict) else \
            ("a connect's data is not an object", None)
    try:
        data = json.loads(body)
    except ValueError:
        return "the packet's data is not JSON", None
    if not isinstance(data, list):
        return "the packet's data is not a JSON array", None
    if kind == "2" and not (data and isinstance(data[0], str)):
        return "an event's first element is not its name", None
    return None, Packet(kind, namespace, ack, data)

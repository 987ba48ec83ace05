"""HTTP requests about a tournament that another worker of the cluster runs are answered there.

A tournament runs on one worker, the holder of its lease (``store.leases``), which runs its
director and all its tables. Its routes (``tournament_http``) can only answer there. So an HTTP
request about a tournament that reaches another worker goes to the owner over Redis
(``Cluster.ask_tournament``) as plain data: the method, path, query, body and the few headers
the routes read. The owner runs it through its own app and sends the answer back (status,
content type, body). Every worker therefore gives the same answer, after the same checks of the
host secret and the entry token, which the owner makes. The request goes to the owner's channel
only, sealed like every message between workers (``seal``: its headers and the answer's
tokens are readable by no Redis subscriber), and it is never logged.

A finished tournament that nobody runs any more (its owner stopped) is read from the store by
the worker that was asked, and served from there.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any, Protocol

from boardroom.server.limits import ASGIApp, Message, Receive, Scope, Send
from boardroom.store import StoreError

TOURNAMENT_PATH = re.compile(r"/api/tournaments/([0-9a-f]{1,32})(?:/|$)")
REQUEST_HEADERS = frozenset({b"host", b"content-type", b"accept", b"x-host-secret",
                             b"x-seat-token"})
ANSWER_HEADERS = frozenset({b"content-type", b"content-disposition"})


class Asker(Protocol):
    """The cluster's way to a tournament's owner (``server.cluster.Cluster``)."""

    async def ask_tournament(self, tournament_id: str,
                             request: dict[str, Any]) -> dict[str, Any] | None: ...


class Server(Protocol):
    """What the router needs of the server (``app.Server`` is one)."""

    @property
    def asker(self) -> Asker | None: ...

    def runs_tournament(self, tournament_id: str) -> bool: ...

    async def load_finished_tournament(self, tournament_id: str) -> None: ...


class TournamentRouter:
    """ASGI middleware: a request about a tournament run elsewhere is answered by its owner."""

    def __init__(self, app: ASGIApp, server: Server) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asker = self.server.asker
        found = TOURNAMENT_PATH.match(scope["path"]) if scope["type"] == "http" else None
        if asker is None or found is None or self.server.runs_tournament(found[1]):
            await self.app(scope, receive, send)
            return
        request = {"method": scope["method"], "path": scope["path"],
                   "query": scope.get("query_string", b"").decode("latin-1"),
                   "headers": [[k.decode("latin-1"), v.decode("latin-1")]
                               for k, v in scope.get("headers") or []
                               if k.lower() in REQUEST_HEADERS],
                   "body": base64.b64encode(await _body(receive)).decode()}
        try:
            answer = await asker.ask_tournament(found[1], request)
            if answer is None:  # nobody runs it: there is none, or it is over
                await self.server.load_finished_tournament(found[1])
                answer = await self.answer(request)
        except StoreError as error:
            answer = _plain(503, json.dumps({"detail": str(error)}).encode(),
                            b"application/json")
        await _send(send, answer)

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run ``request`` (as ``__call__`` packs it) through this worker's app; its answer,
        packed the same way."""
        path = str(request["path"])
        scope: Scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": request["method"], "scheme": "http", "path": path,
            "raw_path": path.encode(), "root_path": "",
            "query_string": str(request["query"]).encode("latin-1"),
            "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                        for k, v in request["headers"]],
            "client": None, "server": None}
        body = base64.b64decode(request["body"])
        given = False
        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal given
            if given:
                return {"type": "http.disconnect"}
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers.extend([k.decode("latin-1"), v.decode("latin-1")]
                               for k, v in message.get("headers") or []
                               if k.lower() in ANSWER_HEADERS)
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))

        await self.app(scope, receive, send)
        return {"status": status, "headers": headers,
                "body": base64.b64encode(b"".join(chunks)).decode()}


async def _body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(bytes(message.get("body", b"")))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _plain(status: int, body: bytes, content_type: bytes) -> dict[str, Any]:
    return {"status": status, "headers": [["content-type", content_type.decode()]],
            "body": base64.b64encode(body).decode()}


async def _send(send: Send, answer: dict[str, Any]) -> None:
    body = base64.b64decode(answer["body"])
    headers = [(str(k).encode("latin-1"), str(v).encode("latin-1"))
               for k, v in answer["headers"]]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": int(answer["status"]),
                "headers": headers})
    await send({"type": "http.response.body", "body": body})

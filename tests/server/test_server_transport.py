"""The real-time transport (``server.transport``): Socket.IO 5 over Engine.IO 4 on WebSockets,
checked frame by frame with a raw WebSocket client: the handshake, events and their answers,
pings, and what closes a connection (an oversized frame, a silent client, a client that stopped
reading), with no traceback logged for any of it."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from server_helpers import new_room, running_server

from boardroom.server import transport


async def _open(url: str, query: str = "EIO=4&transport=websocket") -> Any:
    session = aiohttp.ClientSession()
    try:
        ws = await session.ws_connect(url.replace("http", "ws", 1) + f"/socket.io/?{query}")
    except Exception:
        await session.close()
        raise
    ws.session = session  # closed with the socket (tests only)
    return ws


async def _close(ws: Any) -> None:
    await ws.close()
    await ws.session.close()


async def _text(ws: Any, timeout: float = 10.0) -> str:
    message = await ws.receive(timeout)
    assert message.type == aiohttp.WSMsgType.TEXT, message
    return str(message.data)


async def _until(ws: Any, wanted: str) -> str:
    """The next frame that starts with ``wanted`` (updates of the room may come between)."""
    for _ in range(20):
        text = await _text(ws)
        if text.startswith(wanted):
            return text
    raise AssertionError(f"no frame starting {wanted!r}")


async def _connected(url: str) -> tuple[Any, str]:
    ws = await _open(url)
    opening = await _text(ws)
    assert opening.startswith("0")
    handshake = json.loads(opening[1:])
    assert handshake["upgrades"] == []
    assert (handshake["pingInterval"], handshake["pingTimeout"]) == (
        int(transport.PING_INTERVAL * 1000), int(transport.PING_TIMEOUT * 1000))
    assert handshake["maxPayload"] == transport.MAX_FRAME
    await ws.send_str("40")
    answer = await _text(ws)
    assert answer.startswith("40")
    return ws, json.loads(answer[2:])["sid"]


async def test_a_connection_joins_and_its_commands_are_answered_by_their_ack_id(
        tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        room, _ = await new_room(running, game="plo")
        ws, sid = await _connected(running.url)
        try:
            assert sid in running.server.hub.transport.connections
            await ws.send_str("427" + json.dumps(["command", {"id": "j", "type": "join",
                                                              "room": room}]))
            answer = await _until(ws, "437[")
            body = json.loads(answer[3:])[0]
            assert body["ok"]
            assert body["snapshot"]["room"] == room
            # an event without an ack id gets no answer; an unknown one an 'error' event
            await ws.send_str("42" + json.dumps(["shout", {"x": 1}]))
            error = await _until(ws, '42["error",')
            name, payload = json.loads(error[2:])
            assert (name, payload["code"]) == ("error", "unknown_event")
            # another namespace is refused, as the protocol says
            await ws.send_str("40/admin,")
            assert await _until(ws, "44") == '44/admin,{"message": "Invalid namespace"}'
            # an update reaches the connection once it is in an audience
            await ws.send_str("428" + json.dumps(["command", {"id": "s", "type": "sit",
                                                              "seat": 0, "name": "Ann"}]))
            frames: list[str] = []
            while not (any(f.startswith("438[") for f in frames)
                       and any(f.startswith('42["update",') for f in frames)):
                assert len(frames) < 10, frames
                frames.append(await _text(ws))
        finally:
            await _close(ws)
        for _ in range(100):  # the server sees the close and forgets the connection
            if sid not in running.server.hub.transport.connections:
                break
            await asyncio.sleep(0.05)
        assert sid not in running.server.hub.transport.connections
        assert sid not in running.server.hub._viewers


async def test_long_polling_and_other_engine_io_versions_are_refused(tmp_path: Path) -> None:
    async with running_server(tmp_path) as running:
        answer = await running.http.get("/socket.io/", params={"EIO": "4",
                                                               "transport": "polling"})
        assert answer.status_code == 400
        assert "transport=websocket" in answer.json()["message"]
        for query in ("EIO=3&transport=websocket", "EIO=4&transport=websocket&sid=x",
                      "EIO=4"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await _open(running.url, query)
            assert refused.value.status == 400
            # the refusal says what is wrong (a WebSocket handshake asked over plain HTTP)
            answer = await running.http.get(f"/socket.io/?{query}", headers=_UPGRADE)
            assert answer.status_code == 400
            assert "connect with EIO=4&transport=websocket" in answer.text
        answer = await running.http.get("/elsewhere/?EIO=4&transport=websocket",
                                        headers=_UPGRADE)
        assert answer.status_code == 404
        assert "no WebSocket is served at /elsewhere/" in answer.text


_UPGRADE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


async def test_an_oversized_frame_closes_the_connection_with_one_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with running_server(tmp_path) as running:
        ws, _sid = await _connected(running.url)
        try:
            with caplog.at_level(logging.WARNING, logger="boardroom.server"):
                await ws.send_str("42" + json.dumps(["command", "x" * transport.MAX_FRAME]))
                message = await ws.receive(10)
            assert message.type == aiohttp.WSMsgType.CLOSE
            assert message.data == 1009
        finally:
            await _close(ws)
        lines = [r.getMessage() for r in caplog.records if "frame of" in r.getMessage()]
        assert len(lines) == 1
        assert "xxxx" not in lines[0]  # never the frame's content
        assert not any(r.exc_info for r in caplog.records)


async def test_a_connection_that_does_not_answer_pings_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transport, "PING_INTERVAL", 0.5)
    monkeypatch.setattr(transport, "PING_TIMEOUT", 1.0)
    async with running_server(tmp_path) as running:
        ws, sid = await _connected(running.url)
        try:
            assert await _text(ws) == "2"  # pinged; this client never answers
            message = await ws.receive(10)
            assert message.type == aiohttp.WSMsgType.CLOSE
        finally:
            await _close(ws)
        answering, _ = await _connected(running.url)
        try:
            for _ in range(3):  # answered, it stays open through more pings than the timeout
                assert await _text(answering) == "2"
                await answering.send_str("3")
            assert not answering.closed
        finally:
            await _close(answering)
        assert sid not in running.server.hub.transport.connections


async def test_a_client_that_stops_reading_is_closed_and_its_queue_dropped() -> None:
    """A connection whose writer is held up (its client reads nothing, so the socket's buffers
    are full) is closed once ``MAX_BACKLOG`` messages wait for it: a push never queues
    without bound for one slow client, and the others' pushes never wait for it."""
    sent: list[Any] = []
    held = asyncio.Event()

    async def blocked_send(message: Any) -> None:
        sent.append(message)
        if message["type"] == "websocket.send":
            await held.wait()  # the client never reads: the first send never finishes

    connection = transport.AsgiConnection("sid", blocked_send, ("test", 1), 0.0)
    connection.connected = True
    connection.start()
    connection.put("42[0]")
    await asyncio.sleep(0.05)  # the writer sends it, and waits on the client
    for number in range(1, transport.MAX_BACKLOG + 1):
        connection.put(f"42[{number}]")
    assert not connection.closed  # MAX_BACKLOG messages wait: not yet
    connection.put("42[one too many]")
    await asyncio.sleep(0.05)
    assert connection.closed
    assert not connection.queue
    assert {"type": "websocket.close", "code": 1008} in sent
    assert [m for m in sent if m["type"] == "websocket.send"] == [
        {"type": "websocket.send", "text": "42[0]"}]
    await connection.stop()


class _Socket:
    """An asyncio transport that only records what is written (its client reads nothing)."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.written.append(b"<eof>")

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> Any:
        return ("127.0.0.1", 5) if name == "peername" else None


async def test_the_direct_protocol_queues_while_the_socket_is_full_and_closes_a_stalled_client(
) -> None:
    """Our WebSocket protocol writes each push at once; while asyncio says the socket's buffer
    is full (``pause_writing``) pushes wait, in order, and go out on ``resume_writing``; a
    client that stays behind by ``MAX_BACKLOG`` messages is closed (1008), its queue dropped."""
    from websockets.frames import Opcode

    from boardroom.server.websocket import SocketProtocol, protocol_for

    channel = transport.Transport(lambda sid, auth: None, _no_event, _no_disconnect)
    protocol = protocol_for(channel)()
    socket = _Socket()
    protocol.socket = socket  # type: ignore[assignment]  # connection_made wants a real one
    request = (b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\n"
               b"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
    protocol.data_received(request)
    assert socket.written[0].startswith(b"HTTP/1.1 101")
    connection = protocol.connection
    assert connection is not None
    assert channel.connections[connection.sid] is connection
    assert b'"pingInterval"' in socket.written[1]  # Engine.IO's opening, written at once
    assert isinstance(protocol, SocketProtocol)

    written = len(socket.written)
    protocol.pause_writing()
    connection.put("42[1]")
    connection.put("42[2]")
    assert len(socket.written) == written  # held while the socket is full
    protocol.resume_writing()
    assert [data.endswith(b"42[1]") for data in socket.written[written:]] == [True, False]
    assert socket.written[-1].endswith(b"42[2]")
    protocol.pause_writing()
    for number in range(transport.MAX_BACKLOG):
        connection.put(f"42[{number}]")
    assert not connection.closed
    written = len(socket.written)
    connection.put("42[one too many]")
    assert connection.closed
    assert connection.waiting is None
    close = socket.written[written]  # a close frame, code 1008
    assert close[0] & 0x0F == Opcode.CLOSE.value
    assert close[2:4] == (1008).to_bytes(2, "big")
    protocol.resume_writing()
    assert len(socket.written) == written + 1  # nothing of the dropped queue follows
    protocol.connection_lost(None)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert connection.sid not in channel.connections


async def test_uvicorn_s_http_protocol_of_a_socket_turned_websocket_is_freed_at_once(
        tmp_path: Path) -> None:
    """uvicorn's HTTP protocol that read a WebSocket's request, and its parser, are freed by
    reference counting once the socket is ours, not left as a cycle for the collector's full
    passes (counted with the collector off: without the fix, one such protocol a
    connection stays among the objects)."""
    import gc

    def http_protocols() -> int:
        return sum(type(o).__name__ in ("HttpToolsProtocol", "H11Protocol")
                   for o in gc.get_objects())

    gc.collect()
    gc.disable()
    try:
        async with running_server(tmp_path) as running:
            await asyncio.sleep(0.05)
            before = http_protocols()
            opened = [await _connected(running.url) for _ in range(5)]
            await asyncio.sleep(0.05)
            after = http_protocols()
            for ws, _ in opened:
                await _close(ws)
    finally:
        gc.enable()
    assert after - before == 0, (before, after)


async def test_the_direct_protocol_lets_the_handshake_s_request_go_once_it_is_answered(
) -> None:
    """The handshake's request and its headers (about 3.7 KiB a connection, seven a table) are
    not kept for the connection's life: once the 101 is written, nothing holds them (freed at
    once, not left in a cycle for the collector), and frames still come and go both ways
    (the namespace's connect is read and answered; a close is answered)."""
    import gc
    import weakref

    from websockets.frames import Close, Frame, Opcode
    from websockets.http11 import Request

    from boardroom.server.websocket import protocol_for

    requests: list[weakref.ref[Request]] = []

    class Watched(protocol_for(transport.Transport(  # type: ignore[misc]
            lambda sid, auth: None, _no_event, _no_disconnect))):
        def _handshake(self, request: Request) -> None:
            requests.append(weakref.ref(request))
            super()._handshake(request)

    protocol = Watched()
    socket = _Socket()
    protocol.socket = socket
    gc.collect()
    gc.disable()  # freed by reference counting, not left to a pass of the collector
    try:
        protocol.data_received(
            b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\n"
            b"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Padding: " + b"x" * 2000 +
            b"\r\n\r\n")
        assert socket.written[0].startswith(b"HTTP/1.1 101")
        assert len(requests) == 1
        assert requests[0]() is None  # nothing holds the request now
    finally:
        gc.enable()
    connection = protocol.connection
    assert connection is not None
    written = len(socket.written)
    protocol.data_received(Frame(Opcode.TEXT, b"40").serialize(mask=True, extensions=[]))
    assert any(data.endswith(b'"}') and b'40{"sid":' in data
               for data in socket.written[written:])  # read after the swap, and answered
    written = len(socket.written)
    protocol.data_received(Frame(Opcode.CLOSE, Close(1000, "").serialize()).serialize(
        mask=True, extensions=[]))
    close = socket.written[written]  # the close answered, code 1000
    assert close[0] & 0x0F == Opcode.CLOSE.value
    assert close[2:4] == (1000).to_bytes(2, "big")
    assert connection.closed
    protocol.connection_lost(None)
    await asyncio.sleep(0)
    await asyncio.sleep(0)


async def _no_event(sid: str, event: str, args: list[Any]) -> None:
    return None


async def _no_disconnect(sid: str) -> None:
    return None


def test_a_connection_s_own_objects_carry_no_instance_dictionary() -> None:
    """Seven connections a table: the WebSocket protocol, the viewer and its rate limit each
    keep their fields in slots, not a dictionary of their own (about 300 bytes each)."""
    import sys

    from boardroom.server.protocol import RateLimit
    from boardroom.server.viewer import Viewer
    from boardroom.server.websocket import protocol_for

    protocol = protocol_for(transport.Transport(lambda sid, auth: None, _no_event,
                                                _no_disconnect))()
    viewer = Viewer("sid", RateLimit(0.0), room="r", seat=3, player="p", name="Ann")
    for kept in (protocol, viewer, viewer.limit):
        assert not hasattr(kept, "__dict__"), type(kept)
        assert sys.getsizeof(kept) <= 128, type(kept)


async def test_a_command_frame_is_parsed_once_and_dispatched_with_its_ack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A client's event frame is checked and read in one pass (``limits.read_frame``): its
    JSON is parsed once, not once to check it and again to dispatch it."""
    from boardroom.server.limits import Packet, read_frame

    assert read_frame('42/,7["command",{"id":"a"}]') == (
        None, Packet("2", "/", 7, ["command", {"id": "a"}]))
    assert read_frame("40") == (None, Packet("0", "", None, None))
    assert read_frame("3") == (None, None)

    heard: list[tuple[str, str, list[Any]]] = []

    async def on_event(sid: str, event: str, args: list[Any]) -> dict[str, Any]:
        heard.append((sid, event, args))
        return {"ok": True}

    channel = transport.Transport(lambda sid, auth: None, on_event, _no_disconnect)
    connection = transport.AsgiConnection("sid", _discard, ("test", 1), 0.0)
    connection.connected = True
    parses = 0
    real = json.loads

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal parses
        parses += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(json, "loads", counted)
    channel.received(connection, '4212["command",{"id":"a","type":"snapshot"}]')
    monkeypatch.setattr(json, "loads", real)
    await asyncio.sleep(0.01)
    assert parses == 1
    assert heard == [("sid", "command", [{"id": "a", "type": "snapshot"}])]
    assert list(connection.queue) == ['4312[{"ok":true}]']


async def _discard(message: Any) -> None:
    return None

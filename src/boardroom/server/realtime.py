"""The socket.io side: connections, their groups, and the ``command`` event.

Every connection is a ``Viewer``. A joined viewer is in the room's group and in exactly one
group for hand events: its seat's (``ROOM/sN``) or the public one (``ROOM/pub``). Table events
go to the room's group once; a hand event goes to each seat group as that seat may see it and
to the public group as a spectator may see it. Commands are rate limited per connection and
shape-checked here; everything else is the room actor's business.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import socketio  # type: ignore[import-untyped]
from engineio import packet as engineio_packet  # type: ignore[import-untyped]
from engineio.exceptions import SocketIsClosedError  # type: ignore[import-untyped]

from boardroom.server.protocol import (
    ProtocolError,
    RateLimit,
    command_id,
    parse,
)
from boardroom.server.room import Room, Viewer, event_payload
from boardroom.table import HAND, TableEvent

log = logging.getLogger("boardroom.server")
MAX_TRANSPORT_MESSAGE = 65536  # engine.io drops the connection above this (our limit is 4 KB)
NAMESPACE = "/"


class SocketHub:
    """The connections of every room, on one python-socketio server."""

    def __init__(self, rooms: Mapping[str, Room],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rooms = rooms
        self.clock = clock
        self.sio = socketio.AsyncServer(async_mode="asgi", cors_allowed_origins="*",
                                        max_http_buffer_size=MAX_TRANSPORT_MESSAGE,
                                        logger=False, engineio_logger=False)
        self._viewers: dict[str, Viewer] = {}
        self._groups: dict[str, list[str]] = {}  # sid -> groups it is in
        self._members: dict[str, set[str]] = {}  # room id -> sids
        self.sio.on("connect", self._connect)
        self.sio.on("disconnect", self._disconnect)
        self.sio.on("command", self._command)
        self.sio.on("*", self._unknown)

    # -- groups ------------------------------------------------------------------------------

    def place(self, viewer: Viewer) -> None:
        manager = self.sio.manager
        for group in self._groups.pop(viewer.sid, []):
            manager.basic_leave_room(viewer.sid, NAMESPACE, group)
        for members in self._members.values():
            members.discard(viewer.sid)
        if viewer.room is None or viewer.sid not in self._viewers:
            return
        seat = f"{viewer.room}/s{viewer.seat}" if viewer.seat is not None else f"{viewer.room}/pub"
        groups = [viewer.room, seat]
        for group in groups:
            manager.basic_enter_room(viewer.sid, NAMESPACE, group)
        self._groups[viewer.sid] = groups
        self._members.setdefault(viewer.room, set()).add(viewer.sid)

    def viewers(self, room: str) -> list[Viewer]:
        return [self._viewers[sid] for sid in self._members.get(room, ()) if sid in self._viewers]

    async def send_events(self, room: str, events: list[TableEvent]) -> None:
        """Queue a commit's events on every connection that may see them, in order.

        Each payload is serialised once per audience and the packets go straight onto the
        connections' Engine.IO queues: ``AsyncServer.emit`` would start a task per recipient and
        wait for them all, one round of the event loop per emit, which a busy loop turns into
        tens of milliseconds a commit."""
        seats = sorted({v.seat for v in self.viewers(room) if v.seat is not None})
        packets: list[tuple[str, Any]] = []  # (group, Engine.IO packet), in sending order
        for event in events:
            public = event.views[None] if event.views else None
            if event.kind != HAND or all(view == public for view in (event.views or {}).values()):
                # A table event, or a hand event every viewer sees alike (a bet, a board card).
                packets.append((room, self._packet(event_payload(room, event, None))))
                continue
            for seat in seats:
                packets.append((f"{room}/s{seat}", self._packet(event_payload(room, event, seat))))
            packets.append((f"{room}/pub", self._packet(event_payload(room, event, None))))
        manager, eio = self.sio.manager, self.sio.eio
        for group, packet in packets:
            # The recipients are read before sending: a send may find its connection gone and
            # run the disconnect handler, which changes the groups.
            for _sid, eio_sid in list(manager.get_participants(NAMESPACE, group)):
                try:
                    await eio.send_packet(eio_sid, packet)
                except SocketIsClosedError:  # closed as we send: it reconnects and resyncs
                    log.debug("an event for closed connection %s dropped", eio_sid)

    def _packet(self, payload: dict[str, Any]) -> Any:
        """The Engine.IO message of a Socket.IO ``event`` to the default namespace, as
        ``socketio.Packet(EVENT, data=["event", payload]).encode()`` writes it (the payload is
        plain JSON, no binary attachments)."""
        text = "2" + self.sio.packet_class.json.dumps(["event", payload], separators=(",", ":"))
        return engineio_packet.Packet(engineio_packet.MESSAGE, text)

    async def send_to(self, viewer: Viewer, kind: str, payload: dict[str, Any]) -> None:
        await self.sio.emit(kind, payload, to=viewer.sid)

    # -- handlers ----------------------------------------------------------------------------

    async def _connect(self, sid: str, environ: Any, auth: Any = None) -> None:
        self._viewers[sid] = Viewer(sid, RateLimit(self.clock()))

    async def _disconnect(self, sid: str, reason: Any = None) -> None:
        viewer = self._viewers.pop(sid, None)
        if viewer is not None:
            viewer.room = None
            self.place(viewer)

    async def _command(self, sid: str, data: Any = None) -> dict[str, Any]:
        viewer = self._viewers.get(sid)
        if viewer is None:
            return {"id": command_id(data), "ok": False, "error": "not connected"}
        if not viewer.limit.allow(self.clock()):
            return {"id": command_id(data), "ok": False,
                    "error": f"too many messages: at most {viewer.limit.rate:g} a second"}
        try:
            command = parse(data)
        except ProtocolError as error:
            return {"id": command_id(data), "ok": False, "error": str(error)}
        if command.type == "join":
            room_id = command.args["room"]
            room = self.rooms.get(room_id)
            if room is None:
                return {"id": command.id, "ok": False, "error": f"there is no room "
                                                                 f"{room_id[:40]!r}"}
            if viewer.room is not None and viewer.room != room_id:
                viewer.room, viewer.seat, viewer.player, viewer.host = None, None, None, False
                self.place(viewer)
            return await room.submit(viewer, command)
        if viewer.room is None or viewer.room not in self.rooms:
            return {"id": command.id, "ok": False, "error": "join a room first"}
        return await self.rooms[viewer.room].submit(viewer, command)

    async def _unknown(self, event: str, sid: str, *args: Any) -> None:
        await self.sio.emit("error", {"ok": False, "error": f"unknown event {event[:40]!r}: "
                                                            f"send commands as 'command'"},
                            to=sid)

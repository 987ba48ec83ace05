"""The socket.io side: connections, their audiences, and the ``command`` event.

Every connection is a ``Viewer``. A joined viewer belongs to exactly one audience of its room:
its seat's or the spectators'. A commit sends each audience one ``update`` (or two: a patch to
the connections that hold its last view, the whole view to those just come), encoded once and
queued for each of the audience's connections (``server.transport``: Socket.IO over
WebSockets), addressed to the connections by their ids as the room's actor counts them at that
moment: no socket.io room stands between the actor and who gets a seat's cards. Commands are
rate limited per connection and shape-checked here; everything else is the room actor's
business.

In a cluster (``server.cluster``) an update for connections on another worker goes to that
worker sealed (``router.deliver``), and a command for a room another worker runs goes to that
worker (``router``); the owner keeps a ``Viewer`` for each connection of its rooms wherever the
connection is (``forwarded``). A seat's update is addressed afresh at every push, so a message
Redis drops (a restart) cannot leave a connection in a seat's audience it has left: there is no
membership on another worker to go stale (docs/decisions.md, "Audiences addressed by
connection"). An update for connections all on this worker does not cross Redis.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from boardroom.server.encode import Fragment
from boardroom.server.protocol import (
    Command,
    ProtocolError,
    RateLimit,
    command_id,
    failure,
    parse,
)
from boardroom.server.room import Room
from boardroom.server.transport import Transport
from boardroom.server.viewer import Viewer

log = logging.getLogger("boardroom.server")


class Router(Protocol):
    """A cluster's way to the room another worker runs (``server.cluster.Cluster``)."""

    async def forward(self, viewer: Viewer, room: str, data: Any) -> dict[str, Any]: ...

    def note(self, viewer: Viewer, room: str, command: Command,
             answer: dict[str, Any]) -> None: ...

    def gone(self, viewer: Viewer, room: str) -> None: ...

    def disconnected(self, viewer: Viewer) -> None: ...

    async def deliver(self, viewers: list[Viewer], kind: str, payload: Any) -> bool: ...


class SocketHub:
    """The connections of every room, on one ``Transport``."""

    def __init__(self, rooms: Mapping[str, Room],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rooms = rooms
        self.clock = clock
        self.router: Router | None = None  # a cluster's; None: every room is here
        self.transport = Transport(self._connect, self._event, self._disconnect)
        self._viewers: dict[str, Viewer] = {}
        self._joined: dict[str, str] = {}  # sid -> the room whose audiences count it
        self._members: dict[str, set[str]] = {}  # room id -> sids

    # -- audiences ---------------------------------------------------------------------------

    async def place(self, viewer: Viewer) -> None:
        """Count ``viewer`` in its room's audiences (its seat's, or the spectators' when it has
        no seat: ``viewer.seat``), and in no other room's."""
        old = self._joined.pop(viewer.sid, None)
        if old is not None:
            self._members.get(old, set()).discard(viewer.sid)
        if viewer.room is not None and viewer.sid in self._viewers:
            self._joined[viewer.sid] = viewer.room
            self._members.setdefault(viewer.room, set()).add(viewer.sid)

    def viewers(self, room: str) -> list[Viewer]:
        return [self._viewers[sid] for sid in self._members.get(room, ()) if sid in self._viewers]

    async def push(self, room: str, updates: list[tuple[list[Viewer], Fragment]]) -> set[str]:
        """Send each update (JSON text: a ``Fragment``, sent as it is) to its connections (an
        audience's, or those of an audience that hold its last view), one ``emit`` per
        update; the connections it surely did not reach (on another worker, while Redis was
        unreachable)."""
        missed = await asyncio.gather(*(self._emit("update", payload, viewers)
                                        for viewers, payload in updates if viewers))
        return set().union(*missed)

    async def _emit(self, kind: str, payload: Any, viewers: list[Viewer]) -> set[str]:
        """``emit`` to exactly these connections. Those on this worker get it directly; those
        on another worker get it through that worker, sealed (``router.deliver``): a seat's
        update carries its hole cards."""
        here = [viewer.sid for viewer in viewers if viewer.origin is None]
        if here:
            self.transport.emit(kind, payload, here)
        elsewhere: dict[str, list[Viewer]] = {}
        for viewer in viewers:
            if viewer.origin is not None:
                elsewhere.setdefault(viewer.origin, []).append(viewer)
        if not elsewhere or self.router is None:
            return set()
        groups = list(elsewhere.values())
        heard = await asyncio.gather(*(self.router.deliver(group, kind, payload)
                                       for group in groups))
        return {viewer.sid for group, ok in zip(groups, heard, strict=True) if not ok
                for viewer in group}

    async def send_to(self, viewer: Viewer, kind: str, payload: dict[str, Any]) -> None:
        """A message for one connection (a new host's secret): to a connection on another
        worker it goes sealed (``router.deliver``), which no Redis subscriber reads."""
        if viewer.origin is not None and self.router is not None:
            await self.router.deliver([viewer], kind, payload)
        else:
            await self.deliver([viewer.sid], kind, payload)

    async def deliver(self, sids: list[str], kind: str, payload: Any) -> None:
        """Send ``payload`` to those of connections ``sids`` that are on this worker."""
        here = [sid for sid in sids if self.connection(sid) is not None]
        if here:
            self.transport.emit(kind, payload, here)

    # -- handlers ----------------------------------------------------------------------------

    def _connect(self, sid: str, auth: Any = None) -> None:
        self._viewers[sid] = Viewer(sid, RateLimit(self.clock()))

    async def _event(self, sid: str, event: str, args: list[Any]) -> dict[str, Any] | None:
        if event == "command":
            return await self._command(sid, args[0] if args else None)
        await self._unknown(event, sid, *args)
        return None

    async def _disconnect(self, sid: str) -> None:
        viewer = self._viewers.pop(sid, None)
        if viewer is not None:
            await self._leave(viewer)
            if self.router is not None:
                self.router.disconnected(viewer)

    async def _leave(self, viewer: Viewer) -> None:
        """``viewer`` leaves the room it joined (here, or another worker's)."""
        joined = viewer.room
        room = self.rooms.get(joined) if joined is not None else None
        viewer.room, viewer.seat, viewer.player, viewer.host = None, None, None, False
        await self.place(viewer)
        if room is not None:
            room.watchers_changed()
        elif joined is not None and self.router is not None and viewer.origin is None:
            self.router.gone(viewer, joined)

    async def forwarded(self, sid: str, origin: str, data: Any) -> dict[str, Any] | None:
        """A command of connection ``sid`` on worker ``origin``, for a room of this worker's
        (the origin checked its shape and rate); its answer, or None if the room is not here."""
        try:
            command = parse(data)
        except ProtocolError as error:
            return failure(command_id(data), "bad_command", str(error))
        viewer = self._viewers.get(sid)
        room_id = command.args["room"] if command.type == "join" else \
            viewer.room if viewer is not None else None
        room = self.rooms.get(room_id) if room_id is not None else None
        if room is None:
            return None
        if viewer is None:
            viewer = Viewer(sid, RateLimit(self.clock()), origin=origin)
            self._viewers[sid] = viewer
        elif command.type == "join" and viewer.room not in (None, room_id):
            await self._leave(viewer)
        return await room.submit(viewer, command)

    async def forget(self, sid: str, room: str) -> None:
        """Connection ``sid`` of another worker left ``room`` (or went away)."""
        viewer = self._viewers.get(sid)
        if viewer is not None and viewer.origin is not None and viewer.room == room:
            del self._viewers[sid]
            await self._leave(viewer)

    def drop(self, viewer: Viewer) -> None:
        """Forget a connection of another worker: its own worker joins it again where the room
        runs next (a room given up may already run elsewhere)."""
        self._viewers.pop(viewer.sid, None)
        old = self._joined.pop(viewer.sid, None)
        if old is not None:
            self._members.get(old, set()).discard(viewer.sid)

    def connection(self, sid: str) -> Viewer | None:
        """The viewer of connection ``sid`` if the connection is on this worker."""
        viewer = self._viewers.get(sid)
        return viewer if viewer is not None and viewer.origin is None else None

    def remote_viewers(self) -> list[Viewer]:
        """The viewers this worker keeps for connections on other workers."""
        return [viewer for viewer in self._viewers.values() if viewer.origin is not None]

    async def _command(self, sid: str, data: Any = None) -> dict[str, Any]:
        viewer = self._viewers.get(sid)
        if viewer is None:
            return failure(command_id(data), "not_joined", "not connected")
        if not viewer.limit.allow(self.clock()):
            return failure(command_id(data), "rate_limited",
                           f"too many messages: at most {viewer.limit.rate:g} a second")
        try:
            command = parse(data)
        except ProtocolError as error:
            return failure(command_id(data), "bad_command", str(error))
        if command.type == "join":
            room_id = command.args["room"]
            if viewer.room is not None and viewer.room != room_id:
                await self._leave(viewer)
        elif viewer.room is None:
            return failure(command.id, "not_joined", "join a room first")
        else:
            room_id = viewer.room
        room = self.rooms.get(room_id)
        if room is None and self.router is not None:
            return await self.router.forward(viewer, room_id, data)
        if room is None:
            if command.type == "join":
                return failure(command.id, "no_room", f"there is no room {room_id[:40]!r}")
            return failure(command.id, "not_joined", "join a room first")
        answer = await room.submit(viewer, command)
        if self.router is not None:
            self.router.note(viewer, room_id, command, answer)
        return answer

    async def _unknown(self, event: str, sid: str, *args: Any) -> None:
        viewer = self._viewers.get(sid)
        if viewer is None or not viewer.limit.allow(self.clock()):
            return  # over the rate: dropped unanswered, like any flood
        self.transport.emit("error", failure(None, "unknown_event", f"unknown event "
                                             f"{event[:40]!r}: send commands as 'command'"),
                            [sid])

"""A worker of a cluster: many ``boardroom serve`` processes on one PostgreSQL and one Redis.

Each room runs on exactly one worker at a time, the holder of its lease (``store.leases``):
every write of the room carries the lease's fencing token, so a worker paused or cut off past
its lease never writes the room again, and gives it up when a write is refused. Every worker
renews its leases each ``renew`` seconds from a thread and a database connection of its own
(``leases.Keeper``, while its event loop answers) and sweeps for open rooms nobody holds (a
stalled worker's, whose leases lapsed, or a killed one's, whose liveness lock is free), taking
its share of them; a taken room is restored from the store exactly as a restarted single server
restores it, and its bots play on where its actor runs.

Between workers (Redis, no broker of our own): each worker listens on a channel of its own
for the updates addressed to its connections by a room another worker runs (``realtime``: a
push names its connections) and for commands forwarded to it (a request with a correlation id,
answered on the asker's channel), and on one channel for the
whole cluster ("room taken", "room released"), every message on them sealed (``seal``: the
credentials they carry are readable by no Redis subscriber, and a copy is refused); and
keeps a key with its load (rooms, draining) that expires unless renewed, which is how the others
know it is alive. Every message a worker sends goes through one outbox, drained by one
publisher task in pipelines (a loaded worker's rooms all pushing at once once took a Redis
connection each, past redis-py's pool of 100: "Too many connections", and the updates were
lost); the messages of one round for one worker's channel are sealed together as one ``batch``
message when that worker says it reads them (its load key), never on the cluster's channel.

A command reaching a worker that does not run its room is forwarded to the worker that does; a
room nobody runs is taken by the worker the command reached. A worker told to stop drains: it
takes no more rooms, lets each room finish the command in hand (the store then holds all of
it), releases its leases and says so, and the others take the rooms at once.

The same way, a worker asked an HTTP question about a room another worker runs (the table as it
is now: ``server.reads``) or about a tournament another worker runs (``server.cluster_http``)
asks that worker. A tournament is one unit: one lease (``tournament:ID``) for its director and
every one of its tables (each with its own room lease too), taken over together and recovered
as a restarted single server recovers it; the sweep never takes one of its tables alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import secrets
import zlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

import redis.asyncio as aioredis

from boardroom.server.encode import Fragment
from boardroom.server.protocol import Command, failure, parse
from boardroom.server.reads import READS
from boardroom.server.realtime import SocketHub
from boardroom.server.room import Room
from boardroom.server.seal import Sealer, SealError
from boardroom.server.tournament import table_rooms
from boardroom.server.viewer import Viewer
from boardroom.store import RoomRow, Store, StoreError, TournamentRow, leases
from boardroom.store import tournament as tournament_row
from boardroom.table import TableSettings
from boardroom.tournament import TournamentConfig

if TYPE_CHECKING:
    from boardroom.server.tournament import TournamentHost

class Server(Protocol):
    """What a worker's cluster part needs of its server (``app.Server`` is one)."""

    rooms: dict[str, Room]
    tournaments: dict[str, TournamentHost]
    hub: SocketHub
    # Runs an HTTP request (as ``cluster_http`` packs it) through this worker's own app.
    http_answer: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None

    @property
    def store(self) -> Store: ...

    async def restore_many(self, rows: Sequence[RoomRow]) -> list[Room]: ...

    async def create_local_room(self, settings: TableSettings) -> tuple[str, str]: ...

    def runs_tournament(self, tournament_id: str) -> bool: ...

    def tournament_from_row(self, row: TournamentRow) -> TournamentHost: ...

    async def start_tournament(self, host: TournamentHost) -> None: ...

    async def create_local_tournament(self, config: TournamentConfig, name: str, *,
                                      action_clock: float) -> tuple[TournamentHost, str]: ...

log = logging.getLogger("boardroom.cluster")

BROADCAST = "boardroom:cluster"
FORWARD_TIMEOUT = 5.0  # seconds a forwarded command waits for the owner's answer
ROUTE_TIMEOUT = 8.0  # seconds a command may spend finding its room's owner (a failover)
ADOPT_BATCH = 100  # orphans taken together: one lease statement and four reads for them all
ADOPT_AT_ONCE = 2  # batches under way at once (each holds a database connection or two)
AUDIT_SECONDS = 5.0  # how often an owner checks the other workers' connections it keeps
PUBLISH_AT_ONCE = 256  # messages the publisher takes from the outbox for one pipeline
OUTBOX_LIMIT = 20_000  # messages waiting past which a send is refused (Redis stuck)
STOP_WAIT = 10.0  # seconds a drain waits for its loops and its work in hand to end

Routed = Literal["here", "there", "no_room", "unavailable"]

def worker_channel(worker: str) -> str:
    return f"boardroom:worker:{worker}"

def load_key(worker: str) -> str:
    return f"boardroom:load:{worker}"

class Cluster:
    """This worker's part in the cluster: leases, forwarding, take-overs and the drain."""

    def __init__(self, server: Server, url: str, worker_id: str, *,
                 lease: float = leases.LEASE_SECONDS,
                 renew: float = leases.RENEW_SECONDS, secret: bytes | None = None) -> None:
        self.server = server
        # the cluster's shared secret (None: a worker alone, as in some tests)
        self.sealer = Sealer(secret if secret is not None else secrets.token_bytes(32))
        self.id = worker_id
        self.url = url
        self.lease = lease
        self.renew = renew
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=5,
                                                            socket_connect_timeout=5)
        self.draining = False
        self.live: dict[str, dict[str, Any]] = {}  # worker -> its load, as of the last sweep
        self.owners: dict[str, str] = {}  # room -> the worker running it, as last heard
        self.joins: dict[str, dict[str, Any]] = {}  # sid -> how it joined (to join again)
        self.tournament_of: dict[str, str] = {}  # table room run here -> its tournament
        self._pending: dict[str, asyncio.Future[Any]] = {}
        # Every message sent, in order, for the one publisher task (``_publish``); each with
        # the future told how many workers heard it.
        self._outbox: deque[tuple[str, dict[str, Any], asyncio.Future[int]]] = deque()
        self._wake = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._ids = itertools.count(1)
        self._seen_orphans: set[str] = set()
        self._moved: set[tuple[str, str | None]] = set()  # (sid, room) elsewhere at the last audit
        self._forwarding: dict[str, str] = {}  # sid -> the room its command is on its way to
        self._missing: dict[str, float] = {}  # worker -> when its load key was first missed
        self._timings: dict[str, float] = {}  # seconds of each step of the sweep's adoptions
        # Leases taken and not yet run under (a room being restored, a tournament's tables
        # being gathered): renewed like the others from the moment they are taken, so a slow
        # restore never lets one lapse. A key gone from here was lost meanwhile.
        self._taking: dict[str, int] = {}
        # Renews the leases from a thread and a database connection of its own, and holds this
        # worker's liveness lock (``leases.Keeper``): started with the worker.
        self.keeper: leases.Keeper | None = None
        # Workers whose processes ended (their liveness locks free) while their leases live
        # on, as of the last sweep, and as of the one before: a worker's rooms are taken once
        # two sweeps in a row found it gone (a live worker's keeper that lost its connection
        # takes its lock again within a renewal). Only a worker once seen holding its lock is
        # judged so: one of an earlier release (a rolling upgrade) holds none, and its leases
        # lapse as before.
        self.ended: set[str] = set()
        self._ended_before: set[str] = set()
        self._seen_locked: set[str] = set()

    # -- life --------------------------------------------------------------------------------

    async def start(self) -> None:
        self.keeper = leases.Keeper(self.server.store.engine.url, self.id, lease=self.lease,
                                    renew=self.renew, loop=asyncio.get_running_loop(),
                                    held=self._held, renewed=self._renewed)
        self.keeper.start()
        if not await asyncio.to_thread(self.keeper.alive.wait, 4 * self.lease):
            log.warning("worker %s: its lease keeper has not taken its liveness lock yet",
                        self.id)
        self._loops = [asyncio.create_task(self._listen(), name="cluster-listen"),
                       asyncio.create_task(self._every_renewal(self._renew),
                                           name="cluster-renew"),
                       asyncio.create_task(self._every_renewal(self._sweep),
                                           name="cluster-sweep"),
                       asyncio.create_task(self._every_renewal(self._audit, AUDIT_SECONDS),
                                           name="cluster-audit"),
                       asyncio.create_task(self._every_renewal(self._sweep_tournaments),
                                           name="cluster-sweep-tournaments")]

    async def stop(self) -> None:
        """Drain: take no more rooms, hand every room over, then stop listening."""
        self.draining = True
        await self._publish_load()
        for tournament_id in list(self.server.tournaments):  # each with all its tables
            await self.give_up_tournament(tournament_id, release=True)
        for room_id in list(self.server.rooms):
            await self.give_up(room_id, release=True)
        for task in self._loops:
            task.cancel()
        await end_tasks([*self._loops, *self._tasks], self.id)
        if self._publisher is not None:  # everything sent above is published by now
            self._publisher.cancel()
            await end_tasks([self._publisher], self.id)
        if self.keeper is not None:
            await self.keeper.stop()
        with contextlib.suppress(Exception):
            await self.redis.delete(load_key(self.id))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def health(self) -> dict[str, Any]:
        """What the health route adds for a worker: its id, its rooms (each restored one,
        running or starting) with the version and hand number of each one running, its
        tournaments, whether it is draining, its longest gap between two renewals of its leases
        and the longest its event loop took to answer the lease keeper."""
        return {"worker": self.id, "room_ids": sorted(self.server.rooms),
                "progress": {room_id: [room.table.version, room.table.hand_no]
                             for room_id, room in self.server.rooms.items() if room.running},
                "tournament_ids": sorted(t for t, host in self.server.tournaments.items()
                                         if host.lease is not None),
                "draining": self.draining, "renewal_gap": round(self.renewal_gap, 3),
                "loop_lag": round(self.keeper.lag if self.keeper else 0.0, 3)}

    @property
    def renewal_gap(self) -> float:
        """The longest time between two renewals of this worker's leases."""
        return self.keeper.gap if self.keeper is not None else 0.0

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- messages ----------------------------------------------------------------------------

    async def _send(self, channel: str, message: dict[str, Any]) -> int:
        """Publish ``message`` (through the outbox, after every message sent before it); how
        many workers heard it (0 when Redis is unreachable)."""
        if len(self._outbox) >= OUTBOX_LIMIT:
            log.warning("cannot publish to Redis: %d messages are waiting", len(self._outbox))
            return 0
        heard: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, heard))
        self._wake.set()
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.create_task(self._publish(), name="cluster-publish")
        return await heard

    async def _publish(self) -> None:
        """The one publisher: take what the outbox holds, seal it (``_packets``) and publish
        it in one pipeline, answer each sender, and again, in order."""
        while True:
            if not self._outbox:
                self._wake.clear()
                await self._wake.wait()
            taken = [self._outbox.popleft()
                     for _ in range(min(len(self._outbox), PUBLISH_AT_ONCE))]
            try:
                packets = self._packets(taken)
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text, _ in packets:
                        pipe.publish(channel, text)
                    counts = await pipe.execute()
                for (_, _, waiting), count in zip(packets, counts, strict=True):
                    for heard in waiting:
                        if not heard.done():
                            heard.set_result(count if isinstance(count, int) else 0)
            except (aioredis.RedisError, OSError) as error:
                log.warning("cannot publish to Redis: %s", error)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the publisher must outlive any one failure
                log.warning("worker %s: cannot publish: %s", self.id, type(error).__name__)
            finally:
                for _, _, heard in taken:  # not published: nobody heard
                    if not heard.done():
                        heard.set_result(0)

    def _packets(self, taken: list[tuple[str, dict[str, Any], asyncio.Future[int]]],
                 ) -> list[tuple[str, str, list[asyncio.Future[int]]]]:
        """``taken`` sealed for publishing, as (channel, sealed text, its senders' futures):
        the messages for one worker that reads batches (its load says so) as one ``batch``,
        in the order they were sent; every other message alone (the cluster's channel, a
        worker of an earlier release)."""
        batching = {worker_channel(worker) for worker, load in self.live.items()
                    if load.get("batch")}
        groups: dict[str, list[tuple[dict[str, Any], asyncio.Future[int]]]] = {}
        order: list[tuple[str, list[tuple[dict[str, Any], asyncio.Future[int]]]]] = []
        for channel, message, heard in taken:
            group = groups.get(channel) if channel in batching else None
            if group is None:
                group = [(message, heard)]
                order.append((channel, group))
                if channel in batching:
                    groups[channel] = group
            else:
                group.append((message, heard))
        packets = []
        for channel, group in order:
            if len(group) > 1:
                with contextlib.suppress(Exception):  # else each alone: one bad message
                    packets.append((channel, self.sealer.seal(channel, {
                        "op": "batch", "messages": [item for item, _ in group]}),
                        [heard for _, heard in group]))
                    continue
            for message, heard in group:
                try:
                    packets.append((channel, self.sealer.seal(channel, message), [heard]))
                except Exception as error:  # its sender gets the error, as it did unqueued
                    if not heard.done():
                        heard.set_exception(error)
        return packets

    async def _request(self, worker: str, message: dict[str, Any]) -> Any:
        """Ask ``worker``; its reply, or None if nobody heard or it did not answer in time."""
        cid = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[cid] = future
        try:
            if not await self._send(worker_channel(worker),
                                    {**message, "cid": cid, "reply_to": self.id}):
                return None
            async with asyncio.timeout(FORWARD_TIMEOUT):
                return await future
        except TimeoutError:
            return None
        finally:
            self._pending.pop(cid, None)

    async def _listen(self) -> None:
        """Read this worker's channel and the cluster's, reconnecting to Redis as needed."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(worker_channel(self.id), BROADCAST)
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._receive(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError) as error:
                log.warning("lost Redis (%s): reconnecting", error)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    def _receive(self, channel: bytes | str, data: bytes | str) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        try:
            message = self.sealer.open(name, data)
        except SealError as error:  # not a worker of this cluster's, or a replay
            log.warning("worker %s: dropped a message on %s: %s", self.id, name, error)
            return
        self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "batch":  # several messages sealed together, in the order they were sent
            for item in message.get("messages", ()):
                if isinstance(item, dict):
                    self._dispatch(item)
        elif op == "reply":
            future = self._pending.get(message.get("cid", ""))
            if future is not None and not future.done():
                future.set_result(message.get("body"))
        elif op == "command":
            self._spawn(self._serve_command(message))
        elif op == "read":
            self._spawn(self._serve_read(message))
        elif op == "tournament":
            self._spawn(self._serve_tournament(message))
        elif op == "create":
            self._spawn(self._serve_create(message))
        elif op == "deliver":
            payload = (Fragment(message["fragment"]) if "fragment" in message
                       else message["payload"])
            self._spawn(self.server.hub.deliver(list(message["sids"]), message["kind"],
                                                payload))
        elif op == "create_tournament":
            self._spawn(self._serve_create_tournament(message))
        elif op == "gone":
            self._spawn(self.server.hub.forget(message["sid"], message["room"]))
        elif op == "audit":
            self._spawn(self._serve_audit(message))
        elif op == "taken":  # a worker of an earlier release: one room a message
            self._spawn(self._on_taken(message["room"], message["owner"]))
        elif op == "took":
            for room_id in message["rooms"]:
                self._spawn(self._on_taken(room_id, message["owner"]))
        elif op == "released" and not self.draining:
            self._spawn(self._adopt_if_free(message["room"]))
        elif op == "released_tournament" and not self.draining:
            self._spawn(self._adopt_if_free(message["tournament"], tournament=True))

    async def _reply(self, message: dict[str, Any], body: Any) -> None:
        await self._send(worker_channel(message["reply_to"]),
                         {"op": "reply", "cid": message["cid"], "body": body})

    async def _serve_command(self, message: dict[str, Any]) -> None:
        answer = await self.server.hub.forwarded(message["sid"], message["reply_to"],
                                                 message["data"])
        await self._reply(message, {"here": answer is not None, "answer": answer})

    async def _serve_audit(self, message: dict[str, Any]) -> None:
        """Which of the connections asked about are still on this worker, and in which room."""
        hub = self.server.hub
        here = {sid: self._forwarding.get(sid, viewer.room) for sid in message.get("sids", ())
                if (viewer := hub.connection(sid)) is not None}
        await self._reply(message, {"rooms": here})

    async def _serve_read(self, message: dict[str, Any]) -> None:
        room = self.server.rooms.get(message.get("room", ""))
        read = READS.get(message.get("what", ""))
        if room is None or not room.running or read is None:
            await self._reply(message, {"here": False})
            return
        await self._reply(message, {"here": True, "answer": await read(room)})

    async def _serve_create(self, message: dict[str, Any]) -> None:
        if self.draining:
            await self._reply(message, None)
            return
        room_id, secret = await self.create_here(TableSettings.from_dict(message["settings"]))
        await self._reply(message, {"room": room_id, "host_secret": secret})

    async def _serve_create_tournament(self, message: dict[str, Any]) -> None:
        if self.draining:
            await self._reply(message, None)
            return
        host, secret = await self.server.create_local_tournament(
            TournamentConfig.from_dict(message["config"]), str(message["name"]),
            action_clock=float(message["action_clock"]))
        await self._reply(message, {"tournament": host.id, "host_secret": secret})

    # -- routing -----------------------------------------------------------------------------

    async def owner(self, room_id: str) -> str | None:
        """The worker running ``room_id`` now, as the lease says; None: nobody."""
        if room_id in self.server.rooms:
            return self.id
        held = await leases.holder(self.server.store, room_id)
        if held is None:
            self.owners.pop(room_id, None)
            return None
        self.owners[room_id] = held[0]
        return held[0]

    async def _route(self, key: str, here: Callable[[], Awaitable[Any] | None],
                     message: dict[str, Any], *, is_open: Callable[[], Awaitable[bool]],
                     adopt: Callable[[], Awaitable[bool]]) -> tuple[Routed, Any]:
        """Find the worker holding lease ``key`` (a room's, a tournament's) and have it answer:
        ``here()`` when this worker runs it (None otherwise), else ``message`` sent to the
        worker that does; one nobody runs is taken over here (``adopt``) if ``is_open``.
        ``("here" or "there", answer)``, ``("no_room", None)`` when there is nothing open to
        run, ``("unavailable", None)`` if no worker answered in time."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ROUTE_TIMEOUT
        while loop.time() < deadline:
            local = here()
            if local is not None:
                return "here", await local
            try:
                owner = self.owners.get(key) or await self.owner(key)
                if owner is None:
                    if not await is_open():
                        return "no_room", None
                    if not self.draining and await adopt():
                        continue
                    await asyncio.sleep(0.25)
                    continue
            except StoreError as error:
                log.warning("%s: cannot find its worker: %s", key, error)
                await asyncio.sleep(0.25)
                continue
            if owner == self.id:  # we gave it up a moment ago: ask the lease again
                self.owners.pop(key, None)
                await asyncio.sleep(0.1)
                continue
            reply = await self._request(owner, message)
            if reply is None or not reply.get("here"):
                self.owners.pop(key, None)  # gone or moved on: ask the lease again
                await asyncio.sleep(0.1 if reply is not None else 0.25)
                continue
            return "there", reply["answer"]
        return "unavailable", None

    async def _route_room(self, room_id: str, here: Callable[[Room], Awaitable[Any]],
                          message: dict[str, Any]) -> tuple[Routed, Any]:
        """``_route`` for a room: ``here(room)`` where it runs, else ``message`` to its
        worker."""
        def run_here() -> Awaitable[Any] | None:
            room = self.server.rooms.get(room_id)
            return here(room) if room is not None and room.running else None

        async def is_open() -> bool:
            row = await self.server.store.room(room_id)
            return row is not None and not row.closed

        return await self._route(room_id, run_here, message, is_open=is_open,
                                 adopt=lambda: self.adopt(room_id))

    async def forward(self, viewer: Viewer, room_id: str, data: Any) -> dict[str, Any]:
        """Take ``viewer``'s command to the worker running ``room_id`` (taking the room over if
        nobody does) and bring its answer back."""
        self._forwarding[viewer.sid] = room_id  # an audit meanwhile: it is joining that room
        try:
            return await self._forward(viewer, room_id, data)
        finally:
            self._forwarding.pop(viewer.sid, None)

    async def _forward(self, viewer: Viewer, room_id: str, data: Any) -> dict[str, Any]:
        command = parse(data)  # the hub parsed it already: it is well formed
        where, answer = await self._route_room(
            room_id, lambda room: room.submit(viewer, command),
            {"op": "command", "sid": viewer.sid, "data": data})
        if where == "no_room":
            return failure(command.id, "no_room", f"there is no room {room_id[:40]!r}")
        if where == "unavailable":
            return failure(command.id, "unavailable",
                           "the room's server is not answering: try again in a moment")
        self.note(viewer, room_id, command, answer)
        return dict(answer)

    async def read(self, room_id: str, what: str) -> Any:
        """What the worker running ``room_id`` answers to ``what`` (``reads.READS``: an HTTP
        route's answer); None if there is no open room ``room_id``. Raises ``StoreError``
        when no worker answers in time."""
        where, answer = await self._route_room(room_id, READS[what],
                                          {"op": "read", "room": room_id, "what": what})
        if where == "unavailable":
            raise StoreError("the room's server is not answering: try again in a moment")
        return answer

    def note(self, viewer: Viewer, room_id: str, command: Command,
             answer: dict[str, Any]) -> None:
        """Remember how a connection of this worker joined, to join it again when its room
        moves to another worker: its role, name, host secret and seat token."""
        if viewer.origin is not None or not answer.get("ok"):
            return
        if command.type == "join":
            viewer.room = room_id
            self.joins[viewer.sid] = dict(command.args)
        elif command.type == "sit" and "token" in answer and viewer.sid in self.joins:
            self.joins[viewer.sid]["token"] = answer["token"]
        elif command.type == "leave" and viewer.sid in self.joins:
            self.joins[viewer.sid].pop("token", None)

    async def deliver(self, viewers: list[Viewer], kind: str, payload: Any) -> bool:
        """Send a message for connections of another worker (``viewers``, all of one
        ``origin``) there, sealed like every message of this worker's. A ``Fragment`` (an
        update's JSON text) travels as its text and is sent on as it is. False: no worker
        heard it (Redis unreachable, or that worker's subscription down)."""
        origin = viewers[0].origin if viewers else None
        if origin is None:
            return True
        body: dict[str, Any] = {"op": "deliver", "sids": [v.sid for v in viewers], "kind": kind}
        if isinstance(payload, Fragment):
            body["fragment"] = str(payload)
        else:
            body["payload"] = payload
        return await self._send(worker_channel(origin), body) > 0

    def disconnected(self, viewer: Viewer) -> None:
        """A connection of this worker went away: nothing to join again for it."""
        self.joins.pop(viewer.sid, None)

    def gone(self, viewer: Viewer, room_id: str) -> None:
        """A connection of this worker left a room another worker runs."""
        self.joins.pop(viewer.sid, None)
        owner = self.owners.get(room_id)
        if owner is not None and owner != self.id:
            self._spawn(self._send(worker_channel(owner), {"op": "gone", "sid": viewer.sid,
                                                           "room": room_id}))

    async def _rejoin(self, room_id: str) -> None:
        """Join this worker's connections of ``room_id`` again, at the worker running it now
        (which addresses its pushes to them from then on). Their next update shows a version
        gap if they missed any: they ask for a snapshot, as after any reconnect."""
        hub = self.server.hub
        for viewer in list(hub._viewers.values()):
            args = self.joins.get(viewer.sid)
            if viewer.origin is not None or viewer.room != room_id or args is None:
                continue
            if room_id in self.server.rooms and viewer in hub.viewers(room_id):
                continue  # joined here already
            for drop in (None, "token", "host_secret"):
                if drop is not None:
                    args.pop(drop, None)
                answer = await self.forward(viewer, room_id, {
                    "id": f"rejoin-{next(self._ids)}", "type": "join", **args})
                if answer.get("ok") or answer.get("code") not in ("bad_seat_token",
                                                                  "bad_host_secret"):
                    break

    # -- rooms -------------------------------------------------------------------------------

    async def adopt(self, room_id: str) -> bool:
        """Take ``room_id``'s lease if nobody holds it and run the room here, restored from the
        store as a restarted server restores it; whether this worker runs it now."""
        await self.adopt_many([room_id])
        return room_id in self.server.rooms

    async def adopt_many(self, room_ids: Collection[str]) -> int:
        """``adopt`` for many rooms: in batches of ``ADOPT_BATCH``, ``ADOPT_AT_ONCE`` batches
        under way together; how many rooms this worker took."""
        wanted = sorted(set(room_ids) - set(self.server.rooms))
        batches = [wanted[at:at + ADOPT_BATCH] for at in range(0, len(wanted), ADOPT_BATCH)]
        limit = asyncio.Semaphore(ADOPT_AT_ONCE)

        async def one(batch: list[str]) -> int:
            async with limit:
                return await self._adopt_batch(batch)

        return sum(await asyncio.gather(*(one(batch) for batch in batches)))

    async def _adopt_batch(self, room_ids: list[str]) -> int:
        if self.draining:
            return 0
        store = self.server.store
        clock = self._clocked()
        tokens = await leases.take_many(store, room_ids, self.id, self.lease, gone=self.ended)
        clock("leases")
        if not tokens:
            return 0
        self._taking.update(tokens)
        restored: list[Room] = []
        try:
            rows = await store.rooms(include_closed=True, ids=list(tokens))
            clock("reads")
            rows = [row for row in rows if not row.closed and row.id not in self.server.rooms]
            # a tournament's table runs with its tournament, never alone
            tournaments = sorted({row.tournament for row in rows if row.tournament})
            rows = [row for row in rows if not row.tournament]
            try:
                restored = await self.server.restore_many(rows)
            except Exception:
                if len(rows) < 2:
                    raise
                restored = await self._restore_each(rows)  # one bad room stops no other
            clock("restores")
            lost = [room for room in restored if self._taking.get(room.id) != tokens[room.id]]
            for room in lost:  # its lease lapsed while it was restored: another may run it
                self.server.rooms.pop(room.id, None)
                log.warning("worker %s: lost room %s while restoring it", self.id, room.id)
            restored = [room for room in restored if room not in lost]
            for room in restored:
                self.run(room, tokens[room.id])
                log.info("worker %s: took room %s (lease %d)", self.id, room.id,
                         tokens[room.id])
        finally:
            for room_id in tokens:
                self._taking.pop(room_id, None)
            running = {room.id for room in restored}
            for room_id, token in tokens.items():  # taken, not run (closed, gone, a failure):
                if room_id not in running:  # free at once for another
                    with contextlib.suppress(StoreError):
                        await leases.release(store, room_id, self.id, token)
        if restored:  # one message for the batch
            await self._send(BROADCAST, {"op": "took", "rooms": [room.id for room in restored],
                                         "owner": self.id})
        for room in restored:
            self._spawn(self._rejoin(room.id))
        clock("starts")
        taken = len(restored)
        for tournament_id in tournaments:
            if await self.adopt_tournament(tournament_id):
                taken += sum(self.tournament_of.get(room_id) == tournament_id
                             for room_id in room_ids)
        return taken

    def _clocked(self) -> Callable[[str], None]:
        """A stopwatch for one batch's steps: each call adds the seconds since the last to
        ``_timings[name]`` (the batches under way at once add up: CPU and waits alike)."""
        loop = asyncio.get_running_loop()
        last = loop.time()

        def lap(name: str) -> None:
            nonlocal last
            now = loop.time()
            self._timings[name] = self._timings.get(name, 0.0) + now - last
            last = now

        return lap

    async def _restore_each(self, rows: list[RoomRow]) -> list[Room]:
        restored = []
        for row in rows:
            try:
                restored += await self.server.restore_many([row])
            except Exception as error:
                # the type only: the error's text may quote the stored state, dealt cards and all
                log.warning("worker %s: cannot restore room %s (%s)", self.id, row.id,
                            type(error).__name__)
        return restored

    def run(self, room: Room, token: int, *, tournament: str | None = None) -> None:
        """Start ``room`` here under the lease ``token`` (a table of ``tournament``: one lost
        lease gives up the whole tournament)."""
        room.lease = token
        room.on_lost = lambda lost: self._spawn(self._lost(lost.id))
        self.owners[room.id] = self.id
        if tournament is not None:
            self.tournament_of[room.id] = tournament
        room.start()

    async def _adopt_if_free(self, key: str, *, tournament: bool = False) -> None:
        with contextlib.suppress(StoreError):
            await (self.adopt_tournament(key) if tournament else self.adopt(key))

    async def give_up(self, room_id: str, *, release: bool = False) -> None:
        """Stop running ``room_id`` here. Its connections here lose their place in it and join
        it again where it runs next; other workers' connections are forgotten (their workers
        join them again). ``release``: a clean hand-over (the drain): the room finishes the
        command in hand, and its lease is released so another worker takes it at once."""
        room = self.server.rooms.get(room_id)
        if room is None:
            return
        if release:
            await room.finish()
        else:
            await room.stop()
        self.server.rooms.pop(room_id, None)
        self.owners.pop(room_id, None)
        self.tournament_of.pop(room_id, None)
        hub = self.server.hub
        for viewer in hub.viewers(room_id):
            if viewer.origin is not None:
                hub.drop(viewer)  # its worker joins it again where the room runs next
                continue
            viewer.seat, viewer.player, viewer.host = None, None, False
            viewer.room = None
            await hub.place(viewer)  # out of the room's audiences
            viewer.room = room_id  # to join it again where it runs next
        if release and room.lease is not None:
            with contextlib.suppress(StoreError):
                await leases.release(self.server.store, room_id, self.id, room.lease)
            await self._send(BROADCAST, {"op": "released", "room": room_id})
            log.warning("worker %s: handed room %s over (draining)", self.id, room_id)
        else:
            log.warning("worker %s: gave room %s up (its lease was taken)", self.id, room_id)
            self._spawn(self._rejoin(room_id))

    async def _on_taken(self, room_id: str, owner: str) -> None:
        self.owners[room_id] = owner
        if owner != self.id:
            if room_id in self.server.rooms:  # another took it: this worker's lease lapsed
                await self._lost(room_id)
            else:
                await self._rejoin(room_id)

    @contextlib.asynccontextmanager
    async def taking(self, key: str) -> AsyncIterator[int | None]:
        """A new room's lease (``key``), renewed from the moment it is taken while the caller
        stores the room and runs it (``run``); its token, or None if another worker holds it."""
        token = await leases.take(self.server.store, key, self.id, self.lease)
        if token is not None:
            self._taking[key] = token
        try:
            yield token
        finally:
            if token is not None and self._taking.get(key) == token:
                del self._taking[key]

    async def create_here(self, settings: TableSettings) -> tuple[str, str]:
        """A new room run by this worker (the caller chose it)."""
        return await self.server.create_local_room(settings)

    async def create_room(self, settings: TableSettings) -> tuple[str, str]:
        """A new room, on the least-loaded live worker that is not draining."""
        reply = await self._place({"op": "create", "settings": settings.to_dict()}, "rooms")
        if reply:
            return str(reply["room"]), str(reply["host_secret"])
        return await self.create_here(settings)

    async def place_tournament(self, config: TournamentConfig, name: str, *,
                               action_clock: float) -> tuple[str, str] | None:
        """A new tournament on the least-loaded live worker that is not draining, when that is
        another worker: its id and host secret; None: make it here."""
        reply = await self._place({"op": "create_tournament", "config": config.to_dict(),
                                   "name": name, "action_clock": action_clock}, "tournaments")
        return (str(reply["tournament"]), str(reply["host_secret"])) if reply else None

    def _load(self) -> dict[str, Any]:
        """This worker's load as it tells the others: its rooms (a tournament's tables among
        them), the tournaments it runs, whether it is draining, and that it reads batches."""
        return {"rooms": len(self.server.rooms),
                "tournaments": sum(host.lease is not None
                                   for host in self.server.tournaments.values()),
                "draining": self.draining,
                "batch": True}  # it reads "batch" messages (an earlier release does not)

    async def _place(self, message: dict[str, Any], counted: str) -> Any:
        """Send ``message`` (a "create") to the least-loaded live worker that is not draining
        (rooms and tournaments counted alike; this worker on a tie) and its reply; None when
        this worker is the one, or the other did not answer (then it is made here). The
        worker chosen counts one more of ``counted`` until its next word, so a burst of new
        rooms spreads."""
        candidates = {worker: load for worker, load in self.live.items()
                      if not load.get("draining")}
        if not self.draining:
            candidates[self.id] = self._load()
        target = min(candidates, key=lambda w: (candidates[w].get("rooms", 0)
                                                + candidates[w].get("tournaments", 0),
                                                w != self.id, w), default=self.id)
        if target == self.id:
            return None
        reply = await self._request(target, message)
        if reply:
            load = self.live.setdefault(target, {})
            load[counted] = load.get(counted, 0) + 1
        return reply

    # -- tournaments -------------------------------------------------------------------------

    async def ask_tournament(self, tournament_id: str,
                             request: dict[str, Any]) -> dict[str, Any] | None:
        """The answer of the worker running ``tournament_id`` to an HTTP ``request``
        (``cluster_http``), taking the tournament over if nobody runs it; None when there is
        no tournament to run (none, or a finished one). Raises ``StoreError`` when no worker
        answers in time."""
        server = self.server

        def here() -> Awaitable[Any] | None:
            answer = server.http_answer
            return answer(request) if server.runs_tournament(tournament_id) and \
                answer is not None else None

        async def is_open() -> bool:
            row = await tournament_row(server.store, tournament_id)
            return row is not None and not row.finished

        where, answer = await self._route(
            leases.tournament_key(tournament_id), here,
            {"op": "tournament", "tournament": tournament_id, "request": request},
            is_open=is_open, adopt=lambda: self.adopt_tournament(tournament_id))
        if where == "unavailable":
            raise StoreError("the tournament's server is not answering: try again in a moment")
        return None if where == "no_room" else dict(answer)

    async def _serve_tournament(self, message: dict[str, Any]) -> None:
        host = self.server.tournaments.get(message.get("tournament", ""))
        answer = self.server.http_answer
        if host is None or host.lease is None or answer is None:
            await self._reply(message, {"here": False})
            return
        await self._reply(message, {"here": True, "answer": await answer(message["request"])})

    async def adopt_tournament(self, tournament_id: str) -> bool:
        """Take ``tournament_id``'s lease if nobody holds it, then the leases of its open
        tables (a lapsing owner's may take up to a lease to run out), and run it all here:
        the tables restored from the store, the director from its row, recovered as after a
        restart (the level clock resumes with the time it had left). Whether it runs here."""
        server = self.server
        if self.draining or server.runs_tournament(tournament_id):
            return server.runs_tournament(tournament_id)
        key = leases.tournament_key(tournament_id)
        token = await leases.take(server.store, key, self.id, self.lease, gone=self.ended)
        if token is None:
            return False
        taken: dict[str, int] = {}
        self._taking[key] = token
        try:
            return await self._adopt_tournament(tournament_id, key, token, taken)
        finally:
            for held in (key, *taken):
                self._taking.pop(held, None)

    async def _adopt_tournament(self, tournament_id: str, key: str, token: int,
                                taken: dict[str, int]) -> bool:
        """``adopt_tournament`` once its lease is taken (``token``), gathering its tables'
        leases in ``taken``."""
        server = self.server
        try:
            row = await tournament_row(server.store, tournament_id)
            ids = [] if row is None or row.finished else table_rooms(row.state)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.lease + 4 * self.renew
            for room_id in ids:
                while room_id not in taken:
                    got = await leases.take(server.store, room_id, self.id, self.lease,
                                            gone=self.ended)
                    if got is not None:
                        taken[room_id] = self._taking[room_id] = got
                    elif loop.time() > deadline:
                        raise StoreError(f"room {room_id} is held by another worker")
                    else:
                        await asyncio.sleep(0.25)
            rows = [await server.store.room(room_id) for room_id in ids]  # read once held
            if any(self._taking.get(held) != got
                   for held, got in [(key, token), *taken.items()]):
                raise StoreError("a lease lapsed while the tournament was taken over")
        except BaseException as error:
            with contextlib.suppress(StoreError):
                for room_id, held in taken.items():
                    await leases.release(server.store, room_id, self.id, held)
                await leases.release(server.store, key, self.id, token)
            if isinstance(error, StoreError):
                log.warning("worker %s: cannot take tournament %s: %s", self.id,
                            tournament_id, error)
                return False
            raise
        if row is None or row.finished:
            with contextlib.suppress(StoreError):
                await leases.release(server.store, key, self.id, token)
            return False
        host = server.tournament_from_row(row)
        host.lease = token
        rooms = []
        for room_row in rows:
            if room_row is None or room_row.closed:
                if room_row is not None:
                    with contextlib.suppress(StoreError):
                        await leases.release(server.store, room_row.id, self.id,
                                             taken[room_row.id])
                continue
            (room,) = await server.restore_many([room_row])
            room.listener = host.listen  # before its bots play on
            self.run(room, taken[room_row.id], tournament=tournament_id)
            rooms.append(room)
        await server.start_tournament(host)
        log.info("worker %s: took tournament %s (lease %d) with %d tables", self.id,
                 tournament_id, token, len(rooms))
        if rooms:
            await self._send(BROADCAST, {"op": "took", "rooms": [room.id for room in rooms],
                                         "owner": self.id})
        for room in rooms:
            self._spawn(self._rejoin(room.id))
        return True

    async def give_up_tournament(self, tournament_id: str, *, release: bool = False) -> None:
        """Stop running ``tournament_id`` here, its director and every one of its tables
        (``give_up``, ``release`` as there); with ``release`` (the drain) its lease is
        released and the other workers told, so one takes it at once."""
        host = self.server.tournaments.pop(tournament_id, None)
        if host is None:
            return
        await (host.finish() if release else host.stop())  # a drain: its work in hand done
        for room_id in [r for r, t in self.tournament_of.items() if t == tournament_id]:
            del self.tournament_of[room_id]
            await self.give_up(room_id, release=release)
        if host.lease is None:
            return
        if release:
            with contextlib.suppress(StoreError):
                await leases.release(self.server.store, leases.tournament_key(tournament_id),
                                     self.id, host.lease)
            await self._send(BROADCAST, {"op": "released_tournament",
                                         "tournament": tournament_id})
            log.warning("worker %s: handed tournament %s over (draining)", self.id,
                        tournament_id)
        else:
            log.warning("worker %s: gave tournament %s up (its lease was taken)", self.id,
                        tournament_id)

    async def _lost(self, key: str) -> None:
        """Another worker holds ``key``'s lease now: give up what runs under it here (a
        tournament's table: the whole tournament)."""
        tournament = leases.tournament_of_key(key) or self.tournament_of.get(key)
        if tournament is not None:
            await self.give_up_tournament(tournament)
        else:
            await self.give_up(key)

    async def _sweep_tournaments(self) -> None:
        """Take the tournaments nobody runs (a dead worker's), first come first served."""
        if self.draining:
            return
        for tournament_id in await leases.orphan_tournaments(self.server.store, self.ended):
            if self.draining:
                return
            await self.adopt_tournament(tournament_id)

    # -- the sweep ---------------------------------------------------------------------------

    async def _every_renewal(self, step: Callable[[], Awaitable[None]],
                             seconds: float | None = None) -> None:
        """Run ``step`` every renewal period (or every ``seconds``). Renewing this worker's
        leases and taking over orphans are two loops, so a sweep that restores many rooms
        never leaves the leases of the rooms running here unrenewed."""
        while True:
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except (StoreError, aioredis.RedisError, OSError) as error:
                log.warning("worker %s: %s", self.id, error)
            except Exception as error:  # the loop must outlive any one failure
                log.warning("worker %s: %s failed: %s: %s", self.id, step.__name__,
                            type(error).__name__, error)
            await asyncio.sleep(self.renew if seconds is None else seconds)

    def _held(self) -> dict[str, int]:
        """The leases this worker holds (key -> token), for the keeper to renew: those of the
        rooms and tournaments it runs, and those it has taken and not yet run under."""
        held = dict(self._taking)
        held.update({room_id: room.lease for room_id, room in self.server.rooms.items()
                     if room.lease is not None})
        held.update({leases.tournament_key(tournament_id): host.lease
                     for tournament_id, host in self.server.tournaments.items()
                     if host.lease is not None})
        return held

    def _renewed(self, held: dict[str, int], renewed: dict[str, int]) -> None:
        """The keeper renewed ``held`` (as ``_held`` said a moment ago) and found ``renewed``:
        give up what another worker took meanwhile (and still runs under the token lost)."""
        now = self._held()
        for key, token in held.items():
            if renewed.get(key) == token or now.get(key) != token:
                continue
            if self._taking.get(key) == token:  # lost before it ran: it never will
                del self._taking[key]
            else:
                self._spawn(self._lost(key))

    async def _renew(self) -> None:
        """Tell the others this worker's load (its key in Redis says it is alive), read
        theirs, and forget the viewers kept for a worker gone. The leases themselves are the
        keeper's (``leases.Keeper``)."""
        await self._publish_load()
        self.live = await self._loads()
        # A worker whose load key is missing is gone only once it has stayed missing as long
        # as a key lives: a restarted Redis has lost every worker's key until each writes it
        # again, and forgetting a live worker's connections here would leave them unpushed.
        now = asyncio.get_running_loop().time()
        for worker in [*self.live, self.id]:
            self._missing.pop(worker, None)
        for viewer in self.server.hub.remote_viewers():
            origin = viewer.origin or ""
            if origin not in self.live and origin != self.id and \
                    now - self._missing.setdefault(origin, now) >= self._load_ttl():
                await self.server.hub.forget(viewer.sid, viewer.room or "")

    async def _sweep(self) -> None:
        if self.draining:
            return
        swept = await leases.sweep(self.server.store)
        # A worker found gone by two sweeps in a row: its process ended (kill -9, a crash), and
        # its rooms are taken now rather than once its leases lapse.
        self._seen_locked |= swept.locked
        unlocked = swept.unlocked & self._seen_locked
        self.ended = unlocked & self._ended_before
        self._ended_before = unlocked
        orphans = sorted([*swept.free, *(room for owner in self.ended
                                         for room in swept.gone.get(owner, ()))])
        lapsed, stalled = 0.0, set(self.ended)
        if orphans:
            # Who is alive now, not at the last renewal: orphans mostly mean a worker died,
            # and one still counted would leave its share of them to the next sweep (a
            # failover run lost 6.5 s so, its renewals slowed by the load). Without Redis, the
            # last word stands. A worker whose leases lapsed renews nothing: it counts for
            # none of them, even while its load key lives on (the key is written after each
            # renewal and kept for 3 s: a dead worker's may outlive its leases).
            lapsed, lapsed_owners = await leases.lapsed(self.server.store, orphans)
            stalled |= lapsed_owners
            with contextlib.suppress(aioredis.RedisError, OSError):
                self.live = await self._loads()
        peers = sorted(w for w, load in self.live.items()
                       if not load.get("draining") and w not in stalled)
        peers = sorted({*peers, self.id})
        share = math.ceil(len(orphans) / len(peers)) if orphans else 0
        # An orphan is first offered to the worker it hashes to; one still orphaned at the next
        # sweep goes to whoever comes first (the atomic take decides).
        wanted = [room_id for room_id in orphans
                  if room_id in self._seen_orphans
                  or peers[zlib.crc32(room_id.encode()) % len(peers)] == self.id]
        self._seen_orphans = set(orphans)
        if not wanted:
            return
        loop = asyncio.get_running_loop()
        started = loop.time()
        self._timings.clear()
        taken = await self.adopt_many(wanted[:share + 1])
        if taken:  # where a failover's time goes
            spent = ", ".join(f"{name} {seconds:.2f} s"
                              for name, seconds in self._timings.items())
            log.warning("worker %s: took %d orphaned rooms in %.2f s (%s), the first lease "
                        "lapsed %.2f s before the sweep saw it%s", self.id, taken,
                        loop.time() - started, spent, lapsed,
                        f"; ended: {', '.join(sorted(self.ended))}" if self.ended else "")

    async def _audit(self) -> None:
        """Forget the viewers kept here for other workers' connections that went away, or
        moved to another room, when their worker's word of it was lost (Redis was restarting,
        a worker resubscribing): otherwise each stays in its audience for good, counted as a
        watcher, its seat's views built and pushed to nobody. Each worker is asked which of
        its connections it still has, and where; one that it says is in another room at two
        audits in a row is forgotten (at one, its join may still be on its way back)."""
        hub = self.server.hub
        by_origin: dict[str, list[Viewer]] = {}
        for viewer in hub.remote_viewers():
            by_origin.setdefault(viewer.origin or "", []).append(viewer)
        moved: set[tuple[str, str | None]] = set()
        for origin, viewers in by_origin.items():
            reply = await self._request(origin, {"op": "audit",
                                                 "sids": [v.sid for v in viewers]})
            if not isinstance(reply, dict) or not isinstance(reply.get("rooms"), dict):
                continue  # no answer: ask again next time (a dead worker is _renew's)
            rooms = reply["rooms"]
            for viewer in viewers:
                where = (viewer.sid, viewer.room)
                if viewer.sid in rooms and rooms[viewer.sid] == viewer.room:
                    continue
                if viewer.sid in rooms and where not in self._moved:
                    moved.add(where)  # maybe joining here right now: look again next time
                    continue
                log.info("worker %s: forgot connection %s of worker %s (it left)", self.id,
                         viewer.sid, origin)
                if viewer.room is None:
                    hub.drop(viewer)
                else:
                    await hub.forget(viewer.sid, viewer.room)
        self._moved = moved

    def _load_ttl(self) -> float:
        """Seconds a worker's load key lives unless the worker writes it again."""
        return max(3 * self.renew, 3.0)

    async def _publish_load(self) -> None:
        value = json.dumps(self._load())
        with contextlib.suppress(aioredis.RedisError, OSError):
            await self.redis.set(load_key(self.id), value, px=int(self._load_ttl() * 1000))

    async def _loads(self) -> dict[str, dict[str, Any]]:
        """Every other live worker's load (its key has not expired)."""
        loads = {}
        async for key in self.redis.scan_iter(match=load_key("*"), count=100):
            worker = key.decode().rpartition(":")[2]
            value = await self.redis.get(key)
            if worker != self.id and value is not None:
                loads[worker] = json.loads(value)
        return loads

def worker_id() -> str:
    """A worker id when none is given: the host's name and a random suffix."""
    import socket

    return f"{socket.gethostname()}-{secrets.token_hex(3)}"


async def end_tasks(tasks: list[asyncio.Task[Any]], worker: str,
                    wait: float = STOP_WAIT) -> None:
    """Wait for ``tasks`` to end, ``wait`` seconds at most, then cancel those still running
    and wait as long again: a task that outlives that (its cancel swallowed in a library) is
    left behind, named in the log with where it waits, and worker ``worker``'s stop goes on
    rather than hang its process's shutdown."""
    current = asyncio.current_task()  # (a stop run from one of them does not wait on itself)
    waiting = {task for task in tasks if not task.done() and task is not current}
    for _ in range(2):
        if not waiting:
            break
        _, waiting = await asyncio.wait(waiting, timeout=wait)
        for task in waiting:
            task.cancel()
    for task in waiting:
        where = "; ".join(f"{frame.f_code.co_filename}:{frame.f_lineno}"
                          for frame in task.get_stack(limit=3))
        log.warning("worker %s: left task %s running at its stop (at %s)", worker,
                    task.get_name(), where or "no frame")
    for task in tasks:  # their outcomes, so none is logged as never retrieved
        if task.done() and not task.cancelled():
            task.exception()

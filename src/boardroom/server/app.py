"""The web app: FastAPI for HTTP and Socket.IO (``server.transport``) for the real-time
channel, one ASGI app.

``create_app(ServerConfig(...))`` builds it with explicit dependencies and no import-time
globals. On start it opens the store (running its migrations), loads the server secret from the
data folder and brings every open room back from the store, the hand in progress included; on
stop it stops the room actors and closes the store. A cluster's worker (``config.redis``: see
``server.cluster``) instead runs the rooms whose leases it holds, takes its share of the rooms
nobody runs, and on stop hands its rooms over to the other workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from boardroom.evaluation import warm_up
from boardroom.server import cluster as clustering
from boardroom.server.auth import Signer, new_host_secret, secret_hash
from boardroom.server.cluster_http import TournamentRouter
from boardroom.server.config import UVICORN_WEBSOCKETS, WEB, ServerConfig, check_public_url
from boardroom.server.housekeeping import start_housekeeping
from boardroom.server.http import add_routes
from boardroom.server.limits import ASGIApp, BodyLimit, Receive, Scope, Send
from boardroom.server.realtime import SocketHub
from boardroom.server.room import REMEMBERED_COMMANDS, Room, warm_up_views
from boardroom.server.tournament import TournamentHost, new_tournament
from boardroom.server.tournament_http import add_tournament_routes
from boardroom.server.transport import PATH as SOCKET_PATH
from boardroom.server.websocket import protocol_for
from boardroom.store import (
    RoomRow,
    Store,
    StoreError,
    TournamentRow,
    database_url,
    leases,
    tournament,
    tournaments,
)
from boardroom.table import Table, TableSettings
from boardroom.table.changes import with_changes
from boardroom.tournament import TournamentConfig

__all__ = ["WEB", "DataFolderInUse", "Server", "ServerConfig", "check_public_url",
           "create_app"]


class DataFolderInUse(ValueError):
    """Another server holds the data folder."""


class DataFolderLock:
    """An exclusive lock on ``DATA/boardroom.lock`` for the life of a server: two servers on one
    folder would both run its rooms and deal every hand twice. The lock is the kernel's
    (``flock``), so a killed server never leaves it behind; the file keeps the holder's pid."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._file: Any = None

    def acquire(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        handle = (self.folder / "boardroom.lock").open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            handle.close()
            raise DataFolderInUse(f"the data folder {self.folder} is in use by another "
                                  f"Boardroom server (pid {holder})") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def check_data_folder(folder: Path) -> None:
    """Raise ``DataFolderInUse`` now, before starting anything, if a server holds ``folder``."""
    lock = DataFolderLock(folder)
    lock.acquire()
    lock.release()


class Server:
    """Everything the app serves: the store, the rooms and the connections."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.clock = config.clock
        self.rooms: dict[str, Room] = {}
        self.tournaments: dict[str, TournamentHost] = {}
        self.hub = SocketHub(self.rooms)  # rate limits run on the monotonic clock
        self.cluster: clustering.Cluster | None = None
        # Runs an HTTP request through this app (``cluster_http``: a tournament's owner answers
        # the requests other workers forward); set by ``create_app``.
        self.http_answer: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]] | None = None
        self._store: Store | None = None
        self._signer: Signer | None = None
        self._lock = DataFolderLock(config.data)
        self._housekeeping: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the server is not started")
        return self._store

    @property
    def signer(self) -> Signer:
        if self._signer is None:
            raise RuntimeError("the server is not started")
        return self._signer

    async def start(self) -> None:
        warm_up()  # before any request: no hand of the event loop builds an evaluator table
        warm_up_views()
        if self.config.redis:
            await self._start_worker()
            self._housekeeping = start_housekeeping()
            return
        self._lock.acquire()
        try:
            self._signer = Signer.from_folder(self.config.data)
            self._store = await Store.open(database_url(self.config.database, self.config.data))
        except BaseException:
            self._lock.release()
            raise
        hosts = [self.tournament_from_row(row) for row in await tournaments(self._store)]
        host_of = {room: host for host in hosts for room in host.rooms.values()}
        for room in await self.restore_many(await self._store.rooms()):
            if room.id in host_of:
                room.listener = host_of[room.id].listen  # before its bots play on
            room.start()
        for host in hosts:
            await self.start_tournament(host)
        self._housekeeping = start_housekeeping()

    async def _start_worker(self) -> None:
        """A cluster's worker: the store must be PostgreSQL (leases); the seat-token secret is
        the cluster's, kept in the database; no room runs until its lease is taken."""
        url = database_url(self.config.database, self.config.data)
        if not url.startswith("postgresql"):
            raise StoreError("a cluster's workers share one PostgreSQL database: give "
                             "--database postgresql://... with --redis")
        self._store = await Store.open(url)
        try:
            secret = await leases.shared_secret(self._store)
            self._signer = Signer(secret)
            worker = self.config.worker_id or clustering.worker_id()
            self.cluster = clustering.Cluster(self, self.config.redis or "", worker,
                                              lease=self.config.lease_seconds,
                                              renew=self.config.renew_seconds, secret=secret)
            self.hub.router = self.cluster
            await self.cluster.start()
        except BaseException:
            await self._store.close()
            self._store = None
            raise

    async def restore(self, row: RoomRow) -> Room:
        """A room of the store brought back as it was, the hand in progress included, with
        the ids of its last commands (a retry is still applied once); not started yet."""
        (room,) = await self.restore_many([row])
        return room

    async def restore_many(self, rows: Sequence[RoomRow]) -> list[Room]:
        """``restore`` of many rooms, reading what they need of the store (their last
        commands' ids, the hand that ended last) in two queries, however many rooms."""
        store = self.store
        settings = {row.id: TableSettings.from_dict(row.settings) for row in rows}
        tables = {row.id: Table.from_state(settings[row.id], with_changes(row.state, row.changes),
                                           clock=self.clock, rng=self.config.rng, room=row.id)
                  for row in rows}
        commands = await store.recent_commands_of(list(tables), REMEMBERED_COMMANDS)
        # the hand that ended last, if any: its result stays on screen, as before the restart
        ended = {room_id: table.hand_no - (table.hand is not None)
                 for room_id, table in tables.items()}
        last = await store.hands_of([(room_id, n) for room_id, n in ended.items() if n > 0])
        restored = []
        for row in rows:
            room = Room(row.id, tables[row.id], row.host_hash, store=store, hub=self.hub,
                        signer=self.signer, clock=self.clock, bot_think=self.config.bot_think,
                        tournament=row.tournament)
            for key, version in reversed(commands.get(row.id, [])):  # oldest first
                sender, _, command_id = key.partition(":")
                room.remember(sender, command_id, {"id": command_id, "ok": True,
                                                   "version": version})
            hand = last.get((row.id, ended[row.id]))
            if hand is not None:
                room.recall_last_hand(hand.record)
            restored.append(room)
        self.rooms.update((room.id, room) for room in restored)  # all of them, or none
        return restored

    def tournament_from_row(self, row: TournamentRow) -> TournamentHost:
        """A tournament of the store brought back as it was; not started yet."""
        return TournamentHost.from_row(self, row)

    async def start_tournament(self, host: TournamentHost) -> None:
        """Run ``host`` here, its table rooms running already (listening to it), and recover
        it as after a restart: its tables' hands reported or dealt, its level clock resumed
        with the time it had left."""
        self.tournaments[host.id] = host
        host.start()
        if host.director.started and not host.director.finished:
            await host.recover()

    def runs_tournament(self, tournament_id: str) -> bool:
        return tournament_id in self.tournaments

    @property
    def asker(self) -> clustering.Cluster | None:
        """A cluster's way to the worker running a tournament (None: a single server)."""
        return self.cluster

    async def load_finished_tournament(self, tournament_id: str) -> None:
        """A finished tournament nobody runs, read from the store to answer its routes here
        (it never changes again)."""
        row = await tournament(self.store, tournament_id)
        if row is not None and row.finished and tournament_id not in self.tournaments:
            self.tournaments[tournament_id] = self.tournament_from_row(row)

    def health(self) -> dict[str, Any]:
        """What the health route says: the rooms run here (and a worker's id, its rooms' ids
        and whether it is draining)."""
        body: dict[str, Any] = {"ok": True, "rooms": len(self.rooms)}
        if self.cluster is not None:
            body.update(self.cluster.health())
        return body

    async def stop(self) -> None:
        if self._housekeeping is not None:
            self._housekeeping.cancel()
            self._housekeeping = None
        if self.cluster is not None:
            await self.cluster.stop()  # hands every room over
            self.cluster = None
            self.hub.router = None
        for host in list(self.tournaments.values()):
            await host.stop()
        for room in list(self.rooms.values()):
            await room.stop()
        if self._store is not None:
            await self._store.close()
            self._store = None
        await self.hub.transport.close()
        self._lock.release()

    def _room(self, room_id: str, table: Table, host_hash: str,
              tournament: str | None = None) -> Room:
        room = Room(room_id, table, host_hash, store=self.store, hub=self.hub,
                    signer=self.signer, clock=self.clock, bot_think=self.config.bot_think,
                    tournament=tournament)
        self.rooms[room_id] = room
        return room

    async def create_room(self, settings: TableSettings) -> tuple[str, str]:
        """A new room: its id and the host's secret (shown once; only its hash is kept). A
        cluster's room goes to its least-loaded worker."""
        if self.cluster is not None:
            return await self.cluster.create_room(settings)
        return await self.create_local_room(settings)

    async def create_local_room(self, settings: TableSettings) -> tuple[str, str]:
        """A new room run here (a cluster's worker takes its lease first)."""
        room_id = secrets.token_hex(6)
        secret = new_host_secret()
        table = Table(settings, clock=self.clock, rng=self.config.rng, room=room_id)
        await self._create_here(RoomRow(room_id, self.clock(), settings.to_dict(),
                                        secret_hash(secret), table.to_state(), table.version,
                                        False), table)
        return room_id, secret

    async def _create_here(self, row: RoomRow, table: Table) -> Room:
        """Store a new room and run it here (a cluster's worker takes its lease first)."""
        if self.cluster is None:
            await self.store.create_room(row)
            room = self._room(row.id, table, row.host_hash, row.tournament)
            room.start()
            return room
        async with self.cluster.taking(row.id) as token:  # renewed from now on
            await self.store.create_room(row, token=token)
            room = self._room(row.id, table, row.host_hash, row.tournament)
            if token is not None:
                self.cluster.run(room, token, tournament=row.tournament)
            else:
                room.start()
        return room

    async def create_managed_room(self, settings: TableSettings, host: TournamentHost) -> str:
        """A tournament's table room: its table is managed (dealt by the director), its host
        the tournament's host."""
        room_id = secrets.token_hex(6)
        table = Table(settings, clock=self.clock, rng=self.config.rng, room=room_id,
                      managed=True)
        room = await self._create_here(RoomRow(room_id, self.clock(), settings.to_dict(),
                                               host.host_hash, table.to_state(), table.version,
                                               False, tournament=host.id), table)
        room.listener = host.listen
        return room_id

    async def create_tournament(self, config: TournamentConfig, name: str, *,
                                action_clock: float) -> tuple[TournamentHost, str]:
        """A new tournament (registration open, not started) and its host's secret. A
        cluster's tournament goes to its least-loaded worker (another worker's: the host
        returned is the tournament as stored, which that worker runs)."""
        if self.cluster is not None:
            placed = await self.cluster.place_tournament(config, name,
                                                         action_clock=action_clock)
            row = None if placed is None else await tournament(self.store, placed[0])
            if placed is not None and row is not None:
                return self.tournament_from_row(row), placed[1]
        return await self.create_local_tournament(config, name, action_clock=action_clock)

    async def create_local_tournament(self, config: TournamentConfig, name: str, *,
                                      action_clock: float) -> tuple[TournamentHost, str]:
        """A new tournament run here (a cluster's worker, under its lease)."""
        host, secret = new_tournament(self, config, name, action_clock=action_clock)
        if self.cluster is None:
            await host.save()
            self.tournaments[host.id] = host
        else:  # its lease renewed from the moment it is taken, as a new room's
            async with self.cluster.taking(leases.tournament_key(host.id)) as token:
                host.lease = token
                await host.save()
                self.tournaments[host.id] = host  # renewed as run here before taking ends
        host.start()
        return host, secret

    async def read_room(self, room_id: str, what: str) -> Any:
        """What the worker running ``room_id`` answers to ``what`` (``reads.READS``); None if
        no worker runs it (a single server runs every open room itself)."""
        if self.cluster is None:
            return None
        return await self.cluster.read(room_id, what)

    async def settings_of(self, room_id: str) -> TableSettings | None:
        room = self.rooms.get(room_id)
        if room is not None:
            return room.settings
        row = await self.store.room(room_id)
        return TableSettings.from_dict(row.settings) if row is not None else None


def create_app(config: ServerConfig) -> Any:
    """The ASGI app: socket.io at ``/socket.io``, everything else FastAPI."""

    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(title="Boardroom", version="0.1.0", lifespan=lifespan,
                  description="A real-time poker room for the multi-board Omaha variants. "
                              "The real-time protocol (socket.io) is described in "
                              "docs/protocol.md.")
    app.state.server = server
    add_tournament_routes(app, server)  # before add_routes, which mounts the web folder at /
    add_routes(app, server)
    router = TournamentRouter(app, server)  # a cluster's: to the worker running a tournament
    server.http_answer = router.answer
    return Endpoints(server, BodyLimit(router))


def uvicorn_options(app: Endpoints, ws: str = "boardroom") -> dict[str, Any]:
    """uvicorn's settings for serving ``app``: its WebSockets through ``ws`` ("boardroom":
    ``websocket.SocketProtocol``, frames straight to the transport; or one of uvicorn's own
    ASGI protocols by name), as ``config.UVICORN_WEBSOCKETS`` says."""
    chosen: Any = protocol_for(app.socket) if ws == "boardroom" else ws
    return {**UVICORN_WEBSOCKETS, "ws": chosen}


class Endpoints:
    """The ASGI app: ``/socket.io/`` to the real-time transport, the rest to ``http``;
    ``server`` is the ``Server`` behind both (for whoever holds the app: tests, play)."""

    def __init__(self, server: Server, http: ASGIApp) -> None:
        self.server = server
        self.http = http
        self.socket = server.hub.transport

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] in ("http", "websocket") and (
                path == SOCKET_PATH or path.startswith(SOCKET_PATH + "/")):
            await self.socket(scope, receive, send)
        else:
            await self.http(scope, receive, send)

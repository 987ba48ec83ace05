"""The store: SQLite under the data folder by default, PostgreSQL when a URL says so.

``Store.open`` connects (SQLAlchemy 2, async: aiosqlite or asyncpg) and runs the Alembic
migrations. Writes go through one writer task that commits whatever is queued in a single
transaction (group commit), so hundreds of tables writing every action share a few commits a
second; ``append`` returns once its rows are durable, which is when the server may publish them.
The store holds plain rows and JSON; it knows no game rules.

A room's state is written whole only when the caller says so (``append(state=...)``); otherwise
a commit stores its ``change`` to the state beside its last event, and reading a room gives the
last whole state with the changes written after it (``RoomRow.changes``, oldest first), which
the caller applies (``boardroom.table.changes``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import orjson
from sqlalchemy import bindparam, event, func, insert, inspect, select, text, tuple_, update
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.dialects.postgresql import asyncpg as asyncpg_dialect
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from boardroom.store import schema


class StoreError(RuntimeError):
    """The database cannot be reached, migrated or written."""


class LeaseLost(StoreError):
    """A write carried a room's fencing token that is no longer current: another worker has
    taken the room (``store.leases``). Nothing of the write landed."""


class _Gone(StoreError):
    """A read found its pooled connection closed by the database (a session it ended: the
    worker was paused past its idle-in-transaction timeout, or the database restarted)."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _read(read: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R]]:
    """``read`` once more when its connection was one the database had closed: SQLAlchemy
    then invalidates the pool's connections of before, and the second try takes a fresh one.
    Reads only: a write that failed is reported to its room, which goes back to the store."""
    @functools.wraps(read)
    async def again(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await read(*args, **kwargs)
        except _Gone:
            return await read(*args, **kwargs)
    return again


def database_url(url: str | None, data: Path) -> str:
    """The SQLAlchemy async URL: a file under ``data`` by default, else ``url`` made async.

    ``postgresql://`` and ``postgres://`` become ``postgresql+asyncpg://``; ``sqlite:///path``
    becomes ``sqlite+aiosqlite:///path``.
    """
    if not url:
        return f"sqlite+aiosqlite:///{(data / 'boardroom.db').resolve()}"
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise StoreError(f"not a database URL: {url.split('@')[-1]!r} "
                         f"(expected postgresql://... or sqlite:///...)")
    scheme = scheme.lower()
    if scheme in ("postgresql", "postgres", "postgresql+asyncpg"):
        return f"postgresql+asyncpg://{rest}"
    if scheme in ("sqlite", "sqlite+aiosqlite"):
        return f"sqlite+aiosqlite://{rest}"
    raise StoreError(f"unsupported database {scheme!r}: use postgresql://... or sqlite:///...")


def _dumps(value: Any) -> str:
    """``value`` as compact JSON with sorted keys: orjson's, or the standard library's where
    orjson refuses it (a key that is not a string, an integer past 64 bits); both read back
    alike, and their keys sort alike (code point order)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class EventRow:
    version: int
    kind: str
    hand_no: int | None
    command_id: str | None
    at: float
    payload: dict[str, Any]


@dataclass(frozen=True)
class LedgerRow:
    version: int
    at: float
    seat: int
    player: str
    name: str
    entry: str  # buy-in, rebuy, adjust, cash-out
    amount: int  # chips onto the table (negative: taken off)


@dataclass(frozen=True)
class HandRow:
    hand_no: int
    game: str
    ended_at: float
    record: dict[str, Any]


@dataclass(frozen=True)
class RoomRow:
    id: str
    created_at: float
    settings: dict[str, Any]
    host_hash: str
    state: dict[str, Any]  # as last written whole, at ``version``
    version: int
    closed: bool
    changes: tuple[dict[str, Any], ...] = ()  # the state's changes since, oldest first
    tournament: str | None = None  # the tournament whose table this is (None: a cash room)


@dataclass
class _Write:
    room_id: str
    version: int
    state: dict[str, Any] | None  # None: ``change`` rides on the last event
    closed: bool
    events: Sequence[EventRow] = ()
    ledger: Sequence[LedgerRow] = ()
    hands: Sequence[HandRow] = ()
    revised: Sequence[HandRow] = ()  # finished hands whose record changed (a show after)
    create: RoomRow | None = None
    host_hash: str | None = None
    change: dict[str, Any] | None = None
    token: int | None = None  # the room's lease token (a cluster's); None: a single server
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop()
                                       .create_future())


# Seconds a session may sit idle inside a transaction on PostgreSQL (our transactions are a
# few statements sent back to back). Not shorter than a lease (``leases.LEASE_SECONDS``): a
# worker's event loop held up by a loaded machine would lose its writes. A take waits on a
# stalled writer's locks no longer than this, once, and the fencing token, not this, keeps
# the stalled writer from landing anything.
IDLE_IN_TRANSACTION = 4.0


class Store:
    """Rooms, their event log, finished hands and ledger. Use ``await Store.open(url)``."""

    def __init__(self, engine: AsyncEngine, writer: _SQLiteWriter | None = None) -> None:
        self.engine = engine
        self._sqlite = writer  # a SQLite file's writer thread
        # PostgreSQL's writes, on asyncpg's own connections; neither: SQLAlchemy's (in memory)
        self._postgres = _PostgresWriter(engine) if engine.dialect.name == "postgresql" \
            else None
        self._queue: asyncio.Queue[_Write | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions written (the bench reports it)

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to ``url`` (already async, see ``database_url``) and migrate to the head."""
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            folder = Path(str(parsed.database)).parent
            if not folder.is_dir():
                raise StoreError(f"cannot open the database: the folder {folder} does not exist")
        options: dict[str, Any] = {}
        if parsed.get_backend_name() == "postgresql":
            # A worker paused (SIGSTOP) or stalled mid-transaction holds the lease rows its
            # write read FOR SHARE, and every take of those leases waits on it: the database
            # ends a session idle in its transaction that long, so a take waits no longer.
            options["connect_args"] = {"server_settings": {
                "idle_in_transaction_session_timeout": str(int(IDLE_IN_TRANSACTION * 1000))}}
        engine = create_async_engine(url, hide_parameters=True,  # rows hold dealt cards
                                     **options)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(_migrate)
        except Exception as error:
            await engine.dispose()
            raise StoreError(f"cannot open the database: {error}") from error
        writer = None
        if engine.dialect.name == "sqlite" and parsed.database not in (None, "", ":memory:"):
            writer = _SQLiteWriter(str(parsed.database))
            try:
                await writer.open()
            except Exception as error:
                await writer.close()
                await engine.dispose()
                raise StoreError(f"cannot open the database: {error}") from error
        store = cls(engine, writer)
        store._writer = asyncio.create_task(store._write_loop(), name="store-writer")
        return store

    async def close(self) -> None:
        if self._writer is not None:
            await self._queue.put(None)
            await self._writer
            self._writer = None
        if self._sqlite is not None:
            await self._sqlite.close()
            self._sqlite = None
        await self.engine.dispose()

    # -- writing ----------------------------------------------------------------------------

    async def create_room(self, room: RoomRow, *, token: int | None = None) -> None:
        await self._submit(_Write(room.id, room.version, room.state, room.closed, create=room,
                                  token=token))

    async def append(self, room_id: str, *, version: int, state: dict[str, Any] | None,
                     closed: bool, events: Sequence[EventRow] = (),
                     ledger: Sequence[LedgerRow] = (), hands: Sequence[HandRow] = (),
                     revised: Sequence[HandRow] = (), host_hash: str | None = None,
                     change: dict[str, Any] | None = None, token: int | None = None) -> None:
        """Write a room's new events (and ledger entries, finished hands, hands whose record
        changed after they were written) with its new state, atomically; returns once they are
        committed. The state is written whole, or (``state=None``) as its ``change``, kept
        with the last of ``events``; ``closed`` is written with whole states only. With a
        ``token`` (a cluster's lease) the write lands only if the token is still the room's,
        checked in the same transaction; otherwise it raises ``LeaseLost``."""
        if state is None and (change is None or not events):
            raise StoreError("a change to a room's state is written with its events")
        await self._submit(_Write(room_id, version, state, closed, events, ledger, hands,
                                  revised, host_hash=host_hash, change=change, token=token))

    async def _submit(self, write: _Write) -> None:
        if self._writer is None or self._writer.done():
            raise StoreError("the store is closed")
        await self._queue.put(write)
        await write.done

    async def _write_loop(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while not self._queue.empty() and len(batch) < 1000:
                more = self._queue.get_nowait()
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                refused = await self._write(batch)
            except Exception as error:
                if len(batch) == 1:
                    _fail(batch[0], error)
                else:  # one room's bad write must not fail the others': each alone, in order
                    await self._write_one_by_one(batch)
            else:
                _settle(batch, refused)
            if stop:
                return

    async def _write_one_by_one(self, batch: Sequence[_Write]) -> None:
        """Each write in its own transaction; a room whose write failed has its later writes of
        the batch refused too, so its log never skips a version."""
        failed: set[str] = set()
        for write in batch:
            if write.room_id in failed:
                write.done.set_exception(StoreError(
                    "cannot write to the database: an earlier write of this room failed"))
                continue
            try:
                refused = await self._write([write])
            except Exception as error:
                failed.add(write.room_id)
                _fail(write, error)
            else:
                _settle([write], refused)

    async def _write(self, batch: Sequence[_Write]) -> set[int]:
        """Write ``batch`` in one transaction; the writes refused for a stale lease token."""
        if self._sqlite is not None:
            refused = await self._sqlite.write(batch)
        elif self._postgres is not None:
            refused = await self._postgres.write(batch)
        else:
            async with self.engine.begin() as connection:
                refused = await _write_batch(connection, batch)
        self.commits += 1
        return refused

    # -- reading ----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection to read with; the database's failure is a ``StoreError`` naming its
        reason, never SQLAlchemy's error with the statement (the caller logs it)."""
        try:
            async with self.engine.connect() as connection:
                yield connection
        except (SQLAlchemyError, OSError) as error:
            reason = getattr(error, "orig", None) or error
            gone = _Gone if getattr(error, "connection_invalidated", False) else StoreError
            raise gone(f"cannot read the database: {reason}") from None

    @_read
    async def rooms(self, *, include_closed: bool = False,
                    ids: Collection[str] | None = None) -> list[RoomRow]:
        """Every open room (and the closed ones too with ``include_closed``), or only those of
        ``ids``: two queries, however many rooms."""
        rooms, events = schema.rooms, schema.events
        query = select(rooms)
        changes = (select(events.c.room_id, events.c.change)
                   .join(rooms, rooms.c.id == events.c.room_id)
                   .where(events.c.version > rooms.c.version, events.c.change.is_not(None))
                   .order_by(events.c.room_id, events.c.version))
        if not include_closed:
            query = query.where(rooms.c.closed.is_(False))
            changes = changes.where(rooms.c.closed.is_(False))
        if ids is not None:
            if not ids:
                return []
            query = query.where(rooms.c.id.in_(sorted(ids)))
            changes = changes.where(rooms.c.id.in_(sorted(ids)))
        async with self.reading() as connection:
            rows = (await connection.execute(query)).all()
            tails: dict[str, list[dict[str, Any]]] = {}
            for room_id, change in (await connection.execute(changes)).all():
                tails.setdefault(room_id, []).append(json.loads(change))
        return [RoomRow(row.id, row.created_at, json.loads(row.settings), row.host_hash,
                        json.loads(row.state), row.version, row.closed,
                        tuple(tails.get(row.id, ())), row.tournament) for row in rows]

    async def room(self, room_id: str) -> RoomRow | None:
        found = await self.rooms(include_closed=True, ids=[room_id])
        return found[0] if found else None

    @_read
    async def events(self, room_id: str, after: int = 0) -> list[EventRow]:
        table = schema.events
        async with self.reading() as connection:
            rows = (await connection.execute(
                select(table).where(table.c.room_id == room_id, table.c.version > after)
                .order_by(table.c.version))).all()
        return [EventRow(row.version, row.kind, row.hand_no, row.command_id, row.at,
                         json.loads(row.payload)) for row in rows]

    @_read
    async def hand_event(self, room_id: str, hand_no: int, kind: str) -> EventRow | None:
        """The last event ``kind`` of hand ``hand_no`` of a room (its ``hand_ended``, say)."""
        table = schema.events
        async with self.reading() as connection:
            row = (await connection.execute(
                select(table).where(table.c.room_id == room_id, table.c.hand_no == hand_no,
                                    table.c.kind == kind)
                .order_by(table.c.version.desc()).limit(1))).first()
        if row is None:
            return None
        return EventRow(row.version, row.kind, row.hand_no, row.command_id, row.at,
                        json.loads(row.payload))

    async def recent_commands(self, room_id: str, limit: int) -> list[tuple[str, int]]:
        """The ids of the last ``limit`` commands applied to a room, with their versions,
        newest first."""
        return (await self.recent_commands_of([room_id], limit)).get(room_id, [])

    @_read
    async def recent_commands_of(self, room_ids: Collection[str],
                                 limit: int) -> dict[str, list[tuple[str, int]]]:
        """``recent_commands`` of many rooms in one query (a room with none is left out)."""
        if not room_ids:
            return {}
        table = schema.events
        rank = func.row_number().over(partition_by=table.c.room_id,
                                      order_by=table.c.version.desc()).label("rank")
        recent = (select(table.c.room_id, table.c.command_id, table.c.version, rank)
                  .where(table.c.room_id.in_(sorted(room_ids)),
                         table.c.command_id.is_not(None)).subquery())
        query = (select(recent.c.room_id, recent.c.command_id, recent.c.version)
                 .where(recent.c.rank <= limit)
                 .order_by(recent.c.room_id, recent.c.version.desc()))
        async with self.reading() as connection:
            rows = (await connection.execute(query)).all()
        found: dict[str, list[tuple[str, int]]] = {}
        for row in rows:
            found.setdefault(row.room_id, []).append((row.command_id, row.version))
        return found

    @_read
    async def hands(self, room_id: str) -> list[HandRow]:
        table = schema.hands
        async with self.reading() as connection:
            rows = (await connection.execute(
                select(table).where(table.c.room_id == room_id).order_by(table.c.hand_no))).all()
        return [HandRow(row.hand_no, row.game, row.ended_at, json.loads(row.record))
                for row in rows]

    async def hand(self, room_id: str, hand_no: int) -> HandRow | None:
        return (await self.hands_of([(room_id, hand_no)])).get((room_id, hand_no))

    @_read
    async def hands_of(self, wanted: Collection[tuple[str, int]]
                       ) -> dict[tuple[str, int], HandRow]:
        """The finished hands of ``wanted`` (room, hand number), in one query; a hand not
        stored is left out."""
        if not wanted:
            return {}
        table = schema.hands
        async with self.reading() as connection:
            rows = (await connection.execute(
                select(table).where(tuple_(table.c.room_id, table.c.hand_no)
                                    .in_(sorted(wanted))))).all()
        return {(row.room_id, row.hand_no): HandRow(row.hand_no, row.game, row.ended_at,
                                                    json.loads(row.record)) for row in rows}

    @_read
    async def ledger(self, room_id: str) -> list[LedgerRow]:
        table = schema.ledger
        async with self.reading() as connection:
            rows = (await connection.execute(
                select(table).where(table.c.room_id == room_id).order_by(table.c.id))).all()
        return [LedgerRow(row.version, row.at, row.seat, row.player, row.name, row.entry,
                          row.amount) for row in rows]


@dataclass(frozen=True)
class TournamentRow:
    id: str
    created_at: float
    host_hash: str
    state: dict[str, Any]
    finished: bool


async def save_tournament(store: Store, row: TournamentRow, *,
                          lease: tuple[str, int] | None = None) -> None:
    """Write (create or replace) a tournament's row, in its own transaction; returns once it
    is committed. Tournaments write once per hand, not per action: no group commit needed.
    With a ``lease`` (a cluster's: its key and fencing token, ``store.leases``) the write
    lands only if the token is still the lease's, checked in the same transaction; otherwise
    it raises ``LeaseLost``."""
    table = schema.tournaments
    values = {"created_at": row.created_at, "host_hash": row.host_hash,
              "state": _dumps(row.state), "finished": row.finished}
    try:
        async with store.engine.begin() as connection:
            if lease is not None:
                held = schema.room_leases
                query = select(held.c.token).where(held.c.room_id == lease[0])
                if connection.dialect.name == "postgresql":
                    query = query.with_for_update(read=True)
                if (await connection.execute(query)).scalar() != lease[1]:
                    raise LeaseLost(f"tournament {row.id}: another worker runs it now")
            done = await connection.execute(update(table).where(table.c.id == row.id)
                                            .values(**values))
            if not done.rowcount:
                await connection.execute(insert(table).values(id=row.id, **values))
    except LeaseLost:
        raise
    except Exception as error:
        reason = getattr(error, "orig", None) or error
        raise StoreError(f"cannot write to the database: {reason}") from error


@_read
async def tournaments(store: Store, *, include_finished: bool = True) -> list[TournamentRow]:
    query = select(schema.tournaments)
    if not include_finished:
        query = query.where(schema.tournaments.c.finished.is_(False))
    async with store.reading() as connection:
        rows = (await connection.execute(query)).all()
    return [TournamentRow(row.id, row.created_at, row.host_hash, json.loads(row.state),
                          row.finished) for row in rows]


@_read
async def tournament(store: Store, tournament_id: str) -> TournamentRow | None:
    """One tournament's row, or None."""
    query = select(schema.tournaments).where(schema.tournaments.c.id == tournament_id)
    async with store.reading() as connection:
        row = (await connection.execute(query)).first()
    if row is None:
        return None
    return TournamentRow(row.id, row.created_at, row.host_hash, json.loads(row.state),
                         row.finished)


def _fail(write: _Write, error: Exception) -> None:
    """Tell the write's waiter it failed, with the database's own reason only, never
    SQLAlchemy's text of the statement and its rows: those hold dealt cards, and the server
    logs this error."""
    reason = getattr(error, "orig", None) or error
    if not write.done.done():
        write.done.set_exception(StoreError(f"cannot write to the database: {reason}"))


def _settle(batch: Sequence[_Write], refused: set[int]) -> None:
    """Tell each write's waiter it landed, or that its room's lease was lost."""
    for write in batch:
        if write.done.done():
            continue
        if id(write) in refused:
            write.done.set_exception(LeaseLost(
                f"room {write.room_id}: its lease was taken by another worker; nothing of "
                f"this write landed"))
        else:
            write.done.set_result(None)


async def _fenced(connection: AsyncConnection, batch: Sequence[_Write]) -> set[int]:
    """The writes of ``batch`` (by ``id``) that carry a token that is not their room's lease
    token now. The lease rows are read ``FOR SHARE``: a worker taking one of them waits for
    this transaction, so no take lands between this check and the commit."""
    rooms = sorted({w.room_id for w in batch if w.token is not None})
    if not rooms:
        return set()
    leases = schema.room_leases
    query = select(leases.c.room_id, leases.c.token).where(leases.c.room_id.in_(rooms))
    if connection.dialect.name == "postgresql":
        query = query.with_for_update(read=True)
    current = {row.room_id: row.token for row in (await connection.execute(query)).all()}
    return _stale(batch, current)


def _stale(batch: Sequence[_Write], current: dict[str, int]) -> set[int]:
    """The writes of ``batch`` whose token is not their room's ``current`` lease token."""
    return {id(w) for w in batch if w.token is not None and current.get(w.room_id) != w.token}


# Every statement a batch of writes runs, once (SQLAlchemy Core): the async engine executes
# them on PostgreSQL; on a SQLite file the writer thread runs their SQLite text
# (``_SQLiteWriter``).
_STATEMENTS: dict[str, Any] = {
    "create": insert(schema.rooms),
    "events": insert(schema.events),
    "ledger": insert(schema.ledger),
    "hands": insert(schema.hands),
    "revised": update(schema.hands).where(schema.hands.c.room_id == bindparam("room"),
                                          schema.hands.c.hand_no == bindparam("number"))
    .values(record=bindparam("new_record")),
    "states": update(schema.rooms).where(schema.rooms.c.id == bindparam("room"))
    .values(state=bindparam("new_state"), version=bindparam("new_version"),
            closed=bindparam("new_closed")),
    "host": update(schema.rooms).where(schema.rooms.c.id == bindparam("room"))
    .values(host_hash=bindparam("new_host_hash")),
}


def _rows(batch: Sequence[_Write]) -> list[tuple[str, list[dict[str, Any]]]]:
    """What writing ``batch`` takes: each statement of ``_STATEMENTS`` that has rows, in the
    order they run, with its rows."""
    created = [{"id": r.id, "created_at": r.created_at, "settings": _dumps(r.settings),
                "host_hash": r.host_hash, "state": _dumps(r.state), "version": r.version,
                "closed": r.closed, "tournament": r.tournament}
               for w in batch if (r := w.create) is not None]
    events = [{"room_id": w.room_id, "version": e.version, "kind": e.kind,
               "hand_no": e.hand_no, "command_id": e.command_id, "at": e.at,
               "payload": _dumps(e.payload),
               "change": _dumps(w.change) if w.change is not None and e is w.events[-1]
               else None} for w in batch for e in w.events]
    ledger = [{"room_id": w.room_id, "version": e.version, "at": e.at, "seat": e.seat,
               "player": e.player, "name": e.name, "entry": e.entry, "amount": e.amount}
              for w in batch for e in w.ledger]
    hands = [{"room_id": w.room_id, "hand_no": h.hand_no, "game": h.game,
              "ended_at": h.ended_at, "record": _dumps(h.record)} for w in batch for h in w.hands]
    revised = [{"room": w.room_id, "number": h.hand_no, "new_record": _dumps(h.record)}
               for w in batch for h in w.revised]
    latest: dict[str, _Write] = {}
    for write in batch:
        if write.create is None and write.state is not None:
            latest[write.room_id] = write  # the last whole state of a room in the batch wins
    states = [{"room": w.room_id, "new_state": _dumps(w.state or {}), "new_version": w.version,
               "new_closed": w.closed} for w in latest.values()]
    host = [{"room": w.room_id, "new_host_hash": w.host_hash} for w in batch
            if w.host_hash is not None]
    steps: list[tuple[str, list[dict[str, Any]]]] = [
        ("create", created), ("events", events), ("ledger", ledger), ("hands", hands),
        ("revised", revised), ("states", states), ("host", host)]
    return [(name, rows) for name, rows in steps if rows]


async def _write_batch(connection: AsyncConnection, batch: Sequence[_Write]) -> set[int]:
    """Write ``batch`` in ``connection``'s transaction; the writes refused (by ``id``: a stale
    lease token, so nothing of theirs is written; the others' are)."""
    refused = await _fenced(connection, batch)
    if refused:
        batch = [w for w in batch if id(w) not in refused]
    for name, rows in _rows(batch):
        await connection.execute(_STATEMENTS[name], rows)
    return refused


class _SQLiteWriter:
    """The store's writes to a SQLite file, on a thread of their own with a connection of
    their own: a batch is one call into that thread, which runs ``_STATEMENTS``' SQLite text
    with the ``sqlite3`` module's ``executemany``. (Through the async engine, each statement
    and the commit were a trip to aiosqlite's thread and back through SQLAlchemy's execution
    machinery: 0.7 ms of CPU a commit against 0.2 ms this way, docs/decisions.md.) Reads stay
    on the async engine: WAL lets them run beside this writer."""

    def __init__(self, path: str) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="store-writer")
        self._path = path
        self._connection: sqlite3.Connection | None = None
        self._sql: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]] = {}

    async def open(self) -> None:
        await self._call(self._connect)

    async def close(self) -> None:
        await self._call(self._disconnect)
        self._pool.shutdown()

    async def write(self, batch: Sequence[_Write]) -> set[int]:
        """Write ``batch`` in one transaction (all of it or, on an error, none of it); the
        writes refused for a stale lease token, as ``_write_batch``. The rows are made here, on
        the event loop's thread: the writer thread runs only SQLite, which lets go of the GIL,
        so it never holds the event loop up (it made the rows itself at first, and each
        commit's hand-over then waited about 1 ms for the GIL)."""
        if any(w.token is not None for w in batch):
            return await self._call(self._write_fenced, batch)
        steps = [(self._text(name, rows[0]), rows) for name, rows in _rows(batch)]
        await self._call(self._run, steps)
        return set()

    async def _call(self, function: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)

    def _connect(self) -> None:
        # In autocommit mode: each batch opens its own transaction (BEGIN IMMEDIATE takes the
        # write lock at once, waiting up to the busy timeout for another writer).
        connection = sqlite3.connect(self._path, isolation_level=None)
        _sqlite_pragmas(connection, None)
        self._connection = connection

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _run(self, steps: list[tuple[str, list[dict[str, Any]]]]) -> None:
        """Run ``steps`` (SQL text, rows) in one transaction, on the writer thread."""
        with self._transaction() as connection:
            for sql, rows in steps:
                connection.executemany(sql, rows)

    def _write_fenced(self, batch: Sequence[_Write]) -> set[int]:
        """``write`` for a batch carrying lease tokens (a single server on SQLite takes no
        lease, but a token is checked wherever it is given), on the writer thread."""
        with self._transaction() as connection:
            rooms = sorted({w.room_id for w in batch if w.token is not None})
            marks = ",".join("?" * len(rooms))
            current = dict(connection.execute(
                f"SELECT room_id, token FROM room_leases WHERE room_id IN ({marks})",
                rooms).fetchall())
            refused = _stale(batch, current)
            for name, rows in _rows([w for w in batch if id(w) not in refused]):
                connection.executemany(self._text(name, rows[0]), rows)
        return refused

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        connection = self._connection
        if connection is None:
            raise StoreError("the store is closed")
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
            connection.execute("COMMIT")  # a refused commit is rolled back too
        except BaseException:
            if connection.in_transaction:  # SQLite may have rolled it back itself
                connection.execute("ROLLBACK")
            raise

    def _text(self, name: str, row: dict[str, Any]) -> str:
        """Statement ``name``'s SQLite text for rows with ``row``'s keys (named parameters)."""
        return _compiled(self._sql, _SQLITE_DIALECT, name, row)[0]


class _PostgresWriter:
    """The store's writes to PostgreSQL: a batch is one transaction on asyncpg's own
    connection (taken from the engine's pool), each statement of ``_STATEMENTS`` compiled once
    to PostgreSQL's text and run with asyncpg's ``executemany``. (Through SQLAlchemy's
    execution of each statement a lone commit cost 0.41 ms of the event loop's CPU;
    docs/decisions.md.)"""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._sql: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]] = {}

    async def write(self, batch: Sequence[_Write]) -> set[int]:
        """Write ``batch`` in one transaction; the writes refused for a stale lease token
        (the lease rows read ``FOR SHARE``, as ``_fenced``)."""
        async with self.engine.connect() as connection:
            driver: Any = (await connection.get_raw_connection()).driver_connection
            if driver is None:
                raise StoreError("the database connection is closed")
            async with driver.transaction():
                refused: set[int] = set()
                rooms = sorted({w.room_id for w in batch if w.token is not None})
                if rooms:
                    current = await driver.fetch(
                        "SELECT room_id, token FROM room_leases "
                        "WHERE room_id = ANY($1::varchar[]) FOR SHARE", rooms)
                    refused = _stale(batch, {row["room_id"]: row["token"] for row in current})
                    batch = [w for w in batch if id(w) not in refused]
                for name, rows in _rows(batch):
                    sql, order = _compiled(self._sql, _POSTGRES_DIALECT, name, rows[0])
                    await driver.executemany(sql, [tuple(row[key] for key in order)
                                                   for row in rows])
        return refused


def _compiled(cache: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]],
              dialect: Any, name: str, row: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """Statement ``name``'s text in ``dialect`` for rows with ``row``'s keys, and the order
    of its positional parameters (by key), compiled once into ``cache``."""
    key = (name, tuple(row))
    found = cache.get(key)
    if found is None:
        compiled = _STATEMENTS[name].compile(dialect=dialect, column_keys=list(row))
        found = cache[key] = (str(compiled), tuple(compiled.positiontup or ()))
    return found


_T = TypeVar("_T")
_SQLITE_DIALECT = sqlite_dialect.dialect(paramstyle="named")
_POSTGRES_DIALECT = asyncpg_dialect.dialect()  # type: ignore[no-untyped-call, unused-ignore]


SQLITE_CACHE_KIB = 512  # each connection's page cache; SQLite's default is 2,000 KiB


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the writer; NORMAL sync survives a killed process. A small
    # page cache: the log is appended and read back by room, the kernel caches the file anyway,
    # and a server's pooled connections each filled the default 2 MB as the log grew (the soak's
    # memory climbed with every hand until they were full).
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=10000",
                   f"cache_size=-{SQLITE_CACHE_KIB}"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


# The newest migration's revision (a test checks it is alembic's head): a database already
# there opens without alembic, whose import (mako, pygments) cost every server's start about a
# third of a second of CPU, a tenth of it.
HEAD = "0005"


def _at_head(connection: Connection) -> bool:
    """Whether the database is migrated to ``HEAD`` already (read without alembic)."""
    if not inspect(connection).has_table("alembic_version"):
        return False
    return list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars()) \
        == [HEAD]


def _migrate(connection: Connection) -> None:
    if _at_head(connection):  # a cluster's workers see the head once one of them committed it
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    if connection.dialect.name == "postgresql":
        # Workers of a cluster start together: one migrates, the others wait for it.
        connection.execute(text("SELECT pg_advisory_xact_lock(7274260017)"))
    with contextlib.redirect_stdout(None):
        command.upgrade(config, "head")

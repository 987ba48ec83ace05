"""Room leases with fencing tokens, for a cluster of workers on one PostgreSQL database.

A worker runs a room only while it holds the room's lease (a row of ``room_leases``). Taking a
lease is one atomic statement that succeeds only if the row is absent or expired, and raises
the room's token by one; the holder renews its leases well before they expire, and every write
of the room carries the token (``Store.append(token=...)``), checked in the write's own
transaction, so a worker that was paused or cut off past its lease can never write the room
again. Expiry is on the database's clock, so the workers' clocks need not agree. A tournament
has a lease of its own too (key ``tournament:ID``): its holder runs the director and every one
of its tables (each under its own room lease), and its saves carry the tournament's token.

A worker renews its leases from a thread and a database connection of its own (``Keeper``),
which also holds the worker's liveness lock (``ALIVE``): a worker whose process ended (kill -9,
a crash) has its leases taken as soon as the others' sweeps see that lock free, without waiting
for them to lapse (a worker never seen holding it, one of an earlier release, is not judged so);
a worker stalled keeps its lock, and its leases lapse. These are PostgreSQL
statements: a single server on SQLite takes no lease.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import URL, text
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from boardroom.store.store import Store, StoreError

# A lease's length: a stalled owner's rooms are taken within it (plus a sweep; a killed owner's
# as soon as two sweeps see its liveness lock free). The holder renews every RENEW_SECONDS, so a
# renewal may come 3 s late (a loaded machine, a slow database) before a lease lapses; renewals
# on the event loop came 2.85 s apart at a load of 25 and 4.78 s at 50 (docs/decisions.md,
# cluster9), hence the keeper's thread (cluster10).
LEASE_SECONDS = 3.5
RENEW_SECONDS = 0.5  # how often an owner renews, and sweeps for orphans

# Many rooms in one statement, in the order of their ids (two workers taking overlapping sets
# lock the rows in the same order, so they never deadlock).
_TAKE = text("""
INSERT INTO room_leases (room_id, owner, token, expires_at)
SELECT room, :owner, 1, now() + make_interval(secs => :seconds)
FROM unnest(CAST(:rooms AS varchar[])) AS room ORDER BY room
ON CONFLICT (room_id) DO UPDATE
    SET owner = excluded.owner, token = room_leases.token + 1, expires_at = excluded.expires_at
    WHERE room_leases.expires_at < now() OR room_leases.owner = ANY(CAST(:gone AS varchar[]))
RETURNING room_id, token
""")

# Each lease with the token its holder runs under, and never one released (a drain's
# hand-over: a renewal sent just before it must not keep the room from the worker taking it).
_RENEW = text("""
UPDATE room_leases SET expires_at = now() + make_interval(secs => :seconds)
FROM unnest(CAST(:keys AS varchar[]), CAST(:tokens AS bigint[])) AS held(key, token)
WHERE room_leases.room_id = held.key AND room_leases.token = held.token
    AND room_leases.owner = :owner AND room_leases.expires_at > '-infinity'
RETURNING room_leases.room_id, room_leases.token
""")

_RELEASE = text("""
UPDATE room_leases SET expires_at = '-infinity'
WHERE room_id = :room AND owner = :owner AND token = :token
""")

_OWNER = text("""
SELECT owner, token, expires_at > now() AS live FROM room_leases WHERE room_id = :room
""")

# Open rooms nobody holds: never leased, released, or whose owner stopped renewing. A
# tournament's tables are not among them: they are taken with their tournament.
_ORPHANS = text("""
SELECT rooms.id FROM rooms LEFT JOIN room_leases ON room_leases.room_id = rooms.id
WHERE NOT rooms.closed AND rooms.tournament IS NULL
    AND (room_leases.room_id IS NULL OR room_leases.expires_at < now())
""")

# A worker's liveness: a session-level advisory lock (PostgreSQL's own) held by the connection of
# its lease keeper (``Keeper``) for as long as the process lives. PostgreSQL frees it the moment
# that session ends, and a process killed (kill -9, a crash) ends its sessions at once: its
# leases are then taken without waiting for them to lapse. A process stopped (SIGSTOP), or a
# host cut off, keeps its sessions: its leases lapse as before. The lock's keys: ALIVE and the
# first 32 bits of the md5 of the worker's id (a clash of two ids makes a dead worker look
# alive: its leases lapse as before, never the other way round).
ALIVE = 0x426F6172
_OWNER_KEY = "('x' || left(md5({}), 8))::bit(32)"
_HOLD_ALIVE = text("SELECT pg_try_advisory_lock(:space, "
                   f"{_OWNER_KEY.format('CAST(:owner AS text)')}::int)")

# The workers holding live leases, each with whether its liveness lock is held (one row each,
# with no room), and the open rooms nobody runs: ``free`` ones (never leased, released, or
# lapsed) and those leased by a worker whose liveness lock is free.
_SWEEP = text(f"""
WITH alive AS MATERIALIZED (
    SELECT objid::bigint AS key FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND classid = CAST(:space AS oid) AND objsubid = 2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())),
owners AS MATERIALIZED (
    SELECT owner, {_OWNER_KEY.format('owner')}::bigint IN (SELECT key FROM alive) AS locked
    FROM (SELECT DISTINCT owner FROM room_leases WHERE expires_at > now()) AS live)
SELECT rooms.id, room_leases.owner,
    (room_leases.room_id IS NULL OR room_leases.expires_at < now()) AS free
FROM rooms LEFT JOIN room_leases ON room_leases.room_id = rooms.id
WHERE NOT rooms.closed AND rooms.tournament IS NULL
    AND (room_leases.room_id IS NULL OR room_leases.expires_at < now()
         OR room_leases.owner IN (SELECT owner FROM owners WHERE NOT locked))
UNION ALL
SELECT NULL, owner, locked FROM owners
""")

# Tournaments not finished that nobody holds (their leases' keys: ``tournament_key``), or
# that a worker whose process ended holds.
_ORPHAN_TOURNAMENTS = text("""
SELECT tournaments.id FROM tournaments LEFT JOIN room_leases
    ON room_leases.room_id = 'tournament:' || tournaments.id
WHERE NOT tournaments.finished
    AND (room_leases.room_id IS NULL OR room_leases.expires_at < now()
         OR room_leases.owner = ANY(CAST(:ended AS varchar[])))
""")

_LAPSED = text("""
SELECT max(extract(epoch FROM now() - expires_at)) AS seconds, array_agg(DISTINCT owner) AS owners
FROM room_leases
WHERE room_id = ANY(CAST(:rooms AS varchar[])) AND expires_at > '-infinity' AND expires_at < now()
""")

_SECRET = text("""
INSERT INTO cluster_secrets (name, value) VALUES ('seat_tokens', :value)
ON CONFLICT (name) DO NOTHING
""")


TOURNAMENT = "tournament:"  # the lease keys of tournaments start so (room ids never do)


def tournament_key(tournament_id: str) -> str:
    """The lease key of a tournament (its director and all its tables run on its holder)."""
    return TOURNAMENT + tournament_id


def tournament_of_key(key: str) -> str | None:
    """The tournament whose lease ``key`` is; None: a room's."""
    return key.removeprefix(TOURNAMENT) if key.startswith(TOURNAMENT) else None


def _check(store: Store) -> None:
    if store.engine.dialect.name != "postgresql":
        raise StoreError("room leases need PostgreSQL: a cluster's workers share one "
                         "PostgreSQL database (--database postgresql://...)")


async def _run(store: Store, statement: Any, **values: Any) -> list[Any]:
    _check(store)
    try:
        async with store.engine.begin() as connection:
            result = await connection.execute(statement, values)
            return list(result.all()) if result.returns_rows else []
    except StoreError:
        raise
    except Exception as error:
        reason = getattr(error, "orig", None) or error
        raise StoreError(f"cannot reach the database: {reason}") from error


async def take(store: Store, room_id: str, owner: str,
               seconds: float = LEASE_SECONDS, *, gone: Collection[str] = ()) -> int | None:
    """Take ``room_id``'s lease for ``owner`` if nobody holds it (absent or expired, or held
    by one of the workers ``gone``: their processes ended, ``sweep``): its new token, one more
    than any before; None if another worker holds it."""
    return (await take_many(store, [room_id], owner, seconds, gone=gone)).get(room_id)


async def take_many(store: Store, rooms: Collection[str], owner: str,
                    seconds: float = LEASE_SECONDS, *,
                    gone: Collection[str] = ()) -> dict[str, int]:
    """``take`` for many rooms in one statement: the new token of each room taken (the others
    are held by another worker)."""
    if not rooms:
        return {}
    rows = await _run(store, _TAKE, rooms=sorted(set(rooms)), owner=owner, seconds=seconds,
                      gone=sorted(set(gone)))
    return {str(row.room_id): int(row.token) for row in rows}


async def renew(store: Store, owner: str, held: Mapping[str, int],
                seconds: float = LEASE_SECONDS) -> dict[str, int]:
    """Extend the leases ``owner`` still holds of ``held`` (key -> the token it runs under);
    each one's token. A key missing was taken by another worker (or released)."""
    _check(store)
    if not held:
        return {}
    async with store.engine.connect() as connection:
        return await renew_on(connection, owner, held, seconds)


async def renew_on(connection: AsyncConnection, owner: str, held: Mapping[str, int],
                   seconds: float = LEASE_SECONDS) -> dict[str, int]:
    """``renew`` on a connection of the caller's (a lease keeper's own)."""
    if not held:
        return {}
    keys = sorted(held)
    try:
        result = await connection.execute(_RENEW, {"owner": owner, "keys": keys,
                                                   "tokens": [held[k] for k in keys],
                                                   "seconds": seconds})
        rows = list(result.all())
        await connection.commit()
    except Exception as error:
        reason = getattr(error, "orig", None) or error
        raise StoreError(f"cannot reach the database: {reason}") from error
    return {str(row.room_id): int(row.token) for row in rows}


async def hold_alive(connection: AsyncConnection, owner: str) -> bool:
    """Take ``owner``'s liveness lock on ``connection`` (a session of its own, held for the
    process's life); False if another session holds it (a process of the same id)."""
    result = await connection.execute(_HOLD_ALIVE, {"space": ALIVE, "owner": owner})
    held = bool(result.scalar())
    await connection.commit()  # a session lock: it outlives the transaction
    return held


async def release(store: Store, room_id: str, owner: str, token: int) -> bool:
    """Give the lease up (expire it now) if ``owner`` still holds it with ``token``, so
    another worker can take the room at once."""
    _check(store)
    try:
        async with store.engine.begin() as connection:
            done = await connection.execute(_RELEASE, {"room": room_id, "owner": owner,
                                                       "token": token})
            return bool(done.rowcount)
    except Exception as error:
        reason = getattr(error, "orig", None) or error
        raise StoreError(f"cannot reach the database: {reason}") from error


async def holder(store: Store, room_id: str) -> tuple[str, int] | None:
    """Who holds ``room_id``'s lease now, with its token; None if nobody does."""
    rows = await _run(store, _OWNER, room=room_id)
    if not rows or not rows[0].live:
        return None
    return str(rows[0].owner), int(rows[0].token)


async def orphans(store: Store) -> list[str]:
    """The open rooms whose lease nobody holds."""
    return sorted(row.id for row in await _run(store, _ORPHANS))


@dataclass(frozen=True)
class Swept:
    """What a sweep found: the workers holding live leases, those whose liveness locks are held
    (``locked``) and those whose locks are free (``unlocked``: their processes ended, or they
    run a release that takes no such lock), and the open rooms nobody runs: ``free`` ones
    (never leased, released, lapsed) and, for each unlocked worker, its rooms (``gone``)."""

    free: list[str]
    gone: dict[str, list[str]]
    locked: set[str]
    unlocked: set[str]


async def sweep(store: Store) -> Swept:
    """The open rooms nobody runs (a tournament's tables are taken with their tournament), and
    the workers holding leases."""
    free: list[str] = []
    gone: dict[str, list[str]] = {}
    locked: set[str] = set()
    unlocked: set[str] = set()
    for row in await _run(store, _SWEEP, space=ALIVE):
        if row.id is None:
            (locked if row.free else unlocked).add(str(row.owner))
        elif row.free:
            free.append(str(row.id))
        else:
            gone.setdefault(str(row.owner), []).append(str(row.id))
    return Swept(sorted(free), {owner: sorted(rooms) for owner, rooms in gone.items()},
                 locked, unlocked)


async def lapsed(store: Store, rooms: Collection[str]) -> tuple[float, set[str]]:
    """The seconds since the earliest of ``rooms``' leases lapsed (0: none had lapsed, or
    each was released or never taken), and the workers whose leases they were: they stopped
    renewing (dead, or stalled)."""
    rows = await _run(store, _LAPSED, rooms=sorted(set(rooms)))
    if not rows:
        return 0.0, set()
    return float(rows[0].seconds or 0.0), {str(owner) for owner in rows[0].owners or ()}


async def orphan_tournaments(store: Store, ended: Collection[str] = ()) -> list[str]:
    """The tournaments not finished whose lease nobody holds, or a worker ``ended`` holds."""
    return sorted(row.id for row in await _run(store, _ORPHAN_TOURNAMENTS,
                                               ended=sorted(set(ended))))


async def shared_secret(store: Store) -> bytes:
    """The secret every worker signs seat tokens with: made by the first worker to ask."""
    await _run(store, _SECRET, value=secrets.token_hex(32))
    rows = await _run(store, text("SELECT value FROM cluster_secrets WHERE name = "
                                  "'seat_tokens'"))
    return str(rows[0].value).encode()


log = logging.getLogger("boardroom.cluster")


class Keeper:
    """Renews a worker's leases from a thread of its own, on a database connection of its own
    that also holds the worker's liveness lock (``ALIVE``), so a busy event loop, or a pool of
    connections all taken by the rooms' writes, never delays a renewal.

    The leases are still the event loop's: every ``renew`` seconds the keeper asks the loop for
    the leases it holds (``held``, run on the loop: key -> token), and renews those the loop
    last gave it only while the loop answers. A loop that has not answered for half a lease
    (``lease / 2``) serves nobody, and its rooms must move: the keeper renews nothing until it
    answers again, so its leases lapse within half a lease plus a lease of its stalling, and
    another worker takes them. The fencing token, not the keeper, keeps a stalled worker's late
    writes out. What each renewal found goes back to the loop (``renewed(held, renewed)``, run
    on the loop), which gives up what was lost.
    """

    def __init__(self, url: URL | str, owner: str, *, lease: float, renew: float,
                 loop: asyncio.AbstractEventLoop, held: Callable[[], dict[str, int]],
                 renewed: Callable[[dict[str, int], dict[str, int]], None]) -> None:
        self.url = url
        self.owner = owner
        self.lease = lease
        self.renew = renew
        self.patience = lease / 2  # seconds the loop may take to answer before renewals stop
        self._loop = loop
        self._held_of = held
        self._renewed = renewed
        self._held: dict[str, int] = {}  # as the loop last said (a new dict each time)
        self._answered = 0.0  # when the loop's last answer was asked for (time.monotonic)
        self._asked: collections.deque[float] = collections.deque()
        self._renewed_at: float | None = None
        self.lag = 0.0  # the longest the loop took to answer (or has not answered yet)
        self.gap = 0.0  # the longest time between two renewals of this worker's leases
        self.alive = threading.Event()  # the liveness lock is held
        self._warned = False
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._main, name=f"lease-keeper-{owner}",
                                        daemon=True)

    def start(self) -> None:
        self._thread.start()

    async def stop(self) -> None:
        """Stop renewing and end the session (the liveness lock with it)."""
        self._stopping.set()
        await asyncio.to_thread(self._thread.join)

    def _beat(self, asked: float) -> None:
        """On the worker's loop: what it holds now, and that it answered."""
        self._held = self._held_of()
        self._answered = asked
        self.lag = max(self.lag, time.monotonic() - asked)

    def _main(self) -> None:
        try:
            asyncio.run(self._keep())
        except Exception as error:  # a failure of its own: the leases lapse, and say why
            log.warning("worker %s: its lease keeper stopped: %s: %s", self.owner,
                        type(error).__name__, error)

    async def _keep(self) -> None:
        engine = create_async_engine(self.url, poolclass=NullPool, connect_args={
            "server_settings": {"application_name": "boardroom lease keeper"}})
        try:
            while not self._stopping.is_set():
                try:
                    async with engine.connect() as connection:
                        while not self._stopping.is_set():
                            await self._tick(connection)
                            await self._sleep(self.renew)
                except Exception as error:  # the database went away: connect again
                    self.alive.clear()
                    reason = getattr(error, "orig", None) or error
                    log.warning("worker %s: cannot renew its leases: %s", self.owner, reason)
                    await self._sleep(self.renew)
        finally:
            self.alive.clear()
            await engine.dispose()

    async def _sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self._stopping.is_set() and (left := deadline - time.monotonic()) > 0:
            await asyncio.sleep(min(left, 0.1))

    async def _tick(self, connection: AsyncConnection) -> None:
        if not self.alive.is_set():
            if await hold_alive(connection, self.owner):
                self.alive.set()
            elif not self._warned:  # it keeps trying, once a renewal
                self._warned = True
                log.warning("worker %s: another process holds its liveness lock (a worker of "
                            "the same id?): if this one dies, its leases lapse before another "
                            "worker takes them", self.owner)
        now = time.monotonic()
        while self._asked and self._asked[0] <= self._answered:
            self._asked.popleft()
        lag = now - self._asked[0] if self._asked else 0.0
        self.lag = max(self.lag, lag)
        self._asked.append(now)
        try:
            self._loop.call_soon_threadsafe(self._beat, now)
        except RuntimeError:  # the worker's loop is closed
            self._stopping.set()
            return
        if lag > self.patience:
            log.warning("worker %s: its event loop has not answered for %.2f s: its leases "
                        "are not renewed", self.owner, lag)
            return
        held = self._held
        if not held:
            self._renewed_at = None
            return
        renewed = await renew_on(connection, self.owner, held, self.lease)
        self._note(time.monotonic())
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(self._renewed, held, renewed)

    def _note(self, now: float) -> None:
        if self._renewed_at is not None:
            gap = now - self._renewed_at
            self.gap = max(self.gap, gap)
            if gap > self.lease / 2:
                log.warning("worker %s: %.2f s between two renewals of its leases (they last "
                            "%.1f s): the machine or the database is overloaded", self.owner,
                            gap, self.lease)
        self._renewed_at = now

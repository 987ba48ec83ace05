"""Room leases with fencing tokens, for a cluster of workers on one PostgreSQL database.

A worker runs a room only while it holds the room's lease (a row of ``room_leases``). Taking a
lease is one atomic statement that succeeds only if the row is absent or expired, and raises
the room's token by one; the holder renews its leases well before they expire, and every write
of the room carries the token (``Store.append(token=...)``), checked in the write's own
transaction, so a worker that was paused or cut off past its lease can never write the room
again. Expiry is on the database's clock, so the workers' clocks need not agree. A tournament
has a lease of its own too (key ``tournament:ID``): its holder runs the director and every one
of its tables (each under its own room lease), and its saves carry the tournament's token. These are
PostgreSQL statements: a single server on SQLite takes no lease.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Any

from sqlalchemy import bindparam, text

from boardroom.store.store import Store, StoreError

# A lease's length: a dead owner's rooms are taken within it (plus a sweep). The holder renews
# every RENEW_SECONDS, so a renewal may come 3 s late (a loaded machine's event loop or
# database) before a lease lapses, as with the 4 s leases renewed every second before; the
# longest gap between two renewals measured in a failover at a load of 25 was 2.85 s
# (docs/decisions.md, cluster9).
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
    WHERE room_leases.expires_at < now()
RETURNING room_id, token
""")

_RENEW = text("""
UPDATE room_leases SET expires_at = now() + make_interval(secs => :seconds)
WHERE owner = :owner AND room_id IN :rooms RETURNING room_id, token
""").bindparams(bindparam("rooms", expanding=True))

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

# Tournaments not finished that nobody holds (their leases' keys: ``tournament_key``).
_ORPHAN_TOURNAMENTS = text("""
SELECT tournaments.id FROM tournaments LEFT JOIN room_leases
    ON room_leases.room_id = 'tournament:' || tournaments.id
WHERE NOT tournaments.finished
    AND (room_leases.room_id IS NULL OR room_leases.expires_at < now())
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
               seconds: float = LEASE_SECONDS) -> int | None:
    """Take ``room_id``'s lease for ``owner`` if nobody holds it (absent or expired): its new
    token, one more than any before; None if another worker holds it."""
    return (await take_many(store, [room_id], owner, seconds)).get(room_id)


async def take_many(store: Store, rooms: Collection[str], owner: str,
                    seconds: float = LEASE_SECONDS) -> dict[str, int]:
    """``take`` for many rooms in one statement: the new token of each room taken (the others
    are held by another worker)."""
    if not rooms:
        return {}
    rows = await _run(store, _TAKE, rooms=sorted(set(rooms)), owner=owner, seconds=seconds)
    return {str(row.room_id): int(row.token) for row in rows}


async def renew(store: Store, owner: str, rooms: list[str],
                seconds: float = LEASE_SECONDS) -> dict[str, int]:
    """Extend the leases of ``rooms`` that ``owner`` still holds; each one's token. A room
    missing, or with another token than the one its owner runs it with, was taken by another
    worker."""
    if not rooms:
        return {}
    return {row.room_id: int(row.token)
            for row in await _run(store, _RENEW, owner=owner, rooms=rooms, seconds=seconds)}


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


async def lapsed(store: Store, rooms: Collection[str]) -> tuple[float, set[str]]:
    """The seconds since the earliest of ``rooms``' leases lapsed (0: none had lapsed, or
    each was released or never taken), and the workers whose leases they were: they stopped
    renewing (dead, or stalled)."""
    rows = await _run(store, _LAPSED, rooms=sorted(set(rooms)))
    if not rows:
        return 0.0, set()
    return float(rows[0].seconds or 0.0), {str(owner) for owner in rows[0].owners or ()}


async def orphan_tournaments(store: Store) -> list[str]:
    """The tournaments not finished whose lease nobody holds."""
    return sorted(row.id for row in await _run(store, _ORPHAN_TOURNAMENTS))


async def shared_secret(store: Store) -> bytes:
    """The secret every worker signs seat tokens with: made by the first worker to ask."""
    await _run(store, _SECRET, value=secrets.token_hex(32))
    rows = await _run(store, text("SELECT value FROM cluster_secrets WHERE name = "
                                  "'seat_tokens'"))
    return str(rows[0].value).encode()

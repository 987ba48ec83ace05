"""The tables of the store (SQLAlchemy Core). Alembic migrations create and change them.

``rooms`` holds each room's settings, the hash of its host's secret and its table as plain data
(seats, stacks, the hand in progress with its deck and actions), written whole at hand
boundaries and when seats or the ledger change; ``events`` is the append-only log of every
numbered event (hand events as they really happened, cards included; never served), and the
last event of each commit that did not write the whole state carries that commit's ``change``
to it (the hand's new actions, the seats that changed); the room's state is ``rooms.state``
with the changes of the events after ``rooms.version`` applied in order. ``hands`` keeps every
finished hand for its history; ``ledger`` lists the chips each player brought and took away.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

metadata = MetaData()

rooms = Table(
    "rooms", metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("settings", Text, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("state", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("closed", Boolean, nullable=False, default=False),
    Column("tournament", String(32), nullable=True),  # a tournament's table: run with it
)

events = Table(
    "events", metadata,
    Column("room_id", String(32), nullable=False),
    Column("version", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("hand_no", Integer, nullable=True),
    Column("command_id", String(64), nullable=True),
    Column("at", Float, nullable=False),
    Column("payload", Text, nullable=False),
    Column("change", Text, nullable=True),  # the commit's change to the room's state
    PrimaryKeyConstraint("room_id", "version", name="pk_events"),
)

hands = Table(
    "hands", metadata,
    Column("room_id", String(32), nullable=False),
    Column("hand_no", Integer, nullable=False),
    Column("game", String(32), nullable=False),
    Column("ended_at", Float, nullable=False),
    Column("record", Text, nullable=False),
    PrimaryKeyConstraint("room_id", "hand_no", name="pk_hands"),
)

ledger = Table(
    "ledger", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", String(32), nullable=False),
    Column("version", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("entry", String(16), nullable=False),
    Column("amount", Integer, nullable=False),
    Index("ix_ledger_room", "room_id", "id"),
)

# A tournament's whole state (its director's and the server's: the table rooms, the planned
# hands), rewritten as it changes; the tables' own rows are rooms like any other.
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("state", Text, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
)

# A cluster's room leases (store.leases): the worker that runs each room, the fencing token
# every write of the room carries (one more on every take) and when the lease runs out, on the
# database's clock. A single server writes no lease.
room_leases = Table(
    "room_leases", metadata,
    Column("room_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("token", BigInteger, nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

# Secrets a cluster's workers share (the seat tokens' signing key), written once by the first.
cluster_secrets = Table(
    "cluster_secrets", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

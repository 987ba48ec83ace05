"""The first schema: rooms, events, hands, ledger.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("closed", sa.Boolean, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("hand_no", sa.Integer, nullable=True),
        sa.Column("command_id", sa.String(64), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("room_id", "version", name="pk_events"),
    )
    op.create_table(
        "hands",
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("hand_no", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("room_id", "hand_no", name="pk_hands"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("entry", sa.String(16), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
    )
    op.create_index("ix_ledger_room", "ledger", ["room_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_ledger_room", "ledger")
    for name in ("ledger", "hands", "events", "rooms"):
        op.drop_table(name)

"""Room leases with fencing tokens, and the secret the workers of a cluster share.

A worker of a cluster (several ``boardroom serve`` processes on one PostgreSQL database) runs a
room only while it holds the room's row here: ``owner`` is the worker's id, ``token`` grows by
one on every take (the fencing token every write of the room carries), ``expires_at`` is the
database's clock plus the lease's length. ``cluster_secrets`` keeps the secret seat tokens are
signed with, so a token one worker signed is good on every other.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cluster_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cluster_secrets")
    op.drop_table("room_leases")

"""A room's tournament: the tables of a tournament are run with it, as one unit.

``rooms.tournament`` names the tournament a table room belongs to (None: a cash room). A
cluster's workers take over a dead worker's cash rooms one by one, and a tournament with all of
its tables together (``store.leases``), so they never skip a tournament's table.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("tournament", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "tournament")

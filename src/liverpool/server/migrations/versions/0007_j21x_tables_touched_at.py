"""When a table was last used, as the workers of a shared store know it (issue 21, several
workers): a worker deletes a table waiting for players only when no worker used it for
``waiting_expiry`` seconds. Null: not written yet (the table counts from its creation).

Revision ID: 0007_j21x_tables_touched_at
Revises: 0006_j21w_client_action_id
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_j21x_tables_touched_at"
down_revision = "0006_j21w_client_action_id"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("touched_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("touched_at")

"""The client's id of each person's action (issue 21, several workers): a resend under the same
id is answered and never applied twice, also after a restart and at another worker.

Revision ID: 0006_j21w_client_action_id
Revises: 0005_i26_players
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_j21w_client_action_id"
down_revision = "0005_i26_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("client_id", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("client_id")

"""Rematch offers that survive a restart: for each person's seat of a finished table, the table
of its rematch and the SHA-256 of the seat token handed out for it (never the token).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("rematch_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("issued_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")

"""Hints and reviews (issue 13): the table's ``hints`` option, the hints each seat used in its
deal, and the reviews of finished games.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("hints", sa.String(16), nullable=True))
    op.add_column("seats", sa.Column("hints_deal", sa.Integer, nullable=True))
    op.add_column("seats", sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("samples", sa.Integer, primary_key=True),
        sa.Column("seed", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("hints_used")
        batch.drop_column("hints_deal")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")

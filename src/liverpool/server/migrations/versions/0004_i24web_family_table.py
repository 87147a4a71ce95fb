"""The family table (issue 24): a table's pace, chat and spectator options, and its chat.

``table_options``: the buy window's length, the deal-end pause, who may chat, whether the table
may be watched (a table without a row has the defaults). ``chat``: every line said at a table,
numbered, by a seat, a spectator or the table itself (joins, leaves, bot take-overs).

Revision ID: 0004_i24web_family_table
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_i24web_family_table"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_options",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("buy_seconds", sa.Float, nullable=True),
        sa.Column("deal_pause", sa.Float, nullable=True),
        sa.Column("chat", sa.String(16), nullable=True),
        sa.Column("spectators", sa.Boolean, nullable=True),
    )
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat")
    op.drop_table("table_options")

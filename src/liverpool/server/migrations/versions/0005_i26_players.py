"""Players who come back (issue 26): reserved names and their sessions, failed logins, and the
finished games with the ratings they changed. Portable types only (SQLite and PostgreSQL alike).

Revision ID: 0005_i26_players
Revises: 0004_i24web_family_table
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_i26_players"
down_revision = "0004_i24web_family_table"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("client", sa.String(16), nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(80), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
    )
    op.create_index("ix_games_finished", "games", ["finished_at"])
    op.create_table(
        "game_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("games.table_id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("subject", sa.String(80), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
        sa.Column("stats", sa.JSON, nullable=False),
    )
    op.create_index("ix_game_seats_subject", "game_seats", ["subject"])
    op.create_table("unrated_tables", sa.Column("table_id", sa.String(32), primary_key=True))


def downgrade() -> None:
    op.drop_table("unrated_tables")
    op.drop_index("ix_game_seats_subject", "game_seats")
    op.drop_table("game_seats")
    op.drop_index("ix_games_finished", "games")
    op.drop_table("games")
    op.drop_table("ratings")
    op.drop_table("login_failures")
    op.drop_index("ix_sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")

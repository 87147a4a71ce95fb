"""State the store keeps instead of one process's memory (several workers, restarts):

- ``tables.rematch_of`` is unique (``ux_tables_rematch_of``): a finished table has one rematch,
  whichever workers were asked for it at the same moment (the second insert is refused and its
  request is answered with the first one's table). Rematches made twice by an older server are
  left with the one the ``rematches`` table records (or the first made); the others' column is
  cleared.
- ``chat_mutes``: the talkers each seat muted (``seat:N``, ``name:NAME``), kept for the seat across
  restarts and at every worker.
- ``seats.hint_version`` and ``seats.hint_answer``: the seat's last hint (the decision it was for,
  the action and the answer) with its count, so asking again for it after a restart or at another
  worker answers it without counting it twice.
- ``tables.waiting_by``: a table that counts against the caps on waiting tables, by the SHA-256 of
  the address that made it (``""``: no address); null for a table not counted (a quick play, a
  rematch). The caps are counted from the store, by every worker alike. Tables waiting when the
  store is migrated count against the global cap (``""``).

Revision ID: 0008_k21tab_store_state
Revises: 0007_j21x_tables_touched_at
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_k21tab_store_state"
down_revision = "0007_j21x_tables_touched_at"
branch_labels = None
depends_on = None


def _one_rematch_each() -> None:
    """Clear ``rematch_of`` of every rematch but one of a table (made twice by an older server)."""
    conn = op.get_bind()
    t = sa.table("tables", sa.column("id"), sa.column("rematch_of"), sa.column("created_at"))
    r = sa.table("rematches", sa.column("table_id"), sa.column("rematch_id"))
    made: dict[str, list[str]] = {}
    q = sa.select(t.c.id, t.c.rematch_of).where(t.c.rematch_of.is_not(None)).order_by(t.c.created_at, t.c.id)
    for table_id, of in conn.execute(q).all():
        made.setdefault(str(of), []).append(str(table_id))
    recorded = {str(of): str(rid) for of, rid in conn.execute(sa.select(r.c.table_id, r.c.rematch_id)).all()}
    for of, ids in made.items():
        if len(ids) < 2:
            continue
        keep = recorded.get(of) if recorded.get(of) in ids else ids[0]
        others = [i for i in ids if i != keep]
        conn.execute(t.update().where(t.c.id.in_(others)).values(rematch_of=None))


def upgrade() -> None:
    _one_rematch_each()
    op.create_index("ux_tables_rematch_of", "tables", ["rematch_of"], unique=True)
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("who", sa.String(80), primary_key=True),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("hint_version", sa.Integer, nullable=True))
        batch.add_column(sa.Column("hint_answer", sa.JSON, nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("waiting_by", sa.String(64), nullable=True))
    t = sa.table("tables", sa.column("status"), sa.column("waiting_by"))
    op.get_bind().execute(t.update().where(t.c.status == "waiting").values(waiting_by=""))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("waiting_by")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("hint_answer")
        batch.drop_column("hint_version")
    op.drop_table("chat_mutes")
    op.drop_index("ux_tables_rematch_of", table_name="tables")

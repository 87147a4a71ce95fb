"""A table's chat (issue 24): lines said by the seated people (and by spectators where the table
allows it) and the table's own lines (joins, leaves, bot take-overs), kept in the store with the
game and sent to every socket of the table as they come.

- Who may talk: the table option ``chat``: ``"players"`` (the seated people, the default),
  ``"everyone"`` (spectators too) or ``"off"``.
- Limits: a line is 1 to :data:`MAX_CHARS` characters (after trimming; control characters
  dropped); each talker may say :data:`BURST` lines at once and one more every
  :data:`EVERY` seconds (``chat_limited`` otherwise).
- Lines are text: the server never interprets them, and clients show them as text.
- The last :data:`KEPT` lines are kept in memory and sent (``chat_log``) after every ``hello``.
- Mutes: each seat's muted talkers (``mute``: ``seat:N`` or ``name:NAME``) are kept by the table,
  for that seat, across its reconnects and clients (browser and terminal alike); a muted talker's
  lines are not sent to that seat (neither live nor in its ``chat_log``, which lists ``muted``).
  They are kept in the store (``chat_mutes``, migration 0008_k21tab_store_state): a restart keeps
  them, and a worker reads a seat's mutes again when a socket of that seat connects to it.
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .store import Store, metadata

if TYPE_CHECKING:
    from .table import Connection

__all__ = ["CHAT_CHOICES", "MAX_CHARS", "Chat", "ChatOption", "chat_lines", "chat_mutes", "clean_line", "talker"]

ChatOption = Literal["players", "everyone", "off"]
CHAT_CHOICES: tuple[str, ...] = ("players", "everyone", "off")
MAX_CHARS = 300
"""The longest line (characters)."""
BURST = 5
EVERY = 2.0
"""A talker may say BURST lines at once, then one every EVERY seconds."""
KEPT = 200
"""Lines kept in memory and sent to a new socket."""
MAX_MUTES = 64
"""Talkers one seat may mute."""


def talker(line: dict[str, Any]) -> str | None:
    """The key a ``say`` line's talker is muted by (``seat:N``, ``name:NAME``); None for the table's lines."""
    if line.get("kind") != "say":
        return None
    seat = line.get("seat")
    return f"seat:{seat}" if isinstance(seat, int) else f"name:{line.get('name', '')}"


chat_lines = sa.Table(
    "chat",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),  # "say" (a person) or "system" (the table)
    sa.Column("seat", sa.Integer, nullable=True),  # the talker's seat; null: a spectator or the table
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(400), nullable=False),
)
"""Every line said at a table (migration 0004_i24web_family_table)."""

chat_mutes = sa.Table(
    "chat_mutes",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("who", sa.String(80), primary_key=True),  # the talker muted: seat:N or name:NAME
)
"""The talkers each seat of a table muted (migration 0008_k21tab_store_state)."""


def clean_line(text: str) -> str:
    """The line as kept: control characters (line breaks included) become spaces, trimmed."""
    out = "".join(" " if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)
    return " ".join(out.split())


@dataclass
class Chat:
    """One table's chat."""

    table_id: str
    store: Store
    option: ChatOption = "players"
    lines: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEPT))
    count: int = 0  # lines said at this table so far (the next line's number)
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    announced: set[int] = field(default_factory=set)  # seats whose bot take-over was said
    mutes: dict[int, set[str]] = field(default_factory=dict)  # seat -> the talkers it muted

    async def load(self) -> None:
        """The table's last lines from the store (a table loaded again, or after a restart)."""
        table_id = self.table_id

        async def job(c: AsyncConnection) -> list[dict[str, Any]]:
            q = (
                chat_lines.select()
                .where(chat_lines.c.table_id == table_id)
                .order_by(chat_lines.c.idx.desc())
                .limit(KEPT)
            )
            return [dict(r) for r in (await c.execute(q)).mappings().all()]

        rows: list[dict[str, Any]] = await self.store._run(job)
        rows.reverse()
        self.lines.clear()
        self.lines.extend(self._public(r) for r in rows)
        self.count = rows[-1]["idx"] + 1 if rows else 0
        await self.load_mutes()

    async def load_mutes(self, seat: int | None = None) -> None:
        """The seats' mutes as the store keeps them (every seat's, or ``seat``'s: a socket of it
        connects, maybe after it muted someone at another worker)."""
        table_id = self.table_id

        async def job(c: AsyncConnection) -> list[tuple[int, str]]:
            m = chat_mutes.c
            q = sa.select(m.seat, m.who).where(m.table_id == table_id)
            if seat is not None:
                q = q.where(m.seat == seat)
            return [(int(r[0]), str(r[1])) for r in (await c.execute(q)).all()]

        rows: list[tuple[int, str]] = await self.store._run(job)
        if seat is None:
            self.mutes.clear()
        else:
            self.mutes.pop(seat, None)
        for s, who in rows:
            self.mutes.setdefault(s, set()).add(who)

    @staticmethod
    def _public(row: dict[str, Any]) -> dict[str, Any]:
        return {
            "n": row["idx"],
            "at": int(row["at"] * 1000),
            "kind": row["kind"],
            "seat": row["seat"],
            "name": row["name"],
            "text": row["text"],
        }

    def allow(self, who: str) -> bool:
        """The talker's token bucket: False when this line is one too many."""
        now = time.monotonic()
        tokens, stamp = self._buckets.get(who, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - stamp) / EVERY)
        if tokens < 1.0:
            self._buckets[who] = (tokens, now)
            return False
        self._buckets[who] = (tokens - 1.0, now)
        return True

    async def add(self, kind: str, seat: int | None, name: str, text: str) -> dict[str, Any]:
        """Keep a line (committed to the store) and return the ``chat`` message of it."""
        row = {
            "table_id": self.table_id,
            "idx": self.count,
            "at": time.time(),
            "kind": kind,
            "seat": seat,
            "name": name[:64],
            "text": text[:400],
        }
        self.count += 1

        table_id = self.table_id

        async def job(c: AsyncConnection) -> None:
            await c.execute(chat_lines.insert().values(**row))

        async def top(c: AsyncConnection) -> int:
            q = sa.select(sa.func.max(chat_lines.c.idx)).where(chat_lines.c.table_id == table_id)
            found = (await c.execute(q)).scalar()
            return -1 if found is None else int(found)

        for attempt in range(8):
            try:
                await self.store._run(job)
                break
            except sa.exc.IntegrityError:
                # several workers (server/bus.py): another one said a line with this number first
                if attempt == 7:
                    raise
                idx = max(self.count, await self.store._run(top) + 1)
                row["idx"], self.count = idx, idx + 1
        line = self._public(row)
        self.lines.append(line)
        return {"type": "chat", "line": line}

    def log_message(self, seat: int | None = None) -> dict[str, Any]:
        """The ``chat_log`` a new socket gets after its ``hello`` (a seat's: without the lines of
        the talkers it muted, and ``muted`` naming them)."""
        muted = self.mutes.get(seat, set()) if seat is not None else set()
        lines = [line for line in self.lines if talker(line) not in muted]
        message: dict[str, Any] = {"type": "chat_log", "option": self.option, "lines": lines}
        if seat is not None:
            message["muted"] = sorted(muted)
        return message

    async def mute(self, seat: int, who: str, on: bool) -> bool:
        """Mute (or unmute) ``who`` for ``seat``, kept in the store first; False when the seat
        muted too many already."""
        muted = self.mutes.setdefault(seat, set())
        if on and who not in muted and len(muted) >= MAX_MUTES:
            return False
        if on == (who in muted):
            return True
        table_id = self.table_id
        m = chat_mutes.c

        async def job(c: AsyncConnection) -> None:
            where = (m.table_id == table_id, m.seat == seat, m.who == who)
            await c.execute(chat_mutes.delete().where(*where))  # (another worker's row of it)
            if on:
                await c.execute(chat_mutes.insert().values(table_id=table_id, seat=seat, who=who))

        await self.store._run(job)
        if on:
            muted.add(who)
        else:
            muted.discard(who)
        return True

    def muted(self, seat: int, line: dict[str, Any]) -> bool:
        """``seat`` muted the talker of this line."""
        who = talker(line)
        return who is not None and who in self.mutes.get(seat, ())

    def refusal(self, conn: Connection, spectator: bool) -> tuple[str, str] | None:
        """Why this socket may not talk now (code, reason), or None."""
        if self.option == "off":
            return "chat_off", "the chat is off at this table"
        if spectator and self.option != "everyone":
            return "chat_off", "at this table only the players chat"
        return None

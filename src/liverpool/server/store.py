"""The store: an append-only log of every table (rules, seats, seed, then each applied action).

SQLAlchemy 2 Core on an async driver chosen by the URL (``sqlite:///liverpool.db`` becomes
``sqlite+aiosqlite:///liverpool.db``); the schema is made by the Alembic migrations of
``migrations/`` when the store opens. SQLite runs in WAL mode.

Every write goes through one connection and one writer task: writes queued while a transaction
commits are committed together in the next one (group commit), so a table's action is committed
before its state is sent, and 50 busy tables still commit a few hundred times a second at most.

Durable by construction: a state change and the action causing it are one job, so one transaction
(the last action of a game with its status "over", scores and winners: :meth:`Store.append` with
``finish``; a start with its bot seats, status and seed: :meth:`Store.start_table`).

SQLite: the writer checkpoints the WAL itself between batches (``wal_checkpoint(TRUNCATE)`` once
the WAL holds 16 MB or a second after the last one; nothing else writes meanwhile) and
``journal_size_limit`` caps what a WAL keeps after a reset, so the WAL stays under 64 MB (about
``checkpoint_bytes`` plus one batch) under all-out load instead of growing without bound. A file
database is locked for one server: a second :meth:`Store.open` on it (another ``liverpool serve``)
raises :class:`StoreLocked` with a message naming the holder.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

__all__ = [
    "CHANNEL",
    "NOTICE_BYTES",
    "Conflict",
    "RematchTaken",
    "Store",
    "StoreLocked",
    "TableRow",
    "act_notices",
    "actions",
    "async_url",
    "check_free",
    "metadata",
    "rematches",
    "reviews",
    "seats",
    "tables",
]

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("timer", sa.Float, nullable=True),
    sa.Column("bot_delay", sa.Float, nullable=True),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("winners", sa.JSON, nullable=True),
    sa.Column("rematch_of", sa.String(32), nullable=True),
    sa.Column("hints", sa.String(16), nullable=True),  # "off", "3", "unlimited" (null: the default, 3)
    # last use of a waiting table known to the workers of a shared store (null: its creation)
    sa.Column("touched_at", sa.Float, nullable=True),
    # a table counted against the caps on waiting tables: the SHA-256 of the address that made it
    # ("": none); null: not counted (a quick play, a rematch) (migration 0008)
    sa.Column("waiting_by", sa.String(64), nullable=True),
    sa.Index("ix_tables_status", "status"),
    # one rematch per finished table, whichever workers made it at once (migration 0008)
    sa.Index("ux_tables_rematch_of", "rematch_of", unique=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("hints_deal", sa.Integer, nullable=True),  # the deal of ``hints_used``
    sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"),
    # the seat's last hint: the decision (version) it answered and {"action", "found"} (migration 0008)
    sa.Column("hint_version", sa.Integer, nullable=True),
    sa.Column("hint_answer", sa.JSON, nullable=True),
    sa.Index("ix_seats_name", "name"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("source", sa.String(8), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # a person's action: the client's id of it (its message's version and choice), so a resend is
    # answered and never applied twice, after a restart and at another worker too (migration 0006)
    sa.Column("client_id", sa.String(64), nullable=True),
)

reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("samples", sa.Integer, primary_key=True),
    sa.Column("seed", sa.Integer, primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("review", sa.JSON, nullable=False),
)
"""Reviews of finished games (``GET /api/tables/{id}/review/{seat}``), by their budget."""

rematches = sa.Table(
    "rematches",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("rematch_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("issued_at", sa.Float, nullable=False),
)
"""The rematch of a finished table: per person's seat, the new table and the SHA-256 of the token
handed out for its seat there (migration 0003)."""

TableRow = dict[str, Any]
T = TypeVar("T")
log = logging.getLogger("liverpool.server")


class _Append:
    """A job appending one action row: the writer inserts a batch's rows in one statement."""

    __slots__ = ("row",)

    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row


Job = Callable[[AsyncConnection], Awaitable[Any]] | _Append
_INSERT_ACTION = actions.insert()

_MIGRATIONS = Path(__file__).with_name("migrations")


def async_url(url: str) -> str:
    """The URL with an async driver: ``sqlite://`` -> ``sqlite+aiosqlite://``,
    ``postgresql://`` -> ``postgresql+asyncpg://``; a URL naming its driver is kept."""
    u = make_url(url)
    if u.drivername == "sqlite":
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+asyncpg")
    return u.render_as_string(hide_password=False)


JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
"""``PRAGMA journal_size_limit``: the most a SQLite WAL file keeps after a checkpoint reset it."""


class StoreLocked(RuntimeError):
    """Another server holds this SQLite database (its lock file is locked)."""


class Conflict(Exception):
    """An action's (table id, seq) is taken: another worker wrote that seq first (shared store)."""


class RematchTaken(Exception):
    """The rematch of a finished table was made first by another request (another worker): its
    id is ``rematch_id``; nothing of the refused one was written."""

    def __init__(self, table_id: str, rematch_id: str) -> None:
        super().__init__(f"table {table_id}: its rematch is {rematch_id}")
        self.table_id = table_id
        self.rematch_id = rematch_id


CHANNEL = "liverpool"
"""The PostgreSQL notification channel of the workers of one store (server/bus.py)."""


NOTICE_BYTES = 7500
"""The most bytes of one notification's payload (PostgreSQL refuses one of 8000 or more)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))  # ASCII only: as many bytes as characters


def act_notices(worker: str, rows: list[dict[str, Any]], limit: int = NOTICE_BYTES) -> list[str]:
    """The payloads telling the other workers of a commit of action rows: ``{"w": worker, "k": "act",
    "v": {table: its count of actions}, "r": {table: [[idx, seat, action, source, client_id], ...]}}``,
    each at most ``limit`` bytes. A table's rows ride along when they fit (a worker with the table
    in memory applies them without reading the store); a table whose rows do not fit has its count
    only (the worker reads the rows). As many payloads as the tables' counts need.

    >>> row = {"table_id": "t", "idx": 4, "seat": 1, "action": {"type": "discard"}, "source": "bot"}
    >>> rows = [row | {"client_id": None}]
    >>> act_notices("w1", rows)
    ['{"w":"w1","k":"act","v":{"t":5},"r":{"t":[[4,1,{"type":"discard"},"bot",null]]}}']
    >>> act_notices("w1", rows, limit=40)
    ['{"w":"w1","k":"act","v":{"t":5}}']
    """
    by_table: dict[str, list[list[Any]]] = {}
    for r in rows:
        by_table.setdefault(r["table_id"], []).append([r["idx"], r["seat"], r["action"], r["source"], r["client_id"]])
    head = '{"w":' + _dumps(worker) + ',"k":"act","v":{'
    out: list[str] = []
    versions: list[str] = []
    given: list[str] = []
    size = len(head) + len('},"r":{}}')

    def flush() -> None:
        if versions:
            tail = '},"r":{' + ",".join(given) + "}}" if given else "}}"
            out.append(head + ",".join(versions) + tail)
        versions.clear()
        given.clear()

    for table_id, table_rows in by_table.items():
        key = _dumps(table_id)
        version = f"{key}:{table_rows[-1][0] + 1}"
        listed = f"{key}:{_dumps(table_rows)}"
        if size + len(version) + 1 > limit:
            flush()
            size = len(head) + len('},"r":{}}')
        size += len(version) + 1
        versions.append(version)
        if size + len(listed) + 1 <= limit:
            size += len(listed) + 1
            given.append(listed)
    flush()
    return out


def lock_path(database: str) -> Path:
    """The lock file of a SQLite database file: ``liverpool.db`` -> ``liverpool.db-server.lock``."""
    return Path(database + "-server.lock")


def _lock(database: str) -> int:
    """Take the exclusive lock of a SQLite database for this process (``flock`` on its lock
    file, released when the process ends, even by kill -9); StoreLocked when another holds it."""
    path = lock_path(database)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StoreLocked(
            f"another liverpool server (pid {holder}) is using the database {database}: "
            "stop it first, or give this one another --database (one server per SQLite file; "
            "several processes need PostgreSQL, docs/deploy.md)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


_PG_LOCK = 0x6C697665727030  # the advisory lock key of a server's PostgreSQL store ("liverp0")


def check_free(url: str) -> None:
    """StoreLocked when a server holds the SQLite database of ``url`` (nothing for another database)."""
    u = make_url(async_url(url))
    if u.get_backend_name() == "sqlite" and u.database not in (None, "", ":memory:"):
        assert u.database is not None
        os.close(_lock(u.database))


def _upgrade(connection: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


class Store:
    """The log of tables and actions in one database. ``await store.open()`` first."""

    def __init__(
        self,
        url: str = "sqlite:///liverpool.db",
        synchronous: str = "normal",
        checkpoint_every: float = 1.0,
        exclusive: bool = True,
        shared: bool = False,
        migrate: bool = True,
    ) -> None:
        self.url = async_url(url)
        # PostgreSQL: hold the server's advisory lock while open (one server per database);
        # False for tools and tests that open the store beside a server
        self.exclusive = exclusive
        # PostgreSQL with several workers: the lock is held shared (every worker of the store holds
        # it; a single-process server holding it exclusively keeps them out, and they it), and every
        # commit of actions notifies the other workers in its own transaction (server/bus.py)
        self.shared = shared
        self.migrate = migrate  # False: the migrations ran before (a release step)
        self.worker = ""  # the worker's id in the notifications (server/bus.py)
        self.lock_wait = 5.0  # seconds a PostgreSQL server waits for the lock of one just killed
        self.synchronous = synchronous.upper()
        if self.synchronous not in ("OFF", "NORMAL", "FULL"):
            raise ValueError(f"synchronous must be off, normal or full, got {synchronous!r}")
        self.engine: AsyncEngine | None = None
        self._conn: AsyncConnection | None = None
        self._queue: asyncio.Queue[tuple[Job, asyncio.Future[Any]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._fast: tuple[Any, str, tuple[str, ...]] | None = None  # (aiosqlite connection, SQL, columns)
        self._lock_fd: int | None = None
        self.commits = 0
        self.checkpoint_every = checkpoint_every
        self.checkpoint_bytes = 16 * 1024 * 1024
        self._checkpoints = False  # a SQLite file: the writer checkpoints its WAL
        self._checkpointed_at = 0.0
        self._checkpointed_commits = 0
        self.checkpoints = 0
        self.checkpoint_seconds = 0.0  # the longest checkpoint (the writer's stall)
        self.checkpoint_busy = 0  # checkpoints that could not finish (a reader of another process)
        self.wal_peak = 0  # the largest WAL seen (bytes, just before a checkpoint)
        self.wal_written = 0  # bytes of WAL checkpointed in all
        self._wal: Path | None = None

    # ------------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        u = make_url(self.url)
        kwargs: dict[str, Any] = {}
        sqlite = u.get_backend_name() == "sqlite"
        if sqlite and u.database in (None, "", ":memory:"):
            kwargs["poolclass"] = StaticPool
        elif sqlite:
            assert u.database is not None
            self._lock_fd = _lock(u.database)
        try:
            await self._open(u, sqlite, kwargs)
        except BaseException:
            await self.close()
            raise

    async def _open(self, u: Any, sqlite: bool, kwargs: dict[str, Any]) -> None:
        self.engine = create_async_engine(self.url, **kwargs)
        if sqlite:
            sync_mode = self.synchronous

            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={sync_mode}")
                cur.execute("PRAGMA foreign_keys=ON")
                # this server is the file's only writer (the lock): only its checkpoint waits, for
                # another process's reader (a backup); it gives up soon and the next one finishes
                cur.execute("PRAGMA busy_timeout=100")
                # no checkpoint inside a commit (it stalled every table for up to a second under
                # load): the writer checkpoints between batches (_checkpoint)
                cur.execute("PRAGMA wal_autocheckpoint=0")
                cur.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")
                cur.close()

        self._conn = await self.engine.connect()
        if self.exclusive and u.get_backend_name() == "postgresql":
            await self._lock_postgresql(u)  # before the migrations: one server migrates
        if self.migrate:
            async with self.engine.begin() as conn:
                await conn.run_sync(_upgrade)
        if u.get_backend_name() == "sqlite" and self.engine.dialect.driver == "aiosqlite":
            # the log's hot path: a batch of actions only is written through the driver's own
            # connection (the statement compiled by SQLAlchemy from the Core insert), in two round
            # trips to the driver's thread (executemany, commit) instead of about five; under load
            # each round trip waits for a turn of the busy event loop
            raw = await self._conn.get_raw_connection()
            compiled = _INSERT_ACTION.compile(dialect=self.engine.dialect)
            self._fast = (raw.driver_connection, str(compiled), tuple(compiled.positiontup or ()))
        self._checkpoints = sqlite and "poolclass" not in kwargs
        if self._checkpoints:
            self._wal = Path(str(u.database) + "-wal")
        self._checkpointed_at = time.monotonic()
        self._writer = asyncio.create_task(self._write_loop(), name="liverpool-store-writer")

    async def _lock_postgresql(self, u: Any) -> None:
        """Take the server's session advisory lock on the writer's connection (released when that
        connection ends, also when the process is killed: a restart waits up to ``lock_wait`` seconds
        for the old session to go); StoreLocked when another server holds it."""
        conn = self._conn
        assert conn is not None
        deadline = time.monotonic() + self.lock_wait
        take = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
        while True:
            got = (await conn.execute(sa.text(f"SELECT {take}(:k)"), {"k": _PG_LOCK})).scalar()
            await conn.commit()
            if got:
                return
            if time.monotonic() >= deadline:
                raise StoreLocked(
                    f"another liverpool server is using the PostgreSQL database {u.database} on {u.host}: "
                    "stop it first (a single-process server and the workers of `--workers N` do not share "
                    "a database, docs/deploy.md)"
                )
            await asyncio.sleep(0.2)

    async def _checkpoint(self) -> None:
        """Between two batches of the writer (nothing of this process writes or reads meanwhile):
        move the WAL into the database file and truncate it, once it holds ``checkpoint_bytes``
        or ``checkpoint_every`` seconds after the last one. The time it takes is the writer's
        stall (``checkpoint_seconds``: the longest)."""
        if self.commits == self._checkpointed_commits:
            return
        now = time.monotonic()
        assert self._wal is not None
        try:
            size = self._wal.stat().st_size
        except OSError:
            size = 0
        if size < self.checkpoint_bytes and now - self._checkpointed_at < self.checkpoint_every:
            return
        conn = self._conn
        assert conn is not None
        self._checkpointed_at = now
        self._checkpointed_commits = self.commits
        self.wal_peak = max(self.wal_peak, size)
        self.wal_written += size
        if self._fast is not None:
            cursor = await self._fast[0].execute("PRAGMA wal_checkpoint(TRUNCATE)")
            row = await cursor.fetchone()
            await cursor.close()
        else:
            row = (await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")).first()
            await conn.commit()
        self.checkpoints += 1
        if row is not None and row[0]:
            self.checkpoint_busy += 1  # a reader elsewhere: the next one finishes it
        self.checkpoint_seconds = max(self.checkpoint_seconds, time.monotonic() - now)

    async def close(self) -> None:
        if self._writer is not None:
            await self._queue.join()
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._conn is not None:
            await self._conn.close()
            self._conn = None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the lock
            self._lock_fd = None

    async def journal_mode(self) -> str:
        """The database's journal mode (``wal`` for SQLite)."""
        row = await self._run(lambda c: c.exec_driver_sql("PRAGMA journal_mode"))
        return str(row.scalar_one())

    # ------------------------------------------------------------------ the writer
    async def _run(self, job: Job) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((job, future))
        return await future

    @staticmethod
    async def _do(conn: AsyncConnection, job: Job) -> Any:
        if isinstance(job, _Append):
            await conn.execute(_INSERT_ACTION, [job.row])
            return None
        return await job(conn)

    async def _write_loop(self) -> None:
        conn = self._conn
        assert conn is not None
        while True:
            if self._checkpoints:  # between two batches
                try:
                    await self._checkpoint()
                except Exception:  # the next one tries again
                    log.exception("the checkpoint of the store's WAL failed")
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                if self._fast is not None and all(isinstance(job, _Append) for job, _ in batch):
                    await self._append_fast([job.row for job, _ in batch if isinstance(job, _Append)])
                    self.commits += 1
                    for _, future in batch:
                        if not future.done():
                            future.set_result(None)
                    continue
                results: list[Any] = []
                async with conn.begin():
                    rows = [job.row for job, _ in batch if isinstance(job, _Append)]
                    if rows:  # every action of the batch in one statement
                        await conn.execute(_INSERT_ACTION, rows)
                    for job, _ in batch:
                        results.append(None if isinstance(job, _Append) else await job(conn))
                    if self.shared and rows:
                        await self._notify_rows(conn, rows)
                self.commits += 1
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
            except Exception:
                # one bad job must not take the others down: each again in its own transaction
                for job, future in batch:
                    try:
                        async with conn.begin():
                            result = await self._do(conn, job)
                            if self.shared and isinstance(job, _Append):
                                await self._notify_rows(conn, [job.row])
                        self.commits += 1
                        if not future.done():
                            future.set_result(result)
                    except Exception as exc:
                        if not future.done():
                            future.set_exception(exc)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _notify_rows(self, conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
        """Tell the other workers which tables moved, with the new rows, in the transaction of the
        rows (PostgreSQL delivers a notification when its transaction commits, and never one of a
        rollback): :func:`act_notices`, one ``pg_notify`` each."""
        for payload in act_notices(self.worker, rows):
            await conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})

    async def notify(self, conn: AsyncConnection, message: dict[str, Any]) -> None:
        """``pg_notify`` on :data:`CHANNEL` in ``conn``'s transaction (shared stores only)."""
        payload = json.dumps({"w": self.worker} | message, separators=(",", ":"))
        await conn.execute(sa.text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})

    async def publish(self, message: dict[str, Any]) -> None:
        """A notification to the other workers of a shared store, in a transaction of its own."""
        if not self.shared:
            return

        async def job(c: AsyncConnection) -> None:
            await self.notify(c, message)

        await self._run(job)

    async def _append_fast(self, rows: list[dict[str, Any]]) -> None:
        """Insert and commit a batch of action rows in two round trips (see :meth:`open`)."""
        assert self._fast is not None
        driver, sql, columns = self._fast
        params = [tuple(json.dumps(r[c]) if c == "action" else r[c] for c in columns) for r in rows]
        try:
            await driver.executemany(sql, params)
            await driver.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                await driver.rollback()
            raise

    # ------------------------------------------------------------------ writes
    async def create_table(
        self, row: TableRow, seat_rows: list[dict[str, Any]], rematch: dict[int, str] | None = None
    ) -> None:
        """A new table and its seats, in one transaction. A rematch (``row["rematch_of"]``) is
        kept with them: ``rematch``, each person's seat and the hash of its token, goes to
        ``rematches``. A finished table has one rematch (``tables.rematch_of`` is unique):
        :class:`RematchTaken` names the one made first when another request made it (nothing of
        this one is written)."""
        now = time.time()
        of = row.get("rematch_of")

        async def job(c: AsyncConnection) -> None:
            await c.execute(tables.insert().values(**row))
            await c.execute(seats.insert(), [{"table_id": row["id"], **s} for s in seat_rows])
            if of is not None and rematch:
                await c.execute(
                    rematches.insert(),
                    [
                        {"table_id": of, "seat": i, "rematch_id": row["id"], "token_hash": h, "issued_at": now}
                        for i, h in rematch.items()
                    ],
                )

        try:
            await self._run(job)
        except sa.exc.IntegrityError:
            if of is None:
                raise
            first = await self.rematch_made(of)
            if first is None or first == row["id"]:
                raise
            raise RematchTaken(of, first) from None

    async def rematch_made(self, table_id: str) -> str | None:
        """The id of the table made as the rematch of ``table_id`` (``tables.rematch_of``), or None."""

        async def job(c: AsyncConnection) -> str | None:
            q = sa.select(tables.c.id).where(tables.c.rematch_of == table_id)
            found = (await c.execute(q)).scalar_one_or_none()
            return None if found is None else str(found)

        result: str | None = await self._run(job)
        return result

    async def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        async def job(c: AsyncConnection) -> None:
            await c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat).values(**values))

        await self._run(job)

    async def update_table(self, table_id: str, **values: Any) -> None:
        async def job(c: AsyncConnection) -> None:
            await c.execute(tables.update().where(tables.c.id == table_id).values(**values))

        await self._run(job)

    async def append(
        self,
        table_id: str,
        idx: int,
        seat: int,
        action: dict[str, Any],
        source: str,
        finish: dict[str, Any] | None = None,
        also: Callable[[AsyncConnection], Awaitable[None]] | None = None,
        client_id: str | None = None,
    ) -> None:
        """Append action number ``idx`` of a table; returns once committed. ``finish``: the
        table's columns this action changes (the last action: status "over", scores, winners),
        written in the same transaction; ``also``: more work of that transaction (the finished
        game's ratings, ``server.ratings.finished_job``); ``client_id``: a person's message's id
        (a resend is known by it). :class:`Conflict` when seq ``idx`` of the table is taken (another
        worker wrote it first: nothing of this action was committed)."""

        row = {
            "table_id": table_id,
            "idx": idx,
            "seat": seat,
            "action": action,
            "source": source,
            "at": time.time(),
            "client_id": client_id,
        }
        try:
            if finish is None:
                await self._run(_Append(row))
                return

            async def job(c: AsyncConnection) -> None:
                await c.execute(_INSERT_ACTION, [row])
                await c.execute(tables.update().where(tables.c.id == table_id).values(**finish))
                if also is not None:
                    await also(c)
                if self.shared:
                    await self._notify_rows(c, [row])

            await self._run(job)
        except sa.exc.IntegrityError as exc:
            raise Conflict(f"table {table_id}: action {idx} was written by another worker") from exc

    async def start_table(self, table_id: str, bots: dict[int, tuple[str, str]], **values: Any) -> None:
        """A game's start in one transaction: the person's seats given to bots (seat: (bot, the
        seat's name)) and the table's columns (status "playing", seed, started_at)."""

        async def job(c: AsyncConnection) -> bool:
            q = tables.update().where(tables.c.id == table_id, tables.c.status == "waiting").values(**values)
            if (await c.execute(q)).rowcount != 1:
                return False  # started by another worker: nothing written
            for seat, (bot, name) in bots.items():
                where = (seats.c.table_id == table_id, seats.c.seat == seat)
                await c.execute(seats.update().where(*where).values(kind="bot", bot=bot, name=name))
            if self.shared:
                await self.notify(c, {"k": "start", "t": table_id})
            return True

        if not await self._run(job):
            raise Conflict(f"table {table_id} was started by another worker")

    async def save_rematch(self, table_id: str, rematch_id: str, hashes: dict[int, str]) -> None:
        """Keep the rematch of ``table_id``: each person's seat and the hash of its new token
        (a seat given again replaces its hash)."""
        now = time.time()

        async def job(c: AsyncConnection) -> None:
            for seat, digest in hashes.items():
                where = (rematches.c.table_id == table_id, rematches.c.seat == seat)
                await c.execute(rematches.delete().where(*where))
                await c.execute(
                    rematches.insert().values(
                        table_id=table_id, seat=seat, rematch_id=rematch_id, token_hash=digest, issued_at=now
                    )
                )

        await self._run(job)

    async def load_rematch(self, table_id: str) -> tuple[str, dict[int, str]] | None:
        """The rematch of a finished table: (its id, each person's seat's token hash), or None."""

        async def job(c: AsyncConnection) -> tuple[str, dict[int, str]] | None:
            rows = (await c.execute(rematches.select().where(rematches.c.table_id == table_id))).mappings().all()
            if not rows:
                return None
            return str(rows[0]["rematch_id"]), {int(r["seat"]): str(r["token_hash"]) for r in rows}

        result: tuple[str, dict[int, str]] | None = await self._run(job)
        return result

    # ------------------------------------------------------------------ reads
    async def load_table(self, table_id: str) -> tuple[TableRow, list[TableRow], list[dict[str, Any]]] | None:
        """A table's row, its seats and its actions (in order), or None."""

        async def job(c: AsyncConnection) -> tuple[TableRow, list[TableRow], list[dict[str, Any]]] | None:
            row = (await c.execute(tables.select().where(tables.c.id == table_id))).mappings().first()
            if row is None:
                return None
            seat_rows = (
                (await c.execute(seats.select().where(seats.c.table_id == table_id).order_by(seats.c.seat)))
                .mappings()
                .all()
            )
            acts = (
                await c.execute(
                    sa.select(actions.c.action).where(actions.c.table_id == table_id).order_by(actions.c.idx)
                )
            ).scalars()
            return dict(row), [dict(s) for s in seat_rows], list(acts)

        result: tuple[TableRow, list[TableRow], list[dict[str, Any]]] | None = await self._run(job)
        return result

    async def actions_from(self, table_id: str, start: int) -> list[dict[str, Any]]:
        """A table's actions from seq ``start`` on, in order: idx, seat, action, source, client_id."""

        async def job(c: AsyncConnection) -> list[dict[str, Any]]:
            q = (
                sa.select(actions.c.idx, actions.c.seat, actions.c.action, actions.c.source, actions.c.client_id)
                .where(actions.c.table_id == table_id, actions.c.idx >= start)
                .order_by(actions.c.idx)
            )
            return [dict(r) for r in (await c.execute(q)).mappings()]

        result: list[dict[str, Any]] = await self._run(job)
        return result

    async def table_row(self, table_id: str) -> tuple[TableRow, list[TableRow]] | None:
        """A table's row and its seats' rows (no actions), or None."""

        async def job(c: AsyncConnection) -> tuple[TableRow, list[TableRow]] | None:
            row = (await c.execute(tables.select().where(tables.c.id == table_id))).mappings().first()
            if row is None:
                return None
            q = seats.select().where(seats.c.table_id == table_id).order_by(seats.c.seat)
            return dict(row), [dict(s) for s in (await c.execute(q)).mappings()]

        result: tuple[TableRow, list[TableRow]] | None = await self._run(job)
        return result

    async def versions(self, table_ids: list[str]) -> dict[str, tuple[str, int]]:
        """Each table's status and count of actions in the store (the workers' poll): its last
        seq plus one, read from the end of the primary key's index (one probe per table, not a
        count of its log; a log has no gap)."""

        async def job(c: AsyncConnection) -> dict[str, tuple[str, int]]:
            last = (
                sa.select(actions.c.idx)
                .where(actions.c.table_id == tables.c.id)
                .order_by(actions.c.idx.desc())
                .limit(1)
                .correlate(tables)
                .scalar_subquery()
            )
            count = sa.func.coalesce(last + 1, 0)
            q = sa.select(tables.c.id, tables.c.status, count).where(tables.c.id.in_(table_ids))
            return {str(r[0]): (str(r[1]), int(r[2])) for r in (await c.execute(q)).all()}

        if not table_ids:
            return {}
        result: dict[str, tuple[str, int]] = await self._run(job)
        return result

    async def claim_seat(self, table_id: str, seat: int, **values: Any) -> bool:
        """Give a free person's seat (no token yet) to a joiner; False when another worker gave it first."""

        async def job(c: AsyncConnection) -> bool:
            q = (
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.token_hash.is_(None))
                .values(**values)
            )
            return bool((await c.execute(q)).rowcount == 1)

        result: bool = await self._run(job)
        return result

    async def take_hint(self, table_id: str, seat: int, deal: int, limit: int | None) -> tuple[int, int] | None:
        """Count one hint of ``deal`` for a seat in the store, whichever worker counted the others
        (several workers): the seat's (deal, used) after it, or None when ``limit`` is reached."""

        async def job(c: AsyncConnection) -> tuple[int, int] | None:
            where = (seats.c.table_id == table_id, seats.c.seat == seat)
            q = sa.select(seats.c.hints_deal, seats.c.hints_used).where(*where).with_for_update()
            row = (await c.execute(q)).one_or_none()
            if row is None:
                return None
            used = (row.hints_used or 0) if row.hints_deal == deal else 0
            if limit is not None and used >= limit:
                return None
            await c.execute(seats.update().where(*where).values(hints_deal=deal, hints_used=used + 1))
            return deal, used + 1

        taken: tuple[int, int] | None = await self._run(job)
        return taken

    async def give_back_hint(self, table_id: str, seat: int, deal: int) -> None:
        """Uncount a hint of ``deal`` that :meth:`take_hint` counted and that was not answered."""

        async def job(c: AsyncConnection) -> None:
            s = seats.c
            where = (s.table_id == table_id, s.seat == seat, s.hints_deal == deal, s.hints_used > 0)
            await c.execute(seats.update().where(*where).values(hints_used=s.hints_used - 1))

        await self._run(job)

    async def waiting_count(self, since: float, by: str | None = None) -> int:
        """Tables waiting for players that count against the caps (``waiting_by`` set), made at
        ``since`` (``time.time()``) or later and not started: all of them, or those made by the
        address whose key is ``by`` (whichever worker made them, before a restart too)."""

        async def job(c: AsyncConnection) -> int:
            t = tables.c
            q = sa.select(sa.func.count()).where(
                t.status == "waiting", t.waiting_by.is_not(None), t.created_at >= since
            )
            if by is not None:
                q = q.where(t.waiting_by == by)
            return int((await c.execute(q)).scalar_one())

        result: int = await self._run(job)
        return result

    async def waiting_made_before(self, cutoff: float) -> list[tuple[str, float]]:
        """The tables still waiting for players made before ``cutoff`` (``time.time()``): (id,
        made at), oldest first."""

        async def job(c: AsyncConnection) -> list[tuple[str, float]]:
            t = tables.c
            q = sa.select(t.id, t.created_at).where(t.status == "waiting", t.created_at < cutoff).order_by(t.created_at)
            return [(str(i), float(at)) for i, at in (await c.execute(q)).all()]

        found: list[tuple[str, float]] = await self._run(job)
        return found

    async def touch_waiting(self, table_id: str, at: float) -> None:
        """Note that the waiting table ``table_id`` was used at ``at`` (``time.time()``), for the
        other workers of a shared store (``touched_at``); a later use already noted is kept."""
        t = tables.c

        async def job(c: AsyncConnection) -> None:
            fresher = sa.or_(t.touched_at.is_(None), t.touched_at < at)
            await c.execute(
                tables.update().where(t.id == table_id, t.status == "waiting", fresher).values(touched_at=at)
            )

        await self._run(job)

    async def delete_waiting(
        self, table_ids: list[str], children: Sequence[sa.Table] = (), unused_since: float | None = None
    ) -> list[str]:
        """Delete those of ``table_ids`` still waiting for players, with their seats, actions,
        reviews, rematch offers and their rows of ``children`` (the other modules' tables keyed
        by ``table_id``: options, chat, mutes, markers), in one transaction (a table that started
        meanwhile is left alone): the ids deleted. With ``unused_since`` (several workers), only
        those the store knows no use of since then (``touched_at``, or their creation when never
        noted)."""

        async def job(c: AsyncConnection) -> list[str]:
            gone: list[str] = []
            t = tables.c
            for i in range(0, len(table_ids), 500):
                chunk = table_ids[i : i + 500]
                q = sa.select(t.id).where(t.id.in_(chunk), t.status == "waiting")
                if unused_since is not None:
                    q = q.where(sa.func.coalesce(t.touched_at, t.created_at) < unused_since).with_for_update()
                ids = [str(i) for i in (await c.execute(q)).scalars()]
                if not ids:
                    continue
                for child in (seats, actions, reviews, *children):
                    await c.execute(child.delete().where(child.c.table_id.in_(ids)))
                r = rematches.c
                await c.execute(rematches.delete().where(r.rematch_id.in_(ids) | r.table_id.in_(ids)))
                await c.execute(tables.delete().where(t.id.in_(ids)))
                gone += ids
            return gone

        deleted: list[str] = await self._run(job)
        return deleted

    async def save_review(
        self, table_id: str, seat: int, samples: int, seed: int, review: dict[str, Any], seconds: float
    ) -> None:
        """Keep a finished game's review (a second one of the same budget replaces it)."""
        key = {"table_id": table_id, "seat": seat, "samples": samples, "seed": seed}

        async def job(c: AsyncConnection) -> None:
            await c.execute(reviews.delete().where(*(getattr(reviews.c, k) == v for k, v in key.items())))
            await c.execute(reviews.insert().values(**key, created_at=time.time(), seconds=seconds, review=review))

        await self._run(job)

    async def load_review(self, table_id: str, seat: int, samples: int, seed: int) -> dict[str, Any] | None:
        """A review kept by :meth:`save_review`, or None."""

        async def job(c: AsyncConnection) -> dict[str, Any] | None:
            q = sa.select(reviews.c.review).where(
                reviews.c.table_id == table_id,
                reviews.c.seat == seat,
                reviews.c.samples == samples,
                reviews.c.seed == seed,
            )
            found: dict[str, Any] | None = (await c.execute(q)).scalar_one_or_none()
            return found

        result: dict[str, Any] | None = await self._run(job)
        return result

    async def unfinished(self) -> list[str]:
        """Ids of the tables waiting or playing (oldest first)."""

        async def job(c: AsyncConnection) -> list[str]:
            q = sa.select(tables.c.id).where(tables.c.status != "over").order_by(tables.c.created_at)
            return list((await c.execute(q)).scalars())

        result: list[str] = await self._run(job)
        return result

    async def playing(self) -> list[str]:
        """Ids of the tables being played."""

        async def job(c: AsyncConnection) -> list[str]:
            q = sa.select(tables.c.id).where(tables.c.status == "playing")
            return list((await c.execute(q)).scalars())

        result: list[str] = await self._run(job)
        return result

    async def history(self, name: str, limit: int = 100) -> list[dict[str, Any]]:
        """The finished games a display name played: table, seat, scores, winners, when."""

        async def job(c: AsyncConnection) -> list[dict[str, Any]]:
            q = (
                sa.select(
                    tables.c.id,
                    tables.c.players,
                    tables.c.preset,
                    tables.c.scores,
                    tables.c.winners,
                    tables.c.finished_at,
                    seats.c.seat,
                )
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.name == name, seats.c.kind == "human", tables.c.status == "over")
                .order_by(tables.c.finished_at.desc())
                .limit(limit)
            )
            rows = (await c.execute(q)).mappings().all()
            out = []
            for r in rows:
                names_q = sa.select(seats.c.name).where(seats.c.table_id == r["id"]).order_by(seats.c.seat)
                names = list((await c.execute(names_q)).scalars())
                out.append(
                    {
                        "table_id": r["id"],
                        "seat": r["seat"],
                        "players": r["players"],
                        "preset": r["preset"],
                        "names": names,
                        "scores": r["scores"],
                        "winners": r["winners"],
                        "won": r["seat"] in (r["winners"] or []),
                        "finished_at": r["finished_at"],
                    }
                )
            return out

        result: list[dict[str, Any]] = await self._run(job)
        return result

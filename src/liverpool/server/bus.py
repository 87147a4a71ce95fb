"""Several server workers on one PostgreSQL store (``liverpool serve --workers N``).

Any worker serves any table, and keeps in memory only the tables it needs: those it drives, those
it has sockets of, those it was asked for (each rebuilt from the action log when first needed; a
playing table kept without a socket here or a driver's lock leaves memory after ``evict_after``).
An action a worker receives is validated on its replica and inserted at (table id, seq): the key
refuses a seq written by another worker first (:class:`.store.Conflict`), and the worker then
catches up from the log and validates again (a log never forks, nothing is applied twice). Every
commit of actions notifies the other workers in its own transaction (PostgreSQL ``LISTEN``/``NOTIFY``
on :data:`.store.CHANNEL`, through asyncpg's ``add_listener`` on a connection of its own), with the
new rows when they fit (:func:`.store.act_notices`): a worker with the table in memory applies them
without reading the store and pushes the new states to its sockets. A poll every ``poll`` seconds
reads the last seq of each table kept here (one index probe each), so a lost notification only
delays.

A table's bots, timers and pacing clock are driven by exactly one worker at a time: the one that
holds the table's session advisory lock (``pg_try_advisory_lock`` on a connection of its own).
When that worker dies its connection closes and PostgreSQL frees the lock; every other ``2 *
poll`` seconds each worker reads which locks are held (``pg_locks``) and takes free ones of
playing tables, up to its fair share (:meth:`Bus.adopt`). The LISTEN and lock connections are
opened again when PostgreSQL closes them; the locks go with the lock connection's session, so
the worker stops driving until it takes its share again.

What the driving worker needs of the other workers' sockets travels on the same channel: a
person's presence (connected, left), ``autoplay``, ``prefs`` and ``continue``; chat lines (kept in
the store by the worker that received them) are sent on to every worker's sockets. Each worker
says it is alive every second: the presence a worker announced is dropped once it has been silent
for ``dead_after`` seconds (killed), so a bot stands in for its people after the grace period.

SQLite, and PostgreSQL with one worker, use none of this (one process, the only owner of its
tables in memory: ``make run`` is that).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from .store import CHANNEL

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .lobby import Lobby
    from .store import Store
    from .table import Table

__all__ = ["Bus", "table_lock_key"]

log = logging.getLogger("liverpool.server")


def table_lock_key(table_id: str) -> int:
    """The advisory lock key of a table (64 bits of the SHA-256 of its id, signed).

    >>> table_lock_key("abc") == table_lock_key("abc") != table_lock_key("abd")
    True
    """
    return int.from_bytes(hashlib.sha256(b"liverpool-table:" + table_id.encode()).digest()[:8], "big", signed=True)


class Bus:
    """The notifications between the workers of one shared store, and the tables' driving locks."""

    def __init__(self, lobby: Lobby, store: Store, poll: float = 1.0, dead_after: float = 5.0) -> None:
        self.lobby = lobby
        self.store = store
        self.worker = f"{os.getpid()}-{secrets.token_hex(3)}"
        store.worker = self.worker
        self.poll = poll
        self.dead_after = dead_after
        self.seen: dict[str, float] = {}  # other workers: when last heard from (monotonic)
        self.owned: set[str] = set()  # the tables this worker drives (holds the lock of)
        self._listen: AsyncConnection | None = None
        self._locks: AsyncConnection | None = None
        self._locks_busy = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self.notified = 0
        self.polled_catch_ups = 0
        self.notice_rows_applied = 0  # notices of actions applied from their rows (no read)
        self.notice_reads = 0  # notices of actions whose rows were read from the store
        self.reconnects = 0  # LISTEN or lock connections opened again after PostgreSQL closed them
        self.backends: dict[str, int] = {}  # the PostgreSQL backend pid of each connection (logs, tests)
        self._listen_lost = False
        self._locks_lost = False

    async def open(self) -> None:
        await self._connect_listen()
        await self._connect_locks()
        self._loop_task = asyncio.create_task(self._run(), name="liverpool-bus")

    async def _connect(self, name: str) -> AsyncConnection:
        engine = self.store.engine
        assert engine is not None
        conn = await engine.connect()
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        self.backends[name] = int(raw.get_server_pid())
        return conn

    async def _connect_listen(self) -> None:
        conn = await self._connect("listen")
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        await raw.add_listener(CHANNEL, self._on_notify)
        self._listen = conn

    async def _connect_locks(self) -> None:
        self._locks = await self._connect("locks")
        self._locks_lost = False

    @staticmethod
    async def _closed(conn: AsyncConnection) -> bool:
        try:
            raw = (await conn.get_raw_connection()).driver_connection
        except Exception:  # invalidated
            return True
        return raw is None or bool(raw.is_closed())

    @staticmethod
    async def _drop(conn: AsyncConnection) -> None:
        with contextlib.suppress(Exception):
            await conn.invalidate()  # not back to the pool: its session is gone
        with contextlib.suppress(Exception):
            await conn.close()

    async def _reconnect(self) -> None:
        """Open again a LISTEN or lock connection that PostgreSQL closed (a restart, a terminated
        backend, the network). The notices sent meanwhile are lost: the versions poll catches up the
        actions. The locks went with the lock connection's session: this worker drives none of its
        tables from now on (their pumps stop) until it takes them again (:meth:`adopt`, its fair
        share; another worker may have taken some meanwhile)."""
        if self._listen is None or self._listen_lost or await self._closed(self._listen):
            if self._listen is not None:
                await self._drop(self._listen)
            self._listen = None
            await self._connect_listen()
            self._listen_lost = False
            self.reconnects += 1
            log.warning("worker %s: the LISTEN connection came back (backend %d)", self.worker, self.backends["listen"])
        if self._locks is None or self._locks_lost or await self._closed(self._locks):
            async with self._locks_busy:
                lost = sorted(self.owned)
                self.owned.clear()  # PostgreSQL freed them with the session
                for table_id in lost:
                    table = self.lobby.tables.get(table_id)
                    if table is not None:
                        table.undrive()
                if self._locks is not None:
                    await self._drop(self._locks)
                self._locks = None
                await self._connect_locks()
            self.reconnects += 1
            log.warning(
                "worker %s: the lock connection came back (backend %d); %d table(s) to take again",
                self.worker,
                self.backends["locks"],
                len(lost),
            )
            await self.adopt()

    async def close(self) -> None:
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
            self._loop_task = None
        for task in list(self._tasks):
            task.cancel()
        for conn in (self._listen, self._locks):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()  # the locks go with the session
        self._listen = self._locks = None
        self.owned.clear()

    # ------------------------------------------------------------------ the driving locks
    async def _lock_sql(self, sql: str, table_id: str) -> bool:
        conn = self._locks
        if conn is None:
            return False
        async with self._locks_busy:
            try:
                got = (await conn.execute(sa.text(sql), {"k": table_lock_key(table_id)})).scalar()
                await conn.commit()
            except Exception:
                self._locks_lost = await self._closed(conn)  # the next beat opens it again
                raise
        return bool(got)

    async def try_drive(self, table_id: str) -> bool:
        """Take the table's driving lock (True when this worker holds it now)."""
        if table_id in self.owned:
            return True
        if await self._lock_sql("SELECT pg_try_advisory_lock(:k)", table_id):
            self.owned.add(table_id)
            return True
        return False

    async def release(self, table_id: str) -> None:
        """Let the table's lock go (its game is over, or it left memory)."""
        if table_id in self.owned:
            self.owned.discard(table_id)
            with contextlib.suppress(Exception):
                await self._lock_sql("SELECT pg_advisory_unlock(:k)", table_id)

    # ------------------------------------------------------------------ messages
    async def publish(self, table: Table, kind: str, **fields: Any) -> None:
        """A table's non-action change to the other workers (presence, prefs, chat ...)."""
        await self.store.publish({"k": kind, "t": table.id} | fields)

    def alive(self, worker: str) -> bool:
        seen = self.seen.get(worker)
        return seen is not None and time.monotonic() - seen < self.dead_after

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            msg = json.loads(payload)
        except ValueError:
            return
        worker = str(msg.get("w", ""))
        if worker == self.worker:
            return
        self.seen[worker] = time.monotonic()
        self.notified += 1
        self._spawn(self._handle(worker, msg))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, worker: str, msg: dict[str, Any]) -> None:
        kind = msg.get("k")
        try:
            if kind == "act":
                given = dict(msg.get("r", {}))
                for table_id, version in dict(msg.get("v", {})).items():
                    table = self.lobby.tables.get(table_id)
                    if table is None or not table.behind(int(version)):
                        continue  # not kept here (nobody of this worker looks at it), or up to date
                    rows = [
                        {"idx": r[0], "seat": r[1], "action": r[2], "source": r[3], "client_id": r[4]}
                        for r in given.get(table_id, ())
                    ]
                    if await table.apply_notice(rows, int(version)):
                        self.notice_rows_applied += 1
                    else:
                        self.notice_reads += 1
                return
            if kind == "alive":
                return
            table = self.lobby.tables.get(str(msg.get("t")))
            if table is not None:
                await table.remote(worker, msg)
        except Exception:  # one bad message must not stop the others
            log.exception("a notification from worker %s failed: %s", worker, kind)

    # ------------------------------------------------------------------ the poll
    async def _run(self) -> None:
        beats = 0
        while True:
            try:
                await self._beat(beats)
            except asyncio.CancelledError:
                raise
            except Exception:  # the next beat tries again
                log.exception("the workers' poll failed")
            beats += 1
            await asyncio.sleep(self.poll)

    async def _beat(self, beats: int) -> None:
        await self._reconnect()
        conn = self._listen
        if conn is not None:
            raw = (await conn.get_raw_connection()).driver_connection
            assert raw is not None
            payload = json.dumps({"w": self.worker, "k": "alive"})
            try:
                await raw.execute(f"NOTIFY {CHANNEL}, '{payload}'")  # the id is hex and digits: no quote in it
            except Exception:
                self._listen_lost = True  # the next beat opens it again
                raise
        # the presence announced by workers gone silent (killed) is forgotten
        for worker in [w for w in self.seen if not self.alive(w)]:
            del self.seen[worker]
            for table in list(self.lobby.tables.values()):
                table.worker_gone(worker)
        lobby = self.lobby
        if beats % 2 == 0 and beats > 0:  # (the first beat waits to hear which workers live)
            await self.adopt()
        self._forget_unneeded()
        tables = [t for t in lobby.tables.values() if t.status != "over" or t.id in self.owned]
        versions = await self.store.versions([t.id for t in tables])
        for table in tables:
            status, count = versions.get(table.id, (table.status, 0))
            if status != table.status or table.behind(count):
                self.polled_catch_ups += 1
                await table.catch_up()
            if table.id in self.owned and table.status == "over":
                await self.release(table.id)

    # ------------------------------------------------------------------ which tables are kept here
    async def _held_locks(self) -> set[int]:
        """The keys of the advisory locks some session of this database holds (``pg_locks``: one
        read, no lock tried)."""
        conn = self._locks
        if conn is None:
            return set()
        sql = (
            "SELECT classid, objid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        async with self._locks_busy:
            try:
                rows = (await conn.execute(sa.text(sql))).all()
                await conn.commit()
            except Exception:
                self._locks_lost = await self._closed(conn)
                raise
        keys = set()
        for high, low in rows:
            key = (int(high) << 32) | int(low)
            keys.add(key - (1 << 64) if key >= 1 << 63 else key)
        return keys

    def workers_alive(self) -> int:
        """This worker and the others heard from within ``dead_after`` seconds."""
        return 1 + sum(1 for w in self.seen if self.alive(w))

    async def adopt(self) -> list[str]:
        """Drive the playing tables no worker drives (their driver died, or every worker
        restarted): found by their free locks without loading any table, and each worker takes at
        most its fair share (the playing tables over the workers alive, less those it drives), so
        the orphans of a dead worker spread over the living. The tables taken."""
        playing = await self.store.playing()
        held = await self._held_locks()
        free = [t for t in playing if t not in self.owned and table_lock_key(t) not in held]
        room = -(-len(playing) // self.workers_alive()) - len(self.owned)
        taken: list[str] = []
        for table_id in free:
            if len(taken) >= room:
                break
            if await self.try_drive(table_id) and await self._take(table_id):
                taken.append(table_id)
        if taken:
            log.info("worker %s drives %d table(s) no worker drove", self.worker, len(taken))
        return taken

    async def _take(self, table_id: str) -> bool:
        """Drive a table whose lock this worker just took: in memory (loaded if it was not), up
        to date, its bots and timers running from now. False (the lock let go) when it is over."""
        table = self.lobby.tables.get(table_id)
        try:
            if table is None:
                table = await self.lobby.get(table_id)  # its pump starts with the load: the lock is held
            await table.catch_up()
        except Exception:  # (LobbyError: it is gone)
            log.exception("worker %s cannot take table %s", self.worker, table_id)
            await self.release(table_id)
            return False
        if table.status == "over" or table.game is None:
            await self.release(table_id)
            return False
        table.drive()
        return True

    def _forget_unneeded(self) -> None:
        """Let a playing table this worker keeps but does not drive leave memory once no socket of
        this worker was on it for ``evict_after`` seconds and nobody asked for it meanwhile (the
        next request or socket loads it again): a worker keeps only what it drives or serves."""
        lobby = self.lobby
        now = asyncio.get_running_loop().time()
        after = lobby.settings.evict_after
        for table_id, table in list(lobby.tables.items()):
            if (
                table.status == "playing"
                and table_id not in self.owned
                and not table.lock.locked()
                and not table.watchers
                and all(s.conn is None for s in table.seats)
                and now - table.touched >= after
            ):
                del lobby.tables[table_id]
                self._spawn(table.stop())

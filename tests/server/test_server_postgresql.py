"""The store on a real PostgreSQL (the session's throwaway cluster, tests/server/conftest.py):
every Alembic migration goes up and down on it, and two processes appending to one table at once
make one log, never a fork (actions are rows keyed by (table id, seq))."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("asyncpg")

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from liverpool.server.pgcluster import Cluster
from liverpool.server.store import _MIGRATIONS, Store, StoreLocked

pytestmark = pytest.mark.postgresql_only


def _alembic(url: str, *steps: tuple[str, str]) -> list[str]:
    """Run Alembic steps ("upgrade"/"downgrade", revision) on ``url``; the tables after them."""
    from alembic import command
    from alembic.config import Config

    def run(conn: sa.Connection) -> list[str]:
        cfg = Config()
        cfg.set_main_option("script_location", str(_MIGRATIONS))
        cfg.attributes["connection"] = conn
        for step, revision in steps:
            getattr(command, step)(cfg, revision)
        return sorted(sa.inspect(conn).get_table_names())

    async def main() -> list[str]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(run)
        finally:
            await engine.dispose()

    return asyncio.run(main())


def test_every_migration_goes_up_and_down_on_postgresql(pg_cluster: Cluster) -> None:
    url = pg_cluster.database()
    at_0003 = ["actions", "alembic_version", "rematches", "reviews", "seats", "tables"]
    at_0004 = sorted([*at_0003, "chat", "table_options"])  # issue 24: chat, the tables' options
    players = ["accounts", "game_seats", "games", "login_failures", "ratings", "sessions", "unrated_tables"]
    everything = sorted(at_0004 + players)  # 0005: issue 26's accounts, games and ratings
    at_head = sorted([*everything, "chat_mutes"])  # 0008: the seats' mutes
    assert _alembic(url, ("upgrade", "head")) == at_head
    assert _alembic(url, ("downgrade", "0007_j21x_tables_touched_at")) == everything
    assert _alembic(url, ("upgrade", "head")) == at_head
    assert _alembic(url, ("downgrade", "0004_i24web_family_table")) == at_0004
    assert _alembic(url, ("downgrade", "0003")) == at_0003
    assert _alembic(url, ("downgrade", "0002")) == ["actions", "alembic_version", "reviews", "seats", "tables"]
    assert _alembic(url, ("downgrade", "0001")) == ["actions", "alembic_version", "seats", "tables"]
    assert _alembic(url, ("downgrade", "base")) == ["alembic_version"]
    assert _alembic(url, ("upgrade", "head")) == at_head


_WRITER = textwrap.dedent(
    """
    import asyncio, json, os, sys
    import sqlalchemy as sa
    from liverpool.server.store import Conflict, Store, actions

    async def main(url, name, wanted, go):
        store = Store(url, exclusive=False)  # two writers on purpose
        await store.open()
        print("ready", flush=True)
        while not os.path.exists(go):  # both start together (a start-up alone outlasts 500 appends)
            await asyncio.sleep(0.01)
        won = lost = 0
        while won < wanted:
            async def last(c):
                q = sa.select(sa.func.max(actions.c.idx)).where(actions.c.table_id == "t")
                return (await c.execute(q)).scalar()
            top = await store._run(last)
            idx = 0 if top is None else top + 1
            try:
                await store.append("t", idx, 0, {"by": name, "idx": idx}, "person")
                won += 1
            except Conflict:
                lost += 1  # the other process took this seq first: read again
        await store.close()
        print(json.dumps({"won": won, "lost": lost}))

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
    """
)


def test_two_processes_appending_to_one_table_make_one_log(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.database()
    go = tmp_path / "go"

    async def setup() -> None:
        store = Store(url)
        await store.open()
        row = {"id": "t", "created_at": 0.0, "players": 2, "preset": "liverpool", "options": {}, "rules": {}}
        await store.create_table(row | {"status": "playing"}, [{"seat": 0, "kind": "human"}])
        await store.close()

    asyncio.run(setup())
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, url, name, "500", str(go)], stdout=subprocess.PIPE, text=True)
        for name in ("a", "b")
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    go.touch()
    results = [json.loads(p.communicate(timeout=300)[0]) for p in procs]
    assert all(p.returncode == 0 for p in procs)

    async def read() -> list[tuple[int, dict[str, object]]]:
        engine = create_async_engine(url)
        async with engine.connect() as c:
            rows = (await c.execute(sa.text("SELECT idx, action FROM actions ORDER BY idx"))).all()
        await engine.dispose()
        return [(int(i), a if isinstance(a, dict) else json.loads(a)) for i, a in rows]

    rows = asyncio.run(read())
    assert [i for i, _ in rows] == list(range(1000))  # one log: no gap, no seq twice
    assert all(a["idx"] == i for i, a in rows)
    by = {name: sum(1 for _, a in rows if a["by"] == name) for name in ("a", "b")}
    assert by == {"a": 500, "b": 500} and sum(r["won"] for r in results) == 1000
    assert sum(r["lost"] for r in results) > 0, results  # they did collide: the key refused the second


def test_a_second_server_on_one_postgresql_database_is_refused(pg_cluster: Cluster) -> None:
    """One single-process server per database: the second store to open as a server waits a little
    for the first one's lock, then refuses, naming why; once the first one closed, it opens. A
    store opened with ``exclusive=False`` (tools, tests) is let in beside it. The workers of a
    shared store (``--workers N``) hold the lock shared: they let each other in, and keep a
    single-process server out (and it them)."""
    url = pg_cluster.database()

    async def main() -> None:
        first = Store(url)
        await first.open()
        refused = Store(url)
        refused.lock_wait = 0.5
        with pytest.raises(StoreLocked, match="another liverpool server is using the PostgreSQL database"):
            await refused.open()
        beside = Store(url, exclusive=False)
        await beside.open()
        await beside.close()
        await first.close()
        second = Store(url)
        await second.open()
        await second.close()
        workers = [Store(url, shared=True), Store(url, shared=True)]
        for w in workers:
            await w.open()
        alone = Store(url)
        alone.lock_wait = 0.5
        with pytest.raises(StoreLocked):
            await alone.open()
        for w in workers:
            await w.close()

    asyncio.run(main())

"""Durable by construction (issue 21): a game's last action and its published result are one
transaction, and so are a start's seats, status and seed; a finished game left "playing" by a
crash of an older server is published when the table is loaded; the SQLite writer keeps its WAL
bounded under all-out load; a second server on one SQLite file refuses to start.

The transactions' tests run on both stores; the lock, the WAL and the checkpoint are SQLite's."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from liverpool.server.filepeak import FilePeak
from liverpool.server.store import JOURNAL_SIZE_LIMIT, Store, StoreLocked
from server_helpers import run_sql, running, server_settings


def _wait_until(check: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


def _row(url: str, table_id: str) -> tuple[str, int, Any]:
    ((status, scores),) = run_sql(url, "SELECT status, scores FROM tables WHERE id = :t", t=table_id)
    ((count,),) = run_sql(url, "SELECT count(*) FROM actions WHERE table_id = :t", t=table_id)
    return str(status), int(count), scores


def _bot_table(client: TestClient) -> str:
    """A started table of Ana (never connected: a bot stands in at once, grace 0) and a bot."""
    created = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
    started = client.post(f"/api/tables/{created['table_id']}/start", headers={"X-Seat-Token": created["token"]})
    assert started.status_code == 200, started.text
    return str(created["table_id"])


def test_the_last_action_and_the_result_commit_together_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault injection in the crash window: the transaction of the last action fails after the
    action's row is written and before the result is (an unknown column in the result's update).
    Nothing of it is committed; after a restart the game ends again and is published."""
    settings = server_settings(tmp_path, grace=0.0)
    db = settings.database
    real = Store.append
    failed: list[int] = []

    async def faulty(
        self: Store,
        table_id: str,
        idx: int,
        seat: int,
        action: dict[str, Any],
        source: str,
        finish: Any = None,
        also: Any = None,
        client_id: str | None = None,
    ) -> None:
        if finish is not None:
            failed.append(idx)
            finish = finish | {"no_such_column": 1}  # fails inside the transaction, after the insert
        await real(self, table_id, idx, seat, action, source, finish=finish, also=also, client_id=client_id)

    monkeypatch.setattr(Store, "append", faulty)
    with running(settings) as (client, _):
        table_id = _bot_table(client)
        _wait_until(lambda: bool(failed))
        status, count, scores = _row(db, table_id)
        assert (status, count, scores) == ("playing", failed[0], None)  # the last action is not in the log
        assert client.get(f"/api/tables/{table_id}/record").status_code == 409
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "playing"  # the game in memory is as it was before the failed commit
    monkeypatch.setattr(Store, "append", real)
    with running(settings) as (client, _):
        _wait_until(lambda: _row(db, table_id)[0] == "over")
        status, count, scores = _row(db, table_id)
        assert count == failed[0] + 1 and scores is not None
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200 and len(record.json()["actions"]) == count
        assert [g["table_id"] for g in client.get("/api/players/Ana/history").json()["games"]] == [table_id]


def test_a_finished_game_left_playing_is_published_on_load(tmp_path: Path) -> None:
    """What a server before issue 21 left when it died between its two commits (the last action
    committed, the status still "playing"): the table is repaired when the server starts."""
    settings = server_settings(tmp_path, grace=0.0)
    db = settings.database
    with running(settings) as (client, _):
        table_id = _bot_table(client)
        _wait_until(lambda: _row(db, table_id)[0] == "over")
        published = client.get(f"/api/tables/{table_id}/record").json()
    crashed = "UPDATE tables SET status='playing', finished_at=NULL, scores=NULL, winners=NULL WHERE id=:t"
    run_sql(db, crashed, t=table_id)
    assert _row(db, table_id)[:1] == ("playing",)  # the store now holds the crash window's state
    with running(settings) as (client, _):
        status, _count, scores = _row(db, table_id)
        assert status == "over" and scores is not None
        assert client.get(f"/api/tables/{table_id}/record").json() == published
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 200
        assert [g["table_id"] for g in client.get("/api/players/Ana/history").json()["games"]] == [table_id]


def test_a_start_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A start whose transaction fails leaves the seats, the status and the seed as they were."""

    async def failing(self: Store, table_id: str, bots: dict[int, tuple[str, str]], **values: Any) -> None:
        await real(self, table_id, bots, **values, no_such_column=1)

    real = Store.start_table
    monkeypatch.setattr(Store, "start_table", failing)
    settings = server_settings(tmp_path)
    with running(settings) as (client, _):
        created = client.post("/api/tables", json={"players": 3, "name": "Ana"}).json()
        with pytest.raises(Exception):  # noqa: B017 - the store's own error, raised through the test client
            client.post(f"/api/tables/{created['table_id']}/start", headers={"X-Seat-Token": created["token"]})
        info = client.get(f"/api/tables/{created['table_id']}").json()
        assert info["status"] == "waiting" and [s["kind"] for s in info["seats"]] == ["human"] * 3
    rows = run_sql(settings.database, "SELECT kind FROM seats WHERE table_id = :t ORDER BY seat", t=created["table_id"])
    table = run_sql(settings.database, "SELECT status, seed FROM tables WHERE id = :t", t=created["table_id"])
    assert rows == [("human",)] * 3 and table == [("waiting", None)]


# ------------------------------------------------------------------------------ one server per file
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


LIVERPOOL = [sys.executable, "-c", "import sys; from liverpool.cli import main; sys.exit(main())"]


def _serve(db: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*LIVERPOOL, "serve", "--port", str(port), "--database", f"sqlite:///{db}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
    )


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.sqlite_only  # SQLite's own
def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "liverpool.db"
    first_port = _free_port()
    first = _serve(db, first_port)
    try:
        _wait_until(lambda: _listening(first_port) or first.poll() is not None)
        assert first.poll() is None
        second = _serve(db, _free_port())
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 2, out
        assert f"another liverpool server (pid {first.pid}) is using the database {db}" in out
        assert _listening(first_port) and first.poll() is None  # the first one goes on
        # and the store refuses a second opening in the same way (the check at start-up aside)
        with pytest.raises(StoreLocked, match="one server per SQLite file"):
            asyncio.run(Store(f"sqlite:///{db}").open())
    finally:
        first.terminate()
        first.wait(timeout=30)
    # once the first one stopped, the file is free again
    store = Store(f"sqlite:///{db}")
    asyncio.run(_open_close(store))


async def _open_close(store: Store) -> None:
    await store.open()
    await store.close()


# ------------------------------------------------------------------------------ the WAL stays bounded
@pytest.mark.sqlite_only  # SQLite's own
def test_the_wal_stays_bounded_under_all_out_writes(tmp_path: Path) -> None:
    """40 tables appending as fast as the store commits, for 20 s (the issue's 60 s run is in
    docs/performance.md): the WAL file, sampled every 20 ms by another thread, never passes the
    64 MB bound, while the WAL written in all is several times that (without the writer's
    checkpoints it would be the file's size: the PASSIVE checkpointer of before never caught up)."""
    db = tmp_path / "liverpool.db"
    action = {"type": "meld", "player": 1, "kind": "run", "cards": ["4H", "5H", "6H", "7H", "*1"], "pad": "x" * 400}

    async def table(store: Store, table_id: str, until: float) -> int:
        n = 0
        while time.monotonic() < until:
            await store.append(table_id, n, n % 4, action, "bot")
            n += 1
        return n

    async def run() -> tuple[int, Store]:
        store = Store(f"sqlite:///{db}")
        await store.open()
        ids = [f"t{i}" for i in range(40)]
        for t in ids:
            await store.create_table(
                {"id": t, "created_at": 0.0, "players": 4, "preset": "liverpool", "options": {}, "rules": {}}
                | {"status": "playing"},
                [{"seat": s, "kind": "bot", "bot": "easy"} for s in range(4)],
            )
        until = time.monotonic() + 20.0
        counts = await asyncio.gather(*(table(store, t, until) for t in ids))
        await store.close()
        return sum(counts), store

    with FilePeak(f"{db}-wal") as wal:  # sampled every 20 ms by another thread
        appended, store = asyncio.run(run())
    peak = wal.peak
    assert store.checkpoints > 0 and store.checkpoint_busy == 0
    assert store.wal_written > 2 * JOURNAL_SIZE_LIMIT, (store.wal_written, appended)
    assert 0 < peak <= JOURNAL_SIZE_LIMIT, (peak, store.wal_peak, store.checkpoints, appended, store.commits)
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT count(*) FROM actions").fetchone() == (appended,)
        assert c.execute("PRAGMA journal_size_limit").fetchone() is not None


@pytest.mark.sqlite_only  # SQLite's own
def test_several_workers_on_sqlite_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from liverpool.cli import main

    assert main(["serve", "--workers", "2", "--database", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    assert "--workers 2 needs PostgreSQL (--database postgresql+asyncpg://USER@HOST/DB)" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()  # refused before anything was made

"""Finished tables leave the server's memory and stay in the store; a rematch offer survives a
restart (migration 0003 keeps the rematch and the SHA-256 of each person's new token)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from server_helpers import Sock, autoplay_to_end, connect, downgrade_store, head_revision, running, server_settings


def _lobby(client: TestClient) -> Any:
    return client.app.state.lobby()  # type: ignore[attr-defined]


def _finished_two_seat_game(client: TestClient, stack: Any) -> tuple[str, list[str], list[Sock]]:
    """Ana and Bo, both played by their bots (autoplay) to the end; their sockets still open."""
    created = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
    table_id = created["table_id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    tokens = [created["token"], joined["token"]]
    socks = autoplay_to_end(client, table_id, tokens, stack, timeout=120)
    return table_id, tokens, socks


def _wait_until(check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


def test_finished_tables_leave_memory_and_everything_still_works_from_the_store(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, evict_after=0.2)) as (client, stack):
        lobby = _lobby(client)
        table_id, tokens, socks = _finished_two_seat_game(client, stack)
        waiting = client.post("/api/tables", json={"players": 2, "name": "Cy"}).json()["table_id"]
        before = client.get(f"/api/tables/{table_id}/record").json()
        # while a socket is open the finished table stays; once both left it goes (the waiting one
        # nobody connected to goes too: tests/server/test_server_windows.py)
        time.sleep(0.5)
        assert table_id in lobby.tables
        for s in socks:
            s.ws.close()
        _wait_until(lambda: table_id not in lobby.tables)
        _wait_until(lambda: waiting not in lobby.tables)
        assert client.get(f"/api/tables/{waiting}").json()["status"] == "waiting"
        # the store still has everything
        assert client.get(f"/api/tables/{table_id}/record").json() == before
        assert [g["table_id"] for g in client.get("/api/players/Bo/history").json()["games"]] == [table_id]
        frames = client.get(f"/api/tables/{table_id}/replay").json()["frames"]
        assert len(frames) == len(before["actions"]) + 1
        review = client.get(f"/api/tables/{table_id}/review/1?samples=1").json()
        assert review["review"]["summary"]["decisions"] > 0
        # asking for the table brings it back from the store, as it ended
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "over" and [s["name"] for s in info["seats"]] == ["Ana", "Bo"]
        assert table_id in lobby.tables
        bo = connect(client, table_id, tokens[1], 1, stack)
        hello = bo.expect("hello")
        assert hello["view"]["is_over"] and hello["view"]["scores"] == before["scores"]
        assert hello["events"] == before["events"]
        bo.ws.close()
        _wait_until(lambda: table_id not in lobby.tables)
        # a rematch from an evicted table
        again = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[0]})
        assert again.status_code == 200, again.text
        assert client.get(f"/api/tables/{again.json()['table_id']}").json()["rematch_of"] == table_id
        assert client.get("/api/tables/nosuchtable").status_code == 404


@pytest.mark.sqlite_only  # reads the SQLite file itself
def test_a_rematch_offer_survives_a_restart(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    with running(settings) as (client, stack):
        table_id, tokens, socks = _finished_two_seat_game(client, stack)
        socks[1].ws.close()  # Bo has gone home: he does not hear of the rematch
        ana = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[0]}).json()
        new_id = ana["table_id"]
    # a new server on the same file
    with running(settings) as (client, stack):
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new_id
        refused = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": "nope"})
        assert refused.status_code == 403
        bo = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[1]}).json()
        assert bo["table_id"] == new_id and bo["seat"] == 1 and bo["token"] not in [*tokens, ana["token"]]
        # asked again: the same token (no new one each time)
        same = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[1]}).json()
        assert same["token"] == bo["token"]
        # both take their seats at the rematch: Ana with the token she got before the restart
        for seat, token in ((0, ana["token"]), (1, bo["token"])):
            sock = connect(client, new_id, token, seat, stack)
            hello = sock.expect("hello")
            assert hello["seat"] == seat and hello["view"]["player"] == seat and not hello["view"]["is_over"]
            sock.ws.close()
    # the store keeps the hashes of the rematch tokens, never the tokens
    db = sqlite3.connect(tmp_path / "liverpool.db")
    rows = db.execute("SELECT seat, rematch_id, token_hash FROM rematches WHERE table_id = ?", (table_id,)).fetchall()
    assert sorted((seat, rid) for seat, rid, _ in rows) == [(0, new_id), (1, new_id)]
    assert all(len(h) == 64 for _, _, h in rows)
    data = (tmp_path / "liverpool.db").read_bytes() + (
        (tmp_path / "liverpool.db-wal").read_bytes() if (tmp_path / "liverpool.db-wal").exists() else b""
    )
    assert not any(t.encode() in data for t in (ana["token"], bo["token"], *tokens))


@pytest.mark.sqlite_only  # reads the SQLite file itself
def test_migration_0003_goes_down_and_up_again(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    with running(settings) as (client, _):
        made = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
    downgrade_store(tmp_path / "liverpool.db", "0002")
    db = sqlite3.connect(tmp_path / "liverpool.db")
    assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0002"
    assert "rematches" not in {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    with running(settings) as (client, _):
        assert client.get(f"/api/tables/{made['table_id']}").json()["status"] == "waiting"
    db = sqlite3.connect(tmp_path / "liverpool.db")
    assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head_revision()
    assert db.execute("SELECT count(*) FROM rematches").fetchone()[0] == 0

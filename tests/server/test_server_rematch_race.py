"""A finished table has one rematch, however many requests for it come at once (migration
0008_k21tab_store_state: ``tables.rematch_of`` is unique; the request that loses is answered
with the winner's table)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import httpx
import sqlalchemy as sa
from fastapi.testclient import TestClient

from liverpool.server.ratings import unrated_tables
from liverpool.server.store import RematchTaken, Store, rematches, tables
from liverpool.server.table import hash_token
from server_helpers import autoplay_to_end, connect, database_for, running, server_settings

SHORT = {"schedule": "1S/7"}  # one deal: a game in a second or so
ROUNDS = 6  # rematches asked at two workers at once (at least one request loses the race)


def _table_row(table_id: str, rematch_of: str | None = None, status: str = "waiting") -> dict[str, Any]:
    return {
        "id": table_id,
        "created_at": time.time(),
        "players": 2,
        "preset": "liverpool",
        "options": {},
        "rules": {},
        "status": status,
        "rematch_of": rematch_of,
    }


def _seats(hashes: list[str | None]) -> list[dict[str, Any]]:
    return [{"seat": i, "name": f"p{i}", "kind": "human", "token_hash": h} for i, h in enumerate(hashes)]


def test_two_rematches_of_one_table_at_once_the_store_keeps_the_first(tmp_path: Path) -> None:
    url = database_for(tmp_path)

    async def main() -> None:
        store = Store(url, exclusive=False)
        await store.open()
        try:
            await store.create_table(_table_row("old", status="over"), _seats(["a" * 64, "b" * 64]))
            made = await asyncio.gather(
                store.create_table(_table_row("new1", "old"), _seats(["c" * 64, "d" * 64]), {0: "c" * 64, 1: "d" * 64}),
                store.create_table(_table_row("new2", "old"), _seats(["e" * 64, "f" * 64]), {0: "e" * 64, 1: "f" * 64}),
                return_exceptions=True,
            )
            refused = [m for m in made if isinstance(m, BaseException)]
            assert len(refused) == 1 and isinstance(refused[0], RematchTaken), made
            winner = "new1" if made[0] is None else "new2"
            assert refused[0].rematch_id == winner and refused[0].table_id == "old"
            assert await store.rematch_made("old") == winner

            async def rows(c: Any) -> tuple[list[Any], list[Any]]:
                t = (await c.execute(tables.select().where(tables.c.rematch_of == "old"))).mappings().all()
                r = (await c.execute(rematches.select().where(rematches.c.table_id == "old"))).mappings().all()
                return list(t), list(r)

            made_tables, offers = await store._run(rows)
            assert [t["id"] for t in made_tables] == [winner]  # nothing of the loser was written
            assert {r["rematch_id"] for r in offers} == {winner} and len(offers) == 2
            assert (await store.table_row("new1" if winner == "new2" else "new2")) is None
        finally:
            await store.close()

    asyncio.run(main())


def _at_once(calls: list[Any]) -> list[Any]:
    """Run ``calls`` in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as exc:  # (a server error: the test client raises it)
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def _lobby(client: TestClient) -> Any:
    return client.app.state.lobby()  # type: ignore[attr-defined]


@pytest.mark.postgresql_only
def test_rematch_asked_at_two_workers_at_once_makes_one_table(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, shared=True)
    with running(settings) as (a, stack), running(settings) as (b, stack_b):
        for _round in range(ROUNDS):
            made_table = {"players": 2, "name": "Ana", "options": SHORT, "rated": False}
            created = a.post("/api/tables", json=made_table).json()
            table_id = created["table_id"]
            joined = a.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
            tokens = [created["token"], joined["token"]]
            socks = autoplay_to_end(a, table_id, tokens, stack, timeout=120)
            deadline = time.monotonic() + 60
            while b.get(f"/api/tables/{table_id}").json()["status"] != "over":  # B has it too
                assert time.monotonic() < deadline, "worker B never saw the game end"
                time.sleep(0.05)
            answers: list[httpx.Response] = _at_once(
                [
                    lambda t=table_id, k=tokens[0]: a.post(f"/api/tables/{t}/rematch", headers={"X-Seat-Token": k}),
                    lambda t=table_id, k=tokens[1]: b.post(f"/api/tables/{t}/rematch", headers={"X-Seat-Token": k}),
                ]
            )
            assert all(isinstance(r, httpx.Response) and r.status_code == 200 for r in answers), answers
            ids = {r.json()["table_id"] for r in answers}
            assert len(ids) == 1, ids  # one rematch, whichever worker made it
            (new_id,) = ids
            store = _lobby(a).store

            async def made(c: Any, table_id: str = table_id) -> list[str]:
                q = tables.select().where(tables.c.rematch_of == table_id)
                return [r["id"] for r in (await c.execute(q)).mappings().all()]

            assert a.portal.call(store._run, made) == [new_id]  # type: ignore[union-attr]
            # each answer's token opens its seat at the rematch, at either worker (a token the
            # losing worker made anew replaced the winner's in the store and at the winner)
            for seat, answer in enumerate(answers):
                assert answer.json()["seat"] == seat
                token = answer.json()["token"]
                for client, client_stack in ((a, stack), (b, stack_b)):
                    _wait_for_hash(client, new_id, seat, hash_token(token))
                    sock = connect(client, new_id, token, seat, client_stack)
                    assert sock.expect("hello")["seat"] == seat
                    sock.ws.close()
            for s in socks:
                s.ws.close()
        # the race was run, not only asked for: at least one request lost it
        assert _lobby(a).rematches_taken + _lobby(b).rematches_taken >= 1

        async def orphans(c: Any) -> list[str]:  # an unrated marker of a table never made
            q = sa.select(unrated_tables.c.table_id).where(unrated_tables.c.table_id.not_in(sa.select(tables.c.id)))
            return [r[0] for r in (await c.execute(q)).all()]

        assert a.portal.call(_lobby(a).store._run, orphans) == []  # type: ignore[union-attr]


def _wait_for_hash(client: TestClient, table_id: str, seat: int, token_hash: str) -> None:
    """Until the worker of ``client`` has the seat's token hash (another worker's change reaches it
    by the bus, a moment later)."""
    lobby = _lobby(client)
    deadline = time.monotonic() + 30
    while True:
        table = client.portal.call(lobby.get, table_id)  # type: ignore[union-attr]
        if table.seats[seat].token_hash == token_hash:
            return
        assert time.monotonic() < deadline, f"the worker never had seat {seat}'s new token"
        time.sleep(0.05)


@pytest.mark.sqlite_only  # writes the SQLite file as an older server left it
def test_rematches_made_twice_by_an_older_server_keep_the_recorded_one(tmp_path: Path) -> None:
    import sqlite3

    from server_helpers import downgrade_store

    db = tmp_path / "liverpool.db"
    url = f"sqlite:///{db}"

    async def make() -> None:
        store = Store(url)
        await store.open()
        await store.close()

    asyncio.run(make())
    downgrade_store(db, "0007_j21x_tables_touched_at")
    con = sqlite3.connect(db)
    rows = [("old", None, 1.0, "over"), ("first", "old", 2.0, "playing"), ("second", "old", 3.0, "playing")]
    for table_id, of, at, status in rows:
        con.execute(
            "INSERT INTO tables (id, created_at, players, preset, options, rules, status, rematch_of)"
            " VALUES (?, ?, 2, 'liverpool', '{}', '{}', ?, ?)",
            (table_id, at, status, of),
        )
    # the offer the older server recorded last is the second table
    con.execute("INSERT INTO rematches VALUES ('old', 0, 'second', ?, 3.0)", ("a" * 64,))
    con.commit()
    con.close()
    asyncio.run(make())  # migrates up: one rematch of "old" is left, the recorded one
    con = sqlite3.connect(db)
    assert con.execute("SELECT id FROM tables WHERE rematch_of = 'old'").fetchall() == [("second",)]
    assert con.execute("SELECT rematch_of FROM tables WHERE id = 'first'").fetchone() == (None,)
    con.close()

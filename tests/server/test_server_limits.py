"""The server's limits: reads rate-limited per address (finished games' reads more strictly),
caps on tables waiting for players (all and per address) and their expiry (deleted once nobody
used them for ``waiting_expiry``, by the sweeper and at start-up), the limiter's buckets evicted
by age one at a time, and ``--forwarded-allow-ips`` (a real ``liverpool serve`` behind a "proxy")."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncConnection

from liverpool.server.limits import RateLimiter
from liverpool.server.pacing import table_options
from liverpool.server.store import seats, tables
from server_helpers import connect, liverpool_serve, running, server_settings

WAIT = 120.0  # an upper bound on waiting for the server, never a measured time


# ------------------------------------------------------------------------------- the limiter
def test_buckets_are_evicted_by_age_one_at_a_time_never_all_at_once() -> None:
    clock = [0.0]
    limiter = RateLimiter(rate=1.0, burst=4, max_keys=100, clock=lambda: clock[0])
    for _ in range(4):
        assert limiter.allow("flooder")
    assert not limiter.allow("flooder")
    # many other addresses, up to the limit: the flooder's empty bucket is kept (a limiter that
    # forgets every bucket at once would let it start again with a full one)
    for i in range(99):
        clock[0] += 0.001
        limiter.allow(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter) == 100 and "flooder" in limiter
    assert not limiter.allow("flooder")
    flooder_seen = clock[0]
    # one more address past the limit: only the least recently seen goes, one bucket
    clock[0] += 0.001
    limiter.allow("new")
    assert len(limiter) == 100 and "10.0.0.0" not in limiter and "flooder" in limiter
    # a bucket idle long enough to be full again is dropped first, by age: nothing is lost
    clock[0] = flooder_seen + 4.0005  # the flooder's bucket is full again, "new"'s not yet
    limiter.allow("late")
    assert "flooder" not in limiter and "10.0.0.1" not in limiter and "new" in limiter
    assert limiter.allow("flooder")  # full again, as it would have been


def test_the_limiter_never_grows_past_its_keys() -> None:
    clock = [0.0]
    limiter = RateLimiter(rate=0.001, burst=1, max_keys=50, clock=lambda: clock[0])
    for i in range(10_000):
        clock[0] += 0.0001
        limiter.allow(str(i))
        assert len(limiter) <= 50
    assert len(limiter) == 50 and "9999" in limiter and "9950" in limiter and "9949" not in limiter


# ------------------------------------------------------------------------------- caps and reads
def test_tables_waiting_for_players_are_capped_globally(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, max_waiting=2, max_waiting_per_address=100)
    with running(settings) as (client, _stack):
        made = [client.post("/api/tables", json={"players": 2, "name": "Ana"}) for _ in range(2)]
        assert [m.status_code for m in made] == [200, 200]
        third = client.post("/api/tables", json={"players": 2, "name": "Ana"})
        assert third.status_code == 429 and "waiting" in third.json()["detail"]
        # a quick play never waits: not counted, not refused
        assert client.post("/api/quickplay", json={"name": "Bo"}).status_code == 200
        # a started table no longer waits: its place is free
        first = made[0].json()
        started = client.post(f"/api/tables/{first['table_id']}/start", headers={"X-Seat-Token": first["token"]})
        assert started.status_code == 200
        assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 200
        assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 429


def test_tables_waiting_for_players_are_capped_per_address_and_expire(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, max_waiting=100, max_waiting_per_address=2, waiting_expiry=1.0)
    with running(settings) as (client, _stack):
        for _ in range(2):
            assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 200
        refused = client.post("/api/tables", json={"players": 2, "name": "Ana"})
        assert refused.status_code == 429 and "you have 2 tables waiting" in refused.json()["detail"]
        time.sleep(1.1)  # nobody started them: they stop counting
        assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 200


def test_the_caps_on_waiting_tables_are_counted_from_the_store_across_a_restart(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, max_waiting=3, max_waiting_per_address=2)
    with running(settings) as (client, _stack):
        for _ in range(2):
            assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 200
        assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 429
    with running(settings) as (client, _stack):  # a restart: the store still knows who made them
        refused = client.post("/api/tables", json={"players": 2, "name": "Ana"})
        assert refused.status_code == 429 and "you have 2 tables waiting" in refused.json()["detail"]
        lobby = client.app.state.lobby()  # type: ignore[attr-defined]
        lobby.tables.clear()  # out of this worker's memory altogether: still counted
        assert client.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 429
        assert client.portal.call(lobby.waiting_count) == 2  # type: ignore[union-attr]
        assert client.portal.call(lobby.waiting_count, "testclient") == 2  # type: ignore[union-attr]
        assert client.portal.call(lobby.waiting_count, "elsewhere") == 0  # type: ignore[union-attr]


@pytest.mark.postgresql_only
def test_two_workers_share_the_caps_on_waiting_tables(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, shared=True, max_waiting=3, max_waiting_per_address=2)
    with running(settings) as (a, _stack), running(settings) as (b, _stack_b):
        assert a.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 200
        assert b.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 200
        refused = a.post("/api/tables", json={"players": 2, "name": "Ana"})  # the address's third
        assert refused.status_code == 429 and "you have 2 tables waiting" in refused.json()["detail"]
        assert b.post("/api/tables", json={"players": 2, "name": "Ana"}).status_code == 429
        lobby_b = b.app.state.lobby()  # type: ignore[attr-defined]
        assert b.portal.call(lobby_b.waiting_count) == 2  # type: ignore[union-attr]


def test_reads_are_rate_limited_per_address_and_finished_games_more(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, get_rate=0.01, get_burst=10, heavy_rate=0.01, heavy_burst=3)
    with running(settings) as (client, _stack):
        codes = [client.get("/api/presets").status_code for _ in range(12)]
        assert codes == [200] * 10 + [429] * 2
        assert client.get("/api/presets").json() == {"detail": "too many requests: slow down"}
        # the browser's files are not counted
        assert client.get("/").status_code == 200
    settings = server_settings(tmp_path, get_rate=100.0, get_burst=100, heavy_rate=0.01, heavy_burst=3)
    with running(settings) as (client, _stack):
        codes = [client.get("/api/tables/nope/replay").status_code for _ in range(5)]
        assert codes == [404] * 3 + [429] * 2
        assert client.get("/api/tables/nope").status_code == 404  # other reads go on


# ------------------------------------------------------------------------------- waiting tables expire
def _lobby(client: TestClient) -> Any:
    return client.app.state.lobby()  # type: ignore[attr-defined]


def _in_store(client: TestClient, table_id: str) -> dict[str, int]:
    """The rows a table has in the store, by table (tables, seats, table_options)."""
    lobby = _lobby(client)

    async def job(c: AsyncConnection) -> dict[str, int]:
        counts = {}
        for name, table, column in (
            ("tables", tables, tables.c.id),
            ("seats", seats, seats.c.table_id),
            ("table_options", table_options, table_options.c.table_id),
        ):
            q = sa.select(sa.func.count()).select_from(table).where(column == table_id)
            counts[name] = int((await c.execute(q)).scalar_one())
        return counts

    found: dict[str, int] = client.portal.call(lobby.store._run, job)  # type: ignore[union-attr]
    return found


def _made_ago(client: TestClient, table_id: str, seconds: float) -> None:
    """Set a table's creation ``seconds`` back in the store (as if made then, and no use of it
    noted for the other workers since: ``touched_at``)."""

    async def job(c: AsyncConnection) -> None:
        made = time.time() - seconds
        await c.execute(tables.update().where(tables.c.id == table_id).values(created_at=made, touched_at=None))

    client.portal.call(_lobby(client).store._run, job)  # type: ignore[union-attr]


def _until(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_waiting_tables_nobody_used_are_deleted_by_the_sweeper(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, waiting_expiry=1.0, evict_after=3600.0)
    gone = {"tables": 0, "seats": 0, "table_options": 0}
    with running(settings) as (client, stack):
        lobby = _lobby(client)
        left = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        sat = client.post("/api/tables", json={"players": 2, "name": "Bo"}).json()
        ws = connect(client, sat["table_id"], sat["token"], 0, stack)
        ws.expect("hello")
        started = client.post("/api/tables", json={"players": 2, "name": "Cy"}).json()
        answer = client.post(f"/api/tables/{started['table_id']}/start", headers={"X-Seat-Token": started["token"]})
        assert answer.status_code == 200
        assert _in_store(client, left["table_id"]) == {"tables": 1, "seats": 2, "table_options": 1}
        # nobody used it for a second: deleted, from memory and from the store
        _until(lambda: _in_store(client, left["table_id"]) == gone, "the unused waiting table was not deleted")
        assert left["table_id"] not in lobby.tables and lobby.waiting_deleted == 1
        assert client.get(f"/api/tables/{left['table_id']}").status_code == 404
        time.sleep(1.5)  # the sweeper ran meanwhile: a table with a socket open, or started, stays
        assert sat["table_id"] in lobby.tables and _in_store(client, sat["table_id"])["tables"] == 1
        assert _in_store(client, started["table_id"])["tables"] == 1
        assert client.get(f"/api/tables/{started['table_id']}").json()["status"] == "playing"
        # once its socket left, it goes a second later too
        ws.ws.close()
        _until(lambda: _in_store(client, sat["table_id"]) == gone, "the table was not deleted once its socket left")
        assert lobby.waiting_deleted == 2 and _in_store(client, started["table_id"])["tables"] == 1


def test_an_evicted_waiting_table_expires_counted_from_its_last_use(tmp_path: Path) -> None:
    # the sweeper (every 15 s here) plays no part: the test calls its steps itself
    settings = server_settings(tmp_path, waiting_expiry=100.0, evict_after=30.0)
    with running(settings) as (client, _stack):
        lobby = _lobby(client)
        table_id = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()["table_id"]
        lobby.tables[table_id].touched -= 40.0  # last used 40 s ago: evicted from memory
        assert client.portal.call(lobby.sweep) == [table_id]  # type: ignore[union-attr]
        _made_ago(client, table_id, 200.0)  # made long before the expiry ...
        # ... but used 40 s ago: kept
        assert client.portal.call(lobby.expire_waiting) == []  # type: ignore[union-attr]
        assert _in_store(client, table_id)["tables"] == 1
        lobby._last_used[table_id] -= 70.0  # last used 110 s ago: deleted
        assert client.portal.call(lobby.expire_waiting) == [table_id]  # type: ignore[union-attr]
        assert _in_store(client, table_id) == {"tables": 0, "seats": 0, "table_options": 0}
        assert client.get(f"/api/tables/{table_id}").status_code == 404
        # a request for one evicted counts as a use: loaded again, it is kept
        other = client.post("/api/tables", json={"players": 2, "name": "Bo"}).json()["table_id"]
        lobby.tables[other].touched -= 150.0
        assert client.portal.call(lobby.sweep) == [other]  # type: ignore[union-attr]
        _made_ago(client, other, 200.0)
        assert client.get(f"/api/tables/{other}").json()["status"] == "waiting"
        assert client.portal.call(lobby.expire_waiting) == []  # type: ignore[union-attr]
        assert client.post(f"/api/tables/{other}/join", json={"name": "Cy"}).status_code == 200


@pytest.mark.postgresql_only
def test_with_two_workers_a_waiting_table_used_at_one_is_never_deleted_by_the_other(tmp_path: Path) -> None:
    # two workers of one shared PostgreSQL store; every use below is at worker A, B sees none
    settings = server_settings(tmp_path, waiting_expiry=1.0, evict_after=3600.0, shared=True)
    gone = {"tables": 0, "seats": 0, "table_options": 0}
    with running(settings) as (a, stack), running(settings) as (b, _stack_b):
        assert _lobby(a).bus is not None and _lobby(b).bus is not None
        left = a.post("/api/tables", json={"players": 2, "name": "Ana"}).json()["table_id"]
        sat = a.post("/api/tables", json={"players": 2, "name": "Bo"}).json()
        ws = connect(a, sat["table_id"], sat["token"], 0, stack)
        ws.expect("hello")
        asked = a.post("/api/tables", json={"players": 2, "name": "Cy"}).json()["table_id"]

        def ask() -> bool:
            assert a.get(f"/api/tables/{asked}").json()["status"] == "waiting"
            return True

        # nobody used it: deleted (by either worker); meanwhile `asked` is asked for at A at every
        # look (made just after `left`, it would expire with it if nobody asked before the loop below)
        _until(lambda: ask() and _in_store(b, left) == gone, "the unused waiting table was not deleted")
        # for 4 s (many sweeps of both at a 1 s expiry), one has a socket open at A and the other
        # is asked for at A every 0.2 s: B never deletes them
        until = time.monotonic() + 4.0
        while time.monotonic() < until:
            ask()
            time.sleep(0.2)
        assert _in_store(b, sat["table_id"])["tables"] == 1 and _in_store(b, asked)["tables"] == 1
        assert sat["table_id"] in _lobby(a).tables and asked in _lobby(a).tables
        assert b.post(f"/api/tables/{sat['table_id']}/join", json={"name": "Di"}).status_code == 200
        # once nobody uses them, they go
        ws.ws.close()
        _until(lambda: _in_store(b, sat["table_id"]) == gone, "the table was not deleted once its socket left")
        _until(lambda: _in_store(a, asked) == gone, "the table nobody asks for any more was not deleted")
        assert _lobby(a).waiting_deleted + _lobby(b).waiting_deleted == 3


def test_waiting_tables_made_before_the_expiry_are_deleted_at_start_up(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, evict_after=3600.0)  # the default expiry: a day
    with running(settings) as (client, _stack):
        old = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()["table_id"]
        new = client.post("/api/tables", json={"players": 2, "name": "Bo"}).json()["table_id"]
        client.post(f"/api/tables/{old}/join", json={"name": "Cy"})
        _made_ago(client, old, 2 * 86_400.0)
        _made_ago(client, new, 86_000.0)  # not quite a day
    with running(settings) as (client, _stack):
        assert _lobby(client).waiting_deleted == 1
        assert _in_store(client, old) == {"tables": 0, "seats": 0, "table_options": 0}
        assert client.get(f"/api/tables/{old}").status_code == 404
        assert client.get(f"/api/tables/{new}").json()["status"] == "waiting"
        assert new in _lobby(client).tables


def test_liverpool_serve_deletes_waiting_tables_after_its_waiting_expiry(tmp_path: Path) -> None:
    with liverpool_serve(tmp_path, "--waiting-expiry", "1") as served:
        req = urllib.request.Request(
            f"{served.http}/api/tables",
            data=json.dumps({"players": 2, "name": "Ana"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as answer:
            table_id = json.loads(answer.read())["table_id"]

        def status(after: float) -> int:
            time.sleep(after)
            try:
                with urllib.request.urlopen(f"{served.http}/api/tables/{table_id}", timeout=30) as found:
                    return int(found.status)
            except urllib.error.HTTPError as exc:
                return int(exc.code)

        assert status(0.0) == 200
        # a request counts as a use: asked less often than the expiry, it goes
        _until(lambda: status(1.5) == 404, "the waiting table was not deleted")


# ------------------------------------------------------------------------------- behind a proxy
def _get(url: str, forwarded: str) -> int:
    req = urllib.request.Request(url, headers={"X-Forwarded-For": forwarded})
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_forwarded_allow_ips_gives_each_player_behind_a_trusted_proxy_their_own_bucket(tmp_path: Path) -> None:
    def burst(base: str, forwarded: str) -> list[int]:
        return [_get(f"{base}/api/presets", forwarded) for _ in range(61)]

    # the proxy (127.0.0.1 here) trusted: two players behind it are limited apart
    with liverpool_serve(tmp_path, "--get-rate", "0.01", "--forwarded-allow-ips", "127.0.0.1") as served:
        assert burst(served.http, "203.0.113.7")[-1] == 429  # 60 at once, the 61st refused
        assert _get(f"{served.http}/api/presets", "198.51.100.9") == 200
    # not trusted: the header is ignored, every player shares the proxy's bucket
    with liverpool_serve(tmp_path, "--get-rate", "0.01", "--forwarded-allow-ips", "192.0.2.1") as served:
        assert burst(served.http, "203.0.113.7")[-1] == 429
        assert _get(f"{served.http}/api/presets", "198.51.100.9") == 429


def test_the_store_finds_notes_and_deletes_waiting_tables_with_their_rows(tmp_path: Path) -> None:
    """The SQL about waiting tables is the store's (``Store.waiting_made_before``,
    ``touch_waiting``, ``delete_waiting``): a table that started is never deleted, and a deleted
    one leaves no row in any table keyed by it."""
    import asyncio

    from liverpool.server.chat import chat_lines, chat_mutes
    from liverpool.server.lobby import WAITING_CHILDREN
    from liverpool.server.store import Store
    from server_helpers import database_for

    url = database_for(tmp_path)

    def row(table_id: str, at: float) -> dict[str, Any]:
        return {"id": table_id, "created_at": at, "players": 2, "preset": "liverpool", "options": {}, "rules": {}}

    async def main() -> None:
        store = Store(url, exclusive=False)
        await store.open()
        try:
            seat_rows: list[dict[str, Any]] = [
                {"seat": 0, "name": "Ana", "kind": "human"},
                {"seat": 1, "name": None, "kind": "human"},
            ]
            for table_id, at in (("old", 100.0), ("older", 50.0), ("new", time.time())):
                await store.create_table(row(table_id, at) | {"status": "waiting"}, seat_rows)
            await store.create_table(row("played", 10.0) | {"status": "playing"}, seat_rows)

            async def extras(c: AsyncConnection) -> None:
                await c.execute(table_options.insert().values(table_id="old", chat="players"))
                await c.execute(chat_mutes.insert().values(table_id="old", seat=0, who="seat:1"))
                await c.execute(
                    chat_lines.insert().values(table_id="old", idx=0, at=1.0, kind="system", name="", text="hi")
                )

            await store._run(extras)
            assert await store.waiting_made_before(1000.0) == [("older", 50.0), ("old", 100.0)]
            await store.touch_waiting("old", 500.0)
            await store.touch_waiting("old", 400.0)  # an earlier use: the later one is kept
            await store.touch_waiting("played", 500.0)  # not waiting: not noted
            found = await store.table_row("old")
            assert found is not None and found[0]["touched_at"] == 500.0
            played = await store.table_row("played")
            assert played is not None and played[0]["touched_at"] is None
            # several workers: "old" was used at 500, so it is not unused since 450
            gone = await store.delete_waiting(["old", "older", "played"], WAITING_CHILDREN, unused_since=450.0)
            assert gone == ["older"]
            gone = await store.delete_waiting(["old", "played"], WAITING_CHILDREN)
            assert gone == ["old"] and await store.table_row("old") is None
            assert await store.table_row("played") is not None  # started: left alone

            async def left(c: AsyncConnection) -> list[int]:
                counts = []
                for t in (seats, table_options, chat_mutes, chat_lines):
                    q = sa.select(sa.func.count()).where(t.c.table_id.in_(["old", "older"]))
                    counts.append(int((await c.execute(q)).scalar_one()))
                return counts

            assert await store._run(left) == [0, 0, 0, 0]
        finally:
            await store.close()

    asyncio.run(main())

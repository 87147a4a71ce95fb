"""The bus between the workers of one PostgreSQL store (server/bus.py), two in-process workers
(two apps on one database, each on its own event loop): a notice of actions carries the new
rows (a worker with sockets of the table applies them without reading the store), and its
payload stays under PostgreSQL's limit."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from liverpool.bots import get
from liverpool.driver import next_to_act
from liverpool.server.bus import Bus
from liverpool.server.lobby import Lobby
from liverpool.server.store import NOTICE_BYTES, act_notices
from server_helpers import Harness, as_sent, connect, run_sql, running, server_settings


def _lobby(client: TestClient) -> Lobby:
    lobby: Lobby = client.app.state.lobby()  # type: ignore[attr-defined]
    return lobby


def _bus(client: TestClient) -> Bus:
    bus = _lobby(client).bus
    assert bus is not None
    return bus


def _wait(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _play(h: Harness, moves: int) -> None:
    bots = [get("greedy", seed=p) for p in range(h.game.players)]
    for _ in range(moves):
        who, legal = next_to_act(h.game)
        h.play(bots[who].act(h.game.view(who), legal))


@pytest.mark.sqlite_only
def test_act_notices_carry_the_rows_and_stay_under_the_limit() -> None:
    action = {"type": "meld", "cards": ["QS", "QH", "QD", "JK", "5C", "6C", "7C"] * 3}
    rows: list[dict[str, Any]] = [
        {"table_id": f"table{t:04d}", "idx": i, "seat": i % 4, "action": action, "source": "bot", "client_id": None}
        for t in range(300)
        for i in range(t % 3 + 1)
    ]
    payloads = act_notices("1234-abcdef", rows)
    assert len(payloads) > 1  # 300 tables' counts alone are over one payload's limit
    counts: dict[str, int] = {}
    carried: dict[str, list[list[Any]]] = {}
    for p in payloads:
        assert len(p.encode()) <= NOTICE_BYTES
        msg = json.loads(p)
        assert msg["w"] == "1234-abcdef" and msg["k"] == "act"
        assert not set(counts) & set(msg["v"])  # each table in one payload only
        counts |= msg["v"]
        carried |= msg.get("r", {})
    assert counts == {f"table{t:04d}": t % 3 + 1 for t in range(300)}
    assert carried  # rows ride along where they fit ...
    assert len(carried) < 300  # ... and not everywhere: the others have their count only
    for table_id, listed in carried.items():  # all of a table's rows, or none
        assert listed == [[i, i % 4, action, "bot", None] for i in range(counts[table_id])]
    # one row too big for any payload: its count only
    huge = [{"table_id": "t", "idx": 9, "seat": 0, "action": {"x": "y" * 9000}, "source": "bot", "client_id": "c"}]
    assert [json.loads(p) for p in act_notices("w", huge)] == [{"w": "w", "k": "act", "v": {"t": 10}}]


@pytest.mark.postgresql_only
def test_a_notice_with_rows_is_applied_without_reading_the_store(tmp_path: Path) -> None:
    seed = 3
    settings = server_settings(tmp_path, game_seed=seed)
    with running(settings) as (a, stack), running(settings) as (b, stack_b):
        h = Harness(a, stack, seed, players=2)  # every socket at worker A, which drives the table
        at_b = connect(b, h.table_id, h.tokens[1], 1, stack_b)  # seat 1 also at worker B
        assert at_b.expect("hello")["version"] == h.game.version
        bus_b = _bus(b)
        read_before = bus_b.notice_reads
        _play(h, 12)
        at_b.sync(h.game.version)  # every move reached B's socket
        assert at_b.state is not None and at_b.state["view"] == as_sent(h.game.view(1))
        assert bus_b.notice_rows_applied >= 1
        assert bus_b.notice_reads == read_before  # none of them needed a read of the log


def _bot_table(client: TestClient, players: int = 3) -> tuple[str, str]:
    """A started table whose people's seat (seat 0) is played by autoplay's bot once its socket
    leaves (grace 0 in these tests) and whose other seats are bots: its id and seat 0's token."""
    made = client.post(
        "/api/tables",
        json={"players": players, "name": "Ana", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 2},
    ).json()
    table_id, token = str(made["table_id"]), str(made["token"])
    assert client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token}).status_code == 200
    return table_id, token


def _version(client: TestClient, table_id: str) -> int:
    table = _lobby(client).tables.get(table_id)
    return -1 if table is None or table.game is None else int(table.game.version)


def _keeps(lobby: Lobby, bus: Bus, ids: set[str]) -> bool:
    return set(lobby.tables) & ids == bus.owned


# a person who leaves is played by a bot at once; bots move every 50 ms (the game lasts)
SLOW: dict[str, Any] = {"grace": 0.0, "bot_delay": 0.05}


@pytest.mark.postgresql_only
def test_a_worker_keeps_only_the_tables_it_drives_serves_or_was_asked_for(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, **SLOW)
    with running(settings) as (a, _stack), running(settings) as (b, _stack_b):
        made = [_bot_table(a) for _ in range(3)]
        ids = [t for t, _ in made]
        bus_a, bus_b = _bus(a), _bus(b)
        assert all(t in bus_a.owned for t in ids)  # the worker that started them drives them
        _wait(lambda: all(_version(a, t) > 10 for t in ids), "the bots of worker A never moved")
        time.sleep(3 * bus_b.poll)  # a few of B's polls: none loads a table B was not asked for
        lobby_b = _lobby(b)
        assert not set(ids) & set(lobby_b.tables)
        assert not set(ids) & bus_b.owned
        assert b.get(f"/api/tables/{ids[0]}").status_code == 200  # asked for: now kept at B
        assert set(lobby_b.tables) & set(ids) == {ids[0]}
        _wait(lambda: _version(b, ids[0]) > _version(a, ids[0]) - 5, "B's replica does not follow A's")
        assert ids[0] not in bus_b.owned


@pytest.mark.postgresql_only
def test_the_tables_of_a_worker_gone_are_shared_out_by_their_free_locks(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, **SLOW)
    with running(settings) as (b, _stack_b), running(settings) as (c, _stack_c):
        with running(settings) as (a, _stack):
            ids = [_bot_table(a)[0] for _ in range(4)]
            assert all(t in _bus(a).owned for t in ids)
        # A is gone (its sessions closed, its locks free): B and C take its tables, at most their
        # fair share each (4 tables over the workers alive), without loading any other table
        bus_b, bus_c = _bus(b), _bus(c)
        _wait(lambda: len(bus_b.owned) + len(bus_c.owned) == 4, "the tables of worker A were never taken")
        assert bus_b.owned | bus_c.owned == set(ids) and not bus_b.owned & bus_c.owned
        assert len(bus_b.owned) <= 2 and len(bus_c.owned) <= 2
        for client, bus in ((b, bus_b), (c, bus_c)):  # each keeps the tables it took, and no other
            _wait(partial(_keeps, _lobby(client), bus, set(ids)), "a taken table was not loaded")
        # and they play on there
        at = {t: _version(b if t in bus_b.owned else c, t) for t in ids}
        _wait(
            lambda: all(_version(b if t in bus_b.owned else c, t) > at[t] for t in ids if at[t] >= 0),
            "a taken table does not move",
        )


@pytest.mark.postgresql_only
def test_the_listen_and_lock_connections_come_back_after_their_backends_are_terminated(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, **SLOW)
    with running(settings) as (a, stack), running(settings) as (b, _stack_b):
        table_id, token = _bot_table(a)
        sock = connect(a, table_id, token, 0, stack)  # seat 0's socket at A
        sock.expect("hello")
        sock.send({"type": "autoplay", "on": True})
        bus_a, bus_b = _bus(a), _bus(b)
        assert table_id in bus_a.owned
        _wait(lambda: _version(a, table_id) > 5, "the table never moved")
        pids = dict(bus_a.backends)
        heard = bus_a.notified
        run_sql(
            settings.database,
            "SELECT pg_terminate_backend(:p), pg_terminate_backend(:q)",
            p=pids["listen"],
            q=pids["locks"],
        )
        _wait(lambda: bus_a.reconnects >= 2, "worker A never reconnected")
        assert bus_a.backends["listen"] != pids["listen"] and bus_a.backends["locks"] != pids["locks"]
        # exactly one worker drives the table again (A lost its lock with its session)
        _wait(lambda: (table_id in bus_a.owned) != (table_id in bus_b.owned), "nobody drives the table")
        for _ in range(40):
            assert not (table_id in bus_a.owned and table_id in bus_b.owned)
            time.sleep(0.05)
        # A hears the bus again (B's beats), and its socket follows the game on
        _wait(lambda: bus_a.notified > heard + 1, "worker A hears nothing on its new LISTEN connection")
        now = _version(a, table_id)
        sock.until(lambda m: m["type"] == "state" and (m["version"] > now + 3 or m["view"]["is_over"]))
        rows = run_sql(settings.database, "SELECT count(*), max(idx) FROM actions WHERE table_id = :t", t=table_id)
        assert rows[0][0] == rows[0][1] + 1  # one log, no gap, nothing twice

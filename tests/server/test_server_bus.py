"""The bus between the workers of one PostgreSQL store (server/bus.py), two in-process workers
(two apps on one database, each on its own event loop): a notice of actions carries the new
rows (a worker with sockets of the table applies them without reading the store), and its
payload stays under PostgreSQL's limit."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from liverpool.bots import get
from liverpool.driver import next_to_act
from liverpool.server.bus import Bus
from liverpool.server.store import NOTICE_BYTES, act_notices
from server_helpers import Harness, as_sent, connect, running, server_settings


def _bus(client: TestClient) -> Bus:
    bus = client.app.state.lobby().bus  # type: ignore[attr-defined]
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

"""Hints on the socket and reviews of finished games (issue 13) through the server: the review
endpoint against ``liverpool.analysis.review``, its cache, the ``hints`` option and its count."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from liverpool.actions import Pass
from liverpool.analysis import Budget, review
from liverpool.bots import get
from liverpool.server.advice import hint_answer, review_answer
from server_helpers import Harness, Sock, connect, downgrade_store, head_revision, normal, running, server_settings

FAST = {"hint_samples": 2, "review_samples": 2}


def _finished_bot_game(client: TestClient, players: int = 2) -> str:
    """A table whose seats are all played by bots (seat 0 by the stand-in bot), played to its end."""
    created = client.post(
        "/api/tables",
        json={
            "players": players,
            "name": "Ana",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1),
        },
    ).json()
    table_id = str(created["table_id"])
    assert client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": created["token"]}).status_code == 200
    for _ in range(6000):
        if client.get(f"/api/tables/{table_id}").json()["status"] == "over":
            return table_id
        time.sleep(0.05)
    raise AssertionError("the bots' game did not end")


# ------------------------------------------------------------------------------- reviews
def test_review_of_a_finished_game_equals_the_library_and_is_cached(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, game_seed=7, grace=0.0, takeover_bot="greedy", **FAST)
    with running(settings) as (client, _):
        table_id = _finished_bot_game(client)
        record = client.get(f"/api/tables/{table_id}/record").json()
        first = client.get(f"/api/tables/{table_id}/review/0?samples=1")
        assert first.status_code == 200, first.text
        body = first.json()
        assert (body["table_id"], body["seat"], body["samples"], body["seed"], body["cached"]) == (
            table_id,
            0,
            1,
            0,
            False,
        )
        expected = review(record, 0, Budget(samples=1, seed=0))
        got = dict(body["review"])
        reasons = got.pop("reasons")
        assert got == normal(expected.to_dict())
        assert expected.decisions and got["summary"]["decisions"] == len(expected.decisions)
        assert sorted(reasons) == sorted(str(d.index) for d in expected.costliest())
        assert all(isinstance(t, str) and t for t in reasons.values())
        # the second time: from the store, the same review
        second = client.get(f"/api/tables/{table_id}/review/0?samples=1").json()
        assert second["cached"] is True and second["review"] == body["review"]
        lobby = client.app.state.lobby()  # type: ignore[attr-defined]
        assert lobby.reviews_computed == 1
        # another budget is another review; the default budget is the server's review_samples
        other = client.get(f"/api/tables/{table_id}/review/1").json()
        assert other["samples"] == 2 and other["cached"] is False and other["review"]["seat"] == 1
        assert lobby.reviews_computed == 2
    # a restarted server still has it
    with running(settings) as (client, _):
        again = client.get(f"/api/tables/{table_id}/review/0?samples=1").json()
        assert again["cached"] is True and again["review"] == body["review"]
        assert client.app.state.lobby().reviews_computed == 0  # type: ignore[attr-defined]


def test_review_answer_is_deterministic_for_a_budget(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, game_seed=9, grace=0.0, takeover_bot="greedy", **FAST)
    with running(settings) as (client, _):
        table_id = _finished_bot_game(client)
        record = client.get(f"/api/tables/{table_id}/record").json()
    assert review_answer(record, 1, 1, 0) == review_answer(record, 1, 1, 0)


def test_review_refused_before_the_end_and_for_bad_tables_seats_and_samples(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, **FAST)) as (client, _):
        created = client.post(
            "/api/tables", json={"players": 2, "name": "Ana", "seats": [{"kind": "human"}, {"kind": "bot"}]}
        ).json()
        table_id = created["table_id"]
        waiting = client.get(f"/api/tables/{table_id}/review/0")
        assert waiting.status_code == 409 and "not over" in waiting.json()["detail"]
        client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": created["token"]})
        # the person of seat 0 never plays (a long grace period): the game waits for them
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
        playing = client.get(f"/api/tables/{table_id}/review/1")
        assert playing.status_code == 409
        assert client.get("/api/tables/nosuchtable/review/0").status_code == 404
        for seat in (2, -1):
            bad = client.get(f"/api/tables/{table_id}/review/{seat}")
            assert bad.status_code == 404 and "seat" in bad.json()["detail"]
        for samples in ("0", "65", "1000", "x"):
            assert client.get(f"/api/tables/{table_id}/review/0?samples={samples}").status_code == 422
        assert client.get(f"/api/tables/{table_id}/review/x").status_code == 422


# ------------------------------------------------------------------------------- hints
def _no_message_but_pong(sock: Sock) -> None:
    """Nothing was sent to ``sock`` but what a ping now answers (notices of seats aside)."""
    sock.send({"type": "ping"})
    msg = sock.until(lambda m: m["type"] not in ("lobby", "table"))
    assert msg == {"type": "pong"}, msg


def _ask(sock: Sock, version: int) -> dict[str, Any]:
    sock.send({"type": "hint", "version": version})
    return sock.until(lambda m: m["type"] in ("hint", "error"))


def _advance(h: Harness, until: Any) -> None:
    """Play the greedy bots' choices through the sockets until ``until(game)``."""
    bots = [get("greedy", seed=p) for p in range(h.game.players)]
    from liverpool.driver import next_to_act

    for _ in range(5000):
        if until(h.game):
            return
        seat, legal = next_to_act(h.game)
        h.play(bots[seat].act(h.game.view(seat), legal))
    raise AssertionError("never reached")


def _next_decision(h: Harness, seat: int) -> None:
    """Play on until ``seat`` has a new decision: a move other than a buy or a pass was made
    since (versions that differ by buys and passes only are one decision), and it may act."""
    bots = [get("greedy", seed=p) for p in range(h.game.players)]
    from liverpool.actions import Buy
    from liverpool.driver import next_to_act

    moved = False
    for _ in range(5000):
        if moved and h.game.legal_actions(seat):
            return
        who, legal = next_to_act(h.game)
        action = bots[who].act(h.game.view(who), legal)
        h.play(action)
        moved = moved or not isinstance(action, Buy | Pass)
    raise AssertionError("never reached")


@pytest.mark.postgresql_only
def test_with_two_workers_a_seat_has_one_hint_count_whichever_worker_it_asks(tmp_path: Path) -> None:
    seed = 4
    settings = server_settings(tmp_path, game_seed=seed, shared=True, **FAST)
    with running(settings) as (a, stack), running(settings) as (b, stack_b):
        h = Harness(a, stack, seed, players=3)  # every socket at worker A
        assert b.get(f"/api/tables/{h.table_id}").json()["hints"] == 3  # B has the table too
        at_b = b.app.state.lobby().tables[h.table_id]  # type: ignore[attr-defined]
        asker = h.game.current
        first = _ask(h.socks[asker], h.game.version)
        assert first["type"] == "hint" and first["left"] == 2
        # B learns the count from the store (a notice on the bus), not from its own seat
        deadline = time.monotonic() + 30.0
        while at_b.seats[asker].hints_used != 1:
            assert time.monotonic() < deadline, "worker B never learnt the seat's hint count"
            time.sleep(0.05)
        h.socks[asker].ws.close()
        moved = connect(b, h.table_id, h.tokens[asker], asker, stack_b)  # the seat's socket moves to B
        hello = moved.expect("hello")
        assert hello["hints_left"] == 2
        # asked again for the same decision at B: the same hint, not counted twice (the last hint
        # is kept in the store with the count)
        second = _ask(moved, h.game.version)
        assert second == first
        h.socks[asker] = moved
        _next_decision(h, asker)
        third = _ask(moved, h.game.version)
        assert third["type"] == "hint" and third["left"] == 1


def test_the_last_hint_is_kept_with_its_count_across_a_restart(tmp_path: Path) -> None:
    seed = 4
    settings = server_settings(tmp_path, game_seed=seed, **FAST)
    with running(settings) as (client, stack):
        h = Harness(client, stack, seed, players=3)
        asker = h.game.current
        first = _ask(h.socks[asker], h.game.version)
        assert first["type"] == "hint" and first["left"] == 2
        table_id, tokens, game = h.table_id, h.tokens, h.game
    with running(settings) as (client, stack):
        h = Harness.resume(client, stack, table_id, tokens, game)
        # the same decision after the restart: the same hint, not counted again
        assert _ask(h.socks[asker], h.game.version) == first
        _next_decision(h, asker)
        answer = _ask(h.socks[asker], h.game.version)
        assert answer["type"] == "hint" and answer["left"] == 1


def test_hints_answer_the_asker_only_count_down_per_deal_and_survive_a_restart(tmp_path: Path) -> None:
    seed = 4
    settings = server_settings(tmp_path, game_seed=seed, **FAST)
    with running(settings) as (client, stack):
        h = Harness(client, stack, seed, players=3)
        assert client.get(f"/api/tables/{h.table_id}").json()["hints"] == 3
        asker = h.game.current
        sock = h.socks[asker]
        assert sock.state is not None and sock.state["hints_left"] == 3
        version = h.game.version
        legal = h.game.legal_actions(asker)
        msg = _ask(sock, version)
        expected = hint_answer(h.game.view(asker), legal, 2, 0)  # the seat's own view and legal list
        assert msg == {
            "type": "hint",
            "version": version,
            "action": f"a{expected['index']}",
            "text": expected["text"],
            "cards": expected["cards"],
            "left": 2,
        }
        assert msg["action"] in {e["id"] for e in sock.state["legal"]} and msg["text"]
        assert _ask(sock, version) == msg  # asked again for the same decision: not counted again
        for other in h.socks:
            if other is not sock:
                _no_message_but_pong(other)
                assert all(m["type"] != "hint" for m in other.log)
        # a stale version; a seat with no decision now
        stale = _ask(sock, version - 1)
        assert stale["type"] == "error" and stale["code"] == "stale"
        _advance(h, lambda g: any(not g.legal_actions(q) for q in range(g.players)))
        idle = next(q for q in range(3) if not h.game.legal_actions(q))
        refused = _ask(h.socks[idle], h.game.version)
        assert refused["type"] == "error" and refused["code"] == "not_your_decision"
        # the asker's next decisions of this deal: 1 left, 0 left, then refused
        deal = h.game.deal
        lefts: list[Any] = []
        while len(lefts) < 3:
            _next_decision(h, asker)
            assert h.game.deal == deal
            version = h.game.version
            assert sock.state is not None and sock.state["hints_left"] == 3 - min(3, 1 + len(lefts))
            answer = _ask(sock, version)
            lefts.append(answer["left"] if answer["type"] == "hint" else answer["code"])
        assert lefts == [1, 0, "no_hints_left"]
        for other in h.socks:
            if other is not sock:
                _no_message_but_pong(other)
                assert all(m["type"] != "hint" for m in other.log)
        # a new deal: 3 again
        _advance(h, lambda g: g.deal == deal + 1 and bool(g.legal_actions(asker)))
        answer = _ask(sock, h.game.version)
        assert answer["type"] == "hint" and answer["left"] == 2
        table_id, tokens, game = h.table_id, h.tokens, h.game
    # after a restart the option and the count of this deal are kept
    with running(settings) as (client, stack):
        h = Harness.resume(client, stack, table_id, tokens, game)
        assert client.get(f"/api/tables/{table_id}").json()["hints"] == 3
        _next_decision(h, asker)
        assert h.game.deal == deal + 1
        state = h.socks[asker].state
        assert state is not None and state["hints_left"] == 2
        answer = _ask(h.socks[asker], h.game.version)
        assert answer["type"] == "hint" and answer["left"] == 1


def test_hints_off_and_unlimited(tmp_path: Path) -> None:
    seed = 4
    with running(server_settings(tmp_path, game_seed=seed, warm_hints=True, **FAST)) as (client, stack):
        h = Harness(client, stack, seed, players=2, hints="off")
        assert client.app.state.lobby().hint_workers._pool is None  # type: ignore[attr-defined]  # no hints: not started
        assert client.get(f"/api/tables/{h.table_id}").json()["hints"] == "off"
        assert all(s.state is not None and s.state["hints_left"] == 0 for s in h.socks)
        sock = h.socks[h.game.current]
        answer = _ask(sock, h.game.version)
        assert answer["type"] == "error" and answer["code"] == "hints_off"
        assert all(m["type"] != "hint" for s in h.socks for m in s.log)
    (tmp_path / "u").mkdir()
    with running(server_settings(tmp_path / "u", game_seed=seed, warm_hints=True, **FAST)) as (client, stack):
        h = Harness(client, stack, seed, players=2, hints="unlimited")
        assert client.app.state.lobby().hint_workers._pool is not None  # type: ignore[attr-defined]  # started with the table
        asker = h.game.current
        # a hint asked for a version that differs from the current one by another seat's pass
        # only is the same decision: answered for the current version
        _advance(
            h, lambda g: g.phase == "draw" and any(Pass(q) in g.legal_actions(q) for q in range(2) if q != g.current)
        )
        asker = h.game.current
        h.play(Pass(1 - asker))
        answer = _ask(h.socks[asker], h.game.version - 1)
        assert answer["type"] == "hint" and answer["version"] == h.game.version and answer["left"] is None
        for _ in range(5):
            answer = _ask(h.socks[asker], h.game.version)
            assert answer["type"] == "hint" and answer["left"] is None
            _next_decision(h, asker)


def test_bad_hints_options_and_messages_are_refused(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, **FAST)) as (client, stack):
        for bad in (5, 0, "3", "some", None, True, [3]):
            made = client.post("/api/tables", json={"players": 2, "name": "Ana", "hints": bad})
            assert made.status_code == 422, (bad, made.text)
            assert "hints" in made.text
        assert client.post("/api/quickplay", json={"name": "Ana", "hints": "lots"}).status_code == 422
        quick = client.post("/api/quickplay", json={"name": "Ana", "hints": "unlimited", "bot_delay": 0})
        assert client.get(f"/api/tables/{quick.json()['table_id']}").json()["hints"] == "unlimited"
        made = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        from server_helpers import connect

        sock = connect(client, made["table_id"], made["token"], 0, stack)
        sock.expect("hello")
        not_started = _ask(sock, 0)
        assert not_started["type"] == "error" and not_started["code"] == "not_started"
        for message in ({"type": "hint"}, {"type": "hint", "version": "x"}, {"type": "hint", "version": 1, "seat": 1}):
            sock.send(message)
            err = sock.expect("error")
            assert err["code"] == "malformed" and "hint" in err["reason"]


@pytest.mark.sqlite_only  # reads the SQLite file itself
def test_a_store_of_before_the_hints_migrates_and_its_tables_get_the_default(tmp_path: Path) -> None:
    """Migration 0002 down to 0001 (the store as issue 11 made it) and up again on the next start:
    the tables are kept, with the default ``hints`` (3); the reviews table is made again."""
    import sqlite3

    settings = server_settings(tmp_path, **FAST)
    with running(settings) as (client, _):
        made = client.post("/api/tables", json={"players": 2, "name": "Ana", "hints": "unlimited"}).json()
    downgrade_store(tmp_path / "liverpool.db", "0001")
    db = sqlite3.connect(tmp_path / "liverpool.db")
    assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
    assert "hints" not in {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    db.close()
    with running(settings) as (client, _):
        info = client.get(f"/api/tables/{made['table_id']}").json()
        assert info["status"] == "waiting" and info["hints"] == 3
    db = sqlite3.connect(tmp_path / "liverpool.db")
    assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head_revision()
    assert db.execute("SELECT count(*) FROM reviews").fetchone()[0] == 0

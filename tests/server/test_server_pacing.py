"""The pace of a table of people (issue 24, server/pacing.py): the deal-end pause holds the table
until every person whose client shows a deal-end screen continues (or the table's timer runs
out), and a person's buy choice answers buy windows for them at once."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from liverpool import action_from_dict
from liverpool.bots import get
from liverpool.server.pacing import BuyChoice
from server_helpers import Msg, Sock, connect, running, server_settings

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


def _table(client: TestClient, stack: ExitStack, **options: object) -> tuple[str, Sock]:
    created = client.post(
        "/api/tables",
        json={"players": 3, "name": "Ana", "seats": SEATS, **options},
    )
    assert created.status_code == 200, created.text
    body = created.json()
    sock = connect(client, body["table_id"], body["token"], 0, stack)
    sock.expect("hello")
    return body["table_id"], sock


def _play_until_deal_end(sock: Sock, deadline: float) -> Msg:
    """Ana's moves chosen by a greedy bot from her own view, until a state ends the deal."""
    bot = get("greedy", seed=5)
    while True:
        assert time.monotonic() < deadline, "the deal did not end"
        msg = sock.until(lambda m: m["type"] in ("state", "error"))
        if msg["type"] == "error":
            continue  # a choice made stale by the bot's move: the next state has the new list
        if any(e["type"] == "deal_end" for e in msg["events"]):
            return msg
        if msg["legal"] and (msg["auto_buy"] is None or msg["auto_buy"]["action"] == "ask"):
            legal = [action_from_dict(e["action"]) for e in msg["legal"]]
            sock.act(bot.act(msg["view"], legal))


@pytest.mark.sqlite_only  # reads the actions from the SQLite file itself
@pytest.mark.parametrize("buy", ["never", "fits"])
def test_the_deal_end_pause_holds_the_table_until_the_person_continues(tmp_path: Path, buy: str) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        created = client.post(
            "/api/tables",
            json={"players": 3, "name": "Ana", "seats": SEATS},
        )
        body = created.json()
        sock = connect(client, body["table_id"], body["token"], 0, stack)
        sock.expect("hello")
        sock.send({"type": "prefs", "buy": buy, "wish": [], "pause": True})
        client.post(f"/api/tables/{body['table_id']}/start", headers={"X-Seat-Token": body["token"]})
        end = _play_until_deal_end(sock, time.monotonic() + 120)
        version = end["version"]
        assert end["pause"] == {"waiting": [0], "until": None}
        assert end["legal"] == [] and end["view"]["deal"] == 2
        # nothing moves: the bot (whose turn it may be) waits, and Ana's moves are refused
        sock.send({"type": "act", "version": version, "action": "a0"})
        refused = sock.until(lambda m: m["type"] in ("state", "error"), timeout=5)
        assert refused["type"] == "error" and refused["code"] == "paused", refused
        time.sleep(1.0)
        sock.send({"type": "ping"})
        assert sock.until(lambda m: m["type"] in ("state", "pong"), timeout=5)["type"] == "pong"
        sock.send({"type": "continue"})
        going = sock.until(lambda m: m["type"] == "state")
        assert going["pause"] is None and going["version"] == version
        assert going["legal"] or sock.until(lambda m: m["type"] == "state")["version"] > version
        # every buy window of Ana's in the first deal was answered for her: no window waited for her
        engine = sa.create_engine(f"sqlite:///{tmp_path / 'liverpool.db'}")
        with engine.connect() as c:
            rows = c.execute(
                sa.text("select source, action from actions where table_id = :t and seat = 0"), {"t": body["table_id"]}
            ).all()
        autos = [r for r in rows if r[0] == "auto"]
        passes = [r for r in rows if '"pass"' in r[1]]
        assert autos, "no buy window was answered by the buy choice"
        assert all(r[0] == "auto" for r in passes), "Ana was left to pass by hand"
        if buy == "never":
            assert all('"pass"' in r[1] for r in autos)


def test_the_deal_pause_timer_ends_the_pause(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        created = client.post(
            "/api/tables",
            json={
                "players": 3,
                "name": "Ana",
                "seats": SEATS,
                "deal_pause": 1.0,
                "buy_seconds": 3,
            },
        )
        body = created.json()
        info = client.get(f"/api/tables/{body['table_id']}").json()
        assert info["deal_pause"] == 1.0 and info["buy_seconds"] == 3
        sock = connect(client, body["table_id"], body["token"], 0, stack)
        sock.expect("hello")
        sock.send({"type": "prefs", "buy": "never", "pause": True})
        client.post(f"/api/tables/{body['table_id']}/start", headers={"X-Seat-Token": body["token"]})
        end = _play_until_deal_end(sock, time.monotonic() + 120)
        assert end["pause"] is not None and end["pause"]["until"] is not None
        started = time.monotonic()
        going = sock.until(lambda m: m["type"] == "state" and m["pause"] is None, timeout=10)
        assert time.monotonic() - started >= 0.5
        assert going["version"] == end["version"]


def test_a_client_that_never_asked_for_the_pause_is_not_waited_for(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        created = client.post(
            "/api/tables",
            json={"players": 3, "name": "Ana", "seats": SEATS},
        )
        body = created.json()
        sock = connect(client, body["table_id"], body["token"], 0, stack)
        sock.expect("hello")
        client.post(f"/api/tables/{body['table_id']}/start", headers={"X-Seat-Token": body["token"]})
        end = _play_until_deal_end(sock, time.monotonic() + 120)
        assert end["pause"] is None


def test_bad_prefs_and_table_options_are_refused(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        bad = client.post("/api/tables", json={"players": 2, "buy_seconds": 0})
        assert bad.status_code == 422 and "buy_seconds" in bad.text
        _table_id, sock = _table(client, stack)
        sock.send({"type": "prefs", "buy": "sometimes"})
        err = sock.until(lambda m: m["type"] == "error")
        assert err["code"] == "malformed"


def test_a_wish_list_names_cards_or_ranks() -> None:
    choice = BuyChoice("ask", frozenset({"7H", "Q", "JK"}))
    assert choice.wants("7H") and choice.wants("QS") and choice.wants("JK")
    assert not choice.wants("7S") and not choice.wants("10H")


def test_the_turn_timer_is_sent_as_a_deadline_of_the_persons_decision(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        created = client.post(
            "/api/tables", json={"players": 3, "name": "Ana", "seats": SEATS, "timer": 30, "hints": "off"}
        )
        body = created.json()
        sock = connect(client, body["table_id"], body["token"], 0, stack)
        sock.expect("hello")
        client.post(f"/api/tables/{body['table_id']}/start", headers={"X-Seat-Token": body["token"]})
        # the first state where Ana decides carries when the timer plays for her
        msg = sock.until(lambda m: m["type"] == "state" and bool(m["legal"]), timeout=30)
        deadline = msg["turn_deadline"]
        assert deadline is not None and 25_000 <= deadline - time.time() * 1000 <= 30_500
        # a bot's decision has none
        sock.act(action_from_dict(msg["legal"][0]["action"]))
        after = sock.until(lambda m: m["type"] == "state" and not m["legal"], timeout=30)
        assert after["turn_deadline"] is None or after["view"]["current"] == 0

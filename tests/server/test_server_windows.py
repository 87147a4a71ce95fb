"""The buy window under ``buy_window="until_discard"`` (R30, issue 16): a bot playing its turn
waits for a person's open buy once per turn, counted from the discard that opened the window,
plays its melds and lay-offs meanwhile, and only its discard waits for the window's time. And
tables nobody starts leave memory like finished ones, and load back on demand."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("fastapi")

from liverpool.actions import Pass
from server_helpers import Sock, connect, running, server_settings

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

Msg = dict[str, Any]


def _buy_listed(msg: Msg) -> bool:
    return any(e["action"]["type"] == "buy" for e in msg["legal"])


def _ana_and_two_greedy_bots(client: TestClient, stack: ExitStack) -> Sock:
    """A started table under ``buy_window="until_discard"``: Ana (seat 0, her socket returned, its
    hello read) and two greedy bots."""
    created = client.post(
        "/api/tables",
        json={
            "players": 3,
            "name": "Ana",
            "options": {"buy_window": "until_discard"},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
            "timer": 0.1,
        },
    )
    assert created.status_code == 200, created.text
    table_id, token = created.json()["table_id"], created.json()["token"]
    ana = connect(client, table_id, token, 0, stack)
    ana.expect("hello")
    assert client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token}).status_code == 200
    return ana


def test_a_bot_waits_for_a_persons_late_buy_once_per_turn_and_melds_meanwhile(tmp_path: Path) -> None:
    """Ana never answers a buy; the bots of seats 1 and 2 play (the turn timer plays Ana's own
    turns). Each turn of seat 2 after seat 1's discard opens a window for Ana that stays open
    after seat 2's stock draw: its deadline stays the one of the discard, seat 2's moves before
    its discard come while Ana may still buy, and its discard comes once that deadline passed."""
    window = 0.3
    with running(server_settings(tmp_path, buy_window=window)) as (client, stack):
        ana = _ana_and_two_greedy_bots(client, stack)
        turns = 0  # seat 2's turns with a stock draw while Ana's buy was open
        moves_in_window = 0  # seat 2's melds and lay-offs while Ana could still buy
        deadline: int | None = None  # the deadline of the window open for Ana, as first sent
        drew = False
        while turns < 4 or moves_in_window == 0:
            msg = ana.until(lambda m: m["type"] == "state", timeout=60)
            arrived = time.time() * 1000
            view = msg["view"]
            assert not view["is_over"], f"the game ended with {turns} turns, {moves_in_window} moves seen"
            kinds = [(e["type"], e.get("player")) for e in msg["events"]]
            if deadline is not None and ("discard", 2) in kinds:
                # the move that closed the window came once its time had passed, counted from the discard
                assert drew and arrived >= deadline - 5, (arrived, deadline)
                turns += 1
            if deadline is not None and drew:
                moves_in_window += sum(1 for k in kinds if k in (("meld", 2), ("lay_off", 2)))
            if view["current"] == 2 and _buy_listed(msg):
                if deadline is None:
                    assert view["phase"] == "draw"
                    deadline = msg["buy_deadline"]
                    assert deadline is not None
                else:
                    # the window keeps the time it opened with: no new wait after each move
                    assert msg["buy_deadline"] == deadline
                if view["phase"] == "play":
                    drew = True
            else:
                deadline, drew = None, False
            if ("draw_discard", 2) in kinds:
                deadline, drew = None, False  # the bot took the discard: no window to watch


def test_under_until_discard_a_bot_draws_and_melds_at_once_and_holds_its_discard_for_the_open_buy(
    tmp_path: Path,
) -> None:
    """A buy window of an hour: the bot of seat 2 still draws from the stock and melds while Ana
    may buy (the window stays open after a stock draw), and the move that would close her window
    (its discard, or taking the discard) comes only once she answered (she passes when the table
    is quiet)."""
    with running(server_settings(tmp_path, buy_window=3600.0)) as (client, stack):
        ana = _ana_and_two_greedy_bots(client, stack)
        open_buy = False  # Ana's buy is listed in the last state
        drew = melds = turns = passes = 0
        while turns < 3 or melds == 0:
            try:
                msg = ana.until(lambda m: m["type"] in ("state", "error"), timeout=0.5)
            except TimeoutError:
                assert open_buy, "the table stopped without a buy of Ana's open"
                ana.act(Pass(0))  # quiet: the bot holds its move for Ana's answer; she passes
                passes += 1
                continue
            assert msg["type"] == "state", msg
            assert not msg["view"]["is_over"], f"the game ended with {turns} turns, {melds} melds seen"
            kinds = [(e["type"], e.get("player")) for e in msg["events"]]
            if open_buy:
                # while Ana may buy, the bot's closing moves wait for her: draws and melds do not
                assert ("discard", 2) not in kinds and ("draw_discard", 2) not in kinds, kinds
                drew += ("draw_stock", 2) in kinds
                if ("draw_stock", 2) in kinds:
                    turns += 1
                melds += sum(1 for k in kinds if k in (("meld", 2), ("lay_off", 2)))
            view = msg["view"]
            open_buy = view["current"] != 0 and _buy_listed(msg)
        assert passes >= turns and drew == turns


def _lobby(client: Any) -> Any:
    return client.app.state.lobby()


def test_tables_nobody_starts_leave_memory_and_come_back_to_join_and_start(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, evict_after=0.2)) as (client, stack):
        lobby = _lobby(client)
        created = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        table_id, token = created["table_id"], created["token"]
        # nobody connected: the waiting table leaves memory (it is still in the store)
        deadline = time.monotonic() + 30
        while table_id in lobby.tables:
            assert time.monotonic() < deadline, "the waiting table stayed in memory"
            time.sleep(0.02)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "waiting" and [s["claimed"] for s in info["seats"]] == [True, False]
        # a waiting table with a socket open stays
        ana = connect(client, table_id, token, 0, stack)
        assert ana.expect("hello")["view"] is None
        time.sleep(0.5)
        assert table_id in lobby.tables
        ana.ws.close()
        while table_id in lobby.tables:
            assert time.monotonic() < deadline, "the waiting table stayed in memory"
            time.sleep(0.02)
        # joining an evicted table loads it back; then it can be started and played
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 1
        while table_id in lobby.tables:
            assert time.monotonic() < deadline, "the waiting table stayed in memory"
            time.sleep(0.02)
        started = client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        assert started.status_code == 200, started.text
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["Ana", "Bo"]
        # a game being played is never evicted
        time.sleep(0.5)
        assert table_id in lobby.tables
        bo = connect(client, table_id, joined.json()["token"], 1, stack)
        assert bo.expect("hello")["view"] is not None

"""The deal-end pause across a reload (issue 24, server/pacing.py): a person the pause waits for
whose socket drops and comes back (a page reload, a terminal's reconnect) is still waited for."""

from __future__ import annotations

import asyncio
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from liverpool import action_from_dict
from liverpool.bots import get
from server_helpers import Msg, Sock, connect, running, server_settings

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]


def _until_deal_end(sock: Sock, deadline: float) -> Msg:
    bot = get("greedy", seed=5)
    while True:
        assert time.monotonic() < deadline, "the deal did not end"
        msg = sock.until(lambda m: m["type"] in ("state", "error"))
        if msg["type"] == "error":
            continue
        if any(e["type"] == "deal_end" for e in msg["events"]):
            return msg
        if msg["legal"] and (msg["auto_buy"] is None or msg["auto_buy"]["action"] == "ask"):
            sock.act(bot.act(msg["view"], [action_from_dict(e["action"]) for e in msg["legal"]]))


def test_a_reload_during_the_deal_end_pause_is_still_waited_for(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        body = client.post("/api/tables", json={"players": 3, "name": "Ana", "seats": SEATS}).json()
        table_id, token = body["table_id"], body["token"]
        first = ExitStack()
        sock = connect(client, table_id, token, 0, first)
        sock.expect("hello")
        sock.send({"type": "prefs", "buy": "never", "wish": [], "pause": True})
        client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        end = _until_deal_end(sock, time.monotonic() + 120)
        version = end["version"]
        assert end["pause"] == {"waiting": [0], "until": None}
        first.close()  # the reload: the socket drops ...
        time.sleep(0.5)
        again = connect(client, table_id, token, 0, stack)  # ... and comes back
        hello = again.expect("hello")
        assert hello["pause"] == {"waiting": [0], "until": None}, hello["pause"]
        assert hello["version"] == version and hello["legal"] == []
        again.send({"type": "prefs", "buy": "never", "wish": [], "pause": True})  # the page says it again
        time.sleep(1.0)
        again.send({"type": "ping"})
        seen: list[Msg] = []
        while not seen or seen[-1]["type"] != "pong":
            seen.append(again.recv(5))
        states = [m for m in seen if m["type"] == "state"]  # the answer to the prefs, nothing else
        assert all(m["version"] == version and m["pause"] == {"waiting": [0], "until": None} for m in states)
        again.send({"type": "continue"})
        going = again.until(lambda m: m["type"] == "state")
        assert going["pause"] is None and going["version"] == version


def test_a_new_client_that_shows_no_deal_end_screen_ends_the_wait(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        body = client.post("/api/tables", json={"players": 3, "name": "Ana", "seats": SEATS}).json()
        table_id, token = body["table_id"], body["token"]
        first = ExitStack()
        sock = connect(client, table_id, token, 0, first)
        sock.expect("hello")
        sock.send({"type": "prefs", "buy": "never", "wish": [], "pause": True})
        client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        end = _until_deal_end(sock, time.monotonic() + 120)
        assert end["pause"] is not None
        first.close()
        other = connect(client, table_id, token, 0, stack)
        assert other.expect("hello")["pause"] == {"waiting": [0], "until": None}
        other.send({"type": "prefs", "buy": "ask", "wish": [], "pause": False})
        going = other.until(lambda m: m["type"] == "state" and m["pause"] is None, timeout=10)
        assert going["version"] >= end["version"]


def test_a_person_gone_past_the_grace_period_is_no_longer_waited_for(tmp_path: Path) -> None:
    """On a real server (uvicorn, one event loop: the test client's sockets each run a loop of
    their own, and the table's pump would not hear of a socket closed in another one)."""
    from liverpool.server import create_app

    asyncio.run(_gone_for_good(create_app(server_settings(tmp_path, grace=1.0))))


async def _gone_for_good(app: Any) -> None:
    import json
    import socket
    import threading
    import urllib.request

    import uvicorn
    from websockets.asyncio.client import connect as ws_connect

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            await asyncio.sleep(0.02)
        base = f"http://127.0.0.1:{port}"

        def post(path: str, body: Msg, token: str | None = None) -> Msg:
            headers = {"Content-Type": "application/json"} | ({"X-Seat-Token": token} if token else {})
            req = urllib.request.Request(base + path, json.dumps(body).encode(), headers, method="POST")
            with urllib.request.urlopen(req, timeout=30) as answer:
                result: Msg = json.loads(answer.read())
                return result

        made = await asyncio.to_thread(post, "/api/tables", {"players": 3, "name": "Ana", "seats": SEATS})
        table = app.state.lobby().tables[made["table_id"]]
        bot = get("greedy", seed=5)
        async with ws_connect(f"ws://127.0.0.1:{port}/ws/tables/{made['table_id']}") as ws:
            await ws.send(json.dumps({"type": "auth", "token": made["token"]}))
            await ws.send(json.dumps({"type": "prefs", "buy": "never", "wish": [], "pause": True}))
            await asyncio.to_thread(post, f"/api/tables/{made['table_id']}/start", {}, made["token"])
            deadline = time.monotonic() + 120
            while table.pacing.hold is None:
                assert time.monotonic() < deadline, "the deal did not end"
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if (
                    msg["type"] == "state"
                    and msg["legal"]
                    and msg["pause"] is None
                    and (msg["auto_buy"] is None or msg["auto_buy"]["action"] == "ask")
                    and msg["version"] == table.game.version
                ):
                    action = bot.act(table.game.view(0), [action_from_dict(e["action"]) for e in msg["legal"]])
                    listed = next(e["id"] for e in msg["legal"] if e["action"] == action.to_dict())
                    await ws.send(json.dumps({"type": "act", "version": msg["version"], "action": listed}))
        assert table.pacing.hold == {0}
        version = table.game.version
        deadline = time.monotonic() + 30
        while table.pacing.hold is not None:  # the grace period (1 s) ends the wait
            assert time.monotonic() < deadline, "the pause still waits for a person gone for good"
            await asyncio.sleep(0.05)
        while table.game.version == version:  # and the table goes on, the seat's bot playing for Ana
            assert time.monotonic() < deadline, "the table did not go on"
            await asyncio.sleep(0.05)
    finally:
        server.should_exit = True
        await asyncio.to_thread(thread.join, 30)

"""The game server through FastAPI's in-process test client: the lobby, every kind of action
through the sockets, refusals, reconnects, bots standing in, the turn timer, rematch, records."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from liverpool.actions import Buy, DrawStock, Meld
from liverpool.game import DRAW
from liverpool.rules import options_json
from server_helpers import (
    WANTED,
    Harness,
    Sock,
    as_sent,
    connect,
    coverage_bots,
    covered_by,
    find_coverage_seed,
    head_revision,
    policy,
    running,
    server_settings,
)


# ------------------------------------------------------------------------------- the lobby
def test_presets_list_every_option_with_its_rule(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        body = client.get("/api/presets").json()
        assert body["presets"] == ["liverpool", "contract", "may_i", "shanghai"]
        options = {o["name"]: o for o in body["options"]["contract"]}
        assert options["run_min"] == {
            "name": "run_min",
            "value": 3,
            "type": "int",
            "choices": None,
            "rule": "R12",
            "help": "fewest cards in a run.",
        }
        assert options["joker_swap"]["type"] == "choice" and "off" in options["joker_swap"]["choices"]
        assert options["buy_limit"]["type"] == "int|null"
        assert options["schedule"]["type"] == "str" and "/" in options["schedule"]["value"]


def test_options_are_the_engines_declarations(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        body = client.get("/api/options").json()
        assert body == options_json()
        window = next(o for o in body["options"] if o["name"] == "buy_window")
        assert window["rules"] == ["R30"] and window["defaults"]["may_i"] == "until_discard"


def test_rules_check_describes_or_names_the_bad_option(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        ok = client.post("/api/rules/check", json={"preset": "liverpool", "options": {"run_min": 3, "buy_limit": None}})
        assert ok.status_code == 200 and ok.json()["ok"] is True
        assert any(number == "R12" and "3" in text for number, text in ok.json()["describe"])
        bad = client.post("/api/rules/check", json={"preset": "liverpool", "options": {"run_min": 1}})
        assert bad.status_code == 422 and "run_min" in bad.json()["detail"]
        unknown = client.post("/api/rules/check", json={"preset": "liverpool", "options": {"wild_cards": 3}})
        assert unknown.status_code == 422 and "wild_cards" in unknown.json()["detail"]
        preset = client.post("/api/rules/check", json={"preset": "gin"})
        assert preset.status_code == 422 and "gin" in preset.json()["detail"]


def test_create_join_by_invite_and_start(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        created = client.post(
            "/api/tables",
            json={
                "players": 3,
                "name": "Ana",
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                "timer": 30,
            },
        ).json()
        table_id, token = created["table_id"], created["token"]
        assert created["seat"] == 0 and created["invite_url"].endswith(f"/?join={table_id}")
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "waiting" and info["timer"] == 30
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        assert token not in json.dumps(info)
        ana = connect(client, table_id, token, 0, stack)
        assert ana.expect("hello")["view"] is None
        bo = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        assert bo["seat"] == 1 and bo["token"] != token
        lobby = ana.until(lambda m: m["type"] == "lobby" and m["table"]["seats"][1]["claimed"])
        assert lobby["table"]["seats"][1]["name"] == "Bo" and bo["token"] not in json.dumps(lobby)
        full = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
        assert full.status_code == 409 and full.json()["detail"] == "table is full"
        not_creator = client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": bo["token"]})
        assert not_creator.status_code == 403
        no_token = client.post(f"/api/tables/{table_id}/start")
        assert no_token.status_code == 403
        started = client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        assert started.status_code == 200 and started.json()["status"] == "playing"
        state = ana.until(lambda m: m["type"] == "state")
        assert state["view"]["player"] == 0 and state["view"]["players"] == 3
        assert state["events"][0]["type"] in ("cut", "deal")
        again = client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        assert again.status_code == 409
        late = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
        assert late.status_code == 409


def test_start_gives_empty_seats_to_bots(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        created = client.post("/api/tables", json={"players": 4, "name": "Ana"}).json()
        client.post(f"/api/tables/{created['table_id']}/start", headers={"X-Seat-Token": created["token"]})
        seats = client.get(f"/api/tables/{created['table_id']}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]
        assert all(s["bot"] == "medium" for s in seats[1:])


def test_bad_table_requests_are_422_naming_the_problem(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        r = client.post("/api/tables", json={"players": 4, "options": {"set_min": 1}})
        assert r.status_code == 422 and "set_min" in r.json()["detail"]
        r = client.post("/api/tables", json={"players": 9})
        assert r.status_code == 422
        r = client.post("/api/tables", json={"players": 2, "preset": "contract"})
        assert r.status_code == 422 and "min_players" in r.json()["detail"]
        r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "x"}]})
        assert r.status_code == 422 and "unknown bot" in r.json()["detail"]
        r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "bot"}, {"kind": "human"}]})
        assert r.status_code == 422
        r = client.post("/api/tables", json={"players": 2, "seats": [{"kind": "human"}]})
        assert r.status_code == 422
        r = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422
        r = client.post("/api/tables", json={"players": 4, "name": "x" * 100_000})
        assert r.status_code == 413
        assert client.get("/api/tables/nope").status_code == 404
        assert (
            client.post("/api/tables", json={"players": 4}, headers={"Origin": "http://evil.example"}).status_code
            == 403
        )


def test_quickplay_starts_a_table_against_three_bots(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        r = client.post("/api/quickplay", json={"name": "Ana"}).json()
        info = client.get(f"/api/tables/{r['table_id']}").json()
        assert info["status"] == "playing" and info["preset"] == "liverpool"
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
        ana = connect(client, r["table_id"], r["token"], 0, stack)
        hello = ana.expect("hello")
        assert hello["protocol"] == 3 and hello["seat"] == 0 and hello["view"]["player"] == 0
        assert hello["table"]["seats"][0]["connected"] is True


# ------------------------------------------------------------------------- the sockets
def test_every_kind_of_action_through_the_sockets(tmp_path: Path) -> None:
    """Draw, two buys at once, lay down (one meld by an explicit meld message), lay off, joker
    swap, call, discard, go out; with a reconnect in a buy window, duplicates, stale versions and
    illegal choices along the way. Every state each seat receives is its view of the shadow game."""
    seed = find_coverage_seed()
    with running(server_settings(tmp_path, game_seed=seed)) as (client, stack):
        h = Harness(client, stack, seed)
        game = h.game
        bots = coverage_bots(4)
        covered: set[str] = set()
        checked: set[str] = set()
        while not game.is_over and not covered >= set(WANTED):
            step = policy(game, bots, covered)
            seat = step[0].player
            if len(step) == 2:  # two seats ask to buy at once: both sent for the same version
                a, b = step
                assert isinstance(a, Buy) and isinstance(b, Buy)
                ida, idb = h.socks[a.player].action_id(a), h.socks[b.player].action_id(b)
                version = game.version
                h.socks[a.player].send({"type": "act", "version": version, "action": ida})
                h.socks[b.player].send({"type": "act", "version": version, "action": idb})
                game.apply(a)
                game.apply(b)
                h.sync()
                assert game.view(0)["buy_requests"] == [a.player, b.player]
                drawer = game.current
                h.play(DrawStock(drawer))  # the drawer declines: the engine resolves the buys
                buys = [e for e in game.events if e["type"] == "buy"]
                nearest = min((a.player, b.player), key=lambda q: (q - drawer) % 4)
                assert buys[-1]["player"] == nearest
                covered.add("buy2")
                continue
            action = step[0]
            if "reconnect" not in checked and game.phase == DRAW and game.view(0)["buy_window"]:
                others = [q for q in range(4) if q != game.current and Buy(q) in game.legal_actions(q)]
                if others:  # a seat drops and comes back in the middle of a buy window
                    q = others[0]
                    sock = h.reconnect(q)
                    hello = sock.expect("hello")
                    assert hello["version"] == game.version and hello["view"] == as_sent(game.view(q))
                    assert hello["view"]["buy_window"] is True
                    assert any(e["action"]["type"] == "buy" for e in hello["legal"])
                    assert len(hello["events"]) == len(game.events)
                    checked.add("reconnect")
            if isinstance(action, Meld) and "meld_message" not in checked:
                sock = h.socks[seat]
                bad = {"type": "meld", "version": game.version, "kind": action.kind, "cards": ["KH", "KH", "2C"]}
                sock.send(bad)
                err = sock.expect("error")
                assert err["code"] == "illegal" and err["reason"]
                sock.send(
                    {
                        "type": "check",
                        "id": "c1",
                        "melds": [{"kind": action.kind, "cards": [str(c) for c in action.cards]}],
                    }
                )
                assert sock.expect("check_result") == {"type": "check_result", "id": "c1", "ok": True, "reason": None}
                sock.send(
                    {
                        "type": "meld",
                        "version": game.version,
                        "kind": action.kind,
                        "cards": [str(c) for c in action.cards],
                    }
                )
                game.apply(action)
                h.sync()
                checked.add("meld_message")
            else:
                sock = h.socks[seat]
                assert sock.state is not None
                sent = {"type": "act", "version": sock.state["version"], "action": sock.action_id(action)}
                h.play(action)
                if "duplicate" not in checked:  # the same message again: the current state, nothing applied
                    sock.send(sent)
                    again = sock.expect("state")
                    assert again["version"] == game.version
                    checked.add("duplicate")
                elif "stale" not in checked and game.legal_actions(seat):
                    other = "a1" if sent["action"] != "a1" else "a0"  # not the message just applied
                    sock.send({"type": "act", "version": game.version - 1, "action": other})
                    err = sock.expect("error")
                    assert err["code"] == "stale"
                    checked.add("stale")
            before = len(game.events)
            covered |= covered_by(game.events[max(0, before - 12) :])
            if "not_your_turn" not in checked and game.phase != DRAW:
                idle = next(q for q in range(4) if not game.legal_actions(q))
                h.socks[idle].send({"type": "act", "version": game.version, "action": "a0"})
                assert h.socks[idle].expect("error")["code"] == "not_your_turn"
                who = game.current
                h.socks[who].send({"type": "act", "version": game.version, "action": "a999"})
                assert h.socks[who].expect("error")["code"] == "not_in_list"
                checked.add("not_your_turn")
        assert covered >= set(WANTED), covered
        assert checked == {"reconnect", "meld_message", "duplicate", "stale", "not_your_turn"}
        kinds = {e["type"] for e in game.events}
        assert {"buy", "down", "lay_off", "swap", "call", "discard", "deal_end"} <= kinds


def _two_people(client: Any, stack: Any, **table: Any) -> tuple[str, list[str], list[Sock]]:
    created = client.post("/api/tables", json={"players": 2, "name": "Ana", **table}).json()
    joined = client.post(f"/api/tables/{created['table_id']}/join", json={"name": "Bo"}).json()
    tokens = [created["token"], joined["token"]]
    socks = [connect(client, created["table_id"], t, i, stack) for i, t in enumerate(tokens)]
    for s in socks:
        s.expect("hello")
    client.post(f"/api/tables/{created['table_id']}/start", headers={"X-Seat-Token": tokens[0]})
    for s in socks:
        s.until(lambda m: m["type"] == "state")
    return created["table_id"], tokens, socks


def test_bad_messages_get_errors_and_change_nothing(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        table_id, _tokens, socks = _two_people(client, stack)
        sock = socks[0]
        assert sock.state is not None
        version = sock.state["version"]
        sock.ws.send_text("{not json")
        assert sock.expect("error")["code"] == "malformed"
        sock.send({"type": "dance"})
        err = sock.expect("error")
        assert err["code"] == "malformed" and "dance" in err["reason"]
        sock.send({"type": "act", "version": "x", "action": "a0"})
        assert sock.expect("error")["code"] == "malformed"
        sock.send({"type": "act", "version": version, "action": "a0", "card": "AS"})
        assert sock.expect("error")["code"] == "malformed"
        sock.ws.send_text(json.dumps({"type": "ping", "pad": "x" * (70 * 1024)}))
        assert sock.expect("error")["code"] == "too_large"
        sock.send({"type": "meld", "version": version, "kind": "run", "cards": ["ZZ"]})
        assert sock.expect("error")["code"] in ("malformed", "not_your_turn")
        sock.send({"type": "ping"})
        assert sock.expect("pong") == {"type": "pong"}
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "playing"
        sock.send({"type": "check", "id": 7, "melds": [{"kind": "set", "cards": ["7H", "7S"]}]})
        result = sock.expect("check_result")
        assert result["id"] == 7 and result["ok"] is False and result["reason"]
        # nothing changed: the next state anyone sees is still of the same version
        sock.send({"type": "act", "version": version + 5, "action": "a0"})
        assert sock.expect("error")["code"] == "stale"


def test_wrong_token_and_origin_are_refused_with_a_reason(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        table_id, tokens, _socks = _two_people(client, stack)
        other = client.post("/api/quickplay", json={"name": "Zed"}).json()
        for first in (
            {"type": "auth", "token": "nope"},
            {"type": "auth", "token": other["token"]},  # a seat token of another table
            {"type": "ping"},  # anything but auth first
            {"type": "auth"},
        ):
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                ws.send_json(first)
                sock = Sock(ws, -1)
                err = sock.recv()
                assert err["type"] == "error" and err["code"] == "bad_token", (first, err)
                assert sock.recv()["type"] == "closed"
        # the old form, a token in the URL, is refused even with the right token
        with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
            sock = Sock(ws, -1)
            err = sock.recv()
            assert err["code"] == "bad_token" and "first message" in err["reason"]
            closed = sock.recv()
            assert closed["type"] == "closed"
        with client.websocket_connect("/ws/tables/nope") as ws:
            assert Sock(ws, -1).recv()["code"] == "no_table"
        with client.websocket_connect(f"/ws/tables/{table_id}", headers={"Origin": "https://evil.example"}) as ws:
            sock = Sock(ws, -1)
            assert sock.recv()["code"] == "bad_origin"
            assert sock.recv()["type"] == "closed"
        with client.websocket_connect(f"/ws/tables/{table_id}", headers={"Origin": "http://testserver"}) as ws:
            ws.send_json({"type": "auth", "token": tokens[0]})
            assert Sock(ws, 0).expect("hello")["seat"] == 0


def test_a_flood_is_rate_limited_then_closed(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, rate=1.0, burst=5, flood_close=10)) as (client, stack):
        _table_id, _tokens, socks = _two_people(client, stack)
        sock = socks[0]
        for _ in range(30):
            sock.send({"type": "ping"})
        kinds = []
        while True:
            msg = sock.recv()
            if msg["type"] == "closed":
                assert msg["code"] == 1008 and "flood" in msg["reason"]
                break
            kinds.append(msg.get("code", msg["type"]))
        # the burst's 5 answered; of the refused ones, one error (at most one a second), and the
        # 10th refused closes the socket
        assert kinds.count("pong") == 5
        assert kinds.count("rate_limited") == 1


def _play_simply(sock: Sock) -> None:
    """Seat ``sock`` makes one simple move from its last state: pass, draw, lay, or discard."""
    assert sock.state is not None
    legal = sock.state["legal"]
    kinds = [e["action"]["type"] for e in legal]
    for kind in ("pass", "draw_stock", "meld", "lay_off"):
        if kind in kinds:
            choice = legal[kinds.index(kind)]
            break
    else:
        choice = legal[-1]
    sock.send({"type": "act", "version": sock.state["version"], "action": choice["id"]})


def test_a_bot_takes_over_after_the_grace_period_and_the_person_takes_the_seat_back(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, grace=0.05)) as (client, stack):
        table_id, tokens, socks = _two_people(client, stack)
        socks[0].ws.close()
        bo = socks[1]
        # Bo plays on; Ana's seat gets moves made by the bot standing in for her
        stand_in_moves = 0
        while stand_in_moves < 3:
            msg = bo.until(lambda m: m["type"] == "state")
            if msg["last"] is not None and msg["last"]["seat"] == 0:
                stand_in_moves += 1
            if msg["view"]["is_over"]:
                break
            if msg["legal"]:
                _play_simply(bo)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["seats"][0]["kind"] == "human" and info["seats"][0]["bot_playing"] is True
        assert info["seats"][0]["connected"] is False
        ana = connect(client, table_id, tokens[0], 0, stack)
        hello = ana.expect("hello")
        assert hello["table"]["seats"][0]["bot_playing"] is False
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["seats"][0]["bot_playing"] is False and info["seats"][0]["connected"] is True
        # from now on Ana's moves are hers: the two play in lockstep until she has made three
        bo.sync(hello["version"])
        mine = 0
        for _ in range(300):
            a_state, b_state = ana.state, bo.state
            assert a_state is not None and b_state is not None and a_state["version"] == b_state["version"]
            if a_state["view"]["is_over"] or mine == 3:
                break
            mover = ana if a_state["legal"] else bo
            assert mover.state is not None and mover.state["legal"], "nobody may move"
            _play_simply(mover)
            for sock in (ana, bo):
                msg = sock.until(lambda m: m["type"] in ("state", "error"))
                assert msg["type"] == "state", msg
                assert msg["last"]["seat"] == mover.seat  # no bot moved for Ana
            mine += mover is ana
        assert mine == 3


def test_the_turn_timer_lets_the_bot_make_that_one_decision(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        table_id, _tokens, socks = _two_people(client, stack, timer=0.05)
        first = socks[0].state
        assert first is not None
        current = first["view"]["current"]
        # nobody answers: the bot decides for the seat to play, the seat stays a person's
        msg = socks[current].until(lambda m: m["type"] == "state" and m["last"] is not None)
        assert msg["last"]["seat"] == current
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["seats"][current]["kind"] == "human" and info["seats"][current]["bot_playing"] is False


def test_autoplay_and_rematch_and_records(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        table_id, tokens, socks = _two_people(client, stack)
        early = client.get(f"/api/tables/{table_id}/record")
        assert early.status_code == 409
        for s in socks:
            s.send({"type": "autoplay", "on": True})
        final = socks[0].until(lambda m: m["type"] == "state" and m["view"]["is_over"], timeout=120)
        assert final["legal"] == [] and final["view"]["winners"]
        socks[1].until(lambda m: m["type"] == "state" and m["view"]["is_over"], timeout=120)
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["names"] == ["Ana", "Bo"] and record["scores"] == final["view"]["scores"]
        assert len(record["deals"]) == 7 and len(record["deals"][0]["hands"][1]) == 10
        from liverpool import Game

        assert Game.from_record(record).scores == record["scores"]
        history = client.get("/api/players/Bo/history").json()["games"]
        assert [g["table_id"] for g in history] == [table_id]
        assert history[0]["seat"] == 1 and history[0]["won"] == (1 in record["winners"])
        assert client.get("/api/players/Nobody/history").json()["games"] == []
        # rematch: the same seats, a new game; Bo learns his new token on his own socket
        refused = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": "nope"})
        assert refused.status_code == 403
        again = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[0]}).json()
        assert again["table_id"] != table_id and again["seat"] == 0
        note = socks[1].until(lambda m: m["type"] == "rematch")
        assert note["table_id"] == again["table_id"] and note["token"] not in (again["token"], tokens[1])
        assert again["token"] not in json.dumps(socks[1].log)
        same = client.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[1]}).json()
        assert same["table_id"] == again["table_id"] and same["token"] == note["token"]
        info = client.get(f"/api/tables/{again['table_id']}").json()
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["Ana", "Bo"]
        assert info["rematch_of"] == table_id
        bo = connect(client, again["table_id"], note["token"], 1, stack)
        assert bo.expect("hello")["view"]["player"] == 1


@pytest.mark.sqlite_only  # reads the SQLite file itself
def test_the_store_is_sqlite_in_wal_mode_with_the_migrations_applied(tmp_path: Path) -> None:
    import sqlite3

    with running(server_settings(tmp_path)) as (client, _):
        client.post("/api/quickplay", json={"name": "Ana"})
        time.sleep(0)
    db = sqlite3.connect(tmp_path / "liverpool.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head_revision()
    assert db.execute("SELECT count(*) FROM tables").fetchone()[0] == 1
    assert db.execute("SELECT count(*) FROM actions").fetchone()[0] > 0
    hashes = [row[0] for row in db.execute("SELECT token_hash FROM seats WHERE token_hash IS NOT NULL")]
    assert len(hashes) == 1 and len(hashes[0]) == 64

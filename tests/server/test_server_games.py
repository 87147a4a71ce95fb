"""Whole games through the server: a restart in the middle, what each seat is sent (the leak
test), and bots at full speed giving the result of ``driver.play_game``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from liverpool import Game
from liverpool.actions import action_from_dict
from liverpool.bots import get
from liverpool.describe import worded
from liverpool.driver import play_game
from liverpool.game.answers import seat_answers
from server_helpers import (
    WANTED,
    Harness,
    Sock,
    as_sent,
    autoplay_to_end,
    coverage_bots,
    normal,
    policy,
    rebuild,
    running,
    server_settings,
)


def test_a_restart_in_the_middle_of_a_game_loses_nothing(tmp_path: Path) -> None:
    seed = 11
    settings = server_settings(tmp_path, game_seed=seed)
    bots = coverage_bots(4)
    done = set(WANTED)  # the policy then plays the greedy bots' choices
    with running(settings) as (client, stack):
        h = Harness(client, stack, seed)
        while h.game.version < 150:
            for action in policy(h.game, bots, done):
                h.play(action)
        table_id, tokens, game = h.table_id, h.tokens, h.game
        halfway = game.version
    # a new server on the same file: the table is rebuilt from its log, the sockets reconnect
    with running(settings) as (client, stack):
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "playing" and [s["connected"] for s in info["seats"]] == [False] * 4
        h = Harness.resume(client, stack, table_id, tokens, game)
        assert h.game.version == halfway
        while not h.game.is_over:
            for action in policy(h.game, bots, done):
                h.play(action)
        record = client.get(f"/api/tables/{table_id}/record").json()
    # the record equals the uninterrupted game's
    assert record["seed"] == seed and record["actions"] == normal(game.record()["actions"])
    replay = Game.new(players=4, seed=seed)
    for data in record["actions"]:
        replay.apply(action_from_dict(data))
    assert replay.scores == game.scores == record["scores"] and replay.winners == record["winners"]


def _replays(record: dict[str, Any]) -> list[Game]:
    """The game after each number of actions of ``record``."""
    game = Game.new(players=record["players"], seed=record["seed"])
    out = [game.copy()]
    for data in record["actions"]:
        game.apply(action_from_dict(data))
        out.append(game.copy())
    return out


@pytest.mark.sqlite_only  # what a seat is sent is built from views alone (40-50 s a run): once, on SQLite
@pytest.mark.parametrize("seed", [3_141_592_653_589_793_238])
def test_no_seat_is_ever_sent_what_it_cannot_know(tmp_path: Path, seed: int) -> None:
    """Four seats, bots playing all of them (autoplay), one socket listening per seat: every
    message each socket got is built from that seat's view at that moment, and nothing else."""
    with running(server_settings(tmp_path, game_seed=seed)) as (client, stack):
        created = client.post("/api/tables", json={"players": 4, "name": "Ana"}).json()
        table_id = created["table_id"]
        tokens = [created["token"]] + [
            client.post(f"/api/tables/{table_id}/join", json={"name": n}).json()["token"] for n in ("Bo", "Cy", "Di")
        ]
        # a spectator watches the whole game through the watch link (issue 24)
        watcher = Sock(stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}/watch")), -1)
        assert watcher.expect("hello")["spectator"] is True
        socks = autoplay_to_end(client, table_id, tokens, stack, timeout=300)
        watcher.until(lambda m: m["type"] == "state" and m["view"]["is_over"], timeout=60)
        record = client.get(f"/api/tables/{table_id}/record").json()
    games = _replays(record)
    assert games[-1].is_over and len(record["actions"]) > 100
    for s in socks:
        _check_seat_messages(s, games, tokens, record["seed"])
    _check_spectator_messages(watcher, games, tokens, record["seed"])


def _public(game: Game) -> dict[str, Any]:
    """What every seat's view holds alike (a key any seat sees otherwise: null), no hand."""
    views = [as_sent(game.view(p)) for p in range(game.players)]  # each event with its words
    out = {k: (v if all(w.get(k) == v for w in views) else None) for k, v in views[0].items()}
    return out | {"hand": [], "player": None}


def _check_spectator_messages(sock: Sock, games: list[Game], tokens: list[str], seed: int) -> None:
    """The spectator's messages hold what every seat sees alike and nothing else: the rebuilt
    view is the public view at every version, no legal list, no hint count, no token, no seed."""
    view: dict[str, Any] | None = None
    sent_events: list[Any] = []
    states = 0
    for msg in sock.log:
        text = json.dumps(msg)
        assert str(seed) not in text and all(t not in text for t in tokens)
        assert msg["type"] in ("hello", "state", "lobby", "table", "chat", "chat_log"), msg
        if msg["type"] not in ("hello", "state"):
            assert "hand" not in text
            continue
        assert msg["legal"] == [] and msg["hints_left"] is None and msg["auto_buy"] is None
        if msg["view"] is None:
            continue
        game = games[msg["version"]]
        public = _public(game)
        assert set(msg["view"]) <= set(public)
        assert all(msg["view"][k] == public[k] for k in msg["view"] if k != "events")
        view, sent_events = rebuild(view, sent_events, msg)
        assert view == public
        assert sent_events == normal(worded(game.events))
        states += 1
    assert states > 100


def _check_seat_messages(sock: Sock, games: list[Game], tokens: list[str], seed: int) -> None:
    """Every message as sent (``hello``: the whole view; ``state``: the view's changed keys and
    the new events) holds only what this seat's view at that version holds, and a client
    rebuilding the view from them (``rebuild``) has exactly that view after each one."""
    seat = sock.seat
    sent_events: list[Any] = []
    view: dict[str, Any] | None = None
    states = deltas = 0
    for msg in sock.log:
        text = json.dumps(msg)
        assert str(seed) not in text or (games[-1].is_over and msg["type"] == "never")
        assert all(t not in text for i, t in enumerate(tokens) if i != seat)
        assert msg["type"] in ("hello", "state", "lobby", "table", "chat", "chat_log"), msg
        if msg["type"] in ("chat", "chat_log"):  # the table's chat (issue 24): names and words only
            lines = msg["lines"] if msg["type"] == "chat_log" else [msg["line"]]
            assert all(set(line) == {"n", "at", "kind", "seat", "name", "text"} for line in lines)
            assert all(line["kind"] == "system" for line in lines)  # nobody talks in this game
            continue
        if msg["type"] in ("lobby", "table"):
            assert set(msg["table"]) >= {"seats", "status"} and "hand" not in text
            continue
        assert set(msg) <= {
            "type",
            "protocol",
            "seat",
            "version",
            "view",
            "legal",
            "events",
            "deal_events_from",
            "table",
            "last",
            "buy_deadline",
            "hints_left",
            "pause",  # issue 24 (server/pacing.py): public, or this seat's own buy choice
            "auto_buy",
            "turn_deadline",
            "answers",
        }
        assert msg.get("pause") is None or set(msg["pause"]) == {"waiting", "until"}
        assert msg.get("auto_buy") is None or set(msg["auto_buy"]) == {"action", "why"}
        if msg["view"] is None:
            assert msg["type"] == "hello" and msg["legal"] == [] and msg["events"] == []
            continue
        states += 1
        game = games[msg["version"]]
        whole = as_sent(game.view(seat))  # each event with its words
        public = normal(worded(game.events))
        assert msg["answers"] == normal(seat_answers(game.view(seat)))  # the engine's, from this seat's view
        if msg["type"] == "hello":
            assert msg["view"] == whole
            assert msg["events"] == public
        else:
            # the delta: only keys of this seat's view, each with the view's value, and exactly
            # those that changed since the view this socket had (the deal's events: never)
            before = view or {}
            assert "events" not in msg["view"]
            assert all(msg["view"][k] == whole[k] for k in msg["view"])
            changed = {k for k in whole if k != "events" and (k not in before or before[k] != whole[k])}
            assert set(msg["view"]) == changed
            assert before == {} or "rules" not in msg["view"]
            deltas += 1
            assert sent_events + msg["events"] == public
        view, sent_events = rebuild(view, sent_events, msg)
        assert view == whole
        assert view is not None and view == whole
        assert [e["action"] for e in msg["legal"]] == normal([a.to_dict() for a in game.legal_actions(seat)])
        assert all(e["action"]["player"] == seat for e in msg["legal"])
    assert states > 100 and deltas > 100
    assert sent_events == normal(worded(games[-1].events))


@pytest.mark.parametrize("seed", [5, 21])
def test_bots_at_full_speed_reach_the_result_of_play_game(tmp_path: Path, seed: int) -> None:
    bots = ["medium", "easy", "random", "medium"]  # seat 0: the creator's seat, played by the stand-in bot
    settings = server_settings(tmp_path, game_seed=seed, grace=0.0, takeover_bot="medium")
    with running(settings) as (client, _):
        created = client.post(
            "/api/tables",
            json={
                "players": 4,
                "name": "Ana",
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots[1:]],
            },
        ).json()
        table_id = created["table_id"]
        client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": created["token"]})
        for _ in range(6000):
            if client.get(f"/api/tables/{table_id}").json()["status"] == "over":
                break
            time.sleep(0.05)
        record = client.get(f"/api/tables/{table_id}/record").json()
    expected = play_game(Game.new(players=4, seed=seed), [get(b, seed=i) for i, b in enumerate(bots)])
    assert record["actions"] == normal(expected.record()["actions"])
    assert record["scores"] == expected.scores and record["winners"] == expected.winners

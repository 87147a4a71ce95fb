"""Bad input at the edge of the server: JSON nested too deeply, floods, bodies over the limit
(counted in bytes, whatever their framing), and the protocol's integers taken strictly."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from liverpool.server.protocol import MAX_MESSAGE_BYTES
from server_helpers import Harness, Sock, running, server_settings


def _nested(depth: int) -> str:
    return '{"type": "ping", "x": ' + "[" * depth + "]" * depth + "}"


def test_deeply_nested_json_is_malformed_and_the_socket_goes_on(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, game_seed=3)) as (client, stack):
        h = Harness(client, stack, game_seed=3, players=2)
        sock = h.socks[0]
        text = _nested(30_000)
        assert len(text.encode()) < MAX_MESSAGE_BYTES  # under the size limit: the parser's depth is hit
        sock.ws.send_text(text)
        err = sock.expect("error")
        assert err["code"] == "malformed" and "nested" in err["reason"]
        sock.ws.send_text('{"type": "act", "version": ' + "[" * 20_000 + "]" * 20_000 + ', "action": "a0"}')
        assert sock.expect("error")["code"] == "malformed"
        sock.send({"type": "ping"})  # the socket is still served
        assert sock.expect("pong") == {"type": "pong"}
        assert h.socks[1].ws is not None
        # a REST body nested as deep is a client error, never a server error
        for path in ("/api/tables", "/api/rules/check"):
            answer = client.post(path, content=_nested(30_000), headers={"Content-Type": "application/json"})
            assert 400 <= answer.status_code < 500 and "detail" in answer.json(), answer.text
        # the auth message too
        with client.websocket_connect(f"/ws/tables/{h.table_id}") as ws:
            ws.send_text('{"type": "auth", "token": ' + "[" * 30_000 + "]" * 30_000 + "}")
            assert ws.receive_json()["code"] == "bad_token"


def _flood(sock: Sock) -> tuple[list[str], float]:
    """About 20 pings a second for 4 s on ``sock``, then everything it got until it was closed
    (which must be 1008, flooding): the pongs and error codes, and the seconds it all took."""
    started = time.monotonic()
    while time.monotonic() - started < 4:
        sock.send({"type": "ping"})
        time.sleep(0.05)
    kinds: list[str] = []
    while True:
        msg = sock.recv()
        if msg["type"] == "closed":
            assert msg["code"] == 1008 and "flood" in msg["reason"], msg
            break
        if msg["type"] in ("pong", "error"):
            kinds.append(str(msg.get("code", msg["type"])))
    return kinds, time.monotonic() - started


def test_a_steady_flood_just_over_the_rate_is_closed_with_one_error_a_second(tmp_path: Path) -> None:
    # 5 messages a second allowed (bursts of 5), about 20 sent a second, steadily: most are
    # refused, allowed ones coming between them, and the 15th refusal within the window
    # closes the socket (a count reset by each allowed message would never close it)
    settings = server_settings(tmp_path, game_seed=3, rate=5.0, burst=5, flood_close=15, flood_window=60.0)
    with running(settings) as (client, stack):
        h = Harness(client, stack, game_seed=3, players=2)
        kinds, elapsed = _flood(h.socks[0])
        assert kinds.count("pong") >= 6  # the burst and more: messages were answered: a flood just over the rate
        limited = kinds.count("rate_limited")
        assert 1 <= limited <= int(elapsed) + 1, (limited, elapsed)
        assert set(kinds) == {"pong", "rate_limited"}
        # the other seat is untouched
        h.socks[1].send({"type": "ping"})
        assert h.socks[1].until(lambda m: m["type"] == "pong")


def test_a_flooding_spectator_is_closed_like_a_flooding_seat(tmp_path: Path) -> None:
    # a watch socket goes through the seats' admission: the same rate, one rate_limited a
    # second at most, closed (1008) at the 15th refusal of the window
    settings = server_settings(tmp_path, game_seed=3, rate=5.0, burst=5, flood_close=15, flood_window=60.0)
    with running(settings) as (client, stack):
        h = Harness(client, stack, game_seed=3, players=2)
        watcher = Sock(stack.enter_context(client.websocket_connect(f"/ws/tables/{h.table_id}/watch")), -1)
        assert watcher.expect("hello")["spectator"] is True
        kinds, elapsed = _flood(watcher)
        assert kinds.count("pong") >= 6
        limited = kinds.count("rate_limited")
        assert 1 <= limited <= int(elapsed) + 1, (limited, elapsed)
        assert set(kinds) == {"pong", "rate_limited"}
        # the table and its seats are untouched
        h.socks[1].send({"type": "ping"})
        assert h.socks[1].until(lambda m: m["type"] == "pong")
        again = Sock(stack.enter_context(client.websocket_connect(f"/ws/tables/{h.table_id}/watch")), -1)
        assert again.expect("hello")["version"] == h.game.version


def test_bodies_over_the_limit_are_413_counted_in_bytes_chunked_too(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _stack):
        # 40,000 characters of 2 bytes each: under the limit in characters, over it in bytes
        name = "é" * 40_000
        body = json.dumps({"players": 2, "name": name}, ensure_ascii=False).encode()
        assert len(body.decode()) < MAX_MESSAGE_BYTES < len(body)
        answer = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 413 and "bytes" in answer.json()["detail"]

        def chunks() -> object:
            for _ in range(10):
                yield b" " * 7_000  # 70,000 bytes with no Content-Length
            yield b"{}"

        answer = client.post("/api/tables", content=chunks(), headers={"Content-Type": "application/json"})
        assert answer.status_code == 413, answer.text
        # a chunked body within the limit is read as usual
        answer = client.post(
            "/api/rules/check",
            content=iter([b'{"preset": ', b'"liverpool"}']),
            headers={"Content-Type": "application/json"},
        )
        assert answer.status_code == 200 and answer.json()["ok"] is True


def test_a_socket_message_over_the_limit_in_bytes_is_too_large(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, game_seed=3)) as (client, stack):
        h = Harness(client, stack, game_seed=3, players=2)
        sock = h.socks[0]
        text = json.dumps({"type": "ping", "pad": "é" * 40_000}, ensure_ascii=False)
        assert len(text) < MAX_MESSAGE_BYTES < len(text.encode())
        sock.ws.send_text(text)
        assert sock.expect("error")["code"] == "too_large"


def test_the_protocols_integers_and_booleans_are_strict(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, game_seed=3)) as (client, stack):
        h = Harness(client, stack, game_seed=3, players=2)
        seat = h.game.current
        sock = h.socks[seat]
        version = h.game.version
        for bad in (
            {"type": "act", "version": str(version), "action": "a0"},
            {"type": "act", "version": float(version) + 0.5, "action": "a0"},
            {"type": "act", "version": True, "action": "a0"},
            {"type": "hint", "version": str(version)},
            {"type": "meld", "version": str(version), "kind": "set", "cards": ["7H", "7S", "7D"]},
            {"type": "autoplay", "on": 1},
            {"type": "autoplay", "on": "true"},
        ):
            sock.send(bad)
            err = sock.expect("error")
            assert err["code"] == "malformed", (bad, err)
        # nothing was applied: the seat's next act at the version is still answered
        sock.send({"type": "ping"})
        assert sock.expect("pong")
        assert client.get(f"/api/tables/{h.table_id}").json()["status"] == "playing"
        for body in (
            {"players": "2"},
            {"players": 2.0},
            {"players": 2, "timer": "30"},
            {"players": 2, "bot_delay": "1"},
        ):
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 422, (body, answer.text)
        assert client.post("/api/tables", json={"players": 2, "timer": 30, "bot_delay": 1}).status_code == 200
        assert client.post("/api/rules/check", json={"players": "4"}).status_code == 422


def test_a_socket_closed_for_flooding_admits_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    # once the flood closed it (the writer closes the socket later), no message is handled, even
    # when the rate limit's bucket has filled again meanwhile
    from types import SimpleNamespace

    from liverpool.server import table

    now = [100.0]
    monkeypatch.setattr(table, "time", SimpleNamespace(monotonic=lambda: now[0]))
    conn = table.Connection(None, 0, rate=1.0, burst=1, flood_window=60.0, flood_close=2)
    assert conn.admit() is True
    assert conn.admit() is False and conn.admit() is False  # the second refusal closes it
    assert conn.close_reason is not None and conn.close_code == 1008
    now[0] += 10.0  # the bucket is full again
    assert conn.admit() is False
    assert conn.admit() is False

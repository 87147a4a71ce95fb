"""A table's chat (issue 24, server/chat.py): lines to everyone at the table, kept in the store
(back after a restart), length- and rate-limited, the table's own lines, the ``chat`` option."""

from __future__ import annotations

from pathlib import Path

from server_helpers import Msg, Sock, connect, running, server_settings


def _line(sock: Sock) -> Msg:
    line: Msg = sock.until(lambda m: m["type"] == "chat" and m["line"]["kind"] == "say")["line"]
    return line


def test_chat_lines_reach_everyone_are_kept_and_limited(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    with running(settings) as (client, stack):
        made = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        table_id = made["table_id"]
        bo_seat = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        ana = connect(client, table_id, made["token"], 0, stack)
        assert ana.expect("hello")["seat"] == 0
        log = ana.until(lambda m: m["type"] == "chat_log")
        assert [x["text"] for x in log["lines"]] == ["Bo took seat 1."] and log["option"] == "players"
        bo = connect(client, table_id, bo_seat["token"], 1, stack)
        bo.expect("hello")
        ana.until(lambda m: m["type"] == "chat" and m["line"]["text"] == "Bo joined the table.")
        ana.send({"type": "chat", "text": "  <b>hi</b>\n\tall  "})
        for sock in (ana, bo):
            line = _line(sock)
            assert (line["seat"], line["name"], line["text"]) == (0, "Ana", "<b>hi</b> all")
        # too long, empty, too many
        ana.send({"type": "chat", "text": "x" * 301})
        assert ana.until(lambda m: m["type"] == "error")["code"] == "malformed"
        ana.send({"type": "chat", "text": "\n\n"})
        assert ana.until(lambda m: m["type"] == "error")["code"] == "malformed"
        for i in range(6):
            bo.send({"type": "chat", "text": f"line {i}"})
        said = [_line(ana)["text"] for _ in range(4)]
        assert said == ["line 0", "line 1", "line 2", "line 3"]
        assert bo.until(lambda m: m["type"] == "error")["code"] == "chat_limited"
    # a restart: the lines come back from the store
    with running(settings) as (client, stack):
        ana = connect(client, table_id, made["token"], 0, stack)
        ana.expect("hello")
        lines = ana.until(lambda m: m["type"] == "chat_log")["lines"]
        texts = [x["text"] for x in lines if x["kind"] == "say"]
        assert texts == ["<b>hi</b> all", "line 0", "line 1", "line 2", "line 3", "line 4"][: len(texts)]
        assert len(texts) >= 5 and [x["n"] for x in lines] == list(range(len(lines)))


def test_chat_off_and_bot_take_over_lines(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        made = client.post(
            "/api/tables",
            json={"players": 2, "name": "Ana", "chat": "off", "seats": [{"kind": "human"}, {"kind": "bot"}]},
        ).json()
        assert client.get(f"/api/tables/{made['table_id']}").json()["chat"] == "off"
        ana = connect(client, made["table_id"], made["token"], 0, stack)
        ana.expect("hello")
        ana.send({"type": "chat", "text": "hello?"})
        assert ana.until(lambda m: m["type"] == "error")["code"] == "chat_off"
        ana.send({"type": "autoplay", "on": True})
        ana.until(lambda m: m["type"] == "chat" and m["line"]["text"] == "A bot plays for Ana.")
        bad = client.post("/api/tables", json={"players": 2, "chat": "loud"})
        assert bad.status_code == 422

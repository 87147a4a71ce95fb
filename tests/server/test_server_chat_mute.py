"""Muting a person in the chat (issue 24, server/chat.py): the server keeps each seat's mutes and
does not send that seat the muted person's lines, live or in the ``chat_log`` of a reconnect."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from server_helpers import Msg, Sock, connect, running, server_settings


def _said(sock: Sock) -> Msg:
    line: Msg = sock.until(lambda m: m["type"] == "chat" and m["line"]["kind"] == "say")["line"]
    return line


def _log(sock: Sock) -> Msg:
    return sock.until(lambda m: m["type"] == "chat_log")


def test_a_seat_never_gets_the_lines_of_a_person_it_muted(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, stack):
        made = client.post("/api/tables", json={"players": 3, "name": "Ana"}).json()
        table_id = made["table_id"]
        bo = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        cy = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"}).json()
        ana_sock = connect(client, table_id, made["token"], 0, stack)
        assert _log(ana_sock)["muted"] == []
        bo_sock = connect(client, table_id, bo["token"], 1, stack)
        cy_sock = connect(client, table_id, cy["token"], 2, stack)
        bo_sock.send({"type": "chat", "text": "before the mute"})
        assert _said(ana_sock)["text"] == "before the mute"
        assert _said(cy_sock)["text"] == "before the mute"
        ana_sock.send({"type": "mute", "who": "seat:1", "on": True})
        answer = _log(ana_sock)
        assert answer["muted"] == ["seat:1"]
        assert not [x for x in answer["lines"] if x["kind"] == "say" and x["seat"] == 1]
        bo_sock.send({"type": "chat", "text": "Ana does not hear this"})
        assert _said(cy_sock)["text"] == "Ana does not hear this"  # the others still do
        cy_sock.send({"type": "chat", "text": "but this"})
        assert _said(ana_sock)["text"] == "but this"  # Bo's line never came before Cy's
        # kept by the server for the seat: a new socket (a reload, another client) is muted too
        with ExitStack() as again:
            second = connect(client, table_id, made["token"], 0, again)
            log = _log(second)
            assert log["muted"] == ["seat:1"]
            assert [x["text"] for x in log["lines"] if x["kind"] == "say"] == ["but this"]
            second.send({"type": "mute", "who": "seat:1", "on": False})
            log = _log(second)
            assert log["muted"] == [] and "Ana does not hear this" in [x["text"] for x in log["lines"]]
            bo_sock.send({"type": "chat", "text": "heard again"})
            assert _said(second)["text"] == "heard again"
        # a talker that is not a seat or a name is refused
        cy_sock.send({"type": "mute", "who": "everyone"})
        assert cy_sock.until(lambda m: m["type"] == "error")["code"] == "malformed"

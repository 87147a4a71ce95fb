"""Muting a person in the chat (issue 24, server/chat.py): the server keeps each seat's mutes and
does not send that seat the muted person's lines, live or in the ``chat_log`` of a reconnect; the
mutes are kept in the store (a restart, another worker)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest

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


def test_a_seats_mutes_are_kept_in_the_store_across_a_restart(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    with running(settings) as (client, stack):
        made = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        table_id = made["table_id"]
        bo = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        ana_sock = connect(client, table_id, made["token"], 0, stack)
        assert _log(ana_sock)["muted"] == []
        bo_sock = connect(client, table_id, bo["token"], 1, stack)
        assert _log(bo_sock)["muted"] == []
        bo_sock.send({"type": "chat", "text": "muted soon"})
        assert _said(ana_sock)["text"] == "muted soon"
        ana_sock.send({"type": "mute", "who": "seat:1", "on": True})
        assert _log(ana_sock)["muted"] == ["seat:1"]
        bo_sock.send({"type": "mute", "who": "name:Zed", "on": True})
        assert _log(bo_sock)["muted"] == ["name:Zed"]
    with running(settings) as (client, stack):  # a restart: the mutes come back from the store
        ana_sock = connect(client, table_id, made["token"], 0, stack)
        log = _log(ana_sock)
        assert log["muted"] == ["seat:1"]
        assert "muted soon" not in [x["text"] for x in log["lines"]]
        bo_sock = connect(client, table_id, bo["token"], 1, stack)
        assert _log(bo_sock)["muted"] == ["name:Zed"]
        bo_sock.send({"type": "chat", "text": "still muted"})
        bo_sock.send({"type": "mute", "who": "name:Zed", "on": False})  # unmuted: kept too
        assert _log(bo_sock)["muted"] == []
        ana_sock.send({"type": "chat", "text": "after"})
        assert _said(ana_sock)["text"] == "after"  # Bo's line never reached Ana
    with running(settings) as (client, stack):
        bo_sock = connect(client, table_id, bo["token"], 1, stack)
        assert _log(bo_sock)["muted"] == []


@pytest.mark.postgresql_only
def test_a_mute_made_at_one_worker_holds_at_the_other(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, shared=True)
    with running(settings) as (a, stack), running(settings) as (b, stack_b):
        made = a.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        table_id = made["table_id"]
        bo = a.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        # worker B has the table (and its chat, no mute yet) before Ana mutes Bo at A: her mute
        # reaches B only as her socket connects there (Table.connect reloads the seat's mutes)
        bo_at_b = connect(b, table_id, bo["token"], 1, stack_b)
        assert _log(bo_at_b)["muted"] == []
        ana_at_a = connect(a, table_id, made["token"], 0, stack)
        assert _log(ana_at_a)["muted"] == []
        ana_at_a.send({"type": "mute", "who": "seat:1", "on": True})
        assert _log(ana_at_a)["muted"] == ["seat:1"]
        ana_at_a.ws.close()
        ana_at_b = connect(b, table_id, made["token"], 0, stack_b)  # Ana's socket moves to worker B
        assert _log(ana_at_b)["muted"] == ["seat:1"]
        bo_at_b.send({"type": "chat", "text": "Ana does not hear this"})
        assert _said(bo_at_b)["text"] == "Ana does not hear this"
        bo_at_b.send({"type": "chat", "text": "nor this"})
        assert _said(bo_at_b)["text"] == "nor this"
        ana_at_b.send({"type": "chat", "text": "mine"})
        assert _said(ana_at_b)["text"] == "mine"  # Bo's lines never came before her own

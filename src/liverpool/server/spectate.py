"""Spectators (issue 24): a table watched live through its watch link, with the public view only.

The watch socket (``/ws/tables/{id}/watch``, no token) gets ``hello`` and then a ``state`` after
every change, like a seat's, but built from :func:`public_view`: the keys of ``Game.view`` that
every seat's view holds alike (what every player knows), with the hand empty and ``player``
null. So a spectator never holds a card that any player cannot see: no hand, no hint, no legal
list. The table option ``spectators`` (default on) allows it; ``chat: "everyone"`` lets
spectators talk (with a name of their choosing).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..describe import worded
from .chat import clean_line
from .protocol import PROTOCOL_VERSION, ChatMessage, PingMessage, ProtocolError, parse_client_message

if TYPE_CHECKING:
    from fastapi import WebSocket

    from ..game import Game
    from .table import Connection, Table

__all__ = ["broadcast", "public_view", "serve"]

_MISSING = object()


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def public_view(game: Game) -> dict[str, Any]:
    """What every seat sees alike: ``Game.view`` of seat 0 with every key whose value differs in
    any other seat's view set to null, the hand empty and ``player`` null."""
    views = [game.view(p) for p in range(game.players)]
    out = dict(views[0])
    for key, value in views[0].items():
        if any(v.get(key, _MISSING) != value for v in views[1:]):
            out[key] = None
    out["hand"] = []
    out["player"] = None
    return out


def _message(table: Table, conn: Connection, kind: str, public: dict[str, Any] | None) -> str:
    """The ``hello`` or ``state`` of a spectator's socket (deltas as for a seat's)."""
    g = table.game
    head: dict[str, Any] = {"type": kind}
    if kind == "hello":
        head |= {"protocol": PROTOCOL_VERSION, "seat": None, "spectator": True}
    info = table.info()
    rest: dict[str, Any] = {
        "legal": [],
        "last": table._last if g is not None else None,
        "buy_deadline": table._buy_deadline() if g is not None else None,
        "hints_left": None,
        "pause": table.pacing.public() if g is not None else None,
        "auto_buy": None,
        "turn_deadline": table._turn_deadline() if g is not None else None,
        "table": info,
    }
    if g is None or public is None:
        conn.last_view = None
        conn.event_index = 0
        return _dumps(head | {"version": None, "view": None, "events": [], "deal_events_from": None} | rest)
    events = list(g.events)
    deal_events = len(public.get("events") or [])
    view = {k: v for k, v in public.items() if k != "events"}
    if kind == "hello":
        sent_view: dict[str, Any] = view | {"events": worded(events[len(events) - deal_events :])}
        sent_events = worded(events)
    else:
        last = conn.last_view
        sent_view = view if last is None else {k: v for k, v in view.items() if last.get(k, _MISSING) != v}
        sent_events = worded(events[conn.event_index :])
    conn.last_view = view
    conn.event_index = len(events)
    body = {
        "version": g.version,
        "view": sent_view,
        "events": sent_events,
        "deal_events_from": len(events) - deal_events,
    }
    return _dumps(head | body | rest)


def broadcast(table: Table) -> None:
    """A ``state`` to every spectator of ``table`` (after a change)."""
    watchers = table.watchers
    if not watchers:
        return
    public = public_view(table.game) if table.game is not None else None
    for conn in list(watchers):
        conn.send(_message(table, conn, "state", public))


def notify(table: Table, text: str) -> None:
    """A message (JSON text) every spectator gets too (seats changed, a chat line)."""
    for conn in list(table.watchers):
        conn.send(text)


async def _receive(table: Table, conn: Connection, text: str) -> None:
    """One message of a spectator's socket, admitted as a seat's are (``run_socket``)."""
    try:
        msg = parse_client_message(text)
    except ProtocolError as exc:
        conn.error(exc.code, exc.reason)
        return
    if isinstance(msg, PingMessage):
        conn.send({"type": "pong"})
        return
    if not isinstance(msg, ChatMessage):
        conn.error("watching", "a spectator watches: only chat and ping are answered")
        return
    refused = table.chat.refusal(conn, spectator=True)
    if refused is not None:
        conn.error(*refused)
        return
    line = clean_line(msg.text)
    name = clean_line(msg.name or "") or "A spectator"
    if not line:
        conn.error("malformed", "an empty chat line")
        return
    if not table.chat.allow(f"watch{id(conn)}"):
        conn.error("chat_limited", "too many chat lines: wait a moment")
        return
    async with table.lock:
        said = await table.chat.add("say", None, name, line)
        table._send_all(said)
        await table._publish("chat", m=said)


async def serve(table: Table, ws: WebSocket) -> None:
    """Run one accepted spectator socket of ``table`` to its end."""
    from .table import Connection, run_socket

    conn = Connection.of(ws, -1, table.settings)
    async with table.lock:
        public = public_view(table.game) if table.game is not None else None
        conn.send(_message(table, conn, "hello", public))
        conn.send(table.chat.log_message())
        table.watchers.add(conn)

    try:
        await run_socket(ws, conn, lambda text: _receive(table, conn, text))
    finally:
        table.watchers.discard(conn)

"""Watching a server's table in the terminal (issue 24): ``liverpool play --watch-table URL``.

The table's watch socket (``/ws/tables/{id}/watch``, docs/protocol.md) sends the public view only
(no hand, no hint); this follows it and prints each public move in words as it comes, the
table's chat, and each deal's scores, until the game ends (or Ctrl-C). The URL is the watch link
the browser shows (``http://host:port/?watch=TABLE_ID``), an invite link or a table URL.

>>> watch_target("http://127.0.0.1:8000/?watch=Z3Y87fdj")
('http://127.0.0.1:8000', 'Z3Y87fdj')
>>> watch_target("http://127.0.0.1:8000/?join=abc")
('http://127.0.0.1:8000', 'abc')
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit, urlunsplit

from ..describe import describe_event
from .remote import merge_state, parse_connect_url

__all__ = ["follow", "watch_lines", "watch_target"]


def watch_target(url: str) -> tuple[str, str]:
    """The server's base URL and the table id of a watch link (``/?watch=ID``), an invite link or
    a table URL; ValueError naming what is wrong."""
    parts = urlsplit(url.strip())
    watched = parse_qs(parts.query).get("watch")
    if watched and watched[0]:
        url = urlunsplit((parts.scheme, parts.netloc, parts.path, f"join={watched[0]}", ""))
    try:
        return parse_connect_url(url)
    except ValueError as exc:
        raise ValueError(str(exc).replace("--connect", "--watch-table")) from None


class _Follower:
    """Turns the watch socket's messages into lines of text."""

    def __init__(self, ascii_only: bool = False) -> None:
        self.view: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.names: list[str] = []
        self.ascii_only = ascii_only
        self.over = False

    def lines(self, msg: dict[str, Any]) -> list[str]:
        out: list[str] = []
        kind = msg.get("type")
        table = msg.get("table")
        if isinstance(table, dict):
            self.names = [str(s.get("name") or f"seat {s.get('seat')}") for s in table.get("seats", [])]
        if kind == "error":
            out.append(f"The server says: {msg.get('reason') or msg.get('code')}")
        elif kind == "chat_log":
            out += [self._chat(line) for line in msg.get("lines", [])]
        elif kind == "chat":
            out.append(self._chat(msg.get("line") or {}))
        elif kind in ("hello", "state"):
            before = len(self.log)
            self.view, self.log = merge_state(self.view, self.log, msg)
            if kind == "hello":
                if self.view is None:
                    out.append(f"Watching: {', '.join(self.names)}. The game has not started yet.")
                    return out
                out.append(f"Watching: {', '.join(self.names)}. Deal {self.view['deal']} of {self.view['deals']}.")
                return out
            melds = (self.view or {}).get("melds") or []
            for event in self.log[before:]:
                text = describe_event(event, self.names, ascii_only=self.ascii_only, melds=melds)
                if text:
                    out.append(text)
                if event.get("type") == "deal_end":
                    scores = event.get("scores") or []
                    out.append("Scores: " + ", ".join(f"{n} {s}" for n, s in zip(self.names, scores, strict=False)))
                if event.get("type") == "game_over":
                    self.over = True
        return out

    def _chat(self, line: dict[str, Any]) -> str:
        if line.get("kind") == "system":
            return f"* {line.get('text', '')}"
        seat = line.get("seat")
        who = self.names[seat] if isinstance(seat, int) and 0 <= seat < len(self.names) else line.get("name", "?")
        return f"<{who}> {line.get('text', '')}"


def watch_lines(messages: list[dict[str, Any]], ascii_only: bool = False) -> list[str]:
    """The lines :func:`follow` prints for these messages (for tests and tools)."""
    f = _Follower(ascii_only)
    return [line for m in messages for line in f.lines(m)]


def _say(line: str) -> None:
    print(line, flush=True)  # line by line, also into a pipe


async def follow(url: str, say: Callable[[str], None] = _say, ascii_only: bool = False) -> int:
    """Follow the table of ``url`` until its game ends: 0, or 1 when the server refused."""
    from websockets.asyncio.client import connect

    base, table_id = watch_target(url)
    scheme = "wss" if base.startswith("https") else "ws"
    ws_url = f"{scheme}://{base.split('://', 1)[1]}/ws/tables/{quote(table_id)}/watch"
    f = _Follower(ascii_only)
    async with connect(ws_url, open_timeout=10, max_size=2**22) as ws:
        async for raw in ws:
            msg = json.loads(raw)
            if not isinstance(msg, dict):
                continue
            for line in f.lines(msg):
                say(line)
            if msg.get("type") == "error" and msg.get("code") in ("no_table", "no_watching", "bad_origin"):
                return 1
            if f.over:
                return 0
    return 0


def run(url: str, ascii_only: bool = False) -> int:
    """``liverpool play --watch-table URL``."""
    try:
        return asyncio.run(follow(url, ascii_only=ascii_only))
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        raise ValueError(f"cannot reach the server of {url}: {exc}") from None

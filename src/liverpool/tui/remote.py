"""A seat at a table of ``liverpool serve`` for the terminal app (``liverpool play --connect URL``).

The same WebSocket protocol as the browser (docs/protocol.md): the app draws the last ``state`` the
server sent (the seat's own view), offers only the legal actions listed in it, and answers with
``act`` (the chosen action's id and the version). Nothing here knows a rule. A dropped socket is
reconnected with back-off; the server's ``hello`` restores everything. A ``state`` (protocol 2)
holds only what changed since the last message: :func:`merge_state` keeps the whole view and the
event log from them.

>>> parse_connect_url("http://127.0.0.1:8000/?join=Z3Y87fdj")
('http://127.0.0.1:8000', 'Z3Y87fdj')
>>> parse_connect_url("https://example.org/lr/api/tables/abc")
('https://example.org/lr', 'abc')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shlex
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from ..actions import Action, action_from_dict
from ..cards import Card, parse_cards
from ..errors import IllegalAction
from ..rules import RuleSet

__all__ = ["BuyPrefs", "RemoteGame", "RemoteSession", "join_table", "merge_state", "parse_connect_url", "parse_wish"]

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)
FATAL_CLOSE = {
    4000: "another connection took this seat",
    4401: "wrong token",
    4403: "origin refused",
    4404: "no such table",
}


BUY_MODES: dict[str, str] = {
    "ask": "ask me",
    "fits": "pass unless the card fits my contract",
    "never": "never buy",
}
"""The buy choices of ``prefs`` (server/pacing.py), in the words the app shows."""
PREFS_FILE = "buy.json"
CHAT_MAX = 300  # the server's longest chat line (server/chat.py MAX_CHARS)
CHAT_KEPT = 300  # chat lines kept by the app
MAX_WISH = 60
_WISH = re.compile(r"^(JK|(A|[2-9]|10|J|Q|K)[SHDC]?)$")
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def parse_wish(text: str) -> list[str]:
    """A wish list as typed ("7h, q, joker", suits as letters or symbols) as the server's tokens
    (a card, or a rank alone for any suit); what cannot be read is left out, as in the browser.

    >>> parse_wish("7h, q; Joker 10♦ zz 1")
    ['7H', 'Q', 'JK', '10D']
    """
    out = []
    for word in re.split(r"[\s,;]+", text):
        w = word.strip().upper()
        for symbol, letter in _SUITS.items():
            w = w.replace(symbol, letter)
        w = "JK" if w == "JOKER" else w
        if _WISH.match(w) and w not in out:
            out.append(w)
    return out[:MAX_WISH]


@dataclass(frozen=True)
class BuyPrefs:
    """A person's buy choice at a server's table: ``mode`` (ask, fits, never) and a wish list."""

    mode: str = "ask"
    wish: tuple[str, ...] = ()

    def words(self) -> str:
        text = BUY_MODES.get(self.mode, self.mode)
        return text + (f"; wish list {' '.join(self.wish)}" if self.wish else "")

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / PREFS_FILE).write_text(json.dumps({"mode": self.mode, "wish": list(self.wish)}), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> BuyPrefs:
        """The choice kept in the data folder (the defaults when there is none or it is unreadable)."""
        try:
            kept = json.loads((folder / PREFS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(kept, dict):
            return cls()
        mode = kept.get("mode") if kept.get("mode") in BUY_MODES else "ask"
        wish = kept.get("wish")
        words = " ".join(str(w) for w in wish) if isinstance(wish, list) else ""
        return cls(str(mode), tuple(parse_wish(words)))


def parse_connect_url(url: str) -> tuple[str, str]:
    """The server's base URL and the table id from an invite link (``/?join=ID``) or a table URL
    (``.../tables/ID``); ValueError naming what is wrong."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"--connect needs an http(s) URL such as http://host:8000/?join=TABLE_ID, got {url!r}")
    joined = parse_qs(parts.query).get("join")
    path = parts.path.rstrip("/")
    if joined and joined[0]:
        table_id = joined[0]
        prefix = path
    else:
        segments = path.split("/")
        if len(segments) < 2 or segments[-2] != "tables" or not segments[-1]:
            raise ValueError(f"no table in {url!r}: use the invite link (http://host:port/?join=TABLE_ID)")
        table_id = segments[-1]
        prefix = "/".join(segments[:-2])
        for tail in ("/api", "/ws"):
            prefix = prefix.removesuffix(tail)
    return f"{parts.scheme}://{parts.netloc}{prefix}", table_id


def _request(
    method: str, url: str, body: dict[str, Any] | None = None, timeout: float = 10.0, token: str | None = None
) -> dict[str, Any]:
    from ..cli.login import auth_headers  # the session of `liverpool login`, if any (docs/players.md)

    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **auth_headers(url)} | ({"X-Seat-Token": token} if token else {})
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            result: dict[str, Any] = json.loads(answer.read().decode())
            return result
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read().decode()).get("detail", exc.reason)
        except (ValueError, AttributeError):
            detail = exc.reason
        raise ValueError(f"the server refused ({exc.code}): {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ValueError(f"cannot reach the server at {url}: {reason}") from None


def join_table(base: str, table_id: str, name: str) -> tuple[int, str]:
    """Take the first free person's seat of the table (``POST /api/tables/{id}/join``): the seat and
    its token. ValueError with the server's reason (full, started, no such table, unreachable)."""
    answer = _request("POST", f"{base}/api/tables/{quote(table_id)}/join", {"name": name})
    return int(answer["seat"]), str(answer["token"])


def start_table(base: str, table_id: str, token: str) -> None:
    """Start the table's game (``POST /api/tables/{id}/start``, the creator's token): ValueError with
    the server's reason (not the creator, already started, unreachable)."""
    _request("POST", f"{base}/api/tables/{quote(table_id)}/start", {}, token=token)


def rejoin_command(base: str, table_id: str, token: str) -> str:
    """The shell command that takes the seat back: ``--token=TOKEN``, a spelling that also holds a
    token beginning with ``-``, and the URL quoted for the shell (``?`` is a glob).

    >>> rejoin_command("http://h:8000", "T1", "-x9")
    "liverpool play --connect 'http://h:8000/?join=T1' --token=-x9"
    """
    return f"liverpool play --connect {shlex.quote(f'{base}/?join={table_id}')} --token={shlex.quote(token)}"


SEATS_FILE = "seats.json"
MAX_SAVED_SEATS = 50


def save_seat(folder: Path, base: str, table_id: str, name: str, token: str) -> Path:
    """Keep a seat's token in ``folder/seats.json`` (readable by its owner only), so that the seat
    is not lost with the terminal: the same ``--connect`` link and ``--name`` take it back."""
    path = folder / SEATS_FILE
    seats = [s for s in _saved_seats(path) if (s.get("base"), s.get("table")) != (base, table_id)]
    seats.append({"base": base, "table": table_id, "name": name, "token": token})
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.touch(mode=0o600)
    tmp.chmod(0o600)
    tmp.write_text(json.dumps(seats[-MAX_SAVED_SEATS:]), encoding="utf-8")
    tmp.replace(path)
    return path


def saved_seat(folder: Path, base: str, table_id: str, name: str) -> str | None:
    """The token kept by :func:`save_seat` for this table and name, if any."""
    for s in _saved_seats(folder / SEATS_FILE):
        if (s.get("base"), s.get("table"), s.get("name")) == (base, table_id, name) and s.get("token"):
            return str(s["token"])
    return None


def _saved_seats(path: Path) -> list[dict[str, Any]]:
    try:
        seats = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []


def table_info(base: str, table_id: str) -> dict[str, Any]:
    """``GET /api/tables/{id}`` (ValueError when there is no such table or no server)."""
    return _request("GET", f"{base}/api/tables/{quote(table_id)}")


def merge_state(
    view: dict[str, Any] | None, log: list[dict[str, Any]], message: dict[str, Any]
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The seat's whole view and the game's public event log after a ``hello`` or ``state``
    (protocol 2), from those after the messages before it. ``hello`` holds the whole view and every
    event so far; a ``state`` the view's keys that changed (merged in) and the new events; this
    deal's events (``view["events"]``) are the log from ``deal_events_from`` on.

    >>> view, log = merge_state(None, [], {"type": "hello", "view": {"phase": "draw", "hand": ["AS"],
    ...     "events": [{"type": "deal"}]}, "events": [{"type": "cut"}, {"type": "deal"}]})
    >>> view, log = merge_state(view, log, {"type": "state", "view": {"phase": "play"},
    ...     "events": [{"type": "draw_stock"}], "deal_events_from": 1})
    >>> view["phase"], view["hand"], [e["type"] for e in view["events"]], len(log)
    ('play', ['AS'], ['deal', 'draw_stock'], 3)
    """
    if message.get("type") == "hello":
        whole = message.get("view")
        return (dict(whole) if isinstance(whole, dict) else None), list(message.get("events") or [])
    log = log + list(message.get("events") or [])
    merged = dict(view or {}) | dict(message.get("view") or {})
    merged["events"] = log[int(message.get("deal_events_from") or 0) :]
    return merged, log


class RemoteGame:
    """The game as the last ``state`` shows it to this seat: its view and its legal actions. It
    answers the questions the app asks a :class:`~liverpool.game.Game`, from those alone."""

    def __init__(self, view: dict[str, Any], legal: list[Action]) -> None:
        self._view = view
        self._legal = legal
        self.rules = RuleSet.from_dict(view["rules"])

    def view(self, player: int) -> dict[str, Any]:
        """This seat's view (the only one the server sends)."""
        return self._view

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The server's list for this seat (empty while an answer to our last move is awaited)."""
        if player is not None and player != self._view["player"]:
            return []
        return list(self._legal)

    def hand(self, player: int | None) -> list[Card]:
        return parse_cards(self._view["hand"]) if player == self._view["player"] else []

    @property
    def version(self) -> int:
        """The number of actions applied so far (the version acts are sent for)."""
        return int(self._view["version"])

    @property
    def events(self) -> list[dict[str, Any]]:
        """This deal's public events, as the view lists them."""
        return list(self._view.get("events", []))

    @property
    def players(self) -> int:
        return int(self._view["players"])

    @property
    def current(self) -> int:
        return int(self._view["current"])

    @property
    def phase(self) -> str:
        return str(self._view["phase"])

    @property
    def is_over(self) -> bool:
        return bool(self._view.get("is_over")) or self.phase == "over"

    @property
    def scores(self) -> list[int]:
        return list(self._view["scores"])

    @property
    def deal_scores(self) -> list[list[int]]:
        return [list(s) for s in self._view["deal_scores"]]

    @property
    def winners(self) -> list[int]:
        return list(self._view.get("winners", []))


@dataclass
class RemoteSession:
    """A seat at a server's table, with the interface of :class:`~liverpool.tui.session.LocalSession`
    the app uses. ``run`` (a coroutine in the app's loop) keeps the socket open and calls ``notify``
    with every message (and ``{"type": "disconnected"}`` / ``{"type": "fatal"}`` of its own)."""

    base: str
    table_id: str
    token: str
    human: int | None
    names: list[str] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)
    bots: dict[int, Any] = field(default_factory=dict)  # no bot runs here: the server plays them
    data: Path | None = None
    record_path: Path | None = None
    remote: bool = True
    connected: bool = False
    ended: bool = False
    status: str = "connecting"
    version: int | None = None
    _game: RemoteGame | None = None
    _legal: list[dict[str, Any]] = field(default_factory=list)
    _pending: bool = False
    _outbox: asyncio.Queue[str] | None = None
    backoff: tuple[float, ...] = BACKOFF
    previous_hand: list[Card] = field(default_factory=list)
    _view: dict[str, Any] | None = None  # the whole view, rebuilt from hello and the states
    _log: list[dict[str, Any]] = field(default_factory=list)  # every public event so far
    buy: BuyPrefs = field(default_factory=BuyPrefs)  # the person's buy choice (sent as ``prefs``)
    pause: dict[str, Any] | None = None  # the deal-end pause of the last hello/state (docs/protocol.md)
    auto_buy: dict[str, Any] | None = None  # what the buy choice makes of the discard this seat may buy now
    buy_deadline: int | None = None  # ms since the epoch: when the server stops waiting for a buy
    chat: list[dict[str, Any]] = field(default_factory=list)  # the table's chat lines (``chat_log``, ``chat``)
    chat_option: str = "players"  # who may talk at this table: players, everyone, off
    chat_muted: list[str] = field(default_factory=list)  # the talkers this seat muted (kept by the server)

    # ------------------------------------------------------------------ making one
    @classmethod
    def connect(cls, url: str, name: str = "You", token: str | None = None) -> RemoteSession:
        """Join the table of an invite link as ``name`` (or, with ``token``, take back one's seat):
        ValueError before anything starts when the URL, the table or the token is wrong, or the
        table is full."""
        base, table_id = parse_connect_url(url)
        if token:
            info = table_info(base, table_id)
            seat = None
        else:
            from ..cli.login import saved_session

            saved = saved_session(base)
            if saved is not None and name.strip() in ("", "You"):  # logged in: sit down as the account's name
                name = saved["name"]
            seat, token = join_table(base, table_id, name.strip() or "You")
            info = table_info(base, table_id)
        session = cls(base=base, table_id=table_id, token=token, human=seat)
        session.update_table(info)
        return session

    @property
    def ws_url(self) -> str:
        scheme = "wss" if self.base.startswith("https") else "ws"
        rest = self.base.split("://", 1)[1]
        return f"{scheme}://{rest}/ws/tables/{quote(self.table_id)}"  # the token is the first message

    def rejoin_command(self) -> str:
        """The command that takes this seat back (it holds the seat's token: shown to its player only)."""
        return rejoin_command(self.base, self.table_id, self.token)

    def send(self, message: dict[str, Any]) -> bool:
        """Queue a message for the socket; False when it is down (nothing is sent later)."""
        if not self.connected or self._outbox is None:
            return False
        self._outbox.put_nowait(json.dumps(message))
        return True

    def set_buy(self, buy: BuyPrefs) -> None:
        """A new buy choice: kept in the data folder (when there is one) and sent at once."""
        self.buy = buy
        if self.data is not None:
            with contextlib.suppress(OSError):
                buy.save(self.data)
        self.send(self.prefs_message())

    def say(self, text: str) -> str | None:
        """Send a chat line: None, or why not (the server's own refusals come back as ``error``)."""
        text = " ".join(text.split())
        if not text:
            return "an empty line is not sent"
        if len(text) > CHAT_MAX:
            return f"a chat line is at most {CHAT_MAX} characters (this one has {len(text)})"
        if self.chat_option == "off":
            return "the chat is off at this table"
        if not self.send({"type": "chat", "text": text}):
            return "not connected to the server: reconnecting…"
        return None

    def chat_who(self, line: dict[str, Any]) -> str:
        """Who said a line: the seat's name, or a spectator's chosen name marked as watching."""
        seat = line.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"{line.get('name') or '?'} (watching)"

    def talkers(self) -> list[tuple[str, str]]:
        """Who this seat may mute or unmute (key, name): the other people's seats, the spectators
        who talked, and whoever is muted now."""
        found: dict[str, str] = {}
        for seat, kind in enumerate(self.kinds):
            if kind is None and seat != self.human and seat < len(self.names):
                found[f"seat:{seat}"] = self.names[seat]
        for line in self.chat:
            if line.get("kind") == "say" and line.get("seat") is None:
                found[f"name:{line.get('name', '')}"] = self.chat_who(line)
        for key in self.chat_muted:
            if key not in found:
                number = key.removeprefix("seat:")
                known = number.isdigit() and int(number) < len(self.names)
                found[key] = self.names[int(number)] if known else key[5:]
        return list(found.items())

    def mute(self, key: str, on: bool) -> bool:
        """Ask the server to mute (or unmute) a talker for this seat (answered by a ``chat_log``)."""
        return self.send({"type": "mute", "who": key, "on": on})

    def prefs_message(self) -> dict[str, Any]:
        """``prefs``: the buy choice, and ``pause``: this app shows a deal-end screen (it sends ``continue``)."""
        return {"type": "prefs", "buy": self.buy.mode, "wish": list(self.buy.wish), "pause": True}

    def waited_for(self) -> bool:
        """The deal-end pause waits for this seat (it has not continued yet)."""
        return self.pause is not None and self.human in self.pause.get("waiting", [])

    def last_deal_end(self) -> dict[str, Any] | None:
        """The last ``deal_end`` event of the game so far (for the deal-end screen after a reconnect)."""
        return next((e for e in reversed(self._log) if e.get("type") == "deal_end"), None)

    @property
    def auto_decides(self) -> bool:
        """The server answers this seat's buy window itself now (its buy choice: pass or buy)."""
        return self.auto_buy is not None and self.auto_buy.get("action") in ("pass", "buy")

    def start(self) -> None:
        """Start the table (the creator's seat only): ValueError with the server's reason."""
        start_table(self.base, self.table_id, self.token)

    def update_table(self, info: dict[str, Any]) -> None:
        seats = sorted(info.get("seats", []), key=lambda s: int(s["seat"]))
        names = []
        for s in seats:
            name = str(s.get("name") or f"seat {int(s['seat']) + 1}")
            if s.get("kind") == "bot" and s.get("bot") and str(s["bot"]) not in name:
                name += f" ({s['bot']})"
            names.append(name)
        count = Counter(names)  # two "easy bot"s are told apart by their seat
        self.names = [f"{n} #{i + 1}" if count[n] > 1 else n for i, n in enumerate(names)]
        self.kinds = [s.get("bot") if s.get("kind") == "bot" else None for s in seats]

    # ------------------------------------------------------------------ the LocalSession interface
    @property
    def ready(self) -> bool:
        """A game to draw: the server sent a view (false before the table starts)."""
        return self._game is not None

    @property
    def game(self) -> RemoteGame:
        if self._game is None:
            raise RuntimeError("the table has not started yet")
        return self._game

    @property
    def watching(self) -> bool:
        return False

    def to_act(self) -> tuple[int, list[Action]]:
        """This seat and its listed actions when it has some (and no move is on its way), else the
        seat whose turn it is and nothing."""
        game = self.game
        legal = game.legal_actions(self.human)
        if legal and self.human is not None:
            return self.human, legal
        return game.current, []

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        """This deal's public events so far (from the view)."""
        if self._game is None:
            return []
        return list(self._game.view(self.human or 0).get("events", []))[since:]

    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Send ``act`` with the listed id of ``action`` for the current version. The result comes
        later as a ``state`` (or an ``error``): nothing changes here. IllegalAction when the action
        is not in the server's list or the socket is down."""
        if not self.connected or self._outbox is None or self.version is None:
            raise IllegalAction("not connected to the server: reconnecting…", code="not_connected")
        wanted = action.to_dict()
        entry = next((e for e in self._legal if e["action"] == wanted), None)
        if entry is None or self._pending:
            raise IllegalAction("that move is not in the server's list now", code="not_in_list")
        self._outbox.put_nowait(json.dumps({"type": "act", "version": self.version, "action": entry["id"]}))
        self._pending = True
        self._refresh_game()
        return []

    def save(self) -> Path | None:
        """Nothing to save: the server keeps the game (rejoin with the table URL and ``--token``)."""
        return None

    def finish(self) -> Path | None:
        """The record stays on the server (``GET /api/tables/{id}/record``)."""
        return None

    # ------------------------------------------------------------------ messages
    def _refresh_game(self) -> None:
        if self._game is None:
            return
        legal = [] if self._pending else [action_from_dict(e["action"]) for e in self._legal]
        self._game = RemoteGame(self._game.view(0), legal)

    def receive(self, message: dict[str, Any]) -> None:
        """Take in one message of the server (``hello``, ``state``, ``lobby``, ``table``, ``error``)."""
        kind = message.get("type")
        if kind in ("hello", "state"):
            if kind == "hello":
                self.human = int(message["seat"])
            if isinstance(message.get("table"), dict):
                self.update_table(message["table"])
            self._view, self._log = merge_state(self._view, self._log, message)
            view = self._view
            if view is not None:
                self.previous_hand = self._game.hand(self.human) if self._game is not None else []
                self.version = int(message["version"])
                self._legal = list(message.get("legal", []))
                self._pending = False
                self._game = RemoteGame(view, [action_from_dict(e["action"]) for e in self._legal])
            pause = message.get("pause")
            self.pause = pause if isinstance(pause, dict) else None
            auto = message.get("auto_buy")
            self.auto_buy = auto if isinstance(auto, dict) else None
            deadline = message.get("buy_deadline")
            self.buy_deadline = int(deadline) if isinstance(deadline, (int, float)) else None
        elif kind in ("lobby", "table") and isinstance(message.get("table"), dict):
            self.update_table(message["table"])
        elif kind == "chat_log":
            self.chat = [line for line in message.get("lines") or [] if isinstance(line, dict)][-CHAT_KEPT:]
            self.chat_option = str(message.get("option") or "players")
            muted = message.get("muted")
            self.chat_muted = [str(m) for m in muted] if isinstance(muted, list) else []
        elif kind == "chat" and isinstance(message.get("line"), dict):
            line = message["line"]
            if not self.chat or int(line.get("n", -1)) > int(self.chat[-1].get("n", -1)):
                self.chat = [*self.chat[-CHAT_KEPT + 1 :], line]
        elif kind == "error":
            self._pending = False
            self._refresh_game()

    async def run(self, notify: Callable[[dict[str, Any]], None]) -> None:
        """Keep the seat's socket open until :meth:`close`: receive, send, reconnect with back-off."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        attempt = 0
        while not self.ended:
            self._outbox = asyncio.Queue()
            try:
                async with connect(self.ws_url, open_timeout=10, max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                    sender = asyncio.create_task(self._send_loop(ws))
                    try:
                        async for raw in ws:
                            message = json.loads(raw)
                            if not isinstance(message, dict):
                                continue
                            if message.get("type") == "hello":
                                self.connected = True
                                self.status = "connected"
                                attempt = 0
                                self.send(self.prefs_message())  # a new socket starts with the defaults
                            self.receive(message)
                            notify(message)
                    finally:
                        sender.cancel()
                    code = ws.close_code
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
            except InvalidURI as exc:
                self._fatal(notify, f"bad server address: {exc}")
                return
            self.connected = False
            self._outbox = None
            self._pending = False
            self._refresh_game()
            if self.ended:
                return
            if code in FATAL_CLOSE:
                self._fatal(notify, f"the server closed the connection: {FATAL_CLOSE[code]}")
                return
            wait = self.backoff[min(attempt, len(self.backoff) - 1)]
            attempt += 1
            self.status = f"disconnected: reconnecting in {wait:g}s (try {attempt})"
            notify({"type": "disconnected", "wait": wait, "attempt": attempt})
            await asyncio.sleep(wait)

    def _fatal(self, notify: Callable[[dict[str, Any]], None], reason: str) -> None:
        self.ended = True
        self.connected = False
        self.status = reason
        notify({"type": "fatal", "reason": reason})

    async def _send_loop(self, ws: Any) -> None:
        outbox = self._outbox
        assert outbox is not None
        while True:
            await ws.send(await outbox.get())

    def close(self) -> None:
        """Stop reconnecting (the app quits)."""
        self.ended = True


def gained_cards(before: list[Card], after: list[Card]) -> Counter[Card]:
    """The cards in ``after`` that were not in ``before``."""
    return Counter(after) - Counter(before)

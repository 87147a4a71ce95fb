"""A table: its seats, its game, its sockets, and the one lock that serializes everything it does.

Every change to a table's game happens under ``table.lock`` (one executor per table): the action
is verified by the engine, appended to the store and committed, applied, and only then is a
``state`` built for each connected seat from that seat's own ``Game.view``. A pump task per table
makes the bots move (bot seats, people whose grace period is over, a run-out turn timer).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..actions import Action, Buy, Meld, Pass, action_from_dict
from ..bots import Bot, get
from ..cards import parse_cards
from ..describe import describe_action, describe_event, worded
from ..driver import next_to_act
from ..game import PLAY, Game, IllegalAction
from ..game.answers import seat_answers
from ..rules import RuleSet
from . import spectate
from .advice import bot_act, hint_answer, plays_in_process
from .chat import Chat, clean_line
from .names import bot_seat_name, seat_name
from .pacing import Pacing
from .protocol import (
    PROTOCOL_VERSION,
    ActMessage,
    AutoplayMessage,
    ChatMessage,
    CheckMessage,
    ContinueMessage,
    HintMessage,
    HintOption,
    MeldMessage,
    MuteMessage,
    PingMessage,
    PrefsMessage,
    ProtocolError,
    parse_client_message,
)
from .store import Conflict

if TYPE_CHECKING:
    from fastapi import WebSocket

    from .advice import Workers
    from .bus import Bus
    from .config import Settings
    from .store import Store

__all__ = [
    "Connection",
    "LobbyError",
    "Seat",
    "Table",
    "hash_token",
    "hint_limit",
    "hints_from_store",
    "hints_to_store",
    "last_hint_from_store",
    "last_hint_to_store",
    "new_token",
    "run_socket",
]

log = logging.getLogger("liverpool.server")

_DRAW = "draw"
_ACTION_ID = re.compile(r"^a(\d{1,4})$")


class LobbyError(Exception):
    """A refused lobby request: the HTTP status and a reason a person can read."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def new_token() -> str:
    """A seat's secret token."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the store keeps of a token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def hint_limit(option: HintOption) -> int | None:
    """Hints a seat may ask for per deal under a table's ``hints`` option (None: no limit).

    >>> [hint_limit("off"), hint_limit(3), hint_limit("unlimited")]
    [0, 3, None]
    """
    if option == "off":
        return 0
    if option == "unlimited":
        return None
    return int(option)


def hints_to_store(option: HintOption) -> str:
    """The ``hints`` option as the store keeps it (text)."""
    return str(option)


def hints_from_store(text: str | None) -> HintOption:
    """The ``hints`` option from the store (null: the default, 3, for tables made before it).

    >>> [hints_from_store(t) for t in (None, "3", "off", "unlimited")]
    [3, 3, 'off', 'unlimited']
    """
    if text == "off":
        return "off"
    if text == "unlimited":
        return "unlimited"
    return 3


def last_hint_to_store(last: tuple[int, Action, dict[str, Any]] | None) -> dict[str, Any]:
    """A seat's last hint as the store keeps it (``seats.hint_version``, ``seats.hint_answer``)."""
    if last is None:
        return {"hint_version": None, "hint_answer": None}
    decision, action, found = last
    return {"hint_version": decision, "hint_answer": {"action": action.to_dict(), "found": found}}


def last_hint_from_store(row: dict[str, Any]) -> tuple[int, Action, dict[str, Any]] | None:
    """A seat's last hint from its row (None: none kept, or a row of before migration 0008)."""
    version, answer = row.get("hint_version"), row.get("hint_answer")
    if version is None or not isinstance(answer, dict):
        return None
    return int(version), action_from_dict(answer["action"]), dict(answer["found"])


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


_MISSING = object()
_EPOCH: list[float] = []  # wall-clock time minus loop time, taken once (deadlines stay the same)


def epoch_ms(at: float) -> int:
    """The event loop's time ``at`` as milliseconds since the epoch (the same ``at`` always gives
    the same number, so a deadline sent twice is sent alike)."""
    if not _EPOCH:
        _EPOCH.append(time.time() - asyncio.get_running_loop().time())
    return int((at + _EPOCH[0]) * 1000)


@dataclass(frozen=True, slots=True)
class _Shared:
    """The parts of a moment's messages every seat gets alike: the table's info (JSON), the
    last move in words, the buy deadline."""

    info: str
    last: dict[str, Any] | None
    buy_deadline: int | None


class Connection:
    """One seat's socket: a queue of outgoing texts (sent by a writer task in order) and the
    per-socket bookkeeping: events already sent, the legal list last sent, the rate limit."""

    def __init__(
        self,
        ws: WebSocket | None,
        seat: int,
        rate: float,
        burst: int,
        flood_window: float = 60.0,
        flood_close: int = 40,
    ) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.event_index = 0  # the public events sent so far (hello's and the states')
        self.last_view: dict[str, Any] | None = None  # the view as the last hello/state left it
        self.last_table: str | None = None  # the JSON of the table's info last sent
        self.sent: dict[int, list[Action]] = {}  # the legal lists last sent, by version (a few)
        self.close_reason: str | None = None
        self.close_code = 1000
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic()
        self.refused = 0  # refused messages in the last ``flood_window`` seconds
        self._flood_window = flood_window
        self._refusals: deque[float] = deque()  # when those were refused
        self._limited_at = -1e9  # when the last ``rate_limited`` error was sent
        self._flood_close = flood_close

    @classmethod
    def of(cls, ws: WebSocket | None, seat: int, settings: Settings) -> Connection:
        """A socket's connection with the server's limits (a seat's, or a spectator's: ``seat`` -1)."""
        return cls(ws, seat, settings.rate, settings.burst, settings.flood_window, settings.flood_close)

    def admit(self) -> bool:
        """The admission of one message of this socket, the same for a seat's and a spectator's
        (:func:`run_socket` asks it before any message is handled): False when the message is
        dropped by the rate limit; at most one ``rate_limited`` error a second answers a flood,
        and ``flood_close`` refusals within ``flood_window`` seconds close the socket (1008). A
        socket once closed admits nothing more (its writer closes it later: what it sends
        meanwhile is dropped)."""
        if self.close_reason is not None:
            return False
        if self.allow():
            return True
        if self.refused >= self._flood_close:
            self.close("flooding: too many messages", 1008)
        elif self.limited_error_due():
            self.error("rate_limited", "too many messages: slow down (messages over the limit are dropped)")
        return False

    def send(self, msg: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already encoded)."""
        if self.close_reason is None:
            self.queue.put_nowait(msg if isinstance(msg, str) else _dumps(msg))

    def error(self, code: str, reason: str) -> None:
        self.send({"type": "error", "code": code, "reason": reason})

    def close(self, reason: str, code: int = 4000) -> None:
        """Ask the writer to close the socket (after what is queued)."""
        if self.close_reason is None:
            self.close_reason = reason
            self.close_code = code
            self.queue.put_nowait(None)

    def allow(self) -> bool:
        """The token bucket of the rate limit: False when this message is one too many."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        # a sliding window of refusals: a steady flood just over the rate fills it as surely as
        # a burst (a count reset by each allowed message would never reach the limit)
        refusals = self._refusals
        refusals.append(now)
        while refusals and refusals[0] <= now - self._flood_window:
            refusals.popleft()
        self.refused = len(refusals)
        return False

    def limited_error_due(self) -> bool:
        """True at most once a second: whether this refused message gets its ``rate_limited``
        error (a flood is not answered message for message)."""
        now = time.monotonic()
        if now - self._limited_at >= 1.0:
            self._limited_at = now
            return True
        return False


@dataclass
class Seat:
    index: int
    kind: str  # "human" | "bot"
    bot: str | None = None  # the bot of a bot seat
    name: str | None = None
    token_hash: str | None = None  # a person's seat once claimed
    conn: Connection | None = None
    disconnected_at: float | None = None  # loop time; None while connected
    engine_bot: Bot | None = None  # the bot playing this seat (bot seats) or standing in for a person
    auto: bool = False  # the person asked the bot to play for them (``autoplay``)
    applied: deque[str] = field(default_factory=lambda: deque(maxlen=32))  # client ids of applied messages
    hints_deal: int | None = None  # the deal ``hints_used`` counts in
    hints_used: int = 0
    hint_pending: int | None = None  # the version a hint is being computed for
    last_hint: tuple[int, Action, dict[str, Any]] | None = None  # the last hint: (decision, action, answer)
    remote: set[str] = field(default_factory=set)  # other workers with a socket of this seat (server/bus.py)

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def present(self) -> bool:
        """A socket of this seat is open, at this worker or another."""
        return self.conn is not None or bool(self.remote)


class Host(Protocol):
    """What a table needs from the server that holds it (``server/lobby.py``'s ``Lobby``).

    The table knows its host by these five names only, so ``table`` never imports ``lobby``: the
    lobby makes tables, a table only asks its host for the settings, the store, the off-loop
    workers and the bus to the other workers.
    """

    settings: Settings
    store: Store
    hint_workers: Workers
    bot_workers: Workers
    bus: Bus | None


class Table:
    """A table of the lobby (see the module docstring)."""

    def __init__(
        self,
        host: Host,
        table_id: str,
        players: int,
        preset: str,
        options: dict[str, Any],
        rules: RuleSet,
        seats: list[Seat],
        timer: float | None,
        bot_delay: float,
        created_at: float,
        rematch_of: str | None = None,
        hints: HintOption = 3,
    ) -> None:
        self.host = host
        self.settings = host.settings
        self.store = host.store
        self.id = table_id
        self.players = players
        self.preset = preset
        self.options = options
        self.rules = rules
        self.seats = seats
        self.timer = timer
        self.bot_delay = bot_delay
        self.created_at = created_at
        self.rematch_of = rematch_of
        self.hints = hints
        self.hint_limit = hint_limit(hints)
        self._hint_tasks: set[asyncio.Task[None]] = set()
        self.status = "waiting"
        self.game: Game | None = None
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        loop_time = asyncio.get_running_loop().time()
        self._changed_at = loop_time
        self._decision_at = loop_time
        self._window_at = loop_time  # when the buy window of the current discard opened
        self._held: tuple[int, int, Action, float] | None = None  # a bot's window-closing move held back
        self._stable_from = 0  # versions since then differ only by out-of-turn buys and passes
        self._last: dict[str, Any] | None = None
        self.rematch_id: str | None = None
        self.rematch_tokens: dict[int, str] = {}
        self.actions_applied = 0
        # the last time a socket left, a person joined, the table was asked for or the game ended
        # (eviction counts from it)
        self.touched = loop_time
        self._events_json: list[str] = []
        self._rules_json: str | None = None
        self.pacing = Pacing()  # issue 24: the deal-end pause, buy choices, the buy window's length
        self.chat = Chat(table_id, self.store)  # issue 24: the table's chat (server/chat.py)
        self.seen: set[int] = set()  # seats that connected since this table came into memory
        self.spectators = True  # issue 24: the watch link shows this table (server/spectate.py)
        self.watchers: set[Connection] = set()  # the spectators' sockets
        self._stopping = False

    # ------------------------------------------------------------------ lobby side
    @property
    def names(self) -> list[str]:
        return [seat_name(s.index, s.name, s.kind, s.bot) for s in self.seats]

    def info(self) -> dict[str, Any]:
        """The table as ``GET /api/tables/{id}`` shows it (no token, no card)."""
        now = asyncio.get_running_loop().time()
        return (
            {
                "table_id": self.id,
                "players": self.players,
                "preset": self.preset,
                "options": self.options,
                "status": self.status,
                "seats": [
                    {
                        "seat": s.index,
                        "name": self.names[s.index],
                        "kind": s.kind,
                        "bot": s.bot,
                        "connected": s.present,
                        "claimed": s.claimed,
                        "bot_playing": s.kind == "bot" or (self.game is not None and self._stand_in(s, now)),
                    }
                    for s in self.seats
                ],
                "timer": self.timer,
                "bot_delay": self.bot_delay,
                "hints": self.hints,
                "rematch": self.rematch_id,
                "rematch_of": self.rematch_of,
            }
            | self.pacing.info()
            | {"chat": self.chat.option, "spectators": self.spectators}
        )

    def idle_over(self, now: float, after: float) -> bool:
        """True when this table is finished or still waiting for players, and nobody was connected
        to it for ``after`` seconds (a waiting table counts from its creation, a join, or the last
        socket that left)."""
        return (
            self.status in ("over", "waiting")
            and all(not s.present for s in self.seats)
            and now - self.touched >= after
        )

    def seat_for_token(self, token: str | None) -> Seat | None:
        """The seat whose token this is (compared in constant time), or None."""
        if not token:
            return None
        digest = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s
        return found

    async def join(self, name: str) -> tuple[int, str]:
        """The first free person's seat for ``name``: (seat, token)."""
        async with self.lock:
            while True:
                if self.bus is not None:
                    await self._refresh_locked()  # what the other workers did to it
                if self.status != "waiting":
                    raise LobbyError(409, "the game has already started")
                free = next((s for s in self.seats if s.kind == "human" and s.token_hash is None), None)
                if free is None:
                    raise LobbyError(409, "table is full")
                token = new_token()
                if self.bus is None:
                    await self.store.update_seat(self.id, free.index, name=name, token_hash=hash_token(token))
                    break
                # several workers: the seat is given only if still free in the store
                if await self.store.claim_seat(self.id, free.index, name=name, token_hash=hash_token(token)):
                    break
            free.name = name
            free.token_hash = hash_token(token)
            free.disconnected_at = self.touched = asyncio.get_running_loop().time()
            self._notify_seats()
            await self._publish("seats")
            await self._system(f"{name} took seat {free.index}.")
            return free.index, token

    async def start(self, token: str | None) -> None:
        """Start the game (the creator, seat 0, only); empty person's seats become bots."""
        seat = self.seat_for_token(token)
        if seat is None:
            raise LobbyError(403, "a seat token of this table is needed (header X-Seat-Token)")
        if seat.index != 0:
            raise LobbyError(403, "only the table's creator starts the game")
        async with self.lock:
            if self.bus is not None:
                await self._refresh_locked()
            if self.status != "waiting":
                raise LobbyError(409, "the game has already started")
            bot = self.settings.takeover_bot
            free = [s for s in self.seats if s.kind == "human" and s.token_hash is None]
            seed = self.settings.seeds("game")
            game = Game.new(players=self.players, rules=self.rules, seed=seed)
            # the free seats, the status and the seed in one transaction
            names = {s.index: bot_seat_name(s.index, bot) for s in free}
            try:
                await self.store.start_table(
                    self.id,
                    {s.index: (bot, names[s.index]) for s in free},
                    status="playing",
                    seed=seed,
                    started_at=time.time(),
                )
            except Conflict:  # another worker started it meanwhile
                await self._refresh_locked()
                raise LobbyError(409, "the game has already started") from None
            for s in free:
                s.kind, s.bot, s.name = "bot", bot, names[s.index]
            self._begin(game)
            self._broadcast()
        if self.hint_limit != 0 and self.settings.warm_hints:
            self.host.hint_workers.warm()
        if self.bus is not None:
            await self.bus.try_drive(self.id)  # the worker that started it drives it (while it lives)
        self._start_pump()

    def _begin(self, game: Game) -> None:
        """Take ``game`` (new or rebuilt from the log) as this table's game."""
        self.game = game
        self._events_json = []
        self._rules_json = None
        self.status = "over" if game.is_over else "playing"
        now = asyncio.get_running_loop().time()
        self._changed_at = self._decision_at = self._window_at = self.touched = now
        # the decision the current version belongs to (a game rebuilt after buys and passes: the
        # version before them, as this table had it; a seat's last hint is kept by it)
        stable = game.version
        while stable > 0 and isinstance(game.actions[stable - 1], (Buy, Pass)):
            stable -= 1
        self._stable_from = stable
        for s in self.seats:
            if s.kind == "bot":
                s.engine_bot = get(s.bot or "medium", seed=self.settings.seeds(f"bot{s.index}"))
            if s.kind == "human" and s.conn is None:
                s.disconnected_at = now

    def restore(self, game: Game) -> None:
        """Continue a game rebuilt from the store (after a restart)."""
        self._begin(game)
        if not game.is_over:
            if self.hint_limit != 0 and self.settings.warm_hints:
                self.host.hint_workers.warm()
            self._start_pump()

    @property
    def bus(self) -> Bus | None:
        """The other workers of a shared store (server/bus.py), or None (this process alone)."""
        bus: Bus | None = self.host.bus
        return bus

    def _start_pump(self) -> None:
        if self._stopping:
            return  # the server is closing: no new pump (a bus takeover during shutdown)
        if self._driven_elsewhere():
            return  # another worker drives this table's bots and timers (server/bus.py)
        if self._pump is None and self.game is not None and not self.game.is_over:
            self._pump = asyncio.create_task(self._run_pump(), name=f"liverpool-table-{self.id}")

    def drive(self) -> None:
        """This worker drives the table from now on (it took its lock): timers count from now."""
        now = asyncio.get_running_loop().time()
        self._changed_at = self._decision_at = self._window_at = now
        self._start_pump()
        self.wake.set()

    def undrive(self) -> None:
        """This worker no longer drives the table (its lock went with a lost connection): the pump
        stops at its next turn, before any move (server/bus.py)."""
        self.wake.set()

    def _driven_elsewhere(self) -> bool:
        bus = self.bus
        return bus is not None and self.id not in bus.owned

    async def _publish(self, kind: str, **fields: Any) -> None:
        """Tell the other workers of a change they keep too (nothing without them)."""
        bus = self.bus
        if bus is not None and not self._stopping:
            await bus.publish(self, kind, **fields)

    def behind(self, count: int) -> bool:
        """True when the store holds more of this table's actions (``count``) than this replica."""
        g = self.game
        return count > 0 if g is None else count > g.version

    async def catch_up(self, seats: bool = True) -> None:
        """Apply what the other workers committed to this table since this replica's version
        (``seats`` False: the actions only, the table has started here)."""
        async with self.lock:
            await self._refresh_locked(seats=seats)

    async def _refresh_locked(self, seats: bool = True) -> None:
        """The table as the store has it (with the lock held): its seats and, once it started,
        every action after this replica's version, each applied and sent as ``state`` as if made
        here (one state per action, in order)."""
        if seats or self.game is None:
            await self._refresh_seats()
        g = self.game
        if g is None:
            return
        self._apply_logged(await self.store.actions_from(self.id, g.version))

    def _apply_logged(self, rows: list[dict[str, Any]]) -> None:
        """Apply rows of the log committed by another worker (idx, seat, action, client_id), in
        order from this replica's version on: a row before it is skipped, a gap stops."""
        g = self.game
        assert g is not None
        for r in rows:
            if r["idx"] < g.version:
                continue
            if g.is_over or r["idx"] != g.version:
                break
            action = action_from_dict(r["action"])
            before = len(g.events)
            prev = (g.current, g.phase)
            deal_before = g.deal
            g.apply(action)  # committed by another worker: the log is the authority
            self._after_apply(action, before, prev, deal_before)
            if r["client_id"]:
                self.seats[r["seat"]].applied.append(r["client_id"])
        if g.is_over and self.status != "over":
            self.status = "over"
            self.touched = asyncio.get_running_loop().time()
            self._notify_seats()

    async def apply_notice(self, rows: list[dict[str, Any]], count: int) -> bool:
        """The rows another worker's notice carried (server/bus.py), up to ``count`` actions:
        applied as :meth:`catch_up` would, without reading the store when they follow on from this
        replica's version (True); else the rest is read from the store (False)."""
        async with self.lock:
            g = self.game
            if g is not None and rows and rows[0]["idx"] <= g.version:
                self._apply_logged(rows)
                if count <= g.version:
                    return True
            await self._refresh_locked(seats=False)
            return False

    async def _refresh_seats(self) -> None:
        """The seats as the store has them and, when the table started at another worker, its game."""
        found = await self.store.table_row(self.id)
        if found is None:
            return
        row, seat_rows = found
        changed = False
        for r in seat_rows:
            s = self.seats[r["seat"]]
            now_seat = (r["kind"], r["bot"], r["name"], r["token_hash"])
            if (s.kind, s.bot, s.name, s.token_hash) != now_seat:
                s.kind, s.bot, s.name, s.token_hash = now_seat
                changed = True
        if self.game is None and row["status"] in ("playing", "over") and row["seed"] is not None:
            record = {"players": row["players"], "rules": row["rules"], "seed": row["seed"], "actions": []}
            self._begin(Game.from_record(record))
            self._broadcast()
            changed = False
            self._notify_seats()
        elif changed:
            self._notify_seats()

    async def remote(self, worker: str, msg: dict[str, Any]) -> None:
        """A change another worker announced (server/bus.py): presence, autoplay, prefs, continue,
        a chat line, the deal-end pause's end, the seats."""
        kind = msg.get("k")
        seat_no = msg.get("s")
        seat = self.seats[seat_no] if isinstance(seat_no, int) and 0 <= seat_no < len(self.seats) else None
        async with self.lock:
            now = asyncio.get_running_loop().time()
            if kind in ("seats", "start"):
                await self._refresh_locked()
            elif kind == "conn" and seat is not None:
                if msg.get("on"):  # as a socket of this worker would (connect)
                    seat.remote.add(worker)
                    seat.disconnected_at = None
                    seat.auto = False
                    self.pacing.forget(seat.index)
                else:
                    seat.remote.discard(worker)
                    if not seat.present:
                        seat.disconnected_at = self.touched = now
                        if self.pacing.refresh(self, now):
                            self._broadcast()
                self._notify_seats()
            elif kind == "auto" and seat is not None:
                seat.auto = bool(msg.get("on"))
                if self.pacing.refresh(self, now):
                    self._broadcast()
                self._notify_seats()
            elif kind == "prefs" and seat is not None:
                self.pacing.set_prefs(seat.index, msg["buy"], list(msg["wish"]), bool(msg["pause"]))
                if self.pacing.refresh(self, now):  # a client that shows no deal-end screen, as at its worker
                    self._broadcast()
            elif kind == "cont" and seat is not None:
                if self.pacing.go_on(self, seat.index, now) or self.pacing.hold is not None:
                    self._broadcast()
            elif kind == "release":
                if self.pacing.hold is not None:
                    self.pacing.release(self, now)
                    self._broadcast()
            elif kind == "hints" and seat is not None:  # a seat's hint count changed at another worker
                found = await self.store.table_row(self.id)
                if found is not None:
                    r = found[1][seat.index]
                    seat.hints_deal, seat.hints_used = r["hints_deal"], r["hints_used"] or 0
                    seat.last_hint = last_hint_from_store(r)
            elif kind == "chat":
                line = dict(msg["m"]["line"])
                self.chat.lines.append(line)
                self.chat.count = max(self.chat.count, int(line["n"]) + 1)
                self._send_all(msg["m"])
        self.wake.set()

    def worker_gone(self, worker: str) -> None:
        """A worker went silent (killed): the sockets it had are gone (the grace period counts)."""
        now = asyncio.get_running_loop().time()
        for s in self.seats:
            if worker in s.remote:
                s.remote.discard(worker)
                if not s.present:
                    s.disconnected_at = now
        self.wake.set()

    async def stop(self) -> None:
        """Stop the pump and close every socket (the server is stopping)."""
        self._stopping = True
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None
        for task in list(self._hint_tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for s in self.seats:
            if s.conn is not None:
                s.conn.close("the server is restarting", 1012)
        for w in list(self.watchers):
            w.close("the server is restarting", 1012)

    # ------------------------------------------------------------------ messages out
    def _legal_entries(self, conn: Connection, view: dict[str, Any]) -> list[dict[str, Any]]:
        g = self.game
        assert g is not None
        legal = [] if self.pacing.hold is not None else g.legal_actions(conn.seat)
        conn.sent[g.version] = legal
        if len(conn.sent) > 16:
            del conn.sent[min(conn.sent)]
        names = self.names
        return [
            {"id": f"a{i}", "action": a.to_dict(), "text": describe_action(a, view, names)} for i, a in enumerate(legal)
        ]

    def _buy_window_wait(self) -> float:
        """How long after a discard a bot waits before it draws or (``buy_window="until_discard"``)
        discards while a person may still buy or call that discard."""
        return max(self.pacing.buy_seconds or self.settings.buy_window, self.bot_delay)

    def _buy_deadline(self) -> int | None:
        """When a bot about to draw (or, under ``buy_window="until_discard"``, to end its turn)
        stops waiting for people who may buy (ms since the epoch)."""
        g = self.game
        if g is None or g.is_over or not (g.phase == _DRAW or (g.phase == PLAY and g.fresh)):
            return None
        loop = asyncio.get_running_loop()
        now = loop.time()
        if not self._bot_controls(g.current, now):
            return None
        if not any(
            s.index != g.current and not self._bot_controls(s.index, now) and g.legal_actions(s.index)
            for s in self.seats
        ):
            return None
        at = self._window_at + self._buy_window_wait()
        return epoch_ms(at)

    def _encoded_events(self) -> list[str]:
        """The JSON of every public event so far (the same for every seat), encoded once each."""
        g = self.game
        assert g is not None
        enc = self._events_json
        if len(enc) < len(g.events):
            enc.extend(map(_dumps, worded(g.events[len(enc) :])))  # each with its words (``text``)
        return enc

    def _shared(self) -> _Shared:
        """What every seat's message of this moment holds alike, computed once per broadcast."""
        return _Shared(_dumps(self.info()), self._last, self._buy_deadline())

    def _state(self, conn: Connection, kind: str = "state", shared: _Shared | None = None) -> str:
        """The ``hello`` or ``state`` message for ``conn``'s seat, as JSON text.

        ``hello`` holds the whole view (``Game.view(seat)``) and every public event so far. A
        ``state`` holds what changed since the last message to this socket: the keys of the view
        whose values differ from the view it was sent last (all of them when it was sent none;
        never ``events``, which the client rebuilds from the event log and ``deal_events_from``),
        the public events since then, and the table's info only when it changed. The JSON of the
        parts every seat shares (the events, the rules, the table's info) is encoded once."""
        g = self.game
        if shared is None:
            shared = self._shared()
        head: dict[str, Any] = {"type": kind}
        if kind == "hello":
            head |= {"protocol": PROTOCOL_VERSION, "seat": conn.seat}
        hints_left = self.hints_left(self.seats[conn.seat])
        if g is None:
            conn.last_view = None
            conn.last_table = shared.info
            conn.event_index = 0
            tail: dict[str, Any] = {
                "version": None,
                "view": None,
                "legal": [],
                "events": [],
                "deal_events_from": None,
                "last": None,
                "buy_deadline": None,
                "hints_left": hints_left,
                "pause": None,
                "auto_buy": None,
                "turn_deadline": None,
            }
            return _dumps(head)[:-1] + ',"table":' + shared.info + "," + _dumps(tail)[1:]
        enc = self._encoded_events()
        view = g.view(conn.seat)
        deal_events = len(view.pop("events"))
        deal_from = len(enc) - deal_events
        if kind == "hello":
            rules = view.pop("rules")
            if self._rules_json is None:
                self._rules_json = _dumps(rules)
            view_text = (
                _dumps(view)[:-1] + ',"rules":' + self._rules_json + ',"events":[' + ",".join(enc[deal_from:]) + "]}"
            )
            view["rules"] = rules
            start = 0
        else:
            last = conn.last_view
            changed = view if last is None else {k: v for k, v in view.items() if last.get(k, _MISSING) != v}
            view_text = _dumps(changed)
            start = conn.event_index
        conn.last_view = view
        conn.event_index = len(enc)
        head["version"] = g.version
        text = _dumps(head)[:-1] + ',"view":' + view_text + ',"events":[' + ",".join(enc[start:]) + "]"
        if kind == "hello" or shared.info != conn.last_table:
            text += ',"table":' + shared.info
            conn.last_table = shared.info
        rest: dict[str, Any] = {
            "legal": self._legal_entries(conn, view),
            "deal_events_from": deal_from,
            "last": shared.last,
            "buy_deadline": shared.buy_deadline,
            "hints_left": hints_left,
            "pause": self.pacing.public(),
            "auto_buy": self.pacing.auto_note(self, conn.seat),
            "turn_deadline": self._turn_deadline(),
            # the rule answers the page shows (buy window, lay-down suggestion...): the engine's, from this view
            "answers": seat_answers(view),
        }
        return text + "," + _dumps(rest)[1:]

    def _turn_deadline(self) -> int | None:
        """When the turn timer makes the current decision for a person (ms since the epoch), or None."""
        g = self.game
        if self.timer is None or g is None or g.is_over or self.pacing.hold is not None:
            return None
        now = asyncio.get_running_loop().time()
        seat, _ = next_to_act(g)
        if self._bot_controls(seat, now):
            return None
        return epoch_ms(self._decision_at + self.timer)

    def _broadcast(self) -> None:
        shared = self._shared()
        for s in self.seats:
            if s.conn is not None:
                s.conn.send(self._state(s.conn, shared=shared))
        spectate.broadcast(self)

    def _send_all(self, msg: dict[str, Any]) -> None:
        """One message to every socket of the table (a chat line; not to a seat that muted its talker)."""
        text = _dumps(msg)
        line = msg.get("line") if msg.get("type") == "chat" else None
        for s in self.seats:
            if s.conn is not None and not (isinstance(line, dict) and self.chat.muted(s.index, line)):
                s.conn.send(text)
        spectate.notify(self, text)

    async def _system(self, text: str) -> None:
        """A line of the table's own in the chat (joins, leaves, bot take-overs); none while the
        table stops (the sockets it closes leave, and the store may be closing)."""
        if self._stopping:
            return
        msg = await self.chat.add("system", None, "", text)
        self._send_all(msg)
        await self._publish("chat", m=msg)

    async def _say(self, conn: Connection, msg: ChatMessage) -> None:
        """A person's chat line, to everyone at the table (kept in the store first)."""
        refused = self.chat.refusal(conn, spectator=False)
        if refused is not None:
            conn.error(*refused)
            return
        text = clean_line(msg.text)
        if not text:
            conn.error("malformed", "an empty chat line")
            return
        if not self.chat.allow(f"seat{conn.seat}"):
            conn.error("chat_limited", "too many chat lines: wait a moment")
            return
        async with self.lock:
            line = await self.chat.add("say", conn.seat, self.names[conn.seat], text)
            self._send_all(line)
            await self._publish("chat", m=line)

    def _notify_seats(self) -> None:
        """Tell every socket the seats changed (``lobby`` before the start, ``table`` after)."""
        info = _dumps(self.info())
        text = '{"type":"' + ("lobby" if self.status == "waiting" else "table") + '","table":' + info + "}"
        for s in self.seats:
            if s.conn is not None:
                s.conn.send(text)
                s.conn.last_table = info
        spectate.notify(self, text)

    # ------------------------------------------------------------------ sockets
    async def connect(self, ws: WebSocket | None, seat: Seat) -> Connection:
        """A new socket for ``seat`` (an older one is closed); it gets ``hello`` first."""
        conn = Connection.of(ws, seat.index, self.settings)
        async with self.lock:
            if self.bus is not None:
                await self._refresh_locked()  # the replica as the store has it, before hello
                await self.chat.load_mutes(seat.index)  # muted maybe at another worker
            old = seat.conn
            seat.conn = conn
            seat.disconnected_at = None
            seat.auto = False  # a person who comes back takes the seat back
            self.pacing.forget(seat.index)  # its client says again what it wants
            if old is not None:
                old.close("replaced by a newer connection of this seat")
            conn.send(self._state(conn, "hello"))
            conn.send(self.chat.log_message(seat.index))
            self._notify_seats()
            if old is None:
                await self._publish("conn", s=seat.index, on=True)
            if old is None and seat.kind == "human":
                back = seat.index in self.seen
                self.seen.add(seat.index)
                self.chat.announced.discard(seat.index)
                await self._system(f"{self.names[seat.index]} {'is back' if back else 'joined the table'}.")
        self.wake.set()
        return conn

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            seat = self.seats[conn.seat]
            if seat.conn is conn:
                seat.conn = None
                self.touched = asyncio.get_running_loop().time()
                if not seat.present:  # (a socket of it at another worker keeps it connected)
                    seat.disconnected_at = self.touched
                if self.pacing.refresh(self, self.touched):
                    self._broadcast()  # the deal-end pause waited for this seat only
                self._notify_seats()
                await self._publish("conn", s=seat.index, on=False)
                await self._system(f"{self.names[seat.index]} left the table.")
        self.wake.set()

    async def receive(self, conn: Connection, text: str | bytes) -> None:
        """Handle one client message admitted by :meth:`Connection.admit` (:func:`run_socket`);
        every refusal is an ``error`` to this socket only."""
        try:
            msg = parse_client_message(text)
        except ProtocolError as exc:
            conn.error(exc.code, exc.reason)
            return
        if isinstance(msg, PingMessage):
            conn.send({"type": "pong"})
            return
        if isinstance(msg, HintMessage):
            # computed off the event loop, and without holding up this socket's next messages
            task = asyncio.create_task(self._hint(conn, msg))
            self._hint_tasks.add(task)
            task.add_done_callback(self._hint_tasks.discard)
            return
        if isinstance(msg, AutoplayMessage):
            async with self.lock:
                seat = self.seats[conn.seat]
                if seat.auto != msg.on:
                    who = self.names[seat.index]
                    await self._system(f"A bot plays for {who}." if msg.on else f"{who} plays again.")
                seat.auto = msg.on
                await self._publish("auto", s=seat.index, on=msg.on)
                if self.pacing.refresh(self, asyncio.get_running_loop().time()):
                    self._broadcast()
                self._notify_seats()
            self.wake.set()
            return
        if isinstance(msg, (ContinueMessage, PrefsMessage)):
            await self._pace(conn, msg)
            return
        if isinstance(msg, ChatMessage):
            await self._say(conn, msg)
            return
        if isinstance(msg, MuteMessage):  # kept for the seat (server/chat.py); its chat again, filtered
            async with self.lock:
                if not await self.chat.mute(conn.seat, msg.who, msg.on):
                    conn.error("malformed", "too many people muted")
                conn.send(self.chat.log_message(conn.seat))
            return
        async with self.lock:
            for attempt in range(8):
                try:
                    if isinstance(msg, (ActMessage, MeldMessage)) and self.pacing.hold is not None:
                        raise ProtocolError("paused", "the table waits until everyone has read the deal's scores")
                    if isinstance(msg, ActMessage):
                        await self._act(conn, msg)
                    elif isinstance(msg, MeldMessage):
                        await self._meld(conn, msg)
                    elif isinstance(msg, CheckMessage):
                        self._check(conn, msg)
                except ProtocolError as exc:
                    conn.error(exc.code, exc.reason)
                except Conflict:
                    # another worker wrote this seq first: catch up from the log and validate the
                    # message again on the replica as it now is (stale, or still legal)
                    if attempt == 7:
                        raise
                    await self._refresh_locked(seats=False)
                    continue
                break

    async def _pace(self, conn: Connection, msg: ContinueMessage | PrefsMessage) -> None:
        """``continue`` (done reading the deal's end) or ``prefs`` (server/pacing.py)."""
        async with self.lock:
            now = asyncio.get_running_loop().time()
            if isinstance(msg, PrefsMessage):
                self.pacing.set_prefs(conn.seat, msg.buy, msg.wish, msg.pause)
                await self._publish("prefs", s=conn.seat, buy=msg.buy, wish=list(msg.wish), pause=msg.pause)
                if self.pacing.refresh(self, now):  # a client that shows no deal-end screen: not waited for
                    self._broadcast()
                elif self.game is not None:
                    conn.send(self._state(conn))  # its auto_buy may have changed
            else:
                await self._publish("cont", s=conn.seat)
                if self.pacing.go_on(self, conn.seat, now) or self.pacing.hold is not None:
                    self._broadcast()  # who is still reading (or play goes on)
        self.wake.set()

    def _playing(self) -> Game:
        g = self.game
        if g is None:
            raise ProtocolError("not_started", "the game has not started yet")
        if g.is_over:
            raise ProtocolError("game_over", "the game is over")
        return g

    async def _act(self, conn: Connection, msg: ActMessage) -> None:
        seat = self.seats[conn.seat]
        key = f"act:{msg.version}:{msg.action}"  # the client's id of this choice (kept in the log)
        if key in seat.applied:  # a duplicate of an applied message: the current state, nothing applied
            conn.send(self._state(conn))
            return
        g = self._playing()
        match = _ACTION_ID.match(msg.action)
        index = int(match.group(1)) if match else -1
        action: Action | None = None
        if msg.version == g.version:
            legal = g.legal_actions(seat.index)
            if not legal:
                raise ProtocolError("not_your_turn", f"it is not your turn ({self.names[g.current]} is playing)")
            if not 0 <= index < len(legal):
                raise ProtocolError("not_in_list", f"{msg.action!r} is not in the list of version {g.version}")
            action = legal[index]
        else:
            # only buys and passes of other seats came since that version (they are serialized
            # here and resolved by the engine): the choice still counts if it is still legal
            listed = conn.sent.get(msg.version)
            if listed is not None and msg.version >= self._stable_from and 0 <= index < len(listed):
                sent = listed[index]
                action = next((a for a in g.legal_actions(seat.index) if a == sent), None)
            if action is None:
                raise ProtocolError(
                    "stale", f"version {msg.version} is not the current one ({g.version}): choose from the new list"
                )
        await self._commit(seat.index, action, "person", listed=True, client_id=key)
        seat.applied.append(key)

    async def _meld(self, conn: Connection, msg: MeldMessage) -> None:
        seat = self.seats[conn.seat]
        cards_id = hashlib.sha256(",".join(c.upper() for c in msg.cards).encode()).hexdigest()[:24]
        key = f"meld:{msg.version}:{msg.kind}:{cards_id}"
        if key in seat.applied:
            conn.send(self._state(conn))
            return
        g = self._playing()
        if msg.version != g.version:
            raise ProtocolError("stale", f"version {msg.version} is not the current one ({g.version})")
        try:
            cards = tuple(parse_cards(msg.cards))
        except ValueError as exc:
            raise ProtocolError("malformed", f"bad card: {exc}") from None
        if not g.legal_actions(seat.index):
            raise ProtocolError("not_your_turn", f"it is not your turn ({self.names[g.current]} is playing)")
        action = Meld(seat.index, msg.kind, cards)
        try:
            g.verify(action)
        except IllegalAction as exc:
            raise ProtocolError("illegal", f"this {msg.kind} cannot be laid: {exc}") from None
        await self._commit(seat.index, action, "person", listed=False, client_id=key)
        seat.applied.append(key)

    def hints_left(self, seat: Seat) -> int | None:
        """Hints ``seat`` may still ask for in this deal (None: no limit)."""
        if self.hint_limit is None:
            return None
        g = self.game
        used = seat.hints_used if g is not None and seat.hints_deal == g.deal else 0
        return max(0, self.hint_limit - used)

    async def _hint(self, conn: Connection, msg: HintMessage) -> None:
        """A hint for ``conn``'s seat at ``msg.version``: from that seat's view and legal list
        only, computed in a worker process, sent to that socket only. The count of the deal is
        taken when the hint is asked for and given back when it cannot be answered.

        A decision is the same over versions that differ only by other seats' buys and passes
        (as for ``act``): a hint asked for an earlier such version is made for the current one,
        and one made before such versions is answered for the current version when its action is
        still legal."""
        seat = self.seats[conn.seat]
        try:
            async with self.lock:
                g = self._playing()
                if self.hint_limit == 0:
                    raise ProtocolError("hints_off", "hints are off at this table")
                decision = self._stable_from
                if not decision <= msg.version <= g.version:
                    raise ProtocolError(
                        "stale", f"version {msg.version} is not the current one ({g.version}): ask again"
                    )
                legal = g.legal_actions(seat.index)
                if not legal:
                    raise ProtocolError(
                        "not_your_decision", f"there is no decision of yours now ({self.names[g.current]} is playing)"
                    )
                if seat.last_hint is not None and seat.last_hint[0] == decision and seat.last_hint[1] in legal:
                    # asked again for the same decision: the same hint, not counted twice
                    conn.send(self._hint_message(seat.last_hint[1], seat.last_hint[2], legal, seat))
                    return
                if seat.hint_pending == decision:
                    return  # being computed: the answer goes to this seat's socket
                left = self.hints_left(seat)
                if left == 0:
                    raise ProtocolError("no_hints_left", f"no hints left in this deal (the table allows {self.hints})")
                deal = g.deal
                before = (seat.hints_deal, seat.hints_used)
                if self.bus is not None:  # several workers: the store counts, whoever asked where
                    taken = await self.store.take_hint(self.id, seat.index, deal, self.hint_limit)
                    if taken is None:
                        seat.hints_deal, seat.hints_used = deal, self.hint_limit or 0
                        raise ProtocolError(
                            "no_hints_left", f"no hints left in this deal (the table allows {self.hints})"
                        )
                    seat.hints_deal, seat.hints_used = taken
                else:
                    seat.hints_used = (seat.hints_used if seat.hints_deal == deal else 0) + 1
                    seat.hints_deal = deal
                seat.hint_pending = decision
                view = g.view(seat.index)
            settings = self.settings
            try:
                found = await self.host.hint_workers.run(
                    hint_answer, view, legal, settings.hint_samples, settings.analysis_seed, list(self.names)
                )
            except Exception:
                log.exception("table %s: the hint of seat %d failed", self.id, seat.index)
                found = None
            async with self.lock:
                if seat.hint_pending == decision:
                    seat.hint_pending = None
                action = None if found is None else legal[found["index"]]
                now_legal = g.legal_actions(seat.index) if self.game is g and not g.is_over else []
                if found is None or action is None or self._stable_from != decision or action not in now_legal:
                    seat.hints_deal, seat.hints_used = before  # not answered: not counted
                    if self.bus is not None:
                        await self.store.give_back_hint(self.id, seat.index, deal)
                        await self._publish("hints", s=seat.index, d=deal)
                    if found is None:
                        raise ProtocolError("hint_failed", "the hint could not be computed; ask again")
                    raise ProtocolError("stale", f"the game moved on (version {g.version}) before the hint was ready")
                last = (decision, action, found)  # kept with the count: asked again, not counted again
                if self.bus is None:
                    await self.store.update_seat(
                        self.id,
                        seat.index,
                        hints_deal=seat.hints_deal,
                        hints_used=seat.hints_used,
                        **last_hint_to_store(last),
                    )
                else:  # counted in the store already: the other workers read it again
                    await self.store.update_seat(self.id, seat.index, **last_hint_to_store(last))
                    await self._publish("hints", s=seat.index, d=deal)
                seat.last_hint = last
                conn.send(self._hint_message(action, found, now_legal, seat))
        except ProtocolError as exc:
            conn.error(exc.code, exc.reason)

    def _hint_message(self, action: Action, found: dict[str, Any], legal: list[Action], seat: Seat) -> dict[str, Any]:
        """The ``hint`` message: the suggested action by its id in ``legal`` (the current list)."""
        g = self.game
        assert g is not None
        return {
            "type": "hint",
            "version": g.version,
            "action": f"a{legal.index(action)}",
            "text": found["text"],
            "cards": found["cards"],
            "left": self.hints_left(seat),
        }

    def _check(self, conn: Connection, msg: CheckMessage) -> None:
        g = self.game
        reason: str | None = None
        if g is None or g.is_over:
            reason = "the game is not being played"
        else:
            trial = g.copy()
            try:
                for m in msg.melds:
                    action = Meld(conn.seat, m.kind, tuple(parse_cards(m.cards)))
                    trial.verify(action)
                    trial.apply(action)
            except IllegalAction as exc:
                reason = str(exc)
            except ValueError as exc:
                reason = f"bad card: {exc}"
        conn.send({"type": "check_result", "id": msg.id, "ok": reason is None, "reason": reason})

    # ------------------------------------------------------------------ applying
    async def _commit(self, seat: int, action: Action, source: str, listed: bool, client_id: str | None = None) -> None:
        """Verify, apply, log (committed; with the result when it ends the game), broadcast. Call
        with the lock held. A failed commit leaves the game as it was before the action
        (:class:`.store.Conflict`: another worker wrote this seq first)."""
        g = self.game
        assert g is not None
        if not listed:
            g.verify(action)
        before = len(g.events)
        prev = (g.current, g.phase)
        deal_before = g.deal
        idx = g.version
        g.apply(action)  # in memory first, to know whether it ends the game; nobody sees it before the commit
        finish = None
        also = None
        if g.is_over:
            # the last action and the published result ("over", scores, winners): one transaction
            finish = {"status": "over", "finished_at": time.time(), "scores": g.scores, "winners": g.winners}
            # and the players' pages and ratings (issue 26), in that same transaction
            from .ratings import finished_game, finished_job  # (ratings -> accounts -> this module)

            also = finished_job(finished_game(self, g))
        try:
            # as the engine applied it (a set lay-off in the listed spelling: docs/engine.md)
            await self.store.append(
                self.id, idx, seat, g.actions[idx].to_dict(), source, finish=finish, also=also, client_id=client_id
            )
        except Exception:
            # not committed: the game as it was before this action (rebuilt from its log)
            record = g.record()
            record["actions"] = record["actions"][:-1]
            self.game = Game.from_record(record)
            self._events_json = self._events_json[: len(self.game.events)]
            raise
        self._after_apply(action, before, prev, deal_before)
        if g.is_over and self.bus is not None:
            await self.bus.release(self.id)

    def _after_apply(self, action: Action, before: int, prev: tuple[int, str], deal_before: int) -> None:
        """What follows an action committed (here, or by another worker): the timers, the last
        move in words, the deal-end pause, the status, a ``state`` to every socket."""
        g = self.game
        assert g is not None
        self.actions_applied += 1
        now = asyncio.get_running_loop().time()
        self._changed_at = now
        if (g.current, g.phase) != prev or action.player == g.current:
            self._decision_at = now
        if not isinstance(action, (Buy, Pass)):
            self._stable_from = g.version
            if not (g.phase == PLAY and g.fresh):
                # a new window (a discard) or none; a stock draw or a meld under
                # buy_window="until_discard" leaves the window open since the discard: it keeps its time
                self._window_at = now
        names = self.names
        text = next((t for e in g.events[before:] if (t := describe_event(e, names))), "")
        if not text:  # bookkeeping the log leaves out (a pass in a buy window): still say what it was
            text = f"{names[action.player]} passed" if isinstance(action, Pass) else f"{names[action.player]} played"
        self._last = {"seat": action.player, "text": text}
        self.pacing.after_commit(self, deal_before, now)
        if g.is_over:
            self.status = "over"
            self.touched = now
        self._broadcast()
        self.wake.set()

    # ------------------------------------------------------------------ bots
    def _stand_in(self, s: Seat, now: float) -> bool:
        """True when a bot plays for this person now (autoplay, or the grace period is over)."""
        return s.kind == "human" and (
            s.auto or (s.disconnected_at is not None and now - s.disconnected_at >= self.settings.grace)
        )

    def _bot_controls(self, seat: int, now: float) -> bool:
        """True when the server makes this seat's decision now: a bot, or a person's buy choice."""
        s = self.seats[seat]
        return s.kind == "bot" or self._stand_in(s, now) or self.pacing.auto(self, seat) is not None

    def _takeover_at(self, seat: int) -> float | None:
        """When a bot steps in for this person's decision: grace over, or the turn timer."""
        s = self.seats[seat]
        times = []
        if s.disconnected_at is not None:
            times.append(s.disconnected_at + self.settings.grace)
        if self.timer is not None:
            times.append(self._decision_at + self.timer)
        return min(times) if times else None

    def _plan(self, now: float) -> tuple[int, float] | None:
        """The next bot move: (seat, loop time to make it), or None to wait for a person."""
        g = self.game
        if g is None or g.is_over or self.pacing.hold is not None:
            return None
        seat, _ = next_to_act(g)
        out_of_turn = seat != g.current
        if self._bot_controls(seat, now):
            return seat, self._changed_at + (0.0 if out_of_turn else self.bot_delay)
        if out_of_turn:
            # a person may still buy or call: bots answer their own chances meanwhile ...
            for step in range(1, self.players):
                q = (g.current + step) % self.players
                if q != seat and self._bot_controls(q, now) and g.legal_actions(q):
                    return q, self._changed_at
            # ... and a bot about to draw waits for the buy window (once per turn: counted from the
            # discard that opened it); under buy_window="until_discard" the bot plays its stock draw,
            # melds and lay-offs meanwhile, and only a move that closes the window (taking the
            # discard, its own discard) waits for it
            if self._bot_controls(g.current, now):
                soonest = self._changed_at + self.bot_delay
                if g.phase == _DRAW and not self.rules.buys_after_draw:
                    return g.current, max(self._window_at + self._buy_window_wait(), soonest)
                held = self._held
                if held is not None and held[0] == g.version and held[1] == g.current:
                    return g.current, max(held[3], soonest)
                return g.current, soonest
            seat = g.current
        at = self._takeover_at(seat)
        return None if at is None else (seat, at)

    def _closes_window_early(self, seat: int, action: Action, now: float) -> bool:
        """True when ``action``, the current player's move, would close a buy window that a
        person still has open (``buy_window="until_discard"``) before the window's time passed."""
        g = self.game
        assert g is not None
        if seat != g.current or not self.rules.buys_after_draw or g.phase not in (_DRAW, PLAY) or not g.fresh:
            return False
        if now >= self._window_at + self._buy_window_wait():
            return False
        people = [
            s.index
            for s in self.seats
            if s.index != seat and not self._bot_controls(s.index, now) and g.legal_actions(s.index)
        ]
        if not people:
            return False
        trial = g.copy()
        trial.apply(action)
        # closed: the turn ended, or a person's buy (or call) is gone (the discard taken, a call
        # window ended by the stock draw)
        return trial.is_over or trial.current != seat or any(not trial.legal_actions(q) for q in people)

    async def _run_pump(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()
            g = self.game
            if g is None or g.is_over:
                return
            if self._driven_elsewhere():  # this worker lost the table's lock: another one drives it
                self._pump = None
                return
            wait = self.pacing.hold_wait(loop.time())
            if wait is not None:  # the deal-end pause: nothing moves until it ends
                away = self.pacing.grace_left(self, loop.time())  # a seat waited for while away
                if wait > 0 and away > 0:
                    wait = min(wait, away + 0.01)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), None if wait == float("inf") else wait)
                    continue
                async with self.lock:
                    now = loop.time()
                    if self.pacing.refresh(self, now):  # its grace is over: no longer waited for
                        self._broadcast()
                        await self._publish("release")  # the other workers run no pump: tell them
                    elif self.pacing.hold_wait(now) == 0:
                        self.pacing.release(self, now)
                        self._broadcast()
                        await self._publish("release")
                continue
            plan = self._plan(loop.time())
            if plan is None:
                await self.wake.wait()
                continue
            seat, at = plan
            delay = at - loop.time()
            if delay > 0:
                try:
                    await asyncio.wait_for(self.wake.wait(), delay)
                    continue  # something changed: plan again
                except TimeoutError:
                    pass
            if self._driven_elsewhere():
                continue  # (stops above)
            try:
                await self._bot_move(seat, g.version)
            except Exception:  # a bot's bug must not stop the table: the seat waits for a person
                log.exception("table %s: the bot of seat %d failed", self.id, seat)
                await asyncio.sleep(1.0)

    def _bot_for(self, seat: int) -> Bot:
        s = self.seats[seat]
        if s.engine_bot is None:
            s.engine_bot = get(self.settings.takeover_bot, seed=self.settings.seeds(f"bot{seat}"))
        return s.engine_bot

    async def _bot_move(self, seat: int, version: int) -> None:
        g = self.game
        assert g is not None
        if g.version != version:
            return
        held = self._held
        auto = self.pacing.auto(self, seat)
        if auto is not None:
            action = auto[0]  # the person's buy choice (server/pacing.py) makes this buy or pass
        elif held is not None and held[:2] == (version, seat):
            action = held[2]  # chosen before, held back until the buy window's time had passed
        else:
            self._held = None
            view = g.view(seat)
            legal = g.legal_actions(seat)
            if not legal:
                return
            bot = self._bot_for(seat)
            if plays_in_process(bot):
                # in a worker process (Settings.bot_workers): a bot thinking, however long, holds
                # neither this event loop nor its interpreter lock, so no other table waits for it
                action, moved = await self.host.bot_workers.run(bot_act, bot, view, legal)
                s = self.seats[seat]
                if s.engine_bot is bot:
                    s.engine_bot = moved  # the bot as the move left it (its random state moved on)
            else:  # a quick bot (well under a millisecond a move): a thread costs less than a process
                action = await asyncio.to_thread(bot.act, view, legal)
        async with self.lock:
            now = asyncio.get_running_loop().time()
            plan = self._plan(now)
            if g.version != version or plan is None or plan[0] != seat:
                return  # a person moved, came back or took the seat meanwhile: plan again
            if self._held is None and self._closes_window_early(seat, action, now):
                # buy_window="until_discard": a person may still buy; the move that ends the
                # window waits for the window's time, counted from the discard that opened it
                self._held = (version, seat, action, self._window_at + self._buy_window_wait())
                self.wake.set()
                return
            self._held = None
            source = "auto" if auto is not None else "bot" if self.seats[seat].kind == "bot" else "stand-in"
            if source == "stand-in" and not self.seats[seat].auto and seat not in self.chat.announced:
                self.chat.announced.add(seat)
                await self._system(f"A bot plays for {self.names[seat]} while they are away.")
            try:
                await self._commit(seat, action, source, listed=False)
            except Conflict:  # a person's move at another worker came first: plan again
                await self._refresh_locked(seats=False)

    # ------------------------------------------------------------------ the whole socket
    async def serve(self, ws: WebSocket, seat: Seat) -> None:
        """Run one accepted socket of ``seat`` to its end."""
        conn = await self.connect(ws, seat)
        conn.ws = ws
        try:
            await run_socket(ws, conn, lambda text: self.receive(conn, text))
        finally:
            await self.disconnect(conn)


async def run_socket(ws: WebSocket, conn: Connection, handle: Callable[[str], Awaitable[None]]) -> None:
    """The loop of one accepted socket, a seat's or a spectator's (server/spectate.py): a writer
    task sends ``conn``'s queue in order (None: close with its code and reason), the reader hands
    each message's text admitted by :meth:`Connection.admit` (the rate limit and flood control,
    one path for seats and spectators alike) to ``handle`` until the client leaves or the writer
    ends. A client that
    went away (a disconnect, a send that fails) ends it quietly; any other error is a bug and is
    raised (uvicorn logs it and closes the socket with 1011)."""
    from fastapi import WebSocketDisconnect

    async def writer() -> None:
        try:
            while True:
                text = await conn.queue.get()
                if text is None:
                    await ws.close(code=conn.close_code, reason=(conn.close_reason or "")[:120])
                    return
                await ws.send_text(text)
        except Exception:  # the client went away: the reader sees it too
            return

    write_task = asyncio.create_task(writer())
    try:
        while True:
            receive = asyncio.create_task(ws.receive())
            done, _ = await asyncio.wait({receive, write_task}, return_when=asyncio.FIRST_COMPLETED)
            if write_task in done:
                receive.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await receive
                break
            message = receive.result()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                text = data.decode("utf-8", errors="replace")
            if conn.admit():
                await handle(text)
    except WebSocketDisconnect:
        pass
    finally:
        if not write_task.done():
            write_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await write_task

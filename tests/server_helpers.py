"""Helpers of the server tests: settings for tests, a socket wrapper with a receive timeout, a
table of four people driven by the test next to a shadow game, the policy that makes a game
go through every kind of action, and a real server on a free 127.0.0.1 port (``liverpool serve``
in a subprocess, or uvicorn in a thread of the test)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("fastapi")

from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from liverpool import Game, action_from_dict
from liverpool.actions import Action, Buy, Call, Discard, DrawStock, LayOff, Meld, Pass, SwapJoker
from liverpool.bots import Bot, get
from liverpool.describe import worded
from liverpool.driver import next_to_act
from liverpool.game import DRAW
from liverpool.server import Settings, create_app
from pg_helpers import DATABASES

Msg = dict[str, Any]


def seeds_from(game_seed: int) -> Callable[[str], int]:
    """Seeds as the tests fix them: the game's, and seat k's bot gets seed k."""

    def seeds(purpose: str) -> int:
        return game_seed if purpose == "game" else int(purpose.removeprefix("bot"))

    return seeds


def database_for(tmp_path: Path) -> str:
    """The store URL of a test's folder: SQLite ``liverpool.db`` in it, or (the PostgreSQL runs of
    the server suite) a database of the test cluster made for the folder."""
    factory = DATABASES.get("url")
    return factory(tmp_path) if factory is not None else f"sqlite:///{tmp_path / 'liverpool.db'}"


def server_settings(tmp_path: Path, game_seed: int = 1, **options: Any) -> Settings:
    base: dict[str, Any] = {
        "database": database_for(tmp_path),
        "bot_delay": 0.0,
        "buy_window": 0.0,
        "grace": 3600.0,
        "rate": 100_000.0,
        "burst": 100_000,
        "rest_rate": 100_000.0,
        "rest_burst": 100_000,
        "get_rate": 100_000.0,
        "get_burst": 100_000,
        "heavy_rate": 100_000.0,
        "heavy_burst": 100_000,
        "max_waiting": 100_000,
        "max_waiting_per_address": 100_000,
        "seeds": seeds_from(game_seed),
        "warm_hints": False,  # no hint worker process for every table of the tests
        "bot_workers": 0,  # bots and replays in a thread (tests/server/test_server_offloop.py: processes)
        "replay_workers": 0,
    }
    if str(base["database"]).startswith("postgresql"):
        # the PostgreSQL leg of the suite: the app is one worker of several on a shared store
        # (server/bus.py: replicas, the log's conflicts, LISTEN/NOTIFY, the driving advisory lock)
        base["shared"] = True
    return Settings(**(base | options))


def normal(data: Any) -> Any:
    """``data`` as it reads after a trip through JSON."""
    return json.loads(json.dumps(data))


def as_sent(view: dict[str, Any]) -> Any:
    """A seat's view as the server sends it: ``normal``, each event with its words (``text``,
    ``liverpool.describe.worded``; docs/protocol.md)."""
    return normal(view | {"events": worded(view["events"])})


def rebuild(view: Msg | None, log: list[Msg], msg: Msg) -> tuple[Msg | None, list[Msg]]:
    """A client's side of protocol 3 (docs/protocol.md): the seat's whole view and the event log
    after ``msg``, from those after the messages before it. ``hello`` brings the whole view and
    every event so far; a ``state`` the view's changed keys (merged in) and the new events, this
    deal's events being the log from ``deal_events_from`` on."""
    if msg["type"] == "hello":
        return (None if msg["view"] is None else dict(msg["view"])), list(msg["events"])
    log = log + msg["events"]
    whole = dict(view or {}) | msg["view"]
    whole["events"] = log[msg["deal_events_from"] :]
    return whole, log


class Sock:
    """A test socket: every message received is kept as sent (``log``); ``recv`` answers the
    ``hello``/``state`` messages with the whole view rebuilt from the deltas (:func:`rebuild`);
    ``state`` is the last such message."""

    def __init__(self, ws: WebSocketTestSession, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.log: list[Msg] = []
        self.state: Msg | None = None
        self.view: Msg | None = None
        self.events: list[Msg] = []

    def recv(self, timeout: float = 30.0) -> Msg:
        stream = self.ws._send_rx

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        message = self.ws.portal.call(receive)
        if message["type"] == "websocket.close":
            msg: Msg = {"type": "closed", "code": message.get("code"), "reason": message.get("reason")}
        else:
            msg = json.loads(message["text"])
        self.log.append(msg)
        if msg["type"] in ("hello", "state"):
            self.view, self.events = rebuild(self.view, self.events, msg)
            msg = msg | {"view": self.view}
            self.state = msg
        return msg

    def until(self, pred: Callable[[Msg], bool], timeout: float = 30.0) -> Msg:
        while True:
            msg = self.recv(timeout)
            if pred(msg):
                return msg
            if msg["type"] == "closed":
                raise AssertionError(f"seat {self.seat}: socket closed: {msg}")

    def expect(self, kind: str) -> Msg:
        """The next message other than lobby/table notices and chat lines; it must be of ``kind``."""
        msg = self.until(lambda m: m["type"] not in ("lobby", "table", "chat", "chat_log"))
        assert msg["type"] == kind, msg
        return msg

    def sync(self, version: int) -> Msg:
        """Read until the state of ``version``."""
        return self.until(lambda m: m["type"] in ("hello", "state") and m["version"] == version)

    def send(self, data: Msg) -> None:
        self.ws.send_json(data)

    def act(self, action: Action) -> None:
        """Choose ``action`` from the legal list of the last state received."""
        assert self.state is not None
        self.send({"type": "act", "version": self.state["version"], "action": self.action_id(action)})

    def action_id(self, action: Action) -> str:
        assert self.state is not None
        for entry in self.state["legal"]:  # engine equality: a Buy built without its card is the listed one
            if action_from_dict(entry["action"]) == action:
                return str(entry["id"])
        raise AssertionError(f"{action} not in the legal list of seat {self.seat}: {self.state['legal']}")


def connect(client: TestClient, table_id: str, token: str, seat: int, stack: ExitStack) -> Sock:
    ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
    ws.send_json({"type": "auth", "token": token})  # protocol 3: the token is the first message
    return Sock(ws, seat)


class Harness:
    """A table of ``players`` people, all played by the test through one socket each, and a
    shadow game (same seed) that the test applies the same actions to."""

    def __init__(self, client: TestClient, stack: ExitStack, game_seed: int, players: int = 4, **table: Any) -> None:
        self.client = client
        self.stack = stack
        created = client.post("/api/tables", json={"players": players, "name": "Ana", **table})
        assert created.status_code == 200, created.text
        self.table_id = created.json()["table_id"]
        self.tokens = [created.json()["token"]]
        for name in ["Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][: players - 1]:
            joined = client.post(f"/api/tables/{self.table_id}/join", json={"name": name})
            assert joined.status_code == 200, joined.text
            self.tokens.append(joined.json()["token"])
        self.socks = [connect(client, self.table_id, t, i, stack) for i, t in enumerate(self.tokens)]
        for s in self.socks:
            hello = s.expect("hello")
            assert hello["view"] is None and hello["protocol"] == 3
        started = client.post(f"/api/tables/{self.table_id}/start", headers={"X-Seat-Token": self.tokens[0]})
        assert started.status_code == 200, started.text
        from liverpool.rules import RuleSet

        self.game = Game.new(players=players, rules=RuleSet.preset(table.get("preset", "liverpool")), seed=game_seed)
        self.sync()

    @classmethod
    def resume(cls, client: TestClient, stack: ExitStack, table_id: str, tokens: list[str], game: Game) -> Harness:
        """The test's side of a table already playing (e.g. after a restart of the server)."""
        self = cls.__new__(cls)
        self.client, self.stack, self.table_id, self.tokens, self.game = client, stack, table_id, tokens, game
        self.socks = [connect(client, table_id, t, i, stack) for i, t in enumerate(tokens)]
        for s in self.socks:
            hello = s.expect("hello")
            assert hello["version"] == game.version and hello["view"] == as_sent(game.view(s.seat))
        return self

    def sync(self) -> None:
        """Every socket reads up to the shadow's version; their views are the shadow's views."""
        for s in self.socks:
            msg = s.sync(self.game.version)
            assert msg["view"] == as_sent(self.game.view(s.seat))
            assert [e["action"] for e in msg["legal"]] == normal([a.to_dict() for a in self.game.legal_actions(s.seat)])

    def play(self, action: Action) -> None:
        """One action through its seat's socket, then everyone synced."""
        self.socks[action.player].act(action)
        self.game.apply(action)
        self.sync()

    def reconnect(self, seat: int) -> Sock:
        self.socks[seat].ws.close()
        sock = connect(self.client, self.table_id, self.tokens[seat], seat, self.stack)
        self.socks[seat] = sock
        return sock


# ------------------------------------------------------------------------ the coverage policy
WANTED = ("draw_stock", "draw_discard", "buy2", "meld", "lay_off", "swap", "call", "discard", "out")


def covered_by(events: list[Msg]) -> set[str]:
    out = set()
    for e in events:
        kind = e["type"]
        if kind in ("draw_stock", "draw_discard", "meld", "lay_off", "swap", "call", "discard"):
            out.add(kind)
        if kind == "deal_end" and e.get("out") is not None:
            out.add("out")
    return out


def policy(game: Game, bots: list[Bot], covered: set[str]) -> list[Action]:
    """The next actions: a kind of action not yet seen when one is open (two buys at once in one
    buy window), else the greedy bot's choice of the seat to act."""
    seat, legal = next_to_act(game)
    if game.phase == DRAW and "buy2" not in covered:
        buyers = [q for q in range(game.players) if Buy(q) in game.legal_actions(q)]
        if len(buyers) >= 2:
            return [Buy(buyers[0]), Buy(buyers[1])]
    for kind in (SwapJoker, Call, LayOff, Meld):
        if kind.name not in covered:
            chosen = [a for a in legal if isinstance(a, kind)]
            if chosen:
                return [chosen[0]]
    if game.phase == DRAW and seat != game.current and "buy2" not in covered and Pass(seat) in legal:
        return [Pass(seat)]  # keep the discard for a double buy later
    if "call" not in covered and game.phase == "play" and game.view(seat)["down"][seat]:
        playable = [a for a in legal if isinstance(a, Discard) and game.layoff_spot(a.card) is not None]
        if playable and len(game.hand(seat)) > 1:
            return [playable[0]]  # a down player's playable discard: the next seat may call it
    if "draw_stock" not in covered and DrawStock(seat) in legal:
        return [DrawStock(seat)]
    action = bots[seat].act(game.view(seat), legal)
    return [action]


def coverage_bots(players: int) -> list[Bot]:
    return [get("greedy", seed=p) for p in range(players)]


def find_coverage_seed(players: int = 4, tries: int = 60) -> int:
    """A game seed under which :func:`policy` goes through every kind of action (engine only)."""
    for seed in range(1, tries + 1):
        game = Game.new(players=players, seed=seed)
        bots = coverage_bots(players)
        covered: set[str] = set()
        for _ in range(20_000):
            if game.is_over or covered >= set(WANTED):
                break
            step = policy(game, bots, covered)
            before = len(game.events)
            for a in step:
                game.apply(a)
            covered |= covered_by(game.events[before:])
            if len(step) == 2:
                covered.add("buy2")
        if covered >= set(WANTED):
            return seed
    raise AssertionError("no seed covers every kind of action")


@contextmanager
def running(settings: Settings) -> Iterator[tuple[TestClient, ExitStack]]:
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        yield client, stack


def autoplay_to_end(
    client: TestClient, table_id: str, tokens: list[str], stack: ExitStack, timeout: float
) -> list[Sock]:
    """Every seat of ``tokens`` (seat i holds token i) connected and played by its bot (autoplay)
    from the start to the end of the game; their sockets, still open, with what they received."""
    socks = [connect(client, table_id, t, i, stack) for i, t in enumerate(tokens)]
    for s in socks:
        s.expect("hello")
        s.send({"type": "autoplay", "on": True})
    client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": tokens[0]})
    for s in socks:
        s.until(lambda m: m["type"] == "state" and m["view"]["is_over"], timeout=timeout)
    return socks


def downgrade_store(db: Path, revision: str) -> None:
    """Take the SQLite store at ``db`` down to the Alembic ``revision`` (as an older server left
    it); the next server start migrates it up again."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from liverpool.server.store import _MIGRATIONS

    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(_MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
    engine.dispose()


__all__ = [
    "DATABASES",
    "LIVERPOOL",
    "SERVER_WAIT",
    "WANTED",
    "Discard",
    "Harness",
    "Served",
    "Sock",
    "autoplay_to_end",
    "connect",
    "coverage_bots",
    "covered_by",
    "database_for",
    "downgrade_store",
    "find_coverage_seed",
    "free_port",
    "listening",
    "liverpool_serve",
    "normal",
    "policy",
    "rebuild",
    "running",
    "seeds_from",
    "server_settings",
    "uvicorn_thread",
]


# ------------------------------------------------------------------------------ a real server
LIVERPOOL = [sys.executable, "-c", "import sys; from liverpool.cli import main; sys.exit(main())"]
"""The ``liverpool`` command, run by this interpreter (so the tests' checkout of the package)."""
SERVER_WAIT = 120.0
"""An upper bound on waiting for a server to start or stop, never a measured time."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now (the OS's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    """True when something accepts connections on 127.0.0.1:``port``."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Served:
    """A running server: its port (on 127.0.0.1) and, for ``liverpool serve``, its process and
    the file its stdout and stderr go to."""

    port: int
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def output(self) -> str:
        """What the process wrote so far (stdout and stderr)."""
        return self.log.read_text(errors="replace") if self.log is not None and self.log.exists() else ""


@contextmanager
def liverpool_serve(
    tmp_path: Path,
    *args: str,
    database: str | None = None,
    log_level: str | None = "warning",
    log: Path | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[Served]:
    """``liverpool serve`` in a subprocess on a free port, on this test's store
    (:func:`database_for`, SQLite or the PostgreSQL run's database, unless ``database``), with
    ``args`` besides; yields once its socket accepts connections (uvicorn listens once the app
    started), and stops it with SIGINT (SIGKILL after :data:`SERVER_WAIT`) unless it ended.
    ``log_level`` None: the default (info, the access log on). Its stdout and stderr go to
    ``log`` (default: a file in ``tmp_path``)."""
    port = free_port()
    log = log if log is not None else tmp_path / f"serve-{port}.log"
    cmd = [*LIVERPOOL, "serve", "--port", str(port), "--database", database or database_for(tmp_path)]
    cmd += ["--log-level", log_level] if log_level is not None else []
    environ = os.environ | (env or {}) | {"PYTHONUNBUFFERED": "1"}
    with log.open("ab") as out:
        proc = subprocess.Popen([*cmd, *args], stdout=out, stderr=subprocess.STDOUT, env=environ)
    served = Served(port, proc, log)
    try:
        deadline = time.monotonic() + SERVER_WAIT
        while not listening(port):
            assert proc.poll() is None, f"the server stopped ({proc.returncode}): {served.output()[-3000:]}"
            assert time.monotonic() < deadline, f"the server did not start: {served.output()[-3000:]}"
            time.sleep(0.05)
        yield served
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=SERVER_WAIT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def uvicorn_thread(settings: Settings) -> Iterator[tuple[Served, FastAPI]]:
    """The app of ``settings`` served by uvicorn in a thread of this process, on a free port
    (real sockets; the test can reach the app, e.g. ``app.state.lobby()``): (served, app)."""
    import uvicorn

    app = create_app(settings)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + SERVER_WAIT
        while not server.started:
            assert thread.is_alive(), "the server stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield Served(port), app
    finally:
        server.should_exit = True
        thread.join(timeout=SERVER_WAIT)


def head_revision() -> str:
    """The newest Alembic revision of the store's migrations (what a started server's store is at)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from liverpool.server.store import _MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def run_sql(url: str, statement: str, **params: Any) -> list[tuple[Any, ...]]:
    """One SQL statement on the store at ``url`` (SQLite or PostgreSQL), committed: its rows."""
    import asyncio

    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from liverpool.server.store import async_url

    async def run() -> list[tuple[Any, ...]]:
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as c:
                result = await c.execute(sa.text(statement), params)
                return [tuple(r) for r in result.all()] if result.returns_rows else []
        finally:
            await engine.dispose()

    return asyncio.run(run())

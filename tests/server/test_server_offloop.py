"""Nothing heavy on the event loop: a real server (uvicorn on a free 127.0.0.1 port, real
sockets), bots moving in worker processes, finished games' replays made once in a worker and
then sent as kept, and a table evicted from memory replayed from its log in a worker when it is
loaded again. A table's deliberately slow bot, 20 replays asked for at once and a slow rebuild
never hold up the acknowledgement of a person's move at another table."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.sync.client import connect

from liverpool import Game
from liverpool.actions import Action
from liverpool.bots import BOTS, Bot
from liverpool.server import advice
from server_helpers import server_settings, uvicorn_thread

WAIT = 120.0  # an upper bound on waiting, never a measured time
SLOW = 3.0  # seconds the slow bot thinks, burning the CPU in Python (it would hold a loop it ran on)


class SlowBot(Bot):
    """A bot that thinks for :data:`SLOW` seconds of pure-Python work, then plays the first
    legal action (pickled to the bot worker: this module is importable there)."""

    name = "slowpoke"

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        end = time.perf_counter() + SLOW
        n = 0
        while time.perf_counter() < end:
            n += 1
        return legal[0]


def slow_rebuild(record: dict[str, Any]) -> Game:
    """``advice.rebuild_game`` after :data:`SLOW` seconds of pure-Python work (in the replay
    worker: this module is importable there)."""
    end = time.perf_counter() + SLOW
    n = 0
    while time.perf_counter() < end:
        n += 1
    return Game.from_record(record)


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"} | ({"X-Seat-Token": token} if token else {})
    req = urllib.request.Request(f"http://{base}{path}", data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


def _get(base: str, path: str) -> bytes:
    with urllib.request.urlopen(f"http://{base}{path}", timeout=120) as answer:
        data: bytes = answer.read()
        return data


class Seat:
    """A real socket of one seat, with the last state's version and legal list."""

    def __init__(self, base: str, table_id: str, token: str, stack: ExitStack) -> None:
        self.ws = stack.enter_context(connect(f"ws://{base}/ws/tables/{table_id}", max_size=2**24, open_timeout=30))
        self.ws.send(json.dumps({"type": "auth", "token": token}))
        self.version: int | None = None
        self.legal: list[dict[str, Any]] = []
        self.over = False
        self.messages: list[dict[str, Any]] = []
        self.recv()

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg["type"] in ("hello", "state") and msg["version"] is not None:
            self.version, self.legal = msg["version"], msg["legal"]
            self.over = self.over or bool(msg["view"].get("is_over"))
        return msg

    def drain(self) -> None:
        while True:
            try:
                self.recv(timeout=0.01)
            except TimeoutError:
                return

    def until_version_over(self, version: int) -> None:
        while self.version is None or self.version <= version:
            self.recv()


def _two_people(base: str, stack: ExitStack) -> list[Seat]:
    made = _post(base, "/api/tables", {"players": 2, "name": "Ana"})
    joined = _post(base, f"/api/tables/{made['table_id']}/join", {"name": "Bo"})
    seats = [Seat(base, made["table_id"], t, stack) for t in (made["token"], joined["token"])]
    _post(base, f"/api/tables/{made['table_id']}/start", {}, token=made["token"])
    for s in seats:
        while s.version is None:
            s.recv()
    return seats


def _acks(seats: list[Seat], seconds: float) -> list[float]:
    """People's moves at a table for ``seconds``: each move's acknowledgement time (the move
    sent until the state of a newer version is back on the mover's socket)."""
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for s in seats:
            s.drain()
        mover = next((s for s in seats if s.legal), None)
        assert mover is not None and mover.version is not None and not mover.over
        kinds = [e["action"]["type"] for e in mover.legal]
        pick = next((kinds.index(k) for k in ("pass", "draw_stock", "meld", "lay_off") if k in kinds), len(kinds) - 1)
        version = mover.version
        sent = time.perf_counter()
        mover.ws.send(json.dumps({"type": "act", "version": version, "action": mover.legal[pick]["id"]}))
        mover.until_version_over(version)
        times.append(time.perf_counter() - sent)
        for s in seats:
            s.until_version_over(version)
    return times


def test_a_slow_bot_at_one_table_never_delays_acknowledgements_at_another(tmp_path: Path) -> None:
    BOTS[SlowBot.name] = SlowBot
    try:
        settings = server_settings(tmp_path, bot_workers=1, replay_workers=1)
        with uvicorn_thread(settings) as (served, _app), ExitStack() as stack:
            base = served.address
            slow = _post(
                base,
                "/api/tables",
                {"players": 2, "name": "Cy", "seats": [{"kind": "human"}, {"kind": "bot", "bot": SlowBot.name}]},
            )
            watcher = Seat(base, slow["table_id"], slow["token"], stack)
            watcher.ws.send(json.dumps({"type": "autoplay", "on": True}))
            _post(base, f"/api/tables/{slow['table_id']}/start", {}, token=slow["token"])
            people = _two_people(base, stack)

            def slow_moves() -> int:
                return sum(
                    1
                    for m in watcher.messages
                    if m["type"] == "state" and any(e.get("player") == 1 for e in m["events"])
                )

            while slow_moves() == 0:  # the bot worker is up and the slow bot has played once
                watcher.recv()
            watcher.drain()
            before = slow_moves()
            times = _acks(people, 3 * SLOW)
            watcher.drain()
            during = slow_moves() - before
        # the slow bot was thinking meanwhile (its moves came, SLOW seconds each) ...
        assert during >= 1, during
        # ... and no acknowledgement at the other table waited for it (run on the event loop, the
        # bot would hold every acknowledgement meanwhile for up to SLOW seconds)
        assert len(times) >= 10, times
        assert max(times) < SLOW / 2, sorted(times)[-5:]
    finally:
        BOTS.pop(SlowBot.name, None)


def test_twenty_replays_at_once_are_made_once_and_never_stall_a_table(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, bot_workers=1, replay_workers=1)
    with uvicorn_thread(settings) as (served, app), ExitStack() as stack:
        base = served.address
        # a whole game of four seats, every one played by its bot (the stand-in for the person)
        made = _post(
            base,
            "/api/tables",
            {"players": 4, "name": "Di", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "medium"}] * 3},
        )
        seat = Seat(base, made["table_id"], made["token"], stack)
        seat.ws.send(json.dumps({"type": "autoplay", "on": True}))
        _post(base, f"/api/tables/{made['table_id']}/start", {}, token=made["token"])
        while not seat.over:
            seat.recv()
        people = _two_people(base, stack)
        path = f"/api/tables/{made['table_id']}/replay"
        with ThreadPoolExecutor(20) as pool:
            answers = [pool.submit(_get, base, path) for _ in range(20)]
            times = _acks(people, 4.0)
            replays = [a.result(timeout=WAIT) for a in answers]
        lobby = app.state.lobby()
        assert lobby.encodings_made == 1  # made once, in the worker; the others had it as kept
        assert len(set(replays)) == 1 and len(replays[0]) > 100_000
        assert json.loads(replays[0])["frames"][0]["step"] == 0
        assert len(times) >= 5 and max(times) < 1.0, sorted(times)[-5:]


def test_a_slow_rebuild_of_an_evicted_table_never_delays_acknowledgements_at_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = server_settings(tmp_path, bot_workers=1, replay_workers=1, evict_after=0.3)
    with uvicorn_thread(settings) as (served, app), ExitStack() as stack:
        base = served.address
        lobby = app.state.lobby()
        made = _post(
            base,
            "/api/tables",
            {"players": 2, "name": "Di", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]},
        )
        table_id = made["table_id"]
        with ExitStack() as inner:
            seat = Seat(base, table_id, made["token"], inner)
            seat.ws.send(json.dumps({"type": "autoplay", "on": True}))
            _post(base, f"/api/tables/{table_id}/start", {}, token=made["token"])
            while not seat.over:
                seat.recv()
        assert len(_get(base, f"/api/tables/{table_id}/replay")) > 1000  # the replay worker is up
        deadline = time.monotonic() + WAIT
        while table_id in lobby.tables:  # nobody is connected: it leaves memory
            assert time.monotonic() < deadline, "the finished table was not evicted"
            time.sleep(0.05)
        people = _two_people(base, stack)
        monkeypatch.setattr(advice, "rebuild_game", slow_rebuild)
        with ThreadPoolExecutor(1) as pool:
            started = time.perf_counter()
            loading = pool.submit(_get, base, f"/api/tables/{table_id}")  # loads it: rebuilt from its log
            times = _acks(people, SLOW)
            info = json.loads(loading.result(timeout=WAIT))
            took = time.perf_counter() - started
    assert info["status"] == "over" and table_id in lobby.tables
    assert took >= SLOW, took  # the rebuild was slow ...
    # ... and no acknowledgement at the other table waited for it (on the event loop, the replay
    # would hold every acknowledgement meanwhile for SLOW seconds)
    assert len(times) >= 5 and max(times) < SLOW / 2, sorted(times)[-5:]

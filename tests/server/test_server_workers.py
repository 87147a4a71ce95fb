"""Several workers on one PostgreSQL store (server/bus.py), real processes and real sockets.

Two ``liverpool serve --shared`` processes on two ports of one database are two workers that a
test can address one by one (``--workers N`` starts N of them on one port behind uvicorn's
supervisor; tests/server/test_server_chaos.py kills those). A game played by clients connected to
different workers makes one log; a move made at worker A reaches a socket at worker B; a token
handed out by one worker opens its seat at the other; a worker killed with SIGKILL hands its
tables' bots to the other; a resend under the same client id is answered, never applied twice."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from liverpool import Game
from liverpool.server.pgcluster import Cluster

pytestmark = pytest.mark.postgresql_only

LIVERPOOL = [sys.executable, "-c", "import sys; from liverpool.cli import main; sys.exit(main())"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(database: str, port: int, log: Path, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [*LIVERPOOL, "serve", "--port", str(port), "--database", database, "--buy-window", "0", *extra]
    with log.open("ab") as out:
        proc = subprocess.Popen([*cmd, "--log-level", "info"], stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.05)


@contextmanager
def _workers(pg_cluster: Cluster, tmp_path: Path, *extra: str) -> Iterator[tuple[list[int], list[Any], Path]]:
    database = pg_cluster.database()
    ports = [_free_port(), _free_port()]
    log = tmp_path / "workers.log"
    procs = []
    try:
        for port in ports:
            procs.append(_start(database, port, log, "--shared", *extra))
        yield ports, procs, log
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(timeout=30)


def _socket(port: int, table_id: str, token: str) -> ClientConnection:
    ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", open_timeout=30, close_timeout=1)
    ws.send(json.dumps({"type": "auth", "token": token}))
    return ws


def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of that type (an error on the way fails)."""
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == kind:
            return dict(msg)
        assert msg["type"] != "error", msg


class Seen:
    """What one socket was sent: the public events, the version, the last legal list."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        hello = self._next("hello")
        self.events: list[dict[str, Any]] = list(hello["events"])
        self.version: int = hello["version"]
        self.legal: list[dict[str, Any]] = hello["legal"]
        self.over: bool = hello["view"]["is_over"]
        self.errors: list[dict[str, Any]] = []

    def _next(self, kind: str) -> dict[str, Any]:
        return _next(self.ws, kind)

    def pump(self, until: float) -> None:
        """Read what came until ``until`` (or the game's end): one state per action, in order."""
        while not self.over and time.monotonic() < until:
            try:
                msg = json.loads(self.ws.recv(timeout=max(0.01, until - time.monotonic())))
            except TimeoutError:
                return
            if msg["type"] == "error":
                self.errors.append(msg)
            if msg["type"] != "state":
                continue
            assert msg["version"] == self.version + 1, (msg["version"], self.version)  # no gap, nothing twice
            self.events.extend(msg["events"])
            self.version = msg["version"]
            self.legal = msg["legal"]
            self.over = msg["view"].get("is_over", self.over)


def _record(port: int, table_id: str) -> dict[str, Any]:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        for _ in range(30):
            answer = client.get(f"/api/tables/{table_id}/record")
            if answer.status_code != 429:
                break
            time.sleep(1.0)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _table(port_a: int, port_b: int) -> tuple[str, str, str]:
    """A table of two people and a bot, made at worker A, joined and started at worker B."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port_a}", timeout=30) as a:
        made = a.post(
            "/api/tables",
            json={
                "players": 3,
                "name": "Ana",
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                "bot_delay": 0,
                "hints": "off",
            },
        )
        assert made.status_code == 200, made.text
    table_id, ana = made.json()["table_id"], made.json()["token"]
    with httpx.Client(base_url=f"http://127.0.0.1:{port_b}", timeout=30) as b:
        joined = b.post(f"/api/tables/{table_id}/join", json={"name": "Bea"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
        started = b.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": ana})  # A's token, at B
        assert started.status_code == 200 and started.json()["status"] == "playing", started.text
    return table_id, ana, joined.json()["token"]


def test_a_game_across_two_workers_makes_one_log(pg_cluster: Cluster, tmp_path: Path) -> None:
    with _workers(pg_cluster, tmp_path, "--bot-delay", "0") as ((pa, pb), _procs, _log):
        table_id, ana_token, bea_token = _table(pa, pb)
        with _socket(pa, table_id, ana_token) as wa, _socket(pb, table_id, bea_token) as wb:
            ana, bea = Seen(wa), Seen(wb)
            # Ana plays her own decisions at A (the first choice of each list) for a while; Bea's
            # seat is played by the bot at B's request, the bot seat by whichever worker drives it
            wb.send(json.dumps({"type": "autoplay", "on": True}))
            mine = 0
            deadline = time.monotonic() + 60
            while mine < 25 and not ana.over and time.monotonic() < deadline:
                ana.pump(time.monotonic() + 0.05)
                if ana.legal:
                    wa.send(json.dumps({"type": "act", "version": ana.version, "action": ana.legal[0]["id"]}))
                    before = ana.version
                    ana.pump(time.monotonic() + 0.3)
                    mine += ana.version > before
            assert mine >= 10, (mine, ana.version)
            wa.send(json.dumps({"type": "autoplay", "on": True}))
            until = time.monotonic() + 240
            while not (ana.over and bea.over) and time.monotonic() < until:
                ana.pump(time.monotonic() + 0.2)
                bea.pump(time.monotonic() + 0.2)
            assert ana.over and bea.over, (ana.version, bea.version)
        record = _record(pb, table_id)
        game = Game.from_record(record)  # one log: every action legal, in order, none twice
        assert game.is_over and len(record["actions"]) == ana.version == bea.version
        # the moves Ana made at A reached Bea's socket at B, and the other way round
        assert ana.events == bea.events == record["events"]


def test_tokens_are_verified_by_either_worker(pg_cluster: Cluster, tmp_path: Path) -> None:
    with _workers(pg_cluster, tmp_path, "--bot-delay", "0.3") as ((pa, pb), _procs, _log):
        table_id, ana_token, bea_token = _table(pa, pb)
        for port in (pa, pb):
            for seat, token in ((0, ana_token), (1, bea_token)):
                with _socket(port, table_id, token) as ws:
                    hello = json.loads(ws.recv(timeout=30))
                    assert hello["type"] == "hello" and hello["seat"] == seat, hello
            with _socket(port, table_id, "not-a-token") as ws:
                refused = json.loads(ws.recv(timeout=30))
                assert refused["code"] == "bad_token", refused


def test_a_resend_is_answered_once_at_either_worker(pg_cluster: Cluster, tmp_path: Path) -> None:
    """The same act (version and id) sent to A, then again to B and to A after A restarted: one
    action in the log, and each resend answered with the current state."""
    with _workers(pg_cluster, tmp_path, "--bot-delay", "30", "--grace", "600") as ((pa, pb), procs, log):
        table_id, ana_token, bea_token = _table(pa, pb)
        with _socket(pa, table_id, ana_token) as wa, _socket(pb, table_id, bea_token) as wb:
            ana, bea = Seen(wa), Seen(wb)
            if not ana.legal:  # Bea first: she draws at B
                wb.send(json.dumps({"type": "act", "version": bea.version, "action": bea.legal[0]["id"]}))
                bea.pump(time.monotonic() + 2)
                ana.pump(time.monotonic() + 2)
            assert ana.legal, "Ana has a decision"
            sent = {"type": "act", "version": ana.version, "action": ana.legal[0]["id"]}
            wa.send(json.dumps(sent))
            ana.pump(time.monotonic() + 2)
            applied = ana.version
        with _socket(pb, table_id, ana_token) as again:
            hello = _next(again, "hello")
            again.send(json.dumps(sent))  # the resend at the other worker
            answer = _next(again, "state")
            assert answer["version"] == hello["version"] == applied
        procs[0].kill()
        procs[0].wait(timeout=30)
        procs[0] = _start(procs_database(log), pa, log, "--shared", "--bot-delay", "30")
        with _socket(pa, table_id, ana_token) as again:
            hello = _next(again, "hello")
            again.send(json.dumps(sent))  # and after a restart
            answer = _next(again, "state")
            assert answer["version"] == hello["version"] == applied, answer


def procs_database(log: Path) -> str:
    """The database URL the workers print when they start."""
    for line in log.read_text().splitlines():
        if "store postgresql" in line:
            return line.rsplit("store ", 1)[1].rstrip(")")
    raise AssertionError(log.read_text()[-2000:])


def test_the_surviving_worker_drives_the_bots_of_a_killed_one(pg_cluster: Cluster, tmp_path: Path) -> None:
    """A table of bots (and a person away) driven by worker A, alone at first; B starts; A killed
    with SIGKILL: B takes the table's lock (freed with A's session) and plays it to its end."""
    database = pg_cluster.database()
    pa, pb = _free_port(), _free_port()
    log = tmp_path / "workers.log"
    a = _start(database, pa, log, "--shared", "--grace", "0")
    b = None
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{pa}", timeout=30) as client:
            made = client.post("/api/quickplay", json={"name": "Ana", "bot": "easy", "bot_delay": 0.05, "hints": "off"})
            assert made.status_code == 200, made.text
            table_id = made.json()["table_id"]
            time.sleep(1.0)
            moved = client.get(f"/api/tables/{table_id}").json()
        b = _start(database, pb, log, "--shared", "--grace", "0")
        time.sleep(1.5)  # B has the table in memory (its poll loads the playing tables)
        with httpx.Client(base_url=f"http://127.0.0.1:{pb}", timeout=30) as client:
            assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing", moved
            with connect(f"ws://127.0.0.1:{pb}/ws/tables/{table_id}/watch", open_timeout=30) as ws:
                before = json.loads(ws.recv(timeout=30))["version"]
                a.kill()
                a.wait(timeout=30)
                deadline = time.monotonic() + 240
                version = before
                over = False
                while not over and time.monotonic() < deadline:
                    msg = json.loads(ws.recv(timeout=30))
                    if msg["type"] == "state":
                        assert msg["version"] > version, (msg["version"], version)
                        version = msg["version"]
                    if "table" in msg:
                        over = msg["table"]["status"] == "over"
            assert over and version > before, (before, version)
        record = _record(pb, table_id)
        assert Game.from_record(record).is_over
    finally:
        for proc in (a, b):
            if proc is not None:
                proc.kill()
                proc.wait(timeout=30)


def test_sigterm_drains_every_worker_with_1012(pg_cluster: Cluster, tmp_path: Path) -> None:
    """``--workers 2`` on one port: SIGTERM to the supervisor closes every socket of every worker
    with 1012 ("the server is restarting") and everything ends cleanly."""
    database = pg_cluster.database()
    port = _free_port()
    log = tmp_path / "workers.log"
    proc = _start(database, port, log, "--workers", "2", "--bot-delay", "0.5")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            tables = []
            for _ in range(4):
                made = client.post("/api/quickplay", json={"name": "Ana", "bot": "easy", "hints": "off"})
                assert made.status_code == 200, made.text
                tables.append((made.json()["table_id"], made.json()["token"]))
        sockets = [_socket(port, t, tok) for t, tok in tables]
        for ws in sockets:
            _next(ws, "hello")
        proc.send_signal(signal.SIGTERM)
        codes = []
        for ws in sockets:
            try:
                while True:
                    ws.recv(timeout=30)
            except ConnectionClosed as closed:
                codes.append(closed.rcvd.code if closed.rcvd is not None else None)
        assert codes == [1012] * len(sockets), codes
        assert proc.wait(timeout=60) in (0, -signal.SIGTERM)
        assert log.read_text().count("Application shutdown complete") == 2, log.read_text()[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)

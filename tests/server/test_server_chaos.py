"""Chaos: ``liverpool serve`` killed with SIGKILL at random moments while bots play (20 cycles on
SQLite, restarted on the same store each time; on PostgreSQL, ``--workers 2``: one of the two
workers killed at random moments, 5 cycles, uvicorn's supervisor starting a new one, the other
serving meanwhile and taking over the tables the killed one drove). A client on a real
WebSocket journals every state it was sent (each one acknowledges the actions before its version)
and, after each restart, checks the rebuilt game against its journal: 0 acknowledged actions lost,
0 duplicates, no gaps; every finished game's record replays."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from liverpool import Game
from server_helpers import database_for

LIVERPOOL = [sys.executable, "-c", "import sys; from liverpool.cli import main; sys.exit(main())"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(database: str, port: int, log: Path, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [*LIVERPOOL, "serve", "--port", str(port), "--database", database, "--bot-delay", "0", "--buy-window", "0"]
    cmd += extra
    with log.open("ab") as out:
        proc = subprocess.Popen([*cmd, "--log-level", "info"], stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.05)


class Journal:
    """What one table's client was sent: the public events in order (each ``state`` acknowledges
    every action before its version) and the highest version acknowledged."""

    def __init__(self, table_id: str, token: str) -> None:
        self.table_id = table_id
        self.token = token
        self.events: list[dict[str, Any]] = []
        self.version = 0
        self.over = False

    def follow(self, port: int, until: float) -> None:
        """Connect, let the bot play this seat (autoplay), journal states until ``until`` or the end."""
        url = f"ws://127.0.0.1:{port}/ws/tables/{self.table_id}"
        try:
            with connect(url, open_timeout=30, close_timeout=1) as ws:
                ws.send(json.dumps({"type": "auth", "token": self.token}))  # protocol 3: the first message
                hello = json.loads(ws.recv(timeout=30))
                assert hello["type"] == "hello", hello
                # the rebuilt game holds every action acknowledged before the kill, once, in order:
                # its version is no lower, its public events begin with the journal's
                assert hello["version"] >= self.version, (hello["version"], self.version)
                assert hello["events"][: len(self.events)] == self.events, "acknowledged events lost or changed"
                self.events = list(hello["events"])
                self.version = hello["version"]
                self.over = hello["view"]["is_over"]
                ws.send(json.dumps({"type": "autoplay", "on": True}))
                while not self.over and time.monotonic() < until:
                    try:
                        msg = json.loads(ws.recv(timeout=max(0.01, until - time.monotonic())))
                    except TimeoutError:
                        break
                    if msg["type"] == "state":
                        # one state per committed action: no gap, nothing twice
                        assert msg["version"] == self.version + 1, (msg["version"], self.version)
                        self.events.extend(msg["events"])
                        self.version = msg["version"]
                        self.over = msg["view"].get("is_over", self.over)
        except (ConnectionClosed, OSError):
            pass  # killed while we listened: what was journaled stays acknowledged


def _check_log(client: httpx.Client, journal: Journal) -> Game | None:
    """The finished game's record replays and holds exactly what was acknowledged, in order."""
    answer = client.get(f"/api/tables/{journal.table_id}/record")
    for _ in range(30):  # finished games' reads are rate-limited per address: wait as a client would
        if answer.status_code != 429:
            break
        time.sleep(1.0)
        answer = client.get(f"/api/tables/{journal.table_id}/record")
    if answer.status_code == 409:
        return None
    assert answer.status_code == 200, answer.text
    record = answer.json()
    game = Game.from_record(record)  # replays: every action legal, in order, none twice
    assert game.is_over and game.scores == record["scores"]
    assert len(record["actions"]) >= journal.version
    assert record["events"][: len(journal.events)] == journal.events
    return game


def _chaos(tmp_path: Path, database: str, cycles: int) -> dict[str, int]:
    rng = random.Random(21)
    port = _free_port()
    log = tmp_path / "server.log"
    journals: list[Journal] = []
    kills = finished = 0
    proc = _start(database, port, log)
    try:
        for _ in range(cycles):
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                if not journals or journals[-1].over:
                    made = client.post(
                        "/api/quickplay", json={"name": "Ana", "bot": "easy", "bot_delay": 0, "hints": "off"}
                    )
                    assert made.status_code == 200, made.text
                    journals.append(Journal(made.json()["table_id"], made.json()["token"]))
                journals[-1].follow(port, until=time.monotonic() + rng.uniform(0.1, 1.0))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
            kills += 1
            proc = _start(database, port, log)
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                journal = journals[-1]
                journal.follow(port, until=time.monotonic() + 0.05)  # the checks of the rebuilt game
                if journal.over and _check_log(client, journal) is not None:
                    finished += 1
        # the last game to its end, then every record checked again
        journals[-1].follow(port, until=time.monotonic() + 120)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            checked = [_check_log(client, j) for j in journals]
        assert all(g is not None for g in checked), "a game did not finish"
    finally:
        proc.kill()
        proc.wait(timeout=30)
    acknowledged = sum(j.version for j in journals)
    result = {"kills": kills, "games": len(journals), "finished": finished, "acknowledged": acknowledged}
    print(f"chaos on {database.split(':', 1)[0]}: {result}")  # the figures of docs/deploy.md (pytest -s)
    return result


@pytest.mark.sqlite_only  # SQLite: 20 cycles; PostgreSQL below
def test_kill_9_at_random_moments_loses_nothing_on_sqlite(tmp_path: Path) -> None:
    result = _chaos(tmp_path, f"sqlite:///{tmp_path / 'liverpool.db'}", cycles=20)
    assert result["kills"] == 20 and result["acknowledged"] > 0, result


def _workers(supervisor: int) -> list[int]:
    """The uvicorn workers of a ``--workers N`` server (its children started by multiprocessing's
    spawn, not its resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == supervisor and "spawn_main" in cmdline and "resource_tracker" not in cmdline:
            found.append(int(entry.name))
    return sorted(found)


def _two_workers(supervisor: int) -> list[int]:
    deadline = time.monotonic() + 60
    while len(pids := _workers(supervisor)) != 2:
        assert time.monotonic() < deadline, pids
        time.sleep(0.1)
    return pids


@pytest.mark.postgresql_only
def test_kill_9_one_of_two_workers_at_random_moments_loses_nothing_on_postgresql(tmp_path: Path) -> None:
    """``--workers 2``: a worker killed at random moments while a client journals (it reconnects
    through the port to whichever worker answers): nothing acknowledged lost, one state per
    action, and the last game finishes (a worker left drives its bots: the killed one's lock
    is freed with its session)."""
    rng = random.Random(21)
    database = database_for(tmp_path)
    port = _free_port()
    log = tmp_path / "server.log"
    proc = _start(database, port, log, "--workers", "2")
    journals: list[Journal] = []
    kills = finished = 0
    try:
        for _ in range(5):
            pids = _two_workers(proc.pid)
            time.sleep(1.0)  # both serve (the one started last has rebuilt the tables)
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                if not journals or journals[-1].over:
                    made = client.post(
                        "/api/quickplay", json={"name": "Ana", "bot": "easy", "bot_delay": 0, "hints": "off"}
                    )
                    assert made.status_code == 200, made.text
                    journals.append(Journal(made.json()["table_id"], made.json()["token"]))
                journals[-1].follow(port, until=time.monotonic() + rng.uniform(0.1, 1.0))
            os.kill(rng.choice(pids), signal.SIGKILL)
            kills += 1
            journal = journals[-1]
            journal.follow(port, until=time.monotonic() + 0.5)  # through the other worker: the checks
            if journal.over:
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                    finished += _check_log(client, journal) is not None
        journals[-1].follow(port, until=time.monotonic() + 120)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            checked = [_check_log(client, j) for j in journals]
        assert all(g is not None for g in checked), ("a game did not finish", log.read_text()[-3000:])
        assert proc.poll() is None  # the supervisor stayed up, and started new workers
    finally:
        left = _workers(proc.pid)  # (before the supervisor goes: then they are nobody's children)
        proc.kill()
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=30)
    result = {
        "kills": kills,
        "games": len(journals),
        "finished": finished,
        "acknowledged": sum(j.version for j in journals),
    }
    print(f"chaos on postgresql, 2 workers: {result}")
    assert result["kills"] == 5 and result["acknowledged"] > 0, result


def test_sigterm_drains_with_1012_and_the_client_carries_on_after_the_restart(tmp_path: Path) -> None:
    """SIGTERM: every socket is closed with 1012 ("the server is restarting"), the process ends
    cleanly, and the client resumes from its last version on the next server."""
    database = database_for(tmp_path)
    port = _free_port()
    log = tmp_path / "server.log"
    proc = _start(database, port, log)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            made = client.post(
                "/api/quickplay", json={"name": "Ana", "bot": "easy", "bot_delay": 0, "hints": "off"}
            ).json()
        journal = Journal(made["table_id"], made["token"])
        url = f"ws://127.0.0.1:{port}/ws/tables/{journal.table_id}"
        with connect(url, open_timeout=30, close_timeout=5) as ws:
            ws.send(json.dumps({"type": "auth", "token": journal.token}))
            hello = json.loads(ws.recv(timeout=30))
            journal.events, journal.version = list(hello["events"]), hello["version"]
            proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    msg = json.loads(ws.recv(timeout=30))
                    if msg["type"] == "state":
                        journal.events.extend(msg["events"])
                        journal.version = msg["version"]
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, closed.value
        # uvicorn re-raises the signal once it has shut down: the process ends by SIGTERM, cleanly
        assert proc.wait(timeout=60) in (0, -signal.SIGTERM)
        proc = _start(database, port, log)
        assert log.read_text().count("Application shutdown complete") == 1  # the lifespan's end ran
        journal.follow(port, until=time.monotonic() + 0.5)  # hello: nothing acknowledged lost
        assert journal.version > 0
    finally:
        proc.kill()
        proc.wait(timeout=30)

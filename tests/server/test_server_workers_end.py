"""The server's worker processes (hints, reviews) end with it, even after ``kill -9``: a real
``liverpool serve`` in a subprocess, its hint worker started by a table, the server killed."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from server_helpers import liverpool_serve

if not Path("/proc/self/stat").exists():  # pragma: no cover - the process table is read from /proc
    pytest.skip("needs Linux's /proc to find the server's children", allow_module_level=True)

WAIT = 60.0  # an upper bound, never a measured time


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _post(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"} | ({"X-Seat-Token": token} if token else {})
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def test_hint_workers_end_after_the_server_is_killed(tmp_path: Path) -> None:
    workers: list[int] = []
    with liverpool_serve(tmp_path) as served:
        server = served.proc
        assert server is not None
        try:
            deadline = time.monotonic() + WAIT
            seats = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]
            made = _post(f"{served.http}/api/tables", {"players": 2, "seats": seats, "name": "Ana"})
            _post(f"{served.http}/api/tables/{made['table_id']}/start", {}, token=made["token"])  # warms a hint worker
            while not workers:
                assert time.monotonic() < deadline, "no worker process started"
                workers = [c for c in _children(server.pid) if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
                time.sleep(0.1)
            time.sleep(1.0)  # the worker runs its initializer (it imports the analysis first)
            workers = _children(server.pid)  # the pool's workers and multiprocessing's resource tracker
            os.kill(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
            while any(_alive(w) for w in workers):
                assert time.monotonic() < deadline, f"the workers {workers} outlived the killed server"
                time.sleep(0.1)
        finally:
            for w in workers:
                if _alive(w):
                    os.kill(w, signal.SIGKILL)


def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C sends SIGINT to the whole process group: the server's and its pool workers' (a bot
    worker that made a move, the hint worker). The workers leave it to the server (they start
    with SIGINT ignored), which stops cleanly: no process prints a traceback."""
    import subprocess
    import sys

    from websockets.sync.client import connect

    from server_helpers import LIVERPOOL, database_for, free_port, listening

    port = free_port()
    log = tmp_path / "serve.log"
    cmd = [*LIVERPOOL, "serve", "--port", str(port), "--database", database_for(tmp_path), "--grace", "0"]
    with log.open("ab") as out:
        server = subprocess.Popen(
            [*cmd, "--bot-delay", "0", "--buy-window", "0"],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as a terminal's foreground job
            env=os.environ | {"PYTHONUNBUFFERED": "1", "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    try:
        deadline = time.monotonic() + WAIT
        while not listening(port):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.05)
        http = f"http://127.0.0.1:{port}"
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]  # hard: its moves in the bot worker
        made = _post(f"{http}/api/tables", {"players": 2, "seats": seats, "name": "Ana"})
        table_id = made["table_id"]
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/watch", open_timeout=30) as ws:
            _post(f"{http}/api/tables/{table_id}/start", {}, token=made["token"])
            while True:  # until the hard bot (seat 1) made a move: the bot worker is up and used
                msg = json.loads(ws.recv(timeout=WAIT * 2))
                if msg["type"] == "state" and (msg.get("last") or {}).get("seat") == 1:
                    break
        workers = [c for c in _children(server.pid) if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
        assert workers, "no worker process"
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=WAIT)
        output = log.read_text(errors="replace")
        assert "Traceback" not in output and "KeyboardInterrupt" not in output, output[-5000:]
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _cpu_ticks(pid: int) -> int:
    """The user and system clock ticks ``pid`` has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def test_ctrl_c_during_a_long_review_stops_the_server_without_waiting_for_it(tmp_path: Path) -> None:
    """A review that takes far longer than the bound below runs in the review worker when Ctrl-C
    comes: the server ends its workers rather than waiting for the job (they ignore SIGINT), and
    stops at once, without a traceback (a second Ctrl-C is never needed)."""
    import subprocess
    import sys
    import threading

    from server_helpers import LIVERPOOL, database_for, free_port, listening

    port = free_port()
    log = tmp_path / "serve.log"
    cmd = [*LIVERPOOL, "serve", "--port", str(port), "--database", database_for(tmp_path), "--grace", "0"]
    # one process for the review, of the most samples a request may ask: a minute or more of work
    cmd += ["--bot-delay", "0", "--buy-window", "0", "--review-jobs", "1"]
    with log.open("ab") as out:
        server = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=os.environ | {"PYTHONUNBUFFERED": "1", "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    try:
        deadline = time.monotonic() + WAIT * 2
        while not listening(port):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.05)
        http = f"http://127.0.0.1:{port}"
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]  # the absent person's stand-in plays
        made = _post(f"{http}/api/tables", {"players": 2, "seats": seats, "name": "Ana"})
        table_id = made["table_id"]
        _post(f"{http}/api/tables/{table_id}/start", {}, token=made["token"])
        while True:
            with urllib.request.urlopen(f"{http}/api/tables/{table_id}", timeout=30) as answer:
                if json.loads(answer.read())["status"] == "over":
                    break
            assert time.monotonic() < deadline, "the bots' game did not end"
            time.sleep(0.1)
        before = {c: _cpu_ticks(c) for c in _children(server.pid)}

        def ask() -> None:
            with contextlib.suppress(OSError):  # the server stops before it answers
                urllib.request.urlopen(f"{http}/api/tables/{table_id}/review/0?samples=64", timeout=WAIT * 4).read()

        threading.Thread(target=ask, daemon=True).start()
        busy: list[int] = []
        while not busy:  # a worker started on the review: a new one, or one that now uses the CPU
            assert server.poll() is None and time.monotonic() < deadline, "no worker took the review"
            time.sleep(0.5)
            busy = [c for c in _children(server.pid) if _cpu_ticks(c) - before.get(c, 0) > 100]
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=10)  # generous: the review itself takes far longer
        except subprocess.TimeoutExpired:
            raise AssertionError("the stopped server waited for the review worker's job") from None
        output = log.read_text(errors="replace")
        assert "Traceback" not in output and "KeyboardInterrupt" not in output, output[-5000:]
        for worker in busy:
            assert not _alive(worker), f"the review worker {worker} outlived the server"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()

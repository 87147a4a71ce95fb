"""A local Ray cluster for tests: ``ray start --head --block`` in a session of its own, on the fixed
ports 56650-56699 (never Ray's defaults), with token authentication on (a fresh token in the
environment, never the home directory's), stopped by signalling that session only."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

PORTS = {
    "--port": 56650,
    "--node-manager-port": 56651,
    "--object-manager-port": 56652,
    "--dashboard-agent-listen-port": 56654,
    "--dashboard-agent-grpc-port": 56655,
    "--metrics-export-port": 56656,
    "--runtime-env-agent-port": 56657,
    "--dashboard-port": 56658,
    "--min-worker-port": 56660,
    "--max-worker-port": 56699,
}
ADDRESS = f"127.0.0.1:{PORTS['--port']}"


@dataclass
class Cluster:
    address: str
    env: dict[str, str]
    """The environment a driver needs (PYTHONPATH, RAY_AUTH_MODE and RAY_AUTH_TOKEN)."""
    session: int
    """The session id of every process of the cluster (the ``ray start`` process's pid)."""

    def task_workers(self, function: str) -> list[int]:
        """Pids of this cluster's workers running a task of ``function`` now (Ray titles them
        ``ray::function``)."""
        return session_pids(self.session, f"ray::{function}")


def session_pids(session: int, title: str = "") -> list[int]:
    """Pids of the processes of ``session`` whose command line starts with ``title``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == session and cmdline.startswith(title.encode()) and fields[0] != "Z":
            pids.append(int(entry.name))
    return pids


def _listening(port: int) -> bool:
    with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


@contextmanager
def local_cluster(cpus: int = 2, timeout: float = 90.0) -> Iterator[Cluster]:
    if _listening(PORTS["--port"]):
        raise RuntimeError(f"port {PORTS['--port']} is taken: another test cluster is running")
    env = dict(os.environ)
    env |= {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32), "RAY_USAGE_STATS_ENABLED": "0"}
    temp = tempfile.mkdtemp(prefix="lvray")  # short: Ray's socket paths must fit 107 bytes
    ray = str(Path(sys.executable).with_name("ray"))
    command = [ray, "start", "--head", "--block", f"--num-cpus={cpus}", "--include-dashboard=false"]
    command += [f"{k}={v}" for k, v in PORTS.items()]
    command += [f"--temp-dir={temp}", "--object-store-memory=100000000", "--disable-usage-stats"]
    log = open(Path(temp) / "start.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while not _listening(PORTS["--port"]):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the test Ray cluster did not start: " + (Path(temp) / "start.log").read_text())
            time.sleep(0.2)
        yield Cluster(ADDRESS, env, process.pid)
    finally:
        # every process of the cluster is in the session started here: stop them all at once (a
        # test cluster keeps nothing worth a graceful stop)
        for _ in range(3):
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            for pid in session_pids(process.pid):
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            if not session_pids(process.pid):
                break
            time.sleep(0.5)
        log.close()

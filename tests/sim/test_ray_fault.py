"""The Ray backend survives a lost worker: on a local cluster started here, one worker is killed
while it plays a batch; Ray runs the batch again and the run ends with the same results, byte for
byte, as an undisturbed run. Bounded in time (every wait has a timeout)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from ray_cluster import local_cluster

pytest.importorskip("ray")

SEATS = "random,random,random,random"
GAMES = "64"


def simulate_command(*extra: str) -> list[str]:
    main = "import sys; from liverpool.cli import main; sys.exit(main())"
    return [sys.executable, "-c", main, "simulate", "--games", GAMES, "--seats", SEATS, "--seed", "5", "--json", *extra]


def without_seconds(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_a_killed_worker_changes_nothing(tmp_path: Path) -> None:
    calm, hit = tmp_path / "undisturbed", tmp_path / "killed"
    undisturbed = subprocess.run(
        simulate_command("--records", str(calm)), capture_output=True, text=True, timeout=120, check=True
    )
    with local_cluster(cpus=2) as cluster:
        run = subprocess.Popen(
            simulate_command("--backend", "ray", "--address", cluster.address, "--records", str(hit)),
            env=cluster.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        killed = None
        deadline = time.monotonic() + 90
        while killed is None and run.poll() is None and time.monotonic() < deadline:
            workers = cluster.task_workers("play_batch")
            if workers:
                time.sleep(0.3)  # well into its batch
                if run.poll() is None:
                    os.kill(workers[0], signal.SIGKILL)
                    killed = workers[0]
            time.sleep(0.05)
        still_running = run.poll() is None
        out, err = run.communicate(timeout=180)
    assert killed is not None and still_running, f"no worker was killed mid-run: {err[-3000:]}"
    assert run.returncode == 0, err[-3000:]
    # stdout is the JSON alone (Ray's messages went to stderr), the same games as undisturbed
    assert without_seconds(json.loads(out)) == without_seconds(json.loads(undisturbed.stdout))
    # and every game's record, byte for byte
    names = sorted(p.name for p in calm.iterdir())
    assert len(names) == int(GAMES) and sorted(p.name for p in hit.iterdir()) == names
    assert all((calm / name).read_bytes() == (hit / name).read_bytes() for name in names)

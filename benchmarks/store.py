"""The SQLite store's WAL under all-out writes, side by side: the writer's own checkpoints (the
server's setting: TRUNCATE at 16 MB or 1 s, ``journal_size_limit`` 64 MB) against none at all.

``--tables`` tasks append actions through ``Store.append`` as fast as the store commits them (each
waits for its commit: the server's path without the engine and the sockets), for ``--seconds``
each. Prints one JSON object: per mode the actions a second, the WAL file's largest size (sampled
every 20 ms from another thread: ``liverpool.server.filepeak``), the append latency (p50, p99,
max: a checkpoint's stall shows in the max), the checkpoints and the longest one.

    python benchmarks/store.py [--seconds 20] [--tables 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from liverpool.server.filepeak import FilePeak
from liverpool.server.store import Store

ACTION = {"type": "meld", "player": 1, "kind": "run", "cards": ["4H", "5H", "6H", "7H", "*1"]}


async def _run(db: Path, tables: int, seconds: float, checkpoints: bool) -> dict[str, Any]:
    store = Store(f"sqlite:///{db}")
    if not checkpoints:
        store.checkpoint_every = math.inf
        store.checkpoint_bytes = 1 << 62
    await store.open()
    ids = [f"t{i}" for i in range(tables)]
    for t in ids:
        row = {"id": t, "created_at": 0.0, "players": 4, "preset": "liverpool", "options": {}, "rules": {}}
        await store.create_table(row | {"status": "playing"}, [{"seat": s, "kind": "bot"} for s in range(4)])
    latencies: list[float] = []

    async def table(table_id: str, until: float) -> None:
        n = 0
        while time.monotonic() < until:
            t0 = time.perf_counter()
            await store.append(table_id, n, n % 4, ACTION, "bot")
            latencies.append(time.perf_counter() - t0)
            n += 1

    started = time.monotonic()
    await asyncio.gather(*(table(t, started + seconds) for t in ids))
    elapsed = time.monotonic() - started
    await store.close()
    latencies.sort()
    return {
        "actions_per_s": round(len(latencies) / elapsed),
        "append_ms_p50": round(1000 * statistics.median(latencies), 2),
        "append_ms_p99": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2),
        "append_ms_max": round(1000 * latencies[-1], 1),
        "checkpoints": store.checkpoints,
        "checkpoint_ms_max": round(1000 * store.checkpoint_seconds, 1),
        "wal_written_mb": round(store.wal_written / 2**20, 1),
    }


def measure(tables: int, seconds: float, checkpoints: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "liverpool.db"
        with FilePeak(f"{db}-wal") as wal:
            out = asyncio.run(_run(db, tables, seconds, checkpoints))
        return out | {"wal_peak_mb": round(wal.peak / 2**20, 1), "db_mb": round(db.stat().st_size / 2**20, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--tables", type=int, default=50)
    args = p.parse_args()
    result = {
        "tables": args.tables,
        "seconds": args.seconds,
        "checkpoints": measure(args.tables, args.seconds, True),
        "no_checkpoints": measure(args.tables, args.seconds, False),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()

"""The game server's speed: scripted tables of four sockets playing through a real server.

Starts ``liverpool serve`` in its own process (127.0.0.1, a fresh SQLite file in a temporary
folder, bots not involved) and plays tables of four people from this process, one WebSocket per
seat: the seat to play sends the scripted choice (draw from the stock; lay down or lay off when
it can; else discard), nobody buys. An action's time is from sending ``act`` to receiving the
``state`` of the next version on the same socket: the server's whole path (parse, engine, log
committed to SQLite, four views built and sent). Prints one JSON object.

    python benchmarks/server.py [--seconds 10] [--tables 1,50] [--think-ms 0] [--compare CHECKOUT] [--rounds 1]
    python benchmarks/server.py --paced 25,50,100,200 [--seconds 20]   # people's pace, bots in two seats

``server_actions_per_s`` is the number of actions all tables made per second; with
``--think-ms`` each seat waits about that long before each move (uniformly 0.5-1.5 times it): a
paced load like people's, instead of all-out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def choose(view: dict[str, Any] | None, state: dict[str, Any]) -> str | None:
    """The scripted choice of a seat (its whole view, the last state), or None when it does not play now."""
    if view is None or view["is_over"] or view["current"] != view["player"] or not state["legal"]:
        return None
    legal = state["legal"]
    kinds = [entry["action"]["type"] for entry in legal]
    for kind in ("draw_stock", "meld", "lay_off"):
        if kind in kinds:
            return str(legal[kinds.index(kind)]["id"])
    return str(legal[-1]["id"])


async def open_seat(url: str, token: str) -> Any:
    """A seat's socket, its ``hello`` read: the token as the first message (protocol 3), or in
    the URL for a server of protocol 2 (``--compare`` with an older checkout)."""
    ws = await websockets.connect(url, max_size=2**24)
    with contextlib.suppress(websockets.ConnectionClosed):  # an old server refused at once: its error is read next
        await ws.send(json.dumps({"type": "auth", "token": token}))
    first = json.loads(await ws.recv())
    if first.get("type") == "error" and first.get("code") == "bad_token":
        await ws.close()
        ws = await websockets.connect(f"{url}?token={token}", max_size=2**24)
        first = json.loads(await ws.recv())
    assert first["type"] == "hello", first
    return ws


class TableRun:
    """One table of four scripted sockets."""

    def __init__(self, base: str, think: float, seed: int = 0, bots: int = 0) -> None:
        self.base = base
        self.think = think
        self.bots = bots  # the last ``bots`` seats are the server's bots (medium), not sockets
        self.times: list[float] = []
        self.actions = 0
        self.games = 0
        self.prepared: tuple[str, list[str], list[Any]] | None = None
        self.rng = random.Random(seed)

    async def setup(self, http: httpx.AsyncClient) -> tuple[str, list[str]]:
        body: dict[str, Any] = {"players": 4, "name": "A"}
        if self.bots:
            body["seats"] = [{"kind": "human"}] * (4 - self.bots) + [{"kind": "bot", "bot": "medium"}] * self.bots
        answer = await http.post(f"{self.base}/api/tables", json=body)
        created = answer.json()
        if answer.status_code != 200:
            raise RuntimeError(f"the server refused a table: {answer.status_code} {created}")
        tokens = [created["token"]]
        for name in "BCD"[: 3 - self.bots]:
            joined = await http.post(f"{self.base}/api/tables/{created['table_id']}/join", json={"name": name})
            tokens.append(joined.json()["token"])
        return str(created["table_id"]), tokens

    async def prepare(self, http: httpx.AsyncClient) -> None:
        """A new table with its four sockets connected (not started): not timed."""
        table_id, tokens = await self.setup(http)
        ws_base = self.base.replace("http://", "ws://")
        socks = []
        for t in tokens:
            ws = await open_seat(f"{ws_base}/ws/tables/{table_id}", t)
            socks.append(ws)
        self.prepared = (table_id, tokens, socks)

    async def run(self, http: httpx.AsyncClient, until: float) -> None:
        while time.perf_counter() < until:
            if self.prepared is None:
                await self.prepare(http)
            assert self.prepared is not None
            table_id, tokens, socks = self.prepared
            self.prepared = None
            await http.post(f"{self.base}/api/tables/{table_id}/start", headers={"X-Seat-Token": tokens[0]})
            done = await asyncio.gather(*(self.seat(ws, until) for ws in socks))
            for ws in socks:
                await ws.close()
            if all(done):
                self.games += 1

    async def seat(self, ws: Any, until: float) -> bool:
        """Play one seat until the game ends (True) or time is up (False)."""
        pending: tuple[int, float] | None = None
        view: dict[str, Any] | None = None
        while True:
            remaining = until - time.perf_counter()
            if remaining <= 0:
                return False
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=remaining + 5)
            except TimeoutError:
                return False
            msg = json.loads(text)
            if msg["type"] not in ("state", "hello"):
                if msg["type"] == "error":
                    if self.bots and msg.get("code") in ("stale", "not_your_turn", "not_in_list"):
                        pending = None  # a bot moved out of turn first (a buy): choose again
                        continue
                    raise RuntimeError(f"server error: {msg}")
                continue
            if pending is not None and msg["version"] > pending[0]:
                self.times.append((time.perf_counter() - pending[1]) * 1000)
                self.actions += 1
                pending = None
            # protocol 2: a state holds the view's changed keys (1: the whole view; merging works for both)
            view = msg["view"] if msg["type"] == "hello" or view is None else view | msg["view"]
            if view is not None and view["is_over"]:
                return True
            choice = choose(view, msg)
            if choice is not None and pending is None and time.perf_counter() < until:
                if self.think:  # a person's pace: think times spread evenly around the mean
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                pending = (msg["version"], time.perf_counter())
                await ws.send(json.dumps({"type": "act", "version": msg["version"], "action": choice}))


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user + system) a process and the processes it started (the workers of
    ``--workers N``, the bot and replay workers) used so far, from /proc (None elsewhere)."""
    if pid is None:
        return None
    fields = _stat(pid)
    if fields is None:
        return None
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (f := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(f[1])
    tree, grew = {pid}, True
    while grew:
        more = {p for p, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    ticks = 0
    for p in tree:
        f = fields if p == pid else _stat(p)
        if f is not None:
            ticks += int(f[11]) + int(f[12])
    return ticks / os.sysconf("SC_CLK_TCK")


class Sample:
    """What one or more measurements of a server saw (pooled over rounds)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.actions = 0
        self.games = 0
        self.elapsed = 0.0
        self.server_cpu: float | None = 0.0
        self.client_cpu = 0.0

    def figures(self) -> dict[str, float]:
        out: dict[str, float] = {}
        if self.actions:  # this process: the scripted people reading and sending (not the server's work)
            out["client_cpu_ms_per_action"] = round(self.client_cpu * 1000 / self.actions, 3)
        if self.server_cpu is not None and self.actions:
            # the server's CPU per action (starting the next games' tables included): what the load
            # of other programs on the machine changes least
            out["server_cpu_ms_per_action"] = round(self.server_cpu * 1000 / self.actions, 3)
        return out | {
            "server_actions_per_s": round(self.actions / self.elapsed, 1),
            "server_action_ms_p50": round(percentile(self.times, 0.5), 2),
            "server_action_ms_p99": round(percentile(self.times, 0.99), 2),
            "server_action_ms_mean": round(statistics.fmean(self.times), 2),
            "actions": self.actions,
            "games_finished": self.games,
        }


async def measure(
    base: str,
    tables: int,
    seconds: float,
    think: float,
    pid: int | None = None,
    into: Sample | None = None,
    bots: int = 0,
) -> Sample:
    """``tables`` tables playing for ``seconds`` against the server at ``base`` (its process
    ``pid``, for its CPU time), added to ``into``; ``bots`` seats of each are the server's bots."""
    sample = into if into is not None else Sample()
    runs = [TableRun(base, think, seed=i, bots=bots) for i in range(tables)]
    limits = httpx.Limits(max_connections=64, keepalive_expiry=2.0)  # before the server drops them (5 s)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        await asyncio.gather(*(r.prepare(http) for r in runs))
        start = time.perf_counter()
        cpu = cpu_seconds(pid)
        client_cpu = time.process_time()
        until = start + seconds
        await asyncio.gather(*(r.run(http, until) for r in runs))
        sample.elapsed += time.perf_counter() - start
        cpu_end = cpu_seconds(pid)
        sample.client_cpu += time.process_time() - client_cpu
    sample.times += [t for r in runs for t in r.times]
    sample.actions += sum(r.actions for r in runs)
    sample.games += sum(r.games for r in runs)
    if cpu is None or cpu_end is None or sample.server_cpu is None:
        sample.server_cpu = None
    else:
        sample.server_cpu += cpu_end - cpu
    return sample


def start_server(
    folder: Path,
    port: int,
    synchronous: str,
    source: Path | None = None,
    database: str | None = None,
    workers: int = 1,
) -> subprocess.Popen[bytes]:
    """``liverpool serve`` in a process of its own: this tree's, or (``source``) the one of another
    checkout's ``src`` (the same venv, its package first on the path); on ``database`` (default a
    SQLite file in ``folder``) with ``workers`` processes."""
    cmd = [
        sys.executable,
        "-c",
        "import sys; from liverpool.cli import main; sys.exit(main())",
        "serve",
        "--port",
        str(port),
        "--database",
        database or f"sqlite:///{folder / 'bench.db'}",
        "--workers",
        str(workers),
        "--synchronous",
        synchronous,
        "--bot-delay",
        "0",
        # a measurement's tables are left unfinished when its time is up: no stand-in bot may go
        # on playing them (all-out, after the grace period) while the next ones are measured
        "--grace",
        "86400",
        "--rate",
        "100000",
        "--rest-rate",
        "100000",
        "--log-level",
        "warning",
    ]
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    if source is not None:
        env["PYTHONPATH"] = str(source / "src")
    shown = subprocess.run([*cmd[:4], "--help"], env=env, capture_output=True, text=True, check=False).stdout
    if "--max-waiting" in shown:  # a server with limits on reads and waiting tables (issue 21): lifted
        cmd += ["--get-rate", "100000", "--max-waiting", "1000000", "--max-waiting-per-address", "1000000"]
    if "--buy-window" in shown:  # people here never buy: bots need not wait for them
        cmd += ["--buy-window", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env, start_new_session=True)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/presets", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (its workers too), then wait for it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 15)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait(timeout=30)


def paced_stores(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """People's pace on each store of ``--stores``, one server after the other (SQLite, PostgreSQL
    with 1 and 2 workers on a throwaway cluster): each one's figures and the largest table count
    under 100 ms p99, and the capacity of 2 workers over 1."""
    counts = [int(n) for n in args.paced.split(",")]
    out: dict[str, Any] = {}
    cluster = None
    trees: list[tuple[str, Path | None]] = [("", None)]
    if args.compare is not None:  # the other checkout's server on each store first, then this tree's
        trees.insert(0, ("compare_", args.compare))
    try:
        for store, (prefix, source) in ((s, t) for s in args.stores.split(",") for t in trees):
            if store not in ("sqlite", "postgresql1", "postgresql2"):
                raise SystemExit(f"--stores: unknown store {store!r}")
            database = None
            if store != "sqlite":
                if cluster is None:
                    from liverpool.server.pgcluster import Cluster

                    cluster = Cluster()
                    cluster.start()
                database = cluster.database()
            (folder / f"{prefix}{store}").mkdir()
            port = free_port()
            proc = start_server(
                folder / f"{prefix}{store}",
                port,
                args.synchronous,
                source,
                database=database,
                workers=int(store[-1:] or 1) if store != "sqlite" else 1,
            )
            try:
                base = f"http://127.0.0.1:{port}"
                # warm-up: tables enough to reach every worker (each starts its bot, replay and hint
                # processes on its first tables: not a cost of the first count measured)
                asyncio.run(measure(base, 8, min(3.0, args.seconds), 0.5, bots=2))
                # (the server's CPU time: its process and those it started, the workers too)
                out[f"{prefix}paced_{store}"] = paced_capacity(base, counts, args.seconds, proc.pid)
            finally:
                stop_server(proc)
    finally:
        if cluster is not None:
            cluster.stop()
    for prefix, _source in trees:
        one, two = out.get(f"{prefix}paced_postgresql1"), out.get(f"{prefix}paced_postgresql2")
        if one and two and one["paced_capacity_tables"]:
            ratio = round(two["paced_capacity_tables"] / one["paced_capacity_tables"], 2)
            out[f"{prefix}paced_capacity_2_vs_1_workers"] = ratio
    return out


def paced_capacity(
    base: str, counts: list[int], seconds: float, pid: int | None = None, target_ms: float = 100.0
) -> dict[str, Any]:
    """People's pace (each person thinks 0.25-0.75 s before a move) with bots in two seats of
    every table: the acknowledgement p99 of the people's moves for each table count, and the
    largest count whose p99 stays under ``target_ms`` (counts after the first one over are not
    measured: they would only be slower)."""
    out: dict[str, Any] = {"think_ms": 500, "bots_per_table": 2, "target_ms_p99": target_ms}
    best = 0
    for count in counts:
        sample = asyncio.run(measure(base, count, seconds, 0.5, pid, bots=2))
        figures = sample.figures()
        out[f"paced_tables_{count}"] = figures
        if figures["server_action_ms_p99"] >= target_ms:
            break
        best = count
    out["paced_capacity_tables"] = best
    return out


def _ratios(new: dict[str, float], old: dict[str, float]) -> dict[str, float]:
    """This tree's figures over the other's (below 1 is faster for times, above 1 for actions/s)."""
    return {k: round(new[k] / old[k], 3) for k in new if k.startswith("server_") and old.get(k)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per measurement")
    parser.add_argument("--tables", default="1,50", help="comma list of table counts")
    parser.add_argument("--think-ms", type=float, default=0.0, help="each seat waits this long before its move")
    parser.add_argument("--synchronous", default="normal", choices=("normal", "full"))
    parser.add_argument("--url", default=None, help="measure a server already running there (e.g. under a profiler)")
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        metavar="CHECKOUT",
        help="also measure the server of another checkout (e.g. a git worktree of main) in the same run: "
        "for each table count, that one's figures then this tree's, and the ratios this/that",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measurements per table count and server, pooled (with --compare the two servers take "
        "turns, the first one alternating), against the load of other programs that comes and goes",
    )
    parser.add_argument(
        "--bots", type=int, default=0, choices=range(4), help="seats of each table played by the server's bots"
    )
    parser.add_argument(
        "--stores",
        default="sqlite",
        help="with --paced: the servers measured one after the other, a comma list of sqlite (one process), "
        "postgresql1 and postgresql2 (PostgreSQL with 1 and 2 workers, on a throwaway cluster started here)",
    )
    parser.add_argument(
        "--paced",
        default=None,
        metavar="COUNTS",
        help="instead: people's pace (think 0.25-0.75 s, two bots a table) at these table counts (comma "
        "list, rising), the acknowledgement p99 of each and the largest count under 100 ms",
    )
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "seconds": args.seconds,
        "think_ms": args.think_ms,
        "bots": args.bots,
        "synchronous": args.synchronous,
    }
    if args.compare is not None:
        if not (args.compare / "src" / "liverpool").is_dir():
            parser.error(f"--compare: no src/liverpool in {args.compare}")
        out["compare"] = str(args.compare)
    with tempfile.TemporaryDirectory() as folder:
        servers: dict[str, str] = {}
        pids: dict[str, int] = {}
        procs = []
        try:
            if args.url is not None:
                servers["this"] = args.url
            else:
                port = free_port()
                (Path(folder) / "this").mkdir()
                procs.append(start_server(Path(folder) / "this", port, args.synchronous))
                servers["this"] = f"http://127.0.0.1:{port}"
                pids["this"] = procs[-1].pid
            if args.compare is not None:
                port = free_port()
                (Path(folder) / "other").mkdir()
                procs.append(start_server(Path(folder) / "other", port, args.synchronous, args.compare))
                servers["other"] = f"http://127.0.0.1:{port}"
                pids["other"] = procs[-1].pid
            for base in servers.values():
                asyncio.run(measure(base, 1, min(2.0, args.seconds), 0.0))  # warm-up
            if args.paced is not None and args.stores != "sqlite":
                for proc in procs:
                    stop_server(proc)
                procs.clear()
                out |= paced_stores(Path(folder), args)
                servers = {}
            if args.paced is not None:
                counts = [int(n) for n in args.paced.split(",")]
                for name, base in servers.items():
                    key = "paced" if name == "this" else "compare_paced"
                    out[key] = paced_capacity(base, counts, args.seconds, pids.get(name))
                servers = {}  # nothing else measured
            out["rounds"] = args.rounds
            for count in (int(n) for n in args.tables.split(",")) if servers else ():
                samples = {name: Sample() for name in servers}
                for r in range(args.rounds):
                    order = list(servers) if r % 2 else list(reversed(servers))  # "other" first in round 0
                    for name in order:
                        asyncio.run(
                            measure(
                                servers[name],
                                count,
                                args.seconds,
                                args.think_ms / 1000,
                                pids.get(name),
                                samples[name],
                                bots=args.bots,
                            )
                        )
                figures = samples["this"].figures()
                out[f"tables_{count}"] = figures
                if "other" in samples:
                    other = samples["other"].figures()
                    out[f"compare_tables_{count}"] = other
                    out[f"ratio_tables_{count}"] = _ratios(figures, other)
        finally:
            for proc in procs:
                stop_server(proc)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

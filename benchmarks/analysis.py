"""The analysis library measured: speed of a whole game's review, and what reviews find by bot.

Speed (``make bench``): one game of ``random`` against three greedy bots (fixed seed) is reviewed
for the random seat with the default budget, once with one process and once with ``--jobs``
processes, side by side, and for a greedy seat with ``--jobs`` processes; then the random seat's
review as the server makes it (its review worker process, started for it, splitting the review
over ``--jobs`` processes: ``server.advice.review_answer``): wall and CPU seconds
(the CPU time, of this process and its workers, tells a busy host from a slow review) and the
host's load average; prints one JSON line::

    python benchmarks/analysis.py [--jobs 2] [--samples 24]

Evidence (docs/analysis.md): ``--evidence GAMES`` plays GAMES games of ``random`` against three
greedy bots and GAMES games of ``strong:samples=S`` against three greedy bots (the hero's seat
turning with the game), reviews the hero's seat and the next (greedy) seat of every game, and
prints the mean points lost per decision by bot, with 95% intervals over games::

    python benchmarks/analysis.py --evidence 20 --jobs 2 --samples 24 --strong-samples 16 --out ev.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

FAST = Path(__file__).resolve().parents[1] / "build" / "fast"
"""The compiled greedy bot (``make fast``; ``make bench`` builds it first): the reviews' playouts use
it when it is built, as ``liverpool`` does with ``PYTHONPATH=build/fast`` (``--source``: never)."""
if __name__ == "__main__" and "--source" not in sys.argv and (FAST / ".built").exists():
    sys.path.insert(0, str(FAST))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(FAST), *filter(None, [os.environ.get("PYTHONPATH")])])

from liverpool import Game  # noqa: E402
from liverpool.analysis import DEFAULT_SAMPLES, Budget, review  # noqa: E402
from liverpool.bots import from_spec  # noqa: E402
from liverpool.driver import play_game  # noqa: E402

BENCH_SEED = 3


def play(hero: str, seed: int, seat: int) -> dict[str, Any]:
    """A record of ``hero`` at ``seat`` against greedy bots, 4 players."""
    specs = ["greedy"] * 4
    specs[seat] = hero
    bots = [from_spec(spec, seed=seed * 10 + k) for k, spec in enumerate(specs)]
    return play_game(Game.new(players=4, seed=seed), bots).record()


def speed(jobs: int, samples: int) -> dict[str, Any]:
    """Seconds to review the random seat of one game with 1 and ``jobs`` processes, and a greedy
    seat of the same game with ``jobs`` processes."""
    record = play("random", BENCH_SEED, 0)
    import liverpool.bots.greedy.heuristics as compiled

    build = "compiled greedy (build/fast)" if compiled.__file__.endswith(".so") else "source"
    out: dict[str, Any] = {"samples": samples, "build": build, "cpus": os.cpu_count()}
    for seat, j in sorted({(0, 1), (0, jobs), (1, jobs)}):
        before = _cpu()
        start = time.perf_counter()
        r = review(record, seat, Budget(samples=samples), jobs=j)
        name = "random" if seat == 0 else "greedy"
        out[f"{name}_seat_s_jobs{j}"] = round(time.perf_counter() - start, 2)
        out[f"{name}_seat_cpu_s_jobs{j}"] = round(_cpu() - before, 2)
        out[f"{name}_seat_decisions"] = len(r.decisions)
    if jobs != 1:
        out["speedup"] = round(out["random_seat_s_jobs1"] / out[f"random_seat_s_jobs{jobs}"], 2)
    # the server's path (GET /api/tables/{id}/review/{seat}): its review worker, a spawned process
    # started for the request, computes review_answer split over ``jobs`` processes of its own
    from liverpool.server.advice import Workers, review_answer

    start = time.perf_counter()
    workers = Workers(1, "reviews")
    try:
        asyncio.run(workers.run(review_answer, record, 0, samples, 0, jobs))
    finally:
        workers.close()
    out[f"server_worker_random_seat_s_jobs{jobs}"] = round(time.perf_counter() - start, 2)
    out["load_average_1min"] = round(os.getloadavg()[0], 2)
    return out


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the review's worker processes): on a
    busy host, where the wall time says more about the other programs than about the review."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _game(task: tuple[str, int, int, int]) -> list[dict[str, Any]]:
    """Play one game and review the hero's seat and the seat after it (one process, one game)."""
    hero, seed, seat, samples = task
    record = play(hero, seed, seat)
    rows = []
    for s, bot in ((seat, hero), ((seat + 1) % 4, "greedy")):
        r = review(record, s, Budget(samples=samples, seed=seed))
        rows.append(
            {
                "table": hero,
                "bot": bot.split(":")[0],
                "seed": seed,
                "seat": s,
                "decisions": len(r.decisions),
                "total_loss": r.total_loss,
                "by_verdict": r.by_verdict,
                "score": r.scores[s],
                "losses": [round(d.loss, 3) for d in r.decisions],
                "ses": [round(min(d.loss_se, 999.0), 3) for d in r.decisions],
            }
        )
    return rows


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a 95% interval (normal, over the values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def summarise(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per bot and table: points lost per decision (all decisions pooled) with a 95% interval over
    games (each game's points lost per decision), and the verdicts."""
    out = []
    for key in sorted({(r["table"], r["bot"]) for r in rows}):
        mine = [r for r in rows if (r["table"], r["bot"]) == key]
        per_game = [r["total_loss"] / r["decisions"] for r in mine if r["decisions"]]
        mean, lo, hi = interval(per_game)
        verdicts: dict[str, int] = {}
        for r in mine:
            for v, k in r["by_verdict"].items():
                verdicts[v] = verdicts.get(v, 0) + k
        decisions = sum(r["decisions"] for r in mine)
        out.append(
            {
                "table": key[0],
                "bot": key[1],
                "games": len(mine),
                "decisions": decisions,
                "loss_per_decision": round(sum(r["total_loss"] for r in mine) / decisions, 3),
                "per_game_mean": round(mean, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "mistakes_and_blunders_per_100": round(
                    100 * (verdicts.get("mistake", 0) + verdicts.get("blunder", 0)) / decisions, 2
                ),
                "by_verdict": verdicts,
            }
        )
    return out


def evidence(games: int, jobs: int, samples: int, strong_samples: int, start: int, out: Path | None) -> int:
    tasks = [
        (hero, start + g, g % 4, samples)
        for hero in ("random", f"strong:samples={strong_samples}")
        for g in range(games)
    ]
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    sink = out.open("a") if out else None
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_game, tasks):
            rows.extend(result)
            for r in result:
                if sink:
                    sink.write(json.dumps(r) + "\n")
                    sink.flush()
            print(f"{len(rows) // 2}/{len(tasks)} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    for line in summarise(rows):
        print(json.dumps(line))
    print(json.dumps({"seconds": round(time.perf_counter() - t0, 1)}))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--evidence", type=int, metavar="GAMES", help="measure reviews by bot over GAMES games each")
    parser.add_argument("--strong-samples", type=int, default=16)
    parser.add_argument("--start", type=int, default=100, help="first game seed of --evidence")
    parser.add_argument("--out", type=Path, help="append each reviewed seat as a JSON line (--evidence)")
    parser.add_argument("--summarise", type=Path, help="print the summary of a --out file")
    parser.add_argument("--source", action="store_true", help="use the source even where build/fast is built")
    args = parser.parse_args(argv)
    if args.summarise:
        rows = [json.loads(line) for line in args.summarise.read_text().splitlines() if line.strip()]
        for line in summarise(rows):
            print(json.dumps(line))
        return 0
    if args.evidence:
        return evidence(args.evidence, args.jobs, args.samples, args.strong_samples, args.start, args.out)
    print(json.dumps({"analysis_review": speed(args.jobs, args.samples)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

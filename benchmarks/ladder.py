"""The ladder of the bot levels as the server's ratings see it (docs/players.md): duplicate games
(each seed's deals played once per rotation of the levels over the seats), each rated by the
server's function (``liverpool.server.ratings.rate``, bots seated twice merged as the server
merges them; a level seated more than once counts its points per seat). Prints each level's
points, games won and rating, and each seed's points per level (for a paired margin).

    python benchmarks/ladder.py --levels easy,medium,hard --schedule 3S/10,2S1R/12,1S2R/12 \\
        --seeds 6 --think 0.05 --jobs 2

The second table of ``tests/server/test_ratings_ladder.py`` (the same games: seat ``i``'s bot is
seeded ``100 seed + i`` there too; the ratings here start new):

    python benchmarks/ladder.py --levels hard,medium,medium,medium --schedule '2S1R/12,1S2R/12,3R/12*' \\
        --samples 24 --first-seed 9100 --seeds 10 --jobs 2

Not part of ``make bench`` (minutes of CPU with the hard bot).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from liverpool import bots, driver
from liverpool.game import Game
from liverpool.rules import RuleSet


def play(job: tuple[int, int, tuple[str, ...], str, float | None, int | None]) -> dict[str, Any]:
    seed, rot, levels, schedule, think, samples = job
    levels = levels[rot:] + levels[:rot]
    rules = RuleSet.preset("liverpool").with_options(schedule=schedule) if schedule else RuleSet.preset("liverpool")
    hard: dict[str, Any] = {}
    if think is not None:
        hard["think"] = think
    if samples is not None:
        hard["samples"] = samples
    players = [bots.get(lv, seed=100 * seed + i, **(hard if lv == "hard" else {})) for i, lv in enumerate(levels)]
    game = driver.play_game(Game.new(players=len(levels), rules=rules, seed=seed), players)
    return {"seed": seed, "levels": levels, "scores": game.scores, "winners": game.winners}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="easy,medium,hard")
    ap.add_argument("--schedule", default="", help="a deal schedule (default: the preset's seven deals)")
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--first-seed", type=int, default=5000)
    ap.add_argument("--think", type=float, default=None, help="the hard bot's time budget (default its own)")
    ap.add_argument("--samples", type=int, default=None, help="the hard bot's fixed samples per decision")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    from liverpool.server.ratings import MU, SIGMA, SeatResult, ordinal, rank_places, rate

    levels = tuple(args.levels.split(","))
    jobs = [
        (args.first_seed + s, rot, levels, args.schedule, args.think, args.samples)
        for s in range(args.seeds)
        for rot in range(len(levels))
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(play, jobs))
    current = {lv: (MU, SIGMA) for lv in levels}
    points = dict.fromkeys(levels, 0.0)
    per_seed: dict[int, dict[str, float]] = {}  # each seed's points per level (per seat) over its rotations
    wins = dict.fromkeys(levels, 0.0)  # games won, a shared win split
    for r in results:
        seats = [SeatResult(lv, "bot", lv, r["scores"][i], i in r["winners"]) for i, lv in enumerate(r["levels"])]
        new = rate([current[lv] for lv in r["levels"]], rank_places(seats))
        merged: dict[str, list[tuple[float, float]]] = {}
        for i, (lv, nr) in enumerate(zip(r["levels"], new, strict=True)):
            merged.setdefault(lv, []).append(nr)
            points[lv] += r["scores"][i] / r["levels"].count(lv)  # a level seated twice: per seat
            seed_points = per_seed.setdefault(r["seed"], dict.fromkeys(levels, 0.0))
            seed_points[lv] += r["scores"][i] / r["levels"].count(lv)
            if i in r["winners"]:
                wins[lv] += 1 / len(r["winners"])
        for lv, rs in merged.items():
            current[lv] = (sum(x[0] for x in rs) / len(rs), sum(x[1] for x in rs) / len(rs))
    print(
        json.dumps(
            {
                "games": len(results),
                "seconds": round(time.perf_counter() - started, 1),
                "wins": {lv: round(w, 2) for lv, w in wins.items()},
                "per_seed": {str(sd): {lv: round(p, 1) for lv, p in ps.items()} for sd, ps in per_seed.items()},
                "levels": {
                    lv: {
                        "points": points[lv],
                        "mu": round(mu, 2),
                        "sigma": round(sg, 2),
                        "rating": round(ordinal(mu, sg), 2),
                    }
                    for lv, (mu, sg) in current.items()
                },
            }
        )
    )


if __name__ == "__main__":
    main()

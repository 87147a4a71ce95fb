"""Calibration of the model that values an unfinished deal (docs/analysis.md).

A playout that stops before the deal's end (``horizon`` turns, when the end is not near) is valued
by :func:`liverpool.bots.search.standing` on :func:`liverpool.bots.strong.expected_points`: each
seat's deal points less the others' mean, as the hands' points and deficits predict them (times
``FAR_SHRINK`` when the end is not near). This
script plays games of four greedy bots, records that prediction at every turn start for every
seat, and sets it beside the standing the seat actually had when the deal ended. It prints, by
bins of the prediction, the mean predicted and mean actual standing (calibrated: the two agree),
separately for turn starts where the end is near (:func:`liverpool.bots.search.end_is_near`: the
search plays those to the end) and where it is not (where the search uses the model)::

    python benchmarks/value_model.py --games 40 [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from liverpool import Game
from liverpool.bots import get
from liverpool.bots.search import end_is_near, standing
from liverpool.driver import next_to_act

EDGES = (-40.0, -25.0, -15.0, -8.0, -3.0, 3.0, 8.0, 15.0, 25.0, 40.0)


def _standing(points: Sequence[float], seat: int) -> float:
    return points[seat] - (sum(points) - points[seat]) / (len(points) - 1)


def collect(games: int, seed: int) -> list[tuple[bool, float, float]]:
    """(end near, predicted standing, actual standing) for every seat at every turn start."""
    rows: list[tuple[bool, float, float]] = []
    for g in range(games):
        game = Game.new(players=4, seed=seed + g)
        bots = [get("greedy", seed=seed * 100 + g * 4 + k) for k in range(4)]
        pending: list[tuple[int, bool, float]] = []
        deals_done = 0
        last_turn = -1
        while not game.is_over:
            if game.deal_index == deals_done and game.turn != last_turn and game.phase == "draw":
                last_turn = game.turn
                near = end_is_near(game)
                pending.extend((p, near, standing(game, p, ended=False)) for p in range(4))
            seat, legal = next_to_act(game)
            game.apply(bots[seat].act(game.view(seat), legal))
            if len(game.deal_scores) > deals_done:
                scores = game.deal_scores[deals_done]
                rows.extend((near, pred, _standing(scores, p)) for p, near, pred in pending)
                pending = []
                deals_done += 1
                last_turn = -1
    return rows


def calibration(rows: Sequence[tuple[bool, float, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for near in (False, True):
        part = [(p, a) for n, p, a in rows if n == near]
        if not part:
            continue
        bins = []
        lows = (-1e9, *EDGES)
        highs = (*EDGES, 1e9)
        for lo, hi in zip(lows, highs, strict=True):
            cell = [(p, a) for p, a in part if lo <= p < hi]
            if len(cell) < 20:
                continue
            actual = [a for _, a in cell]
            bins.append(
                {
                    "from": lo if lo > -1e9 else None,
                    "to": hi if hi < 1e9 else None,
                    "n": len(cell),
                    "predicted": round(statistics.fmean(p for p, _ in cell), 1),
                    "actual": round(statistics.fmean(actual), 1),
                    "actual_se": round(statistics.stdev(actual) / len(actual) ** 0.5, 1),
                }
            )
        preds = [p for p, _ in part]
        acts = [a for _, a in part]
        slope = statistics.linear_regression(preds, acts).slope
        out["near" if near else "not_near"] = {
            "n": len(part),
            "slope": round(slope, 3),  # of the actual standing on the predicted: 1 when calibrated
            "correlation": round(statistics.correlation(preds, acts), 3),
            "bins": bins,
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = calibration(collect(args.games, args.seed))
    if args.json:
        print(json.dumps(result))
        return 0
    for key, part in result.items():
        print(f"{key}: {part['n']} seat-turns, slope (actual on predicted) {part['slope']}, r {part['correlation']}")
        print("   prediction bin        n   predicted   actual (± se)")
        for b in part["bins"]:
            span = f"{b['from'] if b['from'] is not None else '':>6} .. {b['to'] if b['to'] is not None else '':<6}"
            print(f"   {span:<18} {b['n']:>5}   {b['predicted']:>9}   {b['actual']:>6} ± {b['actual_se']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

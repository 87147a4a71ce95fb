"""How well settings of the strong bot choose, decision by decision, at one time budget.

The strong bot's searched decisions (draw, buy, discard) are collected from games of strong
against three greedy bots (strong playing greedy's choice, so the positions do not depend on the
settings measured). Each position's candidates are then valued by an *oracle*: many samples of
whole-deal playouts (``--oracle-samples``). A setting's *regret* at a position is the oracle value
of the best candidate (of the ``--width`` collected) less the oracle value of the candidate the
setting chose within ``--budget`` seconds (among its own ``width`` first); its mean over the
positions says how much a setting loses per searched decision, in points of the deal, against
what more thinking would choose. Every setting runs on the same positions in the same run, so
the figures compare side by side::

    python benchmarks/strong_regret.py --games 3 --oracle-samples 300 --budget 0.1 \\
        --specs strong:horizon=0:margin=1.0 strong:margin=1.0 strong

The oracle shares the bots' model (the same sampler and greedy playouts): a setting that matches
it is not thereby right about real opponents, which only games measure (``liverpool simulate``).
"""

from __future__ import annotations

import argparse
import copy
import json
import pickle
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from liverpool import Game
from liverpool.actions import Action
from liverpool.bots import from_spec, get
from liverpool.bots.greedy import Snapshot, rules_for_view
from liverpool.bots.strong import StrongBot
from liverpool.cards import Card
from liverpool.driver import play_game
from liverpool.rules import RuleSet


@dataclass
class Position:
    """One searched decision: the view, its candidates and what the bot knew of the hidden cards."""

    view: dict[str, Any]
    cands: list[Action]
    known: dict[int, list[Card]]
    stock_draws: dict[int, int]
    declined: dict[int, list[Card]]
    collects: dict[int, list[Card]]


class _Recorder(StrongBot):
    """A strong bot that records its searched decisions and plays greedy's choice."""

    def __init__(self, seed: int, positions: list[Position], width: int) -> None:
        super().__init__(seed=seed, samples=1, width=width)
        self.positions = positions

    def search(
        self, view: dict[str, Any], rules: RuleSet, s: Snapshot, cands: list[Action], known: dict[int, list[Card]]
    ) -> Action:
        self.positions.append(
            Position(
                copy.deepcopy(view),
                list(cands),
                copy.deepcopy(known),
                dict(self.cards.stock_draws),
                copy.deepcopy(self.cards.declined),
                copy.deepcopy(s.collects),
            )
        )
        return cands[0]


def collect(games: int, seed: int, width: int = 3) -> list[Position]:
    """The searched decisions of ``games`` games, with up to ``width`` candidates each."""
    positions: list[Position] = []
    for g in range(games):
        bots = [_Recorder(seed + g, positions, width)] + [get("greedy", seed=k) for k in range(1, 4)]
        play_game(Game.new(players=4, seed=seed + g), bots)
    return positions


def _setup(bot: StrongBot, pos: Position) -> tuple[RuleSet, Snapshot]:
    bot.cards.stock_draws = dict(pos.stock_draws)
    bot.cards.declined = copy.deepcopy(pos.declined)
    rules = rules_for_view(pos.view)
    s = Snapshot.from_view(pos.view, rules)
    s.collects = pos.collects
    return rules, s


def oracle(positions: Sequence[Position], samples: int, seed: int) -> list[list[float]]:
    """The mean value of every candidate of every position over ``samples`` whole-deal playouts."""
    out: list[list[float]] = []
    for i, pos in enumerate(positions):
        bot = StrongBot(seed=seed + i, samples=samples, race=False, horizon=0)
        rules, s = _setup(bot, pos)
        values = bot.sample_values(pos.view, rules, s, pos.cands, pos.known)
        out.append([statistics.fmean(v) if v else 0.0 for v in values])
    return out


def regret(
    spec: str, positions: Sequence[Position], means: Sequence[list[float]], budget: float, reps: int
) -> dict[str, Any]:
    regrets: list[float] = []
    samples: list[int] = []
    changed = 0
    for i, (pos, value) in enumerate(zip(positions, means, strict=True)):
        for r in range(reps):
            try:
                bot = from_spec(spec, seed=1000 * r + i, think=budget, burst=1, carry=1)
            except ValueError as exc:
                raise SystemExit(f"{spec!r}: {exc}") from exc
            if not isinstance(bot, StrongBot):
                raise SystemExit(f"{spec!r} is not a strong bot")
            bot.bank = budget
            rules, s = _setup(bot, pos)
            before = bot.samples
            cands = pos.cands[: bot.width]  # greedy's choice, then by greedy's ranking
            choice = cands.index(bot.search(pos.view, rules, s, cands, pos.known))
            regrets.append(value[choice] - min(value))  # values: own points less the others' mean
            samples.append(bot.samples - before)
            changed += choice != 0
    return {
        "spec": spec,
        "mean_regret": round(statistics.fmean(regrets), 3),
        "mean_samples": round(statistics.fmean(samples), 1),
        "changed": round(changed / len(regrets), 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="games to collect positions from")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--oracle-samples", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per decision for the settings")
    parser.add_argument("--reps", type=int, default=2, help="searches per position and setting")
    parser.add_argument("--width", type=int, default=3, help="candidates collected (settings may use fewer)")
    parser.add_argument("--cache", type=Path, help="keep the positions and oracle values in this file (a pickle)")
    parser.add_argument("--specs", nargs="+", default=["strong:horizon=0:margin=1.0", "strong:margin=1.0", "strong"])
    args = parser.parse_args(argv)
    start = time.perf_counter()
    key = (args.games, args.seed, args.width, args.oracle_samples)
    cached = pickle.loads(args.cache.read_bytes()) if args.cache and args.cache.exists() else None
    if cached is not None and cached[0] == key:
        positions, means = cached[1], cached[2]
    else:
        positions = collect(args.games, args.seed, args.width)
        means = oracle(positions, args.oracle_samples, args.seed)
        if args.cache:
            args.cache.write_bytes(pickle.dumps((key, positions, means)))
    greedy = statistics.fmean(max(v) - v[0] for v in means)
    print(json.dumps({"positions": len(positions), "greedy_choice_regret": round(greedy, 3)}))
    for spec in args.specs:
        print(json.dumps(regret(spec, positions, means, args.budget, args.reps)))
    print(json.dumps({"seconds": round(time.perf_counter() - start, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

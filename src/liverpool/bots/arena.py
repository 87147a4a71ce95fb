"""Measuring bots: one bot against a field, seats rotating, and decision times.

The numbers in ``docs/bots.md`` come from this module::

    python -m liverpool.bots.arena --hero greedy --field random --games 200
    python -m liverpool.bots.arena --hero strong:think=0.05 --field greedy --games 200 --start 0
    python -m liverpool.bots.arena --speed greedy --games 20

A bot is named as for :func:`liverpool.bots.get`, options after a colon (``strong:think=0.05``).
Game ``i`` is dealt with seed ``base_seed + i`` and the hero sits in seat ``i % players``; each run
prints one JSON line per game (``--jsonl``) and a summary, so that runs over disjoint ``--start``
ranges (e.g. one per core) can be merged with ``--merge``.

>>> from liverpool.rules import parse_schedule
>>> result = play_match("greedy", "random", games=2, players=3, rules=RuleSet(schedule=parse_schedule("2S/10")))
>>> len(result.games), result.games[0].hero_seat
(2, 0)
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..actions import Action
from ..game import Game
from ..rules import RuleSet
from . import Bot, from_spec

__all__ = ["GameResult", "MatchResult", "make_bot", "play_match", "speed"]


def make_bot(spec: str, seed: int) -> Bot:
    """A bot from ``name[:option=value,...]`` (see :func:`liverpool.bots.parse_spec`)."""
    return from_spec(spec, seed=seed)


class _Timed:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.act(view, legal)
        self.times.append(time.perf_counter() - start)
        return action


@dataclass
class GameResult:
    """One game: the hero's seat and final score, the field's mean score, and the hero's decision times."""

    game: int
    hero_seat: int
    hero_score: int
    field_mean: float
    hero_won: bool
    decisions: int
    median_ms: float
    seconds: float


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default), honest for few games.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class MatchResult:
    games: list[GameResult] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Win rate and mean scores with 95% intervals (normal approximation)."""
        n = len(self.games)
        if not n:
            return {"games": 0}
        wins = sum(g.hero_won for g in self.games) / n
        hero = [float(g.hero_score) for g in self.games]
        fld = [g.field_mean for g in self.games]
        diff = [h - f for h, f in zip(hero, fld, strict=True)]

        def ci(xs: list[float]) -> float:
            return 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")

        times = sorted(g.median_ms for g in self.games)
        return {
            "games": n,
            "hero_win_rate": round(wins, 3),
            "hero_win_rate_ci95": round(1.96 * math.sqrt(wins * (1 - wins) / n), 3),
            "hero_win_rate_wilson95": [round(x, 3) for x in wilson(wins * n, n)],
            "hero_mean_score": round(statistics.mean(hero), 1),
            "hero_mean_score_ci95": round(ci(hero), 1),
            "field_mean_score": round(statistics.mean(fld), 1),
            "field_mean_score_ci95": round(ci(fld), 1),
            "hero_minus_field": round(statistics.mean(diff), 1),
            "hero_minus_field_ci95": round(ci(diff), 1),
            "hero_over_field": round(statistics.mean(hero) / statistics.mean(fld), 3) if statistics.mean(fld) else None,
            "median_of_game_median_decision_ms": times[len(times) // 2],
        }


def play_match(
    hero: str,
    field_spec: str,
    games: int,
    start: int = 0,
    players: int = 4,
    rules: RuleSet | None = None,
    base_seed: int = 1000,
    out: Any = None,
) -> MatchResult:
    """Play ``games`` games of ``hero`` against ``players - 1`` copies of ``field_spec``."""
    from ..driver import play_game

    rules = rules if rules is not None else RuleSet()
    result = MatchResult()
    for g in range(start, start + games):
        seat = g % players
        bots: list[Any] = [make_bot(field_spec, g * 10 + p) for p in range(players)]
        timed = _Timed(make_bot(hero, g * 10 + seat))
        bots[seat] = timed
        began = time.perf_counter()
        game = play_game(Game.new(players=players, rules=rules, seed=base_seed + g), bots)
        others = [game.scores[p] for p in range(players) if p != seat]
        row = GameResult(
            game=g,
            hero_seat=seat,
            hero_score=game.scores[seat],
            field_mean=sum(others) / len(others),
            hero_won=seat in game.winners,
            decisions=len(timed.times),
            median_ms=round(statistics.median(timed.times) * 1000, 3) if timed.times else 0.0,
            seconds=round(time.perf_counter() - began, 2),
        )
        result.games.append(row)
        if out is not None:
            print(json.dumps(asdict(row)), file=out, flush=True)
    return result


def speed(spec: str, games: int, players: int = 4, rules: RuleSet | None = None) -> dict[str, float]:
    """Whole games per second with every seat played by ``spec``, and its median decision time."""
    from ..driver import play_game

    rules = rules if rules is not None else RuleSet()
    times: list[float] = []
    began = time.perf_counter()
    for g in range(games):
        bots = [_Timed(make_bot(spec, g * 10 + p)) for p in range(players)]
        play_game(Game.new(players=players, rules=rules, seed=3000 + g), bots)
        for b in bots:
            times.extend(b.times)
    elapsed = time.perf_counter() - began
    return {
        "games_per_second": round(games / elapsed, 2),
        "decisions": len(times),
        "median_decision_ms": round(statistics.median(times) * 1000, 4),
        "mean_decision_ms": round(statistics.mean(times) * 1000, 4),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m liverpool.bots.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hero", default="greedy", help="the bot measured, e.g. strong:think=0.05")
    parser.add_argument("--field", default="random", help="the bot in every other seat")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--start", type=int, default=0, help="first game number (seeds base_seed + number)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="liverpool")
    parser.add_argument("--jsonl", action="store_true", help="print one JSON line per game")
    parser.add_argument("--merge", nargs="*", default=None, help="summarise JSON lines from these files")
    parser.add_argument("--speed", metavar="BOT", help="games per second with every seat played by BOT")
    args = parser.parse_args(argv)
    rules = RuleSet.preset(args.preset)
    if args.speed:
        print(json.dumps(speed(args.speed, args.games, args.players, rules)))
        return 0
    if args.merge is not None:
        merged = MatchResult()
        for path in args.merge:
            with open(path) as handle:
                for line in handle:
                    if line.startswith("{"):
                        row = json.loads(line)
                        if "games" not in row:  # not a summary line
                            merged.games.append(GameResult(**row))
        print(json.dumps(merged.summary()))
        return 0
    result = play_match(
        args.hero, args.field, args.games, args.start, args.players, rules, out=sys.stdout if args.jsonl else None
    )
    print(json.dumps(result.summary()))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

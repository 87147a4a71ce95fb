"""The ladder: bots play mixed tables and get Elo-scale ratings from a Bradley-Terry fit.

Every pair of seats held by different bots in a game is one comparison: the lower final score
wins it, equal scores draw (half each). The Bradley-Terry strengths are fitted by Hunter's MM
iteration with a prior of one virtual draw per pair (so a bot that wins every comparison still
gets a finite rating), and put on the Elo scale (400 points = 10:1 odds) with the mean rating at
1500. A 95% interval is the wider of two: a bootstrap over games (which keeps the comparisons of
one game together, as they are not independent) and the analytic one from the likelihood's
curvature (which stays wide when a bot wins every comparison, where every resample agrees).

>>> wins = {("a", "b"): 30.0, ("b", "a"): 10.0}
>>> ratings = fit_bradley_terry(["a", "b"], wins)
>>> round(ratings["a"] - ratings["b"])
185
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import stdev
from typing import TYPE_CHECKING, Any

from .. import bots as bot_registry
from ..rules import RuleSet
from .games import GameResult, GameSpec, accepts_think, derive_seed
from .runner import Interrupted, Stopped, run_games
from .stats import Z95
from .tournament import BotStats, aggregate, check_lineup, parse_seats

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "BOOTSTRAP_SAMPLES",
    "ELO_MEAN",
    "LadderResult",
    "Rating",
    "analytic_sd",
    "fit_bradley_terry",
    "ladder_bots",
    "ladder_lineups",
    "ladder_specs",
    "pairwise",
    "run_ladder",
]

ELO_MEAN = 1500.0
BOOTSTRAP_SAMPLES = 200
_PRIOR_DRAWS = 1.0

Pairs = dict[tuple[str, str], float]


def _alias_of(name: str) -> str | None:
    """The registered bot a difficulty name stands for ("medium" is "greedy"), if any."""
    difficulties: dict[str, tuple[str, object]] = getattr(bot_registry, "DIFFICULTIES", {})
    if name in difficulties:
        target = difficulties[name][0]
        if target != name and target in bot_registry.BOTS:
            return target
    return None


def ladder_bots(think: float | None = None) -> list[str]:
    """Every registered bot but the difficulty names that stand for another one, and searching bots
    (those taking ``think``) only when ``think`` is given: they are too slow for a ladder at their
    default thinking time."""
    return [
        name
        for name in bot_registry.names()
        if _alias_of(name) is None and (think is not None or not accepts_think(name))
    ]


def ladder_lineups(bots: Sequence[str], table: int) -> list[tuple[str, ...]]:
    """Every mix of ``table`` seats from ``bots`` with at least two different bots, in a fixed order.

    >>> ladder_lineups(["a", "b"], 3)
    [('a', 'a', 'b'), ('a', 'b', 'b')]
    """
    return [combo for combo in itertools.combinations_with_replacement(sorted(set(bots)), table) if len(set(combo)) > 1]


def ladder_specs(
    bots: Sequence[str], table: int, games: int, rules: RuleSet, seed: int, *, think: float | None = None
) -> list[GameSpec]:
    """Game ``i`` plays the ``i``-th lineup of :func:`ladder_lineups` (cycling), its seats shuffled
    by a seed derived from ``seed`` and ``i``."""
    lineups = ladder_lineups(bots, table)
    if not lineups:
        raise ValueError(f"a ladder needs at least two different bots, got {', '.join(sorted(set(bots)))}")
    specs = []
    for i in range(games):
        lineup = list(lineups[i % len(lineups)])
        random.Random(derive_seed(seed, "ladder", i)).shuffle(lineup)
        specs.append(
            GameSpec(
                index=i,
                seed=derive_seed(seed, "game", i),
                lineup=tuple(lineup),
                bot_seeds=tuple(derive_seed(seed, "bot", i, seat) for seat in range(table)),
                rules=rules,
                think=think,
            )
        )
    return specs


def pairwise(result: GameResult) -> Pairs:
    """One game's comparisons: ``{(a, b): wins of bot a over bot b}`` over seats of different bots.

    >>> from liverpool.sim.games import GameResult
    >>> g = GameResult(0, 0, ("x", "y", "y"), (5, 9, 5), (0, 2), (), (), (0, 0, 0), 0)
    >>> sorted(pairwise(g).items())
    [(('x', 'y'), 1.5), (('y', 'x'), 0.5)]
    """
    wins: Pairs = {}
    for a, b in itertools.combinations(range(len(result.lineup)), 2):
        name_a, name_b = result.lineup[a], result.lineup[b]
        if name_a == name_b:
            continue
        sa, sb = result.scores[a], result.scores[b]
        share = 1.0 if sa < sb else 0.5 if sa == sb else 0.0
        wins[name_a, name_b] = wins.get((name_a, name_b), 0.0) + share
        wins[name_b, name_a] = wins.get((name_b, name_a), 0.0) + 1.0 - share
    return wins


def fit_bradley_terry(
    bots: Sequence[str], wins: Mapping[tuple[str, str], float], prior_draws: float = _PRIOR_DRAWS
) -> dict[str, float]:
    """Elo-scale ratings (mean :data:`ELO_MEAN`) of ``bots`` from ``wins[a, b]`` (a's wins over b,
    draws counted half), with ``prior_draws`` virtual draws added to every pair."""
    names = list(bots)
    m = len(names)
    w = [[0.0 if i == j else wins.get((names[i], names[j]), 0.0) + prior_draws / 2 for j in range(m)] for i in range(m)]
    total = [[w[i][j] + w[j][i] for j in range(m)] for i in range(m)]
    won = [sum(row) for row in w]
    strength = [1.0] * m
    for _ in range(10_000):
        new = []
        for i in range(m):
            denominator = sum(total[i][j] / (strength[i] + strength[j]) for j in range(m) if j != i)
            new.append(won[i] / denominator if denominator > 0 else strength[i])
        scale = math.exp(-sum(math.log(s) for s in new) / m)
        new = [s * scale for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    return {name: ELO_MEAN + 400 * math.log10(s) for name, s in zip(names, strength, strict=True)}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrices here are a few rows)."""
    m = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(m):
        pivot = max(range(col, m), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(m):
            if r != col and a[col][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][m] / a[i][i] for i in range(m)]


def analytic_sd(
    ratings: Mapping[str, float], wins: Mapping[tuple[str, str], float], prior_draws: float = _PRIOR_DRAWS
) -> dict[str, float]:
    """Standard errors of Elo-scale ratings (against their mean) from the curvature of the
    Bradley-Terry likelihood at the fit (a Laplace approximation, prior included): it treats every
    comparison as independent, but stays honest when one bot wins every comparison.

    >>> sd = analytic_sd({"a": 1500.0, "b": 1500.0}, {("a", "b"): 49.5, ("b", "a"): 49.5})
    >>> round(sd["a"], 1), round(sd["b"], 1)
    (17.4, 17.4)
    """
    names = list(ratings)
    m = len(names)
    scale = 400 / math.log(10)
    info = [[0.0] * m for _ in range(m)]
    for i, j in itertools.combinations(range(m), 2):
        n = wins.get((names[i], names[j]), 0.0) + wins.get((names[j], names[i]), 0.0) + prior_draws
        p = 1 / (1 + 10 ** ((ratings[names[j]] - ratings[names[i]]) / 400))
        weight = n * p * (1 - p)
        info[i][i] += weight
        info[j][j] += weight
        info[i][j] -= weight
        info[j][i] -= weight
    # the pseudo-inverse of this Laplacian-like matrix: (I + 11'/m)^-1 - 11'/m, column by column
    shifted = [[info[i][j] + 1 / m for j in range(m)] for i in range(m)]
    sd = {}
    for i, name in enumerate(names):
        column = _solve(shifted, [1.0 if r == i else 0.0 for r in range(m)])
        sd[name] = scale * math.sqrt(max(0.0, column[i] - 1 / m))
    return sd


def _sum_pairs(games: Sequence[Pairs]) -> Pairs:
    total: Pairs = {}
    for pairs in games:
        for key, value in pairs.items():
            total[key] = total.get(key, 0.0) + value
    return total


@dataclass
class Rating:
    """A bot's rating with its bootstrap 95% interval and standard error, and its totals: pairwise
    ``comparisons`` and ``score`` (the share of them won) and the game statistics ``stats``."""

    name: str
    rating: float
    ci95: tuple[float, float]
    sd: float
    comparisons: float
    score: float
    stats: BotStats

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rating": round(self.rating, 1),
            "rating_ci95": [round(self.ci95[0], 1), round(self.ci95[1], 1)],
            "rating_sd": round(self.sd, 1),
            "games": self.stats.games,
            "comparisons": round(self.comparisons, 4),
            "score": round(self.score, 4),
            "win_rate": round(self.stats.win_rate, 4),
            "mean_score": round(self.stats.mean_score, 4),
        }


@dataclass
class LadderResult:
    """A ladder's games (in order), ratings (best first) and pairwise totals."""

    bots: list[str]
    table: int
    seed: int
    rules: RuleSet
    think: float | None
    games: list[GameResult]
    seconds: float
    samples: int = BOOTSTRAP_SAMPLES
    ratings: list[Rating] = field(init=False)
    pairs: Pairs = field(init=False)

    def __post_init__(self) -> None:
        per_game = [pairwise(g) for g in self.games]
        self.pairs = _sum_pairs(per_game)
        point = fit_bradley_terry(self.bots, self.pairs)
        rng = random.Random(derive_seed(self.seed, "bootstrap"))
        draws: dict[str, list[float]] = {name: [] for name in self.bots}
        for _ in range(self.samples if per_game else 0):
            sample = _sum_pairs([per_game[rng.randrange(len(per_game))] for _ in per_game])
            for name, value in fit_bradley_terry(self.bots, sample).items():
                draws[name].append(value)
        stats = {s.name: s for s in aggregate(self.games)}
        analytic = analytic_sd(point, self.pairs)
        self.ratings = []
        for name in self.bots:
            # the wider of the bootstrap's percentile interval and the analytic one
            sd = analytic[name]
            lo, hi = point[name] - Z95 * sd, point[name] + Z95 * sd
            values = sorted(draws[name])
            if len(values) > 1:
                lo = min(lo, values[round(0.025 * (len(values) - 1))])
                hi = max(hi, values[round(0.975 * (len(values) - 1))])
                sd = max(sd, stdev(values))
            won = sum(v for (a, _), v in self.pairs.items() if a == name)
            lost = sum(v for (_, b), v in self.pairs.items() if b == name)
            comparisons = won + lost
            self.ratings.append(
                Rating(
                    name=name,
                    rating=point[name],
                    ci95=(lo, hi),
                    sd=sd,
                    comparisons=comparisons,
                    score=won / comparisons if comparisons else 0.0,
                    stats=stats.get(name, BotStats(name)),
                )
            )
        self.ratings.sort(key=lambda r: (-r.rating, r.name))

    def to_dict(self) -> dict[str, Any]:
        names = sorted(self.bots)
        return {
            "games": len(self.games),
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
            "table": self.table,
            "think": self.think,
            "bootstrap_samples": self.samples,
            "bots": [r.to_dict() for r in self.ratings],
            "pairs": [
                {
                    "bot": a,
                    "opponent": b,
                    "comparisons": round(self.pairs.get((a, b), 0.0) + self.pairs.get((b, a), 0.0), 4),
                    "score": round(self.pairs.get((a, b), 0.0), 4),
                }
                for a, b in itertools.combinations(names, 2)
            ],
            "rules": self.rules.to_dict(),
            "rows": [g.row() for g in self.games],
        }


def run_ladder(
    bots: Sequence[str] | None = None,
    *,
    games: int = 100,
    table: int = 4,
    rules: RuleSet | None = None,
    seed: int = 0,
    jobs: int = 1,
    think: float | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
    console: Console | None = None,
    samples: int = BOOTSTRAP_SAMPLES,
    records: str | os.PathLike[str] | None = None,
) -> LadderResult:
    """Play ``games`` games of ``table`` seats mixing ``bots`` (default :func:`ladder_bots`) and rate
    them; the other arguments as for :func:`~liverpool.sim.run_tournament`."""
    names = sorted(set(parse_seats(bots if bots is not None else ladder_bots(think))))
    rules = rules if rules is not None else RuleSet()
    if len(names) < 2:
        raise ValueError(f"a ladder needs at least two different bots, got {', '.join(names) or 'none'}")
    check_lineup(names[:1] * table, rules, games, think)
    specs = ladder_specs(names, table, games, rules, seed, think=think)
    if records is not None:
        specs = [dataclasses.replace(spec, keep_record=True) for spec in specs]
    start = time.perf_counter()
    try:
        results = run_games(
            specs,
            jobs=jobs,
            backend=backend,
            address=address,
            progress=progress,
            console=console,
            description="Ladder",
            records=records,
        )
    except (Interrupted, Stopped) as stop:
        # the ratings of the games finished so far go with the exception
        stop.summary = LadderResult(
            bots=names,
            table=table,
            seed=seed,
            rules=rules,
            think=think,
            games=stop.results,
            seconds=time.perf_counter() - start,
            samples=samples,
        )
        raise
    return LadderResult(
        bots=names,
        table=table,
        seed=seed,
        rules=rules,
        think=think,
        games=results,
        seconds=time.perf_counter() - start,
        samples=samples,
    )

"""A tournament: N games between a fixed set of seats, rotated, and the statistics per bot.

Game ``i`` rotates the seats by ``i`` places (the bot listed first sits at seat ``i mod n``), so
over any multiple of n games every bot sits at every position equally often. Its game seed and
bot seeds are derived from the tournament seed and ``i``; results are aggregated in game order, so
neither ``jobs`` nor the backend changes the outcome.

>>> result = run_tournament(["random", "random"], games=2, rules=QUICK_RULES, seed=3)
>>> [g.lineup for g in result.games], result.bots[0].seats, result.bots[0].wins
([('random', 'random'), ('random', 'random')], 2, 2.0)
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import TYPE_CHECKING, Any

from .. import bots as bot_registry
from ..rules import RuleSet
from .games import GameResult, GameSpec, derive_seed
from .runner import Interrupted, Stopped, run_games
from .stats import mean_ci, wilson_interval

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "QUICK_RULES",
    "BotStats",
    "TournamentResult",
    "aggregate",
    "check_lineup",
    "parse_seats",
    "rotated",
    "run_tournament",
    "tournament_specs",
]

QUICK_RULES = RuleSet().with_options(schedule="2S/10,1S1R/10", turn_limit="60")
"""Two short deals: for tests and examples."""


def parse_seats(text: str | Sequence[str]) -> list[str]:
    """Bot specs from ``"strong,greedy,greedy"`` (or a list), checked against the registry.

    A seat may carry options, ``strong:samples=50:width=4`` (see :func:`liverpool.bots.parse_spec`);
    in a comma-separated text an item with ``=`` and no ``:`` continues the previous seat's options,
    so ``strong:think=0.1,width=4,greedy`` is two seats.

    >>> parse_seats("strong:think=0.1,width=4,greedy")
    ['strong:think=0.1,width=4', 'greedy']
    """
    items = [s.strip() for s in text.split(",")] if isinstance(text, str) else [s.strip() for s in text]
    seats: list[str] = []
    for item in items:
        if isinstance(text, str) and seats and "=" in item and ":" not in item:
            seats[-1] += "," + item
        else:
            seats.append(item)
    if not seats or any(not s for s in seats):
        raise ValueError(f"--seats takes bot names separated by commas, got {text!r}")
    for spec in dict.fromkeys(seats):
        bot_registry.from_spec(spec, seed=0)  # unknown bots and bad options fail here, clearly
    return seats


def check_lineup(seats: Sequence[str], rules: RuleSet, games: int, think: float | None) -> None:
    """ValueError unless ``games`` games of ``seats`` under ``rules`` can be played."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    if think is not None and not think >= 0:
        raise ValueError(f"--think must be 0 or more seconds, got {think}")
    parse_seats(seats)
    rules.check_table(len(seats))


def rotated(seats: Sequence[str], index: int) -> tuple[str, ...]:
    """The lineup of game ``index``: every bot moved ``index`` seats clockwise.

    >>> rotated(["a", "b", "c"], 0), rotated(["a", "b", "c"], 1)
    (('a', 'b', 'c'), ('c', 'a', 'b'))
    """
    n = len(seats)
    return tuple(seats[(seat - index) % n] for seat in range(n))


def tournament_specs(
    seats: Sequence[str], games: int, rules: RuleSet, seed: int, think: float | None = None, keep_record: bool = False
) -> list[GameSpec]:
    """The games of a tournament, in order."""
    n = len(seats)
    return [
        GameSpec(
            index=i,
            seed=derive_seed(seed, "game", i),
            lineup=rotated(seats, i),
            bot_seeds=tuple(derive_seed(seed, "bot", i, seat) for seat in range(n)),
            rules=rules,
            think=think,
            keep_record=keep_record,
        )
        for i in range(games)
    ]


def _r(x: float) -> float:
    return round(x, 4)


@dataclass
class BotStats:
    """One bot's totals over every seat it held (seat-games: a bot in 3 seats of 10 games has 30).

    ``wins`` shares ties (a game won jointly by k players gives each 1/k), as does ``deals_won``
    (a deal's lowest score, normally the player who went out); ``deals_out`` counts going out."""

    name: str
    seats: int = 0
    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    deals: int = 0
    points: int = 0
    deals_won: float = 0.0
    deals_out: int = 0
    buys: int = 0

    def add(self, result: GameResult, seat: int) -> None:
        self.games += 1
        if seat in result.winners:
            self.wins += 1 / len(result.winners)
        self.scores.append(result.scores[seat])
        for points in result.deal_points:
            self.deals += 1
            self.points += points[seat]
            low = min(points)
            if points[seat] == low:
                self.deals_won += 1 / points.count(low)
        self.deals_out += sum(1 for out in result.deal_out if out == seat)
        self.buys += result.buys[seat]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return fmean(self.scores) if self.scores else 0.0

    @property
    def mean_score_ci95(self) -> tuple[float, float] | None:
        return mean_ci(self.scores)

    @property
    def points_per_deal(self) -> float:
        return self.points / self.deals if self.deals else 0.0

    @property
    def buys_per_deal(self) -> float:
        return self.buys / self.deals if self.deals else 0.0

    def to_dict(self) -> dict[str, Any]:
        ci = self.mean_score_ci95
        lo, hi = self.win_rate_ci95
        return {
            "name": self.name,
            "seats": self.seats,
            "games": self.games,
            "wins": _r(self.wins),
            "win_rate": _r(self.win_rate),
            "win_rate_ci95": [_r(lo), _r(hi)],
            "mean_score": _r(self.mean_score),
            "mean_score_ci95": None if ci is None else [_r(ci[0]), _r(ci[1])],
            "deals": self.deals,
            "points_per_deal": _r(self.points_per_deal),
            "deals_won": _r(self.deals_won),
            "deals_out": self.deals_out,
            "buys": self.buys,
            "buys_per_deal": _r(self.buys_per_deal),
        }


def aggregate(results: Sequence[GameResult], seats: Sequence[str] | None = None) -> list[BotStats]:
    """Per-bot statistics in order of first appearance (in ``seats`` when given, which also sets
    each bot's ``seats`` count; otherwise the most seats it held in one game)."""
    stats: dict[str, BotStats] = {}
    for name in seats or ():
        stats.setdefault(name, BotStats(name)).seats += 1
    for result in results:
        for seat, name in enumerate(result.lineup):
            if name not in stats:
                stats[name] = BotStats(name)
            stats[name].add(result, seat)
        if seats is None:
            for name in set(result.lineup):
                stats[name].seats = max(stats[name].seats, result.lineup.count(name))
    return list(stats.values())


@dataclass
class TournamentResult:
    """The games of a tournament (in order) and the statistics per bot."""

    seats: list[str]
    seed: int
    rules: RuleSet
    think: float | None
    games: list[GameResult]
    seconds: float
    bots: list[BotStats] = field(init=False)

    def __post_init__(self) -> None:
        self.bots = aggregate(self.games, self.seats)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-compatible values; ``rows`` has one row per game, in order (index,
        seed, seats, scores, winners: :meth:`GameResult.row`)."""
        return {
            "games": len(self.games),
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
            "seats": list(self.seats),
            "think": self.think,
            "deals": sum(g.deals for g in self.games),
            "bots": [b.to_dict() for b in self.bots],
            "rules": self.rules.to_dict(),
            "rows": [g.row() for g in self.games],
        }


def run_tournament(
    seats: Sequence[str],
    games: int,
    rules: RuleSet | None = None,
    *,
    seed: int = 0,
    jobs: int = 1,
    think: float | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
    console: Console | None = None,
    records: str | os.PathLike[str] | None = None,
) -> TournamentResult:
    """Play ``games`` games between ``seats`` (bot names, one per seat), rotating the seats each game.

    ``jobs`` processes (or, with ``backend="ray"``, Ray tasks on the cluster at ``address`` or a
    local Ray); ``think`` goes to bots that take it; ``progress`` shows a rich bar on ``console``.
    The same seed gives the same result whatever ``jobs`` and ``backend`` (for deterministic bots:
    a bot searching for ``think`` seconds of wall time is not). ``records``: a directory where
    each game's record is written as it ends (``game-000123.json``, see :func:`run_games`).
    """
    seats = parse_seats(seats)
    rules = rules if rules is not None else RuleSet()
    check_lineup(seats, rules, games, think)
    specs = tournament_specs(seats, games, rules, seed, think, keep_record=records is not None)
    start = time.perf_counter()
    try:
        results = run_games(
            specs,
            jobs=jobs,
            backend=backend,
            address=address,
            progress=progress,
            console=console,
            records=records,
        )
    except (Interrupted, Stopped) as stop:
        # Ctrl-C or a failure: the statistics of the games finished so far go with the exception
        stop.summary = TournamentResult(
            seats=seats, seed=seed, rules=rules, think=think, games=stop.results, seconds=time.perf_counter() - start
        )
        raise
    return TournamentResult(
        seats=seats, seed=seed, rules=rules, think=think, games=results, seconds=time.perf_counter() - start
    )

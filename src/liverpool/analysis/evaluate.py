"""Valuing one decision: every candidate action in expected points, with a standard error.

:func:`evaluate` asks the strong bot (:mod:`liverpool.bots.strong`) what it would weigh at this
decision (greedy's choice and its best alternatives, :meth:`StrongBot.candidates`), adds any action
the caller names (the one a player took, for a review), and plays every candidate out on the same
samples of the hidden cards (common random numbers) with the strong bot's sampler
(:func:`~liverpool.bots.strong.sample_hidden`, fed by its :class:`~liverpool.bots.strong.KnownCards`)
and greedy playouts (:func:`~liverpool.bots.strong.playout`). Nothing of the rules is here: the
engine applies the actions, the bots' code samples and plays.

The **value** of a candidate is the seat's expected points at the end of this deal, the score it
adds to its total (lower is better, like Liverpool's scores). A playout plays ``horizon`` turns
(8) and then counts the seat's hand at the points such a hand scored on average in greedy games
(the strong bot's ``EXPECTED_POINTS`` estimate), or plays to the deal's end with ``horizon=0``.

The result depends only on the view, the legal actions and the :class:`Budget` (seed, samples):
the same call gives the same numbers on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..actions import Action, DrawFromPile
from ..bots.greedy import Snapshot, rules_for_view
from ..bots.strong import (
    DEFAULT_HORIZON,
    KnownCards,
    StrongBot,
    _expected_points,
    _StuckError,
    playout,
    sample_hidden,
    unseen_pool,
)
from ..cards import Card, parse_tokens
from ..game import Game
from ..rules import RuleSet

__all__ = [
    "DEFAULT_SAMPLES",
    "Budget",
    "CandidateValue",
    "Evaluation",
    "evaluate",
    "number",
    "paired",
]

DEFAULT_SAMPLES: Final = 24
"""Samples of the hidden cards per decision by default (each candidate is played out on each)."""


@dataclass(frozen=True)
class Budget:
    """How hard to look: ``samples`` of the hidden cards per decision, the ``seed`` of the sampler,
    the playouts' ``horizon`` in turns (0: to the deal's end), the ``width`` of the strong bot's
    candidate list, and ``race`` (stop sampling candidates that are settled early: clearly worse
    than the best so far, or playing out exactly like another; their values then rest on fewer
    samples, which each value's ``samples`` says)."""

    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    horizon: int = DEFAULT_HORIZON
    width: int = 5
    race: bool = True

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"samples must be at least 1, got {self.samples}")
        if self.horizon < 0:
            raise ValueError(f"horizon must be 0 (to the deal's end) or more turns, got {self.horizon}")
        if self.width < 1:
            raise ValueError(f"width must be at least 1, got {self.width}")

    @classmethod
    def of(cls, budget: Budget | int | None) -> Budget:
        """A budget from a budget, a sample count, or None (the default)."""
        if budget is None:
            return cls()
        if isinstance(budget, Budget):
            return budget
        if isinstance(budget, bool) or not isinstance(budget, int):
            raise TypeError(f"budget must be a Budget or a sample count, got {budget!r}")
        return cls(samples=budget)

    def for_decision(self, index: int) -> Budget:
        """The same budget with a seed of its own for decision ``index`` of a review (reproducible
        whichever process evaluates it)."""
        seed = (self.seed * 1_000_003 + index * 7919 + 17) % (2**31)
        return Budget(self.samples, seed, self.horizon, self.width, self.race)

    def to_dict(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "seed": self.seed,
            "horizon": self.horizon,
            "width": self.width,
            "race": self.race,
        }


@dataclass(frozen=True)
class CandidateValue:
    """One candidate action: its value (the seat's expected points at the end of the deal; lower is
    better), the standard error of that value, and the samples behind it. ``greedy``
    marks the greedy heuristic's choice (the strong bot's default)."""

    action: Action
    value: float
    se: float
    samples: int
    greedy: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.to_dict(),
            "text": str(self.action),
            "value": number(self.value),
            "se": number(self.se),
            "samples": self.samples,
            "greedy": self.greedy,
        }


@dataclass
class Evaluation:
    """The candidates of one decision, best (lowest value) first.

    ``searched`` is False when the strong bot sees nothing to weigh (one legal action, or one
    sensible one: melding, laying off, passing on a card of no use); the only candidate then has
    no value (``nan``) and no samples. ``samples`` is the number of samples drawn.
    """

    seat: int
    candidates: list[CandidateValue]
    searched: bool
    samples: int
    budget: Budget
    _values: list[list[float]] = field(default_factory=list, repr=False)
    _order: list[int] = field(default_factory=list, repr=False)

    @property
    def best(self) -> CandidateValue:
        return self.candidates[0]

    def find(self, action: Action) -> CandidateValue | None:
        for c in self.candidates:
            if c.action == action:
                return c
        return None

    def loss(self, action: Action) -> tuple[float, float]:
        """Points lost by playing ``action`` instead of the best candidate, and the standard error
        of that difference (paired: over the samples both were played out on). (0, 0) for the
        best one and when nothing was searched."""
        if not self.searched:
            return 0.0, 0.0
        i = next((k for k, c in enumerate(self.candidates) if c.action == action), None)
        if i is None:
            raise ValueError(f"{action} is not among the evaluated candidates")
        if i == 0:
            return 0.0, 0.0
        _, se = paired(self._values[self._order[0]], self._values[self._order[i]])
        return max(0.0, self.candidates[i].value - self.candidates[0].value), se

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "searched": self.searched,
            "samples": self.samples,
            "budget": self.budget.to_dict(),
            "candidates": [c.to_dict() for c in self.candidates],
        }
        return out


def number(x: float) -> float | None:
    """``x`` for JSON: rounded, or None when it is not a finite number (no value, no error)."""
    return round(x, 3) if math.isfinite(x) else None


def paired(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``other - base`` over the samples both have (the first ones: a
    candidate raced out early has a prefix of the samples of one that went on)."""
    n = min(len(base), len(other))
    if n == 0:
        return 0.0, math.inf
    diffs = [other[i] - base[i] for i in range(n)]
    mean = sum(diffs) / n
    if n == 1:
        return mean, math.inf if any(diffs) else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def evaluate(
    view: dict[str, Any],
    legal_actions: Sequence[Action],
    budget: Budget | int | None = None,
    include: Iterable[Action] = (),
) -> Evaluation:
    """The candidates of the decision in ``view`` (the seat's own view, ``Game.view(seat)``) among
    ``legal_actions`` (that seat's), valued by the strong bot's sampling and playouts.

    ``include``: actions to value besides the strong bot's candidates (each must be legal), e.g.
    the one a player took. ``budget``: a :class:`Budget` or a sample count.
    """
    legal = list(legal_actions)
    if not legal:
        raise ValueError("no legal action to evaluate")
    seat = int(view["player"])
    if any(a.player != seat for a in legal):
        raise ValueError(f"the legal actions are not all seat {seat}'s")
    b = Budget.of(budget)
    bot = StrongBot(seed=b.seed, samples=b.samples, width=b.width)
    rules = rules_for_view(view)
    s = Snapshot.from_view(view, rules)
    s.collects = bot.tracker.update(view)
    known = bot.cards.update(view)
    if any(isinstance(a, DrawFromPile) for a in legal):
        s.discard_pile = parse_tokens(view["discard_pile"])
    cands = bot.candidates(s, legal) if len(legal) > 1 else [legal[0]]
    for extra in include:
        if extra not in legal:
            raise ValueError(f"{extra} is not a legal action here")
        if extra not in cands:
            cands.append(extra)
    if len(cands) == 1:
        only = CandidateValue(cands[0], math.nan, math.nan, 0, greedy=True)
        return Evaluation(seat, [only], searched=False, samples=0, budget=b)
    values = _sample(view, rules, s, cands, known, bot.cards, b)
    if not values[0]:  # pragma: no cover - no sample could be dealt: nothing measured
        unmeasured = [CandidateValue(a, math.nan, math.nan, 0, greedy=i == 0) for i, a in enumerate(cands)]
        return Evaluation(seat, unmeasured, searched=False, samples=0, budget=b)
    # Each value is greedy's choice's (all samples) plus the paired difference over the samples a
    # candidate has: a candidate raced out early is then compared on the same footing.
    base_mean, base_se = _mean_se(values[0])
    rows: list[CandidateValue] = []
    for i, (action, vs) in enumerate(zip(cands, values, strict=True)):
        if i == 0:
            rows.append(CandidateValue(action, base_mean, base_se, len(vs), greedy=True))
            continue
        diff, diff_se = paired(values[0], vs)
        rows.append(CandidateValue(action, base_mean + diff, math.hypot(base_se, diff_se), len(vs)))
    order = sorted(range(len(rows)), key=lambda k: (rows[k].value, k))
    return Evaluation(
        seat,
        [rows[k] for k in order],
        searched=True,
        samples=max(len(v) for v in values),
        budget=b,
        _values=values,
        _order=order,
    )


def _sample(
    view: dict[str, Any],
    rules: RuleSet,
    s: Snapshot,
    cands: Sequence[Action],
    known: dict[int, list[Card]],
    cards: KnownCards,
    b: Budget,
) -> list[list[float]]:
    """The seat's points at the end of the deal (or estimated after the horizon) for each candidate
    on each sample: the ``i``-th values of two candidates come from one sample of the hidden cards.

    With ``race``, from the 8th sample on (every 4th) a candidate stops being sampled when it is
    clearly worse than the best so far (by 3 standard errors of the paired difference) or has
    played out exactly like another candidate still sampled 12 times; sampling stops when one
    candidate is left."""
    me = int(view["player"])
    deal = int(view["deal"]) - 1
    pool = unseen_pool(view, rules)
    rng = random.Random(b.seed)
    horizon = b.horizon or None
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    for n in range(1, b.samples + 1):
        hands, stock = sample_hidden(view, pool, known, rng, s, cards.stock_draws, cards.declined, cards.discarded)
        try:
            base = Game.from_view(view, hands, stock, seed=rng.getrandbits(32))
        except (ValueError, KeyError):  # pragma: no cover - a view the sampler cannot fill
            break
        for i in active:
            game = base.copy()
            try:
                game.apply_unchecked(cands[i])
                ended = playout(game, horizon=horizon)
            except _StuckError:  # pragma: no cover - a playout with no legal action: estimate it
                ended = False
            points = float(game.deal_scores[deal][me]) if ended else _expected_points(game)[me]
            values[i].append(points)
        if b.race and n >= 8 and n % 4 == 0:
            active = _race(values, active)
            if len(active) == 1:
                break  # the rest is settled: the best so far is the best
    return values


def _race(values: list[list[float]], active: list[int]) -> list[int]:
    best = min(active, key=lambda i: (sum(values[i]) / len(values[i]), i))
    keep = [best]
    for i in active:
        if i == best:
            continue
        mean, se = paired(values[best], values[i])
        if mean > 3.0 * se and mean > 0:
            continue  # clearly worse than the best so far
        if len(values[i]) >= 12 and any(
            j in keep and values[j][-12:] == values[i][-12:] and values[j] == values[i] for j in keep
        ):
            continue  # plays out exactly like a candidate kept
        keep.append(i)
    return sorted(keep)

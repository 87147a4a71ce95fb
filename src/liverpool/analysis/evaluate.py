"""Valuing one decision: every candidate action by the seat's standing, with a standard error.

:func:`evaluate` asks the strong bot (:mod:`liverpool.bots.strong`) what it would weigh at this
decision (greedy's choice and its best alternatives, :meth:`StrongBot.candidates`), adds any action
the caller names (the one a player took, for a review), and values every candidate with the one
search the strong bot plays with (:func:`liverpool.bots.search.sample_values`: the hidden cards
dealt consistently with the view, every candidate played out on the same samples by greedy
playouts, the race). Nothing of the rules is here: the engine applies the actions, the bots'
code samples and plays.

The **value** of a candidate is the seat's expected standing at the end of this deal: its deal
points less the others' mean deal points (:func:`liverpool.bots.search.standing`; lower is
better, as in Liverpool's scores). A playout runs to the deal's end when the end is near (a player
down or one card short), else ``horizon`` turns, the deal then valued by the points such hands
scored in greedy games; ``horizon=0`` always plays to the deal's end.

``Budget.samples`` is a cap: with ``settle`` (on) a review's decision stops being sampled as soon
as the loss of the action taken lies, with its error, inside one verdict band, and a hint's as soon
as the best candidate is clear (the rest are worse by 3 standard errors or as good within half a
point). The result depends only on the view, the legal actions and the :class:`Budget` (seed,
cap): the same call gives the same numbers on any machine.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..actions import Action, Discard, DrawFromPile
from ..bots import search
from ..bots.greedy import Snapshot, rules_for_view, tactics
from ..bots.strong import DEFAULT_HORIZON, StrongBot
from ..cards import parse_tokens

__all__ = [
    "DEFAULT_SAMPLES",
    "Budget",
    "CandidateValue",
    "Evaluation",
    "evaluate",
    "number",
    "paired",
]

DEFAULT_SAMPLES: Final = 48
"""The cap of samples of the hidden cards per decision by default (each candidate is played out on
each; a decision whose verdict or best move is settled sooner stops there)."""


@dataclass(frozen=True)
class Budget:
    """How hard to look: at most ``samples`` of the hidden cards per decision (the cap), the
    ``seed`` of the sampler, the playouts' ``horizon`` in turns when the end is not near (0: always
    to the deal's end), the ``width`` of the strong bot's candidate list, ``race`` (stop sampling
    candidates that are settled early: clearly worse than the best so far, or playing out exactly
    like another; their values then rest on fewer samples, which each value's ``samples`` says),
    and ``settle`` (stop the whole decision once its answer is settled: the verdict of the action
    taken, or the best action of a hint)."""

    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    horizon: int = DEFAULT_HORIZON
    width: int = 5
    race: bool = True
    settle: bool = True

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"samples must be at least 1, got {self.samples}")
        if self.horizon < 0:
            raise ValueError(f"horizon must be 0 (to the deal's end) or more turns, got {self.horizon}")
        if self.width < 1:
            raise ValueError(f"width must be at least 1, got {self.width}")

    @classmethod
    def of(cls, budget: Budget | int | None) -> Budget:
        """A budget from a budget, a sample count (the cap), or None (the default)."""
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
        return dataclasses.replace(self, seed=seed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "seed": self.seed,
            "horizon": self.horizon,
            "width": self.width,
            "race": self.race,
            "settle": self.settle,
        }


@dataclass(frozen=True)
class CandidateValue:
    """One candidate action: its value (the seat's expected deal points less the others' mean;
    lower is better), the standard error of that value, and the samples behind it. ``greedy``
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
    """The candidates of one decision, best first (the lowest value; between discards whose values
    tie, within two standard errors, the one that throws the most points).

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


paired = search.paired
"""Mean and standard error of ``other - base`` over the samples both have
(:func:`liverpool.bots.search.paired`)."""


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


Z: Final = 2.0
"""Standard errors either side of a loss that its interval spans (about 95%)."""

Summary = tuple[list[CandidateValue], list[int]]


def _summarise(cands: Sequence[Action], values: list[list[float]], thrown: Sequence[float]) -> Summary:
    """The candidates' values and their order, best first. Each value is the mean of the candidate
    sampled longest (the reference) plus the paired difference over the samples a candidate has, so
    a candidate raced out early is compared on the same footing. ``thrown``: the points each
    candidate puts out of the hand (a discard's card, else 0) to break ties between discards."""
    ref = max(range(len(values)), key=lambda k: (len(values[k]), -k))
    ref_mean, ref_se = _mean_se(values[ref])
    rows: list[CandidateValue] = []
    for i, (action, vs) in enumerate(zip(cands, values, strict=True)):
        if i == ref:
            rows.append(CandidateValue(action, ref_mean, ref_se, len(vs), greedy=i == 0))
            continue
        diff, diff_se = paired(values[ref], vs)
        rows.append(CandidateValue(action, ref_mean + diff, math.hypot(ref_se, diff_se), len(vs), greedy=i == 0))
    order = sorted(range(len(rows)), key=lambda k: (rows[k].value, k))
    best = order[0]
    if isinstance(cands[best], Discard):
        # ties broken by points: a discard as good as the best within its error that throws more
        for k in order[1:]:
            if not isinstance(cands[k], Discard) or thrown[k] <= thrown[best]:
                continue
            diff, se = paired(values[order[0]], values[k])
            if diff <= Z * se:
                best = k
        if best != order[0]:
            order.remove(best)
            order.insert(0, best)
    return rows, order


def band(loss: float) -> int:
    """The verdict band of a loss: 0 best, 1 good, 2 inaccuracy, 3 mistake, 4 blunder (the
    thresholds of :data:`liverpool.analysis.review.THRESHOLDS`)."""
    for i, limit in enumerate(BANDS):
        if loss < limit:
            return i
    return len(BANDS)


BANDS: Final = (0.5, 2.0, 5.0, 10.0)


def _gap(rows: list[CandidateValue], order: list[int], values: list[list[float]], i: int) -> tuple[float, float]:
    """Candidate ``i``'s value less the best's, with its error; for the best itself, its value less
    the runner-up's (0 or below)."""
    best = order[0]
    if i != best:
        _, se = paired(values[best], values[i])
        return rows[i].value - rows[best].value, se
    if len(order) == 1:
        return 0.0, 0.0
    diff, se = paired(values[order[1]], values[i])
    return diff, se


def settled_loss(gap: float, se: float) -> bool:
    """Does the loss's interval (``gap`` ± ``Z`` standard errors, a loss being at least 0) lie in
    one verdict band?"""
    if not math.isfinite(se):
        return False
    return band(max(0.0, gap - Z * se)) == band(max(0.0, gap + Z * se))


def evaluate(
    view: dict[str, Any],
    legal_actions: Sequence[Action],
    budget: Budget | int | None = None,
    include: Iterable[Action] = (),
    judge: Action | None = None,
) -> Evaluation:
    """The candidates of the decision in ``view`` (the seat's own view, ``Game.view(seat)``) among
    ``legal_actions`` (that seat's), valued by the one search (:mod:`liverpool.bots.search`).

    ``include``: actions to value besides the strong bot's candidates (each must be legal), e.g.
    the one a player took. ``judge``: the action whose loss is being judged (a review's action
    taken; included): it is never raced out, and with ``Budget.settle`` sampling stops once its
    loss's interval lies in one verdict band. Without it, sampling stops once the best is clear.
    ``budget``: a :class:`Budget` or a sample count (the cap).
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
    extras = list(include) + ([judge] if judge is not None else [])
    for extra in extras:
        if extra not in legal:
            raise ValueError(f"{extra} is not a legal action here")
        if extra not in cands:
            cands.append(extra)
    if len(cands) == 1:
        only = CandidateValue(cands[0], math.nan, math.nan, 0, greedy=True)
        return Evaluation(seat, [only], searched=False, samples=0, budget=b)
    pts = tactics(rules).pts
    thrown = [float(pts[a.card.rank]) if isinstance(a, Discard) else 0.0 for a in cands]
    judged = cands.index(judge) if judge is not None else None

    def settled(values: list[list[float]]) -> bool:
        rows, order = _summarise(cands, values, thrown)
        if judged is not None:
            return settled_loss(*_gap(rows, order, values, judged))
        best = order[0]
        for k in order[1:]:
            if len(values[k]) < len(values[best]):
                continue  # raced out: clearly worse
            diff, se = paired(values[best], values[k])
            if not (diff > search.DROP * se or abs(diff) + Z * se < BANDS[0]):
                return False
        return True

    values = search.sample_values(
        view,
        rules,
        s,
        cands,
        known,
        random.Random(b.seed),
        samples=b.samples,
        horizon=b.horizon or None,
        race_on=b.race,
        keep=() if judged is None else (judged,),
        settled=settled if b.settle else None,
        draws=bot.cards.stock_draws,
        declined=bot.cards.declined,
        discards=bot.cards.discarded,
    )
    if not values[0]:  # pragma: no cover - no sample could be dealt: nothing measured
        unmeasured = [CandidateValue(a, math.nan, math.nan, 0, greedy=i == 0) for i, a in enumerate(cands)]
        return Evaluation(seat, unmeasured, searched=False, samples=0, budget=b)
    rows, order = _summarise(cands, values, thrown)
    return Evaluation(
        seat,
        [rows[k] for k in order],
        searched=True,
        samples=max(len(v) for v in values),
        budget=b,
        _values=values,
        _order=order,
    )

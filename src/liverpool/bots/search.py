"""The one search of the strong bot, hints and reviews: sampling, playouts, the value, the race.

For a decision, :func:`sample_values` deals the hidden cards (the other hands, the stock) again and
again, consistently with the seat's view (:func:`liverpool.bots.strong.sample_hidden`), builds the
full state (``Game.from_view``) and plays every candidate on the same sample (common random
numbers) with greedy playouts (:func:`liverpool.bots.strong.playout`).

**The value** (:func:`standing`) of a candidate on a sample is the seat's standing against the
others at the end of the deal: its deal points less the others' mean deal points. Lower is better
(Liverpool's scores count against a player), 0 is an even deal. What decides a game of Liverpool
is the final score against the others', and a decision moves the deal's points of every seat: going
out now leaves the others caught with their hands, one turn later they have laid down, laid off
and drawn closer, which one's own points alone do not see. The others' mean rather than the
leader's or a placement: it is linear, so the losses of a game's decisions add up, and it is as
exact (paired, over common samples) as the seat's own points.

**When the end is near** (:func:`end_is_near`: a player is down, or a player lacks at most one card
for the contract, in the sampled state) a playout runs to the deal's end and counts the points
scored. Otherwise it plays ``horizon`` turns and the deal is valued by the points each hand went
on to score in greedy games (:func:`liverpool.bots.strong.expected_points`, whose calibration
``benchmarks/value_model.py`` measures); ``horizon=None`` always plays to the deal's end. With
``near=False`` (the strong bot's default) a playout stops after ``horizon`` turns even when the end
is near, and the unfinished deal is valued by the same model (calibrated where the end is near as
it is): for the same samples this chose better in games against greedy and costs a third of the
time (docs/bots.md); hints and reviews keep the whole-deal playouts, whose verdicts must hold on
single positions.

**The race** (:func:`race`): from sample ``first`` on, every ``every`` samples, a candidate stops
being sampled when it is clearly worse than the best so far (by ``drop`` standard errors of the
paired difference) or has played out exactly like a candidate kept for 12 samples; the search
stops when one candidate is left, or when the caller's ``settled`` says so (a review stops when
the verdict of the action taken is settled), or at the cap ``samples`` or the ``deadline``.
Indices in ``keep`` are never raced out (a review's action taken). Everything depends only on
the view, the candidates, the random generator's seed and the cap (not on the machine's speed)
unless a ``deadline`` is given.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any, Final

from ..actions import Action
from ..cards import Card
from ..game import Game
from ..rules import RuleSet
from .greedy import Snapshot, analyse, tactics

__all__ = [
    "DROP",
    "FIRST",
    "end_is_near",
    "paired",
    "race",
    "sample_values",
    "standing",
]

FIRST: Final = 8
"""Samples drawn before the race may drop a candidate or a caller may call the search settled."""

EVERY: Final = 4
"""The race looks again every this many samples."""

DROP: Final = 3.0
"""Standard errors by which a candidate must be worse than the best so far to stop being sampled."""

SAME: Final = 12
"""Samples on which a candidate played out exactly like a kept one before it stops being sampled."""


def standing(game: Game, seat: int, ended: bool) -> float:
    """The seat's deal points less the others' mean (lower is better): the points scored in the deal
    that just ``ended`` (the last of ``game.deal_scores``), else the points expected of each hand
    now (:func:`~liverpool.bots.strong.expected_points`), times :data:`FAR_SHRINK` when the end is
    not near."""
    if ended:
        points: Sequence[float] = game.deal_scores[-1]
    else:
        from .strong import expected_points

        points = expected_points(game)
    n = len(points)
    value = points[seat] - (sum(points) - points[seat]) / (n - 1)
    if not ended and not end_is_near(game):
        value *= FAR_SHRINK
    return value


FAR_SHRINK: Final = 0.6
"""What the expected points' standing is worth when the end is not near: in 100 games of four
greedy bots (``benchmarks/value_model.py``) the standing seats went on to have at such turn starts
was about 0.6 times the one the table of expected points predicted (much happens before the
deal's end); where the end is near the prediction was calibrated as it is."""


def end_is_near(game: Game) -> bool:
    """Is a player down, or lacking at most one card for its contract (greedy's deficit)?"""
    if any(game.down):
        return True
    t = tactics(game.rules)
    for p in range(game.n):
        c = game.contract_of(p) if game.levels is not None else game.contract
        if analyse(t, game.hands[p], c.sets, c.runs, c.whole_hand)[0] <= 1:
            return True
    return False


def paired(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``other - base`` over the samples both have (the first ones: a
    candidate raced out early has a prefix of the samples of one that went on); the error is
    ``inf`` for one sample that differs, 0 when nothing differs."""
    n = min(len(base), len(other))
    if n == 0:
        return 0.0, math.inf
    diffs = [other[i] - base[i] for i in range(n)]
    mean = sum(diffs) / n
    if n == 1:
        return mean, math.inf if any(diffs) else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def race(values: Sequence[Sequence[float]], active: Sequence[int], keep: Collection[int] = ()) -> list[int]:
    """The candidates of ``active`` still worth sampling: the best so far (lowest mean), those not
    clearly worse than it, and those in ``keep``; a candidate that played out exactly like a kept
    one on the last :data:`SAME` samples and all before is dropped too."""
    best = min(active, key=lambda i: (sum(values[i]) / len(values[i]), i))
    kept = [best]
    for i in active:
        if i == best:
            continue
        if i not in keep:
            mean, se = paired(values[best], values[i])
            if mean > DROP * se and mean > 0:
                continue  # clearly worse than the best so far
            if len(values[i]) >= SAME and any(
                values[j][-SAME:] == values[i][-SAME:] and values[j] == values[i] for j in kept
            ):
                continue  # plays out exactly like a candidate kept
        kept.append(i)
    return sorted(kept)


def sample_values(
    view: dict[str, Any],
    rules: RuleSet,
    s: Snapshot,
    cands: Sequence[Action],
    known: dict[int, list[Card]],
    rng: Any,
    *,
    samples: int | None,
    deadline: float | None = None,
    horizon: int | None = 8,
    near: bool = True,
    race_on: bool = True,
    keep: Collection[int] = (),
    settled: Callable[[list[list[float]]], bool] | None = None,
    draws: dict[int, int] | None = None,
    declined: dict[int, list[Card]] | None = None,
    discards: dict[int, Card] | None = None,
) -> list[list[float]]:
    """The value (:func:`standing`) of each candidate on each sample: the ``i``-th values of two
    candidates come from one sample of the hidden cards. Stops at ``samples`` (the cap; None: no
    cap, then a ``deadline``, a ``time.perf_counter`` time, is needed), at the ``deadline``, when
    the race leaves one candidate, or when ``settled(values)`` is true (asked with the race).
    ``draws``, ``declined``, ``discards``: the strong bot's :class:`~liverpool.bots.strong.KnownCards`
    facts that shape the sampled hands (see :func:`~liverpool.bots.strong.sample_hidden`).
    ``near``: play to the deal's end when the end is near (:func:`end_is_near`); off, a playout
    stops after ``horizon`` turns wherever it is (the strong bot's default, see its ``near``)."""
    from .strong import _StuckError, playout, sample_hidden, unseen_pool

    if samples is None and deadline is None:
        raise ValueError("a search needs a sample cap or a deadline")
    me = int(view["player"])
    pool = unseen_pool(view, rules)
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    n = 0
    while samples is None or n < samples:
        hands, stock = sample_hidden(view, pool, known, rng, s, draws, declined, discards)
        try:
            base = Game.from_view(view, hands, stock, seed=rng.getrandbits(32))
        except (ValueError, KeyError):  # pragma: no cover - a view the sampler cannot fill
            break
        limit = None if horizon is None or (near and end_is_near(base)) else horizon
        for i in active:
            game = base.copy()
            try:
                game.apply_unchecked(cands[i])
                ended = playout(game, horizon=limit)
            except _StuckError:  # pragma: no cover - a playout with no legal action: estimate it
                ended = False
            values[i].append(standing(game, me, ended))
        n += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if n >= FIRST and (n - FIRST) % EVERY == 0:
            if race_on:
                active = race(values, active, keep)
                if len(active) == 1:
                    break
            if settled is not None and settled(values):
                break
    return values

"""Reviewing a finished game: every decision of one seat rated against the best action found.

:func:`review` replays a record (``Game.from_record`` of its first state, then the record's actions
one by one), and at each action of the seat it takes the view that seat had then
(``Game.view(seat)``: nothing more) and its legal actions, and evaluates the decision
(:func:`~liverpool.analysis.evaluate.evaluate`, the action taken always among the candidates). A
decision with one legal action is not a decision and is left out (counted as ``forced``).

The **points lost** by a decision are the value of the action taken less the value of the best
candidate found (the seat's expected points at the end of the deal; see :mod:`.evaluate`). The
verdict follows :data:`THRESHOLDS` on the points lost.

Each decision has a seed of its own (from the budget's seed and the decision's place in the
record), so a review is the same whichever process or how many (``jobs``) evaluate it.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..actions import Action, action_from_dict
from ..describe import describe_action
from ..game import Game, IllegalAction
from .evaluate import Budget, Evaluation, Z, evaluate, number
from .hint import reason

__all__ = [
    "THRESHOLDS",
    "VERDICTS",
    "Decision",
    "Position",
    "Review",
    "explain",
    "positions",
    "rate",
    "review",
    "verdict",
]

VERDICTS: Final = ("best", "good", "inaccuracy", "mistake", "blunder", "uncertain")
"""The verdicts by points lost, then ``uncertain``: a loss of 2 points or more that its error
cannot tell from nothing."""

THRESHOLDS: Final[tuple[tuple[str, float], ...]] = (
    ("best", 0.5),
    ("good", 2.0),
    ("inaccuracy", 5.0),
    ("mistake", 10.0),
)
"""Verdict by points lost: below 0.5 ``best`` (the best found, or as good within half a point),
below 2 ``good``, below 5 ``inaccuracy``, below 10 ``mistake``, 10 or more ``blunder``."""


def verdict(loss: float, se: float = 0.0) -> str:
    """The verdict of a decision that lost ``loss`` expected points with standard error ``se``:
    the band of :data:`THRESHOLDS` the loss falls in, except that a loss of an inaccuracy or more
    whose interval (``loss`` ± 2 ``se``) reaches below half a point (a loss within its error) is
    ``uncertain``: the samples cannot tell it from nothing."""
    name = "blunder"
    for n, limit in THRESHOLDS:
        if loss < limit:
            name = n
            break
    if name in ("best", "good"):
        return name
    if not math.isfinite(se) or loss - Z * se < THRESHOLDS[0][1]:
        return "uncertain"
    return name


@dataclass(frozen=True)
class Position:
    """A decision of the reviewed seat in a record: the record's action ``index``, the deal (from
    1) and turn, the seat's view then, its legal actions, and the action it took."""

    index: int
    deal: int
    turn: int
    view: dict[str, Any]
    legal: list[Action]
    taken: Action


@dataclass(frozen=True)
class Decision:
    """One rated decision, with what a page needs to show it on the cards: the seat's hand then,
    the card on top of the discard pile (``top``), the melds on the table, the phase, and the
    action taken and the best one in plain words (:func:`liverpool.describe.describe_action` with
    the seat's view then)."""

    index: int
    deal: int
    turn: int
    hand: list[str]
    taken: Action
    best: Action
    loss: float
    loss_se: float
    verdict: str
    evaluation: Evaluation
    top: str | None = None
    melds: list[dict[str, Any]] = field(default_factory=list)
    phase: str = ""
    taken_words: str = ""
    best_words: str = ""

    def to_dict(self) -> dict[str, Any]:
        taken = self.evaluation.find(self.taken)
        best = self.evaluation.best
        return {
            "index": self.index,
            "deal": self.deal,
            "turn": self.turn,
            "hand": self.hand,
            "phase": self.phase,
            "top": self.top,
            "melds": self.melds,
            "taken": self.taken.to_dict(),
            "taken_text": str(self.taken),
            "taken_words": self.taken_words,
            "best": self.best.to_dict(),
            "best_text": str(self.best),
            "best_words": self.best_words,
            "loss": round(self.loss, 3),
            "loss_se": number(self.loss_se),
            "verdict": self.verdict,
            "value_taken": None if taken is None else number(taken.value),
            "value_best": number(best.value),
            "evaluation": self.evaluation.to_dict(),
        }


@dataclass
class Review:
    """Every rated decision of ``seat`` in one game, and the summary."""

    seat: int
    players: int
    budget: Budget
    decisions: list[Decision]
    forced: int
    finished: bool
    scores: list[int] = field(default_factory=list)
    complete: bool = True
    """False when the review was stopped (``review(..., partial=True)`` and Ctrl-C) before every
    decision was rated: ``decisions`` then holds those rated so far."""
    total: int = 0
    """The decisions of the seat in the record (rated or not)."""

    @property
    def by_verdict(self) -> dict[str, int]:
        counts = Counter(d.verdict for d in self.decisions)
        return {v: counts.get(v, 0) for v in VERDICTS}

    @property
    def loss_per_deal(self) -> dict[int, float]:
        out: dict[int, float] = {}
        for d in self.decisions:
            out[d.deal] = out.get(d.deal, 0.0) + d.loss
        return out

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    def costliest(self, k: int = 3) -> list[Decision]:
        """The ``k`` decisions that lost the most points (those that lost any), costliest first."""
        ranked = sorted((d for d in self.decisions if d.loss > 0), key=lambda d: (-d.loss, d.index))
        return ranked[:k]

    def to_dict(self, decisions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "players": self.players,
            "budget": self.budget.to_dict(),
            "finished": self.finished,
            "complete": self.complete,
            "scores": self.scores,
            "summary": {
                "decisions": len(self.decisions),
                "forced": self.forced,
                "by_verdict": self.by_verdict,
                "total_loss": round(self.total_loss, 3),
                "mean_loss": round(self.mean_loss, 4),
                "loss_per_deal": {str(k): round(v, 3) for k, v in sorted(self.loss_per_deal.items())},
                "costliest": [d.index for d in self.costliest()],
            },
            "thresholds": dict(THRESHOLDS),
        }
        if decisions:
            out["decisions"] = [d.to_dict() for d in self.decisions]
        return out


def _start(record: dict[str, Any]) -> tuple[Game, list[Action]]:
    """The record's first state and its actions; a clear ValueError for a bad record."""
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object (Game.record())")
    try:
        actions = [action_from_dict(a) for a in record.get("actions", [])]
        game = Game.from_record({**record, "actions": []})
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a game record: {exc}") from None
    return game, actions


def positions(record: dict[str, Any], seat: int) -> Iterator[Position]:
    """The decisions ``seat`` took in ``record`` (with two or more legal actions), each with the
    view that seat had at that moment. Raises ValueError for a bad record or seat."""
    game, actions = _start(record)
    if not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0 to {game.players - 1}, got {seat}")
    for i, action in enumerate(actions):
        if action.player == seat:
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                view = game.view(seat)
                yield Position(i, game.deal, int(view["turn"]), view, legal, action)
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise ValueError(f"record action {i} ({action}) is illegal: {exc}") from None


def rate(pos: Position, budget: Budget | int | None = None) -> Decision:
    """Rate one decision: the action taken against the best found, with ``budget``'s seed made
    the decision's own (:meth:`Budget.for_decision`)."""
    budget = Budget.of(budget)
    ev = evaluate(pos.view, pos.legal, budget.for_decision(pos.index), judge=pos.taken)
    loss, se = ev.loss(pos.taken)
    best = ev.best.action
    pile = pos.view["discard_pile"]
    return Decision(
        index=pos.index,
        deal=pos.deal,
        turn=pos.turn,
        hand=list(pos.view["hand"]),
        taken=pos.taken,
        best=best,
        loss=loss,
        loss_se=se,
        verdict=verdict(loss, se),
        evaluation=ev,
        top=str(pile[-1]) if pile else None,
        melds=[dict(m) for m in pos.view["melds"]],
        phase=str(pos.view["phase"]),
        taken_words=describe_action(pos.taken, pos.view),
        best_words=describe_action(best, pos.view),
    )


def _rate_many(batch: Sequence[Position], budget: Budget) -> list[Decision]:
    return [rate(p, budget) for p in batch]


def _rate_batch(args: tuple[Sequence[Position], Budget]) -> list[Decision]:
    return _rate_many(*args)


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C (SIGINT, sent to the whole process group) to the parent, which ends
    the workers itself: no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def review(
    record: dict[str, Any],
    seat: int,
    budget: Budget | int | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    partial: bool = False,
) -> Review:
    """Rate every decision ``seat`` took in ``record`` (a ``Game.record()``).

    ``budget``: a :class:`Budget` or a sample count per decision (the cap). ``jobs``: processes
    (0: one per core); the result does not depend on it. ``progress(done, total)`` is called as
    decisions are rated. ``partial``: on Ctrl-C (KeyboardInterrupt) stop at once, end the worker
    processes, and return what was rated so far (``Review.complete`` False) instead of raising.
    """
    b = Budget.of(budget)
    todo = list(positions(record, seat))
    total = len(todo)
    game, actions = _start(record)
    forced = sum(1 for a in actions if a.player == seat) - total
    end = Game.from_record(record)
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    rated: list[Decision] = []
    complete = True
    if progress is not None:
        progress(0, total)
    try:
        if jobs == 1 or total < 2:
            for pos in todo:
                rated.append(rate(pos, b))
                if progress is not None:
                    progress(len(rated), total)
        else:
            # small batches, handed out in order: both cores busy to the end, few round trips
            size = max(1, min(8, total // (jobs * 4)))
            batches = [(todo[i : i + size], b) for i in range(0, total, size)]
            main = threading.current_thread() is threading.main_thread()
            before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
            try:  # the workers are born ignoring Ctrl-C (and _quiet_worker makes sure)
                pool = multiprocessing.get_context().Pool(jobs, initializer=_quiet_worker)
            finally:
                if main:
                    signal.signal(signal.SIGINT, before)
            try:
                for result in pool.imap(_rate_batch, batches):
                    rated.extend(result)
                    if progress is not None:
                        progress(len(rated), total)
                pool.close()
            except BaseException:
                pool.terminate()  # at once: a batch under way is not waited for
                raise
            finally:
                pool.join()
    except KeyboardInterrupt:
        if not partial:
            raise
        complete = False
    rated.sort(key=lambda d: d.index)
    return Review(
        seat=seat,
        players=game.players,
        budget=b,
        decisions=rated,
        forced=forced,
        finished=end.is_over,
        scores=list(end.scores),
        complete=complete,
        total=total,
    )


def explain(record: dict[str, Any], decisions: Sequence[Decision]) -> dict[int, str]:
    """Why the best action found was better, in plain words, for each of ``decisions`` (of one
    review of ``record``), by the record's action index (from the view the seat had then)."""
    if not decisions:
        return {}
    seat = decisions[0].taken.player
    wanted = {d.index: d for d in decisions}
    out: dict[int, str] = {}
    for pos in positions(record, seat):
        d = wanted.get(pos.index)
        if d is not None:
            out[d.index] = reason(pos.view, d.best, d.evaluation, against=d.taken)
            if len(out) == len(wanted):
                break
    return out

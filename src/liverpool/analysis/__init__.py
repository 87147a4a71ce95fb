"""Analysis: a decision's candidates valued in expected points, hints, and reviews of a game.

Built on the strong bot's determinized sampling and greedy playouts (:mod:`liverpool.bots.strong`);
see docs/analysis.md.
"""

from .evaluate import DEFAULT_SAMPLES, Budget, CandidateValue, Evaluation, evaluate
from .hint import Hint, hint, reason
from .review import THRESHOLDS, VERDICTS, Decision, Position, Review, explain, positions, rate, review, verdict

__all__ = [
    "DEFAULT_SAMPLES",
    "THRESHOLDS",
    "VERDICTS",
    "Budget",
    "CandidateValue",
    "Decision",
    "Evaluation",
    "Hint",
    "Position",
    "Review",
    "evaluate",
    "explain",
    "hint",
    "positions",
    "rate",
    "reason",
    "review",
    "verdict",
]

"""Simulation: tournaments between bots with statistics, rating ladders, local or Ray backends.

>>> from liverpool.sim import QUICK_RULES, run_tournament
>>> result = run_tournament(["random", "random", "random"], games=3, rules=QUICK_RULES, seed=1)
>>> summary = result.to_dict()
>>> summary["games"], [b["name"] for b in summary["bots"]], summary["bots"][0]["seats"]
(3, ['random'], 3)
"""

from .games import GameResult, GameSpec, derive_seed, make_bot, play_one
from .ratings import LadderResult, Rating, analytic_sd, fit_bradley_terry, ladder_bots, run_ladder
from .ray_backend import RayBackendError, RayUnavailableError
from .runner import BACKENDS, run_games
from .stats import mean_ci, t_quantile_975, wilson_interval
from .tournament import QUICK_RULES, BotStats, TournamentResult, aggregate, rotated, run_tournament

__all__ = [
    "BACKENDS",
    "QUICK_RULES",
    "BotStats",
    "GameResult",
    "GameSpec",
    "LadderResult",
    "Rating",
    "RayBackendError",
    "RayUnavailableError",
    "TournamentResult",
    "aggregate",
    "analytic_sd",
    "derive_seed",
    "fit_bradley_terry",
    "ladder_bots",
    "make_bot",
    "mean_ci",
    "play_one",
    "rotated",
    "run_games",
    "run_ladder",
    "run_tournament",
    "t_quantile_975",
    "wilson_interval",
]

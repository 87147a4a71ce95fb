"""Reinforcement-learning environments (optional extra ``rl``: pettingzoo, gymnasium, numpy).

``liverpool_v0.env(...)`` is a PettingZoo AEC environment; importing this package also registers
the single-agent Gymnasium environment ``liverpool/Liverpool-v0`` (the other seats played by bots):
``gymnasium.make("liverpool/Liverpool-v0", opponents="greedy")``. Layouts and rewards: ``docs/rl.md``.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from . import liverpool_v0
from .selfplay import OpponentSeats
from .single import LiverpoolGymEnv, Opponent, Policy, make_vec

__all__ = ["LiverpoolGymEnv", "Opponent", "OpponentSeats", "Policy", "liverpool_v0", "make_vec"]

if "liverpool/Liverpool-v0" not in registry:
    register(id="liverpool/Liverpool-v0", entry_point="liverpool.env.single:LiverpoolGymEnv")

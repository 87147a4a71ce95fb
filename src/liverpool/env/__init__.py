"""Reinforcement-learning environments (optional extra ``rl``: pettingzoo, gymnasium, numpy).

``liverpool_v0.env(...)`` is a PettingZoo AEC environment; importing this package also registers
the single-agent Gymnasium environment ``liverpool/Liverpool-v0`` (the other seats played by bots):
``gymnasium.make("liverpool/Liverpool-v0", opponents="greedy")``. Layouts and rewards: ``docs/rl.md``.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from . import liverpool_v0
from .single import LiverpoolGymEnv

__all__ = ["LiverpoolGymEnv", "liverpool_v0"]

if "liverpool/Liverpool-v0" not in registry:
    register(id="liverpool/Liverpool-v0", entry_point="liverpool.env.single:LiverpoolGymEnv")

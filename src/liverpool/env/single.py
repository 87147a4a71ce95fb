"""``liverpool/Liverpool-v0``: one seat of ``liverpool_v0`` as a Gymnasium environment, the other
seats played by bots (``liverpool.bots``), each from its own view.

>>> import gymnasium, liverpool.env
>>> env = gymnasium.make("liverpool/Liverpool-v0", opponents="random", players=3)
>>> obs, info = env.reset(seed=3)
>>> obs["action_mask"].dtype.name, bool(obs["action_mask"].any())
('int8', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from ..bots import get as get_bot
from ..rules import RuleSet
from .liverpool_v0 import LiverpoolAEC

__all__ = ["LiverpoolGymEnv"]


class LiverpoolGymEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """Arguments: ``opponents`` (a bot name for every other seat, or one name per other seat),
    ``seat`` (the learner's seat), ``players``, ``rules``, ``reward`` (as ``liverpool_v0``),
    ``illegal_action``: "penalty" (default: a masked-out action changes nothing, returns reward
    ``illegal_penalty`` and ``info["illegal_action"] = True``) or "raise" (ValueError).
    ``info["deal_ended"]`` tells when a deal ended during the step (its reward came with it).
    ``action_masks()`` gives the current mask (as sb3-contrib's MaskablePPO asks)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        players: int = 4,
        rules: str | RuleSet = "liverpool",
        reward: str = "score",
        illegal_action: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.aec = LiverpoolAEC(players=players, rules=rules, render_mode=render_mode, reward=reward)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0-{players - 1}, got {seat}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, got {len(names)}")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', got {illegal_action!r}")
        self.opponent_names = names
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._bots: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        others = [q for q in range(self.aec.n) if q != self.seat]
        self._bots = {
            q: get_bot(name, seed=game_seed + 1 + q) for q, name in zip(others, self.opponent_names, strict=True)
        }
        self.aec.reset(seed=game_seed)
        reward = self._play_others()
        obs = self.aec.observe(self.agent)
        return obs, {"reward_before_first_turn": reward}

    def _play_others(self) -> float:
        """Let the bots act until the learner must act or the game ends; the learner's rewards."""
        aec = self.aec
        game = aec.game
        assert game is not None
        total = 0.0
        while not game.is_over and aec.agent_selection != self.agent:
            seat = aec._seat
            action = self._bots[seat].act(game.view(seat), list(aec._legal))
            aec.apply_engine_action(action)
            total += aec.rewards[self.agent]
        return total

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        aec = self.aec
        game = aec.game
        if game is None:
            raise ValueError("call reset() first")
        if game.is_over:
            raise ValueError("the game is over: call reset()")
        info: dict[str, Any] = {}
        index = int(action)
        if not (0 <= index < aec._mask.size and aec._mask[index]):
            if self.illegal_action == "raise":
                aec.step(index)  # raises with the reason
            info["illegal_action"] = True
            return aec.observe(self.agent), self.illegal_penalty, False, False, info
        deal = game.deal
        aec.step(index)
        reward = aec.rewards[self.agent] + self._play_others()
        over = game.is_over
        info["deal_ended"] = over or game.deal != deal
        if over:
            info |= {"scores": game.scores, "winners": game.winners}
        return aec.observe(self.agent), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        return self.aec._mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

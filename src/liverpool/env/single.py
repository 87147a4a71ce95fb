"""``liverpool/Liverpool-v0``: one seat of ``liverpool_v0`` as a Gymnasium environment, the other
seats played by opponents: bots (``liverpool.bots``, by name or as objects), each from its own
view, or policies (a function of the seat's observation and action mask returning an index), so a
trained policy can sit in the other seats (self-play).

>>> import gymnasium, liverpool.env
>>> env = gymnasium.make("liverpool/Liverpool-v0", opponents="random", players=3)
>>> obs, info = env.reset(seed=3)
>>> obs["action_mask"].dtype.name, bool(obs["action_mask"].any())
('int8', True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat, TypeAlias

import gymnasium
import numpy as np

from ..bots import Bot
from ..bots import from_spec as get_bot
from ..rules import RuleSet
from .liverpool_v0 import LiverpoolAEC

__all__ = ["LiverpoolGymEnv", "Opponent", "Policy", "make_vec"]

Policy: TypeAlias = Callable[[np.ndarray, np.ndarray], "int | np.integer[Any]"]
"""A function of one seat's ``observation`` vector and ``action_mask`` returning a legal index."""
Opponent: TypeAlias = "str | Bot | Policy"
"""A bot's name (a new bot each game, seeded from the game), a bot object (anything with
``act(view, legal)``, used as it is) or a policy (:data:`Policy`)."""


def _is_bot(opponent: object) -> bool:
    return callable(getattr(opponent, "act", None))


def make_vec(
    num_envs: int, vectorization_mode: str = "sync", **kwargs: Any
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """``num_envs`` copies of ``liverpool/Liverpool-v0`` as one ``gymnasium.vector`` environment:
    ``"sync"`` (in this process) or ``"async"`` (one process each; then opponents must pickle:
    bot names do). ``kwargs`` go to every copy. Observations and masks come batched
    (``obs["action_mask"][i]`` is copy i's mask); a copy whose game ended is reset on its next
    step (Gymnasium's next-step autoreset), which returns reward 0 and ignores the action."""
    return gymnasium.make_vec(
        "liverpool/Liverpool-v0", num_envs=num_envs, vectorization_mode=vectorization_mode, **kwargs
    )


class LiverpoolGymEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """Arguments: ``opponents`` (one :data:`Opponent` for every other seat, or a list of one per
    other seat, in seat order: a bot name, a bot object or a policy function), ``seat`` (the
    learner's seat), ``players``, ``rules``, ``reward``, ``observation`` (as ``liverpool_v0``),
    ``illegal_action``: "penalty" (default: a masked-out action changes nothing, returns reward
    ``illegal_penalty`` and ``info["illegal_action"] = True``) or "raise" (ValueError).
    ``info["deal_ended"]`` tells when a deal ended during the step (its reward came with it).
    ``action_masks()`` gives the current mask (as sb3-contrib's MaskablePPO asks)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int = 0,
        players: int = 4,
        rules: str | RuleSet = "liverpool",
        reward: str = "score",
        illegal_action: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        observation: str = "scaled",
    ) -> None:
        self.aec = LiverpoolAEC(
            players=players, rules=rules, render_mode=render_mode, reward=reward, observation=observation
        )
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0-{players - 1}, got {seat}")
        single = isinstance(opponents, str) or _is_bot(opponents) or callable(opponents)
        names: list[Any] = [opponents] * (players - 1) if single else list(opponents)  # type: ignore[arg-type]
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, got {len(names)}")
        for o in names:
            if not (isinstance(o, str) or _is_bot(o) or callable(o)):
                raise TypeError(f"an opponent is a bot name, a bot (with act) or a policy function, got {o!r}")
            if isinstance(o, str):
                get_bot(o, seed=0)  # an unknown name fails here, clearly
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
        self._policies: dict[int, Policy] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        others = [q for q in range(self.aec.n) if q != self.seat]
        self._bots = {}
        self._policies = {}
        for q, opponent in zip(others, self.opponent_names, strict=True):
            if isinstance(opponent, str):
                self._bots[q] = get_bot(opponent, seed=game_seed + 1 + q)
            elif _is_bot(opponent):
                self._bots[q] = opponent
            else:
                self._policies[q] = opponent
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
            bot = self._bots.get(seat)
            if bot is not None:
                aec.apply_engine_action(bot.act(game.view(seat), list(aec._legal)))
            else:
                obs = aec.observe(aec.agent_selection)
                aec.step(int(self._policies[seat](obs["observation"], obs["action_mask"])))  # illegal: ValueError
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

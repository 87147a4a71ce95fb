"""Opponents in the PettingZoo environment: :class:`OpponentSeats` plays some agents of a
``liverpool_v0`` environment with given opponents (bot names, bot objects or policy functions of
observation and mask), so that ``agent_iter`` only stops at the other agents, the learners.

>>> from liverpool.env import liverpool_v0
>>> import numpy as np
>>> first_legal = lambda observation, mask: int(np.flatnonzero(mask)[0])
>>> env = OpponentSeats(liverpool_v0.env(players=3), {"player_1": "random", "player_2": first_legal})
>>> env.reset(seed=4)
>>> env.agent_selection
'player_0'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from ..bots import from_spec as get_bot
from .liverpool_v0 import LiverpoolAEC
from .single import Opponent, _is_bot

__all__ = ["OpponentSeats"]


class OpponentSeats(BaseWrapper):  # type: ignore[misc]
    """Wrap a ``liverpool_v0`` AEC environment; ``opponents`` maps agent names
    (``"player_1"``) to an :data:`~liverpool.env.single.Opponent`. After ``reset`` and after every
    ``step``, the opponents act (finished opponents take their ``None`` step) until a learner is to
    act or every agent is done. A bot name makes a new bot each game, seeded from the game's seed
    and its seat. Rewards of the learners accumulate over the opponents' steps as the AEC API
    defines them (``last()`` returns them)."""

    def __init__(self, env: AECEnv[str, dict[str, np.ndarray], int], opponents: Mapping[str, Opponent]) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, LiverpoolAEC):
            raise TypeError(f"OpponentSeats wraps a liverpool_v0 environment, got {base!r}")
        unknown = set(opponents) - set(base.possible_agents)
        if unknown:
            raise ValueError(f"no such agents {sorted(unknown)}; agents are {base.possible_agents}")
        if len(opponents) >= len(base.possible_agents):
            raise ValueError("at least one agent must be left to learn")
        for o in opponents.values():
            if not (isinstance(o, str) or _is_bot(o) or callable(o)):
                raise TypeError(f"an opponent is a bot name, a bot (with act) or a policy function, got {o!r}")
        self.opponents = dict(opponents)
        self._base = base
        self._bots: dict[str, Any] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        game = self._base.game
        assert game is not None
        self._bots = {}
        for agent, o in self.opponents.items():
            if isinstance(o, str):
                self._bots[agent] = get_bot(o, seed=game.seed + 1 + self._base._agent_index[agent])
            elif _is_bot(o):
                self._bots[agent] = o
        self._play()

    def step(self, action: int | np.integer[Any] | None) -> None:
        self.env.step(action)
        self._play()

    def _play(self) -> None:
        base = self._base
        while base.agents and base.agent_selection in self.opponents:
            agent = base.agent_selection
            if base.terminations[agent] or base.truncations[agent]:
                self.env.step(None)
                continue
            bot = self._bots.get(agent)
            game = base.game
            assert game is not None
            if bot is not None:
                base.apply_engine_action(bot.act(game.view(base._seat), list(base._legal)))
            else:
                obs = base.observe(agent)
                self.env.step(int(self.opponents[agent](obs["observation"], obs["action_mask"])))  # type: ignore[operator]

    def __str__(self) -> str:
        return str(self.env)

"""Observations stay inside their declared bounds, field by field, over whole games of random
masked play in every preset (scaled, the default, and raw), for every seat."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from liverpool.env.liverpool_v0 import LiverpoolAEC
from liverpool.env.single import LiverpoolGymEnv


def outside(env: LiverpoolAEC, obs: np.ndarray) -> list[str]:
    whole = env.observation_space(env.possible_agents[0])
    assert isinstance(whole, gymnasium.spaces.Dict)
    space = whole["observation"]
    assert isinstance(space, gymnasium.spaces.Box)
    bad = np.flatnonzero((obs < space.low) | (obs > space.high) | ~np.isfinite(obs))
    names = []
    for i in bad[:5]:
        field = next(n for n, (a, b) in env.obs_layout.ranges.items() if a <= i < b)
        names.append(f"{field}[{i}]={obs[i]} not in [{space.low[i]}, {space.high[i]}]")
    return names


@pytest.mark.parametrize(
    ("rules", "players", "seeds"),
    [
        ("liverpool", [2, 4, 6], range(3)),
        ("contract", [3, 4], range(2)),
        ("may_i", [2, 4], range(2)),
        ("shanghai", [3, 4], range(2)),
    ],
)
@pytest.mark.parametrize("observation", ["scaled", "raw"])
def test_observations_inside_their_bounds(rules: str, players: list[int], seeds: range, observation: str) -> None:
    for seed in seeds:
        env = LiverpoolAEC(players=players[seed % len(players)], rules=rules, observation=observation)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert not outside(env, obs["observation"]), (rules, seed, steps, outside(env, obs["observation"]))
            if steps % 7 == 0:  # every seat now and then, not only the one to act
                for other in env.possible_agents:
                    seen = env.observe(other)["observation"]
                    assert not outside(env, seen), (rules, seed, steps, other, outside(env, seen))
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        assert env.game is not None and env.game.is_over and steps > 100


def test_scaled_values_are_small() -> None:
    """Scaled, the values a network sees are mostly within [-1, 1] (hand sizes and the like can
    exceed 1 when a hand grows past the cards dealt)."""
    env = LiverpoolGymEnv(opponents="greedy", players=4)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    values = []
    done = False
    while not done:
        values.append(obs["observation"])
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    stacked = np.stack(values)
    assert np.abs(stacked).max() <= 4.0
    assert np.mean(np.abs(stacked) <= 1.0) > 0.999
    assert env.observation_space.contains(env.observation_space.sample())

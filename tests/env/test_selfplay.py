"""Opponents of any kind: bot objects and policy functions in the Gymnasium environment's other
seats, the PettingZoo wrapper ``OpponentSeats``, and the vectorised environment ``make_vec``."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from liverpool.bots import GreedyBot
from liverpool.env import LiverpoolGymEnv, OpponentSeats, liverpool_v0, make_vec
from liverpool.env.liverpool_v0 import LiverpoolAEC

SHORT = "contract"


class MaskedRandomPolicy:
    """A policy object: a uniformly random legal index, checking what it is given."""

    def __init__(self, space: gymnasium.spaces.Space[Any], seed: int) -> None:
        self.space = space
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        self.calls += 1
        assert self.space.contains({"observation": observation, "action_mask": mask})
        legal = np.flatnonzero(mask)
        assert legal.size, "a policy is asked only when it has a legal action"
        return int(self.rng.choice(legal))


def play_gym(env: LiverpoolGymEnv, seed: int) -> tuple[float, Any]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total = float(info["reward_before_first_turn"])
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        total += float(reward)
        if terminated or truncated:
            return total, info


def test_a_policy_object_in_the_opponent_seats() -> None:
    env = LiverpoolGymEnv(opponents="random", players=3, rules=SHORT)
    policies = [MaskedRandomPolicy(env.observation_space, seed) for seed in (1, 2)]
    env = LiverpoolGymEnv(opponents=policies, players=3, rules=SHORT)
    total, info = play_gym(env, seed=5)
    assert all(p.calls > 20 for p in policies)
    assert env.aec.game is not None and env.aec.game.is_over
    assert total == -info["scores"][0]  # the learner's rewards sum to minus its final score
    # the same seeds, the same game: the policies' choices decide it
    again = LiverpoolGymEnv(
        opponents=[MaskedRandomPolicy(env.observation_space, s) for s in (1, 2)], players=3, rules=SHORT
    )
    assert play_gym(again, seed=5)[1]["scores"] == info["scores"]


def test_bot_objects_and_names_mix() -> None:
    bot = GreedyBot(seed=3)
    first = lambda observation, mask: int(np.flatnonzero(mask)[0])  # noqa: E731
    env = LiverpoolGymEnv(opponents=[bot, first, "random"], players=4, rules=SHORT)
    _, info = play_gym(env, seed=2)
    assert len(info["scores"]) == 4
    with pytest.raises(TypeError, match="bot name, a bot"):
        LiverpoolGymEnv(opponents=[3, "random"], players=3)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="unknown bot"):
        LiverpoolGymEnv(opponents="nobody", players=3)
    # a bot spec with options, as liverpool simulate --seats takes them
    spec = LiverpoolGymEnv(opponents="strong:think=0.001,samples=2", players=2)
    spec.reset(seed=1)
    assert type(spec._bots[1]).__name__ == "StrongBot"


def test_illegal_index_from_a_policy_is_refused() -> None:
    env = LiverpoolGymEnv(opponents=lambda observation, mask: int(np.flatnonzero(mask == 0)[0]), players=2)
    with pytest.raises(ValueError, match="illegal action"):
        play_gym(env, seed=1)


def test_pettingzoo_opponent_seats() -> None:
    """Agents 1 and 2 are played by a bot and a policy; agent_iter stops only at agent 0, whose
    rewards over the game sum to minus its final score."""
    inner = liverpool_v0.env(players=3, rules=SHORT)
    base = inner.unwrapped
    assert isinstance(base, LiverpoolAEC)
    policy = MaskedRandomPolicy(base.observation_space("player_0"), seed=4)
    env = OpponentSeats(inner, {"player_1": "greedy", "player_2": policy})
    rng = np.random.default_rng(0)
    env.reset(seed=11)
    total = 0.0
    seen = set()
    for agent in env.agent_iter():
        seen.add(agent)
        obs, reward, term, trunc, _ = env.last()
        total += reward
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert seen == {"player_0"} and policy.calls > 20
    assert base.game is not None and base.game.is_over
    assert total == -base.game.scores[0]
    with pytest.raises(ValueError, match="at least one agent"):
        OpponentSeats(liverpool_v0.env(players=2), {"player_0": "random", "player_1": "random"})


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environment(mode: str) -> None:
    envs = make_vec(3, vectorization_mode=mode, opponents="random", players=3, rules=SHORT)
    try:
        obs, _ = envs.reset(seed=7)
        assert obs["observation"].shape[0] == 3 and obs["action_mask"].shape[0] == 3
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(1500):
            # a copy whose game just ended shows its last observation (no legal action): its next
            # step resets it and ignores the action
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
            obs, rewards, terminated, truncated, _ = envs.step(actions)
            assert rewards.shape == (3,) and np.all(rewards <= 0) and not truncated.any()
            assert (obs["action_mask"].any(axis=1) == ~terminated).all()
            ended += int(terminated.sum())
        assert ended >= 1
    finally:
        envs.close()

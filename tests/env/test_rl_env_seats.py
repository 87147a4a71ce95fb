"""The RL environments at tables of 9-16 seats (issue 22): the observation and action spaces are
built from the players and the rules (``layouts_for``) up to the engine's 16, PettingZoo's
``api_test`` and Gymnasium's ``check_env`` pass with 16 players, and random masked games of 16
finish with every observation inside its bounds and the action mapping exact."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test  # noqa: E402
from test_obs_bounds import outside  # noqa: E402
from test_rl_env import check_mapping, random_game  # noqa: E402

from liverpool import RuleSet  # noqa: E402
from liverpool.env import liverpool_v0  # noqa: E402
from liverpool.env.layout import layouts_for  # noqa: E402
from liverpool.env.liverpool_v0 import LiverpoolAEC  # noqa: E402
from liverpool.rules import OPTIONS  # noqa: E402

MOST: int = OPTIONS["max_players"].high or 0
SIXTEEN = RuleSet().with_options(max_players=str(MOST), packs="4")
"""Liverpool for up to 16: the preset allows 8, and 4 packs deal 16 hands."""


def test_the_spaces_follow_the_players_up_to_the_engines_most() -> None:
    assert MOST == 16
    sizes = []
    for players in (2, 4, 8, 9, 12, 16):
        env = LiverpoolAEC(players=players, rules=SIXTEEN)
        actions, obs = layouts_for(players, SIXTEEN)
        agent = env.possible_agents[0]
        assert len(env.possible_agents) == players
        space, action_space = env.observation_space(agent), env.action_space(agent)
        assert isinstance(space, gymnasium.spaces.Dict) and isinstance(action_space, gymnasium.spaces.Discrete)
        assert space["observation"].shape == (obs.size,)
        assert space["action_mask"].shape == (actions.size,)
        assert action_space.n == actions.size
        env.reset(seed=players)
        seen = env.observe(agent)
        assert seen["observation"].shape == (obs.size,) and seen["action_mask"].shape == (actions.size,)
        sizes.append((obs.size, actions.size))
    assert sizes == sorted(sizes) and len({s for s, _ in sizes}) == len(sizes)  # more seats, more to see
    with pytest.raises(ValueError, match="17 players: these rules allow 2-16"):
        LiverpoolAEC(players=MOST + 1, rules=SIXTEEN)


def test_pettingzoo_api_with_sixteen_players() -> None:
    api_test(liverpool_v0.env(players=MOST, rules=SIXTEEN), num_cycles=300)


def test_gymnasium_env_checker_and_a_game_with_sixteen_players() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("liverpool/Liverpool-v0", opponents="random", players=MOST, rules=SIXTEEN)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=7)
    rng = np.random.default_rng(7)
    total, done, info = 0.0, False, {}
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        total += float(reward)
        assert not trunc
    assert len(info["scores"]) == MOST and total == -info["scores"][0]


@pytest.mark.parametrize("observation", ["scaled", "raw"])
def test_random_games_of_sixteen_finish_inside_their_bounds(observation: str) -> None:
    steps = 0

    def check(env: LiverpoolAEC) -> None:
        nonlocal steps
        steps += 1
        if steps % 5 == 0:
            check_mapping(env)
        if steps % 11 == 0:
            for agent in env.possible_agents:
                seen = env.observe(agent)["observation"]
                assert not outside(env, seen), (steps, agent, outside(env, seen))

    env = LiverpoolAEC(players=MOST, rules=SIXTEEN, observation=observation)
    total = random_game(env, seed=3 if observation == "scaled" else 4, check=check)
    assert env.game is not None and len(env.game.scores) == MOST
    assert [total[a] for a in env.possible_agents] == [-s for s in env.game.scores]
    assert env.macro_fallbacks == 0 and steps > 500

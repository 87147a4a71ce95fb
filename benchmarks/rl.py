"""Environment speed: ``liverpool_v0`` against PettingZoo's ``gin_rummy_v4`` and OpenSpiel's
``gin_rummy`` with observations, side by side.

``liverpool_v0`` and ``gin_rummy_v4`` are played the same way: whole games of uniformly random
masked play through the PettingZoo AEC API (``env.last()`` builds each observation, one step per
``agent_iter`` turn). OpenSpiel's gin is played through ``pyspiel``: at each decision the acting
player's ``observation_tensor`` and ``legal_actions`` (what an RL loop needs), chance outcomes
sampled. The three are timed in alternating rounds of ``--seconds`` each (CPU time of this
process, so that the load of other processes on a shared machine counts less; all alike); the
figures are the total steps over the total time of each. ``gin_rummy_v4`` needs
``pettingzoo[classic]`` (rlcard) and OpenSpiel ``open-spiel``: ``pip install -e '.[rl,bench]'``.

    python benchmarks/rl.py [--rounds 3] [--seconds 4] [--players 4] [--rules liverpool] [--profile]
                            [--fast build/fast]

Prints one JSON line: ``env_steps_per_s``, ``pettingzoo_gin_steps_per_s``, ``ratio`` (ours over
PettingZoo's gin; target 3), ``openspiel_gin_obs_steps_per_s`` and ``ratio_openspiel`` (target 1).
With ``--fast DIR`` each round also plays the build ``make fast`` made in ``DIR``, in a fresh
process right after the source's round: ``fast_env_steps_per_s``, ``fast_ratio``,
``fast_ratio_openspiel`` and ``fast_over_source``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def play(make: Callable[[], Any], seconds: float, seed: int) -> tuple[int, float]:
    """Random masked play of whole games for about ``seconds``: (agent steps, seconds taken)."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = 0
    game = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=seed * 1000 + game)
        game += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def play_openspiel(pyspiel: Any, seconds: float, seed: int) -> tuple[int, float]:
    """Random play of OpenSpiel's gin_rummy with the acting player's observation tensor built at
    every decision, for about ``seconds``: (decisions, seconds taken)."""
    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            np.asarray(state.observation_tensor(state.current_player()), np.float32)
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
    return steps, time.process_time() - start


def breakdown(spent: dict[str, float]) -> None:
    """Wrap the engine calls the environment makes, and its encoder, with CPU-time counters."""
    import liverpool.env.liverpool_v0 as env_module
    from liverpool.game import Game

    def timed(owner: Any, name: str, key: str) -> None:
        inner = getattr(owner, name)

        def wrapper(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            try:
                return inner(*a, **k)
            finally:
                spent[key] = spent.get(key, 0.0) + time.process_time() - t

        setattr(owner, name, wrapper)

    timed(env_module, "next_to_act", "engine_next_to_act")
    timed(Game, "apply", "engine_apply")
    timed(Game, "view", "engine_view")
    timed(env_module.LiverpoolAEC, "encode", "env_encode")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0, help="per round and environment")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="liverpool")
    parser.add_argument("--profile", action="store_true", help="cProfile the Liverpool rounds (top functions)")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also time the engine's next_to_act, apply and view and the env's encode (us per step)",
    )
    parser.add_argument(
        "--fast", metavar="DIR", type=Path, help="also time the build `make fast` made in DIR (a fresh process a round)"
    )
    parser.add_argument("--fast-round", nargs=2, metavar=("SECONDS", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    from liverpool.env import liverpool_v0

    def ours() -> Any:
        return liverpool_v0.env(players=args.players, rules=args.rules)

    if args.fast_round:  # one round of the build on PYTHONPATH, in this fresh process
        steps, secs = play(ours, float(args.fast_round[0]), seed=int(args.fast_round[1]))
        core = str(sys.modules["liverpool.game.core"].__file__)  # the engine's game class
        print(json.dumps({"steps": steps, "cpu_s": secs, "compiled": not core.endswith(".py")}))
        return 0

    try:
        from pettingzoo.classic import gin_rummy_v4
    except ImportError as exc:
        gin_rummy_v4 = None
        print(f"gin_rummy_v4 unavailable ({exc}); pip install -e '.[rl,bench]'", file=sys.stderr)

    try:
        import pyspiel
    except ImportError as exc:
        pyspiel = None
        print(f"OpenSpiel unavailable ({exc}); pip install -e '.[rl,bench]'", file=sys.stderr)

    spent: dict[str, float] = {}
    if args.breakdown:
        breakdown(spent)
    totals = {"ours": [0, 0.0], "fast": [0, 0.0], "gin": [0, 0.0], "openspiel": [0, 0.0]}
    fast_compiled = False
    profiler = cProfile.Profile() if args.profile else None
    for r in range(args.rounds):
        if profiler is not None:
            profiler.enable()
        steps, secs = play(ours, args.seconds, seed=r + 1)
        if profiler is not None:
            profiler.disable()
        totals["ours"][0] += steps
        totals["ours"][1] += secs
        if args.fast is not None:
            command = [sys.executable, __file__, "--fast-round", str(args.seconds), str(r + 1)]
            command += ["--players", str(args.players), "--rules", args.rules]
            env = dict(os.environ, PYTHONPATH=str(args.fast.resolve()))
            finished = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            got = json.loads(finished.stdout)
            totals["fast"][0] += got["steps"]
            totals["fast"][1] += got["cpu_s"]
            fast_compiled = got["compiled"]
        if gin_rummy_v4 is not None:
            steps, secs = play(gin_rummy_v4.env, args.seconds, seed=r + 1)
            totals["gin"][0] += steps
            totals["gin"][1] += secs
        if pyspiel is not None:
            steps, secs = play_openspiel(pyspiel, args.seconds, seed=r + 1)
            totals["openspiel"][0] += steps
            totals["openspiel"][1] += secs
    ours_rate = totals["ours"][0] / totals["ours"][1]
    result: dict[str, Any] = {
        "env": f"liverpool_v0 players={args.players} rules={args.rules}",
        "env_steps_per_s": round(ours_rate),
    }
    fast_rate = totals["fast"][0] / totals["fast"][1] if totals["fast"][1] else None
    if fast_rate is not None:
        result["fast_env_steps_per_s"] = round(fast_rate)
        result["fast_build"] = "mypyc" if fast_compiled else "pure"
        result["fast_over_source"] = round(fast_rate / ours_rate, 3)
    if gin_rummy_v4 is not None:
        gin_rate = totals["gin"][0] / totals["gin"][1]
        result["pettingzoo_gin_steps_per_s"] = round(gin_rate)
        result["ratio"] = round(ours_rate / gin_rate, 2)
        if fast_rate is not None:
            result["fast_ratio"] = round(fast_rate / gin_rate, 2)
    if pyspiel is not None:
        spiel_rate = totals["openspiel"][0] / totals["openspiel"][1]
        result["openspiel_gin_obs_steps_per_s"] = round(spiel_rate)
        result["ratio_openspiel"] = round(ours_rate / spiel_rate, 2)
        if fast_rate is not None:
            result["fast_ratio_openspiel"] = round(fast_rate / spiel_rate, 2)
    if spent:
        done = totals["ours"][0]
        us = {k: round(v / done * 1e6, 1) for k, v in spent.items()}
        us["total"] = round(totals["ours"][1] / done * 1e6, 1)
        result["us_per_step"] = us
    print(json.dumps(result))
    if profiler is not None:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())

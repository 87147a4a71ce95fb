"""The mypyc build (``setup.py``, ``make fast``: the greedy bot, the engine's game class) decides
exactly as the source.

Not part of ``make test`` (it needs a C compiler and the Python headers): ``make test-compiled``
runs it, and CI (``.ci/run``) runs both; a build that fails fails the tests, never skips them.
The build is made once per state of the sources (cached in ``build/test-fast``): a fresh clone
builds it on its first run. Both builds play the same seeded games in fresh processes, bots of
every kind that reads greedy's code (greedy, easy, medium, and strong with a fixed number of
samples) on both presets and on house rules, and every legal list and chosen action must agree.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MODULES = r"""
def compiled_modules():
    # (the number of modules of the greedy package, which of them are compiled: all, none or mixed)
    import importlib, pkgutil
    from liverpool.bots import greedy
    names = ["liverpool.bots.greedy"]
    names += [f"liverpool.bots.greedy.{m.name}" for m in pkgutil.iter_modules(greedy.__path__)]
    flags = {not importlib.import_module(name).__file__.endswith(".py") for name in names}
    return len(names), "mixed" if len(flags) > 1 else ("all" if flags == {True} else "none")
"""

GAMES = (
    MODULES
    + r"""
import dataclasses, hashlib, json, random
from liverpool.game import Game
from liverpool.rules import RuleSet
from liverpool.bots import get
from liverpool.driver import next_to_act

HOUSE = {
    "buy_precedence": ["nearest", "first"], "playable_discard": ["call", "liverpool", "strict", "off"],
    "joker_swap": ["going_down_turn", "once_down", "later_turns", "off"], "floating": [False, True],
    "pile_draw": [False, True], "exact_melds": [False, True], "layoff_same_turn": [False, True],
    "wild_rank": [None, 2], "buy_limit": [None, 0, 1, 3], "down_may_buy": [False, True],
}
TABLES = [
    ("liverpool", False, ["strong", "greedy", "easy"]),
    ("contract", True, ["greedy", "medium", "greedy", "easy"]),
    ("liverpool", True, ["greedy", "greedy", "strong", "greedy", "greedy"]),
    ("contract", False, ["greedy", "random", "strong"]),
    ("liverpool", False, ["greedy", "medium"]),
]
digest = hashlib.sha256()
rng = random.Random(5)
actions = 0
for _ in range(3):
    for preset, house, kinds in TABLES:
        rules = RuleSet.preset(preset)
        if house:
            rules = dataclasses.replace(rules, **{k: rng.choice(v) for k, v in HOUSE.items()})
        game = Game.new(players=len(kinds), seed=rng.getrandbits(32), rules=rules)
        bots = [get(k, seed=i, samples=1) if k == "strong" else get(k, seed=i) for i, k in enumerate(kinds)]
        while not game.is_over:
            seat, legal = next_to_act(game)
            action = bots[seat].act(game.view(seat), legal)
            digest.update(repr((seat, legal, action)).encode())
            game.apply(action)
            actions += 1
modules, compiled = compiled_modules()
print(json.dumps({"compiled": compiled, "modules": modules, "actions": actions, "digest": digest.hexdigest()}))
"""
)


def sources_key() -> str:
    """A digest of everything the build reads."""
    h = hashlib.sha256()
    files = [*sorted((ROOT / "src").rglob("*.py")), ROOT / "setup.py", ROOT / "pyproject.toml"]
    for path in files:
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@pytest.fixture(scope="module")
def fast_build() -> Path:
    """The folder of the mypyc build of the current sources (built here when missing)."""
    cache = ROOT / "build" / "test-fast"
    target = cache / sources_key()
    if not (target / ".built").exists():
        shutil.rmtree(cache, ignore_errors=True)
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
        command += ["--target", str(target), str(ROOT)]
        done = subprocess.run(
            command, check=False, cwd=ROOT, env=dict(os.environ, LIVERPOOL_MYPYC="1"), capture_output=True, text=True
        )
        if done.returncode:
            pytest.fail(
                f"the mypyc build failed (a C compiler and the Python headers are needed):\n{done.stderr[-3000:]}"
            )
        (target / ".built").touch()
    return target


def play(*paths: Path) -> list[dict[str, object]]:
    """The games played with each source folder on ``PYTHONPATH``, in processes side by side."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", GAMES],
            env=dict(os.environ, PYTHONPATH=str(path), PYTHONHASHSEED="0"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in paths
    ]
    results = []
    for run in runs:
        out, err = run.communicate()
        assert run.returncode == 0, err
        results.append(json.loads(out))
    return results


def test_the_compiled_greedy_bot_decides_as_the_source(fast_build: Path) -> None:
    compiled, source = play(fast_build, ROOT / "src")
    assert compiled["compiled"] == "all"  # every module of the greedy package, ``__init__`` included
    assert source["compiled"] == "none"
    assert isinstance(source["modules"], int) and source["modules"] > 1
    assert isinstance(source["actions"], int) and source["actions"] > 1000
    assert compiled == source | {"compiled": "all"}


CYCLES = (
    MODULES
    + r"""
import gc, json
from liverpool import Game, RuleSet
from liverpool.bots import get
from liverpool.driver import play_game

found = {}
for preset in ("liverpool", "contract"):
    gc.collect()
    gc.disable()
    game = Game.new(players=4, seed=31, rules=RuleSet.preset(preset))
    play_game(game, [get("greedy", seed=i) for i in range(4)])
    found[preset] = gc.collect()
    gc.enable()
print(json.dumps({"compiled": compiled_modules()[1], "garbage": found}))
"""
)


def test_the_compiled_greedy_bot_leaves_no_reference_cycles(fast_build: Path) -> None:
    """As ``test_play_leaves_no_reference_cycles`` for the source: mypyc keeps the closures of one
    function in a shared environment, so closures that named one another were cycles there."""
    env = dict(os.environ, PYTHONPATH=str(fast_build))
    done = subprocess.run([sys.executable, "-c", CYCLES], env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"compiled": "all", "garbage": {"liverpool": 0, "contract": 0}}


def test_the_bench_times_both_builds(fast_build: Path) -> None:
    """``make bench`` times the greedy games with the mypyc build and the source, side by side."""
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.bot_figures(seed=3, games=1, warmup=0, rounds=1, fast=str(fast_build), decisions=False)
    assert figures["greedy_build"] == "mypyc"
    assert figures["greedy_games_per_s"] > 0 and figures["greedy_pure_games_per_s"] > 0
    assert figures["greedy_mypyc_vs_pure"] > 0
    plain = bench.bot_figures(seed=3, games=1, warmup=0, rounds=1, decisions=False)
    assert plain["greedy_build"] == "pure" and "greedy_pure_games_per_s" not in plain


ENGINE = r"""
import dataclasses, hashlib, importlib, json, random
import numpy as np
from liverpool.game import Game
from liverpool.rules import RuleSet
from liverpool.env import liverpool_v0

names = ["liverpool.game.core", "liverpool.game.listing", "liverpool.game.moves", "liverpool.game.checks",
         "liverpool.game.views", "liverpool.solver.tables", "liverpool.solver.search", "liverpool.solver.runs",
         "liverpool.solver.contract", "liverpool.melds", "liverpool.env.encoder", "liverpool.env.choices"]
compiled = sorted(n for n in names if not importlib.import_module(n).__file__.endswith(".py"))
HOUSE = {
    "buy_precedence": ["nearest", "first"], "playable_discard": ["call", "liverpool", "strict", "off"],
    "joker_swap": ["going_down_turn", "once_down", "later_turns", "off"], "floating": [False, True],
    "pile_draw": [False, True], "exact_melds": [False, True], "wild_rank": [None, 2],
    "buy_limit": [None, 0, 1, 3], "down_may_buy": [False, True],
}
# random legal play through the public checked API: every legal list, choice and final position
play = hashlib.sha256()
rng = random.Random(11)
decisions = 0
for i in range(6):
    rules = RuleSet.preset(("liverpool", "contract")[i % 2])
    if i >= 2:
        rules = dataclasses.replace(rules, **{k: rng.choice(v) for k, v in HOUSE.items()})
    game = Game.new(players=3 + i % 3, seed=rng.getrandbits(32), rules=rules)
    while not game.is_over:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        play.update(repr((game.current, legal, action)).encode())
        game.apply(action)
        decisions += 1
    play.update(json.dumps(game.position(), sort_keys=True, default=str).encode())
# the environment's observations and masks over whole random masked games, both presets
obs = hashlib.sha256()
steps = 0
for preset, players in (("liverpool", 4), ("contract", 3)):
    env = liverpool_v0.env(players=players, rules=preset)
    env.reset(seed=5)
    pick = np.random.default_rng(5)
    for agent in env.agent_iter():
        o, reward, term, trunc, _ = env.last()
        obs.update(o["observation"].tobytes())
        obs.update(o["action_mask"].tobytes())
        obs.update(repr(reward).encode())
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(o["action_mask"])
        env.step(int(legal[pick.integers(len(legal))]))
        steps += 1
print(json.dumps({"compiled": compiled, "decisions": decisions, "play": play.hexdigest(),
                  "steps": steps, "observations": obs.hexdigest()}))
"""


def test_the_compiled_engine_plays_and_observes_as_the_source(fast_build: Path) -> None:
    """The engine modules the build compiles (game/ but common, the solver, melds) list, check
    and apply exactly as the source (every legal list, choice and final position of seeded random
    games, house rules too), and the RL environment built on them (its encoder compiled too) observes
    the same."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", ENGINE],
            env=dict(os.environ, PYTHONPATH=str(path), PYTHONHASHSEED="0"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in (fast_build, ROOT / "src")
    ]
    compiled, source = [json.loads(run.communicate()[0]) for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert source["compiled"] == []
    assert "liverpool.game.core" in compiled["compiled"] and "liverpool.game.listing" in compiled["compiled"]
    for name in (
        "liverpool.solver.search",
        "liverpool.solver.runs",
        "liverpool.melds",
        "liverpool.env.encoder",
        "liverpool.env.choices",
    ):
        assert name in compiled["compiled"]  # the solver, the melds, the observation encoder and the indexer too
    assert source["decisions"] > 5000 and source["steps"] > 1000
    assert compiled | {"compiled": []} == source

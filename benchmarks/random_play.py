"""The engine's random play against OpenSpiel's ``gin_rummy``, per decision, side by side.

Uniformly random legal play of whole 4-player games through the public checked API
(``Game.legal_actions()`` + ``Game.apply()``, which verifies the action against the rules; default
rules, ``Game.new`` included), against OpenSpiel's gin played the same way (``legal_actions()`` +
``apply_action()``, chance outcomes sampled and not counted, ``new_initial_state()`` per game).
With ``--fast DIR`` the build ``make fast`` made in ``DIR`` plays too. Each contestant plays each
round in a fresh process, timed in that process's CPU time (so that the load of other processes
on a shared machine counts less); rounds interleave the contestants, and each figure is the total
decisions over the total CPU seconds of its rounds. OpenSpiel is the ``bench`` extra
(``pip install -e '.[bench]'``).

    python benchmarks/random_play.py [--rounds 3] [--seconds 3] [--fast build/fast]

Prints one JSON object: ``source_decisions_per_s``, ``openspiel_gin_decisions_per_s``,
``ratio_source`` (ours over OpenSpiel's; target 1.5), with ``--fast`` also
``fast_decisions_per_s``, ``ratio_fast`` and ``fast_over_source``; ``rounds`` lists each round's
figures, and ``fast_build`` which modules of the build are compiled.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def engine_round(seconds: float, seed: int) -> dict[str, Any]:
    """Random legal play of whole games for about ``seconds`` of CPU time (checked after each game)."""
    from liverpool import Game, RuleSet

    rng = random.Random(seed)
    decisions = games = 0
    start = time.process_time()
    while True:
        game = Game.new(players=4, rules=RuleSet(), seed=rng.getrandbits(32))
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
        if time.process_time() - start >= seconds:
            break
    return {"decisions": decisions, "games": games, "cpu_s": time.process_time() - start, "build": build()}


def openspiel_round(seconds: float, seed: int) -> dict[str, Any]:
    """OpenSpiel's gin_rummy played the same way for about ``seconds`` of CPU time."""
    import pyspiel

    gin = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = games = 0
    start = time.process_time()
    while True:
        state = gin.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1
        if time.process_time() - start >= seconds:
            break
    return {"decisions": decisions, "games": games, "cpu_s": time.process_time() - start}


def build() -> str:
    """Which of the engine's and the environment's modules this process imported compiled."""
    import importlib

    names = ["liverpool.game.core", "liverpool.game.listing", "liverpool.game.moves", "liverpool.env.layout"]
    compiled = []
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if not str(module.__file__).endswith(".py"):
            compiled.append(name)
    return ",".join(compiled) or "pure"


def run_round(kind: str, seconds: float, seed: int, path: Path | None) -> dict[str, Any]:
    """One round of ``kind`` in a fresh process (``path`` on its ``PYTHONPATH``)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    command = [sys.executable, __file__, "--worker", kind, str(seconds), str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"the {kind} round failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per round and contestant")
    parser.add_argument("--fast", metavar="DIR", type=Path, help="also the compiled build in DIR (`make fast`)")
    parser.add_argument("--worker", nargs=3, metavar=("KIND", "SECONDS", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, seconds, seed = args.worker[0], float(args.worker[1]), int(args.worker[2])
        result = openspiel_round(seconds, seed) if kind == "openspiel" else engine_round(seconds, seed)
        print(json.dumps(result))
        return 0
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:
        print(f"OpenSpiel unavailable ({exc}); pip install -e '.[bench]'", file=sys.stderr)
        openspiel = False
    else:
        openspiel = True
    contestants: dict[str, Path | None] = {"source": ROOT / "src"}
    if args.fast is not None:
        contestants["fast"] = args.fast.resolve()
    if openspiel:
        contestants["openspiel"] = None
    totals = {name: [0, 0.0] for name in contestants}
    rounds: list[dict[str, int]] = []
    builds: dict[str, str] = {}
    for r in range(args.rounds):
        row: dict[str, int] = {}
        # the order turns each round, so that no contestant always runs first
        names = list(contestants)
        names = names[r % len(names) :] + names[: r % len(names)]
        for name in names:
            kind = "openspiel" if name == "openspiel" else "engine"
            got = run_round(kind, args.seconds, r + 1, contestants[name])
            totals[name][0] += got["decisions"]
            totals[name][1] += got["cpu_s"]
            row[name] = round(got["decisions"] / got["cpu_s"])
            if "build" in got:
                builds[name] = got["build"]
        rounds.append(row)
    rate = {name: steps / secs for name, (steps, secs) in totals.items()}
    out: dict[str, Any] = {"source_decisions_per_s": round(rate["source"]), "source_build": builds["source"]}
    if "fast" in rate:
        out["fast_decisions_per_s"] = round(rate["fast"])
        out["fast_build"] = builds["fast"]
        out["fast_over_source"] = round(rate["fast"] / rate["source"], 3)
    if "openspiel" in rate:
        out["openspiel_gin_decisions_per_s"] = round(rate["openspiel"])
        out["ratio_source"] = round(rate["source"] / rate["openspiel"], 3)
        if "fast" in rate:
            out["ratio_fast"] = round(rate["fast"] / rate["openspiel"], 3)
    out["rounds"] = rounds
    out["seconds_per_round"] = args.seconds
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

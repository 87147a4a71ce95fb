"""Throughput baseline: OpenSpiel's ``gin_rummy`` under uniformly random legal play.

Used to put the Liverpool engine's decisions/s in context. OpenSpiel is an
optional, benchmark-only dependency (``pip install open-spiel``); it is imported
lazily so this module can be imported without it.

Run directly::

    python benchmarks/openspiel_gin.py [--seconds 3.0] [--seed 0]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType


def _load_pyspiel() -> ModuleType:
    """Import the optional ``pyspiel`` module, or raise a clear RuntimeError."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError as exc:
        msg = "OpenSpiel is not installed (module 'pyspiel' not found); install it with: pip install open-spiel"
        raise RuntimeError(msg) from exc


def openspiel_gin_decisions_per_s(
    seconds: float = 3.0, seed: int = 0, *, clone_initial_state: bool = False
) -> dict[str, float]:
    """Play whole random ``gin_rummy`` games for about ``seconds`` of wall-clock time.

    Chance nodes (deal, stock draws) are sampled from ``state.chance_outcomes()``;
    player nodes pick uniformly from ``state.legal_actions()``. Both use one
    ``random.Random(seed)``. Only player (non-chance) decisions are counted. The
    clock is checked after each game, so at least one game is always played and
    the run overshoots ``seconds`` by at most one game.

    Caveat: in OpenSpiel (2.0.x) ``game.new_initial_state()`` for gin_rummy costs
    about 2 ms, since it rebuilds the meld tables each time; that is roughly half
    of a random game's total cost. The default counts it, as a real "new game"
    cost. With ``clone_initial_state=True`` each game instead starts from
    ``template.clone()`` (about 20 us), which measures the play loop alone.
    """
    pyspiel = _load_pyspiel()
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)

    template = game.new_initial_state() if clone_initial_state else None

    decisions = 0
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state() if template is None else template.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                probs = [p for _, p in outcomes]
                state.apply_action(rng.choices(actions, weights=probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start

    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions": float(decisions),
        "games": float(games),
    }


def main() -> None:
    """Command-line entry point: run the benchmark and print the result as JSON."""
    parser = argparse.ArgumentParser(description="OpenSpiel gin_rummy random-play throughput")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clone-initial-state",
        action="store_true",
        help="start each game from a cloned template (skips ~2 ms setup per game)",
    )
    args = parser.parse_args()
    result = openspiel_gin_decisions_per_s(
        seconds=args.seconds,
        seed=args.seed,
        clone_initial_state=args.clone_initial_state,
    )
    sys.stdout.write(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()

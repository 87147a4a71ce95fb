"""`make bench`: the engine's speed, measured side by side with OpenSpiel's gin_rummy in one run.

Prints one JSON object. Rounds alternate between our engine and OpenSpiel so that both see the
same machine load; each figure is the median over the rounds.

    python benchmarks/run.py [--rounds 3] [--seconds 2.0] [--greedy-games 60]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from liverpool import Game, RuleSet
from liverpool.cards import full_deck
from liverpool.solver import find_contract


def random_play(seconds: float, seed: int) -> dict[str, float]:
    """Whole 4-player games of uniformly random legal play through legal_actions() + apply()."""
    rng = random.Random(seed)
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = Game.new(players=4, rules=RuleSet(), seed=rng.getrandbits(32))
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed}


def play_random(seed: int, decisions: int) -> None:
    """``decisions`` uniformly random legal decisions of 4-player games (``--play-random``), as
    :func:`random_play` makes them, untimed. Public API only, so that older builds can be measured."""
    rng = random.Random(seed)
    done = 0
    while done < decisions:
        game = Game.new(players=4, rules=RuleSet(), seed=rng.getrandbits(32))
        while not game.is_over and done < decisions:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            done += 1


def play_random_games(seed: int, games: int) -> int:
    """``games`` whole 4-player games of uniformly random legal decisions, as :func:`random_play`
    makes them, untimed (``--play-random-games``); the number of decisions. Public API only, so
    that older builds can be measured (random games differ between builds whose rules differ:
    compare instructions per decision)."""
    rng = random.Random(seed)
    done = 0
    for _ in range(games):
        game = Game.new(players=4, rules=RuleSet(), seed=rng.getrandbits(32))
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            done += 1
    return done


def find_contract_times(samples: int, seed: int) -> list[float]:
    """Microseconds per find_contract on random 10-13-card hands with jokers, all seven deals."""
    rng = random.Random(seed)
    rules = RuleSet()
    deck = full_deck(2, 2)
    times = []
    for i in range(samples):
        hand = rng.sample(deck, rng.randint(10, 13))
        deal = i % 7 + 1
        t0 = time.perf_counter()
        find_contract(hand, deal, rules)
        times.append((time.perf_counter() - t0) * 1e6)
    return times


def mid_game_states(count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    states: list[Game] = []
    while len(states) < count:
        game = Game.new(players=4, seed=rng.getrandbits(32))
        for _ in range(rng.randint(40, 400)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            states.append(game)
    return states


def copy_us(states: list[Game], repeat: int = 200) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            state.copy()
    return (time.perf_counter() - t0) / (repeat * len(states)) * 1e6


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def greedy_seeds(seed: int, games: int) -> list[int]:
    """The seeds of the greedy games of the bench's seed ``seed``."""
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(games)]


def play_greedy(seeds: list[int]) -> int:
    """Whole 4-player games of four greedy bots, one per seed, as a tournament process plays them:
    ``next_to_act``, ``view``, ``act``, ``apply``; the number of actions applied. Public API only,
    so that older builds can be measured with this file (``--play``)."""
    from liverpool.bots import get
    from liverpool.driver import next_to_act

    decisions = 0
    for game_seed in seeds:
        game = Game.new(players=4, seed=game_seed)
        bots = [get("greedy", seed=i) for i in range(4)]
        while not game.is_over:
            seat, legal = next_to_act(game)
            game.apply(bots[seat].act(game.view(seat), legal))
            decisions += 1
    return decisions


def greedy_round(seed: int, games: int, warmup: int) -> dict[str, Any]:
    """One round of four greedy bots playing whole games in this process: ``warmup`` games first
    (the bots' memo tables and the solver's fill up over the first games of a process), then
    ``games`` seeded games timed, by the wall clock and by the process's CPU time. ``compiled``:
    whether this process's greedy bot is the mypyc build (``setup.py``)."""
    from liverpool.bots import greedy

    seeds = greedy_seeds(seed, warmup + games)

    def play(chunk: list[int]) -> tuple[float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        play_greedy(chunk)
        return time.perf_counter() - start, time.process_time() - cpu

    warm = play(seeds[:warmup])[0] if warmup else 0.0
    before = host_loop_ms()
    wall, cpu = play(seeds[warmup:])
    return {
        "warmup_games_per_s": warmup / warm if warm else 0.0,
        "games_per_s": games / wall,
        "games_per_cpu_s": games / cpu,
        "host_loop_ms": (before + host_loop_ms()) / 2,
        "compiled": not greedy.__file__.endswith(".py"),
    }


def host_loop_ms() -> float:
    """Milliseconds of a fixed plain-Python loop: a gauge of how fast the shared host runs Python
    at the moment, timed next to the games so that a slow round can be told from a slow build."""
    start = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i & 7
    return (time.perf_counter() - start) * 1e3


def bot_figures(
    seed: int, games: int = 60, warmup: int = 5, rounds: int = 3, fast: str | None = None, decisions: bool = True
) -> dict[str, Any]:
    """Four greedy bots playing whole games in one process, and the bots' decision times.

    ``greedy_games_per_s`` is the steady rate of a tournament process: each of ``rounds`` rounds
    is a fresh process (nothing left over from the other figures or from an earlier round) that
    plays ``warmup`` games and then times the same ``games`` seeded games, so that rounds and
    builds are measured on one workload; the figure is the median round, ``_min``/``_max`` the
    others. ``greedy_games_per_cpu_s`` is over the process's CPU time, and
    ``greedy_warmup_games_per_s`` the rate of the first games of a process, and
    ``greedy_host_loop_ms`` the median time of :func:`host_loop_ms` around the timed games.

    With ``fast`` (the folder ``make fast`` builds: the greedy bot compiled with mypyc, see
    ``setup.py``) these figures are of that build, ``greedy_build`` says so, and each round also
    plays the same games with the pure-Python source of this process, right after:
    ``greedy_pure_games_per_s`` is their median and ``greedy_mypyc_vs_pure`` the median of the
    rounds' ratios. ``decisions``: also time the bots' decisions (this process's build).
    """
    from liverpool.bots import names

    out: dict[str, Any] = {}
    if "greedy" not in names():
        return out
    builds: dict[str, str | None] = {"pure": None}
    if fast is not None:
        builds = {"mypyc": fast, "pure": None}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in builds}
    for _ in range(rounds):
        for name, path in builds.items():
            env = dict(os.environ)
            if path is not None:
                env["PYTHONPATH"] = os.pathsep.join(p for p in (path, env.get("PYTHONPATH")) if p)
            command = [sys.executable, __file__, "--greedy-round", str(seed), str(games), str(warmup)]
            done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
            result = json.loads(done.stdout)
            if result["compiled"] != (name == "mypyc"):
                raise RuntimeError(f"the {name} round ran a {'compiled' if result['compiled'] else 'pure'} greedy bot")
            results[name].append(result)
    build = next(iter(builds))  # the build the figures are of: the first of each round
    main = results[build]
    rates = sorted(r["games_per_s"] for r in main)
    out["greedy_build"] = build
    out["greedy_games_per_s"] = round(statistics.median(rates), 2)
    out["greedy_games_per_s_min"] = round(rates[0], 2)
    out["greedy_games_per_s_max"] = round(rates[-1], 2)
    out["greedy_games_per_cpu_s"] = round(statistics.median(r["games_per_cpu_s"] for r in main), 2)
    out["greedy_warmup_games_per_s"] = round(statistics.median(r["warmup_games_per_s"] for r in main), 2)
    out["greedy_host_loop_ms"] = round(statistics.median(r["host_loop_ms"] for r in main), 1)
    if fast is not None:
        pure = results["pure"]
        out["greedy_pure_games_per_s"] = round(statistics.median(r["games_per_s"] for r in pure), 2)
        ratios = [a["games_per_s"] / b["games_per_s"] for a, b in zip(main, pure, strict=True)]
        out["greedy_mypyc_vs_pure"] = round(statistics.median(ratios), 3)
    out["greedy_games"] = games
    out["greedy_rounds"] = rounds
    if decisions and "strong" in names():
        out["strong_trivial_decision_ms_max"] = round(trivial_decision_ms(200, seed), 3)
    for name, count in (("greedy", 400), ("strong", 40)) if decisions else ():
        if name not in names():
            continue
        times = decision_times(name, count, seed)
        out[f"{name}_decision_ms_p50"] = round(percentile(times, 0.5), 3)
        out[f"{name}_decision_ms_p99"] = round(percentile(times, 0.99), 3)
    return out


TRIVIAL_LIMIT_MS = 500.0
"""``make bench`` fails when a bot takes this long over a decision with one legal action."""


def trivial_decision_ms(decisions: int, seed: int) -> float:
    """The longest of ``decisions`` decisions of a strong bot with 5 s to think and one legal action
    (the first of the listing) in seeded positions of greedy games: it must answer at once."""
    from liverpool.bots import get
    from liverpool.bots.strong import StrongBot
    from liverpool.driver import next_to_act

    rng = random.Random(seed)
    worst = 0.0
    done = 0
    while done < decisions:
        game = Game.new(players=4, seed=rng.getrandbits(32))
        bots = [get("greedy", seed=i) for i in range(4)]
        while not game.is_over and done < decisions:
            seat, legal = next_to_act(game)
            view = game.view(seat)
            bot = StrongBot(seed=done, think=5.0)
            t0 = time.perf_counter()
            bot.act(view, legal[:1])
            worst = max(worst, (time.perf_counter() - t0) * 1e3)
            done += 1
            game.apply(bots[seat].act(view, legal))
    return worst


def decision_times(name: str, decisions: int, seed: int) -> list[float]:
    """Milliseconds per decision of bot ``name`` (default budget) in seat 0 against greedy bots."""
    from liverpool.bots import get
    from liverpool.driver import next_to_act

    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < decisions:
        game = Game.new(players=4, seed=rng.getrandbits(32))
        bots = [get(name, seed=0)] + [get("greedy", seed=i) for i in range(1, 4)]
        while not game.is_over and len(times) < decisions:
            seat, legal = next_to_act(game)
            view = game.view(seat)
            t0 = time.perf_counter()
            action = bots[seat].act(view, legal)
            if seat == 0 and len(legal) > 1:
                times.append((time.perf_counter() - t0) * 1e3)
            game.apply(action)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--greedy-games", type=int, default=60, help="timed games of four greedy bots per round")
    parser.add_argument(
        "--greedy-round", nargs=3, type=int, metavar=("SEED", "GAMES", "WARMUP"), help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--play",
        nargs=2,
        type=int,
        metavar=("SEED", "GAMES"),
        help="only play the first GAMES greedy games of SEED, untimed (for instruction counts)",
    )
    parser.add_argument(
        "--play-random",
        nargs=2,
        type=int,
        metavar=("SEED", "DECISIONS"),
        help="only make DECISIONS uniformly random legal decisions of SEED, untimed (for instruction counts)",
    )
    parser.add_argument(
        "--play-random-games",
        nargs=2,
        type=int,
        metavar=("SEED", "GAMES"),
        help="only play GAMES whole games of uniformly random legal decisions of SEED, untimed; prints the decisions",
    )
    parser.add_argument("--greedy-only", action="store_true", help="only the greedy bots' figures")
    parser.add_argument(
        "--fast", metavar="DIR", help="also time the greedy games with the compiled build in DIR (`make fast`)"
    )
    args = parser.parse_args(argv)
    if args.play:
        play_greedy(greedy_seeds(*args.play))
        return 0
    if args.play_random:
        play_random(*args.play_random)
        return 0
    if args.play_random_games:
        print(play_random_games(*args.play_random_games))
        return 0
    if args.greedy_only:
        figures = bot_figures(seed=3, games=args.greedy_games, fast=args.fast)
        print(json.dumps(figures, indent=2))
        return check_trivial(figures)
    if args.greedy_round:
        print(json.dumps(greedy_round(*args.greedy_round)))
        return 0
    from openspiel_gin import openspiel_gin_decisions_per_s

    ours: list[dict[str, float]] = []
    theirs: list[float] = []
    openspiel = True
    for r in range(args.rounds):
        ours.append(random_play(args.seconds, seed=r))
        if openspiel:
            try:
                theirs.append(openspiel_gin_decisions_per_s(args.seconds, seed=r)["decisions_per_s"])
            except RuntimeError as exc:
                print(f"openspiel unavailable: {exc}", file=sys.stderr)
                openspiel = False
    times = find_contract_times(3000, seed=1)
    states = mid_game_states(20, seed=2)
    out: dict[str, Any] = {
        "decisions_per_s": round(statistics.median(o["decisions_per_s"] for o in ours)),
        "games_per_s": round(statistics.median(o["games_per_s"] for o in ours), 2),
        "find_contract_us_p50": round(percentile(times, 0.5), 1),
        "find_contract_us_p99": round(percentile(times, 0.99), 1),
        "copy_us": round(copy_us(states), 2),
        "rounds": args.rounds,
        "seconds_per_round": args.seconds,
    }
    if theirs:
        out["openspiel_gin_decisions_per_s"] = round(statistics.median(theirs))
        out["ratio_vs_openspiel"] = round(out["decisions_per_s"] / out["openspiel_gin_decisions_per_s"], 3)
    else:
        out["openspiel_gin_decisions_per_s"] = None
        out["ratio_vs_openspiel"] = None
    out |= bot_figures(seed=3, games=args.greedy_games, fast=args.fast)
    print(json.dumps(out, indent=2))
    return check_trivial(out)


def check_trivial(figures: dict[str, Any]) -> int:
    """1 (the bench fails) when a decision with one legal action was slow, with the reason."""
    slow = figures.get("strong_trivial_decision_ms_max", 0.0)
    if slow >= TRIVIAL_LIMIT_MS:
        print(f"a decision with one legal action took {slow} ms (limit {TRIVIAL_LIMIT_MS} ms)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

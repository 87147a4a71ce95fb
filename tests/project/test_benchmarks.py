"""The strong bot's regret benchmark runs end to end and measures what it says."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_strong_regret_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("strong_regret")
    positions = bench.collect(1, 7000)
    assert positions and all(len(p.cands) >= 2 for p in positions)
    means = bench.oracle(positions[:6], 2, 1)
    assert [len(m) for m in means] == [len(p.cands) for p in positions[:6]]
    row = bench.regret("strong:samples=2", positions[:6], means, 0.01, 1)
    assert row["mean_samples"] == 2.0
    # the regret of a choice is between 0 (the best candidate) and the worst candidate's shortfall
    worst = sum(max(m) - min(m) for m in means) / len(means)
    assert 0 <= row["mean_regret"] <= round(worst, 3) + 0.001
    assert 0 <= row["changed"] <= 1
    # values (lower is better: own points less the others' mean) that make greedy's choice (the first
    # candidate) the one loss of 10 points: the regret is 10 when the bot keeps it, 0 when it changes it
    rigged = [[10.0] + [0.0] * (len(m) - 1) for m in means]
    row = bench.regret("strong:samples=2", positions[:6], rigged, 0.01, 1)
    assert row["mean_regret"] == pytest.approx(10 * (1 - row["changed"]), abs=0.01)  # both rounded to 0.001
    with pytest.raises(SystemExit):
        bench.regret("greedy", positions[:1], means[:1], 0.01, 1)
    args = ["--games", "1", "--oracle-samples", "1", "--budget", "0.001", "--reps", "1", "--specs", "strong"]
    bench.main(args)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [sorted(line) for line in lines] == [
        ["greedy_choice_regret", "positions"],
        ["changed", "mean_regret", "mean_samples", "spec"],
        ["seconds"],
    ]
    assert lines[0]["positions"] == len(positions) and lines[1]["spec"] == "strong"


def test_greedy_round_runs_in_its_own_process() -> None:
    """`make bench` times four greedy bots in fresh processes through ``run.py --greedy-round``."""
    import subprocess

    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--greedy-round", "3", "1", "1"],
        check=True,
        capture_output=True,
        text=True,
    )
    figures = json.loads(done.stdout)
    assert set(figures) == {"warmup_games_per_s", "games_per_s", "games_per_cpu_s", "host_loop_ms", "compiled"}
    assert figures.pop("compiled") is False  # the source tree's greedy bot, not the mypyc build
    assert all(value > 0 for value in figures.values())


def test_play_plays_the_bench_games_untimed() -> None:
    """``run.py --play SEED GAMES`` (for instruction counts) plays the greedy rounds' first games."""
    bench = load("run")
    assert bench.greedy_seeds(3, 2) == bench.greedy_seeds(3, 5)[:2]
    assert len(set(bench.greedy_seeds(3, 5))) == 5
    decisions = bench.play_greedy(bench.greedy_seeds(3, 1))  # one whole game of four greedy bots
    assert decisions > 100  # a whole 7-deal game
    assert bench.play_greedy(bench.greedy_seeds(3, 1)) == decisions  # seeded: the same game again
    assert bench.play_greedy([]) == 0


def test_play_random_games_plays_whole_seeded_games() -> None:
    """``run.py --play-random-games SEED GAMES`` (instruction counts per decision) plays whole random
    games, the same ones for the same seed, and counts their decisions."""
    bench = load("run")
    decisions = bench.play_random_games(7, 1)
    assert decisions > 100  # a whole 7-deal game of random play
    assert bench.play_random_games(7, 1) == decisions  # seeded: the same game again
    assert bench.play_random_games(7, 2) > decisions  # a second game adds decisions
    assert bench.play_random_games(7, 0) == 0


def test_random_play_times_the_engine_beside_openspiel(capsys: pytest.CaptureFixture[str]) -> None:
    """`make bench`'s engine-against-OpenSpiel command plays whole games in fresh processes and
    reports decisions over CPU seconds for each contestant (OpenSpiel when the bench extra is in)."""
    bench = load("random_play")
    assert bench.main(["--rounds", "2", "--seconds", "0.01"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["source_build"] == "pure"
    assert figures["source_decisions_per_s"] > 0
    assert [set(row) >= {"source"} for row in figures["rounds"]] == [True, True]
    if importlib.util.find_spec("pyspiel") is not None:
        assert figures["openspiel_gin_decisions_per_s"] > 0
        assert figures["ratio_source"] == pytest.approx(
            figures["source_decisions_per_s"] / figures["openspiel_gin_decisions_per_s"], abs=0.002
        )
    one = bench.engine_round(0.0, seed=4)  # at least one whole game, however short the round
    assert one["games"] == 1 and one["decisions"] > 100

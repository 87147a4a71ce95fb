"""Simulation: reproducible tournaments, their statistics and JSON, Ray, and the rating ladder."""

from __future__ import annotations

import io
import json
import math
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from rich.console import Console

from liverpool import bots
from liverpool.actions import Action
from liverpool.bots.base import Bot, RandomBot
from liverpool.cli import main
from liverpool.sim import (
    QUICK_RULES,
    GameResult,
    RayUnavailableError,
    aggregate,
    analytic_sd,
    fit_bradley_terry,
    ladder_bots,
    make_bot,
    mean_ci,
    rotated,
    run_ladder,
    run_tournament,
    t_quantile_975,
    wilson_interval,
)
from liverpool.sim.ratings import ladder_lineups, pairwise
from liverpool.sim.ray_backend import import_ray
from liverpool.sim.tournament import parse_seats, tournament_specs

QUICK = ["--set", "schedule=2S/10,1S1R/10", "--set", "turn_limit=60"]


class FirstBot(Bot):
    """Always the first legal action: a second, different, deterministic bot for tests."""

    name = "first"

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[0]


class ThinkerBot(RandomBot):
    """A stand-in for a searching bot: declares ``think``."""

    name = "thinker"

    def __init__(self, seed: int | None = None, think: float = 1.0) -> None:
        super().__init__(seed=seed)
        self.think = think


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(bots.BOTS, "first", FirstBot)
    monkeypatch.setitem(bots.BOTS, "thinker", ThinkerBot)
    monkeypatch.setitem(bots.BOTS, "alias", lambda seed=None, **options: ThinkerBot(seed=seed, **options))
    monkeypatch.setitem(bots.BOTS, "any_first", lambda seed=None, **options: FirstBot(seed=seed, **options))
    yield


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *QUICK, *args])
    out, err = capsys.readouterr()
    return code, out, err


def without_seconds(summary: dict[str, Any]) -> dict[str, Any]:
    assert isinstance(summary.pop("seconds"), float)
    return summary


# ---------------------------------------------------------------------- statistics


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson_interval(81, 263) == pytest.approx((0.255289, 0.366210), abs=1e-6)
    # fractional successes (shared wins) and the symmetric case
    lo, hi = wilson_interval(2.5, 5)
    assert lo + hi == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(6, 5)


def test_mean_ci_known_values() -> None:
    # mean 3, s = 1.5811, t(4) = 2.7764: 3 ± 1.9632
    assert mean_ci([1, 2, 3, 4, 5]) == pytest.approx((1.036757, 4.963243), abs=1e-6)
    # n = 2: t(1) = 12.7062, s = 1.4142, half = 12.7062
    assert mean_ci([10, 12]) == pytest.approx((11 - 12.706205, 11 + 12.706205), abs=1e-6)
    assert mean_ci([4]) is None
    assert mean_ci([7, 7, 7]) == (7.0, 7.0)
    # t quantiles beyond the table: 31, 60, 120 and 1000 degrees of freedom
    for df, t in ((31, 2.039513), (60, 2.000298), (120, 1.979930), (1000, 1.962339)):
        assert t_quantile_975(df) == pytest.approx(t, abs=2e-6)
    assert t_quantile_975(30) == pytest.approx(2.042272, abs=1e-6)


def test_bot_statistics_share_ties() -> None:
    # seat 0 and 2 tie for the win; deal 2 nobody went out and seats 1, 2 tie for lowest
    game = GameResult(
        index=0,
        seed=1,
        lineup=("a", "b", "a"),
        scores=(50, 80, 50),
        winners=(0, 2),
        deal_points=((0, 40, 20), (50, 40, 30)),
        deal_out=(0, None),
        buys=(1, 3, 0),
        actions=99,
    )
    a, b = aggregate([game], ["a", "b", "a"])
    assert (a.name, a.seats, a.games, a.wins, b.wins) == ("a", 2, 2, 1.0, 0.0)
    assert (a.deals, a.points, a.deals_won, a.deals_out, a.buys) == (4, 100, 2.0, 1, 1)
    assert (b.deals, b.points, b.deals_won, b.buys, b.buys_per_deal) == (2, 80, 0.0, 3, 1.5)
    assert a.mean_score == 50 and a.points_per_deal == 25
    row = a.to_dict()
    assert row["win_rate"] == 0.5 and row["mean_score_ci95"] == [50.0, 50.0]
    assert b.to_dict()["mean_score_ci95"] is None


# ---------------------------------------------------------------------- tournaments


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    assert rotated(["a", "b", "c", "d"], 1) == ("d", "a", "b", "c")
    seats = ["first", "random", "random"]
    specs = tournament_specs(seats, 6, QUICK_RULES, seed=0)
    positions = Counter((spec.lineup.index("first")) for spec in specs)
    assert positions == {0: 2, 1: 2, 2: 2}
    # every game keeps the same bots, only moved; seeds differ per game and per seat
    assert all(sorted(spec.lineup) == sorted(seats) for spec in specs)
    assert len({spec.seed for spec in specs}) == 6
    assert len({s for spec in specs for s in spec.bot_seeds}) == 18


def test_tournament_is_reproducible_from_its_seed(test_bots: None) -> None:
    seats = ["first", "random", "random", "random"]
    one = run_tournament(seats, 8, QUICK_RULES, seed=11, jobs=1)
    two = run_tournament(seats, 8, QUICK_RULES, seed=11, jobs=2)
    assert one.games == two.games
    assert without_seconds(one.to_dict()) == without_seconds(two.to_dict())
    assert [g.lineup for g in one.games] == [rotated(seats, i) for i in range(8)]
    other = run_tournament(seats, 8, QUICK_RULES, seed=12)
    assert [g.scores for g in other.games] != [g.scores for g in one.games]
    # wins add up to the games; rows aggregate the seats of one bot
    summary = one.to_dict()
    assert [(b["name"], b["seats"], b["games"]) for b in summary["bots"]] == [("first", 1, 8), ("random", 3, 24)]
    assert sum(b["wins"] for b in summary["bots"]) == pytest.approx(8)


def test_progress_bar_runs(test_bots: None) -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100)
    result = run_tournament(["random", "first"], 3, QUICK_RULES, seed=2, progress=True, console=console)
    assert len(result.games) == 3
    assert "Playing" in buffer.getvalue()


def test_think_goes_only_to_bots_that_take_it(test_bots: None) -> None:
    thinker = make_bot("thinker", 1, think=0.25)
    assert isinstance(thinker, ThinkerBot) and thinker.think == 0.25
    assert isinstance(make_bot("random", 1, think=0.25), RandomBot)
    # a factory taking any options (as a difficulty name does) gets think unless its bot refuses it
    assert make_bot("alias", 1, think=0.5).think == 0.5  # type: ignore[attr-defined]
    assert isinstance(make_bot("any_first", 1, think=0.5), FirstBot)
    result = run_tournament(["thinker", "random"], 2, QUICK_RULES, seed=1, think=0.5)
    assert result.to_dict()["think"] == 0.5


def test_seats_carry_bot_options() -> None:
    assert parse_seats("strong:samples=3:width=2,greedy") == ["strong:samples=3:width=2", "greedy"]
    assert parse_seats("strong:samples=3,width=2,greedy") == ["strong:samples=3,width=2", "greedy"]
    bot = make_bot("strong:samples=3:width=2", 1, think=0.5)
    assert isinstance(bot, bots.StrongBot)
    assert (bot.fixed_samples, bot.width, bot.think) == (3, 2, 0.5)
    assert make_bot("strong:think=0.01", 1, think=0.5).think == 0.01  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="takes no options"):
        parse_seats("strong:bogus=1,greedy")
    with pytest.raises(ValueError, match="option=value"):
        parse_seats("strong:samples,greedy")
    with pytest.raises(ValueError, match="samples must be at least 1"):
        parse_seats("strong:samples=0,greedy")
    # the spec is the bot's name in the results: two settings of one bot are two rows
    result = run_tournament(["strong:samples=1", "strong:samples=2:width=1"], 2, QUICK_RULES, seed=3)
    assert [b["name"] for b in result.to_dict()["bots"]] == ["strong:samples=1", "strong:samples=2:width=1"]


def test_bad_arguments_are_value_errors(test_bots: None) -> None:
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        run_tournament(["random", "nobody"], 1, QUICK_RULES)
    with pytest.raises(ValueError, match="--games"):
        run_tournament(["random", "random"], 0, QUICK_RULES)
    with pytest.raises(ValueError, match="--think"):
        run_tournament(["random", "random"], 1, QUICK_RULES, think=-1)
    with pytest.raises(ValueError, match="--jobs"):
        run_tournament(["random", "random"], 1, QUICK_RULES, jobs=0)
    with pytest.raises(ValueError, match="backend"):
        run_tournament(["random", "random"], 1, QUICK_RULES, backend="spark")
    with pytest.raises(ValueError):
        run_tournament(["random"] * 9, 1, QUICK_RULES)


# ---------------------------------------------------------------------- the command


def test_simulate_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = simulate(capsys, "--games", "6", "--seats", "random,random,random", "--seed", "5", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 6 and summary["seed"] == 5
    assert summary["seats"] == ["random"] * 3
    assert summary["rules"]["schedule"] == "2S/10,1S1R/10"
    (row,) = summary["bots"]
    assert set(row) >= {
        "name",
        "seats",
        "games",
        "wins",
        "win_rate",
        "win_rate_ci95",
        "mean_score",
        "mean_score_ci95",
        "points_per_deal",
        "deals_won",
        "buys_per_deal",
    }
    assert (row["name"], row["seats"], row["games"], row["wins"], row["deals"]) == ("random", 3, 18, 6, 36)
    lo, hi = row["mean_score_ci95"]
    assert lo <= row["mean_score"] <= hi
    lo, hi = row["win_rate_ci95"]
    assert lo <= row["win_rate"] <= hi
    assert row["win_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert row["deals_won"] == pytest.approx(12)  # one deal winner (or a shared one) per deal
    # two processes: the same JSON but for the time
    code, out2, _ = simulate(capsys, "--games", "6", "--seats", "random,random,random", "--seed", "5", "--json")
    code, out3, _ = simulate(
        capsys, "--games", "6", "--seats", "random,random,random", "--seed", "5", "--json", "--jobs", "2"
    )
    assert without_seconds(json.loads(out2)) == without_seconds(json.loads(out3)) == without_seconds(summary)


def test_simulate_table(capsys: pytest.CaptureFixture[str], test_bots: None) -> None:
    code, out, _ = simulate(capsys, "--games", "4", "--seats", "first,random,random", "--seed", "1")
    assert code == 0
    assert "first" in out and "random" in out and "Win %" in out and "4 games in" in out
    code, _, err = simulate(capsys, "--games", "2", "--seats", "random,nobody")
    assert code == 2 and "unknown bot 'nobody'" in err


def test_missing_ray_is_a_clear_error(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayUnavailableError, match=r"pip install 'liverpool-rummy\[ray\]'"):
        import_ray()
    code, out, err = simulate(capsys, "--games", "2", "--seats", "random,random", "--backend", "ray")
    assert code == 2 and out == ""
    assert "pip install 'liverpool-rummy[ray]'" in err


def test_ray_backend_equals_local(capsys: pytest.CaptureFixture[str]) -> None:
    """A local Ray (2 CPUs, a small object store, started and shut down by the backend) plays the
    same games as the local backend."""
    ray = import_ray()
    assert not ray.is_initialized()
    seats = "random,random,random,random"
    code, out, _ = simulate(
        capsys, "--games", "6", "--seats", seats, "--seed", "9", "--backend", "ray", "--jobs", "2", "--json"
    )
    assert code == 0
    assert not ray.is_initialized()
    local = run_tournament(seats.split(","), 6, QUICK_RULES, seed=9)
    assert without_seconds(json.loads(out)) == without_seconds(local.to_dict())


# ---------------------------------------------------------------------- ratings


def test_bradley_terry_fit() -> None:
    # two bots: the odds are the win ratio (with one virtual draw): 30.5 / 10.5
    ratings = fit_bradley_terry(["a", "b"], {("a", "b"): 30.0, ("b", "a"): 10.0})
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(30.5 / 10.5))
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1500)
    # nobody beats anybody more than they lose: all equal; a clean sweep stays finite
    even = fit_bradley_terry(["a", "b", "c"], {("a", "b"): 3.0, ("b", "a"): 3.0, ("b", "c"): 1.0, ("c", "b"): 1.0})
    assert even == pytest.approx({"a": 1500, "b": 1500, "c": 1500})
    sweep = fit_bradley_terry(["a", "b"], {("a", "b"): 10.0})
    assert 1500 < sweep["a"] < 2500
    # the analytic error: one draw-heavy pair is tight, a clean sweep is wide
    assert analytic_sd({"a": 1500.0, "b": 1500.0}, {("a", "b"): 50.0, ("b", "a"): 50.0})["a"] < 40
    assert analytic_sd(sweep, {("a", "b"): 10.0})["a"] > 100


def test_ladder_bots_and_lineups(test_bots: None) -> None:
    assert "thinker" not in ladder_bots() and "first" in ladder_bots()
    assert "thinker" in ladder_bots(think=0.1)
    lineups = ladder_lineups(["a", "b", "c"], 4)
    assert len(lineups) == 12 and all(len(set(lineup)) > 1 for lineup in lineups)
    game = GameResult(0, 0, ("a", "b", "b"), (10, 5, 10), (1,), (), (), (0, 0, 0), 0)
    assert pairwise(game) == {("a", "b"): 0.5, ("b", "a"): 1.5}


def test_rating_table_on_a_tiny_ladder(capsys: pytest.CaptureFixture[str], test_bots: None) -> None:
    ladder = run_ladder(["random", "first"], games=12, table=3, rules=QUICK_RULES, seed=4)
    assert sorted(r.name for r in ladder.ratings) == ["first", "random"]
    assert ladder.ratings[0].rating >= ladder.ratings[1].rating
    assert sum(r.rating for r in ladder.ratings) / 2 == pytest.approx(1500)
    for r in ladder.ratings:
        assert r.ci95[0] <= r.rating <= r.ci95[1] and r.sd > 0
        assert r.comparisons == 24  # every game of 3 seats, two bots: 2 pairs of different bots
    again = run_ladder(["first", "random"], games=12, table=3, rules=QUICK_RULES, seed=4, jobs=2)
    assert without_seconds(again.to_dict()) == without_seconds(ladder.to_dict())
    # the command: the distinct bots of --seats, tables of that many seats
    code, out, _ = simulate(capsys, "--ladder", "--games", "12", "--seats", "random,first,first", "--seed", "4")
    assert code == 0 and "Ladder" in out and "Elo" in out and "first" in out
    code, out, _ = simulate(
        capsys, "--ladder", "--games", "12", "--seats", "random,first,first", "--seed", "4", "--json"
    )
    summary = json.loads(out)
    assert without_seconds(summary) == without_seconds(ladder.to_dict())
    assert [p["bot"] for p in summary["pairs"]] == ["first"]


def test_unreachable_ray_cluster_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err = simulate(
        capsys, "--games", "2", "--seats", "random,random", "--backend", "ray", "--address", f"127.0.0.1:{port}"
    )
    assert code == 2 and "no Ray cluster answers" in err

"""The command line as a newcomer meets it (issue 14): version, help, bad values refused before
anything starts, a quiet end when the reader of a pipe goes away, Ctrl-C in ``simulate``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from liverpool import __version__
from liverpool.bots import names as bot_names
from liverpool.cli import main
from liverpool.sim import local
from liverpool.sim.games import GameResult, GameSpec, play_one
from liverpool.sim.runner import Interrupted
from liverpool.sim.tournament import QUICK_RULES, run_tournament

LIVERPOOL = [sys.executable, "-c", "import sys; from liverpool.cli import main; sys.exit(main())"]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"liverpool {__version__}"


def test_help_lists_the_bots_and_every_option_with_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    for name in bot_names():
        assert name in top
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    for name in bot_names():
        assert name in text
    options = [
        "--players",
        "--bots",
        "--rules",
        "--set",
        "--seed",
        "--name",
        "--ascii",
        "--watch",
        "--delay",
        "--resume",
    ]
    lines = text.splitlines()
    for option in options:
        index = next(i for i, line in enumerate(lines) if line.strip().startswith(option) or f", {option}" in line)
        described = lines[index].split(option, 1)[1].strip(" ,") or lines[index + 1].strip()
        assert described, f"{option} has no help text"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "20"], "20 players: these rules allow 2-8"),
        (["play", "--players", "2", "--rules", "contract"], "2 players: these rules allow 3-8"),
        (["play", "--bots", "medium,champion"], "unknown bot 'champion'; bots are: easy, greedy, hard"),
        (["play", "--bots", "easy,easy,easy,easy"], "4 bot names for 3 bot seats"),
        (["play", "--rules", "tennis"], "unknown preset 'tennis'"),
        (["play", "--set", "run_min=two"], "run_min"),
    ],
)
def test_bad_values_are_refused_before_the_game_starts(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIVERPOOL_DATA_DIR", "/nonexistent/never-written")
    monkeypatch.setattr("liverpool.tui.app.LiverpoolApp.run", _must_not_start)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--delay", "-1"], "--delay must be 0 to 60 seconds, got -1"),
        (["play", "--delay", "soon"], "--delay is a number of seconds"),
        (["play", "--buy-time", "-2"], "--buy-time must be 0 to 600 seconds"),
    ],
)
def test_bad_numbers_are_refused_by_the_parser(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("liverpool.tui.app.LiverpoolApp.run", _must_not_start)
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    assert message in capsys.readouterr().err


def _must_not_start(*args: object, **kwargs: object) -> None:
    raise AssertionError("the app started despite a bad value")


def test_resume_without_a_saved_game_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LIVERPOOL_DATA_DIR", str(tmp_path))
    monkeypatch.setattr("liverpool.tui.app.LiverpoolApp.run", _must_not_start)
    assert main(["play", "--resume"]) == 2
    assert "no saved game" in capsys.readouterr().err


def test_rules_into_a_pipe_closed_early_ends_quietly() -> None:
    # `liverpool rules | head -1`: here the reader has gone before the first line is written
    read, write = os.pipe()
    os.close(read)
    try:
        writer = subprocess.run(
            [*LIVERPOOL, "rules", "--preset", "contract"], stdout=write, stderr=subprocess.PIPE, timeout=60, check=False
        )
    finally:
        os.close(write)
    assert writer.returncode == 0
    assert writer.stderr == b""


def test_an_interrupted_tournament_keeps_the_games_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []

    def play_then_stop(spec: GameSpec) -> GameResult:
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(spec.index)
        return play_one(spec)

    monkeypatch.setattr(local, "play_one", play_then_stop)
    with pytest.raises(Interrupted) as stop:
        run_tournament(["random", "random"], games=5, rules=QUICK_RULES, seed=1)
    assert [r.index for r in stop.value.results] == played == [0, 1]
    assert stop.value.total == 5
    summary = stop.value.summary
    assert summary is not None and [g.index for g in summary.games] == [0, 1]  # type: ignore[attr-defined]


def test_simulate_prints_the_finished_games_after_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = 0

    def play_then_stop(spec: GameSpec) -> GameResult:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise KeyboardInterrupt
        return play_one(spec)

    monkeypatch.setattr(local, "play_one", play_then_stop)
    argv = ["simulate", "--games", "9", "--seats", "random,random", "--set", "schedule=2S/10"]
    assert main(argv) == 130
    out, err = capsys.readouterr()
    assert "interrupted after 3 of 9 games" in err
    assert "3 games in" in out


def test_ctrl_c_stops_the_simulation_workers() -> None:
    """Ctrl-C as a terminal sends it: to the whole process group; the command ends with the games
    finished so far and no worker left (how fast is measured by hand, see the report)."""
    sim = subprocess.Popen(
        [*LIVERPOOL, "simulate", "--games", "5000", "--jobs", "2", "--seats", "greedy,greedy,greedy"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    time.sleep(3)  # let the workers start and play (not an assertion on time)
    os.killpg(sim.pid, signal.SIGINT)
    _, err = sim.communicate(timeout=120)
    assert sim.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted after" in err
    with pytest.raises(ProcessLookupError):
        os.killpg(sim.pid, 0)  # no process of the group is left


@pytest.mark.parametrize("command", ["play", "rules", "simulate"])
def test_every_option_of_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from liverpool.cli import _COMMANDS

    parser = argparse.ArgumentParser(prog="liverpool")
    sub = parser.add_subparsers(dest="command")
    for module in _COMMANDS:
        module.register(sub)
    chosen = sub.choices[command]
    for action in chosen._actions:
        assert action.help, f"liverpool {command} {action.option_strings} has no help text"

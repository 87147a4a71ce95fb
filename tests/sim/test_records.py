"""``liverpool simulate --records DIR`` keeps every game: each file replays with ``Game.from_record``
to the scores of its row in ``--json``, and ``liverpool review`` reviews it; a run that stops keeps
the records of the games it finished."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from liverpool.cli import main
from liverpool.game import Game
from liverpool.sim import QUICK_RULES, run_tournament
from liverpool.sim.runner import Stopped, record_path

QUICK = ["--set", "schedule=2S/10,1S1R/10", "--set", "turn_limit=60"]


def test_records_replay_and_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "games"
    code = main(
        [
            *("simulate", *QUICK, "--games", "5", "--seats", "greedy,random,random", "--seed", "4", "--jobs", "2"),
            *("--records", str(records), "--json"),
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    summary = json.loads(out)
    rows = summary["rows"]
    assert [r["index"] for r in rows] == list(range(5)) and len({r["seed"] for r in rows}) == 5
    assert sorted(p.name for p in records.iterdir()) == [f"game-{i:06d}.json" for i in range(5)]
    for row in rows:
        data = json.loads(record_path(records, row["index"]).read_text())
        assert {k: data[k] for k in row} == row
        game = Game.from_record(data["record"])
        assert game.is_over and list(game.scores) == row["scores"] and list(game.winners) == row["winners"]
        assert sorted(row["seats"]) == ["greedy", "random", "random"]
    # the seats rotate: game 1 has greedy in seat 1; its record reviews from that seat
    assert rows[1]["seats"][1] == "greedy"
    code = main(["review", str(record_path(records, 1)), "--seat", "1", "--samples", "2", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    review = json.loads(out)
    assert review["seat"] == 1 and review["finished"] and review["scores"] == rows[1]["scores"]
    assert len(review["decisions"]) > 10


def test_records_equal_without_records(tmp_path: Path) -> None:
    """Keeping records changes no result (and the results returned hold no record)."""
    plain = run_tournament(["random", "greedy"], 3, QUICK_RULES, seed=2)
    kept = run_tournament(["random", "greedy"], 3, QUICK_RULES, seed=2, records=tmp_path)
    assert kept.games == plain.games and kept.to_dict()["rows"] == plain.to_dict()["rows"]
    assert all(g.record is None for g in kept.games)
    assert len(list(tmp_path.glob("game-*.json"))) == 3


def test_a_stopped_run_keeps_its_finished_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that fails stops the run: the games before it are printed and their records kept."""
    import liverpool.sim.games as games
    from liverpool.driver import play_game as real

    def failing(game: Game, players: object) -> None:
        if game.seed == failing_seed:
            raise RuntimeError("a broken bot")
        real(game, players)  # type: ignore[arg-type]

    from liverpool.sim.tournament import tournament_specs

    failing_seed = tournament_specs(["random", "random"], 4, QUICK_RULES, 8)[2].seed
    monkeypatch.setattr(games, "play_game", failing)
    with pytest.raises(Stopped) as stop:
        run_tournament(["random", "random"], 4, QUICK_RULES, seed=8, records=tmp_path)
    assert [g.index for g in stop.value.results] == [0, 1] and stop.value.total == 4
    assert sorted(p.name for p in tmp_path.glob("game-*.json")) == ["game-000000.json", "game-000001.json"]
    code = main(["simulate", *QUICK, "--games", "4", "--seats", "random,random", "--seed", "8", "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "stopped after 2 of 4 games" in err and "a broken bot" in err
    assert json.loads(out)["games"] == 2


def test_a_stopped_ladder_prints_its_finished_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import liverpool.sim.games as games
    from liverpool.driver import play_game as real
    from liverpool.sim.ratings import ladder_specs

    failing_seed = ladder_specs(["greedy", "random"], 2, 6, QUICK_RULES, 3)[3].seed

    def failing(game: Game, players: object) -> None:
        if game.seed == failing_seed:
            raise RuntimeError("a broken bot")
        real(game, players)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "play_game", failing)
    code = main(["simulate", *QUICK, "--ladder", "--games", "6", "--seats", "greedy,random", "--seed", "3", "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "stopped after 3 of 6 games" in err
    summary = json.loads(out)
    assert summary["games"] == 3 and len(summary["rows"]) == 3

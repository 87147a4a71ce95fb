"""The ratings put the bot levels in order: many games between easy, medium and hard played with
the engine's driver (no server), each kept and rated by the function the server uses
(``ratings.finished_job`` on a real SQLite store), give hard > medium > easy (docs/players.md).

The games are short (three deals) and the hard bot searches a fixed number of samples per
decision instead of its time budget, so the run is the same on a busy machine as on an idle one;
the seats rotate so each level sits in each seat as often."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")
pytest.importorskip("sqlalchemy")

from liverpool import bots, driver
from liverpool.game import Game
from liverpool.rules import RuleSet
from liverpool.server.players import leaderboard, player_stats
from liverpool.server.ratings import FinishedGame, SeatResult, finished_job, seat_stats
from liverpool.server.store import Store

LEVELS = ("easy", "medium", "hard")
SCHEDULE = "2S/10,1S1R/10,2R/10"
GAMES = 36
HARD_SAMPLES = 24


def play(n: int) -> dict[str, Any]:
    """Game ``n``: the three levels, rotated by ``n`` over the seats."""
    levels = LEVELS[n % 3 :] + LEVELS[: n % 3]
    rules = RuleSet.preset("liverpool").with_options(schedule=SCHEDULE)
    game = Game.new(players=3, rules=rules, seed=1000 + n)
    players = [
        bots.get(level, seed=10 * n + i, **({"samples": HARD_SAMPLES} if level == "hard" else {}))
        for i, level in enumerate(levels)
    ]
    game = driver.play_game(game, players)
    assert game.is_over
    return {
        "levels": levels,
        "scores": game.scores,
        "winners": game.winners,
        "stats": seat_stats(game.events, game.players),
    }


def test_hard_is_rated_above_medium_above_easy(tmp_path: Path) -> None:
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(play, range(GAMES)))

    async def rate_all() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        store = Store(f"sqlite:///{tmp_path / 'ladder.db'}")
        await store.open()
        try:
            for n, r in enumerate(results):
                seats = tuple(
                    SeatResult(f"{level} bot", "bot", level, r["scores"][i], i in r["winners"])
                    for i, level in enumerate(r["levels"])
                )
                game = FinishedGame(f"t{n}", float(n), float(n), "liverpool", seats, tuple(r["stats"]))
                await store._run(finished_job(game))
            return await leaderboard(store), await player_stats(store, "bot:hard", "hard bot")
        finally:
            await store.close()

    board, hard = asyncio.run(rate_all())
    order = [e["name"] for e in board]
    ratings = {e["name"]: round(e["rating"], 2) for e in board}
    assert order == ["hard bot", "medium bot", "easy bot"], ratings
    assert all(e["games"] == GAMES for e in board)
    assert hard["games"] == GAMES and len(hard["rating_history"]) == GAMES
    meetings = {h["name"]: h for h in hard["head_to_head"]}
    assert set(meetings) == {"easy bot", "medium bot"}
    assert meetings["easy bot"]["won"] > meetings["easy bot"]["lost"]

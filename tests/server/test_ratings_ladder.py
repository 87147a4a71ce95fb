"""The ratings put the bot levels in order, random < easy < medium < hard: games between the levels
played with the engine's driver (no server), each kept and rated by the function the server uses
(``ratings.finished_job``, on the store of the run: SQLite, and PostgreSQL in the suite's second
run), then read back as the leaderboard (docs/players.md, "The ladder of the bots").

Duplicate games: each seed's deals are played once per rotation of the levels over the seats, so
every level holds every hand once and the luck of the cards cancels out. The hard bot searches a
fixed number of samples per decision instead of its time budget, so a run is the same on a busy
machine as on an idle one. Two tables, rated one after the other in one store:

- random, easy, medium and hard (``samples=8``) over three short deals (2S, 1S1R, 2R), seeds
  9000-9003, 16 games: it orders random < easy < medium and hard above easy, but not hard above
  medium (hard 585 points against medium's 595, medium won 10 games and hard 6);
- hard (``samples=24``) against three medium bots over the last three deals of a game (2S1R/12,
  1S2R/12 and the whole-hand 3R/12*), seeds 9100-9109, 40 games: the hard bot's search pays off in
  the later contracts. Hard scored 4110 points against 6645 for a medium seat; per seed (its four
  rotations) hard less a medium seat was -254 points on average, standard error 55 (4.6 standard
  errors); hard won 15.5 of the 40 games (a shared win split; a quarter would be parity). After
  both tables the board reads random -20.2, easy 5.1, medium 23.8 (mu 35.5, sigma 3.9), hard 36.3
  (mu 48.3, sigma 4.0): hard's mu above medium's by 2.3 times their sigmas combined.

The seeds were not picked by trial: the design (table, samples, seeds) was fixed before this
measurement and measured once (``benchmarks/ladder.py`` replays the second table, docs/players.md).
The games are played once for both stores' runs (a module fixture): 265 s of CPU with 2 processes,
measured.
"""

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
from server_helpers import database_for

LEVELS = ("random", "easy", "medium", "hard")
SCHEDULE = "2S/10,1S1R/10,2R/10"
FIRST_SEED = 9000
SEEDS = 4
HARD_SAMPLES = 8

# the second table: hard against three medium bots over the last three deals of a game
LATE_LEVELS = ("hard", "medium", "medium", "medium")
LATE_SCHEDULE = "2S1R/12,1S2R/12,3R/12*"
LATE_FIRST_SEED = 9100
LATE_SEEDS = 10
LATE_SAMPLES = 24

Job = tuple[tuple[str, ...], str, int, int, int, int]


def play(job: Job) -> dict[str, Any]:
    """One game: the deals of ``seed`` with ``levels`` rotated by ``rot`` over the seats, the hard
    bot with ``samples`` per decision, seat ``i``'s bot seeded ``bot_seed + i``."""
    levels, schedule, seed, rot, samples, bot_seed = job
    levels = levels[rot:] + levels[:rot]
    rules = RuleSet.preset("liverpool").with_options(schedule=schedule)
    game = Game.new(players=len(levels), rules=rules, seed=seed)
    players = [
        bots.get(level, seed=bot_seed + i, **({"samples": samples} if level == "hard" else {}))
        for i, level in enumerate(levels)
    ]
    game = driver.play_game(game, players)
    assert game.is_over
    return {"levels": levels, "scores": game.scores, "winners": game.winners, "stats": seat_stats(game.events, 4)}


def jobs() -> list[Job]:
    """The first table's games (game ``n``: seed ``n // 4``, rotation ``n % 4``, bots seeded
    ``10 n + i``), then the second table's (bots seeded ``100 seed + i``, as ``benchmarks/ladder.py``
    seeds them, so that it replays these games)."""
    first: list[Job] = [
        (LEVELS, SCHEDULE, FIRST_SEED + n // len(LEVELS), n % len(LEVELS), HARD_SAMPLES, 10 * n)
        for n in range(SEEDS * len(LEVELS))
    ]
    late: list[Job] = [
        (LATE_LEVELS, LATE_SCHEDULE, seed, rot, LATE_SAMPLES, 100 * seed)
        for seed in range(LATE_FIRST_SEED, LATE_FIRST_SEED + LATE_SEEDS)
        for rot in range(len(LATE_LEVELS))
    ]
    return first + late


@pytest.fixture(scope="module")
def results() -> list[dict[str, Any]]:
    """The games, played once for both stores' runs of the test (minutes of CPU)."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(play, jobs()))


def test_the_ratings_show_the_ladder_of_the_bot_levels(tmp_path: Path, results: list[dict[str, Any]]) -> None:
    first_games = SEEDS * len(LEVELS)
    late_games = LATE_SEEDS * len(LATE_LEVELS)
    assert len(results) == first_games + late_games
    url = database_for(tmp_path)  # outside the event loop (PostgreSQL: it makes the database)

    async def rate_all() -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        store = Store(url)
        await store.open()
        try:
            for n, r in enumerate(results):
                seats = tuple(
                    SeatResult(f"{level} bot", "bot", level, r["scores"][i], i in r["winners"])
                    for i, level in enumerate(r["levels"])
                )
                game = FinishedGame(f"t{n}", float(n), float(n), "liverpool", seats, tuple(r["stats"]))
                await store._run(finished_job(game))
            return (
                await leaderboard(store),
                await player_stats(store, "bot:easy", "easy bot"),
                await player_stats(store, "bot:hard", "hard bot"),
            )
        finally:
            await store.close()

    board, easy, hard = asyncio.run(rate_all())
    rating = {e["name"].removesuffix(" bot"): e["rating"] for e in board}
    late_points = {level: 0.0 for level in LATE_LEVELS}
    for r in results[first_games:]:
        for i, level in enumerate(r["levels"]):
            late_points[level] += r["scores"][i] / r["levels"].count(level)  # medium: per seat
    shown = {k: round(v, 2) for k, v in rating.items()}, late_points
    assert rating["random"] < rating["easy"] < rating["medium"] < rating["hard"], shown
    played = {e["name"].removesuffix(" bot"): e["games"] for e in board}
    both = first_games + late_games
    assert played == {"random": first_games, "easy": first_games, "medium": both, "hard": both}
    # the page's numbers of a level: every game, every meeting (a seat met per game it shared)
    assert easy["games"] == first_games and len(easy["rating_history"]) == first_games
    meetings = {h["name"]: h["games"] for h in easy["head_to_head"]}
    assert meetings == {"random bot": first_games, "medium bot": first_games, "hard bot": first_games}
    assert hard["games"] == both and len(hard["rating_history"]) == both
    meetings = {h["name"]: h["games"] for h in hard["head_to_head"]}
    medium_seats = first_games + 3 * late_games
    assert meetings == {"medium bot": medium_seats, "easy bot": first_games, "random bot": first_games}

"""Ratings and the games behind them (issue 26, ``docs/players.md``).

Every finished game is kept (:data:`games`, one row per seat in :data:`game_seats` with the
seat's numbers per deal), and it updates the OpenSkill ratings (``openskill``'s Plackett-Luce
model, made for free-for-all games of any size) of the rated players at it:

- a reserved name (an account made before the table was: nobody else could take the seat) is
  rated as ``a:ID``; a bot seat as its level, ``bot:easy``, ``bot:medium``, ``bot:hard`` (each bot
  name is a player of its own);
- a guest takes part in the game's ranking with a fresh rating that is not kept;
- the ranking is the game's (``Game.winners`` first, then the lowest total; equal totals tie);
- a bot level seated several times at one table is rated once per seat, and its new rating is
  the mean of those seats' new ratings;
- a table made with ``rated: false`` keeps its game but changes no rating.

The shown rating is OpenSkill's ordinal ``mu - 3 sigma`` (0 for a new player; it grows as the
player wins and as the system becomes surer).

The hook is :func:`record_finished`, called once where a table's finished game is published
(``server/table.py``); :func:`finished_job` is the same work as a job on the store's connection,
for a caller that commits it in a transaction of its own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncConnection

from .accounts import accounts, name_key
from .store import Store, metadata

__all__ = [
    "FinishedGame",
    "SeatResult",
    "finished_job",
    "game_seats",
    "games",
    "ordinal",
    "rank_places",
    "rate",
    "ratings",
    "record_finished",
    "seat_stats",
    "unrated_tables",
]

log = logging.getLogger("liverpool.server.ratings")

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("subject", sa.String(80), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
"""The current rating of each rated player: ``a:ID`` (an account) or ``bot:NAME``."""

games = sa.Table(
    "games",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("finished_at", sa.Float, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Index("ix_games_finished", "finished_at"),
)
"""Finished games as the players' pages count them (the table's own rows keep its log)."""

game_seats = sa.Table(
    "game_seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("games.table_id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("subject", sa.String(80), nullable=True),  # null: a guest
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=True),
    sa.Column("sigma_before", sa.Float, nullable=True),
    sa.Column("mu_after", sa.Float, nullable=True),
    sa.Column("sigma_after", sa.Float, nullable=True),
    sa.Column("stats", sa.JSON, nullable=False),
    sa.Index("ix_game_seats_subject", "subject"),
)
"""Each seat of a finished game: who (subject, name), the result, the rating before and after
(rated players of rated games), and the seat's numbers per deal (:func:`seat_stats`)."""

unrated_tables = sa.Table(
    "unrated_tables",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
)
"""Tables made with ``rated: false``."""


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: ``mu - 3 sigma``."""
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game as the ratings see it."""

    name: str
    kind: str  # "human" or "bot"
    bot: str | None
    score: int
    won: bool


@dataclass(frozen=True)
class FinishedGame:
    table_id: str
    created_at: float
    finished_at: float
    preset: str
    seats: tuple[SeatResult, ...]
    stats: tuple[dict[str, Any], ...]


def rank_places(seats: Sequence[SeatResult]) -> list[int]:
    """1 for the winners, then by total (equal totals share a place).

    >>> s = [SeatResult("a", "bot", "easy", 30, False), SeatResult("b", "bot", "hard", 5, True),
    ...      SeatResult("c", "bot", "medium", 30, False)]
    >>> rank_places(s)
    [2, 1, 2]
    """
    keys = [(0 if s.won else 1, s.score) for s in seats]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def rate(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each seat after a game with these places (1 best)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    new = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(float(t[0].mu), float(t[0].sigma)) for t in new]


def seat_stats(events: Sequence[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Each seat's numbers per deal, from a game's events: the deal, its contract, the seat's
    points, whether it went down and went out, its buys and how many paid off (a buy pays off
    when the buyer then goes down in that deal, or, bought when already down, goes out)."""
    out: list[dict[str, Any]] = [{"deals": []} for _ in range(players)]
    contract = ""
    deal = 0
    down = [False] * players
    buys: list[list[bool]] = [[] for _ in range(players)]  # per buy: was the buyer down already
    for e in events:
        kind = e.get("type")
        if kind == "deal":
            deal, contract = int(e["number"]), str(e["contract"])
            down = [False] * players
            buys = [[] for _ in range(players)]
        elif kind == "buy":
            buys[int(e["player"])].append(down[int(e["player"])])
        elif kind == "down":
            down[int(e["player"])] = True
        elif kind == "deal_end":
            for p in range(players):
                went_out = e.get("out") == p
                paid = sum(1 for was_down in buys[p] if (went_out if was_down else down[p]))
                out[p]["deals"].append(
                    {
                        "deal": deal,
                        "contract": contract,
                        "points": int(e["points"][p]),
                        "down": down[p],
                        "out": went_out,
                        "buys": len(buys[p]),
                        "buys_paid": paid,
                    }
                )
    return out


def finished_job(game: FinishedGame) -> Callable[[AsyncConnection], Awaitable[None]]:
    """Keep a finished game and update the ratings, as a job on a store connection (in the
    caller's transaction). A game kept before is left as it is."""

    async def job(c: AsyncConnection) -> None:
        if (await c.execute(sa.select(games.c.table_id).where(games.c.table_id == game.table_id))).first():
            return
        rated = (
            await c.execute(sa.select(unrated_tables.c.table_id).where(unrated_tables.c.table_id == game.table_id))
        ).first() is None
        keys = {name_key(s.name) for s in game.seats if s.kind == "human"}
        owners: dict[str, int] = {}
        if keys:
            q = sa.select(accounts.c.id, accounts.c.name_key).where(
                accounts.c.name_key.in_(keys), accounts.c.created_at <= game.created_at
            )
            owners = {str(k): int(i) for i, k in (await c.execute(q)).all()}
        subjects: list[str | None] = []
        for s in game.seats:
            if s.kind == "bot":
                subjects.append(f"bot:{s.bot}")
            else:
                owner = owners.get(name_key(s.name))
                subjects.append(f"a:{owner}" if owner is not None else None)
        known = {x for x in subjects if x is not None}
        current: dict[str, tuple[float, float, int]] = {}
        if known:
            q2 = sa.select(ratings.c.subject, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                ratings.c.subject.in_(known)
            )
            current = {str(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in (await c.execute(q2)).all()}
        places = rank_places(game.seats)
        before = [(current[x][0], current[x][1]) if x is not None and x in current else (MU, SIGMA) for x in subjects]
        after: list[tuple[float, float] | None] = [None] * len(subjects)
        if rated and known and len(game.seats) >= 2:
            new = rate(before, places)
            merged: dict[str, list[tuple[float, float]]] = {}
            for x, r in zip(subjects, new, strict=True):
                if x is not None:
                    merged.setdefault(x, []).append(r)
            now = time.time()
            for x, rs in merged.items():
                mu = sum(r[0] for r in rs) / len(rs)
                sigma = sum(r[1] for r in rs) / len(rs)
                if x in current:
                    await c.execute(
                        ratings.update()
                        .where(ratings.c.subject == x)
                        .values(mu=mu, sigma=sigma, games=current[x][2] + 1, updated_at=now)
                    )
                else:
                    await c.execute(ratings.insert().values(subject=x, mu=mu, sigma=sigma, games=1, updated_at=now))
                for i, y in enumerate(subjects):
                    if y == x:
                        after[i] = (mu, sigma)
        await c.execute(
            games.insert().values(
                table_id=game.table_id,
                finished_at=game.finished_at,
                players=len(game.seats),
                preset=game.preset,
                rated=rated,
            )
        )
        await c.execute(
            game_seats.insert(),
            [
                {
                    "table_id": game.table_id,
                    "seat": i,
                    "subject": x,
                    "name": s.name,
                    "kind": s.kind,
                    "score": s.score,
                    "place": places[i],
                    "won": s.won,
                    "mu_before": before[i][0] if x is not None else None,
                    "sigma_before": before[i][1] if x is not None else None,
                    "mu_after": after[i][0] if after[i] is not None else None,  # type: ignore[index]
                    "sigma_after": after[i][1] if after[i] is not None else None,  # type: ignore[index]
                    "stats": game.stats[i],
                }
                for i, (s, x) in enumerate(zip(game.seats, subjects, strict=True))
            ],
        )

    return job


def finished_game(table: Any, game: Any) -> FinishedGame:
    """The :class:`FinishedGame` of a table (``server.table.Table``) whose game is over."""
    scores, winners = list(game.scores), set(game.winners)
    seats = tuple(
        SeatResult(
            name=table.names[s.index],
            kind=s.kind,
            bot=s.bot if s.kind == "bot" else None,
            score=int(scores[s.index]),
            won=s.index in winners,
        )
        for s in table.seats
    )
    stats = tuple(seat_stats(game.events, game.players))
    return FinishedGame(table.id, float(table.created_at), time.time(), table.preset, seats, stats)


async def record_finished(store: Store, table: Any, game: Any) -> None:
    """The hook where a table's finished game is published: keep it and update the ratings.
    A failure is logged and leaves the game as it is (the table's own log has it)."""
    try:
        await store._run(finished_job(finished_game(table, game)))
    except Exception:
        log.exception("table %s: keeping the finished game for the ratings failed", table.id)


async def mark_unrated(store: Store, table_id: str) -> None:
    """Remember that a table was made with ``rated: false``."""

    async def job(c: AsyncConnection) -> None:
        await c.execute(unrated_tables.insert().values(table_id=table_id))

    await store._run(job)


async def unmark_unrated(store: Store, table_id: str) -> None:
    """Forget :func:`mark_unrated`'s marker of a table that was not made after all."""

    async def job(c: AsyncConnection) -> None:
        await c.execute(unrated_tables.delete().where(unrated_tables.c.table_id == table_id))

    await store._run(job)


async def is_rated(store: Store, table_id: str) -> bool:
    async def job(c: AsyncConnection) -> bool:
        q = sa.select(unrated_tables.c.table_id).where(unrated_tables.c.table_id == table_id)
        return (await c.execute(q)).first() is None

    result: bool = await store._run(job)
    return result

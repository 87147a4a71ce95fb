"""Players' pages and the leaderboard (issue 26, ``docs/players.md``): the numbers as JSON, which
the browser's page (``/players.html``) draws.

- ``GET /api/players/{name}/stats``: a reserved name's (or a bot level's, ``hard bot``) games
  played and won, mean points per deal by contract, buys and how often they paid off, the
  going-out rate, the rating after each rated game, head-to-head against the bots and the people
  met, and the latest games.
- ``GET /api/leaderboard``: the rated players (bots included) by rating.

A private player's page, numbers and history answer 404 to anyone but themselves, exactly as a
name with no page does; private players are left off the leaderboard and shown to others as
"a private player" in head-to-head lists.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from sqlalchemy.ext.asyncio import AsyncConnection

from .accounts import Account, _run, _store, account_by_name, account_for_request, accounts, name_key
from .openapi import errors
from .ratings import MU, SIGMA, game_seats, games, ordinal, ratings
from .store import Store
from .table import LobbyError

__all__ = ["leaderboard", "player_stats", "refuse_private", "router"]

PRIVATE_LABEL = "a private player"
MAX_GAMES = 2000


def _no_page(name: str) -> LobbyError:
    return LobbyError(404, f"no public page for {name.strip()!r}")


async def refuse_private(request: Request, name: str) -> Account | None:
    """404 when ``name`` is the reserved name of a private player and the request is not theirs
    (the hook of ``GET /api/players/{name}/history``); the account, or None for a name nobody reserved."""
    owner = await account_by_name(_store(request), name)
    if owner is not None and owner.private:
        me = await account_for_request(request)
        if me is None or me.id != owner.id:
            raise _no_page(name)
    return owner


def _bot_subject(name: str) -> str | None:
    key = name_key(name)
    return f"bot:{key[:-4]}" if key.endswith(" bot") and len(key) > 4 else None


async def player_stats(store: Store, subject: str, display: str) -> dict[str, Any]:
    """Every number of a player's page (see the module docstring)."""

    async def job(c: AsyncConnection) -> dict[str, Any]:
        mine = (
            (
                await c.execute(
                    sa.select(game_seats, games.c.finished_at, games.c.players, games.c.rated)
                    .join(games, games.c.table_id == game_seats.c.table_id)
                    .where(game_seats.c.subject == subject)
                    .order_by(games.c.finished_at.desc())
                    .limit(MAX_GAMES)
                )
            )
            .mappings()
            .all()
        )
        ids = [r["table_id"] for r in mine]
        others: list[Any] = []
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            others.extend(
                (await c.execute(sa.select(game_seats).where(game_seats.c.table_id.in_(chunk)))).mappings().all()
            )
        rating = (await c.execute(sa.select(ratings).where(ratings.c.subject == subject))).mappings().first()
        people = {s["subject"] for s in others if s["subject"] and str(s["subject"]).startswith("a:")}
        names: dict[str, tuple[str, bool]] = {}
        if people:
            ids_ = [int(str(x)[2:]) for x in people]
            q = sa.select(accounts.c.id, accounts.c.name, accounts.c.private).where(accounts.c.id.in_(ids_))
            names = {f"a:{i}": (str(n), bool(p)) for i, n, p in (await c.execute(q)).all()}
        return {"mine": [dict(r) for r in mine], "others": [dict(r) for r in others], "rating": rating, "names": names}

    data = await _run(store, job)
    mine: list[dict[str, Any]] = data["mine"]
    by_table: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in data["others"]:
        by_table[s["table_id"]].append(s)
    names: dict[str, tuple[str, bool]] = data["names"]

    contracts: dict[str, list[int]] = {}
    order: dict[str, int] = {}
    deals = outs = downs = buys = paid = 0
    for r in reversed(mine):  # oldest first
        for d in r["stats"].get("deals", []):
            contracts.setdefault(d["contract"], []).append(int(d["points"]))
            order.setdefault(d["contract"], int(d["deal"]))
            deals += 1
            outs += bool(d["out"])
            downs += bool(d["down"])
            buys += int(d["buys"])
            paid += int(d["buys_paid"])
    by_contract = [
        {"contract": k, "deals": len(v), "mean_points": round(sum(v) / len(v), 2)}
        for k, v in sorted(contracts.items(), key=lambda kv: (order[kv[0]], kv[0]))
    ]

    history = [
        {
            "table_id": r["table_id"],
            "at": r["finished_at"],
            "mu": r["mu_after"],
            "sigma": r["sigma_after"],
            "rating": round(ordinal(r["mu_after"], r["sigma_after"]), 3),
        }
        for r in reversed(mine)
        if r["mu_after"] is not None
    ]

    h2h: dict[str, dict[str, Any]] = {}
    for r in mine:
        for o in by_table[r["table_id"]]:
            if o["seat"] == r["seat"]:
                continue
            sub = o["subject"]
            if sub is not None and str(sub).startswith("bot:"):
                key, label, kind = str(sub), f"{str(sub)[4:]} bot", "bot"
            elif sub is not None and sub in names:
                nm, private = names[sub]
                key, label, kind = (PRIVATE_LABEL, PRIVATE_LABEL, "person") if private else (str(sub), nm, "person")
            else:
                key, label, kind = f"guest:{name_key(o['name'])}", str(o["name"]), "guest"
            if key == subject:
                continue
            entry = h2h.setdefault(key, {"name": label, "kind": kind, "games": 0, "won": 0, "lost": 0, "tied": 0})
            entry["games"] += 1
            if r["place"] < o["place"]:
                entry["won"] += 1
            elif r["place"] > o["place"]:
                entry["lost"] += 1
            else:
                entry["tied"] += 1
    head_to_head = sorted(h2h.values(), key=lambda e: (e["kind"] != "bot", -e["games"], e["name"]))

    row = data["rating"]
    mu, sigma = (float(row["mu"]), float(row["sigma"])) if row is not None else (MU, SIGMA)
    played = len(mine)
    won = sum(1 for r in mine if r["won"])
    return {
        "name": display,
        "rating": {
            "mu": mu,
            "sigma": sigma,
            "rating": round(ordinal(mu, sigma), 3),
            "games": row["games"] if row else 0,
        },
        "games": played,
        "won": won,
        "win_rate": round(won / played, 4) if played else None,
        "deals": deals,
        "going_out_rate": round(outs / deals, 4) if deals else None,
        "down_rate": round(downs / deals, 4) if deals else None,
        "points_per_deal": by_contract,
        "buys": buys,
        "buys_paid": paid,
        "buys_paid_rate": round(paid / buys, 4) if buys else None,
        "rating_history": history,
        "head_to_head": head_to_head,
        "recent": [
            {
                "table_id": r["table_id"],
                "at": r["finished_at"],
                "players": r["players"],
                "score": r["score"],
                "place": r["place"],
                "won": r["won"],
                "rated": r["rated"],
                "change": (
                    round(ordinal(r["mu_after"], r["sigma_after"]) - ordinal(r["mu_before"], r["sigma_before"]), 3)
                    if r["mu_after"] is not None
                    else None
                ),
            }
            for r in mine[:20]
        ],
    }


async def leaderboard(store: Store, limit: int = 100) -> list[dict[str, Any]]:
    """The rated players by rating (private players left out)."""

    async def job(c: AsyncConnection) -> list[dict[str, Any]]:
        rows = (await c.execute(sa.select(ratings))).mappings().all()
        ids = [int(str(r["subject"])[2:]) for r in rows if str(r["subject"]).startswith("a:")]
        names: dict[int, tuple[str, bool]] = {}
        if ids:
            q = sa.select(accounts.c.id, accounts.c.name, accounts.c.private).where(accounts.c.id.in_(ids))
            names = {int(i): (str(n), bool(p)) for i, n, p in (await c.execute(q)).all()}
        out = []
        for r in rows:
            sub = str(r["subject"])
            if sub.startswith("bot:"):
                name, kind = f"{sub[4:]} bot", "bot"
            else:
                found = names.get(int(sub[2:]))
                if found is None or found[1]:
                    continue
                name, kind = found[0], "person"
            out.append(
                {
                    "name": name,
                    "kind": kind,
                    "rating": round(ordinal(r["mu"], r["sigma"]), 3),
                    "mu": r["mu"],
                    "sigma": r["sigma"],
                    "games": r["games"],
                }
            )
        return out

    board = await _run(store, job)
    board.sort(key=lambda e: -e["rating"])
    for i, e in enumerate(board[:limit]):
        e["rank"] = i + 1
    return board[:limit]


def router() -> APIRouter:
    api = APIRouter(tags=["players"])

    @api.get("/api/players/{name}/stats", responses=errors("get", 404))
    async def stats(name: str, request: Request) -> dict[str, Any]:
        """A player's page as numbers: a reserved name (404 when private, but to themselves) or a
        bot level (``hard bot``)."""
        store = _store(request)
        bot = _bot_subject(name)
        if bot is not None:
            return await player_stats(store, bot, f"{bot[4:]} bot") | {"kind": "bot", "private": False}
        owner = await refuse_private(request, name)
        if owner is None:
            raise _no_page(name)
        me = await account_for_request(request)
        answer = await player_stats(store, f"a:{owner.id}", owner.name)
        return answer | {"kind": "person", "private": owner.private, "yours": me is not None and me.id == owner.id}

    @api.get("/api/leaderboard", responses=errors("get", 422))
    async def board(request: Request, limit: int = 100) -> dict[str, Any]:
        """The rated players, bots included, by rating (``mu - 3 sigma``); private players left out."""
        return {"players": await leaderboard(_store(request), max(1, min(limit, 500)))}

    return api

"""The lobby: every table in memory, their creation and their rebuild from the store on start;
and the rule options as the browser's form shows them (``rules.option_fields``: each option's own
declaration, ``rules.OPTIONS``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from ..bots import names as bot_names
from ..game import Game
from ..rules import PRESETS, RuleSet, option_fields
from .advice import Workers, review_answer
from .config import Settings
from .protocol import CreateTable, SeatSpec
from .store import Store
from .table import LobbyError, Seat, Table, hash_token, hints_from_store, hints_to_store, new_token

__all__ = ["Lobby", "option_fields", "rules_for"]

log = logging.getLogger("liverpool.server")


def rules_for(preset: str, options: dict[str, Any], players: int | None = None) -> RuleSet:
    """The preset with ``options`` applied (values as JSON or as typed text); ValueError names the
    option. With ``players`` the table size is checked too."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
    base = RuleSet.preset(preset)
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name == "schedule" and isinstance(value, str):
            changes[name] = value
        elif isinstance(value, list):
            changes[name] = ",".join(":".join(map(str, v)) if isinstance(v, list) else str(v) for v in value)
        elif value is None:
            changes[name] = "none"
        elif isinstance(value, bool | int | float):
            changes[name] = str(value).lower() if isinstance(value, bool) else str(value)
        elif isinstance(value, str):
            changes[name] = value
        else:
            raise ValueError(f"option {name}: cannot read {value!r}")
    try:
        rules = base.with_options(**changes)
    except TypeError as exc:
        raise ValueError(f"bad options: {exc}") from None
    if players is not None:
        rules.check_table(players)
    return rules


def _new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Lobby:
    """Every table of this server, by id."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, Table] = {}
        self._rest_buckets: dict[str, tuple[float, float]] = {}
        self.hint_workers = Workers(settings.hint_workers, "hints")
        self.review_workers = Workers(settings.review_workers, "reviews")
        self._reviewing: dict[tuple[str, int, int, int], asyncio.Future[dict[str, Any]]] = {}
        self.reviews_computed = 0
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(404, f"no table {table_id!r}")
        return table

    def allow_request(self, client: str) -> bool:
        """The per-address rate limit of lobby requests (a token bucket)."""
        now = time.monotonic()
        tokens, stamp = self._rest_buckets.get(client, (float(self.settings.rest_burst), now))
        tokens = min(float(self.settings.rest_burst), tokens + (now - stamp) * self.settings.rest_rate)
        if tokens < 1.0:
            self._rest_buckets[client] = (tokens, now)
            return False
        self._rest_buckets[client] = (tokens - 1.0, now)
        if len(self._rest_buckets) > 10_000:
            self._rest_buckets.clear()
        return True

    async def create(self, spec: CreateTable, rematch_of: str | None = None) -> tuple[Table, str]:
        """A new table from a request: (table, the creator's token). LobbyError 422 names a bad option."""
        try:
            rules = rules_for(spec.preset, spec.options, spec.players)
        except ValueError as exc:
            raise LobbyError(422, str(exc)) from None
        specs = list(spec.seats) if spec.seats is not None else [SeatSpec(kind="human")] * spec.players
        if len(specs) != spec.players:
            raise LobbyError(422, f"seats lists {len(specs)} seats for a table of {spec.players}")
        if specs[0].kind != "human":
            raise LobbyError(422, "seat 0 is the creator's: it must be a person's seat")
        known = bot_names()
        seats: list[Seat] = []
        for i, s in enumerate(specs):
            if s.kind == "bot":
                bot = s.bot or "medium"
                if bot not in known:
                    raise LobbyError(422, f"seat {i}: unknown bot {bot!r}; bots are: {', '.join(known)}")
                seats.append(Seat(i, "bot", bot=bot))
            else:
                seats.append(Seat(i, "human"))
        token = new_token()
        seats[0].name = spec.name
        seats[0].token_hash = hash_token(token)
        bot_delay = spec.bot_delay if spec.bot_delay is not None else self.settings.bot_delay
        table_id = _new_table_id()
        while table_id in self.tables:
            table_id = _new_table_id()
        created = time.time()
        await self.store.create_table(
            {
                "id": table_id,
                "created_at": created,
                "players": spec.players,
                "preset": spec.preset,
                "options": spec.options,
                "rules": rules.to_dict(),
                "timer": spec.timer,
                "bot_delay": bot_delay,
                "status": "waiting",
                "rematch_of": rematch_of,
                "hints": hints_to_store(spec.hints),
            },
            [
                {"seat": s.index, "name": s.name, "kind": s.kind, "bot": s.bot, "token_hash": s.token_hash}
                for s in seats
            ],
        )
        table = Table(
            self,
            table_id,
            spec.players,
            spec.preset,
            spec.options,
            rules,
            seats,
            spec.timer,
            bot_delay,
            created,
            rematch_of,
            hints=spec.hints,
        )
        seats[0].disconnected_at = asyncio.get_running_loop().time()
        self.tables[table_id] = table
        return table, token

    async def rematch(self, table: Table, token: str | None) -> tuple[Table, int, str]:
        """The rematch of a finished table (made once; every person of it gets a new token).

        The rematch and the SHA-256 of each person's new token are kept in the store, so the
        offer survives a restart (and the table leaving memory): a person asking with their old
        token then gets a new token for their seat at the rematch (the plain token handed out
        before is known to nobody but its holder; the new one replaces it)."""
        seat = table.seat_for_token(token)
        if seat is None or seat.kind != "human":
            raise LobbyError(403, "a person's seat token of this table is needed (header X-Seat-Token)")
        async with table.lock:
            if table.status != "over":
                raise LobbyError(409, "the game is not over yet")
            if table.rematch_id is None:
                spec = CreateTable(
                    players=table.players,
                    preset=table.preset,
                    options=table.options,
                    seats=[
                        SeatSpec(kind="human") if s.kind == "human" else SeatSpec(kind="bot", bot=s.bot)
                        for s in table.seats
                    ],
                    timer=table.timer,
                    name=table.seats[0].name or "Player",
                    bot_delay=table.bot_delay,
                    hints=table.hints,
                )
                new, first = await self.create(spec, rematch_of=table.id)
                tokens = {0: first}
                for s in table.seats[1:]:
                    if s.kind == "human":
                        t = new_token()
                        tokens[s.index] = t
                        ns = new.seats[s.index]
                        await self.store.update_seat(new.id, s.index, name=s.name, token_hash=hash_token(t))
                        ns.name, ns.token_hash = s.name, hash_token(t)
                        ns.disconnected_at = asyncio.get_running_loop().time()
                await self.store.save_rematch(table.id, new.id, {i: hash_token(t) for i, t in tokens.items()})
                table.rematch_id = new.id
                table.rematch_tokens = tokens
                for s in table.seats:
                    if s.conn is not None and s.index in tokens:
                        s.conn.send({"type": "rematch", "table_id": new.id, "token": tokens[s.index]})
                await new.start(first)
            rematch_id = table.rematch_id
            given = table.rematch_tokens.get(seat.index)
        new_table = await self.get(rematch_id)
        if given is None:  # handed out before a restart (or before the table left memory): a new one
            given = new_token()
            async with new_table.lock:
                await self.store.update_seat(new_table.id, seat.index, token_hash=hash_token(given))
                await self.store.save_rematch(table.id, new_table.id, {seat.index: hash_token(given)})
                new_table.seats[seat.index].token_hash = hash_token(given)
            table.rematch_tokens[seat.index] = given
        return new_table, seat.index, given

    async def rebuild(self) -> int:
        """Load every unfinished table of the store; games go on from their logs. The count."""
        count = 0
        for table_id in await self.store.unfinished():
            if await self._load(table_id) is not None:
                count += 1
        return count

    async def get(self, table_id: str) -> Table:
        """A table by id: in memory, or a finished or waiting one evicted from memory (or a finished
        one from before a restart) loaded again from the store. LobbyError 404 when there is none.
        Asking for a table counts as a use of it: the sweeper leaves it for ``evict_after`` more
        seconds (so a join or start that got it is never handed a table just dropped)."""
        table = self.tables.get(table_id)
        if table is None:
            async with self._loading:  # one load of a table at a time
                table = self.tables.get(table_id)
                if table is None:
                    table = await self._load(table_id)
        if table is None:
            raise LobbyError(404, f"no table {table_id!r}")
        table.touched = max(table.touched, asyncio.get_running_loop().time())
        return table

    async def _load(self, table_id: str) -> Table | None:
        """A table of the store put in memory (waiting, playing, or finished), or None."""
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            return None
        row, seat_rows, actions = loaded
        try:
            rules = RuleSet.from_dict(row["rules"])
            seats = [
                Seat(
                    s["seat"],
                    s["kind"],
                    bot=s["bot"],
                    name=s["name"],
                    token_hash=s["token_hash"],
                    hints_deal=s["hints_deal"],
                    hints_used=s["hints_used"] or 0,
                )
                for s in seat_rows
            ]
            table = Table(
                self,
                table_id,
                row["players"],
                row["preset"],
                row["options"],
                rules,
                seats,
                row["timer"],
                row["bot_delay"] if row["bot_delay"] is not None else self.settings.bot_delay,
                row["created_at"],
                row["rematch_of"],
                hints=hints_from_store(row["hints"]),
            )
            now = asyncio.get_running_loop().time()
            for s in seats:
                if s.kind == "human":
                    s.disconnected_at = now
            if row["status"] in ("playing", "over"):
                record = {"players": row["players"], "rules": row["rules"], "seed": row["seed"], "actions": actions}
                table.restore(Game.from_record(record))
            if row["status"] == "over":
                found = await self.store.load_rematch(table_id)
                if found is not None:
                    table.rematch_id = found[0]
        except Exception:
            log.exception("table %s: cannot rebuild it from the store; left out", table_id)
            return None
        self.tables[table_id] = table
        return table

    # ------------------------------------------------------------------ finished tables leave memory
    def start(self) -> None:
        """Start the sweeper that evicts finished and waiting tables nobody looks at
        (``Settings.evict_after``)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_loop(), name="liverpool-lobby-sweeper")

    async def _sweep_loop(self) -> None:
        every = min(60.0, max(0.05, self.settings.evict_after / 2))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # the sweeper must go on
                log.exception("evicting idle tables failed")

    async def sweep(self) -> list[str]:
        """Evict the finished tables, and the tables still waiting for players, with no socket for
        ``evict_after`` seconds: they stay in the store (record, history, replay, review read it;
        :meth:`get` loads one again, a waiting one as a lobby to join and start). Their ids."""
        now = asyncio.get_running_loop().time()
        gone = []
        for table_id, table in list(self.tables.items()):
            if table.idle_over(now, self.settings.evict_after) and not table.lock.locked():
                await table.stop()
                if self.tables.get(table_id) is table:
                    del self.tables[table_id]
                    gone.append(table_id)
        if gone:
            log.info("evicted %d idle table(s) from memory", len(gone))
        return gone

    async def record(self, table_id: str) -> dict[str, Any]:
        """The full record of a finished game: the engine's record, names, final scores, every
        public event and each deal's hands as dealt."""
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, f"no table {table_id!r}")
        row, seat_rows, actions = loaded
        if row["status"] != "over":
            raise LobbyError(409, "the game is not over: its record is kept secret until the end")
        game = Game.new(players=row["players"], rules=RuleSet.from_dict(row["rules"]), seed=row["seed"])
        from ..actions import action_from_dict

        deals = [{"deal": game.deal, "hands": [[str(c) for c in game.hand(p)] for p in range(game.players)]}]
        for data in actions:
            game.apply(action_from_dict(data))
            if not game.is_over and game.deal != deals[-1]["deal"]:
                deals.append(
                    {"deal": game.deal, "hands": [[str(c) for c in game.hand(p)] for p in range(game.players)]}
                )
        record = game.record()
        names = [s["name"] or f"{s['bot']} bot" for s in seat_rows]
        return record | {
            "table_id": table_id,
            "names": names,
            "seats": [
                {"seat": s["seat"], "name": names[i], "kind": s["kind"], "bot": s["bot"]}
                for i, s in enumerate(seat_rows)
            ],
            "scores": game.scores,
            "winners": game.winners,
            "deals": deals,
            "events": game.events,
        }

    async def review(self, table_id: str, seat: int, samples: int | None = None) -> dict[str, Any]:
        """The review of ``seat``'s decisions in a finished game, with ``samples`` per decision:
        from the store when made before, else computed in a worker process and kept. 404 for an
        unknown table or seat, 409 before the game's end, 422 for a sample count out of range."""
        settings = self.settings
        samples = settings.review_samples if samples is None else samples
        if not 1 <= samples <= settings.review_max_samples:
            raise LobbyError(422, f"samples must be 1 to {settings.review_max_samples}, got {samples}")
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, f"no table {table_id!r}")
        row, _seat_rows, actions = loaded
        if not 0 <= seat < row["players"]:
            raise LobbyError(404, f"no seat {seat}: the seats are 0 to {row['players'] - 1}")
        if row["status"] != "over":
            raise LobbyError(409, "the game is not over: a review is made of a finished game")
        seed = settings.analysis_seed
        answer = {"table_id": table_id, "seat": seat, "samples": samples, "seed": seed}
        cached = await self.store.load_review(table_id, seat, samples, seed)
        if cached is not None:
            return answer | {"cached": True, "review": cached}
        key = (table_id, seat, samples, seed)
        pending = self._reviewing.get(key)
        if pending is None:  # the first request computes it; others at the same time wait for it
            record = {"players": row["players"], "rules": row["rules"], "seed": row["seed"], "actions": actions}
            pending = asyncio.ensure_future(self._compute_review(key, record))
            self._reviewing[key] = pending
            pending.add_done_callback(lambda _f: self._reviewing.pop(key, None))
        result = await asyncio.shield(pending)
        return answer | {"cached": False, "review": result}

    async def _compute_review(self, key: tuple[str, int, int, int], record: dict[str, Any]) -> dict[str, Any]:
        table_id, seat, samples, seed = key
        started = time.perf_counter()
        # split over review_jobs processes from the worker process (never forked from this one)
        jobs = self.settings.review_jobs if self.settings.review_workers > 0 else 1
        result = await self.review_workers.run(review_answer, record, seat, samples, seed, jobs)
        self.reviews_computed += 1
        await self.store.save_review(table_id, seat, samples, seed, result, time.perf_counter() - started)
        return result

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for table in self.tables.values():
            await table.stop()
        self.hint_workers.close()
        self.review_workers.close()

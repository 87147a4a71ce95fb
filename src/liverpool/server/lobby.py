"""The lobby: every table in memory, their creation and their rebuild from the store on start;
and the rule options as the browser's form shows them (``rules.option_fields``: each option's own
declaration, ``rules.OPTIONS``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING, Any

from ..bots import names as bot_names
from ..game import Game
from ..rules import PRESETS, RuleSet, option_fields
from . import advice
from .advice import Workers, json_bytes, record_bytes, record_of, replay_bytes, review_answer
from .chat import chat_lines, chat_mutes
from .config import Settings
from .limits import RateLimiter
from .names import bot_seat_name
from .pacing import load_table_options, save_table_options, table_options
from .protocol import CreateTable, SeatSpec
from .ratings import is_rated, mark_unrated, record_finished, unmark_unrated, unrated_tables
from .store import RematchTaken, Store

if TYPE_CHECKING:
    from .bus import Bus
from .table import (
    LobbyError,
    Seat,
    Table,
    hash_token,
    hints_from_store,
    hints_to_store,
    last_hint_from_store,
    new_token,
)

__all__ = ["WAITING_CHILDREN", "Lobby", "address_key", "option_fields", "rules_for"]

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


WAITING_CHILDREN = (table_options, chat_lines, chat_mutes, unrated_tables)
"""The other modules' tables with rows of a table waiting for players (deleted with it:
:meth:`.store.Store.delete_waiting`)."""


def address_key(address: str) -> str:
    """What the store keeps of a client's address for the caps on waiting tables (its SHA-256)."""
    return hashlib.sha256(address.encode()).hexdigest()


def _new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Lobby:
    """Every table of this server, by id."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, Table] = {}
        keys = settings.limiter_keys
        self.post_limits = RateLimiter(settings.rest_rate, settings.rest_burst, keys)
        self.get_limits = RateLimiter(settings.get_rate, settings.get_burst, keys)
        self.heavy_limits = RateLimiter(settings.heavy_rate, settings.heavy_burst, keys)
        # when the waiting tables evicted from memory were last used (time.time()): their expiry
        self._last_used: dict[str, float] = {}
        self.waiting_deleted = 0
        self.hint_workers = Workers(settings.hint_workers, "hints")
        self.review_workers = Workers(settings.review_workers, "reviews")
        self.bot_workers = Workers(settings.bot_workers, "bots")
        self.replay_workers = Workers(settings.replay_workers, "replays")
        self._encoded: OrderedDict[tuple[str, str], bytes] = OrderedDict()  # finished games' JSON
        self._encoded_size = 0
        self._encoding: dict[tuple[str, str], asyncio.Future[bytes]] = {}
        self.encodings_made = 0
        self._reviewing: dict[tuple[str, int, int, int], asyncio.Future[dict[str, Any]]] = {}
        self.reviews_computed = 0
        self.rematches_taken = 0  # rematch requests that lost the race to another worker's
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.bus: Bus | None = None  # the other workers of a shared PostgreSQL store (server/bus.py)
        # shared store: when this worker last noted a use of a waiting table in it (time.time())
        self._noted_use: dict[str, float] = {}

    @property
    def _sweep_every(self) -> float:
        """Seconds between two runs of the sweeper."""
        settings = self.settings
        return min(60.0, max(0.05, min(settings.evict_after, settings.waiting_expiry) / 2))

    async def _note_use(self, table: Table, wall: float) -> None:
        """Several workers: note a use of a waiting table in the store (``touched_at``) when the
        last one this worker noted is a sweep interval old or more, so another worker never deletes
        a table used here (:meth:`expire_waiting` allows for that interval twice)."""
        if self.bus is None or table.status != "waiting":
            return
        if self._noted_use.get(table.id, float("-inf")) > wall - self._sweep_every:
            return
        self._noted_use[table.id] = wall
        await self.store.touch_waiting(table.id, wall)

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(404, f"no table {table_id!r}")
        return table

    def allow_request(self, client: str, method: str = "POST", heavy: bool = False) -> bool:
        """The per-address rate limits: lobby requests (POST), reads (GET, HEAD) and, besides,
        reads of finished games (``heavy``: record, replay, review)."""
        if method in ("GET", "HEAD"):
            return self.get_limits.allow(client) and (not heavy or self.heavy_limits.allow(client))
        return self.post_limits.allow(client)

    async def waiting_count(self, address: str | None = None) -> int:
        """Tables waiting for players that count against the caps (all, or ``address``'s): made
        within ``waiting_expiry`` seconds and not started, counted from the store (whichever
        worker made them, before a restart too)."""
        since = time.time() - self.settings.waiting_expiry
        return await self.store.waiting_count(since, None if address is None else address_key(address))

    async def _check_waiting_caps(self, address: str | None) -> None:
        settings = self.settings
        if await self.waiting_count() >= settings.max_waiting:
            raise LobbyError(429, "too many tables are waiting for players on this server: try again later")
        if address is not None and await self.waiting_count(address) >= settings.max_waiting_per_address:
            raise LobbyError(
                429, f"you have {settings.max_waiting_per_address} tables waiting for players: start or finish one"
            )

    async def create(
        self,
        spec: CreateTable,
        rematch_of: str | None = None,
        address: str | None = None,
        waits: bool = True,
        people: dict[int, tuple[str | None, str]] | None = None,
    ) -> tuple[Table, str]:
        """A new table from a request: (table, the creator's token). LobbyError 422 names a bad
        option, 429 a cap on waiting tables reached (``address``: the client's, counted per
        address too). A table started at once (``waits`` False: a quick play, a rematch) is
        not counted. ``people``: person's seats besides seat 0 given at once (a rematch's: seat
        -> (name, token)); a rematch is kept with its tokens' hashes in the table's transaction
        (:class:`.store.RematchTaken` when another request made that table's rematch first)."""
        waits = waits and rematch_of is None
        if waits:
            await self._check_waiting_caps(address)
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
                seats.append(Seat(i, "bot", bot=bot, name=bot_seat_name(i, bot)))
            else:
                seats.append(Seat(i, "human"))
        token = new_token()
        seats[0].name = spec.name
        seats[0].token_hash = hash_token(token)
        for i, (name, given) in (people or {}).items():
            seats[i].name, seats[i].token_hash = name, hash_token(given)
        bot_delay = spec.bot_delay if spec.bot_delay is not None else self.settings.bot_delay
        table_id = _new_table_id()
        while table_id in self.tables:
            table_id = _new_table_id()
        created = time.time()
        if not spec.rated:  # before the table's rows: a crash between leaves a harmless marker
            await mark_unrated(self.store, table_id)
        try:
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
                    "waiting_by": (address_key(address) if address is not None else "") if waits else None,
                },
                [
                    {"seat": s.index, "name": s.name, "kind": s.kind, "bot": s.bot, "token_hash": s.token_hash}
                    for s in seats
                ],
                rematch=(
                    {s.index: s.token_hash for s in seats if s.kind == "human" and s.token_hash is not None}
                    if rematch_of is not None
                    else None
                ),
            )
        except RematchTaken:  # nothing of this table was written: nor is its marker kept
            if not spec.rated:
                await unmark_unrated(self.store, table_id)
            raise
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
        extras = {
            "buy_seconds": spec.buy_seconds,
            "deal_pause": spec.deal_pause,
            "chat": spec.chat,
            "spectators": spec.spectators,
        }
        await save_table_options(self.store, table_id, extras)
        table.pacing.buy_seconds, table.pacing.deal_pause = spec.buy_seconds, spec.deal_pause
        table.chat.option, table.spectators = spec.chat, spec.spectators
        for person in seats:
            if person.token_hash is not None:
                person.disconnected_at = asyncio.get_running_loop().time()
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
            if table.rematch_id is None and self.bus is not None:  # made by another worker?
                found = await self.store.load_rematch(table.id)
                if found is not None:
                    table.rematch_id = found[0]
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
                    buy_seconds=table.pacing.buy_seconds,
                    deal_pause=table.pacing.deal_pause,
                    chat=table.chat.option,
                    spectators=table.spectators,
                    rated=await is_rated(self.store, table.id),
                )
                people = {s.index: (s.name, new_token()) for s in table.seats[1:] if s.kind == "human"}
                try:
                    # the table, its people's seats and the rematch's record: one transaction
                    new, first = await self.create(spec, rematch_of=table.id, people=people)
                except RematchTaken as taken:  # made first by another worker: that one is the rematch
                    table.rematch_id = taken.rematch_id
                    self.rematches_taken += 1
                else:
                    tokens = {0: first} | {i: t for i, (_name, t) in people.items()}
                    table.rematch_id = new.id
                    table.rematch_tokens = tokens
                    for s in table.seats:
                        if s.conn is not None and s.index in tokens:
                            s.conn.send({"type": "rematch", "table_id": new.id, "token": tokens[s.index]})
                    await new.start(first)
            rematch_id = table.rematch_id
            given = table.rematch_tokens.get(seat.index)
        new_table = await self.get(rematch_id)
        if given is None or new_table.seats[seat.index].token_hash != hash_token(given):
            # handed out before a restart, or by another worker (the store keeps only the hashes,
            # and a token another worker made was replaced since): a new one, valid at every worker
            given = new_token()
            async with new_table.lock:
                await self.store.update_seat(new_table.id, seat.index, token_hash=hash_token(given))
                await self.store.save_rematch(table.id, new_table.id, {seat.index: hash_token(given)})
                new_table.seats[seat.index].token_hash = hash_token(given)
            if self.bus is not None:  # the other workers reload the seat's hash (Table.remote)
                await self.bus.publish(new_table, "seats")
            table.rematch_tokens[seat.index] = given
        return new_table, seat.index, given

    async def rebuild(self) -> int:
        """Load every unfinished table of the store; games go on from their logs. The count.
        Tables waiting for players made ``waiting_expiry`` seconds ago or more are deleted
        first (a restart does not know when they were last used: they count from their creation)."""
        await self.expire_waiting()
        count = 0
        # several workers: the playing tables are loaded by the workers that take their locks (a
        # fair share each, server/bus.py), not by every worker
        others = set(await self.store.playing()) if self.bus is not None else set()
        for table_id in await self.store.unfinished():
            if table_id in others:
                continue
            async with self._loading:  # the bus's poll may be loading tables meanwhile (server/bus.py)
                if table_id in self.tables or await self._load(table_id) is not None:
                    count += 1
        if self.bus is not None:
            count += len(await self.bus.adopt())
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
        await self._note_use(table, time.time())
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
                    last_hint=last_hint_from_store(s),
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
            extras = await load_table_options(self.store, table_id)
            table.pacing.buy_seconds = extras.get("buy_seconds")
            table.pacing.deal_pause = extras.get("deal_pause")
            if extras.get("chat") in ("players", "everyone", "off"):
                table.chat.option = extras["chat"]
            table.spectators = extras.get("spectators") is not False
            await table.chat.load()
            now = asyncio.get_running_loop().time()
            for s in seats:
                if s.kind == "human":
                    s.disconnected_at = now
            if row["status"] in ("playing", "over"):
                record = {"players": row["players"], "rules": row["rules"], "seed": row["seed"], "actions": actions}
                game = await self._rebuild_game(record)
                if row["status"] == "playing" and game.is_over:
                    # its last action committed without the result (a server before issue 21 that
                    # crashed between its two commits): publish it now
                    await self.store.update_table(
                        table_id, status="over", finished_at=time.time(), scores=game.scores, winners=game.winners
                    )
                    row["status"] = "over"
                    log.info("table %s: its finished game is published (the result was missing)", table_id)
                    await record_finished(self.store, table, game)  # and kept for the ratings
                table.restore(game)
                # the client ids of the last actions: a resend after a restart is not applied twice
                for r in await self.store.actions_from(table_id, max(0, len(actions) - 64)):
                    if r["client_id"]:
                        seats[r["seat"]].applied.append(r["client_id"])
            if row["status"] == "over":
                found = await self.store.load_rematch(table_id)
                if found is not None:
                    table.rematch_id = found[0]
        except Exception:
            log.exception("table %s: cannot rebuild it from the store; left out", table_id)
            return None
        self.tables[table_id] = table
        if table.status == "waiting":
            # its expiry counts from its last use, not from this load (a :meth:`get` counts as one)
            used = max(row["created_at"], self._last_used.pop(table_id, row["created_at"]))
            table.touched = min(table.touched, table.touched - (time.time() - used))
        return table

    async def _rebuild_game(self, record: dict[str, Any]) -> Game:
        """A table's game replayed from its record off the event loop: in a replay worker (a
        thread with ``replay_workers`` 0, or when the worker process died meanwhile)."""
        try:
            return await self.replay_workers.run(advice.rebuild_game, record)
        except BrokenExecutor:
            return await asyncio.to_thread(advice.rebuild_game, record)

    # ------------------------------------------------------------------ finished tables leave memory
    def start(self) -> None:
        """Start the sweeper that evicts finished and waiting tables nobody looks at
        (``Settings.evict_after``)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_loop(), name="liverpool-lobby-sweeper")

    async def _sweep_loop(self) -> None:
        every = self._sweep_every
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # the sweeper must go on
                log.exception("evicting idle tables failed")
            try:
                await self.expire_waiting()
            except Exception:
                log.exception("deleting expired waiting tables failed")

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
                    if table.status == "waiting":  # its expiry goes on counting from its last use
                        self._last_used[table_id] = time.time() - (now - table.touched)
        if gone:
            log.info("evicted %d idle table(s) from memory", len(gone))
        return gone

    async def expire_waiting(self) -> list[str]:
        """Delete the tables waiting for players nobody used for ``waiting_expiry`` seconds, from
        memory and from the store (seats, tokens' hashes, options, chat): no socket open to one
        and no creation, join, request or socket for it within that time (a table evicted from
        memory counts from its last use while in memory; after a restart, from its creation).
        Their ids.

        Several workers (a shared store): each worker notes its uses in the store (``touched_at``,
        on a request and at each sweep for its tables in use), at most a sweep interval late; a
        table is deleted only when the store knows no use of it for ``waiting_expiry`` seconds
        plus two sweep intervals, whichever worker used it."""
        expiry = self.settings.waiting_expiry
        wall, now = time.time(), asyncio.get_running_loop().time()
        expired: list[str] = []
        unused_since = None
        if self.bus is not None:
            unused_since = wall - expiry - 2 * self._sweep_every
            for table in list(self.tables.values()):  # this worker's uses, for the others
                if table.status == "waiting" and not table.idle_over(now, 0.0):
                    used = wall if any(s.present for s in table.seats) else wall - (now - table.touched)
                    await self._note_use(table, used)
        async with self._loading:  # no load of a table meanwhile (:meth:`get` waits)
            for table_id, table in list(self.tables.items()):
                if table.status == "waiting" and table.idle_over(now, expiry) and not table.lock.locked():
                    await table.stop()
                    if self.tables.get(table_id) is table:
                        del self.tables[table_id]
                        expired.append(table_id)
            for table_id, made in await self.store.waiting_made_before(wall - expiry):
                unused = self._last_used.get(table_id, made) <= wall - expiry
                if unused and table_id not in self.tables and table_id not in expired:
                    expired.append(table_id)
            gone = await self.store.delete_waiting(expired, WAITING_CHILDREN, unused_since) if expired else []
        for table_id in expired:
            self._last_used.pop(table_id, None)
            self._noted_use.pop(table_id, None)
        if gone:
            self.waiting_deleted += len(gone)
            log.info("deleted %d table(s) nobody started for %g s", len(gone), expiry)
        return gone

    async def record(self, table_id: str) -> dict[str, Any]:
        """The full record of a finished game: the engine's record, names, final scores, every
        public event and each deal's hands as dealt (:func:`.advice.record_of`)."""
        row, seat_rows, actions = await self._finished(table_id)
        return record_of(table_id, row, seat_rows, actions)

    async def _finished(self, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, f"no table {table_id!r}")
        row, seat_rows, actions = loaded
        if row["status"] != "over":
            raise LobbyError(409, "the game is not over: its record is kept secret until the end")
        return row, seat_rows, actions

    async def finished_json(self, table_id: str, kind: str) -> bytes:
        """The JSON of a finished game's ``record`` or ``replay`` (``GET /api/tables/{id}/...``):
        made once in a worker process (rebuilt from the log and encoded there), then kept (a
        finished game never changes; the least recently asked for go past
        ``Settings.replay_cache_bytes``) and sent as it is. Requests for one that is being made
        wait for it. LobbyError 404 or 409 as :meth:`record`."""
        key = (kind, table_id)
        cached = self._encoded.get(key)
        if cached is not None:
            self._encoded.move_to_end(key)
            return cached
        pending = self._encoding.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._encode(key))
            self._encoding[key] = pending
            pending.add_done_callback(lambda _f: self._encoding.pop(key, None))
        return await asyncio.shield(pending)

    async def _encode(self, key: tuple[str, str]) -> bytes:
        kind, table_id = key
        row, seat_rows, actions = await self._finished(table_id)
        fn = replay_bytes if kind == "replay" else record_bytes
        data = await self.replay_workers.run(fn, table_id, row, seat_rows, actions)
        self.encodings_made += 1
        self._keep_encoded(key, data)
        return data

    def _keep_encoded(self, key: tuple[str, str], data: bytes) -> None:
        self._encoded[key] = data
        self._encoded_size += len(data)
        while self._encoded_size > self.settings.replay_cache_bytes and len(self._encoded) > 1:
            _old, dropped = self._encoded.popitem(last=False)
            self._encoded_size -= len(dropped)

    async def review_json(self, table_id: str, seat: int, samples: int | None = None) -> bytes:
        """:meth:`review`'s answer as JSON; once it comes from the store (``"cached": true``)
        its bytes are kept with the replays' and sent as they are (no encoding on the loop)."""
        wanted = self.settings.review_samples if samples is None else samples
        key = ("review", f"{table_id}/{seat}/{wanted}/{self.settings.analysis_seed}")
        kept = self._encoded.get(key)
        if kept is not None:
            self._encoded.move_to_end(key)
            return kept
        answer = await self.review(table_id, seat, samples)
        data = json_bytes(answer)
        if answer.get("cached"):
            self._keep_encoded(key, data)
        return data

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
            pending.add_done_callback(lambda f: self._review_done(key, f))
        result = await asyncio.shield(pending)
        return answer | {"cached": False, "review": result}

    def _review_done(self, key: tuple[str, int, int, int], done: asyncio.Future[dict[str, Any]]) -> None:
        """A review's computation ended: forgotten, and its failure retrieved (its requests may
        all be gone, e.g. cancelled as the server stops and ends the worker computing it)."""
        self._reviewing.pop(key, None)
        if not done.cancelled():
            done.exception()

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
        for table in list(self.tables.values()):  # (the bus's poll may add tables meanwhile)
            await table.stop()
        self.hint_workers.close()
        self.review_workers.close()
        self.bot_workers.close()
        self.replay_workers.close()

"""The pace of a table of people (issue 24): the deal-end pause, each person's buy choice, and the
table's own buy-window length.

- **The deal-end pause.** When a deal ends (and the game goes on) the table holds: no seat has a
  legal action and no bot moves until every person whose client shows a deal-end screen (it said
  so with ``prefs`` ``"pause": true``) and who is not played by a bot (a reload keeps them waited
  for, within the grace period) sent
  ``continue``, or until the table's ``deal_pause`` seconds have passed (null: no limit; 0: no
  pause at all). Every ``hello``/``state`` carries ``pause``: the seats still reading and when
  the pause ends.
- **Buy choices.** Each person tells the server (``prefs``) what to do with a discard they may
  buy: ``ask`` (the buy window waits for them, as before), ``fits`` (pass at once unless the card
  fits their contract, as the engine answers: ``liverpool.game.answers.card_fits``), ``never``
  (always pass), and a wish list of cards bought at once whenever they may.
  A seat whose choice decides is made to buy or pass by the table's pump straight away (logged
  as ``auto``), so the window closes as soon as every seat that may buy has answered.
- **The buy window's length** is the table option ``buy_seconds`` (null: the server's
  ``--buy-window``).

The table's lock serializes all of it; :mod:`.table` calls the hooks below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..actions import Action, Buy, Pass
from ..cards import parse_card
from ..game.answers import card_fits as engine_card_fits
from ..game.answers import public_game
from .store import Store, metadata

if TYPE_CHECKING:
    from ..game import Game
    from .table import Table

__all__ = [
    "BUY_MODES",
    "BuyChoice",
    "Pacing",
    "card_fits",
    "load_table_options",
    "save_table_options",
    "table_options",
]

BuyMode = Literal["ask", "fits", "never"]
BUY_MODES: tuple[str, ...] = ("ask", "fits", "never")

table_options = sa.Table(
    "table_options",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("buy_seconds", sa.Float, nullable=True),
    sa.Column("deal_pause", sa.Float, nullable=True),
    sa.Column("chat", sa.String(16), nullable=True),
    sa.Column("spectators", sa.Boolean, nullable=True),
)
"""A table's options of issue 24 (migration 0004_i24web): the buy window's length, the deal-end
pause, who may chat, whether spectators may watch. A table without a row has the defaults."""


async def save_table_options(store: Store, table_id: str, options: dict[str, Any]) -> None:
    async def job(c: AsyncConnection) -> None:
        await c.execute(table_options.insert().values(table_id=table_id, **options))

    await store._run(job)


async def load_table_options(store: Store, table_id: str) -> dict[str, Any]:
    """The row of ``table_options`` for a table ({} when it has none: a table made before it)."""

    async def job(c: AsyncConnection) -> dict[str, Any]:
        row = (await c.execute(table_options.select().where(table_options.c.table_id == table_id))).mappings().first()
        return {} if row is None else {k: v for k, v in row.items() if k != "table_id"}

    found: dict[str, Any] = await store._run(job)
    return found


def card_fits(view: dict[str, Any], token: str) -> bool:
    """Does the card ``token`` fit this seat's contract (``view`` is the seat's own view)? The
    engine's answer, from the view alone (:func:`liverpool.game.answers.card_fits`): a wild card;
    for a seat that is down, a card that goes on a meld of the table; else a card that lowers the
    cards the hand misses for the seat's contract."""
    return engine_card_fits(public_game(view), int(view["player"]), parse_card(token))


@dataclass
class BuyChoice:
    """What a person wants done with a discard they may buy."""

    mode: BuyMode = "ask"
    wish: frozenset[str] = frozenset()
    """Cards bought whenever they may be: tokens ("7H", "JK") or ranks alone ("7": any 7)."""

    def wants(self, token: str) -> bool:
        return token in self.wish or token.rstrip("~")[:-1] in self.wish


@dataclass
class Pacing:
    """One table's pace (see the module docstring)."""

    buy_seconds: float | None = None
    deal_pause: float | None = None
    choices: dict[int, BuyChoice] = field(default_factory=dict)
    pausers: set[int] = field(default_factory=set)
    hold: set[int] | None = None  # the seats still reading the deal's end; None: no pause
    hold_until: float | None = None  # loop time the pause ends by itself (None: no limit)
    _auto: tuple[int, dict[int, tuple[Action | None, str] | None]] = (-1, {})

    # ------------------------------------------------------------------ the table's options
    def info(self) -> dict[str, Any]:
        return {"buy_seconds": self.buy_seconds, "deal_pause": self.deal_pause}

    # ------------------------------------------------------------------ a seat's prefs
    def set_prefs(self, seat: int, mode: BuyMode, wish: list[str], pause: bool) -> None:
        self.choices[seat] = BuyChoice(mode, frozenset(w.upper() for w in wish))
        if pause:
            self.pausers.add(seat)
        else:
            self.pausers.discard(seat)
        self._auto = (-1, {})

    def forget(self, seat: int) -> None:
        """A new socket of ``seat``: its client says again what it wants (defaults until then). A
        seat the deal-end pause waits for (a reload, a reconnect) is still waited for: its new
        client's ``prefs`` (``"pause": false``) or ``continue`` says otherwise."""
        self.choices.pop(seat, None)
        if self.hold is None or seat not in self.hold:
            self.pausers.discard(seat)
        self._auto = (-1, {})

    # ------------------------------------------------------------------ automatic buys and passes
    def auto(self, table: Table, seat: int) -> tuple[Action, str] | None:
        """The buy or pass ``seat``'s choice makes for its decision now, with why (or None: the
        person decides, or it is not a buy decision)."""
        found = self._choice(table, seat)
        if found is None or found[0] is None:
            return None
        return found[0], found[1]

    def _choice(self, table: Table, seat: int) -> tuple[Action | None, str] | None:
        """What ``seat``'s buy choice says of its decision now: (the buy or pass to make, or None
        for the person to choose, why), or None when it has nothing to say. Cached per version."""
        g = table.game
        if g is None or g.is_over or self.hold is not None:
            return None
        choice = self.choices.get(seat)
        if choice is None or (choice.mode == "ask" and not choice.wish):
            return None
        version, memo = self._auto
        if version != g.version:
            memo = {}
            self._auto = (g.version, memo)
        if seat not in memo:
            memo[seat] = self._decide(g, seat, choice)
        return memo[seat]

    @staticmethod
    def _decide(g: Game, seat: int, choice: BuyChoice) -> tuple[Action | None, str] | None:
        if seat == g.current or not g.discard_pile:
            return None
        legal = g.legal_actions(seat)
        if not legal or not all(isinstance(a, (Buy, Pass)) for a in legal):
            return None  # a call, or no decision: the person chooses
        top = str(g.discard_pile[-1])
        buy = next((a for a in legal if isinstance(a, Buy)), None)
        passing = next((a for a in legal if isinstance(a, Pass)), None)
        if buy is not None and choice.wants(top):
            return buy, "on your wish list"
        if passing is None:
            return None
        if choice.mode == "never":
            return passing, "you never buy"
        if choice.mode == "fits":
            if card_fits(g.view(seat), top):
                return None, "it fits your contract"
            return passing, "it does not fit your contract"
        return None

    def auto_note(self, table: Table, seat: int) -> dict[str, str] | None:
        """For this seat's own messages: what the server does for it now (``auto_buy``)."""
        found = self._choice(table, seat)
        if found is None:
            return None
        action, why = found
        return {"action": "ask" if action is None else "buy" if isinstance(action, Buy) else "pass", "why": why}

    # ------------------------------------------------------------------ the deal-end pause
    def waited(self, table: Table, now: float) -> set[int]:
        """The seats a deal-end pause waits for: a person's, not played by a bot, whose client
        shows a deal-end screen; connected, or away for less than the grace period (a reload is
        still waited for, a person gone for good is not once their bot takes over)."""
        return {s.index for s in table.seats if s.index in self.pausers and not table._stand_in(s, now)}

    def grace_left(self, table: Table, now: float) -> float:
        """Seconds until a seat the pause waits for while it is away is given up (inf: none away)."""
        away = [
            s.disconnected_at + table.settings.grace - now
            for s in table.seats
            if self.hold is not None and s.index in self.hold and not s.present and s.disconnected_at is not None
        ]
        return max(0.0, min(away)) if away else float("inf")

    def after_commit(self, table: Table, deal_before: int, now: float) -> None:
        """A deal just ended (and the game goes on): start the pause."""
        g = table.game
        if g is None or g.is_over or g.deal == deal_before or self.deal_pause == 0:
            return
        waiting = self.waited(table, now)
        if waiting:
            self.hold = waiting
            self.hold_until = None if self.deal_pause is None else now + self.deal_pause
            self._auto = (-1, {})

    def hold_wait(self, now: float) -> float | None:
        """None when there is no pause; else the seconds it still lasts (inf: until everyone
        continues; 0: its time is over)."""
        if self.hold is None:
            return None
        if self.hold_until is None:
            return float("inf")
        return max(0.0, self.hold_until - now)

    def public(self) -> dict[str, Any] | None:
        """The ``pause`` of every message: who is still reading, when it ends (ms since the epoch)."""
        if self.hold is None:
            return None
        from .table import epoch_ms

        return {"waiting": sorted(self.hold), "until": None if self.hold_until is None else epoch_ms(self.hold_until)}

    def release(self, table: Table, now: float) -> None:
        """End the pause: play goes on, every timer counted from now."""
        self.hold = None
        self.hold_until = None
        self._auto = (-1, {})
        table._changed_at = table._decision_at = table._window_at = now

    def refresh(self, table: Table, now: float) -> bool:
        """Stop waiting for seats no longer waited for (gone, played by a bot); True when that
        ended the pause."""
        if self.hold is None:
            return False
        self.hold &= self.waited(table, now)
        if not self.hold:
            self.release(table, now)
            return True
        return False

    def go_on(self, table: Table, seat: int, now: float) -> bool:
        """``seat`` pressed Next deal; True when the pause is over."""
        if self.hold is None:
            return False
        self.hold.discard(seat)
        if not self.hold:
            self.release(table, now)
            return True
        return False

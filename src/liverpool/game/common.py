"""The game package's shared parts: phases, the view's keys, the meld inside the engine, the
seats' shared actions, the lay-down witness and small helpers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    LayOff,
    Meld,
    Pass,
    Retract,
    Unswap,
)
from ..cards import Card, card_names
from ..melds import (
    run_start,
)
from ..rules import RuleSet
from ..solver import CARD_OF_CODE

DRAW: Final = "draw"
"""Phase: the current player must draw; others may buy, call or pass."""
PLAY: Final = "play"
"""Phase: the current player melds, lays off, swaps and discards."""
LIVERPOOL_DISCARD: Final = "liverpool_discard"
"""Phase (R34): the caller of a playable discard discards one card."""
OVER: Final = "over"
DOWN_DRAWS_STOCK: Final = "a player who is down draws from the stock only (R22, option down_may_take_discard)"
"""Phase: the game has ended."""

RECORD_FORMAT: Final = "liverpool-record/2"
"""Records made since the rule fixes of issue 10 (R20, R32-R36, R45)."""
RECORD_FORMAT_1: Final = "liverpool-record/1"
"""Records made before them: replayed under the rules they were played by (see :meth:`Game.from_record`)."""

_KINDS: Final = ("set", "run")  # a meld's kind by its index, 0 or 1

# The keys of a view, in their order. A dict literal of this many keys is built in pieces of 16
# that are then merged, slower than copying this dict and storing each value.
_VIEW: Final[dict[str, Any]] = dict.fromkeys(
    (
        "player",
        "players",
        "deal",
        "deals",
        "contract",
        "dealer",
        "current",
        "phase",
        "turn",
        "version",
        "hand",
        "hand_sizes",
        "down",
        "buys_used",
        "scores",
        "deal_scores",
        "melds",
        "staged",
        "discard_pile",
        "stock_size",
        "deck_size",
        "buy_window",
        "buy_requests",
        "call_window",
        "taken_from_discard",
        "must_meld",
        "down_turn",
        "rebuilds",
        "fresh_discard",
        "discarder",
        "passed",
        "swaps",
        "unswapped",
        "swap_base",
        "retracted",
        "resume",
        "rules",
        "events",
        "is_over",
        "winners",
    )
)


_MADE: Final = object()
"""The token the constructors (``Game.new`` and the others) make a game with, not for callers."""


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: ``id`` (its index in ``game.melds``), ``owner``, ``kind`` ("set" or
    "run") and ``cards`` in table order."""

    id: int
    owner: int
    kind: str
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "kind": self.kind, "cards": [str(c) for c in self.cards]}


class _Declared(list[Card]):
    """The cards of a run of wild cards only (``run_min_naturals`` 0, R17), staged or on the table,
    with ``declared``: the natural card its first place stands for (so its suit and ranks). A
    slice or copy is declared the same; list operations (lay-offs) keep the declaration."""

    __slots__ = ("declared",)

    def __init__(self, cards: Iterable[Card], declared: Card) -> None:
        super().__init__(cards)
        self.declared = declared

    def __getitem__(self, index: Any) -> Any:
        got = super().__getitem__(index)
        return _Declared(got, self.declared) if isinstance(index, slice) else got

    def copy(self) -> _Declared:
        return _Declared(self, self.declared)


def _declared(cards: Sequence[Card]) -> Card | None:
    """What a run of wild cards was declared to stand for (:class:`_Declared`), else None."""
    return cards.declared if type(cards) is _Declared else None


class _Meld:
    """Mutable meld inside the engine. ``start`` is a run's first value (1-14)."""

    __slots__ = ("accepts", "cards", "id", "kind", "owner", "spots", "start", "view")

    def __init__(self, id: int, owner: int, kind: str, cards: list[Card], start: int) -> None:
        self.id = id
        self.owner = owner
        self.kind = kind
        self.cards = cards
        self.start = start
        self.accepts: list[tuple[Card | None, bool]] | None = None  # cache of Game._accepts
        self.spots: list[tuple[int, int, Card]] | None = None  # cache of Game._wild_spots
        self.view: dict[str, Any] | None = None  # cache of the meld's part of views (copied out)

    def copy(self) -> _Meld:
        m = _Meld(self.id, self.owner, self.kind, self.cards[:], self.start)
        m.accepts = self.accepts
        m.spots = self.spots
        m.view = self.view
        return m

    def changed(self) -> None:
        """Forget what was derived from the cards (they are about to change)."""
        self.accepts = self.spots = self.view = None

    def to_view(self) -> dict[str, Any]:
        """The meld as views show it: a new dict and card list each time (the parts are cached
        until the cards change, never handed out)."""
        cached = self.view
        if cached is None:
            cached = self.view = {
                "id": self.id,
                "owner": self.owner,
                "kind": self.kind,
                "start": self.start,
                "cards": card_names(self.cards),
            }
            if type(self.cards) is _Declared:  # issue 16: a run of wild cards shows what it stands for
                cached["declared"] = str(self.cards.declared)
        out = cached.copy()
        out["cards"] = out["cards"].copy()
        return out


# The events' values that are lists or dicts, by event type: frozen with the event (events are
# read-only records shared by every view).
_NESTED: Final[dict[str, tuple[str, ...]]] = {
    "cut": ("cards",),
    "draw_pile": ("cards",),
    "meld": ("cards",),
    "deal_end": ("points", "hands", "scores"),
    "game_over": ("scores", "winners"),
}


def _fresh_rules(rules: dict[str, Any]) -> dict[str, Any]:
    out = rules.copy()
    out["pack_schedule"] = list(map(list, out["pack_schedule"]))
    out["rank_points"] = list(out["rank_points"])
    return out


def _remove_cards(hand: list[Card], cards: Iterable[Card]) -> None:
    for card in cards:
        hand.remove(card)


def _is_run(cards: Sequence[Card], rules: RuleSet) -> bool:
    """Whether a meld of the solver's output is a run (its naturals differ in rank)."""
    ranks = [c.rank for c in cards if not rules.is_wild(c.rank)]
    return len(set(ranks)) == len(ranks) and len(ranks) > 1 and run_start(cards, rules) is not None


def _run_suit(cards: Sequence[Card], rules: RuleSet) -> str:
    if type(cards) is _Declared:
        return cards.declared.suit
    return next((c.suit for c in cards if not rules.is_wild(c.rank)), "")


class _SeatActions:
    """One seat's actions without arguments, and its discards by card code: actions are immutable
    values, so the engine lists these shared objects rather than building new ones."""

    __slots__ = (
        "buy",
        "buys",
        "call",
        "calls",
        "discards",
        "draw_discard",
        "draw_discards",
        "draw_stock",
        "end_turn",
        "layoffs",
        "pass_",
        "retract",
        "unswap",
    )

    def __init__(self, p: int) -> None:
        self.draw_stock = DrawStock(p)
        self.draw_discard = DrawDiscard(p)
        self.buy = Buy(p)
        self.call = Call(p)
        self.pass_ = Pass(p)
        self.end_turn = EndTurn(p)
        self.retract = Retract(p)
        self.unswap = Unswap(p)
        self.discards = [Discard(p, card) for card in CARD_OF_CODE]
        # the lay-offs listed so far, by (card, meld id, high end): made once, listed again
        self.layoffs: dict[tuple[Card, int, bool], LayOff] = {}
        # the actions that take the top discard, naming it (listed by card code, like discards)
        self.draw_discards = [DrawDiscard(p, card) for card in CARD_OF_CODE]
        self.buys = [Buy(p, card) for card in CARD_OF_CODE]
        self.calls = [Call(p, card) for card in CARD_OF_CODE]


_SEATS: list[_SeatActions] = [_SeatActions(p) for p in range(12)]


def _ensure_seats(n: int) -> None:
    while len(_SEATS) < n:
        _SEATS.append(_SeatActions(len(_SEATS)))


def _shared(action: Action) -> Action:
    """The object the engine lists for ``action``: for a discard (bots build their own) the seat's
    shared one of that card, else ``action`` itself."""
    if type(action) is Discard:
        p, card = action.player, action.card
        if type(p) is int and 0 <= p < len(_SEATS) and type(card) is Card:
            return _SEATS[p].discards[card]
    return action


def _canonical_sets(melds: list[Action]) -> list[Action]:
    """The listed melds with each set's cards in one canonical order (card order), so that the
    same set is one action; a set listed twice in two orders is listed once. Runs keep their table
    order (it places their wild cards)."""
    out: list[Action] = []
    seen: set[tuple[Card, ...]] = set()
    for a in melds:
        if isinstance(a, Meld) and a.kind == "set":
            cards = tuple(sorted(a.cards))
            if cards in seen:
                continue
            seen.add(cards)
            if cards != a.cards:
                a = Meld(a.player, "set", cards)
        out.append(a)
    return out


def _has_cards(hand: Sequence[Card], cards: Sequence[Card]) -> bool:
    if len(cards) == 1:
        return cards[0] in hand
    return all(hand.count(c) >= cards.count(c) for c in set(cards))

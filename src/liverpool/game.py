"""The state machine of a whole game: seven deals (or the schedule's), every rule of RULES.md.

One validation path per move: :meth:`Game.verify` raises :class:`IllegalAction` with the reason,
:meth:`Game.can_apply` answers, :meth:`Game.apply` verifies then does (an action object of the
current :meth:`Game.legal_actions` listing is legal already and goes straight through). A refused
action leaves the game exactly as it was. Randomness comes only from the game's seed (``random.Random`` seeded per
shuffle), so a game's record, its rules, seed and actions, replays it exactly.

>>> game = Game.new(players=4, seed=7)
>>> game.deal, len(game.hand(0)), game.stock_size + sum(len(game.hand(p)) for p in range(4)) + 1
(1, 10, 108)
>>> [e["type"] for e in game.apply(game.legal_actions()[0])]
['draw_stock']
>>> Game.from_record(game.record()).view(0) == game.view(0)
True
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    LayOff,
    Meld,
    Pass,
    Retract,
    SwapJoker,
    Unswap,
    action_from_dict,
    check_action,
)
from .cards import SUITS, Card, card_names, format_cards, full_deck, parse_card
from .errors import IllegalAction, MalformedAction, StaleAction
from .events import FrozenDict, FrozenList, freeze
from .melds import (
    can_extend_run,
    can_extend_set,
    hand_points,
    is_valid_run,
    is_valid_set,
    run_start,
    set_rank,
)
from .rules import Contract, RuleSet, cached_rules
from .solver import CARD_OF_CODE, RestChecker, _solve, can_complete, candidate_melds, solve

__all__ = [
    "DRAW",
    "LIVERPOOL_DISCARD",
    "OVER",
    "PLAY",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "StaleAction",
    "TableMeld",
]

DRAW: Final = "draw"
"""Phase: the current player must draw; others may buy, call or pass."""
PLAY: Final = "play"
"""Phase: the current player melds, lays off, swaps and discards."""
LIVERPOOL_DISCARD: Final = "liverpool_discard"
"""Phase (R34): the caller of a playable discard discards one card."""
OVER: Final = "over"
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
    out["pack_schedule"] = [list(pair) for pair in out["pack_schedule"]]
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
    return next(c.suit for c in cards if not rules.is_wild(c.rank))


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


class _Witness:
    """A quick sufficient test that a candidate meld leaves the rest of a contract completable (not
    the whole hand, no card that must be used): beside the candidate, the hand still holds every meld
    of ``melds`` (a completion of the contract, sets first) but one of the candidate's kind, and
    those keep the distinct ranks (sets) or suits (runs) the rules may ask for."""

    __slots__ = ("options",)

    def __init__(self, hand: Sequence[Card], melds: list[list[Card]], nsets: int, rules: RuleSet) -> None:
        left: dict[Card, int] = {}  # the hand's cards (each one a key) outside the completion
        for card in hand:
            left[card] = left.get(card, 0) + 1
        for meld in melds:
            for card in meld:
                left[card] -= 1
        distinct = (rules.sets_distinct_ranks, rules.runs_distinct_suits)
        keys: list[int | str | None] = (
            [set_rank(meld, rules) if i < nsets else _run_suit(meld, rules) for i, meld in enumerate(melds)]
            if distinct[0] or distinct[1]
            else []
        )
        # per kind (0 sets, 1 runs): (cards free once that meld is left out, the other melds' keys)
        self.options: tuple[list[tuple[dict[Card, int], set[int | str | None]]], ...] = ([], [])
        for i, meld in enumerate(melds):
            kind = 0 if i < nsets else 1
            free = left.copy()
            for card in meld:
                free[card] += 1
            taken = (
                {keys[j] for j in range(len(melds)) if j != i and (j < nsets) == (kind == 0)}
                if distinct[kind]
                else set()
            )
            self.options[kind].append((free, taken))

    def __call__(self, kind: int, cards: Sequence[Card], key: int | str | None) -> bool:
        """Whether a meld of ``kind`` (0 a set, 1 a run) of ``cards`` (from the hand), of rank or suit
        ``key``, passes."""
        options = self.options[kind]
        if not options:
            return False
        need: dict[Card, int] = {}
        for card in cards:
            need[card] = need.get(card, 0) + 1
        wanted = need.items()
        for free, taken in options:
            if key in taken:
                continue
            for card, k in wanted:
                if free[card] < k:
                    break
            else:
                return True
        return False


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


class Game:
    """A game of Liverpool (or any schedule of contracts) for 2-8 players.

    Seats are numbered from 0; play goes clockwise, to the next higher seat.
    """

    # Slots: an instance dict of this many attributes outgrows the keys its class shares (30), and
    # every attribute access of the engine would then go the slower way through a dict.
    __slots__ = (
        "_contract_view",
        "_deck_size",
        "_legacy",
        "_legal_cache",
        "_melds",
        "_pile_view",
        "_private",
        "_rules_dict",
        "_scores",
        "actions",
        "buy_requests",
        "buys_used",
        "call_open",
        "current",
        "deal_events_start",
        "deal_index",
        "deal_scores",
        "dealer",
        "discard",
        "discarder",
        "down",
        "down_turn",
        "events",
        "fresh",
        "hands",
        "knocked",
        "must_meld",
        "n",
        "passed",
        "pending",
        "phase",
        "rebuilds",
        "resume",
        "retracted",
        "rules",
        "seed",
        "stock",
        "swap_base",
        "swaps",
        "taken",
        "turn",
        "unswapped",
    )

    rules: RuleSet
    n: int
    seed: int
    actions: list[Action]
    events: list[dict[str, Any]]
    deal_scores: list[list[int]]
    phase: str
    dealer: int
    deal_index: int
    current: int
    turn: int
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    down: list[bool]
    down_turn: list[int]
    buys_used: list[int]
    knocked: list[bool]
    rebuilds: int
    deal_events_start: int
    discarder: int | None
    fresh: bool
    call_open: bool
    buy_requests: list[int]
    passed: list[int]
    taken: Card | None
    pending: list[tuple[str, list[Card]]]
    must_meld: Card | None
    swaps: list[tuple[int, int, Card, Card]]
    unswapped: list[tuple[int, int]]
    swap_base: int
    retracted: bool
    resume: int | None  # R34 "in_turn": the seat whose draw the Liverpool call interrupted
    _scores: list[int]
    _melds: list[_Meld]
    _deck_size: int
    _rules_dict: dict[str, Any]
    _legal_cache: tuple[int, list[Action]] | None
    _legacy: bool  # replaying a liverpool-record/1: R20 and R45 as that engine played them
    _contract_view: tuple[Contract, dict[str, Any]] | None  # the contract part of views, per contract
    _pile_view: tuple[list[Card], list[str]]  # the discard pile's names in views, for that pile
    _private: list[tuple[int, int, dict[str, Any]]]  # (event index, seat, what only that seat sees)

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:
        raise TypeError("use Game.new(players, rules, seed) or Game.from_record(record)")

    @classmethod
    def new(
        cls,
        players: int = 4,
        rules: RuleSet | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Game:
        """A new game with the first deal dealt, waiting for the first action.

        ``seed`` fixes every shuffle; with none, one is drawn from ``rng`` when given, else from
        :mod:`secrets`. A table the rules cannot deal for raises ValueError naming the option.
        """
        rules = rules if rules is not None else RuleSet()
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players must be a whole number, got {players!r}")
        rules.check_table(players)
        if seed is None:
            seed = rng.getrandbits(63) if rng is not None else secrets.randbits(63)
        _ensure_seats(players)
        self = object.__new__(cls)
        self.rules = rules
        self._rules_dict = rules.to_dict()
        self._contract_view = None
        self._pile_view = ([], [])
        self.n = players
        self.seed = seed
        self.actions = []
        self.events = []
        self._private = []
        self._legacy = False
        self._scores = [0] * players
        self.deal_scores = []
        self.phase = DRAW
        self.deal_index = -1  # the cut for dealer comes before the first deal
        self.dealer = self._cut_for_dealer()
        self._start_deal()
        return self

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}/{purpose}")

    def _cut_for_dealer(self) -> int:
        """R4: every player cuts; the lowest card deals (ties and jokers cut again)."""
        if not self.rules.cut_for_dealer:
            return 0
        rng = self._rng("cut")
        deck = full_deck(self.rules.packs_for(self.n), self.rules.jokers_per_pack)
        rng.shuffle(deck)
        cutting = list(range(self.n))
        while True:
            cuts = {p: deck.pop(rng.randrange(len(deck))) for p in cutting}
            self._event("cut", cards={str(p): str(c) for p, c in cuts.items()})
            naturals = {p: c.rank for p, c in cuts.items() if c.rank}
            if naturals:
                low = min(naturals.values())
                cutting = [p for p, r in naturals.items() if r == low]
                if len(cutting) == 1:
                    return cutting[0]
            if len(deck) < len(cutting):  # pragma: no cover - cannot happen with a real deck
                return min(cutting)

    def _start_deal(self) -> None:
        rules, n = self.rules, self.n
        self.deal_index += 1
        if self.deal_index > 0:
            self.dealer = (self.dealer + 1) % n
        contract = rules.schedule[self.deal_index]
        deck = full_deck(rules.packs_for(n), rules.jokers_per_pack)
        self._rng(f"deal{self.deal_index}").shuffle(deck)
        self._deck_size = len(deck)
        self.hands = [[] for _ in range(n)]
        self._melds = []
        self.down = [False] * n
        self.down_turn = [-1] * n
        self.buys_used = [0] * n
        self.knocked = [False] * n
        self.rebuilds = 0
        self.turn = 1
        # the view's history starts with the previous deal's result (or the cut for dealer)
        self.deal_events_start = len(self.events) - 1 if self.deal_index else 0
        dealt = contract.cards * n + (1 if rules.upcard else 0)
        self._event("deal", number=self.deal_index + 1, dealer=self.dealer, contract=contract.describe())
        if rules.cut_bonus:
            cutter = (self.dealer - 1) % n
            cut = self._rng(f"cutbonus{self.deal_index}").randint(1, len(deck) - 1)
            self._event("cut_for_deal", player=cutter, cut=cut, needed=dealt)
            if cut == dealt:
                self._scores[cutter] -= rules.cut_bonus
                self._event("cut_bonus", player=cutter, points=-rules.cut_bonus)
        for _ in range(contract.cards):
            for j in range(1, n + 1):
                self.hands[(self.dealer + j) % n].append(deck.pop())
        self.discard = [deck.pop()] if rules.upcard else []
        self.stock = deck
        self.current = (self.dealer + 1) % n
        self._open_draw(discarder=None, fresh=rules.upcard, callable_=False)

    def _open_draw(self, discarder: int | None, fresh: bool, callable_: bool) -> None:
        """Start the current player's draw phase (R8) with the windows on the top discard."""
        self.phase = DRAW
        self.discarder = discarder
        self.fresh = fresh and bool(self.discard)
        self.call_open = callable_
        self.buy_requests = []
        self.passed = []
        # turn state
        self.taken = None
        self.pending = []
        self.must_meld = None
        self.swaps = []
        self.unswapped = []
        self.swap_base = 0
        self.retracted = False
        self.resume = None
        self._legal_cache = None
        # R9: an empty stock is rebuilt at once if allowed; if not, the player may still take the
        # top discard and the deal ends only when a card must come from the empty stock (R45)
        if not self.stock and not self._rebuild_stock() and self._legacy:
            self._end_deal(None, "stalemate: the stock ran out")  # as record format 1 played it

    # ------------------------------------------------------------------ public state
    @property
    def players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def deal(self) -> int:
        """The deal being played, 1-based."""
        return self.deal_index + 1

    @property
    def contract(self) -> Contract:
        """This deal's contract."""
        return self.rules.schedule[self.deal_index]

    @property
    def is_over(self) -> bool:
        """True once the last deal has been scored."""
        return self.phase == OVER

    @property
    def scores(self) -> list[int]:
        """Running totals, one per player."""
        return self._scores[:]

    @property
    def winners(self) -> list[int]:
        """R41: the players with the lowest total (ties share); meaningful once over."""
        low = min(self._scores)
        return [p for p, s in enumerate(self._scores) if s == low]

    @property
    def melds(self) -> list[TableMeld]:
        """The melds on the table, by id."""
        return [TableMeld(m.id, m.owner, m.kind, tuple(m.cards)) for m in self._melds]

    @property
    def discard_pile(self) -> list[Card]:
        """The discard pile, bottom first."""
        return self.discard[:]

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def deck_size(self) -> int:
        """Cards in play this deal (all packs and jokers)."""
        return self._deck_size

    @property
    def version(self) -> int:
        """Number of actions applied: a client's stale action can be refused by comparing it."""
        return len(self.actions)

    def hand(self, player: int) -> list[Card]:
        """A copy of ``player``'s hand."""
        return self.hands[player][:]

    def staged(self) -> list[tuple[str, list[Card]]]:
        """The melds the current player has laid toward the contract this turn (not yet down)."""
        return [(kind, cards[:]) for kind, cards in self.pending]

    # ------------------------------------------------------------------ copying
    def copy(self) -> Game:
        """An independent copy (for search). Fast: shares only immutable parts."""
        g = object.__new__(Game)
        g.rules = self.rules
        g.n = self.n
        g.seed = self.seed
        g.actions = self.actions[:]
        g.events = self.events[:]
        g._private = self._private[:]
        g._legacy = self._legacy
        g.deal_scores = [s[:] for s in self.deal_scores]
        g.phase = self.phase
        g.dealer = self.dealer
        g.deal_index = self.deal_index
        g.current = self.current
        g.turn = self.turn
        g.hands = [h[:] for h in self.hands]
        g.stock = self.stock[:]
        g.discard = self.discard[:]
        g.down = self.down[:]
        g.down_turn = self.down_turn[:]
        g.buys_used = self.buys_used[:]
        g.knocked = self.knocked[:]
        g.rebuilds = self.rebuilds
        g.deal_events_start = self.deal_events_start
        g.discarder = self.discarder
        g.fresh = self.fresh
        g.call_open = self.call_open
        g.buy_requests = self.buy_requests[:]
        g.passed = self.passed[:]
        g.taken = self.taken
        g.pending = [(k, c[:]) for k, c in self.pending]
        g.must_meld = self.must_meld
        g.swaps = self.swaps[:]
        g.unswapped = self.unswapped[:]
        g.swap_base = self.swap_base
        g.retracted = self.retracted
        g.resume = self.resume
        g._scores = self._scores[:]
        g._melds = [m.copy() for m in self._melds]
        g._deck_size = self._deck_size
        g._rules_dict = self._rules_dict
        g._legal_cache = None
        g._contract_view = self._contract_view
        g._pile_view = self._pile_view
        return g

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """A JSON-serializable record (rules, seed, actions) that :meth:`from_record` replays."""
        return {
            "format": RECORD_FORMAT_1 if self._legacy else RECORD_FORMAT,
            "players": self.n,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`record`; an illegal action in it raises IllegalAction.

        A ``liverpool-record/1`` record (made before the rule fixes of issue 10) replays as it was
        played: a Liverpool call resumes after the caller (R34), a deal ends when the stock runs
        out at the start of a draw (R45) and a player may swap a joker out of their own run
        (R20). Its playable discards under ``layoff_same_turn=False`` or ``strict`` (R32, R36)
        follow today's rules; an action they refuse is named in the error."""
        fmt = record.get("format", RECORD_FORMAT)
        if fmt not in (RECORD_FORMAT, RECORD_FORMAT_1):
            raise ValueError(f"unknown record format {fmt!r}; this engine reads {RECORD_FORMAT} and {RECORD_FORMAT_1}")
        rules = RuleSet()
        if "rules" in record:
            data = dict(record["rules"])
            # records made before option liverpool_resume existed played the "after_caller" reading
            data.setdefault("liverpool_resume", "after_caller")
            rules = RuleSet.from_dict(data)
        game = cls.new(players=int(record["players"]), rules=rules, seed=int(record["seed"]))
        game._legacy = fmt == RECORD_FORMAT_1
        old = ""
        if game._legacy:
            old = f" (a {RECORD_FORMAT_1} record, made before the rule fixes of R20, R32-R36 and R45)"
        for i, data in enumerate(record.get("actions", [])):
            action = action_from_dict(data)
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"record action {i} ({action}): {exc}{old}", exc.code, exc.rule) from None
        return game

    @classmethod
    def from_position(cls, text: str) -> Game:
        """The game in the position ``text`` (:mod:`liverpool.positions`, written by
        :meth:`position`); a text that is no position, or whose cards are not the table's deck
        each card once, raises ValueError naming the field."""
        from .positions import read_position

        return read_position(cls, text)

    def position(self) -> str:
        """This game's position as text (:mod:`liverpool.positions`): rules, seed, table, hands,
        stock and pile in order, melds, phase and turn state; no history."""
        from .positions import write_position

        return write_position(self)

    @classmethod
    def from_view(
        cls,
        view: dict[str, Any],
        hands: dict[int, Sequence[Card]],
        stock: Sequence[Card],
        seed: int = 0,
    ) -> Game:
        """A full game state consistent with ``view`` (from :meth:`view`), the hidden cards filled
        in: ``hands`` for every other seat (of the sizes the view shows) and the ``stock`` (top
        last). For search by determinization: the bots sample the hidden cards, build the game and
        play it out. The record of such a game holds only the actions applied after it.
        """
        rules = cached_rules(view["rules"])
        n = int(view["players"])
        me = int(view["player"])
        _ensure_seats(n)
        self = object.__new__(cls)
        self.rules = rules
        self._rules_dict = _fresh_rules(view["rules"])
        self._contract_view = None
        self._pile_view = ([], [])
        self.n = n
        self.seed = seed
        self.actions = []
        self.events = []
        self._private = []
        self._legacy = False
        self._scores = list(view["scores"])
        self.deal_scores = [list(s) for s in view["deal_scores"]]
        self.dealer = int(view["dealer"])
        self.deal_index = int(view["deal"]) - 1
        self._deck_size = int(view["deck_size"])
        parse = parse_card
        self.hands = [[] for _ in range(n)]
        for p in range(n):
            cards = view["hand"] if p == me else hands[p]
            self.hands[p] = [parse(c) if isinstance(c, str) else c for c in cards]
            if len(self.hands[p]) != view["hand_sizes"][p]:
                raise ValueError(f"seat {p} holds {view['hand_sizes'][p]} cards, {len(self.hands[p])} given")
        self._melds = [
            _Meld(m["id"], m["owner"], m["kind"], [parse(c) for c in m["cards"]], m["start"]) for m in view["melds"]
        ]
        self.down = list(view["down"])
        self.down_turn = list(view["down_turn"])
        self.buys_used = list(view["buys_used"])
        self.knocked = [size == 1 for size in view["hand_sizes"]]
        self.rebuilds = int(view["rebuilds"])
        self.turn = int(view["turn"])
        self.deal_events_start = 0
        self.discard = [parse(c) for c in view["discard_pile"]]
        self.stock = list(stock)
        if len(self.stock) != view["stock_size"]:
            raise ValueError(f"the stock holds {view['stock_size']} cards, {len(self.stock)} given")
        self.current = int(view["current"])
        self.phase = view["phase"]
        self.discarder = view["discarder"]
        self.fresh = bool(view["fresh_discard"])
        self.call_open = bool(view["call_window"])
        self.buy_requests = list(view["buy_requests"])
        self.passed = list(view["passed"])
        self.taken = parse(view["taken_from_discard"]) if view["taken_from_discard"] else None
        self.pending = [(m["kind"], [parse(c) for c in m["cards"]]) for m in view["staged"]]
        self.must_meld = parse(view["must_meld"]) if view["must_meld"] else None
        self.swaps = [(int(m), int(v), parse(nat), parse(w)) for m, v, nat, w in view["swaps"]]
        self.unswapped = [(int(m), int(v)) for m, v in view["unswapped"]]
        self.swap_base = int(view.get("swap_base", 0))
        self.retracted = bool(view["retracted"])
        resume = view.get("resume")
        self.resume = int(resume) if resume is not None else None
        self._legal_cache = None
        return self

    # ------------------------------------------------------------------ events
    def _event(self, event: str, **data: Any) -> None:
        data["type"] = event
        data["deal"] = self.deal_index + 1  # 0 while cutting for the dealer
        data["version"] = len(self.actions)  # the game's version once the action that made it is applied
        nested = _NESTED.get(event)
        if nested is not None:
            for key in nested:
                data[key] = freeze(data[key])
        self.events.append(FrozenDict(data))

    # ------------------------------------------------------------------ helpers
    def _available_stock(self, keep_top: int = 1) -> int:
        """Cards the stock can still give, counting a rebuild (R9) if one is allowed."""
        extra = 0
        limit = self.rules.stock_rebuilds
        if limit is None or self.rebuilds < limit:
            extra = max(0, len(self.discard) - keep_top)
        return len(self.stock) + extra

    def _rebuild_stock(self) -> bool:
        """R9, R45: shuffle the discard pile less its top card into a new stock."""
        limit = self.rules.stock_rebuilds
        if (limit is not None and self.rebuilds >= limit) or len(self.discard) < 2:
            return False
        self.stock = self.discard[:-1]
        self.discard = self.discard[-1:]
        self.rebuilds += 1
        self._rng(f"rebuild{self.deal_index}/{self.rebuilds}").shuffle(self.stock)
        self._event("stock_rebuilt", count=self.rebuilds, size=len(self.stock))
        return True

    def _draw_stock(self) -> Card | None:
        if not self.stock and not self._rebuild_stock():
            return None
        return self.stock.pop()

    def _accepts(self, m: _Meld) -> list[tuple[Card | None, bool]]:
        """The cards meld ``m`` accepts as lay-offs (R24), as (card, at high end) pairs; None stands
        for any wild card. Agrees with ``can_extend_set`` / ``can_extend_run``."""
        if m.accepts is not None:
            return m.accepts
        m.accepts = self._compute_accepts(m)
        return m.accepts

    def _wild_spots(self, m: _Meld) -> list[tuple[int, int, Card]]:
        """The wild cards of run ``m`` that may be swapped, as (place, value, the natural it stands
        for) (R20): not one standing for a card of the wild rank, itself wild (a deuce with
        ``wild_rank`` 2), for which there is no natural card to swap."""
        if m.spots is not None:
            return m.spots
        rules = self.rules
        spots: list[tuple[int, int, Card]] = []
        if m.kind == "run":
            for i, c in enumerate(m.cards):
                if rules.is_wild(c.rank):
                    natural = self._stands_for(m, i)
                    if not rules.is_wild(natural.rank):
                        spots.append((i, m.start + i, natural))
        m.spots = spots
        return spots

    def _stands_for(self, m: _Meld, index: int) -> Card:
        """R17: the natural card the wild card at ``index`` of run ``m`` stands for (by its place:
        the run's suit, the rank of its value; 14 is the ace high). The one home of this rule: the
        swaps listed, verified and offered to the bots (:meth:`swap_actions`) all ask it."""
        rules = self.rules
        suit = next(c.suit for c in m.cards if not rules.is_wild(c.rank))
        value = m.start + index
        return Card(1 if value == 14 else value, suit)

    def _compute_accepts(self, m: _Meld) -> list[tuple[Card | None, bool]]:
        rules = self.rules
        wild = rules.wild_rank
        out: list[tuple[Card | None, bool]] = []
        if m.kind == "set":
            if rules.set_max is not None and len(m.cards) >= rules.set_max:
                return out
            rank = set_rank(m.cards, rules)
            if rank is None:  # pragma: no cover - a set always holds naturals (R18)
                return out
            taken = {c.suit for c in m.cards if c.rank not in (0, wild)} if rules.set_distinct_suits else set()
            if rank != wild:
                out.extend((Card(rank, suit), True) for suit in SUITS if suit not in taken)
            out.append((None, True))
            return out
        suit = next(c.suit for c in m.cards if c.rank not in (0, wild))
        if len(m.cards) >= 13:  # R3: an ace is never both low and high in one run
            return out
        low, high = m.start - 1, m.start + len(m.cards)
        check = rules.run_joker_check == "always"
        if low >= 1:
            if low != wild:
                out.append((Card(low, suit), False))
            if not check or not any(c.rank in (0, wild) for c in m.cards[:3]):
                out.append((None, False))
        if high <= (14 if rules.ace_high else 13):
            rank = 1 if high == 14 else high
            if rank != wild:
                out.append((Card(rank, suit), True))
            if not check or not any(c.rank in (0, wild) for c in m.cards[-3:]):
                out.append((None, True))
        return out

    def is_playable_discard(self, player: int, card: Card) -> bool:
        """R32: is ``card``, discarded by ``player``, a playable discard (callable, R33/R34, or
        refused, R36)? Only when the player is down and could have laid it off this turn (R43:
        not in the turn of going down with ``layoff_same_turn`` off)."""
        return self.down[player] and self._may_lay_off(player) and self._fits_table(card)

    def discard_options(self, player: int) -> list[Card]:
        """The cards ``player`` (the player to act) may discard now, each once, in card order:
        nothing while a lay-down is staged, a pile card must be melded or a swapped joker played
        (R14, R20, R22); never the card just taken from the pile (R26); in ``strict`` mode no
        playable discard but the last card (R35, R36). The one home of these rules: the listing,
        verification and the bots' playouts all ask it."""
        hand = self.hands[player]
        if self.phase == LIVERPOOL_DISCARD:
            taken = self.taken
            return [c for c in sorted(set(hand)) if c is not taken]
        if self.phase != PLAY or self.pending or self.must_meld is not None or self.swaps:
            return []
        distinct = sorted(set(hand))
        taken = self.taken
        if taken is not None:
            distinct = [c for c in distinct if c is not taken]
        if self.rules.playable_discard == "strict" and len(hand) > 1 and self.down[player]:
            distinct = [c for c in distinct if not self.is_playable_discard(player, c)]
        return distinct

    def may_end_turn(self, player: int) -> bool:
        """Whether ``player`` (to play, nothing begun) may end the turn without a discard: only
        when no discard is legal (R25, R26, R38), and in ``strict`` mode not while a card they may
        not discard could be laid off instead (R36: they lay it off, down to the last card)."""
        if self.pending or self.must_meld is not None or self.swaps:
            return False
        if self.discard_options(player):
            return False
        hand = self.hands[player]
        if self.rules.playable_discard == "strict" and len(hand) > 1:
            taken = self.taken
            return not any(c is not taken and self.is_playable_discard(player, c) for c in hand)
        return True

    def may_call(self, player: int) -> bool:
        """R33/R34: may ``player`` call the top discard now (the one home of who may call)?"""
        return self.phase == DRAW and player not in self.passed and self._call_problem(player) is None

    def may_lay_off(self, player: int) -> bool:
        """R24, R43: is ``player`` down and allowed to lay off this turn?"""
        return self._may_lay_off(player)

    def _fits_table(self, card: Card) -> bool:
        """R32: could ``card`` be laid off on any meld on the table?"""
        wild = self.rules.is_wild(card.rank)
        for m in self._melds:
            for accepted, _ in self._accepts(m):
                if accepted is card or (accepted is None and wild):
                    return True
        return False

    def _may_lay_off(self, p: int) -> bool:
        return self.down[p] and (self.rules.layoff_same_turn or self.down_turn[p] != self.turn)

    # ------------------------------------------------------------------ fast paths for search
    def layoff_spot(self, card: Card) -> tuple[int, bool] | None:
        """The first table meld that accepts ``card`` as a lay-off (R24), as (meld id, at its high
        end), or None; by the rules :meth:`legal_actions` lists lay-offs with, without checking
        whose turn it is or whether its owner may lay off now. A fast path for search (playouts)."""
        wild = self.rules.is_wild(card.rank)
        for m in self._melds:
            for accepted, high in self._accepts(m):
                if (wild and accepted is None) or accepted == card:
                    return m.id, high
        return None

    def swap_actions(self, player: int) -> list[SwapJoker]:
        """The joker swaps (R20) ``player`` may make now: the ones :meth:`legal_actions` lists when
        it is that player's turn to play. A fast path for search (playouts)."""
        out: list[SwapJoker] = []
        if self.must_meld is None and self._swap_allowed(player):
            held = set(self.hands[player])
            unswapped = self.unswapped
            for m in self._melds:
                if m.owner == player and not self._legacy:  # R20: only another player's joker
                    continue
                for i, value, natural in self._wild_spots(m):
                    if natural in held and (m.id, value) not in unswapped:
                        out.append(SwapJoker(player, m.id, i, natural))
        return out

    def _swap_allowed(self, p: int) -> bool:
        mode = self.rules.joker_swap
        if mode == "off":
            return False
        if mode == "going_down_turn":
            if not self.down[p]:  # before the lay-down begins, so that it can use the joker
                return not self.retracted and not self.pending
            return self.down_turn[p] == self.turn and self.rules.layoff_same_turn
        if not self.down[p]:
            return False
        if mode == "later_turns":
            return self.down_turn[p] != self.turn
        return self._may_lay_off(p)  # once_down

    def _pending_counts(self) -> tuple[int, int, frozenset[int], frozenset[str]]:
        sets = runs = 0
        ranks: set[int] = set()
        suits: set[str] = set()
        for kind, cards in self.pending:
            if kind == "set":
                sets += 1
                rank = set_rank(cards, self.rules)
                if rank:
                    ranks.add(rank)
            else:
                runs += 1
                suits.add(next(c.suit for c in cards if not self.rules.is_wild(c.rank)))
        return sets, runs, frozenset(ranks), frozenset(suits)

    def _pending_has(self, card: Card) -> bool:
        return any(card in cards for _, cards in self.pending)

    def _meld_problem(
        self,
        p: int,
        kind: str,
        cards: Sequence[Card],
        check_completion: bool,
        witness: list[list[Card]] | None = None,
        counts: tuple[int, int, frozenset[int], frozenset[str]] | None = None,
    ) -> str | None:
        rules, contract = self.rules, self.contract
        if self.down[p]:
            return "you are already down this deal (R14): lay off instead"
        if self.retracted:
            return "you took back a lay-down this turn (R16); try again next turn"
        if kind not in ("set", "run"):
            return f"a meld is a 'set' or a 'run', not {kind!r}"
        sets, runs, ranks, suits = counts if counts is not None else self._pending_counts()
        if kind == "set":
            if sets >= contract.sets:
                return f"this deal's contract ({contract.describe()}) has no more sets to lay"
            if not is_valid_set(cards, rules):
                return f"{format_cards(cards)} is not a valid set (R11, R18)"
            rank = set_rank(cards, rules)
            if rules.sets_distinct_ranks and rank in ranks:
                return "the sets of one contract must differ in rank (option sets_distinct_ranks)"
        else:
            if runs >= contract.runs:
                return f"this deal's contract ({contract.describe()}) has no more runs to lay"
            if not is_valid_run(cards, rules):
                return f"{format_cards(cards)} is not a valid run in table order (R3, R12, R19)"
            suit = next(c.suit for c in cards if not rules.is_wild(c.rank))
            if rules.runs_distinct_suits and suit in suits:
                return "the runs of one contract must differ in suit (R13)"
        if rules.exact_melds and not contract.whole_hand:
            need = rules.set_min if kind == "set" else rules.run_min
            if len(cards) != need:
                return f"melds laid at going down must have exactly {need} cards (R42)"
        hand = self.hands[p]
        if not _has_cards(hand, cards):
            return f"you do not hold {format_cards(cards)}"
        if check_completion and (not rules.failed_meld_penalty or self.must_meld is not None):
            must = self.must_meld
            if must is not None and (must in cards or self._pending_has(must)):
                must = None
            if kind == "set":
                sets += 1
                ranks = ranks | {rank} if rank else ranks
            else:
                runs += 1
                suits = suits | {suit}
            if not self._completes(hand, kind, cards, must, witness, (sets, runs, ranks, suits)):
                what = "every card of your hand" if contract.whole_hand else "the rest of the contract"
                extra = f" with {must} in it" if must is not None else ""
                return f"after this meld you could not lay {what}{extra} this turn"
        return None

    def _completes(
        self,
        hand: list[Card],
        kind: str,
        cards: Sequence[Card],
        must: Card | None,
        witness: list[list[Card]] | None,
        counts: tuple[int, int, frozenset[int], frozenset[str]],
    ) -> bool:
        """Whether the rest of the contract can still be laid this turn from ``hand`` less
        ``cards`` (a valid meld of ``kind`` of the hand), with ``must`` in it; ``counts``: the
        staged melds as :meth:`_pending_counts` gives them, ``cards`` included. ``witness``, a
        completion of the contract from the hand, spares the solver when it vouches for the meld."""
        rules, contract = self.rules, self.contract
        sets, runs, ranks, suits = counts
        rest = hand.copy()
        _remove_cards(rest, cards)
        if witness is not None and self._witness_allows(witness, kind, rest, must, ranks, suits):
            return True
        return can_complete(
            rest,
            contract.sets - sets,
            contract.runs - runs,
            rules,
            whole_hand=contract.whole_hand,
            must_use=must,
            used_set_ranks=ranks,
            used_run_suits=suits,
        )

    def _discard_problem(self, p: int, card: Card) -> str | None:
        hand = self.hands[p]
        if card not in hand:
            return f"you do not hold {card}"
        if self.pending:
            return "finish laying down your contract first (or take it back)"
        if self.must_meld is not None:
            return f"you must meld {self.must_meld}, the deepest card you took from the pile (R22)"
        if self.swaps:
            return "you must play the joker you took in a swap this turn (R20)"
        if self.taken is not None and card == self.taken:
            return f"you may not discard {card}, just taken from the discard pile (R26)"
        if self.phase == LIVERPOOL_DISCARD:
            return None
        if self.rules.playable_discard == "strict" and len(hand) > 1 and self.is_playable_discard(p, card):
            return f"{card} fits a meld on the table; lay it off instead (R32, R36)"
        return None

    # ------------------------------------------------------------------ validation
    def verify(self, action: Action, version: int | None = None) -> None:
        """Raise :class:`IllegalAction` (a ValueError) with the reason, its ``code`` and ``rule``,
        when ``action`` is not legal now: :class:`MalformedAction` (naming the bad ``field``) when
        it is not a well-formed action at all, :class:`StaleAction` when ``version`` (the
        :attr:`version` the client saw) is given and is not the game's."""
        bad = check_action(action)
        if bad is not None:
            raise MalformedAction(bad[1], bad[0])
        p = action.player
        if not 0 <= p < self.n:
            raise MalformedAction(f"no player {p!r} at this table of {self.n}", "player")
        if version is not None and version != len(self.actions):
            raise StaleAction(f"{action} was made at version {version}; the game is at version {len(self.actions)}")
        problem = self._problem(action)
        if problem is not None:
            if problem.endswith("(stale)"):
                raise StaleAction(problem)
            raise IllegalAction(problem)

    def can_apply(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        return self._problem(action) is None

    def _problem(self, a: Action) -> str | None:
        bad = check_action(a)
        if bad is not None:
            return bad[1]
        p = a.player
        if not 0 <= p < self.n:
            return f"no player {p!r} at this table of {self.n}"
        if self.phase == OVER:
            return "the game is over"
        rules = self.rules
        if self.phase == DRAW:
            named = getattr(a, "card", None) if isinstance(a, DrawDiscard | Buy | Call | DrawFromPile) else None
            if named is not None:
                stale = self._stale(a, named)
                if stale is not None:
                    return stale
            if isinstance(a, Buy | Pass | Call):
                return self._out_of_turn_problem(a)
            if p != self.current:
                return f"it is player {self.current}'s turn to draw"
            if isinstance(a, DrawStock):
                return None
            if isinstance(a, DrawDiscard):
                return None if self.discard else "the discard pile is empty"
            if isinstance(a, DrawFromPile):
                return self._pile_problem(p, a.depth)
            return "draw first: from the stock or the discard pile (R22)"
        if self.phase == LIVERPOOL_DISCARD:
            if p != self.current:
                return f"player {self.current} is discarding after calling"
            if not isinstance(a, Discard):
                return "after calling you discard one card (R34)"
            return self._discard_problem(p, a.card)
        # PLAY
        if isinstance(a, Buy | Pass | Call):
            return "the buy and call windows are closed once a turn begins (R30)"
        if p != self.current:
            return f"it is player {self.current}'s turn"
        hand = self.hands[p]
        if isinstance(a, Discard):
            return self._discard_problem(p, a.card)
        if isinstance(a, Meld):
            return self._meld_problem(p, a.kind, a.cards, True)
        if isinstance(a, LayOff):
            if not self.down[p]:
                return "lay down your contract before laying off (R24)"
            if not self._may_lay_off(p):
                return "you may not lay off in the turn you go down (R43)"
            if a.card not in hand:
                return f"you do not hold {a.card}"
            if self.must_meld is not None and a.card != self.must_meld:
                return f"first meld {self.must_meld}, the deepest card you took from the pile (R22)"
            if not 0 <= a.meld < len(self._melds):
                return f"there is no meld {a.meld}"
            m = self._melds[a.meld]
            ok = (
                can_extend_set(m.cards, a.card, rules)
                if m.kind == "set"
                else can_extend_run(m.cards, m.start, a.card, a.high, rules)
            )
            if not ok:
                return f"{a.card} does not fit meld {a.meld} ({format_cards(m.cards)})"
            if self.swaps and not self._swaps_stay_undoable(a):
                return (
                    f"laying {a.card} there would leave no place for a wild card you swapped this turn to go back to"
                    " (R19, R20): play it or take it back first"
                )
            return None
        if isinstance(a, SwapJoker):
            if not self._swap_allowed(p):
                return "you may not swap a joker now (R20, option joker_swap)"
            if self.must_meld is not None:
                return f"first meld {self.must_meld}, the deepest card you took from the pile (R22)"
            if not 0 <= a.meld < len(self._melds):
                return f"there is no meld {a.meld}"
            m = self._melds[a.meld]
            if m.kind != "run":
                return "a joker in a set is dead (R21)"
            if not 0 <= a.index < len(m.cards) or not rules.is_wild(m.cards[a.index].rank):
                return f"there is no joker at place {a.index} of meld {a.meld}"
            value = m.start + a.index
            natural = self._stands_for(m, a.index)
            if rules.is_wild(natural.rank):
                return f"that joker stands for {natural}, itself a wild card: there is no natural card to swap (R20)"
            if a.card != natural:
                return f"that joker stands for {natural}, not {a.card}"
            if natural not in hand:
                return f"you do not hold {natural}"
            if m.owner == p and not self._legacy:
                return "you may only swap a joker out of another player's run (R20)"
            if (a.meld, value) in self.unswapped:
                return "you already took back a swap of that joker this turn"
            return None
        if isinstance(a, Unswap):
            if not self.swaps:
                return "you have no joker swap to undo"
            if self.pending:
                return "take back a swap before you begin to lay down, or finish laying down first"
            wild = self.swaps[-1][3]
            if wild not in hand:
                return "the joker of your last swap is no longer in your hand"
            if not self._restorable(self.swaps[-1]):
                return "the joker cannot go back: its run would hold two wild cards within four cards (R19)"
            return None
        if isinstance(a, EndTurn):
            if self.pending or self.must_meld is not None or self.swaps:
                return "finish what you began this turn first"
            if any(self._discard_problem(p, c) is None for c in set(hand)):
                return "discard a card to end your turn (R25)"
            if not self.may_end_turn(p):
                return "lay off the cards that fit the table first: a turn ends by a discard (R25, R36)"
            return None
        if isinstance(a, Retract):
            if not rules.failed_meld_penalty:
                return "nothing to take back: a lay-down is only begun when it can be completed (R16)"
            if not self.pending:
                return "you have not begun to lay down"
            if self.must_meld is not None:
                return f"you must lay down with {self.must_meld}, taken from inside the pile, this turn (R22)"
            return None
        if isinstance(a, DrawStock | DrawDiscard | DrawFromPile):
            return "you have already drawn this turn"
        if isinstance(a, Buy | Pass | Call):
            return "the buy and call windows are closed once a turn begins (R30)"
        return f"unknown action {a!r}"

    def _stale(self, a: Action, named: Card) -> str | None:
        """An action that names the card it takes (R22, R27, R33) when that card is not the one
        it would take now: made for another state of the game."""
        pile = self.discard
        if isinstance(a, DrawFromPile):
            depth = a.depth
            if 1 <= depth < len(pile) and pile[-1 - depth] is not named:
                return f"{a} names {named}, but the card {depth} places below the top is {pile[-1 - depth]} (stale)"
            return None
        if not pile:
            return f"{a} names {named}, but the discard pile is empty (stale)"
        if pile[-1] is not named:
            return f"{a} names {named}, but the top discard is {pile[-1]} (stale)"
        return None

    def _out_of_turn_problem(self, a: Action) -> str | None:
        p = a.player
        if p in self.passed:
            return "you have passed on this discard"
        if isinstance(a, Pass):
            if p == self.current:
                return "draw instead: passing is for players out of turn"
            if self._buy_problem(p) is not None and self._call_problem(p) is not None:
                return "there is nothing to pass on"
            return None
        if isinstance(a, Buy):
            return self._buy_problem(p)
        return self._call_problem(p)

    def _buy_problem(self, p: int) -> str | None:
        rules = self.rules
        if not rules.buying:
            return "buying is off (R27)"
        if not self.fresh:
            return "there is no fresh discard to buy"
        if p == self.current:
            return "it is your turn: take the discard instead of buying it"
        if p == self.discarder:
            return "you may not buy your own discard"
        if p in self.buy_requests:
            return "you have already asked to buy this card"
        if rules.buy_limit is not None and self.buys_used[p] >= rules.buy_limit:
            return f"you have used your {rules.buy_limit} buys this deal (R31)"
        if self.down[p] and not rules.down_may_buy:
            return "players who are down may not buy (R44)"
        if self._available_stock(keep_top=2) < rules.buy_penalty + 1:
            return "the stock is too small to pay for a buy"
        return None

    def _call_problem(self, p: int) -> str | None:
        if not self.call_open:
            return "there is no playable discard to call"
        if p == self.discarder:
            return "you may not call your own discard"
        if self.rules.playable_discard == "liverpool":
            if not self.down[p]:
                return "only players who are down may call Liverpool (R34)"
            if self.rules.discard_lock and all(c == self.discard[-1] for c in self.hands[p]):
                # R26 locks the called card and its equals: the caller would have nothing to discard
                return "you hold no other card to discard after calling (R26, R34)"
        return None

    def _pile_problem(self, p: int, depth: int) -> str | None:
        if not self.rules.pile_draw:
            return "drawing from inside the discard pile is off (R22, option pile_draw)"
        if not isinstance(depth, int) or not 1 <= depth < len(self.discard):
            return f"the discard pile has no card {depth!r} places below the top"
        deepest = self.discard[-1 - depth]
        if self.down[p]:
            if not self._fits_table(deepest):
                return f"{deepest} fits no meld on the table, so it cannot be melded at once (R22)"
            return None
        hand = self.hands[p] + self.discard[-1 - depth :]
        c = self.contract
        if not can_complete(hand, c.sets, c.runs, self.rules, whole_hand=c.whole_hand, must_use=deepest):
            return f"you could not lay down your contract with {deepest} this turn (R22)"
        return None

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, version: int | None = None) -> list[dict[str, Any]]:
        """Apply ``action`` or raise IllegalAction, leaving the game unchanged. An action object
        from the current :meth:`legal_actions` listing, or a discard equal to a listed one, is not
        verified again; any other action is, by :meth:`verify` (every field type-checked first).
        ``version``: the :attr:`version` the client acted on; another raises :class:`StaleAction`.
        Returns the events the action produced (public records, as :attr:`events` holds them)."""
        start = len(self.events)
        cache = self._legal_cache
        if version is not None:
            self.verify(action, version)
        elif cache is not None and cache[0] == len(self.actions):
            # an action of the current listing is legal: only others are verified
            shared = _shared(action)
            for listed in cache[1]:
                if listed is shared:
                    break
            else:
                self.verify(action)
        else:
            self.verify(action)
        self._do(action)
        return self.events[start:]

    def events_for(self, player: int, since: int = 0) -> list[dict[str, Any]]:
        """The events from index ``since`` of :attr:`events` on, as seat ``player`` may see them:
        every public record, and for that seat's own draws from the stock the card drawn
        (``card``), for its buys and calls' penalties the cards paid (``penalty_cards``). Another
        seat's draw from the stock stays "drew a card". Read-only records; keep
        ``len(game.events)`` as the next ``since``."""
        if not 0 <= player < self.n:
            raise ValueError(f"no player {player} at this table of {self.n}")
        out = self.events[since:]
        for index, seat, extra in self._private:
            if seat == player and index >= since:
                out[index - since] = FrozenDict({**out[index - since], **extra})
        return out

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (e.g. taken from :meth:`legal_actions`): the fast path
        for search. An illegal action here corrupts the game."""
        self._do(action)

    def _do(self, a: Action) -> None:
        listed = self._legal_cache
        self.actions.append(a)
        self._legal_cache = None
        p = a.player
        hand = self.hands[p]
        if isinstance(a, Discard):  # the commonest action first
            hand.remove(a.card)
            self.discard.append(a.card)
            self._event("discard", player=p, card=str(a.card))
            if not hand:
                self._end_deal(p, "went out")
                return
            self._knock(p)
            mode = self.rules.playable_discard
            callable_ = mode in ("call", "liverpool") and self.is_playable_discard(p, a.card)
            resume = self.resume
            self._next_turn((p + 1) % self.n if resume is None else resume, discarder=p, callable_=callable_)
        elif isinstance(a, Pass):  # out of turn, the commonest
            self.passed.append(p)
            self._event("pass", player=p)
            version = len(self.actions)
            if listed is not None and listed[0] == version - 1:
                # a pass only takes its player out of this discard's windows: the listing before
                # it less that player's actions is what _legal gives (tests/test_engine_speed.py)
                self._legal_cache = (version, [x for x in listed[1] if x.player != p])
        elif isinstance(a, DrawStock):
            self._resolve_buys()
            card = self._draw_stock()
            if card is None:  # a call's penalty card emptied a stock that cannot be rebuilt
                self._end_deal(None, "stalemate: the stock ran out")
                return
            hand.append(card)
            self._event("draw_stock", player=p)
            self._private.append((len(self.events) - 1, p, {"card": str(card)}))
            self._begin_play()
        elif isinstance(a, DrawDiscard):
            card = self.discard.pop()
            hand.append(card)
            self.taken = card if self.rules.discard_lock else None
            self._event("draw_discard", player=p, card=str(card))
            self._begin_play()
        elif isinstance(a, DrawFromPile):
            taken = self.discard[-1 - a.depth :]
            del self.discard[-1 - a.depth :]
            hand.extend(taken)
            self.must_meld = taken[0]
            self._event("draw_pile", player=p, cards=[str(c) for c in taken])
            self._begin_play()
        elif isinstance(a, Buy):
            self.buy_requests.append(p)
            self._event("buy_request", player=p)
        elif isinstance(a, Call):
            self._do_call(p)
        elif isinstance(a, Meld):
            _remove_cards(hand, a.cards)
            self.pending.append((a.kind, list(a.cards)))
            self._event("meld", player=p, kind=a.kind, cards=[str(c) for c in a.cards])
            sets, runs, _, _ = self._pending_counts()
            c = self.contract
            if sets == c.sets and runs == c.runs and (not c.whole_hand or not hand):
                self._go_down(p)
        elif isinstance(a, LayOff):
            hand.remove(a.card)
            m = self._melds[a.meld]
            m.changed()
            if m.kind == "run" and not a.high:
                m.cards.insert(0, a.card)
                m.start -= 1
            else:
                m.cards.append(a.card)
            if self.must_meld is not None and a.card == self.must_meld:
                self.must_meld = None
            self._settle_swaps()
            self._event("lay_off", player=p, card=str(a.card), meld=a.meld, high=a.high)
            self._after_hand_change(p)
        elif isinstance(a, SwapJoker):
            m = self._melds[a.meld]
            m.changed()
            wild = m.cards[a.index]
            m.cards[a.index] = a.card
            if not self.swaps:  # wild cards held before the turn's first swap
                self.swap_base = sum(1 for c in hand if self.rules.is_wild(c.rank))
            hand.remove(a.card)
            hand.append(wild)
            self.swaps.append((a.meld, m.start + a.index, a.card, wild))
            self._event("swap", player=p, meld=a.meld, index=a.index, card=str(a.card))
        elif isinstance(a, Unswap):
            meld_id, value, natural, wild = self.swaps.pop()
            m = self._melds[meld_id]
            m.changed()
            m.cards[value - m.start] = wild
            hand.remove(wild)
            hand.append(natural)
            self.unswapped.append((meld_id, value))
            self._event("unswap", player=p, meld=meld_id, card=str(natural))
        elif isinstance(a, EndTurn):
            self._event("end_turn", player=p)
            self._knock(p)
            self._next_turn((p + 1) % self.n, discarder=None, callable_=False, fresh=False)
        elif isinstance(a, Retract):
            for _, cards in self.pending:
                hand.extend(cards)
            self.pending = []
            self.retracted = True
            self._scores[p] += self.rules.failed_meld_penalty
            self._event("retract", player=p, penalty=self.rules.failed_meld_penalty)

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.fresh = False
        self.call_open = False
        self.buy_requests = []
        self.passed = []

    def _resolve_buys(self) -> None:
        """R29: the current player declined the discard; the winning buyer takes it and pays."""
        if not self.buy_requests or not self.fresh:
            return
        if self.rules.buy_precedence == "first":
            buyer = self.buy_requests[0]
        else:
            buyer = min(self.buy_requests, key=lambda q: (q - self.current) % self.n)
        card = self.discard.pop()
        hand = self.hands[buyer]
        hand.append(card)
        paid = 0
        for _ in range(self.rules.buy_penalty):
            extra = self._draw_stock()
            if extra is None:  # pragma: no cover - buys are refused when the stock cannot pay
                break
            hand.append(extra)
            paid += 1
        self.buys_used[buyer] += 1
        self.knocked[buyer] = False
        self._event("buy", player=buyer, card=str(card), penalty=paid)
        if paid:
            self._private.append((len(self.events) - 1, buyer, {"penalty_cards": FrozenList(map(str, hand[-paid:]))}))

    def _do_call(self, caller: int) -> None:
        offender = self.discarder
        assert offender is not None
        card = self.discard.pop()
        self._event("call", player=caller, offender=offender, card=str(card))
        self.call_open = False
        self.fresh = False
        self.buy_requests = []
        self.passed = []
        if self.rules.playable_discard == "call":
            hand = self.hands[offender]
            hand.append(card)
            paid = 0
            for _ in range(self.rules.playable_discard_penalty):
                extra = self._draw_stock()
                if extra is None:
                    break
                hand.append(extra)
                paid += 1
            self.knocked[offender] = False
            self._event("call_penalty", player=offender, card=str(card), penalty=paid)
            if paid:
                paid_cards = {"penalty_cards": FrozenList(map(str, hand[-paid:]))}
                self._private.append((len(self.events) - 1, offender, paid_cards))
        else:  # liverpool: the caller takes it and discards one
            self.hands[caller].append(card)
            if self.rules.liverpool_resume == "in_turn":
                self.resume = self.current  # R34: the rotation goes on from the interrupted draw
            self.current = caller
            self.phase = LIVERPOOL_DISCARD
            self.taken = card if self.rules.discard_lock else None

    def _go_down(self, p: int) -> None:
        """R14: the staged melds become the player's contract on the table."""
        for kind, cards in self.pending:
            start = run_start(cards, self.rules) if kind == "run" else 0
            self._melds.append(_Meld(len(self._melds), p, kind, cards, start or 0))
        self.pending = []
        self.must_meld = None
        self.down[p] = True
        self.down_turn[p] = self.turn
        self._settle_swaps()
        self._event("down", player=p)
        self._after_hand_change(p)

    def _settle_swaps(self) -> None:
        """R20: a swapped wild card counts as played once it has left the hand: for each wild card
        fewer than the hand held before its first swap plus one per open swap, a swap is settled
        (:meth:`_settled_swap` says which)."""
        swaps = self.swaps
        if swaps:
            hand = self.hands[self.current]
            wilds = sum(1 for c in hand if self.rules.is_wild(c.rank))
            while swaps and wilds - self.swap_base < len(swaps):
                swaps.pop(self._settled_swap(hand))

    def _settled_swap(self, hand: list[Card]) -> int:
        """The open swap a wild card that left ``hand`` settles. Equal wild cards are alike, but a
        joker is not a deuce of ``wild_rank`` 2: when the hand holds fewer of one kind than its open
        swaps took, one of those is settled (it could not be taken back), else any. Of those, one
        whose wild card could no longer go back to its place (R19, a wild card laid off next to
        it) is settled first, else the first."""
        swaps = self.swaps
        gone = [i for i, s in enumerate(swaps) if hand.count(s[3]) < sum(1 for o in swaps if o[3] == s[3])]
        choices = gone or list(range(len(swaps)))
        return next((i for i in choices if not self._restorable(swaps[i])), choices[0])

    def _swaps_stay_undoable(self, a: LayOff) -> bool:
        """After lay-off ``a`` (a fitting one), may every swap still open go back (R19, R20)? A
        wild card laid off next to the place of another swap's wild card would leave that swap with
        neither a way back nor, perhaps, a place to play its card: no legal action."""
        if self.rules.run_joker_check != "always" or not self.rules.is_wild(a.card.rank):
            return True
        trial = self.copy()
        trial._do(a)
        return all(trial._restorable(swap) for swap in trial.swaps)

    def _restorable(self, swap: tuple[int, int, Card, Card]) -> bool:
        """May the wild card of ``swap`` (meld, place, natural, wild) go back to its place? Not when
        the run would then break R19 (with ``run_joker_check`` "always")."""
        if self.rules.run_joker_check != "always":
            return True
        meld_id, value, _, wild = swap
        m = self._melds[meld_id]
        cards = list(m.cards)
        cards[value - m.start] = wild
        return is_valid_run(cards, self.rules)

    def _after_hand_change(self, p: int) -> None:
        """Going out or floating once a hand is empty after melding (R15, R37, R38)."""
        if self.hands[p]:
            self._knock(p)
            return
        if self.contract.whole_hand or not self.rules.floating:
            self._end_deal(p, "went out")
            return
        self._event("float", player=p)
        self._next_turn((p + 1) % self.n, discarder=None, callable_=False, fresh=False)

    def _knock(self, p: int) -> None:
        size = len(self.hands[p])
        if size == 1 and not self.knocked[p]:
            self.knocked[p] = True
            if self.rules.knock:
                self._event("knock", player=p)
        elif size != 1:
            self.knocked[p] = False

    def _next_turn(self, player: int, discarder: int | None, callable_: bool, fresh: bool = True) -> None:
        limit = self.rules.turn_limit
        if limit is not None and self.turn >= limit:
            self._end_deal(None, f"stalemate: {limit} turns")
            return
        self.turn += 1
        self.current = player
        self._open_draw(discarder=discarder, fresh=fresh, callable_=callable_)

    def _end_deal(self, out: int | None, reason: str) -> None:
        """R37, R40, R45: score the hands left and start the next deal or end the game."""
        rules = self.rules
        points = [0 if p == out else hand_points(self.hands[p], rules) for p in range(self.n)]
        for p in range(self.n):
            self._scores[p] += points[p]
        self.deal_scores.append(points)
        self._event(
            "deal_end",
            out=out,
            reason=reason,
            points=points,
            hands={str(p): format_cards(h) for p, h in enumerate(self.hands)},
            scores=self._scores[:],
        )
        self.pending = []
        if self.deal_index + 1 >= len(rules.schedule):
            self.phase = OVER
            self._event("game_over", scores=self._scores[:], winners=self.winners)
            return
        self._start_deal()

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every action any player may take now (or only ``player``'s), out-of-turn buys, calls
        and passes included. Melds are listed with wild cards only filling gaps or ends (and, when
        a begun lay-down can only be finished otherwise, as the melds of one completion); apply
        also accepts any other valid arrangement.
        """
        cache = self._legal_cache
        version = len(self.actions)
        if cache is None or cache[0] != version:
            cache = (version, self._legal())
            self._legal_cache = cache
        if player is None:
            return cache[1].copy()
        return [a for a in cache[1] if a.player == player]

    def _legal(self) -> list[Action]:
        out: list[Action] = []
        if self.phase == OVER:
            return out
        p = self.current
        rules = self.rules
        seats = _SEATS
        if self.phase == DRAW:
            out.append(seats[p].draw_stock)
            pile = self.discard
            top = pile[-1] if pile else None
            if top is not None:
                out.append(seats[p].draw_discards[top])
            if rules.pile_draw:
                out.extend(
                    DrawFromPile(p, d, pile[-1 - d]) for d in range(1, len(pile)) if self._pile_problem(p, d) is None
                )
            call_open = self.call_open and top is not None
            if call_open and self._call_problem(p) is None:
                out.append(seats[p].calls[top])  # type: ignore[index]
            # _buy_problem, its checks common to every seat first
            can_buy = rules.buying and self.fresh and self._available_stock(keep_top=2) >= rules.buy_penalty + 1
            discarder = self.discarder
            requests = self.buy_requests
            limit = rules.buy_limit
            passed = self.passed
            for q in range(self.n):
                if q == p or q in passed:
                    continue
                buy = (
                    can_buy
                    and q != discarder
                    and q not in requests
                    and (limit is None or self.buys_used[q] < limit)
                    and (rules.down_may_buy or not self.down[q])
                )
                call = call_open and self._call_problem(q) is None
                if buy:
                    out.append(seats[q].buys[top])  # type: ignore[index]
                if call:
                    out.append(seats[q].calls[top])  # type: ignore[index]
                if buy or call:
                    out.append(seats[q].pass_)
            return out
        hand = self.hands[p]
        discard_of = seats[p].discards
        if self.phase == LIVERPOOL_DISCARD:
            return [discard_of[c] for c in self.discard_options(p)]
        distinct = sorted(set(hand))
        # melds toward the contract
        if not self.down[p] and not self.retracted:
            out.extend(self._legal_melds(p))
        # lay-offs
        if self._may_lay_off(p):
            cards = {self.must_meld} if self.must_meld is not None else set(distinct)
            wilds = sorted(c for c in cards if rules.is_wild(c.rank))
            for m in self._melds:
                for accepted, high in self._accepts(m):
                    if accepted is None:
                        if wilds:
                            offs = [LayOff(p, w, m.id, high) for w in wilds]
                            out.extend([a for a in offs if self._swaps_stay_undoable(a)] if self.swaps else offs)
                    elif accepted in cards:
                        out.append(LayOff(p, accepted, m.id, high))
        # joker swaps
        out.extend(self.swap_actions(p))
        if self.swaps and self._problem(seats[p].unswap) is None:
            out.append(seats[p].unswap)
        if self.pending:
            if rules.failed_meld_penalty and self._problem(seats[p].retract) is None:
                out.append(seats[p].retract)
            return out
        if self.must_meld is not None or self.swaps:
            return out
        distinct = self.discard_options(p)
        if distinct:
            out.extend([discard_of[c] for c in distinct])
        elif self.may_end_turn(p):
            out.append(seats[p].end_turn)
        return out

    def _legal_melds(self, p: int) -> list[Action]:
        rules, contract = self.rules, self.contract
        hand = self.hands[p]
        counts = self._pending_counts()
        sets, runs, ranks, suits = counts
        left_sets, left_runs = contract.sets - sets, contract.runs - runs
        check = not rules.failed_meld_penalty or self.must_meld is not None
        must = self.must_meld
        if must is not None and self._pending_has(must):
            must = None
        exact = rules.exact_melds and not contract.whole_hand
        out: list[Action] = []
        witness: list[list[Card]] | None = None

        def completion() -> list[list[Card]] | None:
            """The best way to lay the rest of the contract from the hand, if any (the solver's
            answer to the question the greedy bot asks too, memoised)."""
            return solve(
                hand,
                left_sets,
                left_runs,
                rules,
                whole_hand=contract.whole_hand,
                must_use=must,
                used_set_ranks=ranks,
                used_run_suits=suits,
            )

        def candidates() -> Iterator[tuple[int, list[Card], int | str | None, frozenset[int], frozenset[str]]]:
            """The candidate melds of the kinds still to lay, less those the contract's distinct
            ranks and suits rule out, as (0 for a set or 1 for a run, cards, rank or suit, the
            ranks and suits of the contract's melds with it); every one is a valid meld of the
            player's cards, of the length R42 asks."""
            if left_sets > 0:
                for cards in candidate_melds(hand, "set", rules, exact=exact):
                    rank = set_rank(cards, rules)
                    if not (rules.sets_distinct_ranks and rank in ranks):
                        yield 0, cards, rank, ranks | {rank} if rank else ranks, suits
            if left_runs > 0:
                for cards in candidate_melds(hand, "run", rules, exact=exact):
                    suit = _run_suit(cards, rules)
                    if not (rules.runs_distinct_suits and suit in suits):
                        yield 1, cards, suit, ranks, suits | {suit}

        # What _meld_problem checks, less what holds of every candidate: that the rest of the
        # contract can still be laid.
        if check and (must is not None or contract.whole_hand):
            witness = completion()
            if witness is None:
                return []
            # the whole hand, or a card that must be used: the full test, spared by the witness
            for is_run, cards, _, with_ranks, with_suits in candidates():
                kind = _KINDS[is_run]
                left_must = None if must is not None and must in cards else must
                after = (sets + 1 - is_run, runs + is_run, with_ranks, with_suits)
                if self._completes(hand, kind, cards, left_must, witness, after):
                    out.append(Meld(p, kind, tuple(cards)))
        else:
            # a quick existence test (no card that must be used, not the whole hand)
            checker = RestChecker(hand, rules) if check else None
            if checker is not None and not checker((), left_sets, left_runs, ranks, suits):
                return []
            # The best completion (wanted below) first: a witness that spares most existence tests.
            if check:
                witness = _solve(hand, left_sets, left_runs, rules, False, None, ranks, suits)
            fits = _Witness(hand, witness, left_sets, rules) if witness else None
            for is_run, cards, key, with_ranks, with_suits in candidates():
                if (
                    checker is None
                    or (fits is not None and fits(is_run, cards, key))
                    or checker(cards, left_sets - 1 + is_run, left_runs - is_run, with_ranks, with_suits)
                ):
                    out.append(Meld(p, _KINDS[is_run], tuple(cards)))
        if check:
            # The listing puts wild cards only in gaps, but the contract may be completable only with
            # a wild card standing where the hand holds the natural: list the melds of the best
            # completion too, so that a lay-down the hand can make is always among the actions.
            best = witness
            listed = {(a.kind, a.cards) for a in out if isinstance(a, Meld)}
            for i, cards in enumerate(best or []):
                kind = "set" if i < left_sets else "run"  # sets come first
                if (kind, tuple(cards)) in listed:
                    continue
                # the completion itself shows that the rest of the contract can follow
                if self._meld_problem(p, kind, cards, check, best, counts) is None:
                    out.append(Meld(p, kind, tuple(cards)))
        return _canonical_sets(out)

    def _witness_allows(
        self,
        witness: list[list[Card]],
        kind: str,
        rest: list[Card],
        must: Card | None,
        ranks: frozenset[int],
        suits: frozenset[str],
    ) -> bool:
        """A quick sufficient test that a new meld of ``kind`` leaves the contract completable:
        some completion ``witness`` of the hand, less one of its melds of that kind, still fits in
        ``rest`` (is exactly ``rest`` in a whole-hand deal, R15) and its other melds keep the
        distinct-rank/suit options."""
        rules = self.rules
        whole = self.contract.whole_hand
        size = sum(map(len, witness))
        have: Counter[Card] | None = None
        for i, meld in enumerate(witness):
            if whole and len(rest) != size - len(meld):
                continue  # the other melds cannot be exactly the rest
            if (kind == "set") != (set_rank(meld, rules) is not None and not _is_run(meld, rules)):
                continue
            if have is None:
                have = Counter(rest)
            others = witness[:i] + witness[i + 1 :]
            need = Counter(c for m in others for c in m)
            if any(have[c] < k for c, k in need.items()) or (whole and have != need):
                continue
            if must is not None and must not in need:
                continue
            if rules.sets_distinct_ranks and any(not _is_run(m, rules) and set_rank(m, rules) in ranks for m in others):
                continue
            if rules.runs_distinct_suits and any(_is_run(m, rules) and _run_suit(m, rules) in suits for m in others):
                continue
            return True
        return False

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as JSON-serializable data: their own hand, everyone's hand
        size, the table, the whole discard pile and the public history; never another hand, the
        stock's order or the seed."""
        if not 0 <= player < self.n:
            raise ValueError(f"no player {player} at this table of {self.n}")
        rules = self.rules
        c = rules.schedule[self.deal_index]
        cached = self._contract_view
        if cached is None or cached[0] is not c:
            text = {"sets": c.sets, "runs": c.runs, "cards": c.cards, "whole_hand": c.whole_hand, "text": c.describe()}
            cached = self._contract_view = (c, text)
        phase = self.phase
        draw = phase == DRAW
        over = phase == OVER
        swaps = self.swaps
        unswapped = self.unswapped
        taken = self.taken
        must = self.must_meld
        melds = self._melds
        # the pile changes about once a turn, views come at every decision: its names are kept
        # while it holds the same cards (compared in C, by identity as cards are interned)
        pile = self.discard
        names = self._pile_view
        if names[0] != pile:
            names = self._pile_view = (pile.copy(), card_names(pile))
        view = _VIEW.copy()
        view["player"] = player
        view["players"] = self.n
        view["deal"] = self.deal_index + 1
        view["deals"] = len(rules.schedule)
        view["contract"] = cached[1].copy()
        view["dealer"] = self.dealer
        view["current"] = self.current
        view["phase"] = phase
        view["turn"] = self.turn
        view["version"] = len(self.actions)
        view["hand"] = card_names(self.hands[player])
        view["hand_sizes"] = list(map(len, self.hands))
        view["down"] = self.down.copy()
        view["buys_used"] = self.buys_used.copy()
        view["scores"] = self._scores.copy()
        view["deal_scores"] = list(map(list.copy, self.deal_scores))
        view["melds"] = [m.to_view() for m in melds] if melds else []
        view["staged"] = [{"kind": k, "cards": card_names(cards)} for k, cards in self.pending] if self.pending else []
        view["discard_pile"] = names[1].copy()
        view["stock_size"] = len(self.stock)
        view["deck_size"] = self._deck_size
        view["buy_window"] = draw and self.fresh and rules.buying
        view["buy_requests"] = self.buy_requests.copy()
        view["call_window"] = draw and self.call_open
        view["taken_from_discard"] = str(taken) if taken is not None else None
        view["must_meld"] = str(must) if must is not None else None
        view["down_turn"] = self.down_turn.copy()
        view["rebuilds"] = self.rebuilds
        view["fresh_discard"] = self.fresh
        view["discarder"] = self.discarder
        view["passed"] = self.passed.copy()
        view["swaps"] = [[m, v, str(nat), str(w)] for m, v, nat, w in swaps] if swaps else []
        view["unswapped"] = [list(u) for u in unswapped] if unswapped else []
        view["swap_base"] = self.swap_base
        view["retracted"] = self.retracted
        view["resume"] = self.resume
        view["rules"] = _fresh_rules(self._rules_dict)  # a copy: cached_rules knows it by equality
        view["events"] = self.events[self.deal_events_start :]  # a new list of read-only records
        view["is_over"] = over
        view["winners"] = self.winners if over else []
        return view

    def __repr__(self) -> str:
        return (
            f"<Game {self.n} players, deal {self.deal}, {self.phase}, player {self.current} to act, "
            f"scores {self._scores}>"
        )

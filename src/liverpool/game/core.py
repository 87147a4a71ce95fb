"""The state of a game and its deal cycle: construction, the cut and the deal, the draw phase's
opening, the end of a deal, public state, copying and the event log."""

from __future__ import annotations

import random
import secrets
from typing import Any, Self

from ..actions import (
    Action,
)
from ..cards import Card, format_cards, full_deck
from ..events import FrozenDict, freeze
from ..melds import (
    hand_points,
)
from ..rules import Contract, RuleSet
from .common import (
    _MADE,
    _NESTED,
    DRAW,
    OVER,
    TableMeld,
    _ensure_seats,
    _Meld,
)


class _Core:
    """The state of a game and its deal cycle (a layer of :class:`~liverpool.game.Game`)."""

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
        "levels",
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
    levels: list[int] | None  # issue 16, progression="player": each seat's level (0-based); None: "table"
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
    _private: list[tuple[int, int, Card | tuple[Card, ...]]]  # (event index, seat, card(s) only it sees)

    def __init__(self, _made: object = None) -> None:
        # the constructors make a game with ``cls.__new__(cls, _MADE)``: the source skips this, the
        # mypyc build (``make fast``) calls it with the token
        if _made is not _MADE:
            raise TypeError("use Game.new(players, rules, seed) or Game.from_record(record)")

    @classmethod
    def new(
        cls,
        players: int = 4,
        rules: RuleSet | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Self:
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
        self = cls.__new__(cls, _MADE)  # type: ignore[call-arg]  # mypyc: __init__(_MADE)
        self.rules = rules
        self._rules_dict = freeze(rules.to_dict())  # read-only: views share it (bots know it by identity)
        self._contract_view = None
        self._pile_view = ([], [])
        self.levels = [0] * players if rules.progression == "player" else None  # issue 16
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
        levels = self.levels  # issue 16, progression="player": each seat is dealt its level's cards
        sizes = [rules.schedule[self.deal_index if levels is None else levels[p]].cards for p in range(n)]
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
        dealt = sum(sizes) + (1 if rules.upcard else 0)
        if levels is None:
            text = rules.schedule[self.deal_index].describe()
        else:
            text = "each player's own level (" + ", ".join(str(v + 1) for v in levels) + ")"
        self._event("deal", number=self.deal_index + 1, dealer=self.dealer, contract=text)
        if rules.cut_bonus:
            cutter = (self.dealer - 1) % n
            cut = self._rng(f"cutbonus{self.deal_index}").randint(1, len(deck) - 1)
            self._event("cut_for_deal", player=cutter, cut=cut, needed=dealt)
            if cut == dealt:
                self._scores[cutter] -= rules.cut_bonus
                self._event("cut_bonus", player=cutter, points=-rules.cut_bonus)
        for k in range(max(sizes)):
            for j in range(1, n + 1):
                q = (self.dealer + j) % n
                if k < sizes[q]:
                    self.hands[q].append(deck.pop())
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
        # top discard and the deal ends only when a card must come from the empty stock (R45);
        # with stock_out_ends_deal (May I) at once, as record format 1 played it too
        if not self.stock and not self._rebuild_stock() and (self._legacy or self.rules.stock_out_ends_deal):
            self._end_deal(None, "stalemate: the stock ran out")

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
        """This deal's contract (``progression="player"``: the current player's level's)."""
        levels = self.levels
        if levels is None:
            return self.rules.schedule[self.deal_index]
        return self.rules.schedule[min(levels[self.current], len(self.rules.schedule) - 1)]

    def contract_of(self, player: int) -> Contract:
        """The contract ``player`` plays this deal (R10; issue 16: their level's with
        ``progression="player"``)."""
        levels = self.levels
        if levels is None:
            return self.rules.schedule[self.deal_index]
        return self.rules.schedule[min(levels[player], len(self.rules.schedule) - 1)]

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
        """R41: the players with the lowest total (ties share); meaningful once over. With
        ``progression="player"`` the most levels completed first, then the lowest total."""
        if self.levels is not None:
            keys = self._standing()
            return [p for p, k in enumerate(keys) if k == min(keys)]
        low = min(self._scores)
        return [p for p, s in enumerate(self._scores) if s == low]

    @property
    def placings(self) -> list[int]:
        """R41: every seat's place, 1 for the lowest total; ties share a place and the places
        after them are skipped (totals 10, 10, 30, 40 give 1, 1, 3, 4). Meaningful once over.
        With ``progression="player"`` by the most levels completed, then the lowest total."""
        totals: list[Any] = self._scores if self.levels is None else self._standing()
        return [1 + sum(1 for t in totals if t < s) for s in totals]

    def _standing(self) -> list[tuple[int, int]]:
        """``progression="player"``: each seat's (minus the levels completed, total), best lowest."""
        assert self.levels is not None
        return [(-level, total) for level, total in zip(self.levels, self._scores, strict=True)]

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

    def copy(self) -> Self:
        """An independent copy (for search). Fast: shares only immutable parts."""
        g = type(self).__new__(type(self), _MADE)  # type: ignore[call-arg]  # mypyc: __init__(_MADE)
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
        g.levels = None if self.levels is None else self.levels[:]
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

    def _event(self, event: str, **data: Any) -> None:
        data["type"] = event
        data["deal"] = self.deal_index + 1  # 0 while cutting for the dealer
        data["version"] = len(self.actions)  # the game's version once the action that made it is applied
        nested = _NESTED.get(event)
        if nested is not None:
            for key in nested:
                data[key] = freeze(data[key])
        self.events.append(FrozenDict(data))

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
        self._open_draw(discarder, fresh, callable_)

    def _deal_bonuses(self, out: int | None) -> list[tuple[int, int, str]]:
        """R49's scoring hooks at a deal's end, as (player, points, option name); nonzero only.
        ``out`` is the player who went out (None: a stalemate, R45). The first player down is the
        one who went down in the earliest turn (one player goes down per turn)."""
        rules = self.rules
        found: list[tuple[int, int, str]] = []
        if out is not None:
            if rules.going_out_bonus:
                found.append((out, rules.going_out_bonus, "going_out_bonus"))
            alone = not any(self.down[p] for p in range(self.n) if p != out)
            if rules.going_out_bonus_if_alone and alone:
                found.append((out, rules.going_out_bonus_if_alone, "going_out_bonus_if_alone"))
        if rules.first_down_bonus:
            down = [p for p in range(self.n) if self.down[p]]
            if down:
                first = min(down, key=lambda p: self.down_turn[p])
                found.append((first, rules.first_down_bonus, "first_down_bonus"))
        if rules.joker_in_meld_points:
            wild = [0] * self.n
            for m in self._melds:
                wild[m.owner] += sum(1 for c in m.cards if rules.is_wild(c.rank))
            found.extend((p, k * rules.joker_in_meld_points, "joker_in_meld_points") for p, k in enumerate(wild) if k)
        return found

    def _end_deal(self, out: int | None, reason: str) -> None:
        """R37, R40, R45: score the hands left and start the next deal or end the game."""
        rules = self.rules
        points = [0 if p == out else hand_points(self.hands[p], rules) for p in range(self.n)]
        if (
            rules.going_out_bonus
            or rules.going_out_bonus_if_alone
            or rules.first_down_bonus
            or rules.joker_in_meld_points
        ):
            for p, extra, why in self._deal_bonuses(out):
                points[p] += extra
                self._event("bonus", player=p, points=extra, reason=why)
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
        levels = self.levels
        if levels is not None:  # issue 16: a player who went down with their level's contract moves on
            for p in range(self.n):
                if self.down[p]:
                    levels[p] += 1
                    self._event("level", player=p, level=levels[p] + 1, completed=levels[p])
        if (
            self.deal_index + 1 >= len(rules.schedule)
            if levels is None
            else max(levels) >= len(rules.schedule) or self.deal_index + 1 >= rules.max_deals
        ):
            self.phase = OVER
            self._event("game_over", scores=self._scores[:], winners=self.winners)
            return
        self._start_deal()

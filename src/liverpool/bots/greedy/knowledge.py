"""Knowledge of the table: :class:`Snapshot`, what one seat knows in the form the decision logic reads
(from a view or, in the strong bot's playouts, from a sampled game), and :class:`EventTracker`, the
cards each player took from the discard pile this deal."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from ...actions import SwapJoker
from ...cards import Card, parse_card, parse_tokens
from ...game import empty_hand_floats, layoff_targets, staged_melds, staged_progress
from ...rules import Contract, RuleSet
from ...solver import Left, contract_left, left_after
from .tactics import _MEMO_LIMIT, Tactics, rules_for_view, tactics

if TYPE_CHECKING:
    from ...game import Game


class Snapshot:
    """What one seat knows, in the form the decision logic reads."""

    __slots__ = (
        "_collects",
        "_hand",
        "_source",
        "buy_window",
        "contract_cards",
        "current",
        "discard_pile",
        "down",
        "hand_sizes",
        "hand_tokens",
        "left",
        "me",
        "meld_list",
        "meld_view",
        "must_meld",
        "n",
        "rules",
        "runs",
        "sets",
        "staged",
        "stock_size",
        "swaps",
        "t",
        "taken",
        "top",
        "whole",
    )

    def __init__(
        self, view: dict[str, Any] | None = None, rules: RuleSet | None = None, t: Tactics | None = None
    ) -> None:
        """An empty snapshot, or with ``view`` the snapshot of that player's view (see :meth:`from_view`)."""
        if view is None:
            self.rules: RuleSet
            self.t: Tactics
            self.me = 0
            self.n = 0
            self.current = 0
            self.sets = 0
            self.runs = 0
            self.whole = False
            self.contract_cards = 0
            self.left: Left | None = None
            self._hand: list[Card] | None = []
            self.hand_tokens: list[str] = []  # the view's hand, parsed when ``hand`` is first asked for
            self.hand_sizes: list[int] = []
            self.down: list[bool] = []
            self.meld_list: list[tuple[int, str, list[Card], int]] | None = []
            self.meld_view: list[dict[str, Any]] = []  # the view's melds, read when ``melds`` is first asked for
            self.top: Card | None = None
            self.discard_pile: list[Card] | None = None
            self.taken: Card | None = None
            self.must_meld: Card | None = None
            self.staged: list[tuple[str, list[Card]]] = []
            self.swaps = 0
            self.stock_size = 0
            self.buy_window = False
            self._collects: dict[int, list[Card]] | None = {}
            self._source: tuple[EventTracker, dict[str, Any]] | None = None
            return
        self.rules = rules = rules if rules is not None else rules_for_view(view)
        self.t = t if t is not None else tactics(rules)
        self.me = view["player"]
        self.n = view["players"]
        self.current = view["current"]
        c = view["contract"]
        self.sets = c["sets"]
        self.runs = c["runs"]
        self.whole = c["whole_hand"]
        self.contract_cards = c["cards"]
        if rules.grouped_contracts:  # issue 16
            left = self.left = _contract_left(c, rules)
            if left is not None:
                self.t = tactics(deficit_rules(rules, left))
        else:
            self.left = None
        parse = parse_card
        self._hand = None
        self.hand_tokens = view["hand"]
        self.hand_sizes = view["hand_sizes"]
        self.down = view["down"]
        melds = view["melds"]
        self.meld_view = melds
        self.meld_list = None if melds else []  # read on first use (most decisions never look)
        pile = view["discard_pile"]
        self.top = parse(pile[-1]) if pile else None
        self.discard_pile = None
        taken = view["taken_from_discard"]
        self.taken = parse(taken) if taken else None
        must = view["must_meld"]
        self.must_meld = parse(must) if must else None
        staged = view["staged"]
        self.staged = staged_melds(view) if staged else []  # a run of wild cards keeps its declaration
        self.swaps = len(view["swaps"])
        self.stock_size = view["stock_size"]
        self.buy_window = view["buy_window"]
        self._collects = {}
        self._source = None

    @property
    def hand(self) -> list[Card]:
        """The seat's cards."""
        hand = self._hand
        if hand is None:
            hand = self._hand = parse_tokens(self.hand_tokens)
        return hand

    @hand.setter
    def hand(self, cards: list[Card]) -> None:
        self._hand = cards

    @property
    def hand_size(self) -> int:
        """``len(self.hand)``, without reading the cards."""
        hand = self._hand
        return len(hand) if hand is not None else len(self.hand_tokens)

    @property
    def collects(self) -> dict[int, list[Card]]:
        """The cards each player took from the discard pile this deal (see :class:`EventTracker`)."""
        collects = self._collects
        if collects is None:
            source = self._source
            collects = self._collects = source[0].update(source[1]) if source is not None else {}
        return collects

    @collects.setter
    def collects(self, collects: dict[int, list[Card]]) -> None:
        self._collects = collects

    def track(self, tracker: EventTracker, view: dict[str, Any]) -> None:
        """Read ``collects`` from ``tracker`` updated with ``view`` when it is first asked for."""
        self._collects = None
        self._source = (tracker, view)

    @property
    def melds(self) -> list[tuple[int, str, list[Card], int]]:
        """The table's melds as (id, kind, cards, start)."""
        melds = self.meld_list
        if melds is None:
            cards = parse_tokens
            melds = self.meld_list = [(m["id"], m["kind"], cards(m["cards"]), m["start"]) for m in self.meld_view]
        return melds

    @melds.setter
    def melds(self, melds: list[tuple[int, str, list[Card], int]]) -> None:
        self.meld_list = melds
        self.meld_view = []  # the view's melds no longer describe the table

    @classmethod
    def from_view(cls, view: dict[str, Any], rules: RuleSet | None = None, t: Tactics | None = None) -> Snapshot:
        """The snapshot of a player's view (``rules``: its rule set when known, ``t``: their
        :class:`Tactics` when known)."""
        return cls(view, rules, t)

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Snapshot:
        """The snapshot of ``seat`` read straight from a (sampled) game: for playouts only."""
        s = cls()
        s.rules = game.rules
        s.t = tactics(game.rules)
        s.me = seat
        n = s.n = game.n
        s.current = game.current
        c = game.contract_of(seat)
        s.sets = c.sets
        s.runs = c.runs
        s.whole = c.whole_hand
        s.contract_cards = c.cards
        s.left = contract_left(c, s.rules) if s.rules.grouped_contracts else None  # issue 16
        if s.left is not None:
            s.t = tactics(deficit_rules(s.rules, s.left))
        s.hand = game.hands[seat]
        s.hand_sizes = [len(game.hands[p]) for p in range(n)]
        s.down = game.down
        s.melds = game.table_rows()
        pile = game.discard
        s.top = pile[-1] if pile else None
        s.discard_pile = pile
        s.taken = game.taken
        s.must_meld = game.must_meld
        s.staged = game.pending
        s.swaps = len(game.swaps)
        s.stock_size = len(game.stock)
        s.buy_window = game.fresh
        return s

    # ---------------------------------------------------------------- table knowledge
    def left_now(self, extra: tuple[str, Sequence[Card]] | None = None) -> Left | str | None:
        """The groups of a contract with lengths of its own or a same-suit gap (issue 16) left after
        the staged melds (and ``extra``, a (kind, cards) meld), as the engine reads them
        (``game/contracts.py``); None for every other contract; a str: why ``extra`` fits none."""
        left: Left | str | None = self.left
        melds = [*self.staged, extra] if extra is not None else self.staged
        for kind, cards in melds:
            if not isinstance(left, Left):
                break
            left = left_after(left, kind, cards, self.rules)
        return left

    def accepts(self) -> tuple[frozenset[int], bool]:
        """The natural cards (as codes) some table meld accepts as a lay-off now, and whether a wild
        card fits. Remembered per table (:attr:`Tactics.accept_memo`) for a snapshot of a view: the
        table changes seldom between decisions."""
        view = self.meld_view
        if not view:
            return self._accepts()
        key = tuple((m["kind"], m["start"], *m["cards"]) for m in view)
        memo = self.t.accept_memo
        hit = memo.get(key)
        if hit is None:
            hit = self._accepts()
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        return hit

    def _accepts(self) -> tuple[frozenset[int], bool]:
        """:meth:`accepts`, worked out by the engine's rule (:func:`liverpool.game.layoff_targets`)
        meld by meld, each meld's answer remembered (:attr:`Tactics.accept_memo`, by its kind,
        start and cards): the table changes by one meld at a time."""
        rules = self.rules
        memo = self.t.accept_memo
        out: set[int] = set()
        any_wild = False
        for _, kind, cards, start in self.melds:
            key = (kind, start, *cards)
            hit = memo.get(key)
            if hit is None:
                naturals: set[int] = set()
                wild = False
                for card, _high in layoff_targets(kind, cards, start, rules):
                    if card is None:
                        wild = True
                    else:
                        naturals.add(card)
                hit = (frozenset(naturals), wild)
                if len(memo) > _MEMO_LIMIT:
                    memo.clear()
                memo[key] = hit
            out |= hit[0]
            any_wild = any_wild or hit[1]
        return frozenset(out), any_wild

    def progress(self) -> tuple[int, int, frozenset[int], frozenset[str]]:
        """The seat's contract progress this turn: the sets and runs staged, and the set ranks and
        run suits they use, as the engine counts them (:func:`liverpool.game.staged_progress`)."""
        return staged_progress(self.staged, self.rules)

    def floats_when_empty(self) -> bool:
        """Would melding the seat's last card leave it floating rather than out (R15, R37, R38)?
        The engine's rule (:func:`liverpool.game.empty_hand_floats`)."""
        return empty_hand_floats(self.rules, self.whole)

    def swap_yield(self, swap: SwapJoker) -> Card:
        """The wild card ``swap`` (a legal joker swap, R20) puts in the hand: the card at its place
        in the table meld, as applying it gives (:meth:`liverpool.game.Game.swap_yield`)."""
        for meld_id, _kind, cards, _start in self.melds:
            if meld_id == swap.meld:
                return cards[swap.index]
        raise ValueError(f"no meld {swap.meld} on the table")

    def is_wild(self, card: Card) -> bool:
        """Is ``card`` wild (R46)? The engine's rule (:meth:`RuleSet.is_wild`, its answers per rank
        in :attr:`Tactics.wild_of`): a dead deuce is not."""
        return self.t.wild_of[card.rank]

    def fits(self, card: Card, acc: tuple[frozenset[int], bool]) -> bool:
        return (acc[1] and self.t.wild_of[card.rank]) or card in acc[0]

    def danger(self) -> int:
        """How close an opponent is to going out: 0 (far) to 3 (could go out now)."""
        level = 0
        me = self.me
        sizes = self.hand_sizes
        down = self.down
        for p in range(self.n):
            if p == me:
                continue
            if down[p]:
                level = max(level, 3 if sizes[p] <= 2 else 2)
            elif sizes[p] <= 2 and not level:
                level = 1
        return level


_TRACKED: Final = frozenset({"draw_discard", "buy", "draw_pile", "deal"})
"""The kinds of event :meth:`EventTracker.update` reads (the others it skips)."""


class EventTracker:
    """Cards each player took from the discard pile this deal (draws, buys, pile draws, calls)."""

    def __init__(self) -> None:
        self.first: object = None
        self.count = 0
        self.collects: dict[int, list[Card]] = {}
        self.declined: dict[int, list[Card]] = {}

    def update(self, view: dict[str, Any]) -> dict[int, list[Card]]:
        events = view["events"]
        if not events:
            return self.collects
        if events[0] is not self.first or len(events) < self.count:
            self.first = events[0]
            self.count = 0
            self.collects = {}
        parse = parse_card
        for e in events[self.count :]:
            kind = e["type"]
            if kind not in _TRACKED:
                continue
            if kind in {"draw_discard", "buy"}:
                self.collects.setdefault(e["player"], []).append(parse(e["card"]))
            elif kind == "draw_pile":
                self.collects.setdefault(e["player"], []).extend(parse(c) for c in e["cards"])
            elif kind == "deal":
                self.collects = {}
        self.count = len(events)
        return self.collects


def _contract_left(c: dict[str, Any], rules: RuleSet) -> Left | None:
    """The groups of a view's contract (its ``set_lengths``/``run_lengths``, given only when it has
    lengths of its own), as :func:`~liverpool.solver.contract_left` reads them."""
    return contract_left(Contract.from_view(c), rules)


def deficit_rules(rules: RuleSet, left: Left) -> RuleSet:
    """The rules the greedy bot's deficits (cards missing toward the contract) are measured under
    for a contract with lengths per meld (issue 16): each kind's longest length as its minimum, so
    that the bot builds every meld toward the longest group of its kind (the deficit then never
    says a hand is closer than it is; whether it can go down is the solver's exact answer)."""
    sets = max((abs(n) for n in left.sets), default=rules.set_min)
    runs = max((abs(n) for n in left.runs), default=rules.run_min)
    return _deficit_rules(rules, sets, runs)


@lru_cache(maxsize=32)
def _deficit_rules(rules: RuleSet, set_min: int, run_min: int) -> RuleSet:
    naturals = min(rules.set_min_naturals, set_min)
    return dataclasses.replace(rules, set_min=set_min, run_min=run_min, set_min_naturals=naturals, exact_melds=False)

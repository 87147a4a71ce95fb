"""The policy: the greedy bot's choice of action in each phase (draw, buy or pass, call, go down, lay off,
swap jokers, discard), and the :class:`GreedyBot` and :class:`EasyBot` players."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final

from ...actions import (
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
)
from ...cards import Card, parse_tokens
from ...events import FrozenDict
from ...game.answers import plan_melds
from ...rules import RuleSet, cached_rules
from ...solver import can_complete, solve
from ..base import Bot
from .heuristics import discard_choice, note_discard, wants_card
from .knowledge import EventTracker, Snapshot
from .tactics import _BIG, Tactics, tactics


def _plan_meld(s: Snapshot, melds: list[Meld]) -> Meld:
    """The legal Meld that follows the solver's best arrangement of what is left to lay."""
    rules = s.rules
    sets_done, runs_done, _, _ = s.progress()  # the engine's count (R10, R14)
    now = s.left_now()
    # the engine's plan of the rest of the contract (liverpool.game.answers.plan_melds)
    plan = plan_melds(
        s.me, s.hand, s.sets, s.runs, s.whole, rules, s.staged, s.must_meld, None if isinstance(now, str) else now
    )
    if plan:
        for p in plan:
            for m in melds:
                if m.kind == p.kind and m.cards == p.cards:
                    return m
        for p in plan:
            key = sorted(p.cards)
            for m in melds:
                if m.kind == p.kind and sorted(m.cards) == key:
                    return m
    # no exact match: the legal meld leaving the fewest points after the rest of the contract
    best = melds[0]
    best_pts = _BIG
    for m in melds[:40]:
        rest = list(s.hand)
        for c in m.cards:
            rest.remove(c)
        sets_left = s.sets - sets_done - (m.kind == "set")
        runs_left = s.runs - runs_done - (m.kind == "run")
        left = s.left_now((m.kind, m.cards))
        if isinstance(left, str):
            continue
        sol = solve(rest, sets_left, runs_left, rules, whole_hand=s.whole, left=left)
        if sol is None:
            continue
        for mm in sol:
            for c in mm:
                rest.remove(c)
        pts = sum(s.t.pts[c.rank] for c in rest)
        if pts < best_pts:
            best, best_pts = m, pts
    return best


_DRAW_OR_PASS: Final = (DrawStock, DrawDiscard, DrawFromPile, Pass)
_PLAY_KINDS: Final[frozenset[type]] = frozenset({Discard, Meld, LayOff, SwapJoker, EndTurn, Unswap, Retract})
"""The classes of the play phase's actions (none is a subclass of a class of :data:`_DRAW_OR_PASS`)."""


def choose(s: Snapshot, legal: Sequence[Action]) -> Action:
    """Greedy's choice among ``legal`` (the seat's legal actions) for the snapshot ``s``."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Buy | Call | Pass):
        return _out_of_turn(s, legal)
    if set(map(type, legal)) <= _PLAY_KINDS:  # the play phase: no draw, no pass (the loop below finds none)
        return _play(s, legal)
    draw_stock = None
    draw_discard = None
    piles: list[DrawFromPile] = []
    for a in legal:
        if isinstance(a, _DRAW_OR_PASS):
            if isinstance(a, Pass):
                return _out_of_turn(s, legal)
            if isinstance(a, DrawStock):
                draw_stock = a
            elif isinstance(a, DrawDiscard):
                draw_discard = a
            else:
                piles.append(a)
    if draw_stock is not None or draw_discard is not None or piles:
        return _draw(s, legal, draw_stock, draw_discard, piles)
    return _play(s, legal)


def _out_of_turn(s: Snapshot, legal: Sequence[Action]) -> Action:
    passing = None
    buy = None
    for a in legal:
        if isinstance(a, Call):
            return a
        if isinstance(a, Buy):
            buy = a
        elif isinstance(a, Pass):
            passing = a
    if buy is not None and s.top is not None and wants_card(s, s.top, buying=True):
        return buy
    if passing is not None:
        return passing
    return legal[0]


def _draw(
    s: Snapshot,
    legal: Sequence[Action],
    draw_stock: Action | None,
    draw_discard: Action | None,
    piles: list[DrawFromPile],
) -> Action:
    if piles:
        choice = _pile_choice(s, piles)
        if choice is not None:
            return choice
    if draw_discard is not None and s.top is not None and wants_card(s, s.top):
        return draw_discard
    if draw_stock is not None:
        return draw_stock
    return draw_discard if draw_discard is not None else legal[0]


def _pile_choice(s: Snapshot, piles: list[DrawFromPile]) -> Action | None:
    """R22 ``pile_draw``: take cards from inside the pile when the deepest lets us meld at once."""
    pile = s.discard_pile
    if pile is None:
        return None
    t = s.t
    if s.down[s.me]:
        acc = s.accepts()
        best = None
        for a in piles:
            taken = pile[-1 - a.depth :]
            if all(s.fits(c, acc) for c in taken) and (best is None or a.depth > best.depth):
                best = a
        return best
    if can_complete(s.hand, s.sets, s.runs, s.rules, whole_hand=s.whole, left=s.left):
        return None
    best = None
    best_pts = _BIG
    for a in piles:
        taken = pile[-1 - a.depth :]
        hand = [*s.hand, *taken]
        sol = solve(hand, s.sets, s.runs, s.rules, whole_hand=s.whole, must_use=taken[0], left=s.left)
        if sol is None:
            continue
        for m in sol:
            for c in m:
                hand.remove(c)
        pts = sum(t.pts[c.rank] for c in hand) - (max(t.pts[c.rank] for c in hand) if hand else 0)
        if pts < best_pts:
            best, best_pts = a, pts
    return best


def _play(s: Snapshot, legal: Sequence[Action]) -> Action:
    me = s.me
    melds: list[Meld] = []
    layoffs: list[LayOff] = []
    swaps: list[SwapJoker] = []
    discards: list[Card] = []
    end_turn = None
    unswap = None
    retract = None
    for a in legal:
        if isinstance(a, Discard):  # the commonest first
            discards.append(a.card)
        elif isinstance(a, Meld):
            melds.append(a)
        elif isinstance(a, LayOff):
            layoffs.append(a)
        elif isinstance(a, SwapJoker):
            swaps.append(a)
        elif isinstance(a, EndTurn):
            end_turn = a
        elif isinstance(a, Unswap):
            unswap = a
        elif isinstance(a, Retract):
            retract = a
    hand = s.hand
    down = s.down[me]
    if not down:
        if melds:
            return _plan_meld(s, melds)
        if swaps and not s.staged:
            for a in swaps:
                rest = list(hand)
                rest.remove(a.card)
                rest.append(s.swap_yield(a))  # the joker, or a card of the wild rank (R20, R46)
                if can_complete(rest, s.sets, s.runs, s.rules, whole_hand=s.whole, left=s.left):
                    return a
    else:
        if layoffs:
            choice = _layoff_choice(s, layoffs, bool(discards))
            if choice is not None:
                return choice
        if swaps and len(hand) >= 2 and not s.swaps:
            acc = s.accepts()
            if acc[1]:
                # swap a natural we cannot play for the joker, then lay the joker off
                for a in swaps:
                    if a.card not in acc[0]:
                        return a
    if discards:
        card = discard_choice(s, discards)
        note_discard(s, card)
        return Discard(me, card)
    if end_turn is not None:
        return end_turn
    if layoffs:
        return layoffs[0]
    if melds:
        return melds[0]
    if unswap is not None:
        return unswap
    if retract is not None:
        return retract
    return legal[0]


def _layoff_choice(s: Snapshot, layoffs: list[LayOff], can_discard: bool) -> LayOff | None:
    """The lay-off to make now, or None to stop (keeping a card to go out by a discard, R38)."""
    hand = s.hand
    must = s.must_meld
    if must is not None:
        for a in layoffs:
            if a.card == must:
                return a
    if s.swaps:
        for a in layoffs:
            if s.is_wild(a.card):
                return a
    if len(hand) <= 1 and can_discard and s.floats_when_empty():
        return None  # go out by discarding the last card (R35, R37)
    taken = s.taken
    pts = s.t.pts
    best = None
    best_key = -1.0
    for a in layoffs:
        c = a.card
        # the card just taken from the pile first (it may not be discarded, R26), then the costliest
        key = pts[c.rank] + (1000.0 if taken is not None and c == taken else 0.0) - (0.5 if s.is_wild(c) else 0.0)
        if key > best_key:
            best, best_key = a, key
    return best


class GreedyBot(Bot):
    """The greedy heuristic player (see the module doc)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.tracker = EventTracker()
        self._rules: tuple[dict[str, Any], RuleSet, Tactics] | None = None
        """A copy of the last rules dict of a view, its rule set and tactics."""

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        data = view["rules"]
        known = self._rules
        # A game's views share one read-only rules dict (known by identity); a changeable one (a
        # view from elsewhere) is compared with a private copy of the last one.
        if known is None or (known[0] is not data and known[0] != data):
            rules = cached_rules(data)
            own = data if isinstance(data, FrozenDict) else copy.deepcopy(data)
            known = self._rules = (own, rules, tactics(rules))
        rules = known[1]
        s = Snapshot(view, rules, known[2])  # (Snapshot.from_view, without its call)
        s.track(self.tracker, view)
        if rules.pile_draw and any(isinstance(a, DrawFromPile) for a in legal):
            s.discard_pile = parse_tokens(view["discard_pile"])
        return choose(s, legal)


class EasyBot(GreedyBot):
    """The ``easy`` difficulty: greedy that never buys and, with probability ``mistakes`` (default
    0.35), draws or discards at random instead of by plan."""

    name = "easy"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        # ``mistakes`` is read from ``options``: mypyc 2.4 fails to build a subclass's ``__init__``
        # that names a parameter between defaulted ones and ``**options``.
        mistakes = options.pop("mistakes", 0.35)
        super().__init__(seed=seed, **options)
        if isinstance(mistakes, bool) or not isinstance(mistakes, int | float) or not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes must be a number between 0 and 1, got {mistakes!r}")
        self.mistakes = float(mistakes)

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        choice = super().act(view, legal)
        if isinstance(choice, Buy):
            return next((a for a in legal if isinstance(a, Pass)), choice)
        if isinstance(choice, Discard | DrawStock | DrawDiscard) and self.rng.random() < self.mistakes:
            same = [a for a in legal if isinstance(a, Discard | DrawStock | DrawDiscard) and type(a) is type(choice)]
            if isinstance(choice, DrawStock | DrawDiscard):
                same = [a for a in legal if isinstance(a, DrawStock | DrawDiscard)]
            return same[self.rng.randrange(len(same))]
        return choice

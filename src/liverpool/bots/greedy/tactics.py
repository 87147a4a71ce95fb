"""What the greedy bot derives from one rule set (:class:`Tactics`: constants and memo tables, shared by
equal rule sets), and the constants the deficit's tables share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ...melds import run_starts, run_wild_cap, set_wild_cap, value_rank
from ...rules import RuleSet, cached_rules

_MEMO_LIMIT: Final = 1 << 14

_Rec = Callable[[int, int, list[int], list[int], list[int], list[int], int, int, int], None]
"""The recursive step of :func:`_measure`'s run search."""
_Leaf = Callable[[list[int], list[int], int, int, int], None]
"""The end of a branch of :func:`_measure`'s run search."""
_Part = Callable[[list[int], list[int]], tuple[int, int, int, int]]
"""The sets part of :func:`_measure`."""
_BIG: Final = 1 << 20
_COST_SHIFT: Final = 24
"""Packed DP states (:func:`_whole_plan`): cost above this bit, places missing from
:data:`_MISS_SHIFT`, ranks kept below."""
_MISS_SHIFT: Final = 16
_NO_STATE: Final = 1 << 50
_UNPLANNED: Final[tuple[int, ...]] = ()
"""The keep of a memo entry holding the deficit without its plan (:func:`deficits_without`)."""
_AT_LEAST: Final[tuple[int, ...]] = (-1,)
"""The keep of a memo entry of :func:`deficit_of` holding only a lower bound of the deficit."""


class Tactics:
    """What the bots derive from one rule set (constants and memo tables)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.wild = rules.wild_rank if rules.wild_rank is not None else 0
        self.pts = tuple(rules.points(r) for r in range(16))  # 15: a dead deuce
        # R46: the engine's answer (RuleSet.is_wild) for each rank, asked once per rule set (15: a
        # dead deuce, never wild); the bot's one source of which cards are wild
        self.wild_of: tuple[bool, ...] = tuple(rules.is_wild(r) for r in range(16))
        # R46: the run place a dead deuce (dead_discarded_wild) holds, a natural 2 where the wild
        # rank has its place in runs (melds.natural_rank); 0: none (it fits no run)
        self.dead_place = 2 if rules.dead_discarded_wild and rules.wild_rank_place == "wild" else 0
        # per card code (suit index + 1) * 16 + rank, 0 for a joker: None for a wild card, else
        # (suit index, rank bit, rank) of the natural it counts as in the deficit's masks (a dead
        # deuce at its run place; with none, (0, 0, 0): no bit, counted apart)
        place: list[tuple[int, int, int] | None] = []
        for code in range(80):
            r = code & 15
            if self.wild_of[r]:  # the engine's answer, as above
                place.append(None)
                continue
            if r == 15:
                r = self.dead_place
                if not r:
                    place.append((0, 0, 0))
                    continue
            place.append(((code >> 4) - 1, 1 << r, r))
        self.code_place: tuple[tuple[int, int, int] | None, ...] = tuple(place)
        self.set_min = rules.set_min
        self.set_cap = set_wild_cap(rules.set_min, rules)  # wild cards a minimal set may hold (R18)
        self.set_distinct = bool(rules.set_distinct_suits)  # at going down ("laydown" too)
        self.set_max = rules.set_max if rules.set_max is not None else 99
        self.sets_distinct = rules.sets_distinct_ranks
        self.run_min = length = rules.run_min
        self.run_cap = run_wild_cap(length, rules)  # R19: the run's wild-card limit
        self.runs_distinct = rules.runs_distinct_suits
        top = rules.run_top
        self.top = top
        wins = []
        for a in run_starts(length, rules):  # R3, R46: the ace, the corner, the wild rank's place
            mask = 0
            for v in range(a, a + length):
                mask |= 1 << value_rank(v)
            wins.append((a, mask))
        self.windows: tuple[tuple[int, int], ...] = tuple(wins)
        self.memo: dict[tuple[bytes, int, int, bool], tuple[int, tuple[int, ...], int]] = {}
        self.window_memo: dict[int, tuple[tuple[int, int], ...]] = {}
        self.suit_memo: dict[tuple[int, int, int, int, bool], tuple[int, int, int]] = {}
        self.whole_memo: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        self.plan_memo: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self.table_memo: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        self.use_rows: dict[tuple[bool, bool, int], list[float]] = {}
        self.related_rows: dict[tuple[bool, bool, int], list[bool]] = {}
        self.ranks_of: dict[int, tuple[int, ...]] = {}  # a rank mask's ranks, in order
        self.accept_memo: dict[tuple[Any, ...], tuple[frozenset[int], bool]] = {}


_TACTICS: dict[int, tuple[RuleSet, Tactics]] = {}
_TACTICS_BY_RULES: dict[RuleSet, Tactics] = {}


def tactics(rules: RuleSet) -> Tactics:
    """The :class:`Tactics` of ``rules`` (cached; equal rule sets share one, memo tables included,
    so that a tournament's games reuse what earlier games worked out)."""
    hit = _TACTICS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_TACTICS) > 64:
        _TACTICS.clear()
    t = _TACTICS_BY_RULES.get(rules)
    if t is None:
        if len(_TACTICS_BY_RULES) > 16:
            _TACTICS_BY_RULES.clear()
        t = _TACTICS_BY_RULES[rules] = Tactics(rules)
    _TACTICS[id(rules)] = (rules, t)
    return t


def rules_for_view(view: dict[str, Any]) -> RuleSet:
    """The RuleSet of a view's ``rules`` dict, cached (a game hands out the same dict each time)."""
    return cached_rules(view["rules"])

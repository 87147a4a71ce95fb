"""The general search, for the meld variants of issue 16 (``RuleSet.meld_variant``: wild limits other
than R19's spacing, all-wild melds, an ace high only or at both ends, runs turning the corner, a wild
rank with no place of its own, sets of the wild rank). The tables of the default search build in
R19's spacing and values 1-14; this search instead lists the shapes a hand's melds can take, each
judged by melds.py (the one home of these rules), and picks melds among them.

A shape is (kind, key, naturals, pattern): a set's key is its rank (0: all wild), a run's its suit
("": all wild); ``pattern`` is the meld in table order with None where a wild card stands. The wild
cards a solution melds are always those worth the most points (the card that must be used first).

>>> from liverpool.cards import format_cards, parse_cards
>>> rules = RuleSet(run_wild_limit="none")
>>> [format_cards(m) for m in solve_variant(parse_cards("5S JK JK 8S 9C"), 0, 1, rules)]
['5S JK JK 8S']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product

from ..cards import DEAD_RANK, JOKER, SUITS, Card
from ..melds import _run_wilds_ok, is_valid_set, run_starts, value_rank
from ..rules import RuleSet
from .tables import _ctx

__all__ = ["solve_variant"]

_Shape = tuple[str, "int | str", tuple[Card, ...], tuple["Card | None", ...]]

_LIMIT = 1 << 14


def _set_shapes(rules: RuleSet, hand: Sequence[Card], nwild: int, exact: bool) -> list[_Shape]:
    """Every set the hand can lay (R11, R18, R46 natural sets), naturals by rank and suit."""
    counts = bytes(min(hand.count(c), 255) for c in _NATURAL_CARDS)
    memo = _ctx(rules).variant_memo
    key = ("sets", counts, nwild, exact)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _set_shapes_of(rules, hand, nwild, exact)
    return found  # type: ignore[return-value]


_NATURAL_CARDS = [Card(r, s) for s in SUITS for r in (*range(1, 14), DEAD_RANK)]  # R46: dead deuces too


def _natural(rules: RuleSet, rank: int, suit: str) -> Card:
    """The natural card of ``rank`` and ``suit`` in a meld: at the wild rank's place (deuces
    wild) only a dead deuce is natural (R46 ``dead_discarded_wild``)."""
    return Card(DEAD_RANK, suit) if rank == rules.wild_rank and rules.dead_discarded_wild else Card(rank, suit)


def _set_shapes_of(rules: RuleSet, hand: Sequence[Card], nwild: int, exact: bool) -> list[_Shape]:
    wr = rules.wild_rank
    out: list[_Shape] = []
    high = rules.set_min if exact else (rules.set_max if rules.set_max is not None else 99)
    distinct = rules.set_distinct_suits is not False
    for r in range(1, 14):
        if r == wr and not rules.wild_rank_natural_sets:
            continue
        per_suit = [(Card(r, s), hand.count(Card(r, s))) for s in SUITS]
        if r == wr and rules.dead_discarded_wild:  # R46: dead deuces are natural deuces
            per_suit += [(Card(DEAD_RANK, s), hand.count(Card(DEAD_RANK, s))) for s in SUITS]
        per_suit = [(c, k) for c, k in per_suit if k]
        if not per_suit:
            continue
        for counts in product(*(range(min(k, 1) if distinct else k, -1, -1) for _, k in per_suit)):
            naturals = tuple(c for (c, _), k in zip(per_suit, counts, strict=True) for _ in range(k))
            n = len(naturals)
            if not n:
                continue
            # in a set of the wild rank every deuce is judged a natural deuce (R46, R11): only the
            # jokers may fill its wild places
            spare = hand.count(JOKER) if r == wr else nwild
            for w in range(max(0, rules.set_min - n), min(high - n, spare) + 1):
                if is_valid_set([*naturals, *[JOKER] * w], rules):
                    out.append(("set", r, naturals, (*naturals, *[None] * w)))
    if rules.set_min_naturals == 0:
        for w in range(rules.set_min, min(high, nwild) + 1):
            if is_valid_set([JOKER] * w, rules):
                out.append(("set", 0, (), (None,) * w))
    return out


def _run_shapes(
    rules: RuleSet, hand: Sequence[Card], nwild: int, exact: bool, whole: bool, loose: bool = True
) -> list[_Shape]:
    """The runs the hand can lay (R3, R12, R19 as the variants read them): for each suit, first
    place and length, the naturals in place and wild cards elsewhere; wild cards also stand where
    the hand holds the natural (freeing it, or melding a wild card worth more) in runs of the
    least length, or in a whole-hand deal any length (there, unless ``loose``, as when the deal has
    sets too, only where the hand holds that natural twice: a freed natural must go to another run)."""
    wr = rules.wild_rank
    out: list[_Shape] = []
    memo = _ctx(rules).variant_memo
    for suit in SUITS:
        # (a dead deuce, R46, holds the wild rank's place: the only card held of that rank)
        held = frozenset(2 if c.rank == DEAD_RANK else c.rank for c in hand if c.suit == suit and c.rank != wr)
        if not held:
            continue
        # (with a limit by count, a wild card and a natural held once trade places between two runs)
        counted = rules.run_wild_limit != "spacing"
        movable = (
            held
            if loose or not whole or not counted
            else frozenset(r for r in held if hand.count(_natural(rules, r, suit)) > 1)
        )
        key = ("runs", suit, held, movable, nwild, exact, whole)
        found = memo.get(key)
        if found is None:
            found = _suit_shapes(rules, suit, held, movable, nwild, exact, whole)
            if len(memo) > _LIMIT:
                memo.clear()
            memo[key] = found
        out.extend(found)  # type: ignore[arg-type]
    if rules.run_min_naturals == 0:
        longest = rules.run_min if exact else rules.run_len_max
        for n in range(rules.run_min, min(longest, nwild) + 1):
            if run_starts(n, rules) and _run_wilds_ok([JOKER] * n, rules):
                out.append(("run", "", (), (None,) * n))
    return out


def _suit_shapes(
    rules: RuleSet, suit: str, held: frozenset[int], movable: frozenset[int], nwild: int, exact: bool, whole: bool
) -> list[_Shape]:
    """The runs of one suit (:func:`_run_shapes`) whose naturals are of the ranks ``held``; a wild
    card stands at a held place only where its rank is ``movable``."""
    out: list[_Shape] = []
    longest = rules.run_min if exact else rules.run_len_max
    for n in range(rules.run_min, longest + 1):
        for a in run_starts(n, rules):
            ranks = [value_rank(a + i) for i in range(n)]
            places = [i for i, r in enumerate(ranks) if r in held]  # (the wild rank: a dead deuce)
            missing = n - len(places)
            if missing > nwild or not places:
                continue
            extras = nwild - missing if (whole or n == rules.run_min) else 0
            spare = [i for i in places if ranks[i] in movable] if extras else []
            for j in range(min(extras, len(spare)) + 1):
                for gone in combinations(spare, j):
                    if j == len(places) and rules.run_min_naturals:
                        continue
                    pattern = [
                        _natural(rules, r, suit) if i in places and i not in gone else None for i, r in enumerate(ranks)
                    ]
                    if not _run_wilds_ok([JOKER if c is None else c for c in pattern], rules):
                        continue
                    naturals = tuple(c for c in pattern if c is not None)
                    if not naturals:
                        continue
                    out.append(("run", suit, naturals, tuple(pattern)))
    return out


def solve_variant(
    hand: Sequence[Card],
    nsets: int,
    nruns: int,
    rules: RuleSet,
    *,
    whole: bool = False,
    must: Card | None = None,
    used_ranks: frozenset[int] = frozenset(),
    used_suits: frozenset[str] = frozenset(),
    first: bool = False,
) -> list[list[Card]] | None:
    """``nsets`` sets then ``nruns`` runs from ``hand`` leaving the fewest points (``first``: any),
    as :func:`liverpool.solver.solve` answers for the default rules; runs in table order. An
    all-wild run comes as its wild cards (its lay-down declares what it stands for)."""
    if nsets < 0 or nruns < 0:
        raise ValueError(f"sets and runs must be 0 or more, got {nsets} and {nruns}")
    if not rules.sets_distinct_ranks:
        used_ranks = frozenset()
    if not rules.runs_distinct_suits:
        used_suits = frozenset()
    memo = _ctx(rules).variant_memo
    key = ("solve", bytes(sorted(hand)), nsets, nruns, whole, must, used_ranks, used_suits, first)
    if key in memo:
        hit: list[list[Card]] | None = memo[key]  # type: ignore[assignment]
        return None if hit is None else [list(m) for m in hit]
    res = _search(hand, nsets, nruns, rules, whole, must, used_ranks, used_suits, first)
    if len(memo) > _LIMIT:
        memo.clear()
    memo[key] = res
    if res is not None and not first:
        memo[(*key[:-1], True)] = res
    return None if res is None else [list(m) for m in res]


def _search(
    hand: Sequence[Card],
    nsets: int,
    nruns: int,
    rules: RuleSet,
    whole: bool,
    must: Card | None,
    used_ranks: frozenset[int],
    used_suits: frozenset[str],
    first: bool,
) -> list[list[Card]] | None:
    if nsets == 0 and nruns == 0:
        return None if must is not None or (whole and hand) else []
    if len(hand) < nsets * rules.set_min + nruns * rules.run_min:
        return None
    exact = rules.exact_melds and not whole
    is_wild = rules.is_wild
    points = rules.points
    wild_cards = sorted((c for c in hand if is_wild(c.rank)), key=lambda c: (c != must, -points(c.rank), c.code))
    nwild = len(wild_cards)
    set_shapes = _set_shapes(rules, hand, nwild, exact) if nsets else []
    if whole and not nsets:
        # (R15) runs alone cannot take more cards than their longest, nor a card more often than once each
        if len(hand) > nruns * rules.run_len_max:
            return None
        copies: dict[Card, int] = {}
        for c in hand:
            if not is_wild(c.rank):
                copies[c] = copies.get(c, 0) + 1
        if copies and max(copies.values()) > nruns * (2 if rules.run_len_max == 14 else 1):
            return None
    run_shapes = _run_shapes(rules, hand, nwild, exact, whole, loose=bool(nsets)) if nruns else []
    if (nsets and not set_shapes) or (nruns and not run_shapes):
        return None
    left: dict[Card, int] = {}
    for c in hand:
        left[c] = left.get(c, 0) + 1
    kinds = list(dict.fromkeys(wild_cards))
    best: list[tuple[list[_Shape], list[Card]] | None] = [None]
    best_points = [-1]
    chosen: list[_Shape] = []
    nmelds = nsets + nruns

    def finish(pending: int, melded: int) -> None:
        free = [c for c in kinds for _ in range(left[c])]
        if pending > len(free):
            return
        if whole and (pending != len(free) or any(k for c, k in left.items() if k and not is_wild(c.rank))):
            return
        fill = free[:pending]
        if must is not None and left.get(must, 0) == hand.count(must) and must not in fill:
            return
        melded += sum(points(c.rank) for c in fill)
        if melded > best_points[0]:
            best[0] = (list(chosen), fill)
            best_points[0] = melded

    def taken(is_set: bool, key: int | str) -> bool:
        if is_set:
            return (
                rules.sets_distinct_ranks
                and bool(key)
                and (key in used_ranks or any(m[0] == "set" and m[1] == key for m in chosen))
            )
        return (
            rules.runs_distinct_suits
            and bool(key)
            and (key in used_suits or any(m[0] == "run" and m[1] == key for m in chosen))
        )

    # the closures reach one another through lists emptied after the search (mypyc keeps a closure
    # that another one names in their shared environment: a reference cycle, and it cannot del one)
    finishing: list[Callable[[int, int], None]] = [finish]
    taking: list[Callable[[bool, int | str], bool]] = [taken]
    recurse: list[Callable[[int, int, int, int, int], bool]] = []

    def rec(level: int, start: int, pending: int, melded: int, rest: int) -> bool:
        if level == nmelds:
            finishing[0](pending, melded)
            return first and best[0] is not None
        if not first and melded + rest <= best_points[0]:
            return False  # even melding every card left would not do better
        is_set = level < nsets
        pool = set_shapes if is_set else run_shapes
        if level == nsets:
            start = 0
        # a whole hand: the runs left take every natural; the next holds the first one left
        anchor: Card | None = None
        if whole and not is_set:
            anchor = next((c for c in sorted(left) if left[c] and not is_wild(c.rank)), None)
        for i in range(start, len(pool)):
            shape = pool[i]
            _, key, naturals, pattern = shape
            if anchor is not None and anchor not in naturals:
                continue
            if taking[0](is_set, key):
                continue
            for c in naturals:
                left[c] -= 1
            if all(left[c] >= 0 for c in naturals):
                w = len(pattern) - len(naturals)
                if pending + w <= sum(left[c] for c in kinds):
                    gain = sum(points(c.rank) for c in naturals)
                    chosen.append(shape)
                    # (a whole hand's runs come by their first natural, not by their order in the pool)
                    nxt = 0 if anchor is not None else i
                    done = recurse[0](level + 1, nxt, pending + w, melded + gain, rest - gain)
                    chosen.pop()
                    if done:
                        for c in naturals:
                            left[c] += 1
                        return True
            for c in naturals:
                left[c] += 1
        return False

    recurse.append(rec)
    rec(0, 0, 0, 0, sum(points(c.rank) for c in hand))
    finishing.clear()
    taking.clear()
    recurse.clear()
    found = best[0]
    if found is None:
        return None
    melds, fill = found
    it = iter(fill)
    return [[next(it) if c is None else c for c in shape[3]] for shape in melds]

"""Melds: sets and runs, their validity, laying off, and the points of a hand.

A run is given in table order, lowest first, each wild card at the place of the card it stands
for; its first card's value (1-14, an ace high is 14) is its ``start``.

>>> from liverpool import RuleSet, parse_cards
>>> rules = RuleSet()
>>> is_valid_run(parse_cards("JK 2H 3H 4H"), rules)   # the joker is the ace, low
True
>>> is_valid_run(parse_cards("KH AH 2H 3H"), rules)   # no wrap (R3)
False
>>> is_valid_set(parse_cards("7H 7C JK"), rules)
True
>>> hand_points(parse_cards("AS 9D 10C JK"), rules)
45
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import DEAD_RANK, JOKER, SUITS, Card
from .rules import RuleSet

__all__ = [
    "can_extend_run",
    "can_extend_set",
    "hand_points",
    "is_valid_run",
    "is_valid_set",
    "meld_accepts",
    "natural_rank",
    "run_start",
    "run_starts",
    "run_value",
    "run_wild_cap",
    "set_rank",
    "set_wild_cap",
    "value_rank",
]


def hand_points(cards: Iterable[Card], rules: RuleSet) -> int:
    """Points of cards left in hand (R40, R49)."""
    points = rules.points
    return sum(points(card.rank) for card in cards)


def set_rank(cards: Sequence[Card], rules: RuleSet) -> int | None:
    """The rank of a set's natural cards, or None when they differ or there are none."""
    wild = rules.wild_rank
    dead_natural = rules.meld_variant and rules.wild_rank_natural_sets  # R46: a dead deuce is a natural 2
    rank = 0
    if not dead_natural:  # the usual rules: the loop below less what only that variant asks
        for card in cards:
            r = card.rank
            if r in (0, wild):
                continue
            if rank and r != rank:
                return None
            rank = r
        return rank or None
    for card in cards:
        r = card.rank
        if r in (0, wild):
            continue
        if r == DEAD_RANK and dead_natural:
            r = 2
        if rank and r != rank:
            return None
        rank = r
    if rank == wild:  # dead deuces (a natural 2 each) in a set of deuces
        return rank
    if not rank and rules.meld_variant and rules.wild_rank_natural_sets and wild:
        return _wild_rank_set(cards, wild)
    return rank or None


def _wild_rank_set(cards: Sequence[Card], wild: int) -> int | None:
    """R46 ``wild_rank_natural_sets``: a set whose cards are all of the wild rank or jokers, with one
    of the wild rank at least, is a set of that rank (its cards of the wild rank are natural)."""
    return wild if any(c.rank == wild for c in cards) else None


def is_valid_set(cards: Sequence[Card], rules: RuleSet) -> bool:
    """R11, R18: a set of one rank, long enough, with enough natural cards.

    >>> from liverpool import RuleSet, parse_cards
    >>> is_valid_set(parse_cards("5D 5D 5H"), RuleSet.preset("contract"))  # two 5D (R11)
    False
    """
    n = len(cards)
    if n < rules.set_min or (rules.set_max is not None and n > rules.set_max):
        return False
    return _set_ok(cards, rules)


def _set_ok(cards: Sequence[Card], rules: RuleSet) -> bool:
    if rules.meld_variant:
        return _set_ok_variant(cards, rules, rules.set_distinct_suits is not False)
    wild = rules.wild_rank
    rank = 0
    naturals = 0
    suits: set[str] = set()
    for card in cards:
        r = card.rank
        if r in (0, wild):
            continue
        if rank and r != rank:
            return False
        rank = r
        naturals += 1
        if rules.set_distinct_suits:
            if card.suit in suits:
                return False
            suits.add(card.suit)
    return naturals >= rules.set_min_naturals


def _set_naturals(cards: Sequence[Card], rules: RuleSet) -> tuple[int | None, list[Card]]:
    """A set's rank (None: none, or naturals of two ranks: then the list is empty and the rank 0)
    and its natural cards, the wild rank's natural in a set of that rank (R46)."""
    rank = set_rank(cards, rules)
    wild = rules.wild_rank
    if rank is None:
        return (0 if any(c.rank not in (0, wild) for c in cards) else None), []
    if rank == wild:  # the wild rank's cards and dead deuces (R46) are its naturals
        return rank, [c for c in cards if c.rank in (wild, DEAD_RANK)]
    return rank, [c for c in cards if c.rank not in (0, wild)]


def _set_ok_variant(cards: Sequence[Card], rules: RuleSet, distinct: bool) -> bool:
    """R11, R18 with the meld variants (``set_wild_limit``, ``set_min_naturals`` 0,
    ``wild_rank_natural_sets``): one rank, enough naturals, wild cards within the limit."""
    rank, naturals = _set_naturals(cards, rules)
    if rank == 0:
        return False
    n = len(naturals)
    if n < rules.set_min_naturals:
        return False
    if rules.set_wild_limit == "ratio" and len(cards) - n > n:
        return False
    return not (distinct and len({c.suit for c in naturals}) != n)


def _can_extend_set_variant(cards: Sequence[Card], card: Card, rules: RuleSet) -> bool:
    """:func:`can_extend_set` with the meld variants: the set keeps its rank (an all-wild set takes
    the rank of its first natural card), lay-offs keep suits distinct as ``layoff_distinct_suits``
    says, and with ``run_joker_check`` "always" the wild limit holds after the lay-off."""
    rank, _ = _set_naturals(cards, rules)
    grown = [*cards, card]
    new_rank, naturals = _set_naturals(grown, rules)
    if new_rank == 0 or (rank is not None and new_rank != rank):
        return False
    if rules.layoff_distinct_suits and len({c.suit for c in naturals}) != len(naturals):
        return False
    n = len(naturals)
    return not (rules.set_wild_limit == "ratio" and rules.run_joker_check == "always" and len(grown) - n > n)


def can_extend_set(cards: Sequence[Card], card: Card, rules: RuleSet) -> bool:
    """R24: may ``card`` be laid off on the set ``cards``?"""
    if rules.set_max is not None and len(cards) >= rules.set_max:
        return False
    if rules.meld_variant:
        return _can_extend_set_variant(cards, card, rules)
    r = card.rank
    if r in (0, rules.wild_rank):
        return True
    rank = set_rank(cards, rules)
    if rank != r:
        return False
    if rules.layoff_distinct_suits:
        return all(c.suit != card.suit or c.rank in (0, rules.wild_rank) for c in cards)
    return True


def natural_rank(rank: int) -> int:
    """The rank a natural card plays at in a meld: a dead deuce (``DEAD_RANK``, R46
    ``dead_discarded_wild``) is a natural 2; every other rank is itself.

    >>> natural_rank(15), natural_rank(7)
    (2, 7)
    """
    return 2 if rank == DEAD_RANK else rank


def run_value(start: int, index: int) -> int:
    """Value (1-14) of the card at ``index`` of a run beginning at ``start``."""
    return start + index


def value_rank(value: int) -> int:
    """The rank (1-13) of a run's place of ``value``: 14 is the ace high; past it (``wrap_around``)
    15 is a 2, and 0 a king.

    >>> value_rank(14), value_rank(15), value_rank(0)
    (1, 2, 13)
    """
    return (value - 1) % 13 + 1


def run_starts(n: int, rules: RuleSet) -> list[int]:
    """R3, R46: the first values a run of ``n`` cards may have, lowest first (``ace``,
    ``wrap_around``, ``wild_rank_place``): with ``wrap_around`` 1-13 (a 14-card run, the ace
    "both", only from the ace), else ``run_low`` to ``run_top - n + 1``; never across the place of
    a rank with none (``run_gap``)."""
    if n > rules.run_len_max or n < 1:
        return []
    if rules.wrap_around:
        starts = range(1, 14) if n < 14 else range(1, 2)
    else:
        starts = range(rules.run_low, rules.run_top - n + 2)
    gap = rules.run_gap
    if not gap:
        return list(starts)
    return [a for a in starts if all(value_rank(v) != gap for v in range(a, a + n))]


def _run_start_variant(cards: Sequence[Card], rules: RuleSet, declared: Card | None) -> int | None:
    """:func:`run_start` with the meld variants; an all-wild run starts where it is ``declared``
    (the natural card its first place stands for, as ``Meld.declared``)."""
    wild = rules.wild_rank
    suit = ""
    fixed: list[tuple[int, int]] = []
    for i, card in enumerate(cards):
        r = card.rank
        if r in (0, wild):
            continue
        if suit and card.suit != suit:
            return None
        suit = card.suit
        fixed.append((i, natural_rank(r)))
    starts = run_starts(len(cards), rules)
    if not fixed:
        first = None if declared is None else declared.rank
        return first if first in starts else None
    for a in starts:
        if all(value_rank(a + i) == r for i, r in fixed):
            return a
    return None


def set_wild_cap(length: int, rules: RuleSet) -> int:
    """R18: the most wild cards a set of ``length`` cards may hold: all but ``set_min_naturals``,
    and with ``set_wild_limit`` "ratio" never more than its natural cards. The one home of the
    set's wild-card limit as a count (the checks, :func:`_set_ok` and :func:`_set_ok_variant`,
    agree with it); the greedy bot's tables read it.

    >>> set_wild_cap(3, RuleSet()), set_wild_cap(5, RuleSet(set_wild_limit="ratio"))
    (1, 2)
    """
    cap = length - rules.set_min_naturals
    return min(cap, length // 2) if rules.set_wild_limit == "ratio" else cap


def run_wild_cap(length: int, rules: RuleSet) -> int:
    """R19: the most wild cards a run of ``length`` cards may hold: with ``run_wild_limit``
    "spacing" one in any 4 consecutive cards (``(length + 3) // 4``), "ratio" and "half" at most
    half (rounded down), "none" any, and never more than ``length - run_min_naturals``. The one
    home of the run's wild-card limit as a count (the checks, :func:`_run_wilds_ok`, agree with it);
    the solver's tables and the greedy bot's read it.

    >>> run_wild_cap(4, RuleSet()), run_wild_cap(8, RuleSet()), run_wild_cap(7, RuleSet(run_wild_limit="ratio"))
    (1, 2, 3)
    """
    mode = rules.run_wild_limit
    most = (length + 3) // 4 if mode == "spacing" else length // 2 if mode in ("ratio", "half") else length
    return max(0, min(most, length - rules.run_min_naturals))


def _run_wilds_ok(cards: Sequence[Card], rules: RuleSet) -> bool:
    """R19 ``run_wild_limit``: "spacing" (one wild card in any 4 consecutive cards), "ratio" (never
    more wild than natural cards), "half" (at most half the cards, rounded down: the same count),
    "none"; and at least ``run_min_naturals`` natural cards."""
    wild = rules.wild_rank
    k = sum(1 for c in cards if c.rank in (0, wild))
    if len(cards) - k < rules.run_min_naturals:
        return False
    mode = rules.run_wild_limit
    if mode == "spacing":
        return _wild_spacing_ok(cards, rules)
    if mode == "ratio":
        return k <= len(cards) - k
    if mode == "half":
        return k <= len(cards) // 2
    return True


def run_start(cards: Sequence[Card], rules: RuleSet, declared: Card | None = None) -> int | None:
    """The value of a run's first card, or None when ``cards`` do not form a run of one suit in
    table order (any length, R19 not checked). ``declared``: for an all-wild run
    (``run_min_naturals`` 0), the natural card its first place stands for, as ``Meld.declared``
    (one meaning of ``declared`` everywhere: a card).
    """
    if rules.meld_variant:
        return _run_start_variant(cards, rules, declared)
    wild = rules.wild_rank
    top = rules.run_top
    n = len(cards)
    if n > 13:  # R3: an ace is low or high, never both
        return None
    suit = ""
    candidates: tuple[int, ...] = ()
    for i, card in enumerate(cards):
        r = card.rank
        if r in (0, wild):
            continue
        if suit and card.suit != suit:
            return None
        if not suit:
            suit = card.suit
            candidates = (1 - i, 14 - i) if r == 1 else (r - i,)
            candidates = tuple(s for s in candidates if s >= 1 and s + n - 1 <= top)
            continue
        candidates = tuple(s for s in candidates if s + i == r or (r == 1 and s + i == 14))
        if not candidates:
            return None
    if not suit or not candidates:
        return None
    return candidates[0]


def _wild_spacing_ok(cards: Sequence[Card], rules: RuleSet) -> bool:
    """R19: every 4 consecutive cards hold at most one wild card."""
    wild = rules.wild_rank
    last = -4
    for i, card in enumerate(cards):
        r = card.rank
        if r in (0, wild):
            if i - last < 4:
                return False
            last = i
    return True


def is_valid_run(cards: Sequence[Card], rules: RuleSet, declared: Card | None = None) -> bool:
    """R3, R12, R17, R19: a run in table order, long enough, one suit, no wrap (``declared``: as
    :func:`run_start`).

    >>> from liverpool import RuleSet, parse_cards
    >>> rules = RuleSet()
    >>> is_valid_run(parse_cards("JH QH KH AH"), rules), is_valid_run(parse_cards("7H 8H JK JK"), rules)
    (True, False)
    """
    if len(cards) < rules.run_min:
        return False
    if rules.meld_variant:
        return _run_start_variant(cards, rules, declared) is not None and _run_wilds_ok(cards, rules)
    return run_start(cards, rules) is not None and _wild_spacing_ok(cards, rules)


def can_extend_run(cards: Sequence[Card], start: int, card: Card, high: bool, rules: RuleSet, suit: str = "") -> bool:
    """R24: may ``card`` be laid off at the high (or low) end of the run ``cards`` beginning at
    ``start``? R19 is checked unless ``rules.run_joker_check`` is "initial". ``suit``: the suit
    of an all-wild run (as declared).
    """
    if rules.meld_variant:
        return _can_extend_run_variant(cards, start, card, high, rules, suit)
    if len(cards) >= 13:  # R3: an ace is never both low and high in one run
        return False
    r = card.rank
    is_wild = r in (0, rules.wild_rank)
    if high:
        value = start + len(cards)
        if value > rules.run_top:
            return False
    else:
        value = start - 1
        if value < 1:
            return False
    if not is_wild:
        suit = next(c.suit for c in cards if c.rank not in (0, rules.wild_rank))
        return card.suit == suit and (r == value or (r == 1 and value == 14))
    if rules.run_joker_check != "always":
        return True
    wild = rules.wild_rank
    edge = cards[-3:] if high else cards[:3]
    return not any(c.rank in (0, wild) for c in edge)


def _can_extend_run_variant(
    cards: Sequence[Card], start: int, card: Card, high: bool, rules: RuleSet, suit: str
) -> bool:
    """:func:`can_extend_run` with the meld variants (R3 ``ace``, ``wrap_around``, R46
    ``wild_rank_place``, R19 ``run_wild_limit``)."""
    n = len(cards) + 1
    if n > rules.run_len_max:
        return False
    value = start + n - 1 if high else start - 1
    if rules.wrap_around:
        if n == 14 and value_rank(start if high else value) != 1:
            return False  # 14 cards: the ace at both ends only
    elif not rules.run_low <= value <= rules.run_top:
        return False
    if value_rank(value) == rules.run_gap:
        return False
    if not rules.is_wild(card.rank):
        own = suit or next((c.suit for c in cards if not rules.is_wild(c.rank)), "")
        return card.suit == own and natural_rank(card.rank) == value_rank(value)
    if rules.run_joker_check != "always":
        return True
    return _run_wilds_ok([*cards, card] if high else [card, *cards], rules)


def meld_accepts(
    kind: str, cards: Sequence[Card], start: int, rules: RuleSet, suit: str = ""
) -> list[tuple[Card | None, bool]]:
    """R24 with the meld variants: the cards the meld accepts as lay-offs, as (card, at the high
    end) pairs, None for any wild card, each asked of :func:`can_extend_set` /
    :func:`can_extend_run` (the engine's listing and the bots' table knowledge read it).
    Remembered per meld (the caller must not change the list)."""
    key = (id(rules), kind, bytes(cards), start, suit)
    hit = _ACCEPTS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out = _meld_accepts(kind, cards, start, rules, suit)
    if len(_ACCEPTS) > 4096:
        _ACCEPTS.clear()
    _ACCEPTS[key] = (rules, out)
    return out


_ACCEPTS: dict[tuple[int, str, bytes, int, str], tuple[RuleSet, list[tuple[Card | None, bool]]]] = {}


def _meld_accepts(
    kind: str, cards: Sequence[Card], start: int, rules: RuleSet, suit: str
) -> list[tuple[Card | None, bool]]:
    out: list[tuple[Card | None, bool]] = []
    wild = rules.wild_rank
    if kind == "set":
        rank, _ = _set_naturals(cards, rules)
        ranks = [r for r in range(1, 14) if r != wild] if rank is None else [rank] if rank != wild else []
        if rank == wild and rules.dead_discarded_wild:  # R46: a dead deuce is a natural of a set of deuces
            ranks = [DEAD_RANK]
        out.extend((c, True) for r in ranks for s in SUITS if can_extend_set(cards, c := Card(r, s), rules))
        if can_extend_set(cards, JOKER, rules):
            out.append((None, True))
        return out
    own = suit or next((c.suit for c in cards if not rules.is_wild(c.rank)), "")
    for high in (False, True):
        value = start + len(cards) if high else start - 1
        rank = value_rank(value)
        if rank == wild and rules.dead_discarded_wild:  # R46: a dead deuce is the natural 2 of its suit
            rank = DEAD_RANK
        if own and rank != wild and can_extend_run(cards, start, natural := Card(rank, own), high, rules, suit):
            out.append((natural, high))
        if can_extend_run(cards, start, JOKER, high, rules, suit):
            out.append((None, high))
    return out

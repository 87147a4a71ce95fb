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

from .cards import Card
from .rules import RuleSet

__all__ = [
    "can_extend_run",
    "can_extend_set",
    "find_contract",
    "hand_points",
    "is_valid_run",
    "is_valid_set",
    "run_start",
    "run_value",
    "set_rank",
]


def hand_points(cards: Iterable[Card], rules: RuleSet) -> int:
    """Points of cards left in hand (R40, R49)."""
    points = rules.points
    return sum(points(card.rank) for card in cards)


def set_rank(cards: Sequence[Card], rules: RuleSet) -> int | None:
    """The rank of a set's natural cards, or None when they differ or there are none."""
    wild = rules.wild_rank
    rank = 0
    for card in cards:
        r = card.rank
        if r in (0, wild):
            continue
        if rank and r != rank:
            return None
        rank = r
    return rank or None


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


def can_extend_set(cards: Sequence[Card], card: Card, rules: RuleSet) -> bool:
    """R24: may ``card`` be laid off on the set ``cards``?"""
    if rules.set_max is not None and len(cards) >= rules.set_max:
        return False
    r = card.rank
    if r in (0, rules.wild_rank):
        return True
    rank = set_rank(cards, rules)
    if rank != r:
        return False
    if rules.layoff_distinct_suits:
        return all(c.suit != card.suit or c.rank in (0, rules.wild_rank) for c in cards)
    return True


def run_value(start: int, index: int) -> int:
    """Value (1-14) of the card at ``index`` of a run beginning at ``start``."""
    return start + index


def run_start(cards: Sequence[Card], rules: RuleSet) -> int | None:
    """The value of a run's first card, or None when ``cards`` do not form a run of one suit in
    table order (any length, R19 not checked).
    """
    wild = rules.wild_rank
    top = 14 if rules.ace_high else 13
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


def is_valid_run(cards: Sequence[Card], rules: RuleSet) -> bool:
    """R3, R12, R17, R19: a run in table order, long enough, one suit, no wrap.

    >>> from liverpool import RuleSet, parse_cards
    >>> rules = RuleSet()
    >>> is_valid_run(parse_cards("JH QH KH AH"), rules), is_valid_run(parse_cards("7H 8H JK JK"), rules)
    (True, False)
    """
    if len(cards) < rules.run_min:
        return False
    return run_start(cards, rules) is not None and _wild_spacing_ok(cards, rules)


def can_extend_run(cards: Sequence[Card], start: int, card: Card, high: bool, rules: RuleSet) -> bool:
    """R24: may ``card`` be laid off at the high (or low) end of the run ``cards`` beginning at
    ``start``? R19 is checked unless ``rules.run_joker_check`` is "initial".
    """
    if len(cards) >= 13:  # R3: an ace is never both low and high in one run
        return False
    r = card.rank
    is_wild = r in (0, rules.wild_rank)
    if high:
        value = start + len(cards)
        if value > (14 if rules.ace_high else 13):
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


def find_contract(hand: Sequence[Card], deal: int, rules: RuleSet) -> list[list[Card]] | None:
    """Melds drawn from ``hand`` that meet deal ``deal``'s contract (1-based), leaving the fewest
    points in hand; None when the hand cannot meet it. Runs are in table order. In a whole-hand
    deal (R15) the melds use every card.

    >>> from liverpool import RuleSet, format_cards, parse_cards
    >>> [format_cards(m) for m in find_contract(parse_cards("7H 7S 7D 9C 9D JK 2C"), 1, RuleSet())]
    ['7S 7H 7D', '9D 9C JK']
    """
    from .solver import find_contract as _find

    return _find(hand, deal, rules)

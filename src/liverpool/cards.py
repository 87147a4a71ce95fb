"""Cards, their canonical tokens and decks.

A :class:`Card` is an immutable value: two cards of the same rank and suit are equal (several packs
hold several equal cards). Cards are interned, so ``Card(7, "H") is Card(7, "H")``.

>>> parse_cards("7H 10s JK A♠")
[Card('7H'), Card('10S'), Card('JK'), Card('AS')]
>>> format_cards(parse_cards("t♥, qd"))
'10H QD'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, Final

__all__ = [
    "CARD_NAMES",
    "DEAD_DEUCES",
    "DEAD_RANK",
    "JOKER",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "Card",
    "card_names",
    "format_cards",
    "full_deck",
    "parse_card",
    "parse_cards",
    "parse_tokens",
]

SUITS: Final = ("S", "H", "D", "C")
"""Suit letters in their canonical order: spades, hearts, diamonds, clubs."""

RANKS: Final = tuple(range(1, 14))
"""Ranks 1 (ace) to 13 (king); a joker has rank 0."""

RANK_NAMES: Final = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Token of each rank, indexed by rank (index 0 is the joker)."""

_SUIT_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_SUIT_PRETTY: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_BY_NAME: Final = {name: rank for rank, name in enumerate(RANK_NAMES) if rank} | {"T": 10, "1": 1}
_SEPARATORS: Final = re.compile(r"[\s,]+")


class Card(int):
    """A playing card: ``rank`` 1-13 (ace to king) and ``suit`` in :data:`SUITS`, or a joker.

    A card is an ``int`` subclass whose value is ``code``, a small integer unique to the card's
    value (``(suit_index + 1) * 16 + rank``, 0 for the joker): equal cards compare, hash and order
    at C speed (by suit, then rank). Cards are interned: ``Card(7, "H") is Card(7, "H")``.

    >>> sorted([Card(13, "H"), Card(1, "S"), Card(0)])
    [Card('JK'), Card('AS'), Card('KH')]
    """

    _interned: ClassVar[dict[tuple[int, str], Card]] = {}

    rank: int
    suit: str
    code: int

    def __new__(cls, rank: int, suit: str = "") -> Card:
        card = cls._interned.get((rank, suit))  # the dead deuces (rank DEAD_RANK) are found here
        if card is not None:
            return card
        if rank == 0:
            if suit not in ("", "*"):
                raise ValueError(f"a joker has no suit, got {suit!r}")
            return cls._make(0, "", 0)
        if not isinstance(rank, int) or not 1 <= rank <= 13:
            raise ValueError(f"rank must be 1-13 (or 0 for a joker), got {rank!r}")
        if suit not in SUITS:
            raise ValueError(f"suit must be one of {' '.join(SUITS)}, got {suit!r}")
        return cls._make(rank, suit, (SUITS.index(suit) + 1) * 16 + rank)

    @classmethod
    def _make(cls, rank: int, suit: str, code: int) -> Card:
        card = int.__new__(cls, code)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "code", code)
        cls._interned[(rank, suit)] = card
        if rank == 0:
            cls._interned[(0, "*")] = card
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: Any) -> Card:
        return self

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank == 0

    @property
    def is_dead(self) -> bool:
        """True for a dead deuce (``dead_discarded_wild``): a deuce that was discarded."""
        return self.rank == DEAD_RANK

    @property
    def live(self) -> Card:
        """The card of the deck this card is: a dead deuce's deuce, else the card itself."""
        return Card(2, self.suit) if self.rank == DEAD_RANK else self

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def pretty(self) -> str:
        """The card with a suit symbol, e.g. ``10♥`` (a dead deuce ``2♥~``)."""
        if self.rank == DEAD_RANK:
            return "2" + _SUIT_PRETTY[self.suit] + "~"
        return "JK" if self.rank == 0 else RANK_NAMES[self.rank] + _SUIT_PRETTY[self.suit]


DEAD_RANK: Final = 15
"""The rank of a dead deuce (option ``dead_discarded_wild``, R46): a deuce once discarded is
dead, a natural card that is never wild again. It is a card value of its own, token ``2H~``, code
``(suit_index + 1) * 16 + 15``, so that the copy a player holds, melds or discards is named by
every action, record, view and position; it counts as the deuce of the deck it is
(:attr:`Card.live`). In melds it is a natural 2 of its suit (``melds.natural_rank``: at the
deuce's place in runs where deuces have one, in sets of deuces with ``wild_rank_natural_sets``;
see ``docs/rules.md`` R46)."""

JOKER: Final = Card(0)
"""The joker (all jokers are equal)."""

DEAD_DEUCES: Final = tuple(Card._make(DEAD_RANK, suit, (i + 1) * 16 + DEAD_RANK) for i, suit in enumerate(SUITS))
"""The dead deuces of each suit (never dealt: a deuce becomes one when discarded)."""

_ALL: Final = (JOKER, *(Card(rank, suit) for suit in SUITS for rank in RANKS), *DEAD_DEUCES)
_names = [""] * (16 * (len(SUITS) + 1))  # indexed by a card's code
for _c in _ALL:
    _names[_c.code] = "JK" if _c.rank == 0 else (RANK_NAMES[_c.rank] if _c.rank <= 13 else "2") + _c.suit
    if _c.rank == DEAD_RANK:
        _names[_c.code] += "~"
_NAMES: Final[tuple[str, ...]] = tuple(_names)
del _names, _c
CARD_NAMES: Final = _NAMES
"""The canonical token of each card, indexed by the card (its code): ``CARD_NAMES[c] == str(c)``."""
_NAME_OF: Final[dict[Card, str]] = {c: _NAMES[c] for c in _ALL}  # a dict's __getitem__ maps faster
_BY_TOKEN: dict[str, Card] = {_NAMES[c]: c for c in _ALL}
_CANONICAL: Final = dict(_BY_TOKEN)


def card_names(cards: Iterable[Card]) -> list[str]:
    """The canonical tokens of ``cards`` (a fast ``[str(c) for c in cards]``).

    >>> card_names([Card(10, "S"), Card(0)])
    ['10S', 'JK']
    """
    return list(map(_NAME_OF.__getitem__, cards))


def parse_tokens(tokens: Iterable[str]) -> list[Card]:
    """The cards of a list of tokens; canonical tokens (as views and records hold) take a fast path.

    >>> parse_tokens(["10S", "jk"])
    [Card('10S'), Card('JK')]
    """
    if not isinstance(tokens, list | tuple):
        tokens = list(tokens)
    try:
        return list(map(_CANONICAL.__getitem__, tokens))
    except (KeyError, TypeError):
        return [parse_card(t) for t in tokens]


def parse_card(token: str) -> Card:
    """Parse one card token (``7H``, ``10s``, ``T♥``, ``JK``, ``*``), in any case.

    >>> parse_card("qs")
    Card('QS')
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    ValueError: not a card: '1X'
    """
    card = _BY_TOKEN.get(token)
    if card is not None:
        return card
    text = token.strip().upper()
    if text in ("JK", "*", "JOKER", "JKR"):
        card = JOKER
    elif text.endswith("~"):  # a dead deuce
        dead = _BY_TOKEN.get(parse_card(text[:-1]).__str__() + "~") if text[:-1] else None
        if dead is None:
            raise ValueError(f"not a card: {token!r} (only a deuce may be dead, e.g. 2H~)")
        card = dead
    else:
        suit = _SUIT_SYMBOLS.get(text[-1:], text[-1:])
        rank = _RANK_BY_NAME.get(text[:-1])
        if rank is None or suit not in SUITS:
            raise ValueError(f"not a card: {token!r}")
        card = Card(rank, suit)
    if len(_BY_TOKEN) < 4096:
        _BY_TOKEN[token] = card
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas (or an iterable of tokens).

    A bad token raises :class:`ValueError` naming it.

    >>> parse_cards("AH, 2h  JK")
    [Card('AH'), Card('2H'), Card('JK')]
    """
    tokens = _SEPARATORS.split(text.strip()) if isinstance(text, str) else list(text)
    return [parse_card(token) for token in tokens if token]


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical tokens joined by spaces; ``parse_cards(format_cards(x)) == x``.

    >>> format_cards([Card(10, "S"), Card(1, "H"), Card(0)])
    '10S AH JK'
    """
    return " ".join(map(str, cards))


def full_deck(packs: int, jokers_per_pack: int) -> list[Card]:
    """Every card of ``packs`` standard packs plus their jokers, in a fixed order.

    >>> len(full_deck(2, 2))
    108
    """
    pack = [Card(rank, suit) for suit in SUITS for rank in RANKS]
    return pack * packs + [JOKER] * (packs * jokers_per_pack)

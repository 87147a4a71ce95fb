"""The solver's shared vocabulary: constants, the tuple shapes of its tables, card codes and rank masks."""

from __future__ import annotations

from typing import Any, Final

from ..cards import SUITS, Card

_INF = 1 << 30
_MEMO_LIMIT = 1 << 15
_NO_RANKS: Final[frozenset[int]] = frozenset()
"""The empty rank and suit sets, shared by the memo keys (new empty frozensets would each be one
more object for the garbage collector to visit)."""
_NO_SUITS: Final[frozenset[str]] = frozenset()

# A run inside one suit: (wild cards, natural points, value mask of the naturals it holds, first value,
# last value, value mask of its wild places). Values are 1-14 (14 is a high ace).
_Variant = tuple[int, int, int, int, int, int]
# Best natural points for some wild count, and the runs (suit index, variant) achieving them.
_Entry = tuple[int, tuple[tuple[int, _Variant], ...]]
# The runs chosen so far in the knapsack over suits: (points, (earlier links, suit index, table entry runs)).
# (the earlier links are typed ``Any``: mypyc 2.4 crashes on a recursive type alias)
_Chain = tuple[Any, int, tuple[tuple[int, _Variant], ...]]
_Link = tuple[int, "_Chain | None"]
# Reachable (wild count, holds the must card) of a cover of one suit's naturals, with the variants used.
_Reach = dict[tuple[int, bool], tuple[int, ...]]
# One rank's sets: (sets, naturals taken per suit, natural points, least wilds, most wilds, dead
# points left, holds the must-use card).
_Option = tuple[int, tuple[int, int, int, int], int, int, int, int, bool]
# A solution: (points melded, set groups as (rank, option), runs, wilds in sets, wild cards used in order).
_Solution = tuple[int, tuple[tuple[int, _Option], ...], tuple[tuple[int, _Variant], ...], int, tuple[Card, ...]]


_RANKS_OF: dict[int, tuple[int, ...]] = {}
"""The ranks of each rank mask met so far (at most 2 ** 13 of them)."""


def _ranks_of(mask: int) -> tuple[int, ...]:
    """The ranks (1-13) whose bits are set in ``mask``, in order."""
    ranks = _RANKS_OF.get(mask)
    if ranks is None:
        ranks = _RANKS_OF[mask] = tuple(r for r in range(1, 14) if mask >> r & 1)
    return ranks


def _spaced(mask: int) -> bool:
    """R19: no two set bits of ``mask`` less than four places apart (so always with fewer than two
    bits, which callers in loops test first: cheaper than the call)."""
    return not mask & ((mask >> 1) | (mask >> 2) | (mask >> 3))


def _rank_mask(values: int) -> int:
    return (values & 0x3FFE) | (2 if values >> 14 & 1 else 0)


CARD_OF_CODE: Final = [
    Card(code & 15, SUITS[(code >> 4) - 1]) if code >> 4 and (1 <= code & 15 <= 13 or code & 15 == 15) else Card(0)
    for code in range(80)
]
"""The card of each card code (the joker where no card has the code; rank 15: the dead deuces)."""

_VALUE_CARDS: Final = [[CARD_OF_CODE[16 * si + 16 + (v if v <= 13 else 1)] for v in range(15)] for si in range(4)]
"""The card of each value 0-14 of a run (14 a high ace) per suit index; slices of these are new lists."""


# A hand counted: (naturals by card code, naturals by rank, rank mask of the naturals by code >> 4,
# wild cards by falling points then code).
_Tally = tuple[list[int], list[int], list[int], tuple[Card, ...]]
_TALLY_LIMIT = 256
"""Hands tallied and kept: a hand is asked about several times in a row (the lay-downs listed for
it, the bots' questions), seldom later, and fewer live objects make the garbage collector's passes
shorter."""

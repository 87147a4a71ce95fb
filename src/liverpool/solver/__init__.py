"""The contract solver: which melds can a hand lay down, leaving the fewest points (R10-R19, R42).

A hand is read as counts of natural cards per card code plus a list of wild cards (jokers and the
optional wild rank, R46). The search is split by what couples the melds:

* sets (R11, R18) are decided rank by rank. A natural card that no run of its suit could ever hold
  ("dead" for runs) is interchangeable with the other such cards of its rank, so only run-relevant
  naturals are branched on;
* runs (R3, R12, R13, R19) are then solved suit by suit: for each suit a memoised table gives, for
  each number of wild cards, the best natural points ``m`` runs of that suit can hold; a small
  knapsack over the suits combines them;
* the wild cards left over go into the sets when the sets can take them (no cap, R42 off), and the
  wild cards used are always the ones worth the most points.

Branch and bound on the points that are surely left in hand prunes the set search. Results are
memoised per rule set (hands repeat a lot inside legal-move generation).

The package, by seam (every name is importable from ``liverpool.solver`` as before the split):

* ``base``: constants, the tuple shapes of the tables, card codes and rank masks;
* ``runs``: the runs of one suit and their tables per number of wild cards;
* ``tables``: what the solver derives from one rule set (memo tables included) and a hand counted;
* ``search``: the optimising search, the melds of a solution and the memo of answers;
* ``exists``: the quick existence test;
* ``contract``: the public questions (``solve``, ``can_complete``, ``find_contract``, ``RestChecker``);
* ``candidates``: the candidate melds of a hand (``candidate_melds``).

>>> from liverpool.cards import format_cards, parse_cards
>>> from liverpool.rules import RuleSet
>>> [format_cards(m) for m in find_contract(parse_cards("7H 7S 7D 9C 9D JK 2C"), 1, RuleSet())]
['7S 7H 7D', '9D 9C JK']
>>> [format_cards(m) for m in find_contract(parse_cards("3H 4H JK 6H 7C 7D 7S 2C"), 2, RuleSet())]
['7S 7D 7C', '3H 4H JK 6H']
>>> find_contract(parse_cards("3H 4H 6H 7H 9C"), 3, RuleSet()) is None
True
"""

# The names of the package's modules, re-exported (the import paths of before the split), grouped by
# module in the package's order: isort would give each aliased name a statement of its own.
# ruff: noqa: I001

from __future__ import annotations

from .base import (
    _INF as _INF,
    _MEMO_LIMIT as _MEMO_LIMIT,
    _NO_RANKS as _NO_RANKS,
    _NO_SUITS as _NO_SUITS,
    _RANKS_OF as _RANKS_OF,
    _TALLY_LIMIT as _TALLY_LIMIT,
    _VALUE_CARDS as _VALUE_CARDS,
    CARD_OF_CODE as CARD_OF_CODE,
    _Chain as _Chain,
    _Entry as _Entry,
    _Link as _Link,
    _Option as _Option,
    _rank_mask as _rank_mask,
    _ranks_of as _ranks_of,
    _Reach as _Reach,
    _Solution as _Solution,
    _spaced as _spaced,
    _Tally as _Tally,
    _Variant as _Variant,
)
from .candidates import (
    _wild_sequences as _wild_sequences,
    candidate_melds as candidate_melds,
)
from .contract import (
    Left as Left,
    RestChecker as RestChecker,
    _solve as _solve,
    can_complete as can_complete,
    cards_missing as cards_missing,
    contract_left as contract_left,
    contract_melds as contract_melds,
    find_contract as find_contract,
    group_rules as group_rules,
    left_after as left_after,
    solve as solve,
)
from .exists import (
    _distinct_sets_fit as _distinct_sets_fit,
    _exists as _exists,
    _exists_in as _exists_in,
    _sets_fit as _sets_fit,
)
from .runs import (
    _cover_runs as _cover_runs,
    _extra_wilds as _extra_wilds,
    _multi_runs as _multi_runs,
    _unchain as _unchain,
)
from .search import (
    _build as _build,
    _cached as _cached,
    _runs_cannot_take as _runs_cannot_take,
    _search as _search,
)
from .tables import (
    _CTX_OF_RULES as _CTX_OF_RULES,
    _CTXS as _CTXS,
    _Ctx as _Ctx,
    _ctx as _ctx,
    _tally as _tally,
)

__all__ = [
    "Left",
    "RestChecker",
    "can_complete",
    "candidate_melds",
    "contract_left",
    "find_contract",
    "group_rules",
    "left_after",
    "solve",
]

"""A player's progress through the contract while laying down: :func:`staged_progress`, the sets
and runs staged this turn with the set ranks and run suits they use (R10, R14, options
``sets_distinct_ranks``/``runs_distinct_suits``), the one home of this count for the listing,
verification and the bots.

Contracts whose melds have lengths of their own (brackets in the schedule, R48) or whose runs of
one suit keep a gap (``runs_same_suit_gap``, R13): the groups left after a player's staged melds,
and the lay-down melds listed for such a contract (issue 16).

Every other contract takes the engine's usual path: :func:`staged_left` is None for it at the cost
of one attribute test, so these options cost nothing when off.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..actions import Action, Meld
from ..cards import Card
from ..melds import set_rank
from ..rules import Contract, RuleSet
from ..solver import Left, candidate_melds, contract_left, group_rules, left_after, solve
from .common import _run_suit

if TYPE_CHECKING:
    from .checks import _Checks


def staged_progress(
    staged: Iterable[tuple[str, Sequence[Card]]], rules: RuleSet
) -> tuple[int, int, frozenset[int], frozenset[str]]:
    """The contract progress of a player part-way through laying down: of the melds ``staged``
    this turn (``(kind, cards)`` pairs, as :meth:`Game.staged` gives them or
    :func:`liverpool.game.staged_melds` reads them from a view), the number of sets and of runs,
    the ranks of the sets and the suits of the runs (R10, R14; a set's rank as
    :func:`~liverpool.melds.set_rank` reads it, R46; a run of wild cards by the suit it was
    declared to stand for, R17). The contract's parts left are its sets and runs less these; with
    ``sets_distinct_ranks``/``runs_distinct_suits`` the ranks and suits used may not repeat. The
    one home of this count: the listing, verification and the bots ask it.

    >>> from liverpool.cards import parse_cards
    >>> staged_progress([("set", parse_cards("7H 7S *")), ("run", parse_cards("* 4D 5D 6D"))], RuleSet())
    (1, 1, frozenset({7}), frozenset({'D'}))
    """
    sets = runs = 0
    ranks: set[int] = set()
    suits: set[str] = set()
    for kind, cards in staged:
        if kind == "set":
            sets += 1
            rank = set_rank(cards, rules)
            if rank:
                ranks.add(rank)
        else:
            runs += 1
            suits.add(_run_suit(cards, rules))
    return sets, runs, frozenset(ranks), frozenset(suits)


def staged_left(
    game: _Checks, contract: Contract, extra: tuple[str, Sequence[Card]] | None = None
) -> Left | str | None:
    """The groups of ``contract`` left after the melds staged this turn (and ``extra``, a meld of
    (kind, cards) about to be laid); None for a contract the fast solver answers; a str: why the
    melds cannot all belong to the contract (a length no group takes, a same-suit gap broken)."""
    rules = game.rules
    left = contract_left(contract, rules)
    if left is None:
        return None
    melds = list(game.pending)
    if extra is not None:
        melds.append((extra[0], list(extra[1])))
    for kind, cards in melds:
        after = left_after(left, kind, cards, rules)
        if isinstance(after, str):
            return after
        left = after
    return left


def shortest(left: Left, kind: str) -> int:
    """The least length a meld of ``kind`` may have to fill some group of ``left`` (0: none left)."""
    groups = left.sets if kind == "set" else left.runs
    return min((abs(n) for n in groups), default=0)


def grouped_melds(game: _Checks, p: int, contract: Contract, left: Left) -> list[Action]:
    """The lay-down melds player ``p`` may lay now toward ``contract`` (groups ``left``): each
    candidate meld of a kind still to lay that :meth:`~liverpool.game.Game._meld_problem` accepts,
    and the melds of the best completion (a wild card may stand where the hand holds the natural)."""
    rules = game.rules
    hand = game.hands[p]
    check = not rules.failed_meld_penalty or game.must_meld is not None
    out: list[Action] = []
    seen: set[tuple[str, tuple[Card, ...]]] = set()

    def offer(kind: str, cards: Sequence[Card]) -> None:
        listed = tuple(sorted(cards)) if kind == "set" else tuple(cards)
        if (kind, listed) in seen:
            return
        seen.add((kind, listed))
        if game._meld_problem(p, kind, cards, check) is None:
            out.append(Meld(p, kind, listed))

    if check:
        must = game.must_meld
        if must is not None and game._pending_has(must):
            must = None
        best = solve(
            hand,
            len(left.sets),
            len(left.runs),
            rules,
            whole_hand=contract.whole_hand,
            must_use=must,
            used_set_ranks=game._pending_counts()[2],
            used_run_suits=game._pending_counts()[3],
            left=left,
        )
        if best is None:
            return []
    for kind in ("set", "run"):
        least = shortest(left, kind)
        if not least:
            continue
        for cards in candidate_melds(hand, kind, group_rules(rules, kind, least)):
            offer(kind, cards)
    if check:
        for i, cards in enumerate(best or []):
            offer("set" if i < len(left.sets) else "run", cards)
    return out

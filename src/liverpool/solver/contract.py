"""The solver's public questions: :func:`solve`, :func:`can_complete`, :func:`find_contract` and
:class:`RestChecker`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache

from ..cards import Card
from ..rules import RuleSet
from .exists import _exists, _exists_in
from .search import _build, _cached
from .tables import _ctx, _tally


class RestChecker:
    """``can_complete(hand less cards, sets, runs, rules, used_set_ranks=..., used_run_suits=...)``
    (not the whole hand, no card that must be used) for one hand and many ``cards``: the hand is
    counted once.

    >>> from liverpool.cards import parse_cards
    >>> check = RestChecker(parse_cards("7H 7S 7D 9C 9D JK"), RuleSet())
    >>> check(parse_cards("7H 7S 7D"), 1, 0), check(parse_cards("9C 9D JK"), 1, 0)
    (True, True)
    >>> check(parse_cards("7H 7S JK"), 1, 0)
    False
    """

    __slots__ = ("counts", "ctx", "hand", "keep", "nwild", "size", "wr")

    def __init__(self, hand: Sequence[Card], rules: RuleSet) -> None:
        self.ctx = ctx = _ctx(rules)
        self.hand = hand
        self.size = len(hand)
        self.wr = ctx.wild_rank
        cnt, rc, masks, wilds = _tally(ctx, hand)
        self.nwild = len(wilds)
        self.counts = (cnt.copy(), rc.copy(), masks.copy())  # its own: __call__ changes them for a while
        self.keep = rules.refuses_last_card  # R38: the slow way, which keeps a card in hand

    def __call__(
        self,
        cards: Sequence[Card],
        sets: int,
        runs: int,
        used_set_ranks: frozenset[int] = frozenset(),
        used_run_suits: frozenset[str] = frozenset(),
    ) -> bool:
        ctx = self.ctx
        if sets == 0 and runs == 0 and not self.keep:
            return True
        if not ctx.fast or sets < 0 or runs < 0 or self.keep:
            rest = list(self.hand)
            for card in cards:
                rest.remove(card)
            return can_complete(
                rest, sets, runs, ctx.rules, used_set_ranks=used_set_ranks, used_run_suits=used_run_suits
            )
        if self.size - len(cards) < sets * ctx.set_min + runs * ctx.run_min:
            return False
        cnt, rc, masks = self.counts
        wr = self.wr
        wilds = 0
        naturals = []
        for code in cards:
            r = code & 15
            if not code or r == wr:
                wilds += 1
            else:
                naturals.append(code)
                cnt[code] -= 1
                rc[r] -= 1
                if not cnt[code]:
                    masks[code >> 4] ^= 1 << r
        found = _exists_in(ctx, cnt, rc, masks, self.nwild - wilds, sets, runs, used_set_ranks, used_run_suits)
        for code in naturals:
            if not cnt[code]:
                masks[code >> 4] |= 1 << (code & 15)
            cnt[code] += 1
            rc[code & 15] += 1
        return found


def solve(
    hand: Sequence[Card],
    sets: int,
    runs: int,
    rules: RuleSet,
    *,
    whole_hand: bool = False,
    must_use: Card | None = None,
    used_set_ranks: frozenset[int] = frozenset(),
    used_run_suits: frozenset[str] = frozenset(),
) -> list[list[Card]] | None:
    """``sets`` sets then ``runs`` runs drawn from ``hand`` (a multiset), leaving the fewest points in
    hand (R40); None when impossible.

    ``whole_hand`` (R15): every card is melded. ``must_use``: some meld holds a card equal to it.
    ``used_set_ranks`` / ``used_run_suits``: ranks (R11 option ``sets_distinct_ranks``) and suits
    (R13) already taken by this contract's melds. With ``rules.exact_melds`` (R42) and not
    ``whole_hand`` every meld has the minimum length. Runs are in table order.

    >>> from liverpool.cards import format_cards, parse_cards
    >>> hand = parse_cards("5S 6S 7S 8S 9S 10S KD")
    >>> [format_cards(m) for m in solve(hand, 0, 1, RuleSet())]
    ['5S 6S 7S 8S 9S 10S']
    >>> [format_cards(m) for m in solve(hand, 0, 1, RuleSet(exact_melds=True))]
    ['7S 8S 9S 10S']

    With ``rules.floating == "refuse"`` (R38) and not ``whole_hand``, the melds leave at least one
    card in hand (:func:`_keeping_a_card`):

    >>> [format_cards(m) for m in solve(hand[:6], 0, 1, RuleSet(floating="refuse"))]
    ['6S 7S 8S 9S 10S']
    """
    if rules.refuses_last_card and not whole_hand:
        return _keeping_a_card(hand, sets, runs, rules, must_use, used_set_ranks, used_run_suits, True)
    if sets == 0 and runs == 0:
        if sets < 0 or runs < 0:
            raise ValueError("sets and runs must be 0 or more")
        if must_use is not None or (whole_hand and len(hand)):
            return None
        return []
    if not whole_hand and must_use is None and sets >= 0 and runs >= 0:
        ctx = _ctx(rules)
        if ctx.fast and not _exists(ctx, hand, sets, runs, used_set_ranks, used_run_suits):
            return None  # the quick existence test rules it out: no search for the best melds
    return _solve(hand, sets, runs, rules, whole_hand, must_use, used_set_ranks, used_run_suits)


@lru_cache(maxsize=16)
def _plain(rules: RuleSet) -> RuleSet:
    """``rules`` with floating as it reads for the solver's own search (not "refuse")."""
    return dataclasses.replace(rules, floating=True)


def _keeping_a_card(
    hand: Sequence[Card],
    sets: int,
    runs: int,
    rules: RuleSet,
    must_use: Card | None,
    used_set_ranks: frozenset[int],
    used_run_suits: frozenset[str],
    best: bool,
) -> list[list[Card]] | None:
    """R38 ``floating="refuse"``: the melds of :func:`solve` (``best``: leaving the fewest points;
    else any, as :func:`can_complete` asks) that leave at least one card of ``hand`` unmelded, so
    that a discard remains to go out; None when every way melds the whole hand or there is none.
    The one home of the rule for lay-downs: the engine's checks and listing and the bots ask
    :func:`solve` and :func:`can_complete`, which come here."""
    plain = _plain(rules)

    def plan_of(cards: Sequence[Card]) -> list[list[Card]] | None:
        return solve(
            cards, sets, runs, plain, must_use=must_use, used_set_ranks=used_set_ranks, used_run_suits=used_run_suits
        )

    plan = plan_of(hand)
    if plan is None:
        return None
    if sum(map(len, plan)) < len(hand):
        return plan
    found: list[list[Card]] | None = None
    found_points = 0
    for card in sorted(set(hand)):  # keep back each card in turn
        rest = list(hand)
        rest.remove(card)
        other = plan_of(rest)
        if other is None:
            continue
        if not best:
            return other
        left = list(hand)
        for meld in other:
            for c in meld:
                left.remove(c)
        points = sum(rules.points(c.rank) for c in left)
        if found is None or points < found_points:
            found, found_points = other, points
    return found


def _solve(
    hand: Sequence[Card],
    sets: int,
    runs: int,
    rules: RuleSet,
    whole_hand: bool,
    must_use: Card | None,
    used_set_ranks: frozenset[int],
    used_run_suits: frozenset[str],
) -> list[list[Card]] | None:
    """:func:`solve` without its quick existence test, for a caller that has made that test already
    (the answer, memoised, is the same)."""
    ctx, sol = _cached(
        rules,
        hand,
        sets,
        runs,
        whole=whole_hand,
        must=must_use,
        used_ranks=used_set_ranks,
        used_suits=used_run_suits,
        first=False,
    )
    return None if sol is None else _build(ctx, sol, whole_hand)


def can_complete(
    hand: Sequence[Card],
    sets: int,
    runs: int,
    rules: RuleSet,
    *,
    whole_hand: bool = False,
    must_use: Card | None = None,
    used_set_ranks: frozenset[int] = frozenset(),
    used_run_suits: frozenset[str] = frozenset(),
) -> bool:
    """``solve(...) is not None``, faster: stops at the first solution found."""
    if rules.refuses_last_card and not whole_hand:
        args = (sets, runs, rules, must_use, used_set_ranks, used_run_suits, False)
        return _keeping_a_card(hand, *args) is not None
    if sets == 0 and runs == 0:
        return must_use is None and not (whole_hand and len(hand))
    if not whole_hand and must_use is None:
        ctx = _ctx(rules)
        if ctx.fast and sets >= 0 and runs >= 0:
            return _exists(
                ctx,
                hand,
                sets,
                runs,
                used_set_ranks if ctx.sets_distinct else frozenset(),
                used_run_suits if ctx.runs_distinct else frozenset(),
            )
    _, sol = _cached(
        rules,
        hand,
        sets,
        runs,
        whole=whole_hand,
        must=must_use,
        used_ranks=used_set_ranks,
        used_suits=used_run_suits,
        first=True,
    )
    return sol is not None


def find_contract(hand: Sequence[Card], deal: int, rules: RuleSet) -> list[list[Card]] | None:
    """Melds meeting deal ``deal``'s contract (1-based, R10, R48), sets first then runs, leaving the
    fewest points in hand; None when the hand cannot meet it. In a whole-hand deal (R15) every card
    is melded; with ``rules.exact_melds`` (R42) otherwise every meld has the minimum length.
    """
    if not isinstance(deal, int) or not 1 <= deal <= len(rules.schedule):
        raise ValueError(f"deal must be 1-{len(rules.schedule)}, got {deal!r}")
    contract = rules.schedule[deal - 1]
    return solve(hand, contract.sets, contract.runs, rules, whole_hand=contract.whole_hand)

"""The solver's public questions: :func:`solve`, :func:`can_complete`, :func:`find_contract` and
:class:`RestChecker`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..cards import JOKER, Card
from ..melds import run_start, set_rank
from ..rules import Contract, RuleSet
from .candidates import candidate_melds
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
    left: Left | None = None,
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
    if left is not None:  # lengths of its own or a same-suit gap (issue 16): ``sets``, ``runs`` unread
        return _grouped(hand, left, rules, whole_hand, must_use, used_set_ranks, used_run_suits, True)
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
    left: Left | None = None,
) -> bool:
    """``solve(...) is not None``, faster: stops at the first solution found."""
    if left is not None:
        return _grouped(hand, left, rules, whole_hand, must_use, used_set_ranks, used_run_suits, False) is not None
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
    return contract_melds(hand, rules.schedule[deal - 1], rules)


def contract_melds(hand: Sequence[Card], contract: Contract, rules: RuleSet) -> list[list[Card]] | None:
    """:func:`find_contract` for a :class:`~liverpool.rules.Contract` (e.g. a seat's own level's
    with ``progression="player"``, read from its view by ``Contract.from_view``)."""
    left = contract_left(contract, rules)
    return solve(hand, contract.sets, contract.runs, rules, whole_hand=contract.whole_hand, left=left)


@lru_cache(maxsize=16)
def _stand_in_rules(rules: RuleSet) -> RuleSet:
    """``rules`` under which a wild card may stand in for any natural card of a meld that holds one
    natural card at least: the wild-card limits (R18, R19) lifted, ``floating`` as the solver reads
    it. What :func:`cards_missing` counts with."""
    return dataclasses.replace(
        rules,
        floating=True,
        set_min_naturals=min(rules.set_min_naturals, 1),
        run_min_naturals=min(rules.run_min_naturals, 1),
        run_wild_limit="none",
        set_wild_limit="none",
    )


def cards_missing(hand: Sequence[Card], contract: Contract, rules: RuleSet) -> int:
    """How many cards ``hand`` misses, at best, for ``contract``'s melds (R10, R48): the fewest
    cards that, added, let it lay the contract down, each meld holding one card of the hand at
    least (whole-hand deals read as ordinary ones: the melds' cards alone). 0: the hand makes the
    contract now (as :func:`contract_melds` finds, but for the wild-card limits). The "does this
    card help" of a client (``liverpool.game.answers.card_fits``) compares it with and without a
    card; no bot's or listing's path asks it.

    >>> from liverpool.cards import parse_cards
    >>> r = RuleSet()
    >>> cards_missing(parse_cards("7H 7S 7D 9C 9D 2C"), r.schedule[0], r)
    1
    >>> cards_missing(parse_cards("7H 7S 7D 9C 9D 9S"), r.schedule[0], r)
    0
    """
    relaxed = _stand_in_rules(rules)
    contract = dataclasses.replace(contract, whole_hand=False) if contract.whole_hand else contract
    left = contract_left(contract, relaxed)
    size = sum(abs(n) for n in left.sets + left.runs) if left is not None else 0
    size = max(size, contract.sets * rules.set_min + contract.runs * rules.run_min)
    cards = list(hand)
    for k in range(size + 1):
        if can_complete(cards, contract.sets, contract.runs, relaxed, left=left):
            return k
        cards.append(JOKER)
    return size + 1


# ---------------------------------------------------------------------------------------------
# Contracts whose melds have lengths of their own (brackets in the schedule, R48) or whose runs of
# one suit must keep a gap (``runs_same_suit_gap``, R13): issue 16. The fast solver above knows one
# length per kind; these contracts take a plain search over the candidate melds of each group,
# which only such contracts pay for (``contract_left`` is None for every other one).


class Left(NamedTuple):
    """What is left to lay of a contract with lengths of its own or a same-suit gap: each set's and
    run's length (``n``: at least ``n`` cards, ``-n``: exactly ``n``), and the runs of the contract
    laid so far as (suit, first value, last value), values 1-14."""

    sets: tuple[int, ...]
    runs: tuple[int, ...]
    spans: tuple[tuple[str, int, int], ...] = ()


def contract_left(contract: Contract, rules: RuleSet) -> Left | None:
    """The whole of ``contract`` as a :class:`Left` (a length of 0 read as the option's minimum,
    exact under ``exact_melds`` outside a whole-hand deal, R42); None when the contract needs none
    (no lengths of its own and no same-suit gap): the fast solver answers it.

    >>> from liverpool.rules import parse_schedule
    >>> contract_left(parse_schedule("1S1R[5]/10")[0], RuleSet())
    Left(sets=(3,), runs=(5,), spans=())
    >>> contract_left(parse_schedule("1S1R/10")[0], RuleSet()) is None
    True
    """
    if not contract.grouped and rules.runs_same_suit_gap is None:
        return None
    exact = rules.exact_melds and not contract.whole_hand
    out = []
    for count, lengths, least in (
        (contract.sets, contract.set_lengths, rules.set_min),
        (contract.runs, contract.run_lengths, rules.run_min),
    ):
        values = []
        for n in lengths or (0,) * count:
            n = n or least
            values.append(-n if exact and n > 0 else n)
        values.sort(key=lambda v: (-abs(v), v))  # longest first, an exact length before a least one
        out.append(tuple(values))
    return Left(out[0], out[1])


@lru_cache(maxsize=64)
def group_rules(rules: RuleSet, kind: str, length: int) -> RuleSet:
    """``rules`` with the minimum of ``kind`` set to ``abs(length)``: a meld of a group of that
    length is valid under these exactly when it is under ``rules`` but for its length."""
    n = abs(length)
    if kind == "set":
        return dataclasses.replace(rules, set_min=n, exact_melds=False)
    return dataclasses.replace(rules, run_min=n, exact_melds=False)


def _fits(length: int, n: int) -> bool:
    return n == -length if length < 0 else n >= length


def _span(cards: Sequence[Card], rules: RuleSet) -> tuple[str, int, int] | None:
    start = run_start(cards, rules)
    if start is None:
        return None
    suit = next(c.suit for c in cards if not rules.is_wild(c.rank))
    return suit, start, start + len(cards) - 1


def _gap_ok(span: tuple[str, int, int], spans: tuple[tuple[str, int, int], ...], gap: int) -> bool:
    """``runs_same_suit_gap``: ``span`` keeps at least ``gap`` ranks from each run of its suit."""
    suit, lo, hi = span
    return all(s != suit or a - hi - 1 >= gap or lo - b - 1 >= gap for s, a, b in spans)


def left_after(left: Left, kind: str, cards: Sequence[Card], rules: RuleSet) -> Left | str:
    """``left`` less the group a valid meld ``cards`` of ``kind`` fills, or why none takes it. The
    meld fills an exact group of its length if any, else the longest least length it reaches: the
    groups left are then the easiest possible (any other choice leaves one that accepts less).

    >>> from liverpool.cards import parse_cards
    >>> left = Left((), (5, 4))
    >>> left_after(left, "run", parse_cards("3S 4S 5S 6S 7S"), RuleSet())
    Left(sets=(), runs=(4,), spans=(('S', 3, 7),))
    >>> left_after(left, "run", parse_cards("3S 4S 5S 6S"), RuleSet())
    Left(sets=(), runs=(5,), spans=(('S', 3, 6),))
    >>> left_after(Left((), (-4,)), "run", parse_cards("3S 4S 5S 6S 7S"), RuleSet())
    'no run of 5 cards is left in this contract (it asks for a run of exactly 4; R48)'
    """
    groups = left.sets if kind == "set" else left.runs
    n = len(cards)
    pick = -1
    for i, length in enumerate(groups):
        if length == -n:
            pick = i
            break
        if pick < 0 and length > 0 and n >= length:
            pick = i  # groups are longest first: the first reached is the longest
    if pick < 0:
        wants = " and ".join(_length_words(v) for v in groups)
        return f"no {kind} of {n} cards is left in this contract (it asks for a {kind} of {wants}; R48)"
    rest = groups[:pick] + groups[pick + 1 :]
    if kind == "set":
        return Left(rest, left.runs, left.spans)
    span = _span(cards, rules)
    if span is None:
        return f"{kind} is not a run in table order (R12)"
    gap = rules.runs_same_suit_gap
    if gap is not None and not _gap_ok(span, left.spans, gap):
        return f"two runs of one suit in a contract need at least {gap} rank(s) between them (R13, runs_same_suit_gap)"
    return Left(left.sets, rest, (*left.spans, span))


def _length_words(length: int) -> str:
    return f"exactly {-length}" if length < 0 else f"{length} or more"


_GROUPED: dict[tuple[Any, ...], list[list[Card]] | None] = {}


def _grouped(
    hand: Sequence[Card],
    left: Left,
    rules: RuleSet,
    whole: bool,
    must: Card | None,
    used_ranks: frozenset[int],
    used_suits: frozenset[str],
    best: bool,
) -> list[list[Card]] | None:
    """The melds filling every group of ``left`` from ``hand`` (sets first, then runs in table
    order), leaving the fewest points when ``best`` (else the first found); None when there are
    none. ``whole``: every card is melded (R15); ``must``: some meld holds it (R22); R11's distinct
    ranks, R13's distinct suits and same-suit gap, R38's "refuse" (a card kept) are kept."""
    key = (tuple(sorted(hand)), left, rules, whole, must, used_ranks, used_suits, best)
    if key in _GROUPED:
        return _GROUPED[key]
    groups = [("set", n) for n in left.sets] + [("run", n) for n in left.runs]
    least = [0] * (len(groups) + 1)
    for i in range(len(groups) - 1, -1, -1):
        least[i] = least[i + 1] + abs(groups[i][1])
    keep = rules.refuses_last_card and not whole
    gap = rules.runs_same_suit_gap
    found: list[list[list[Card]] | None] = [None]
    found_points = [1 << 30]
    chosen: list[list[Card]] = []
    recurse: list[Callable[[int, list[Card], frozenset[int], frozenset[str], Any, bool], bool]] = []

    def rec(i: int, rest: list[Card], ranks: frozenset[int], suits: frozenset[str], spans: Any, held: bool) -> bool:
        if len(rest) < least[i] + keep:
            return False
        if i == len(groups):
            if (must is not None and not held) or (whole and rest):
                return False
            points = sum(rules.points(c.rank) for c in rest)
            if points < found_points[0]:
                found[0], found_points[0] = [list(m) for m in chosen], points
            return not best or points == 0
        kind, length = groups[i]
        for cards in candidate_melds(rest, kind, group_rules(rules, kind, length), exact=length < 0):
            if kind == "set":
                rank = set_rank(cards, rules)
                if rules.sets_distinct_ranks and rank in ranks:
                    continue
                next_ranks, next_suits, next_spans = (ranks | {rank} if rank else ranks), suits, spans
            else:
                span = _span(cards, rules)
                if span is None or (rules.runs_distinct_suits and span[0] in suits):
                    continue
                if gap is not None and not _gap_ok(span, spans, gap):
                    continue
                next_ranks, next_suits, next_spans = ranks, suits | {span[0]}, (*spans, span)
            after = list(rest)
            for c in cards:
                after.remove(c)
            chosen.append(cards)
            holds = held or (must is not None and must in cards)
            done = recurse[0](i + 1, after, next_ranks, next_suits, next_spans, holds)
            chosen.pop()
            if done:
                return True
        return False

    recurse.append(rec)
    rec(0, list(hand), used_ranks, used_suits, left.spans, False)
    recurse.clear()  # the closure reaches itself through the list alone: no reference cycle left
    if len(_GROUPED) > 4096:
        _GROUPED.clear()
    _GROUPED[key] = found[0]
    return found[0]

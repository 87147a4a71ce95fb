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

>>> from liverpool.cards import format_cards, parse_cards
>>> from liverpool.rules import RuleSet
>>> [format_cards(m) for m in find_contract(parse_cards("7H 7S 7D 9C 9D JK 2C"), 1, RuleSet())]
['7S 7H 7D', '9D 9C JK']
>>> [format_cards(m) for m in find_contract(parse_cards("3H 4H JK 6H 7C 7D 7S 2C"), 2, RuleSet())]
['7S 7D 7C', '3H 4H JK 6H']
>>> find_contract(parse_cards("3H 4H 6H 7H 9C"), 3, RuleSet()) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby, product
from operator import mul
from typing import Final

from .cards import SUITS, Card
from .rules import RuleSet

__all__ = ["RestChecker", "can_complete", "candidate_melds", "find_contract", "solve"]

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
_Chain = tuple["_Chain | None", int, tuple[tuple[int, _Variant], ...]]
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


class _Ctx:
    """What the solver derives from one RuleSet, with its memo tables."""

    __slots__ = (
        "all_starts",
        "cover_memo",
        "exact",
        "fast",
        "nat_per_run",
        "pts",
        "results",
        "rules",
        "run_min",
        "run_opts_memo",
        "run_wilds",
        "runs_distinct",
        "set_distinct_suits",
        "set_max",
        "set_min",
        "set_naturals",
        "sets_distinct",
        "tables",
        "tally_memo",
        "top",
        "variants_memo",
        "vpts",
        "wild_key",
        "wild_rank",
        "windows_memo",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.wild_rank = rules.wild_rank if rules.wild_rank is not None else 0
        self.pts = tuple(rules.points(r) for r in range(14))
        self.vpts = tuple(self.pts[v if v <= 13 else 1] if v else 0 for v in range(15))
        self.top = 14 if rules.ace_high else 13
        self.run_min = rules.run_min
        # Fewest naturals of any run: at most one wild in any 4 consecutive places (R19).
        self.nat_per_run = max(1, rules.run_min - (rules.run_min + 3) // 4)
        self.set_min = rules.set_min
        self.set_max = rules.set_max
        self.set_naturals = rules.set_min_naturals
        self.set_distinct_suits = rules.set_distinct_suits
        self.sets_distinct = rules.sets_distinct_ranks
        self.runs_distinct = rules.runs_distinct_suits
        self.exact = rules.exact_melds
        pts = self.pts
        self.wild_key: Callable[[Card], tuple[int, int]] = lambda c: (-pts[c.rank], c.code)
        self.cover_memo: dict[tuple[int, int], int] = {}
        self.variants_memo: dict[tuple[int, int, bool], list[_Variant]] = {}
        self.tables: dict[tuple[tuple[int, ...], int, int, bool, int, bool], list[_Entry | None] | None] = {}
        self.results: dict[tuple[object, ...], _Solution | None] = {}
        self.tally_memo: dict[bytes, _Tally] = {}
        # the quick existence test (:func:`_exists`) covers every run length a run can have (R3)
        self.fast = rules.run_min <= 13
        self.run_wilds = (rules.run_min + 3) // 4  # most wild cards a run of run_min holds (R19)
        self.windows_memo: dict[tuple[int, int, bool], tuple[tuple[int, int, int, int], ...]] = {}
        self.run_opts_memo: dict[tuple[int, int], tuple[tuple[tuple[int, ...], int, int], ...]] = {}
        self.all_starts = ((1 << (self.top - rules.run_min + 2)) - 1) & ~1  # first places 1 .. top - run_min + 1

    # ------------------------------------------------------------------ one suit
    def run_options(self, mask: int, budget: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
        """The least runs of one suit whose naturals (value mask ``mask``, bit 14 a high ace) and up
        to ``budget`` wild cards can form: (ranks of the naturals used, wilds used, their rank mask)
        for every window of ``run_min`` places and every spaced choice of wild places (R19), a wild
        also standing where the hand holds the natural. Runs needing a superset of another's
        naturals and no fewer wilds are left out: they never help to find melds."""
        key = (mask, budget)
        hit = self.run_opts_memo.get(key)
        if hit is not None:
            return hit
        span = (1 << self.run_min) - 1
        best: dict[int, int] = {}
        starts = self.window_starts(mask, budget)
        while starts:
            low = starts & -starts
            starts ^= low
            win = span * low  # the window's places
            held = win & mask
            miss = win ^ held
            k = miss.bit_count()
            if k > budget or (k > 1 and not _spaced(miss)):
                continue
            stack = [(miss, held, k, held)]
            while stack:
                wild, used, n, free = stack.pop()
                if used:
                    rm = (used & 0x3FFE) | (2 if used >> 14 & 1 else 0)
                    if best.get(rm, _INF) > n:
                        best[rm] = n
                if n < budget:
                    while free:
                        bit = free & -free
                        free ^= bit
                        w = wild | bit
                        if _spaced(w):
                            stack.append((w, used ^ bit, n + 1, free))
        items = sorted(best.items(), key=lambda kv: (kv[1], kv[0].bit_count()))
        out: list[tuple[int, int]] = []
        for rm, n in items:
            if not any(w <= n and not u & ~rm for u, w in out):
                out.append((rm, n))
        res = tuple((_ranks_of(rm), n, rm) for rm, n in out)
        if len(self.run_opts_memo) > 4 * _MEMO_LIMIT:
            self.run_opts_memo.clear()
        self.run_opts_memo[key] = res
        return res

    def run_windows(self, nat: int, wilds: int, exact: bool) -> tuple[tuple[int, int, int, int], ...]:
        """The places (first, last, mask of the wild places, wild count) of the runs one suit's
        naturals (value mask ``nat``) and ``wilds`` wild cards form with the wilds in the gaps or at
        the ends only (:func:`candidate_melds`), by first then last place."""
        key = (nat, wilds, exact)
        hit = self.windows_memo.get(key)
        if hit is not None:
            return hit
        top = self.top
        rmin = self.run_min
        out: list[tuple[int, int, int, int]] = []
        head = (1 << (rmin - 1)) - 1  # the places of the shortest run from place 0, less its last
        for a in range(1, top - rmin + 2):
            last = min(top, a + 12) if not exact else a + rmin - 1
            miss = (head << a) & ~nat
            for b in range(a + rmin - 1, last + 1):
                miss |= (1 << b) & ~nat
                k = miss.bit_count()
                if k > wilds or (k > 1 and not _spaced(miss)):
                    break  # more places only add wilds
                if k < b - a + 1:
                    out.append((a, b, miss, k))
        res = tuple(out)
        if len(self.windows_memo) > 4 * _MEMO_LIMIT:
            self.windows_memo.clear()
        self.windows_memo[key] = res
        return res

    def window_starts(self, vm: int, wilds: int) -> int:
        """Bit ``a`` set for each first place ``a`` of a run of ``run_min`` places: with
        ``run_min`` <= 4 only where the naturals (value mask ``vm``) miss at most ``wilds`` places of
        it (such a run holds one wild at most, R19, so ``wilds`` counts as 0 or 1), else all."""
        rmin = self.run_min
        ok = self.all_starts
        if rmin > 4:
            return ok
        # bit-parallel over all first places: a place of the run is held where vm >> i is set
        if wilds:
            for i in range(1, rmin):
                for j in range(i):
                    ok &= (vm >> i) | (vm >> j)  # not both places missing
        else:
            for i in range(rmin):
                ok &= vm >> i
        return ok

    def cover(self, nat: int, wilds: int) -> int:
        """Rank mask of the naturals (rank mask ``nat`` of one suit) that some run could hold."""
        wilds = min(wilds, self.run_min)
        key = (nat, wilds)
        hit = self.cover_memo.get(key)
        if hit is not None:
            return hit
        vm = nat | (1 << 14 if nat & 2 and self.top == 14 else 0)
        rmin = self.run_min
        cov = 0
        if rmin <= 4:
            ok = self.window_starts(vm, wilds)
            for i in range(rmin):
                cov |= (ok << i) & vm
        else:
            win = ((1 << rmin) - 1) << 1
            for _ in range(self.top - rmin + 1):
                used = win & vm
                if used:
                    miss = win ^ used
                    if miss.bit_count() <= wilds and _spaced(miss):
                        cov |= used
                win <<= 1
        res = (cov & 0x3FFE) | (2 if cov >> 14 & 1 else 0)
        if len(self.cover_memo) > _MEMO_LIMIT:
            self.cover_memo.clear()
        self.cover_memo[key] = res
        return res

    def variants(self, counts: tuple[int, ...], budget: int, exact: bool) -> list[_Variant]:
        """Every run one suit's naturals (``counts`` by rank) and up to ``budget`` wilds can form."""
        nat = 0
        for r in range(1, 14):
            if counts[r]:
                nat |= 1 << r
        if nat & 2 and self.top == 14:
            nat |= 1 << 14
        key = (nat, budget, exact)  # only which ranks are held matters
        hit = self.variants_memo.get(key)
        if hit is not None:
            return hit
        vp = self.vpts
        rmin = self.run_min
        top = self.top
        span = rmin if exact else 13
        out: list[_Variant] = []
        # a run starts at a natural or one place before it (two wilds are never side by side, R19)
        starts = (nat | nat >> 1) & (((1 << (top - rmin + 2)) - 1) & ~1)
        while starts:
            low = starts & -starts
            starts ^= low
            a = low.bit_length() - 1
            places = 0
            base = 0
            for b in range(a, min(top, a + span - 1) + 1):
                bit = 1 << b
                places |= bit
                if nat & bit:
                    base += vp[b]
                miss = places & ~nat
                k = miss.bit_count()
                if k > budget or (k > 1 and not _spaced(miss)):
                    break
                if b - a + 1 < rmin:
                    continue
                used = places & nat
                if not used:
                    continue
                out.append((k, base, used, a, b, miss))
                if k < budget:
                    _extra_wilds(out, vp, used, miss, k=k, base=base, a=a, b=b, free=budget - k)
        # one variant per (wilds, naturals held): where the wilds stand does not matter to the search
        seen: set[tuple[int, int]] = set()
        uniq: list[_Variant] = []
        for v in out:
            vk = (v[0], v[2])
            if vk not in seen:
                seen.add(vk)
                uniq.append(v)
        if len(self.variants_memo) > _MEMO_LIMIT:
            self.variants_memo.clear()
        self.variants_memo[key] = uniq
        return uniq

    def table(
        self, counts: tuple[int, ...], budget: int, m: int, *, whole: bool, must: int, exact: bool
    ) -> list[_Entry | None] | None:
        """For each wild count 0..budget, the most natural points ``m`` runs of one suit can hold
        (``whole``: using every natural; ``must``: holding the natural of that rank), or None."""
        key = (counts, budget, m, whole, must, exact)
        if key in self.tables:
            return self.tables[key]
        variants = self.variants(counts, budget, exact)
        total = sum(counts)
        must_bits = 0 if not must else (1 << must) | (1 << 14 if must == 1 else 0)
        best: list[_Entry | None] = [None] * (budget + 1)
        found = False
        if m == 1:
            for v in variants:
                if whole and v[2].bit_count() != total:
                    continue
                if must_bits and not v[2] & must_bits:
                    continue
                e = best[v[0]]
                if e is None or v[1] > e[0]:
                    best[v[0]] = (v[1], ((0, v),))
                    found = True
        elif total >= m * self.nat_per_run:
            if whole and m > 2:
                found = _cover_runs(variants, counts, budget, m, must_bits=must_bits, best=best)
            else:
                found = _multi_runs(variants, counts, self.pts, budget, m, whole=whole, must_bits=must_bits, best=best)
        res = best if found else None
        if len(self.tables) > _MEMO_LIMIT:
            self.tables.clear()
        self.tables[key] = res
        return res


def _extra_wilds(
    out: list[_Variant], vp: tuple[int, ...], used: int, miss: int, *, k: int, base: int, a: int, b: int, free: int
) -> None:
    """Append the variants of one run where wilds also stand in places the hand holds a natural
    for (freeing that natural for another meld, or melding a wild worth more)."""
    bits = [p for p in range(a, b + 1) if used >> p & 1]

    def rec(start: int, wild: int, lost: int, extra: int) -> None:
        for i in range(start, len(bits)):
            p = bits[i]
            w = wild | (1 << p)
            if not _spaced(w):
                continue
            left = used & ~w
            if not left:
                continue
            out.append((k + extra + 1, base - lost - vp[p], left, a, b, w))
            if extra + 1 < free:
                rec(i + 1, w, lost + vp[p], extra + 1)  # noqa: F821 (see the del below)

    rec(0, miss, 0, 0)
    del rec  # a recursive closure is a reference cycle: unbind it so refcounting frees it at once


def _unchain(chain: _Chain | None) -> tuple[tuple[int, _Variant], ...]:
    out: list[tuple[int, _Variant]] = []
    while chain is not None:
        chain, si, runs = chain
        out.extend((si, v) for _, v in runs)
    return tuple(out)


def _rank_mask(values: int) -> int:
    return (values & 0x3FFE) | (2 if values >> 14 & 1 else 0)


def _cover_runs(
    variants: list[_Variant], counts: tuple[int, ...], budget: int, m: int, *, must_bits: int, best: list[_Entry | None]
) -> bool:
    """Fill ``best`` with ``m`` runs of one suit holding every natural (R15). Every such cover melds
    the same natural points, so only which (wild count, holds the must card) pairs are reachable
    matters: an exact cover over the remaining naturals, memoised, each step branching on the runs
    that hold the lowest rank still to place."""
    ranks = [_rank_mask(v[2]) for v in variants]
    holding: list[list[int]] = [[] for _ in range(14)]
    exact_mask: dict[int, list[int]] = {}
    for i, rm in enumerate(ranks):
        exact_mask.setdefault(rm, []).append(i)
        for r in range(1, 14):
            if rm >> r & 1:
                holding[r].append(i)
    memo: dict[tuple[tuple[int, ...], int], _Reach] = {}
    goal = 2 * (budget + 1) if must_bits else budget + 1

    def cover(rem: tuple[int, ...], k: int) -> _Reach:
        key = (rem, k)
        hit = memo.get(key)
        if hit is not None:
            return hit
        out: _Reach = {}
        if k == 1:
            mask = 0
            for r in range(1, 14):
                if rem[r] > 1:
                    break
                if rem[r]:
                    mask |= 1 << r
            else:
                for i in exact_mask.get(mask, ()):
                    v = variants[i]
                    out.setdefault((v[0], bool(v[2] & must_bits)), (i,))
        elif max(rem) <= k and sum(rem) <= 13 * k:
            low = next(r for r in range(1, 14) if rem[r])
            below = (1 << low) - 1
            for i in holding[low]:
                v = variants[i]
                rm = ranks[i]
                if rm & below or v[0] > budget:
                    continue
                left = list(rem)
                ok = True
                for r in range(low, 14):
                    if rm >> r & 1:
                        if not left[r]:
                            ok = False
                            break
                        left[r] -= 1
                if not ok or not any(left):
                    continue
                mine = bool(v[2] & must_bits)
                for (w, h), rest in cover(tuple(left), k - 1).items():  # noqa: F821 (see the del below)
                    w += v[0]
                    if w <= budget:
                        out.setdefault((w, h or mine), (i, *rest))
                if len(out) == goal:
                    break
        memo[key] = out
        return out

    found = False
    total_pts = 0
    for (w, h), idx in cover(tuple(counts), m).items():
        if must_bits and not h:
            continue
        total_pts = sum(variants[i][1] for i in idx)
        if best[w] is None:
            best[w] = (total_pts, tuple((0, variants[i]) for i in idx))
            found = True
    del cover  # a recursive closure is a reference cycle: unbind it so refcounting frees it at once
    return found


def _multi_runs(
    variants: list[_Variant],
    counts: tuple[int, ...],
    pts: tuple[int, ...],
    budget: int,
    m: int,
    *,
    whole: bool,
    must_bits: int,
    best: list[_Entry | None],
) -> bool:
    """Fill ``best`` with the best ``m`` runs of one suit (a multiset of variants) per wild count.

    For each way to split the wilds among the runs, the variants of each wild count are scanned by
    falling points, and a branch stops as soon as it cannot beat the best found for that count."""
    total = sum(counts[r] * pts[r] for r in range(1, 14))
    total_n = sum(counts)
    # levels[j]: ranks with more than j copies; a run set is feasible when the ranks used more than
    # j times lie in levels[j]
    levels = [sum(1 << r for r in range(1, 14) if counts[r] > j) for j in range(m)]
    ranks = [_rank_mask(v[2]) for v in variants]
    groups: list[list[int]] = [[] for _ in range(budget + 1)]
    for i, v in enumerate(variants):
        groups[v[0]].append(i)
    for g in groups:
        g.sort(key=lambda i: -variants[i][1])
    tops = [variants[g[0]][1] if g else -1 for g in groups]
    found = False
    cur = -1
    target = 0
    split: list[int] = []
    rest: list[int] = []
    chosen: list[int] = []

    def pick(d: int, begin: int, used: list[int], have: int, hit: bool) -> None:
        nonlocal cur, found
        g = groups[split[d]]
        # A run holding a rank held once and already used never fits: skipped first, as the bound
        # below, once it fails, fails for every later run too (the group is by falling points).
        once = used[0] & ~levels[1] if used else 0
        for b in range(begin, len(g)):
            i = g[b]
            carry = ranks[i]
            if carry & once:
                continue
            v = variants[i]
            p = have + v[1]
            if min(total, p + rest[d + 1]) <= cur:
                break
            if not used:
                new_used = [carry]
            elif not carry & used[0]:
                new_used = [carry | used[0], *used[1:]]
            else:
                new_used = list(used)
                j = 0
                while carry:
                    if j == len(new_used):
                        new_used.append(0)
                    moved = carry & new_used[j]
                    new_used[j] |= carry
                    carry = moved
                    j += 1
                if any(u & ~levels[k] for k, u in enumerate(new_used)):
                    continue
            nhit = hit or bool(v[2] & must_bits)
            chosen.append(i)
            if d + 1 == m:
                if (nhit or not must_bits) and (not whole or sum(u.bit_count() for u in new_used) == total_n):
                    cur = p
                    best[target] = (p, tuple((0, variants[c]) for c in chosen))
                    found = True
                    chosen.pop()
                    break
            else:
                nxt = b if split[d + 1] == split[d] else 0
                pick(d + 1, nxt, new_used, p, nhit)  # noqa: F821 (see the del below)
            chosen.pop()

    def splits(d: int, low: int, left: int) -> None:
        nonlocal cur, target, rest
        if d == m:
            if any(not groups[w] for w in split):
                return
            target = sum(split)
            e = best[target]
            cur = e[0] if e is not None else -1
            rest = [sum(tops[w] for w in split[k:]) for k in range(m + 1)]
            pick(0, 0, [], 0, False)  # noqa: F821 (see the del below)
            return
        for w in range(low, left + 1):
            if w * (m - d) > left:
                break
            split.append(w)
            splits(d + 1, w, left - w)  # noqa: F821 (see the del below)
            split.pop()

    splits(0, 0, budget)
    del pick, splits  # a recursive closure is a reference cycle: unbind it so refcounting frees it at once
    return found


CARD_OF_CODE: Final = [
    Card(code & 15, SUITS[(code >> 4) - 1]) if code >> 4 and 1 <= code & 15 <= 13 else Card(0) for code in range(80)
]
"""The card of each card code (the joker where no card has the code)."""

_VALUE_CARDS: Final = [[CARD_OF_CODE[16 * si + 16 + (v if v <= 13 else 1)] for v in range(15)] for si in range(4)]
"""The card of each value 0-14 of a run (14 a high ace) per suit index; slices of these are new lists."""

_CTXS: dict[int, tuple[RuleSet, _Ctx]] = {}
_CTX_OF_RULES: dict[RuleSet, _Ctx] = {}


def _ctx(rules: RuleSet) -> _Ctx:
    """The solver's tables for ``rules``, shared by equal rule sets (found by identity first)."""
    hit = _CTXS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    ctx = _CTX_OF_RULES.get(rules)
    if ctx is None:
        if len(_CTX_OF_RULES) > 64:
            _CTX_OF_RULES.clear()
        ctx = _CTX_OF_RULES[rules] = _Ctx(rules)
    if len(_CTXS) > 256:
        _CTXS.clear()
    _CTXS[id(rules)] = (rules, ctx)
    return ctx


# ---------------------------------------------------------------------------------------- search
def _search(
    ctx: _Ctx,
    hand: Sequence[Card],
    nsets: int,
    nruns: int,
    *,
    whole: bool,
    must: Card | None,
    used_ranks: frozenset[int],
    used_suits: frozenset[str],
    first: bool,
) -> _Solution | None:
    """The best solution (most points melded), or with ``first`` any solution; None if none."""
    exact = ctx.exact and not whole
    wr = ctx.wild_rank
    pts = ctx.pts
    wild_ranks = (0, wr)
    set_min = ctx.set_min
    if len(hand) < nsets * set_min + nruns * ctx.run_min:
        return None
    # nat: the rank mask of the naturals of each suit, by code >> 4 (suit index + 1)
    cnt, rcount, nat, hand_wilds = _tally(ctx, hand)
    nmin = ctx.set_naturals
    if nsets and sum(x // nmin for x in rcount) < nsets:
        return None
    wilds = list(hand_wilds)
    top_wild = pts[wilds[0].rank] if wilds else 0  # the wilds by falling points
    must_wild = False
    must_r = must_si = -1
    if must is not None:
        if must.rank in wild_ranks:
            if must not in wilds:
                return None
            wilds.remove(must)
            wilds.insert(0, must)
            must_wild = True
        else:
            if not cnt[must.code]:
                return None
            must_r = must.rank
            must_si = (must.code >> 4) - 1
    nwild = len(wilds)
    wp = [0]
    for card in wilds:
        wp.append(wp[-1] + pts[card.rank])
    total = sum(map(mul, rcount, pts)) + wp[nwild]  # the hand's points

    # Runs: which naturals could some run hold (R3, R12, R13, R19)?
    rel = [0, 0, 0, 0]
    if nruns:
        capacity = 0
        npr = ctx.nat_per_run
        for si in range(4):
            mask = nat[si + 1]
            if mask.bit_count() < npr or (ctx.runs_distinct and SUITS[si] in used_suits):
                continue
            cov = ctx.cover(mask, nwild)
            if cov:
                rel[si] = cov
                if ctx.runs_distinct:
                    capacity += 1
                else:
                    base = 16 * si + 16
                    held = sum([cnt[base + r] for r in _ranks_of(cov)])
                    capacity += max(1, held // npr)
        if capacity < nruns:
            return None

    # Sets: ranks that can hold one (R11, R18), and the naturals nothing can ever hold.
    dsuits = ctx.set_distinct_suits
    dead = 0
    dead_n = 0
    ranks: list[tuple[int, list[int]]] = []
    set_capacity = 0
    thin = -1
    if nsets:
        thin = 0
        for r in range(1, 14):
            if 0 < rcount[r] < nmin:
                thin |= 1 << r
    for si in range(4):
        # naturals of ranks too thin for a set that no run can hold either
        lone = nat[si + 1] & ~rel[si] & thin
        while lone:
            bit = lone & -lone
            r = bit.bit_length() - 1
            lone ^= bit
            x = cnt[16 * si + 16 + r]
            dead += x * pts[r]
            dead_n += x
    if nsets:
        for r in range(1, 14):
            nr = rcount[r]
            if nr < nmin:
                continue
            c = [cnt[16 + r], cnt[32 + r], cnt[48 + r], cnt[64 + r]]
            avail = (bool(c[0]) + bool(c[1]) + bool(c[2]) + bool(c[3])) if dsuits else nr
            if avail >= nmin and not (ctx.sets_distinct and r in used_ranks):
                ranks.append((r, c))
                set_capacity += 1 if ctx.sets_distinct else nr // nmin
            else:
                for si in range(4):
                    if c[si] and not rel[si] >> r & 1:
                        dead += c[si] * pts[r]
                        dead_n += c[si]
        if set_capacity < nsets:
            return None
    if whole and dead_n:
        return None
    if must_r > 0 and not rel[must_si] >> must_r & 1 and not any(r == must_r for r, _ in ranks):
        return None

    # The options of each set rank.
    cap_nat = set_min if exact else (ctx.set_max if ctx.set_max is not None else _INF)
    free_fill = whole or (not exact and ctx.set_max is None)
    options: list[list[_Option]] = []
    set_max = ctx.set_max
    for r, c in ranks:
        opts: list[_Option] = []
        p = pts[r]
        # fewer naturals than possible only pays when it makes room for a wild worth more
        fill_all = free_fill or (p >= top_wild and not must_wild)
        if not (rel[0] >> r & 1 or rel[1] >> r & 1 or rel[2] >> r & 1 or rel[3] >> r & 1):
            # fast path: no run wants these naturals, so only how many go to the sets matters
            n = rcount[r]
            if ctx.sets_distinct:
                mmax = 1
            elif dsuits:
                mmax = 1
                while mmax < nsets and sum([min(x, mmax + 1) for x in c]) >= (mmax + 1) * nmin:
                    mmax += 1
            else:
                mmax = min(nsets, n // nmin)
            order = [must_si] + [si for si in range(4) if si != must_si] if r == must_r else [0, 1, 2, 3]
            for m in range(1, mmax + 1):
                cap = m * cap_nat
                hi = min(sum([min(x, m) for x in c]) if dsuits else n, cap)
                lo = max(m * nmin, hi if fill_all else min(hi, cap - nwild))
                for k in range(hi, lo - 1, -1):
                    wmin = max(0, m * set_min - k)
                    if wmin > nwild or (whole and k < n):
                        continue
                    wmax = wmin if exact else (_INF if set_max is None else m * set_max - k)
                    take = [0, 0, 0, 0]
                    left = k
                    for si in order:
                        t = min(left, c[si], m) if dsuits else min(left, c[si])
                        take[si] = t
                        left -= t
                    hit = r == must_r and take[must_si] > 0
                    opts.append((m, (take[0], take[1], take[2], take[3]), k * p, wmin, wmax, (n - k) * p, hit))
            if not whole:
                opts.append((0, (0, 0, 0, 0), 0, 0, 0, n * p, False))
            if not opts:
                return None
            options.append(opts)
            continue
        relbits = [rel[si] >> r & 1 for si in range(4)]
        mmax = 1
        if not ctx.sets_distinct:
            # the most sets this rank can hold
            while mmax < nsets and (sum(min(x, mmax + 1) for x in c) if dsuits else rcount[r]) >= (mmax + 1) * nmin:
                mmax += 1
        order = [must_si] + [si for si in range(4) if si != must_si] if r == must_r else [0, 1, 2, 3]
        for m in range(1, mmax + 1):
            caps = [min(x, m) for x in c] if dsuits else c
            nonrel = [si for si in order if caps[si] and not relbits[si]]
            nmax = sum(caps[si] for si in nonrel)
            relsuits = [si for si in range(4) if caps[si] and relbits[si]]
            cap = m * cap_nat
            for reltake in product(*(range(caps[si], -1, -1) for si in relsuits)):
                kr = sum(reltake)
                tn_hi = min(nmax, cap - kr)
                tn_lo = max(m * nmin - kr, 0, tn_hi if fill_all else min(tn_hi, cap - nwild - kr))
                for tn in range(tn_hi, tn_lo - 1, -1):
                    k = kr + tn
                    wmin = max(0, m * set_min - k)
                    if wmin > nwild:
                        continue
                    wmax = wmin if exact else (_INF if set_max is None else m * set_max - k)
                    take = [0, 0, 0, 0]
                    for si, t in zip(relsuits, reltake, strict=True):
                        take[si] = t
                    left = tn
                    for si in nonrel:
                        t = min(left, caps[si])
                        take[si] = t
                        left -= t
                    dead_left = sum(c[si] - take[si] for si in range(4) if not relbits[si])
                    if whole and dead_left:
                        continue
                    hit = r == must_r and take[must_si] > 0
                    opts.append((m, (take[0], take[1], take[2], take[3]), k * p, wmin, wmax, dead_left * p, hit))
        dead0 = sum(c[si] for si in range(4) if not relbits[si])
        if not (whole and dead0):
            opts.append((0, (0, 0, 0, 0), 0, 0, 0, dead0 * p, False))
        if not opts:
            return None
        options.append(opts)

    nranks = len(ranks)
    max_sets = [0] * (nranks + 1)
    rest_dead = [0] * (nranks + 1)
    rest_whole_ok = [True] * (nranks + 1)
    # top_pts[i][j]: the most natural points j sets from ranks i.. can hold (each rank once)
    top_pts: list[list[int]] = [[0] * (nsets + 1) for _ in range(nranks + 1)]
    for i in range(nranks - 1, -1, -1):
        max_sets[i] = max_sets[i + 1] + max(o[0] for o in options[i])
        mine = max(o[2] for o in options[i])
        nxt = top_pts[i + 1]
        top_pts[i] = [0] + [max(nxt[j], nxt[j - 1] + mine) for j in range(1, nsets + 1)]
        zero = [o for o in options[i] if o[0] == 0]
        rest_dead[i] = rest_dead[i + 1] + (zero[0][5] if zero else 0)
        rest_whole_ok[i] = rest_whole_ok[i + 1] and bool(zero)

    # Run counts per suit: only the naturals some run could hold.
    run_counts: list[list[int]] = []
    runs_bound = 0  # natural points runs could hold at most
    for si in range(4 if nruns else 0):
        base = 16 * si + 16
        rc = [0] * 14
        for r in _ranks_of(rel[si]):
            rc[r] = x = cnt[base + r]
            runs_bound += x * pts[r]
        run_counts.append(rc)
    npr = ctx.nat_per_run
    runs_distinct = ctx.runs_distinct

    best_val = -1
    best: _Solution | None = None
    goal = total - dead
    done = False
    chosen: list[tuple[int, _Option]] = []

    def run_dp(budget: int, must_suit: int, whole: bool, exact: bool) -> list[list[_Link | None]] | None:
        """Knapsack over the suits: the best runs per number of runs and wilds (R12, R13)."""
        dp: list[list[_Link | None]] = [[None] * (budget + 1) for _ in range(nruns + 1)]
        dp[0][0] = (0, None)
        for si in range(4):
            if not rel[si]:
                continue
            rc = run_counts[si]
            if chosen:
                rc = list(rc)
                for r, opt in chosen:
                    if rc[r]:
                        rc[r] -= opt[1][si]
            counts = tuple(rc)
            ntot = sum(counts)
            is_must = si == must_suit
            if not ntot:
                continue
            forced = whole or is_must
            mv = must_r if is_must else 0
            mcap = 1 if runs_distinct else min(nruns, max(1, ntot // npr))
            new: list[list[_Link | None]] = (
                [[None] * (budget + 1) for _ in range(nruns + 1)] if forced else [list(row) for row in dp]
            )
            for m in range(1, mcap + 1):
                tab = ctx.table(counts, nwild, m, whole=whole, must=mv, exact=exact)
                if tab is None:
                    if whole:
                        continue
                    break
                for j in range(nruns - m + 1):
                    row = dp[j]
                    target = new[j + m]
                    for w1 in range(budget + 1):
                        e1 = row[w1]
                        if e1 is None:
                            continue
                        for w2 in range(budget - w1 + 1):
                            e2 = tab[w2]
                            if e2 is None:
                                continue
                            val = e1[0] + e2[0]
                            cur = target[w1 + w2]
                            if cur is None or val > cur[0]:
                                target[w1 + w2] = (val, (e1[1], si, e2[1]))
            dp = new
        return dp

    def leaf(melded: int, wmin: int, wmax: int, hit: bool) -> None:
        nonlocal best_val, best, done
        budget = nwild - wmin
        if not nruns:
            used = min(nwild, wmax)
            if (whole and used != nwild) or (must_wild and not used) or (must_r > 0 and not hit):
                return
            val = melded + wp[used]
            if val > best_val:
                best_val = val
                best = (val, tuple(chosen), (), used, tuple(wilds[:used]))
                done = first or val >= goal
            return
        need_must = must_r > 0 and not hit
        if need_must and not rel[must_si] >> must_r & 1:
            return
        dp = run_dp(budget, must_si if need_must else -1, whole, exact)
        if dp is None:
            return
        for w_r in range(budget + 1):
            e = dp[nruns][w_r]
            if e is None:
                continue
            used = min(nwild, w_r + wmax)
            if (whole and used != nwild) or (must_wild and not used):
                continue
            val = melded + e[0] + wp[used]
            if val > best_val:
                best_val = val
                best = (val, tuple(chosen), _unchain(e[1]), used - w_r, tuple(wilds[:used]))
                done = first or val >= goal

    def rec(i: int, left: int, melded: int, wmin: int, wmax: int, lost: int, hit: bool) -> None:
        nonlocal done
        if not left:
            if whole and not rest_whole_ok[i]:
                return
            if total - lost - rest_dead[i] > best_val:
                leaf(melded, wmin, wmax, hit)
            return
        if max_sets[i] < left or melded + top_pts[i][left] + runs_bound + wp[nwild] <= best_val:
            return
        for opt in options[i]:
            m = opt[0]
            if m > left or wmin + opt[3] > nwild or total - lost - opt[5] <= best_val:
                continue
            if m:
                chosen.append((ranks[i][0], opt))
            rec(i + 1, left - m, melded + opt[2], wmin + opt[3], wmax + opt[4], lost + opt[5], hit or opt[6])  # noqa: F821 (see the del below)
            if m:
                chosen.pop()
            if done:
                return

    rec(0, nsets, 0, 0, 0, dead, False)
    del rec  # a recursive closure is a reference cycle: unbind it so refcounting frees it at once
    return best


# ---------------------------------------------------------------------------------------- existence
def _sets_fit(ctx: _Ctx, cnt: list[int], rc: list[int], ranks: list[int], wilds: int, nsets: int) -> bool:
    """Whether ``nsets`` sets (R11, R18) fit in the naturals ``cnt`` (``rc``: per rank) of
    ``ranks`` and ``wilds`` wild cards."""
    nmin = ctx.set_naturals
    smin = ctx.set_min
    if ctx.set_distinct_suits:
        return _distinct_sets_fit(ctx, cnt, ranks, wilds, nsets)
    if nsets == 1:
        need = max(nmin, smin - wilds)
        return any(rc[r] >= need for r in ranks)
    if nsets == 2:
        # two sets of one rank, or one each of the two ranks needing the fewest wilds
        low1 = low2 = _INF
        pairs = not ctx.sets_distinct
        for r in ranks:
            n = rc[r]
            if n < nmin:
                continue
            if pairs and n >= 2 * nmin and 2 * smin - n <= wilds:
                return True
            cost = smin - n if n < smin else 0
            if cost < low1:
                low1, low2 = cost, low1
            elif cost < low2:
                low2 = cost
        return low1 + low2 <= wilds
    # best[j]: fewest wilds j sets need, over the ranks seen so far
    best = [0] + [_INF] * nsets
    mmax = 1 if ctx.sets_distinct else nsets
    for r in ranks:
        n = rc[r]
        if n < nmin:
            continue
        costs = [0]
        for m in range(1, min(mmax, n // nmin) + 1):
            costs.append(m * smin - n if n < m * smin else 0)
        for j in range(nsets, 0, -1):
            for m in range(1, min(j, len(costs) - 1) + 1):
                best[j] = min(best[j], best[j - m] + costs[m])
        if best[nsets] <= wilds:
            return True
    return False


def _distinct_sets_fit(ctx: _Ctx, cnt: list[int], ranks: list[int], wilds: int, nsets: int) -> bool:
    """:func:`_sets_fit` when a set holds one natural of each suit at most (R11)."""
    nmin = ctx.set_naturals
    smin = ctx.set_min
    best = [0] + [_INF] * nsets
    mmax = 1 if ctx.sets_distinct else nsets
    for r in ranks:
        c = (cnt[16 + r], cnt[32 + r], cnt[48 + r], cnt[64 + r])
        if bool(c[0]) + bool(c[1]) + bool(c[2]) + bool(c[3]) < nmin:
            continue
        costs = [0]
        for m in range(1, mmax + 1):
            # most naturals m sets of distinct suits hold, each at most set_min (a max flow)
            most = min((m - a) * smin + sum(min(x, a) for x in c) for a in range(m + 1))
            if most < m * nmin:
                break
            costs.append(m * smin - most)
        for j in range(nsets, 0, -1):
            for m in range(1, min(j, len(costs) - 1) + 1):
                best[j] = min(best[j], best[j - m] + costs[m])
        if best[nsets] <= wilds:
            return True
    return False


# A hand counted: (naturals by card code, naturals by rank, rank mask of the naturals by code >> 4,
# wild cards by falling points then code).
_Tally = tuple[list[int], list[int], list[int], tuple[Card, ...]]
_TALLY_LIMIT = 256
"""Hands tallied and kept: a hand is asked about several times in a row (the lay-downs listed for
it, the bots' questions), seldom later, and fewer live objects make the garbage collector's passes
shorter."""


def _tally(ctx: _Ctx, hand: Sequence[Card]) -> _Tally:
    """``hand`` counted (see ``_Tally``; card codes are (suit index + 1) * 16 + rank, 0 for a
    joker), memoised by the hand's cards in order. The lists are shared by every caller and never
    changed (a caller that needs to change them copies them): threads may share the memo."""
    codes = bytes(hand)  # the card codes (a card is its code), as plain ints
    memo = ctx.tally_memo
    hit = memo.get(codes)
    if hit is not None:
        return hit
    cnt = [0] * 80
    rc = [0] * 14
    masks = [0, 0, 0, 0, 0]
    for code in codes:
        cnt[code] += 1
        rc[code & 15] += 1
        masks[code >> 4] |= 1 << (code & 15)
    wilds = [CARD_OF_CODE[0]] * cnt[0]
    cnt[0] = rc[0] = masks[0] = 0
    wr = ctx.wild_rank
    if wr and rc[wr]:
        for code in (16 + wr, 32 + wr, 48 + wr, 64 + wr):
            wilds += [CARD_OF_CODE[code]] * cnt[code]
            cnt[code] = 0
        rc[wr] = 0
        clear = ~(1 << wr)
        masks = [m & clear for m in masks]
        wilds.sort(key=ctx.wild_key)
    res = (cnt, rc, masks, tuple(wilds))
    if len(memo) > _TALLY_LIMIT:
        memo.clear()
    memo[codes] = res
    return res


def _exists(
    ctx: _Ctx, hand: Sequence[Card], nsets: int, nruns: int, used_ranks: frozenset[int], used_suits: frozenset[str]
) -> bool:
    """Whether ``hand`` holds ``nsets`` sets and ``nruns`` runs (not the whole hand, no card that
    must be used): ``can_complete`` without the search for the best melds."""
    if len(hand) < nsets * ctx.set_min + nruns * ctx.run_min:
        return False
    cnt, rc, masks, wilds = _tally(ctx, hand)
    # copies: _exists_in changes the counts while it searches (and puts them back)
    return _exists_in(ctx, cnt.copy(), rc.copy(), masks, len(wilds), nsets, nruns, used_ranks, used_suits)


def _exists_in(
    ctx: _Ctx,
    cnt: list[int],
    rc: list[int],
    masks: list[int],
    nwild: int,
    nsets: int,
    nruns: int,
    used_ranks: frozenset[int],
    used_suits: frozenset[str],
) -> bool:
    """:func:`_exists` on counted cards (left as they were). Melds of the least length suffice;
    runs are tried first, then the sets are fitted in what they leave."""
    ranks: list[int] = []
    if nsets:
        nmin = ctx.set_naturals
        sets_distinct = ctx.sets_distinct
        have = 0
        for r in range(1, 14):
            n = rc[r]
            if n >= nmin and not (sets_distinct and r in used_ranks):
                ranks.append(r)
                have += 1 if sets_distinct else n // nmin
        if have < nsets:
            return False
        if not nruns:
            return _sets_fit(ctx, cnt, rc, ranks, nwild, nsets)
    budget = min(nwild, ctx.run_wilds)
    npr = ctx.nat_per_run
    runs_distinct = ctx.runs_distinct
    high_ace = ctx.top == 14
    memo = ctx.run_opts_memo
    opts: list[tuple[tuple[int, ...], int, int, int]] = []  # (ranks, wilds, rank mask, suit's first code)
    for si in range(4):
        mask = masks[si + 1]
        if mask.bit_count() < npr or (runs_distinct and SUITS[si] in used_suits):
            continue
        if mask & 2 and high_ace:
            mask |= 1 << 14
        found = memo.get((mask, budget))
        if found is None:
            found = ctx.run_options(mask, budget)
        if found:
            if nruns == 1 and not nsets:
                return True
            base = 16 * si + 16
            opts.extend([(run_ranks, w, rm, base) for run_ranks, w, rm in found])
    if not opts:
        return False
    if nruns == 1:
        # the sets see the run only through its wilds unless it holds naturals of their ranks
        rbits = 0
        for r in ranks:
            rbits |= 1 << r
        plain: dict[int, bool] = {}
        for run_ranks, w, rm, base in opts:
            if rm & rbits:
                for r in run_ranks:
                    cnt[base + r] -= 1
                    rc[r] -= 1
                ok = _sets_fit(ctx, cnt, rc, ranks, nwild - w, nsets)
                for r in run_ranks:
                    cnt[base + r] += 1
                    rc[r] += 1
            else:
                hit = plain.get(w)
                if hit is None:
                    hit = plain[w] = _sets_fit(ctx, cnt, rc, ranks, nwild - w, nsets)
                ok = hit
            if ok:
                return True
        return False
    if runs_distinct and len({o[3] for o in opts}) < nruns:
        return False
    if nruns == 2 and not nsets:
        for i, (_, w1, rm1, base1) in enumerate(opts):
            for _, w2, rm2, base2 in opts[i:]:
                if w1 + w2 > nwild:
                    continue
                if base1 == base2:
                    if runs_distinct:
                        continue
                    both = rm1 & rm2
                    if both and any(cnt[base1 + r] < 2 for r in _ranks_of(both)):
                        continue
                return True
        return False
    nopts = len(opts)

    def pick(start: int, left: int, wilds: int, last_base: int) -> bool:
        for i in range(start, nopts):
            run_ranks, w, _, base = opts[i]
            if w > wilds or (runs_distinct and base == last_base):
                continue
            held = [base + r for r in run_ranks]
            if not all([cnt[c] for c in held]):
                continue
            for c in held:
                cnt[c] -= 1
                rc[c & 15] -= 1
            if left > 1:
                found = pick(i + 1 if runs_distinct else i, left - 1, wilds - w, base)  # noqa: F821 (see the del below)
            else:
                found = not nsets or _sets_fit(ctx, cnt, rc, ranks, wilds - w, nsets)
            for c in held:
                cnt[c] += 1
                rc[c & 15] += 1
            if found:
                return True
        return False

    exists = pick(0, nruns, nwild, -1)
    del pick  # a recursive closure is a reference cycle: unbind it so refcounting frees it at once
    return exists


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

    __slots__ = ("counts", "ctx", "hand", "nwild", "size", "wr")

    def __init__(self, hand: Sequence[Card], rules: RuleSet) -> None:
        self.ctx = ctx = _ctx(rules)
        self.hand = hand
        self.size = len(hand)
        self.wr = ctx.wild_rank
        cnt, rc, masks, wilds = _tally(ctx, hand)
        self.nwild = len(wilds)
        self.counts = (cnt.copy(), rc.copy(), masks.copy())  # its own: __call__ changes them for a while

    def __call__(
        self,
        cards: Sequence[Card],
        sets: int,
        runs: int,
        used_set_ranks: frozenset[int] = frozenset(),
        used_run_suits: frozenset[str] = frozenset(),
    ) -> bool:
        ctx = self.ctx
        if sets == 0 and runs == 0:
            return True
        if not ctx.fast or sets < 0 or runs < 0:
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


# ---------------------------------------------------------------------------------------- output
def _build(ctx: _Ctx, sol: _Solution, whole: bool) -> list[list[Card]]:
    """The melds of a solution: sets (by rank) then runs (by suit, then start), runs in table order."""
    _, groups, runs, set_wilds, used_wilds = sol
    exact = ctx.exact and not whole
    wild_iter = iter(used_wilds)
    sets: list[list[Card]] = []
    for r, opt in groups:
        m = opt[0]
        cards = [CARD_OF_CODE[16 * si + 16 + r] for si in range(4) for _ in range(opt[1][si])]
        group = [cards[j::m] for j in range(m)]
        sets.extend(group)
    # wilds: first what each set needs, then extras up to the cap
    give = [max(0, ctx.set_min - len(s)) for s in sets]
    extra = set_wilds - sum(give)
    if extra and not exact:
        for i, s in enumerate(sets):
            room = _INF if ctx.set_max is None else ctx.set_max - len(s) - give[i]
            add = min(room, extra)
            give[i] += add
            extra -= add
            if not extra:
                break
    for i, s in enumerate(sets):
        for _ in range(give[i]):
            s.append(next(wild_iter))
    out_runs: list[list[Card]] = []
    for si, (_, _, _, a, b, wmask) in sorted(runs, key=lambda x: (x[0], x[1][3], x[1][4], x[1][5])):
        value_cards = _VALUE_CARDS[si]
        run = []
        for v in range(a, b + 1):
            run.append(next(wild_iter) if wmask >> v & 1 else value_cards[v])
        out_runs.append(run)
    return sets + out_runs


def _runs_cannot_take(ctx: _Ctx, hand: Sequence[Card], nruns: int) -> bool:
    """Whether ``nruns`` runs surely cannot take every natural of ``hand`` (R15): a run holds
    nat_per_run naturals at least and one of each rank at most (R3, R12), so a suit needs as many
    runs as it holds copies of its commonest rank; and a natural that no run could hold is left."""
    cnt, _, nat, wilds = _tally(ctx, hand)
    npr = ctx.nat_per_run
    need = 0
    for si in range(1, 5):
        if nat[si]:
            counts = cnt[16 * si + 1 : 16 * si + 14]
            if sum(counts) < npr:
                return True
            need += max(counts)
    if need > nruns:
        return True
    nwild = len(wilds)
    return any(mask and ctx.cover(mask, nwild) != mask for mask in nat)


def _cached(
    rules: RuleSet,
    hand: Sequence[Card],
    nsets: int,
    nruns: int,
    *,
    whole: bool,
    must: Card | None,
    used_ranks: frozenset[int],
    used_suits: frozenset[str],
    first: bool,
) -> tuple[_Ctx, _Solution | None]:
    if nsets < 0 or nruns < 0:
        raise ValueError(f"sets and runs must be 0 or more, got {nsets} and {nruns}")
    ctx = _ctx(rules)
    if whole and not nsets and _runs_cannot_take(ctx, hand, nruns):
        return ctx, None  # most whole-hand questions end here: not worth a memo entry
    if not ctx.sets_distinct:
        used_ranks = _NO_RANKS
    if not ctx.runs_distinct:
        used_suits = _NO_SUITS
    key = (
        bytes(sorted(hand)),  # the card codes (a card is its code)
        nsets,
        nruns,
        whole,
        -1 if must is None else must.code,
        used_ranks,
        used_suits,
        first,
    )
    results = ctx.results
    if key in results:
        return ctx, results[key]
    sol = _search(
        ctx, hand, nsets, nruns, whole=whole, must=must, used_ranks=used_ranks, used_suits=used_suits, first=first
    )
    if len(results) > _MEMO_LIMIT:
        results.clear()
    results[key] = sol
    if sol is not None and not first:
        results[(*key[:-1], True)] = sol
    return ctx, sol


# ---------------------------------------------------------------------------------------- API
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
    """
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


def _wild_sequences(kinds: list[tuple[Card, int]], n: int) -> list[list[Card]]:
    """Every distinct sequence of ``n`` wild cards drawn from the multiset ``kinds``."""
    out: list[list[Card]] = []
    left = [k for _, k in kinds]
    seq: list[Card] = []

    def rec() -> None:
        if len(seq) == n:
            out.append(list(seq))
            return
        for i, (card, _) in enumerate(kinds):
            if left[i]:
                left[i] -= 1
                seq.append(card)
                rec()  # noqa: F821 (see the del below)
                seq.pop()
                left[i] += 1

    rec()
    del rec  # a recursive closure is a reference cycle: unbind it so refcounting frees it at once
    return out


def candidate_melds(hand: Sequence[Card], kind: str, rules: RuleSet, *, exact: bool = False) -> list[list[Card]]:
    """Every distinct valid meld of ``kind`` ("set" or "run") that can be drawn from ``hand``.

    Sets: each multiset of naturals of one rank plus any multiset of the hand's wild cards (R11,
    R18). Runs (R3, R12, R19), in table order: wild cards stand only where the hand holds no natural
    for that place (inside the run or beyond its ends); a card of the wild rank counts as wild.
    ``exact``: only melds of the minimum length (R42). Sets come by rank, runs by suit then start.

    >>> from liverpool.cards import format_cards, parse_cards
    >>> [format_cards(m) for m in candidate_melds(parse_cards("4H 5H 6H JK 9C"), "run", RuleSet())]
    ['JK 4H 5H 6H', '4H 5H 6H JK']
    """
    if kind not in ("set", "run"):
        raise ValueError(f"kind must be 'set' or 'run', got {kind!r}")
    ctx = _ctx(rules)
    cnt, rc, masks, wilds = _tally(ctx, hand)
    # the wild cards by kind, by falling points then code
    kinds = [(card, len(list(same))) for card, same in groupby(wilds)]
    nwild = len(wilds)
    by_code = CARD_OF_CODE
    out: list[list[Card]] = []
    if kind == "set":
        wild_sets: list[list[Card]] = []
        if len(kinds) == 1:
            card, k = kinds[0]
            wild_sets = [[card] * i for i in range(k + 1)]
        else:
            for counts in product(*(range(k + 1) for _, k in kinds)):
                wild_sets.append([card for (card, _), k in zip(kinds, counts, strict=True) for _ in range(k)])
            wild_sets.sort(key=len)
        # every such set is valid when its length is (R11, R18): its naturals are of one rank, at
        # least set_min_naturals, and of distinct suits when the rules ask for it
        low = ctx.set_min
        high = ctx.set_min if exact else (ctx.set_max if ctx.set_max is not None else _INF)
        nmin = ctx.set_naturals
        distinct_suits = ctx.set_distinct_suits
        for r in range(1, 14):
            if rc[r] < nmin:
                continue
            # the naturals taken, suit by suit (the first suit outermost), from the most cards down
            combos: list[list[Card]] = [[]]
            for code in range(16 + r, 80, 16):
                t = cnt[code]
                if t:
                    card = by_code[code]
                    combos = [prev + [card] * k for prev in combos for k in range(1 if distinct_suits else t, -1, -1)]
            for naturals in combos:
                n = len(naturals)
                if n < nmin or n > high:
                    continue
                for ws in wild_sets:
                    if low <= n + len(ws) <= high:
                        out.append(naturals + ws)
        return out
    high_ace = ctx.top == 14
    sequences: dict[int, list[list[Card]]] = {}
    for si in range(4):
        nat = masks[si + 1]
        if not nat:
            continue
        if nat & 2 and high_ace:
            nat |= 1 << 14
        windows = ctx.run_windows(nat, min(nwild, 4), exact)
        if not windows:
            continue
        value_cards = _VALUE_CARDS[si]
        for a, b, miss, k in windows:
            # a run of naturals in place and spaced wild cards in the gaps is valid (R3, R12, R19)
            if not k:
                out.append(value_cards[a : b + 1])
                continue
            seqs = sequences.get(k)
            if seqs is None:
                seqs = sequences[k] = _wild_sequences(kinds, k)
            for seq in seqs:
                fill = iter(seq)
                out.append([next(fill) if miss >> v & 1 else value_cards[v] for v in range(a, b + 1)])
    return out

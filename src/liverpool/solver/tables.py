"""What the solver derives from one RuleSet (:class:`_Ctx`, shared by equal rule sets) and a hand counted
once (:func:`_tally`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ..cards import Card
from ..melds import run_wild_cap
from ..rules import RuleSet
from .base import _INF, _MEMO_LIMIT, _TALLY_LIMIT, CARD_OF_CODE, _Entry, _ranks_of, _Solution, _spaced, _Tally, _Variant
from .runs import _cover_runs, _extra_wilds, _multi_runs


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
        "variant",
        "variant_memo",
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
        self.top = rules.run_top
        self.run_min = rules.run_min
        # Fewest naturals of any run (R19: melds.run_wild_cap, the limit's one home).
        self.nat_per_run = max(1, rules.run_min - run_wild_cap(rules.run_min, rules))
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
        self.fast = rules.run_min <= 13 and not rules.meld_variant
        # the meld variants (issue 16): every answer comes from the general search (generic.py)
        self.variant = rules.meld_variant
        self.variant_memo: dict[tuple[object, ...], object] = {}  # generic.py's answers and shapes
        self.run_wilds = run_wild_cap(rules.run_min, rules)  # most wild cards a run of run_min holds (R19)
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


_RANK_BIT: Final = tuple(1 << (code & 15) for code in range(80))  # a card code's bit in its suit's rank mask


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
    rc = [0] * 16
    masks = [0, 0, 0, 0, 0]
    bit = _RANK_BIT
    for code in codes:
        cnt[code] += 1
        rc[code & 15] += 1
        masks[code >> 4] |= bit[code]
    if rc[15]:  # dead deuces: the option takes the general search (generic.py); left out here
        for code in (31, 47, 63, 79):
            cnt[code] = 0
        rc[15] = 0
        masks = [m & 0x7FFF for m in masks]
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

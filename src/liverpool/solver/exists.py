"""The quick existence test: can the contract be laid at all (no optimising), for listings that only ask
whether."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUITS, Card
from .base import _INF, _ranks_of
from .tables import _Ctx, _tally


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
    return _pick_runs(ctx, opts, cnt, rc, ranks, nsets, 0, nruns, nwild, -1)


def _pick_runs(
    ctx: _Ctx,
    opts: list[tuple[tuple[int, ...], int, int, int]],
    cnt: list[int],
    rc: list[int],
    ranks: list[int],
    nsets: int,
    start: int,
    left: int,
    wilds: int,
    last_base: int,
) -> bool:
    """Whether ``left`` more runs of ``opts`` (from ``start`` on) fit in the counted cards with
    ``wilds`` wild cards, and then the sets (``_exists_in``'s search; a function of the module, not a
    closure: mypyc kept the closure and its environment as a reference cycle)."""
    runs_distinct = ctx.runs_distinct
    for i in range(start, len(opts)):
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
            found = _pick_runs(
                ctx, opts, cnt, rc, ranks, nsets, i + 1 if runs_distinct else i, left - 1, wilds - w, base
            )
        else:
            found = not nsets or _sets_fit(ctx, cnt, rc, ranks, wilds - w, nsets)
        for c in held:
            cnt[c] += 1
            rc[c & 15] += 1
        if found:
            return True
    return False

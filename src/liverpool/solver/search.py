"""The optimising search (R10-R19, R40, R42): sets rank by rank with branch and bound, runs suit by suit,
the melds of a solution, and the memo of answers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from operator import mul

from ..cards import SUITS, Card
from ..rules import RuleSet
from .base import (
    _INF,
    _MEMO_LIMIT,
    _NO_RANKS,
    _NO_SUITS,
    _VALUE_CARDS,
    CARD_OF_CODE,
    _Link,
    _Option,
    _ranks_of,
    _Solution,
)
from .generic import solve_variant
from .runs import _unchain
from .tables import _Ctx, _ctx, _tally


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
    # the closures reach one another through lists emptied after the search (mypyc keeps a closure
    # that another one names in their shared environment: a reference cycle, and it cannot del one)
    run_dps: list[Callable[[int, int, bool, bool], list[list[_Link | None]] | None]] = []
    leaves: list[Callable[[int, int, int, bool], None]] = []
    recurse: list[Callable[[int, int, int, int, int, int, bool], None]] = []

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
        dp = run_dps[0](budget, must_si if need_must else -1, whole, exact)
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
                leaves[0](melded, wmin, wmax, hit)
            return
        if max_sets[i] < left or melded + top_pts[i][left] + runs_bound + wp[nwild] <= best_val:
            return
        for opt in options[i]:
            m = opt[0]
            if m > left or wmin + opt[3] > nwild or total - lost - opt[5] <= best_val:
                continue
            if m:
                chosen.append((ranks[i][0], opt))
            recurse[0](i + 1, left - m, melded + opt[2], wmin + opt[3], wmax + opt[4], lost + opt[5], hit or opt[6])
            if m:
                chosen.pop()
            if done:
                return

    run_dps.append(run_dp)
    leaves.append(leaf)
    recurse.append(rec)
    rec(0, nsets, 0, 0, 0, dead, False)
    run_dps.clear()  # the closures reach one another through the lists alone: no reference cycle left
    leaves.clear()
    recurse.clear()
    return best


def _build(ctx: _Ctx, sol: _Solution | list[list[Card]], whole: bool) -> list[list[Card]]:
    """The melds of a solution: sets (by rank) then runs (by suit, then start), runs in table order
    (the general search of the meld variants gives its melds as they are)."""
    if isinstance(sol, list):
        return [list(m) for m in sol]
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
) -> tuple[_Ctx, _Solution | list[list[Card]] | None]:
    if nsets < 0 or nruns < 0:
        raise ValueError(f"sets and runs must be 0 or more, got {nsets} and {nruns}")
    ctx = _ctx(rules)
    if ctx.variant:
        melds = solve_variant(
            hand, nsets, nruns, rules, whole=whole, must=must, used_ranks=used_ranks, used_suits=used_suits, first=first
        )
        return ctx, melds
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

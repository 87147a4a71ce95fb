"""Runs inside one suit (R3, R12, R13, R19): the variants a suit's naturals allow, covers and the table of
the best ``m`` runs per number of wild cards."""

from __future__ import annotations

from collections.abc import Callable

from .base import _Chain, _Entry, _rank_mask, _Reach, _spaced, _Variant


def _extra_wilds(
    out: list[_Variant], vp: tuple[int, ...], used: int, miss: int, *, k: int, base: int, a: int, b: int, free: int
) -> None:
    """Append the variants of one run where wilds also stand in places the hand holds a natural
    for (freeing that natural for another meld, or melding a wild worth more)."""
    bits = [p for p in range(a, b + 1) if used >> p & 1]
    recurse: list[Callable[[int, int, int, int], None]] = []

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
                recurse[0](i + 1, w, lost + vp[p], extra + 1)

    recurse.append(rec)
    rec(0, miss, 0, 0)
    recurse.clear()  # the closure reaches itself through the list alone: no reference cycle left


def _unchain(chain: _Chain | None) -> tuple[tuple[int, _Variant], ...]:
    out: list[tuple[int, _Variant]] = []
    while chain is not None:
        chain, si, runs = chain
        out.extend((si, v) for _, v in runs)
    return tuple(out)


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
    recurse: list[Callable[[tuple[int, ...], int], _Reach]] = []

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
                for (w, h), rest in recurse[0](tuple(left), k - 1).items():
                    w += v[0]
                    if w <= budget:
                        out.setdefault((w, h or mine), (i, *rest))
                if len(out) == goal:
                    break
        memo[key] = out
        return out

    recurse.append(cover)
    found = False
    total_pts = 0
    for (w, h), idx in cover(tuple(counts), m).items():
        if must_bits and not h:
            continue
        total_pts = sum(variants[i][1] for i in idx)
        if best[w] is None:
            best[w] = (total_pts, tuple((0, variants[i]) for i in idx))
            found = True
    recurse.clear()  # the closure reaches itself through the list alone: no reference cycle left
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
    picking: list[Callable[[int, int, list[int], int, bool], None]] = []
    splitting: list[Callable[[int, int, int], None]] = []

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
                picking[0](d + 1, nxt, new_used, p, nhit)
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
            picking[0](0, 0, [], 0, False)
            return
        for w in range(low, left + 1):
            if w * (m - d) > left:
                break
            split.append(w)
            splitting[0](d + 1, w, left - w)
            split.pop()

    picking.append(pick)
    splitting.append(splits)
    splits(0, 0, budget)
    picking.clear()  # the closures reach one another through the lists alone: no reference cycle left
    splitting.clear()
    return found

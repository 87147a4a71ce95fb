"""The contract deficit: how many cards a hand misses, at best, for this deal's sets and runs of minimum
length (R18, R19), and which cards the best partial contracts keep."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import Card
from .runs import _extend, _runs_finish, _runs_knapsack, _runs_only, _windows
from .tactics import _AT_LEAST, _BIG, _MEMO_LIMIT, _UNPLANNED, Tactics, _Leaf, _Part, _Rec


def analyse(t: Tactics, hand: Sequence[Card], sets: int, runs: int, whole: bool) -> tuple[int, tuple[int, ...], int]:
    """The deficit of ``hand`` for ``sets`` sets and ``runs`` runs: the fewest cards missing for
    melds of minimum length (with ``whole``, R15, plus the natural cards no meld could hold).

    Returns (deficit, keep, set ranks): ``keep`` holds one rank mask per suit of the naturals some
    best partial contract uses in a run; ``set ranks`` is the rank mask of the sets' ranks in some
    best partial contract (every natural of those ranks is kept).
    """
    key = (bytes(sorted(hand)), sets, runs, whole)  # card codes: a key the garbage collector skips
    memo = t.memo
    hit = memo.get(key)
    if hit is not None:
        if len(hit[1]) == 4:
            return hit
        res = memo[key] = _measure(t, key[0], sets, runs, whole)  # an entry without its plan
        return res
    res = _measure(t, key[0], sets, runs, whole)
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    memo[key] = res
    return res


def deficit_of(t: Tactics, hand: Sequence[Card], sets: int, runs: int, whole: bool, below: int = _BIG) -> int:
    """``min(analyse(t, hand, sets, runs, whole)[0], below)``, working out no more than that.

    The memo gets the same keys as :func:`analyse` would give it, but for a contract of sets and
    runs an entry may hold only a lower bound of the deficit (:data:`_AT_LEAST`, when the search for
    a deficit under ``below`` found none), and :func:`deficits_without` leaves out plans
    (:data:`_UNPLANNED`); :func:`analyse` works the plan out when asked."""
    key = (bytes(sorted(hand)), sets, runs, whole)
    memo = t.memo
    hit = memo.get(key)
    if hit is not None:
        if hit[0] >= below:
            return below
        if hit[1] is not _AT_LEAST:
            return hit[0]
        res = memo[key] = _bounded(t, key[0], sets, runs, whole, below)  # the bound known is too low
        return res[0] if res[0] < below else below
    res = _bounded(t, key[0], sets, runs, whole, below)
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    memo[key] = res
    return res[0] if res[0] < below else below


def _bounded(
    t: Tactics, codes: bytes, sets: int, runs: int, whole: bool, below: int
) -> tuple[int, tuple[int, ...], int]:
    """The memo entry :func:`deficit_of` makes for the sorted card codes ``codes``: the plan, or
    (``below``, :data:`_AT_LEAST`, 0) when the deficit is not under ``below``."""
    if below < _BIG:
        if sets and runs:
            res = _measure(t, codes, sets, runs, whole, below)
            return res if res[0] < below else (below, _AT_LEAST, 0)
        if runs:  # the deficit alone (the knapsack of _runs_finish): the plan is worked out if asked
            jokers, m1, m2, m3, _, _ = _masks(t, codes)
            states = _runs_knapsack(t, m1, m2, m3, runs, jokers, whole, -1)
            return _runs_finish(t, states, (0, 0, 0), runs, jokers, whole), _UNPLANNED, 0
    return _measure(t, codes, sets, runs, whole)


def deficits_without(
    t: Tactics, hand: Sequence[Card], cards: Sequence[Card], sets: int, runs: int, whole: bool
) -> list[int]:
    """``[deficit_of(t, hand less card, sets, runs, whole) for card in cards]`` (cards of ``hand``).

    For a contract of runs only the suits are independent: a natural card changes the table of its
    own suit only, so the knapsack over the other suits is shared by the cards of one suit
    (:func:`_runs_knapsack`) and the memo remembers the deficits without their plans."""
    memo = t.memo
    out = []
    codes = bytes(sorted(hand))
    runs_only = runs and not sets
    shared: dict[int, dict[int, int]] = {}
    masks = None
    wild = t.wild
    for card in cards:
        rest = bytearray(codes)
        rest.remove(card)
        key = (bytes(rest), sets, runs, whole)
        hit = memo.get(key)
        if hit is not None and hit[1] is not _AT_LEAST:
            out.append(hit[0])
            continue
        r = card & 15
        if r == 15:  # a dead deuce (R46): its run place, or none (then measured in full)
            r = t.dead_place
        if runs_only and r and r != wild:
            if masks is None:
                masks = _masks(t, codes)
            jokers, m1, m2, m3, _, _ = masks
            si = (card >> 4) - 1
            others = shared.get(si)
            if others is None:
                others = shared[si] = _runs_knapsack(t, m1, m2, m3, runs, jokers, whole, si)
            bit = 1 << r
            a1, a2, a3 = m1[si], m2[si], m3[si]
            copies = codes.count(card)
            if copies == 1:
                a1 ^= bit
            elif copies == 2:
                a2 ^= bit
            elif copies == 3:
                a3 ^= bit
            res: tuple[int, tuple[int, ...], int] = (
                _runs_finish(t, others, (a1, a2, a3), runs, jokers, whole),
                _UNPLANNED,
                0,
            )
        else:
            res = _measure(t, key[0], sets, runs, whole)
        if hit is None and len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[key] = res
        out.append(res[0])
    return out


def _masks(t: Tactics, codes: bytes) -> tuple[int, list[int], list[int], list[int], list[int], int]:
    """(wild cards, rank masks per suit of the first, second and third copies, count per rank,
    naturals) of the card codes ``codes``."""
    place = t.code_place  # per card code: None for a wild card, else (suit index, rank bit, rank)
    jokers = 0
    m1 = [0, 0, 0, 0]
    m2 = [0, 0, 0, 0]
    m3 = [0, 0, 0, 0]
    rc = [0] * 14
    for code in codes:
        e = place[code]
        if e is None:
            jokers += 1
            continue
        si, bit, r = e  # a dead deuce with no run place: (0, 0, 0), counted at rank 0 below
        x = m1[si]
        if x & bit:
            if m2[si] & bit:
                m3[si] |= bit
            else:
                m2[si] |= bit
        else:
            m1[si] = x | bit
        rc[r] += 1
    naturals = len(codes) - jokers - rc[0]
    rc[0] = 0
    return jokers, m1, m2, m3, rc, naturals


def _measure(
    t: Tactics, codes: bytes, sets: int, runs: int, whole: bool, below: int = _BIG
) -> tuple[int, tuple[int, ...], int]:
    """:func:`analyse` of the sorted card codes ``codes``, worked out (no memo). With ``below``, a
    contract of sets and runs searches only for deficits under it: the result is exact when its
    deficit is under ``below`` (the same plan found first), else its deficit is ``below``."""
    wild = t.wild
    jokers, m1, m2, m3, rc, naturals = _masks(t, codes)
    if runs and not sets:
        return _runs_only(t, m1, m2, m3, runs, jokers, whole)
    set_min = t.set_min
    set_cap = t.set_cap
    run_len = t.run_min
    run_cap = t.run_cap
    best = below
    keep = [0, 0, 0, 0]
    keep_sets = 0

    held = (m1[0] | m1[1] | m1[2] | m1[3]) & ~(1 << wild)  # the natural ranks held, but the wild rank
    present = t.ranks_of.get(held)
    if present is None:
        present = t.ranks_of[held] = tuple(r for r in range(1, 14) if held >> r & 1)
    distinct = t.set_distinct
    multi = not (t.sets_distinct or distinct)

    def set_part(rcounts: list[int], masks: list[int]) -> tuple[int, int, int, int]:
        """(missing, wild capacity, rank mask of the chosen ranks (boundary ties included), naturals used)."""
        if not sets:
            return 0, 0, 0, 0
        cands: list[int] = []  # (naturals toward the set) << 4 | rank
        for r in present:
            c = rcounts[r]
            if not c:
                continue
            if distinct:
                c = ((masks[0] >> r) & 1) + ((masks[1] >> r) & 1) + ((masks[2] >> r) & 1) + ((masks[3] >> r) & 1)
            if c <= set_min:
                cands.append(c << 4 | r)
                continue
            cands.append(set_min << 4 | r)
            if multi:
                c -= set_min
                while c > 0:
                    cands.append(min(c, set_min) << 4 | r)
                    c -= set_min
        cands.sort(reverse=True)
        missing = 0
        cap = 0
        chosen = 0
        last = set_min
        n = len(cands)
        for i in range(sets):
            k = cands[i] >> 4 if i < n else 0
            miss = set_min - k
            missing += miss
            cap += miss if miss < set_cap else set_cap
            if k:
                chosen |= 1 << (cands[i] & 15)
            last = k
        if last and n > sets:
            for v in cands[sets:]:
                if v >> 4 != last:
                    break
                chosen |= 1 << (v & 15)
        used = 0
        if whole:
            for r in present:
                if chosen >> r & 1:
                    used += rcounts[r]
        return missing, cap, chosen, used

    if not runs:
        missing, cap, chosen, used = set_part(rc, m1)
        deficit = missing - min(jokers, cap)
        if whole:
            deficit += naturals - used
        return deficit, (0, 0, 0, 0), chosen

    # run candidates: per suit the windows whose held ranks no other window of the suit contains
    cands: list[tuple[int, int, int]] = []
    wcache = t.window_memo
    for si in range(4):
        m = m1[si]
        if not m:
            continue
        found = wcache.get(m)
        if found is None:
            found = wcache[m] = _windows(t, m)
        for h, w in found:
            cands.append((h, si, w))
    cands.sort(reverse=True)
    if len(cands) > 8:
        cands = cands[:8]
    ncand = len(cands)
    root_smiss = set_part(rc, m1)[0] - jokers if sets else -jokers
    chosen_runs: list[tuple[int, int]] = []
    # The nested functions reach one another (and ``rec`` itself) through these lists, emptied at
    # the end: mypyc keeps a function that another closure names in the shared environment of the
    # closures, a reference cycle that only the cyclic garbage collector would free.
    parts: list[_Part] = [set_part]
    leaves: list[_Leaf] = []
    recurse: list[_Rec] = []

    def leaf(b1: list[int], rcounts: list[int], missing: int, cap: int, held: int) -> None:
        nonlocal best, keep_sets
        smiss, scap, chosen, used = parts[0](rcounts, b1)
        deficit = missing + smiss - min(jokers, cap + scap)
        ext = [0, 0, 0, 0]
        if whole:
            left = naturals - held - used
            for si, w in chosen_runs:
                if w:
                    e = _extend(b1[si], w)
                    ext[si] |= e
                    left -= e.bit_count()
            deficit += max(0, left)
        if deficit >= best:
            return
        best = deficit
        for si in range(4):
            keep[si] = ext[si]
        for si, w in chosen_runs:
            keep[si] |= m1[si] & w
        keep_sets = chosen

    runs_distinct = t.runs_distinct

    def rec(
        level: int,
        start: int,
        b1: list[int],
        b2: list[int],
        b3: list[int],
        rcounts: list[int],
        missing: int,
        cap: int,
        held: int,
    ) -> None:
        if level == runs:
            leaves[0](b1, rcounts, missing, cap, held)
            return
        left = runs - level
        for i in range(start, ncand):
            h0, si, w = cands[i]
            if missing + left * (run_len - h0) + root_smiss >= best:
                break  # the candidates are sorted by cards held: none later can do better
            if runs_distinct and any(s == si and ww for s, ww in chosen_runs):
                continue
            used = b1[si] & w
            h = used.bit_count()
            if not h:
                continue
            miss = run_len - h
            n1 = b1[:]
            dup = b2[si] & used
            if dup:
                n2 = b2[:]
                n3 = b3[:]
                n1[si] = (b1[si] & ~used) | dup
                n2[si] = (b2[si] & ~used) | (b3[si] & used)
                n3[si] = b3[si] & ~used
            else:
                n2 = b2
                n3 = b3
                n1[si] = b1[si] & ~used
            if sets:
                nrc = rcounts[:]
                u = used
                while u:
                    low = u & -u
                    nrc[low.bit_length() - 1] -= 1
                    u ^= low
            else:
                nrc = rcounts
            chosen_runs.append((si, w))
            recurse[0](level + 1, i, n1, n2, n3, nrc, missing + miss, cap + min(miss, run_cap), held + h)
            chosen_runs.pop()
        # a run of which no card is held yet
        if missing + left * run_len + root_smiss < best:
            chosen_runs.append((0, 0))
            recurse[0](level + 1, ncand, b1, b2, b3, rcounts, missing + run_len, cap + run_cap, held)
            chosen_runs.pop()

    leaves.append(leaf)
    recurse.append(rec)
    rec(0, 0, m1, m2, m3, rc, 0, 0, 0)
    parts.clear()
    leaves.clear()
    recurse.clear()
    return best, (keep[0], keep[1], keep[2], keep[3]), keep_sets

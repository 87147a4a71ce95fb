"""The runs part of the contract deficit: per suit, the fewest cards missing for ``m`` runs of minimum
length (wild cards filling what they may, R19), and the knapsack over the suits."""

from __future__ import annotations

from .tactics import _BIG, _COST_SHIFT, _MEMO_LIMIT, _MISS_SHIFT, _NO_STATE, Tactics


def _runs_tables(t: Tactics, a1: int, a2: int, a3: int, runs: int, whole: bool) -> list[tuple[int, int, int]]:
    """The table of :func:`_runs_only` for one suit."""
    # the common case, a table already worked out, read here without a call to its function
    hit = (t.whole_memo if whole else t.table_memo).get((a1, a2, a3, runs))
    if hit is not None:
        return hit
    if whole:
        return _suit_whole(t, a1, a2, a3, runs)
    return _suit_table(t, a1, a2, a3, runs)


def _runs_knapsack(
    t: Tactics, m1: list[int], m2: list[int], m3: list[int], runs: int, jokers: int, whole: bool, skip: int
) -> dict[int, int]:
    """The knapsack of :func:`_runs_only` over the suits but ``skip``, deficits only: state (runs
    planned * (wild places + 1) + wild places, capped at the wild cards held) -> least cost."""
    most = 1 if t.runs_distinct else runs
    wilds = min(jokers, runs * t.run_cap)
    width = wilds + 1
    states = {0: 0}
    for si in range(4):
        if si == skip or not m1[si]:
            continue
        states = _knapsack_step(states, _runs_tables(t, m1[si], m2[si], m3[si], runs, whole), runs, most, width)
    return states


def _knapsack_step(
    states: dict[int, int], table: list[tuple[int, int, int]], runs: int, most: int, width: int
) -> dict[int, int]:
    """One suit more in a knapsack of :func:`_runs_knapsack`."""
    wilds = width - 1
    new: dict[int, int] = {}
    get = new.get
    if not wilds:  # no wild card held (the common case): a state is the runs planned alone
        for used, cost in states.items():
            top = runs - used
            for k in range((top if top < most else most) + 1):
                total = cost + table[k][0]
                cur = get(used + k)
                if cur is None or total < cur:
                    new[used + k] = total
        return new
    for state, cost in states.items():
        used, places = divmod(state, width)
        top = runs - used
        for k in range((top if top < most else most) + 1):
            c, cp, _ = table[k]
            room = places + cp
            nxt = (used + k) * width + (room if room < wilds else wilds)
            total = cost + c
            cur = get(nxt)
            if cur is None or total < cur:
                new[nxt] = total
    return new


def _runs_finish(
    t: Tactics, states: dict[int, int], suit: tuple[int, int, int], runs: int, jokers: int, whole: bool
) -> int:
    """The deficit of :func:`_runs_only` from the knapsack ``states`` of the other suits and the
    masks ``suit`` of the last one."""
    most = 1 if t.runs_distinct else runs
    run_len = t.run_min
    run_cap = t.run_cap
    wilds = min(jokers, runs * run_cap)
    width = wilds + 1
    if suit[0]:
        states = _knapsack_step(states, _runs_tables(t, suit[0], suit[1], suit[2], runs, whole), runs, most, width)
    best = _BIG
    for state, cost in states.items():
        used, places = divmod(state, width)
        left = runs - used
        room = places + left * run_cap
        total = cost + left * run_len - (room if room < wilds else wilds)
        best = total if total < best else best
    return best


def _suit_runs(t: Tactics, a1: int, a2: int, a3: int, k: int, whole: bool) -> tuple[int, int, int]:
    """The best ``k`` runs in one suit holding ranks ``a1`` (``a2``, ``a3``: second and third copies):
    (cards missing, plus with ``whole`` the cards left over; wild places; ranks kept)."""
    key = (a1, a2, a3, k, whole)
    hit = t.suit_memo.get(key)
    if hit is not None:
        return hit
    run_len = t.run_min
    run_cap = t.run_cap
    if k == 0:
        res = (a1.bit_count() + a2.bit_count() + a3.bit_count() if whole else 0, 0, 0)
        t.suit_memo[key] = res
        return res
    best = (_BIG, 0, 0)
    wins = t.window_memo.get(a1)
    if wins is None:
        wins = t.window_memo[a1] = _windows(t, a1)
    for h, w in wins:
        used = a1 & w
        dup = a2 & used
        n1 = (a1 & ~used) | dup
        n2 = (a2 & ~used) | (a3 & used)
        n3 = a3 & ~used
        miss = run_len - h
        cost, caps, kept = _suit_runs(t, n1, n2, n3, k - 1, whole)
        cost += miss
        caps += miss if miss < run_cap else run_cap
        kept |= used
        if whole:
            ext = _extend(n1, w)
            if ext:
                kept |= ext
                cost -= ext.bit_count()
        if cost < best[0] or (cost == best[0] and caps > best[1]):
            best = (cost, caps, kept)
    # a run of which no card is held
    cost, caps, kept = _suit_runs(t, a1, a2, a3, k - 1, whole)
    if cost + run_len < best[0]:
        best = (cost + run_len, caps + run_cap, kept)
    if len(t.suit_memo) > _MEMO_LIMIT:
        t.suit_memo.clear()
    t.suit_memo[key] = best
    return best


def _suit_table(t: Tactics, a1: int, a2: int, a3: int, runs: int) -> list[tuple[int, int, int]]:
    """:func:`_suit_runs` (not the whole hand) for 0 to ``runs`` runs, remembered as one table."""
    key = (a1, a2, a3, runs)
    hit = t.table_memo.get(key)
    if hit is None:
        if len(t.table_memo) > _MEMO_LIMIT:
            t.table_memo.clear()
        hit = t.table_memo[key] = [_suit_runs(t, a1, a2, a3, k, False) for k in range(runs + 1)]
    return hit


def _suit_whole(t: Tactics, a1: int, a2: int, a3: int, runs: int) -> list[tuple[int, int, int]]:
    """Whole-hand (R15) form of :func:`_suit_runs`, for 0 to ``runs`` runs at once: runs in one suit
    taking every natural of it, as (cards missing plus naturals no run can hold, wild places, ranks
    kept). A second copy of a card counts as left over wherever the runs go, so the runs are
    planned on the ranks held (:func:`_whole_plan`) and the extra copies added to each cost."""
    key = (a1, a2, a3, runs)
    hit = t.whole_memo.get(key)
    if hit is not None:
        return hit
    plan = t.plan_memo.get((a1, runs))
    if plan is None:
        if len(t.plan_memo) > _MEMO_LIMIT:
            t.plan_memo.clear()
        plan = t.plan_memo[(a1, runs)] = _whole_plan(t, a1, runs)
    extra = a2.bit_count() + a3.bit_count()
    if not extra:  # the plan's table as it is (tables are only read)
        res = plan
    else:
        res = [(cost + extra, caps, kept) if cost < _BIG else (cost, caps, kept) for cost, caps, kept in plan]
    if len(t.whole_memo) > _MEMO_LIMIT * 4:
        t.whole_memo.clear()
    t.whole_memo[key] = res
    return res


def _whole_plan(t: Tactics, held_mask: int, runs: int) -> list[tuple[int, int, int]]:
    """:func:`_suit_whole` for one copy of each rank of ``held_mask``: a dynamic program over the
    values. Inside a run a value held costs nothing and an empty one a wild place, outside it a
    value held is a card left over (an ace counts at one end only).

    A state packs (cost, places missing, ranks kept) into one int (:data:`_COST_SHIFT`,
    :data:`_MISS_SHIFT`); of two ways to a state the cheaper wins, ties going to the one met first
    (the state outside a run, or the shorter run so far)."""
    run_len = t.run_min
    top = t.top
    has = [(held_mask >> r) & 1 for r in range(14)]
    best: list[tuple[int, int, int]] = [(held_mask.bit_count(), 0, 0)] + [(_BIG, 0, 0)] * runs
    held = [v for v in range(1, top + 1) if has[v if v <= 13 else 1]]
    first = max(1, held[0] - run_len + 1) if held else 1
    last = min(top, held[-1] + run_len - 1) if held else top
    shift = _COST_SHIFT
    none = _NO_STATE
    for high_ace in (0, 1) if has[1] and top == 14 else (0,):
        lo, hi = first, last
        if high_ace:
            hi = top
            if not any(has[2:14]):
                lo = max(1, top - run_len + 1)
        elif has[1]:
            lo = 1
        skipped = 0  # cards outside [lo, hi] are left over
        for v in range(1, top + 1):
            if lo <= v <= hi:
                continue
            r = v if v <= 13 else 1
            if r == 1 and top == 14 and (v == 14) != bool(high_ace):
                continue
            skipped += has[r]
        # per number of runs begun, the final states (outside a run, in a run of full length)
        finals: list[tuple[int, int]]
        if run_len == 3 or run_len == 4:
            finals = _whole_rows(has, lo, hi, top, high_ace, runs, run_len == 4)
        else:
            finals = _whole_rows_plain(has, lo, hi, top, high_ace, runs, run_len)
        for j, (a, b) in enumerate(finals, 1):
            for val in (a, b):
                if val < none:
                    cost = (val >> shift) + skipped
                    if cost < best[j][0]:
                        missing = (val >> _MISS_SHIFT) & 0xFF
                        cap = j * t.run_cap
                        best[j] = (cost, missing if missing < cap else cap, val & 0xFFFF)
    return best


def _whole_rows_plain(
    has: list[int], lo: int, hi: int, top: int, high_ace: int, runs: int, run_len: int
) -> list[tuple[int, int]]:
    """:func:`_whole_rows` for any run length, all rows advanced together value by value."""
    shift = _COST_SHIFT
    none = _NO_STATE
    wild_place = (1 << shift) | (1 << _MISS_SHIFT)
    prev = run_len - 1
    blank = [none] * (run_len - 1)
    # rows[j - 1][length]: j runs begun, the current one ``length`` long (capped at run_len; 0
    # outside a run), for the j reached so far; ``free``: no run begun (every card left over)
    free = 0
    rows: list[list[int]] = []
    for v in range(lo, hi + 1):
        r = v if v <= 13 else 1
        if has[r] and not (r == 1 and top == 14 and (v == 14) != bool(high_ace)):
            bit = 1 << r
            inc = 0
            out = 1 << shift
        else:
            bit = 0
            inc = wild_place
            out = 0
        start = (free | bit) + inc  # the state of a run just begun, from the row before
        free += out
        new = []
        for row in rows:
            a = row[0]
            b = row[run_len]
            s = a if a >> shift <= b >> shift else b  # end the run (or stay out)
            x = row[prev]
            grown = x if x >> shift <= b >> shift else b
            if bit:
                new.append([s + out, start, *[y | bit for y in row[1:prev]], grown | bit])
            else:
                new.append([s, start, *[y + inc for y in row[1:prev]], grown + inc])
            start = (s | bit) + inc
        if len(new) < runs and start < none:
            new.append([none, start, *blank])
        rows = new
    return [(row[0], row[run_len]) for row in rows]


def _whole_rows(
    has: list[int], lo: int, hi: int, top: int, high_ace: int, runs: int, four: bool
) -> list[tuple[int, int]]:
    """The rows of :func:`_whole_plan` for runs of 3 (``four`` off) or 4 places, worked out one row
    at a time: row j at a value reads row j at the value before and the state row j - 1 ends there
    with, so each row is a pass over the values with its states in locals. Returns per row begun
    (in order) its final (outside a run, in a run of full length) states."""
    shift = _COST_SHIFT
    none = _NO_STATE
    wild_place = (1 << shift) | (1 << _MISS_SHIFT)
    left_over = 1 << shift
    steps: list[tuple[int, int, int]] = []  # (bit, inc, out) per value
    starts: list[int] = []  # the state of a run just begun at each value, from the row before
    free = 0
    for v in range(lo, hi + 1):
        r = v if v <= 13 else 1
        if has[r] and not (r == 1 and top == 14 and (v == 14) != bool(high_ace)):
            bit = 1 << r
            steps.append((bit, 0, left_over))
            starts.append(free | bit)
            free += left_over
        else:
            steps.append((0, wild_place, 0))
            starts.append(free + wild_place)
    n = len(steps)
    out: list[tuple[int, int]] = []
    begin = 0  # the first value at which this row may begin
    for _ in range(runs):
        c = begin
        while c < n and starts[c] >= none:
            c += 1
        if c >= n:
            break
        nxt = [none] * n
        a = y2 = x = b = none
        y1 = starts[c]
        if four:
            for i in range(c + 1, n):
                bit, inc, lost = steps[i]
                s = a if a >> shift <= b >> shift else b  # end the run (or stay out)
                grown = x if x >> shift <= b >> shift else b
                nxt[i] = (s | bit) + inc
                a, y1, y2, x, b = s + lost, starts[i], (y1 | bit) + inc, (y2 | bit) + inc, (grown | bit) + inc
        else:
            for i in range(c + 1, n):
                bit, inc, lost = steps[i]
                s = a if a >> shift <= b >> shift else b
                grown = x if x >> shift <= b >> shift else b
                nxt[i] = (s | bit) + inc
                a, y1, x, b = s + lost, starts[i], (y1 | bit) + inc, (grown | bit) + inc
        out.append((a, b))
        starts = nxt
        begin = c + 1
    return out


def _runs_only(
    t: Tactics, m1: list[int], m2: list[int], m3: list[int], runs: int, jokers: int, whole: bool
) -> tuple[int, tuple[int, ...], int]:
    """:func:`analyse` for a contract of runs only: the suits are independent. A knapsack over the
    suits; the ranks kept pack one suit per 16 bits, and a state (runs left, wild places) one int."""
    run_len = t.run_min
    run_cap = t.run_cap
    wilds = jokers if jokers < runs * run_cap else runs * run_cap
    most = 1 if t.runs_distinct else runs
    none = _NO_STATE
    tables = [(si, _runs_tables(t, m1[si], m2[si], m3[si], runs, whole)) for si in range(4) if m1[si]]
    if not wilds:
        costs = [none] * runs + [0]  # costs[left]
        keeps = [0] * (runs + 1)
        for si, table in tables:
            shift = 16 * si
            ncosts = [none] * (runs + 1)
            nkeeps = [0] * (runs + 1)
            for left in range(runs + 1):
                cost = costs[left]
                if cost == none:
                    continue
                kept = keeps[left]
                for k in range((left if left < most else most) + 1):
                    c, _, kp = table[k]
                    total = cost + c
                    if total < ncosts[left - k]:
                        ncosts[left - k] = total
                        nkeeps[left - k] = kept | kp << shift
            costs = ncosts
            keeps = nkeeps
        best_total = _BIG
        best_kept = 0
        for left in range(runs + 1):
            cost = costs[left]
            if cost != none and cost + left * run_len < best_total:
                best_total, best_kept = cost + left * run_len, keeps[left]
        return best_total, _unpack_keep(best_kept), 0
    costs_d = {runs << 8: 0}
    keeps_d = {runs << 8: 0}
    for si, table in tables:
        shift = 16 * si
        new: dict[int, int] = {}
        nkept: dict[int, int] = {}
        get = new.get
        for state, cost in costs_d.items():
            left = state >> 8
            caps = state & 255
            base = state - caps
            kept = keeps_d[state]
            for k in range((left if left < most else most) + 1):
                c, cp, kp = table[k]
                room = caps + cp
                key = base - (k << 8) + (room if room < wilds else wilds)
                total = cost + c
                cur = get(key)
                if cur is None or total < cur:
                    new[key] = total
                    nkept[key] = kept | kp << shift
        costs_d = new
        keeps_d = nkept
    best = _BIG
    best_keep = 0
    for state, cost in costs_d.items():
        left = state >> 8
        room = (state & 255) + left * run_cap
        total = cost + left * run_len - (room if room < wilds else wilds)
        if total < best:
            best, best_keep = total, keeps_d[state]
    return best, _unpack_keep(best_keep), 0


def _unpack_keep(kept: int) -> tuple[int, int, int, int]:
    """The four 16-bit rank masks of a packed ``kept``."""
    return (kept & 0xFFFF, kept >> 16 & 0xFFFF, kept >> 32 & 0xFFFF, kept >> 48 & 0xFFFF)


def _windows(t: Tactics, m: int) -> tuple[tuple[int, int], ...]:
    """(cards held, window) for the windows of a suit holding ranks ``m`` that no other window of
    the suit holds more of (a subset of its held ranks)."""
    found: list[tuple[int, int]] = []
    for _, w in t.windows:
        used = m & w
        if not used:
            continue
        if found and found[-1][0] & used == found[-1][0]:
            found[-1] = (used, w)  # the previous window's ranks are a subset of this one's
            continue
        if found and found[-1][0] | used == found[-1][0]:
            continue
        found.append((used, w))
    return tuple((used.bit_count(), w) for used, w in found)


def _extend(mask: int, w: int) -> int:
    """The ranks of ``mask`` (naturals of one suit left after the runs) adjoining window ``w``."""
    lo = (w & -w).bit_length() - 1
    hi = w.bit_length() - 1
    if lo == 1 and hi == 13 and not w >> 2 & 1:  # an ace-high window: Q K A ...
        lo = hi = 0
        return 0
    out = 0
    r = hi + 1
    while r <= 13 and mask >> r & 1:
        out |= 1 << r
        r += 1
    r = lo - 1
    while r >= 1 and mask >> r & 1:
        out |= 1 << r
        r -= 1
    return out

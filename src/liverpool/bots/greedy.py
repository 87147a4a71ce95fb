"""The greedy bot: a sound heuristic player that plans toward this deal's contract.

It measures a hand by its *deficit*: how many cards are missing, at best, for the contract's sets
and runs of minimum length (wild cards filling what they may, R18, R19). It keeps the cards of the
best partial contract, takes the discard (or buys it, R27) when the card lowers the deficit, goes
down as soon as the engine lists a lay-down (planned with :func:`liverpool.solver.solve`), lays off
everything it can, swaps jokers when that lets it go down or rid itself of a card (R20), calls
playable discards (R33, R34) and discards its least useful card: a card outside every best partial
contract, high in points, and not one the next player is known to collect.

The decision logic reads a :class:`Snapshot`, built from a player's view (``Snapshot.from_view``)
or, inside the strong bot's playouts, from a sampled game (``Snapshot.from_game``).

>>> from liverpool import Game
>>> from liverpool.driver import play_game
>>> game = play_game(Game.new(players=3, seed=2), [GreedyBot(seed=i) for i in range(3)])
>>> game.is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from ..actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    LayOff,
    Meld,
    Pass,
    Retract,
    SwapJoker,
    Unswap,
)
from ..cards import JOKER, Card, parse_card, parse_tokens
from ..rules import RuleSet, cached_rules
from ..solver import can_complete, solve
from .base import Bot

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["GreedyBot", "Snapshot", "Tactics", "analyse", "choose", "rules_for_view"]

_MEMO_LIMIT: Final = 1 << 14

_Rec = Callable[[int, int, list[int], list[int], list[int], list[int], int, int, int], None]
"""The recursive step of :func:`_measure`'s run search."""
_Leaf = Callable[[list[int], list[int], int, int, int], None]
"""The end of a branch of :func:`_measure`'s run search."""
_Part = Callable[[list[int], list[int]], tuple[int, int, int, int]]
"""The sets part of :func:`_measure`."""


class Tuning:
    """The heuristic's weights (one shared instance, :data:`TUNING`)."""

    useful_weight = 12.0
    """Discard score per unit of a card's usefulness (against its points)."""
    danger_weight = 0.6
    """Extra weight of points per level of danger (an opponent close to going out)."""
    buy_extra = 4
    """Most cards above the deal's hand size a buy may leave in hand."""
    buy_danger = 2
    """No buying at this danger level or above."""
    buy_far = 2
    """With more than 2 extra cards, buy only when the deficit after the buy is at most this."""


TUNING: Final = Tuning()
_BIG: Final = 1 << 20
_COST_SHIFT: Final = 24
"""Packed DP states (:func:`_whole_plan`): cost above this bit, places missing from
:data:`_MISS_SHIFT`, ranks kept below."""
_MISS_SHIFT: Final = 16
_NO_STATE: Final = 1 << 50
_UNPLANNED: Final[tuple[int, ...]] = ()
"""The keep of a memo entry holding the deficit without its plan (:func:`deficits_without`)."""
_AT_LEAST: Final[tuple[int, ...]] = (-1,)
"""The keep of a memo entry of :func:`deficit_of` holding only a lower bound of the deficit."""


# --------------------------------------------------------------------------------------- rules
class Tactics:
    """What the bots derive from one rule set (constants and memo tables)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.wild = rules.wild_rank if rules.wild_rank is not None else 0
        self.pts = tuple(rules.points(r) for r in range(14))
        self.set_min = rules.set_min
        self.set_cap = rules.set_min - rules.set_min_naturals  # wild cards a minimal set may hold (R18)
        self.set_distinct = rules.set_distinct_suits
        self.set_max = rules.set_max if rules.set_max is not None else 99
        self.sets_distinct = rules.sets_distinct_ranks
        self.run_min = length = rules.run_min
        self.run_cap = (length + 3) // 4  # R19: at most one wild card in 4 consecutive places
        self.runs_distinct = rules.runs_distinct_suits
        top = 14 if rules.ace_high else 13
        self.top = top
        wins = []
        for a in range(1, top - length + 2):
            mask = 0
            for v in range(a, a + length):
                mask |= 1 << (v if v <= 13 else 1)
            wins.append((a, mask))
        self.windows: tuple[tuple[int, int], ...] = tuple(wins)
        self.memo: dict[tuple[bytes, int, int, bool], tuple[int, tuple[int, ...], int]] = {}
        self.window_memo: dict[int, tuple[tuple[int, int], ...]] = {}
        self.suit_memo: dict[tuple[int, int, int, int, bool], tuple[int, int, int]] = {}
        self.whole_memo: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        self.plan_memo: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self.table_memo: dict[tuple[int, int, int, int], list[tuple[int, int, int]]] = {}
        self.use_rows: dict[tuple[bool, bool, int], list[float]] = {}
        self.accept_memo: dict[tuple[Any, ...], tuple[frozenset[int], bool]] = {}


_TACTICS: dict[int, tuple[RuleSet, Tactics]] = {}
_TACTICS_BY_RULES: dict[RuleSet, Tactics] = {}


def tactics(rules: RuleSet) -> Tactics:
    """The :class:`Tactics` of ``rules`` (cached; equal rule sets share one, memo tables included,
    so that a tournament's games reuse what earlier games worked out)."""
    hit = _TACTICS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_TACTICS) > 64:
        _TACTICS.clear()
    t = _TACTICS_BY_RULES.get(rules)
    if t is None:
        if len(_TACTICS_BY_RULES) > 16:
            _TACTICS_BY_RULES.clear()
        t = _TACTICS_BY_RULES[rules] = Tactics(rules)
    _TACTICS[id(rules)] = (rules, t)
    return t


def rules_for_view(view: dict[str, Any]) -> RuleSet:
    """The RuleSet of a view's ``rules`` dict, cached (a game hands out the same dict each time)."""
    return cached_rules(view["rules"])


# --------------------------------------------------------------------------------------- deficit
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


def _masks(t: Tactics, codes: bytes) -> tuple[int, list[int], list[int], list[int], list[int], int]:
    """(wild cards, rank masks per suit of the first, second and third copies, count per rank,
    naturals) of the card codes ``codes``."""
    wild = t.wild
    jokers = 0
    m1 = [0, 0, 0, 0]
    m2 = [0, 0, 0, 0]
    m3 = [0, 0, 0, 0]
    rc = [0] * 14
    naturals = 0
    for code in codes:  # card codes: (suit index + 1) * 16 + rank, 0 for a joker
        r = code & 15
        if r == 0 or r == wild:
            jokers += 1
            continue
        naturals += 1
        si = (code >> 4) - 1
        bit = 1 << r
        if m1[si] & bit:
            if m2[si] & bit:
                m3[si] |= bit
            else:
                m2[si] |= bit
        else:
            m1[si] |= bit
        rc[r] += 1
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

    present = [r for r in range(1, 14) if rc[r] and r != wild]
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


# --------------------------------------------------------------------------------------- snapshot
class Snapshot:
    """What one seat knows, in the form the decision logic reads."""

    __slots__ = (
        "_collects",
        "_hand",
        "_source",
        "buy_window",
        "contract_cards",
        "current",
        "discard_pile",
        "down",
        "hand_sizes",
        "hand_tokens",
        "me",
        "meld_list",
        "meld_view",
        "must_meld",
        "n",
        "rules",
        "runs",
        "sets",
        "staged",
        "stock_size",
        "swaps",
        "t",
        "taken",
        "top",
        "whole",
    )

    def __init__(
        self, view: dict[str, Any] | None = None, rules: RuleSet | None = None, t: Tactics | None = None
    ) -> None:
        """An empty snapshot, or with ``view`` the snapshot of that player's view (see :meth:`from_view`)."""
        if view is None:
            self.rules: RuleSet
            self.t: Tactics
            self.me = 0
            self.n = 0
            self.current = 0
            self.sets = 0
            self.runs = 0
            self.whole = False
            self.contract_cards = 0
            self._hand: list[Card] | None = []
            self.hand_tokens: list[str] = []  # the view's hand, parsed when ``hand`` is first asked for
            self.hand_sizes: list[int] = []
            self.down: list[bool] = []
            self.meld_list: list[tuple[int, str, list[Card], int]] | None = []
            self.meld_view: list[dict[str, Any]] = []  # the view's melds, read when ``melds`` is first asked for
            self.top: Card | None = None
            self.discard_pile: list[Card] | None = None
            self.taken: Card | None = None
            self.must_meld: Card | None = None
            self.staged: list[tuple[str, list[Card]]] = []
            self.swaps = 0
            self.stock_size = 0
            self.buy_window = False
            self._collects: dict[int, list[Card]] | None = {}
            self._source: tuple[EventTracker, dict[str, Any]] | None = None
            return
        self.rules = rules = rules if rules is not None else rules_for_view(view)
        self.t = t if t is not None else tactics(rules)
        self.me = view["player"]
        self.n = view["players"]
        self.current = view["current"]
        c = view["contract"]
        self.sets = c["sets"]
        self.runs = c["runs"]
        self.whole = c["whole_hand"]
        self.contract_cards = c["cards"]
        parse = parse_card
        cards = parse_tokens
        self._hand = None
        self.hand_tokens = view["hand"]
        self.hand_sizes = view["hand_sizes"]
        self.down = view["down"]
        melds = view["melds"]
        self.meld_view = melds
        self.meld_list = None if melds else []  # read on first use (most decisions never look)
        pile = view["discard_pile"]
        self.top = parse(pile[-1]) if pile else None
        self.discard_pile = None
        taken = view["taken_from_discard"]
        self.taken = parse(taken) if taken else None
        must = view["must_meld"]
        self.must_meld = parse(must) if must else None
        staged = view["staged"]
        self.staged = [(m["kind"], cards(m["cards"])) for m in staged] if staged else []
        self.swaps = len(view["swaps"])
        self.stock_size = view["stock_size"]
        self.buy_window = view["buy_window"]
        self._collects = {}
        self._source = None

    @property
    def hand(self) -> list[Card]:
        """The seat's cards."""
        hand = self._hand
        if hand is None:
            hand = self._hand = parse_tokens(self.hand_tokens)
        return hand

    @hand.setter
    def hand(self, cards: list[Card]) -> None:
        self._hand = cards

    @property
    def hand_size(self) -> int:
        """``len(self.hand)``, without reading the cards."""
        hand = self._hand
        return len(hand) if hand is not None else len(self.hand_tokens)

    @property
    def collects(self) -> dict[int, list[Card]]:
        """The cards each player took from the discard pile this deal (see :class:`EventTracker`)."""
        collects = self._collects
        if collects is None:
            source = self._source
            collects = self._collects = source[0].update(source[1]) if source is not None else {}
        return collects

    @collects.setter
    def collects(self, collects: dict[int, list[Card]]) -> None:
        self._collects = collects

    def track(self, tracker: EventTracker, view: dict[str, Any]) -> None:
        """Read ``collects`` from ``tracker`` updated with ``view`` when it is first asked for."""
        self._collects = None
        self._source = (tracker, view)

    @property
    def melds(self) -> list[tuple[int, str, list[Card], int]]:
        """The table's melds as (id, kind, cards, start)."""
        melds = self.meld_list
        if melds is None:
            cards = parse_tokens
            melds = self.meld_list = [(m["id"], m["kind"], cards(m["cards"]), m["start"]) for m in self.meld_view]
        return melds

    @melds.setter
    def melds(self, melds: list[tuple[int, str, list[Card], int]]) -> None:
        self.meld_list = melds
        self.meld_view = []  # the view's melds no longer describe the table

    @classmethod
    def from_view(cls, view: dict[str, Any], rules: RuleSet | None = None, t: Tactics | None = None) -> Snapshot:
        """The snapshot of a player's view (``rules``: its rule set when known, ``t``: their
        :class:`Tactics` when known)."""
        return cls(view, rules, t)

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Snapshot:
        """The snapshot of ``seat`` read straight from a (sampled) game: for playouts only."""
        s = cls()
        s.rules = game.rules
        s.t = tactics(game.rules)
        s.me = seat
        n = s.n = game.n
        s.current = game.current
        c = game.contract
        s.sets = c.sets
        s.runs = c.runs
        s.whole = c.whole_hand
        s.contract_cards = c.cards
        s.hand = game.hands[seat]
        s.hand_sizes = [len(game.hands[p]) for p in range(n)]
        s.down = game.down
        s.melds = [(m.id, m.kind, m.cards, m.start) for m in game._melds]
        pile = game.discard
        s.top = pile[-1] if pile else None
        s.discard_pile = pile
        s.taken = game.taken
        s.must_meld = game.must_meld
        s.staged = game.pending
        s.swaps = len(game.swaps)
        s.stock_size = len(game.stock)
        s.buy_window = game.fresh
        return s

    # ---------------------------------------------------------------- table knowledge
    def accepts(self) -> tuple[frozenset[int], bool]:
        """The natural cards (as codes) some table meld accepts as a lay-off now, and whether a wild
        card fits. Remembered per table (:attr:`Tactics.accept_memo`) for a snapshot of a view: the
        table changes seldom between decisions."""
        view = self.meld_view
        if not view:
            return self._accepts()
        key = tuple((m["kind"], m["start"], *m["cards"]) for m in view)
        memo = self.t.accept_memo
        hit = memo.get(key)
        if hit is None:
            hit = self._accepts()
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        return hit

    def _accepts(self) -> tuple[frozenset[int], bool]:
        """:meth:`accepts`, worked out."""
        rules = self.rules
        wild = self.t.wild
        out: set[int] = set()
        any_wild = False
        check = rules.run_joker_check == "always"
        top = self.t.top
        for _, kind, cards, start in self.melds:
            if kind == "set":
                if rules.set_max is not None and len(cards) >= rules.set_max:
                    continue
                rank = 0
                for c in cards:
                    if c.rank and c.rank != wild:
                        rank = c.rank
                        break
                if not rank:
                    continue
                any_wild = True
                if rank == wild:
                    continue
                if rules.set_distinct_suits:
                    taken = {c.code - c.rank for c in cards if c.rank and c.rank != wild}
                    out.update(base + rank for base in (16, 32, 48, 64) if base not in taken)
                else:
                    out.update((16 + rank, 32 + rank, 48 + rank, 64 + rank))
                continue
            if len(cards) >= 13:  # R3: an ace is never both low and high in one run
                continue
            base = 0
            for c in cards:
                if c.rank and c.rank != wild:
                    base = c.code - c.rank
                    break
            low, high = start - 1, start + len(cards)
            if low >= 1:
                if low != wild:
                    out.add(base + low)
                if not any_wild and (not check or not any(c.rank in (0, wild) for c in cards[:3])):
                    any_wild = True
            if high <= top:
                rank = 1 if high == 14 else high
                if rank != wild:
                    out.add(base + rank)
                if not any_wild and (not check or not any(c.rank in (0, wild) for c in cards[-3:])):
                    any_wild = True
        return frozenset(out), any_wild

    def is_wild(self, card: Card) -> bool:
        return card.rank in (0, self.t.wild)

    def fits(self, card: Card, acc: tuple[frozenset[int], bool]) -> bool:
        return (acc[1] and self.is_wild(card)) or card in acc[0]

    def danger(self) -> int:
        """How close an opponent is to going out: 0 (far) to 3 (could go out now)."""
        level = 0
        for p in range(self.n):
            if p == self.me:
                continue
            size = self.hand_sizes[p]
            if self.down[p]:
                level = max(level, 3 if size <= 2 else 2)
            elif size <= 2:
                level = max(level, 1)
        return level


# --------------------------------------------------------------------------------------- scoring
def usefulness(s: Snapshot, card: Card, hand: Sequence[Card]) -> float:
    """How much ``card`` helps shape a partial contract with the other cards of ``hand``: per other
    natural of ``hand`` (in hand order, the first copy of ``card`` itself skipped), 1 for a card of
    its rank in a contract with sets (0.1 for a copy of it in one of runs only) and, in a contract
    with runs, (L - d) / L for a card of its suit d < L places away (L the run length)."""
    r = card.rank
    t = s.t
    if r == 0 or r == t.wild:
        return 100.0
    row = _use_row(t, s.sets > 0, s.runs > 0, card)
    u = 0.0
    try:
        i = hand.index(card)  # cards are interned: the first card equal to ``card`` is ``card``
    except ValueError:
        for c in hand:
            u += row[c]
        return u
    for c in hand[:i]:
        u += row[c]
    for c in hand[i + 1 :]:
        u += row[c]
    return u


def _use_row(t: Tactics, sets: bool, runs: bool, card: Card) -> list[float]:
    """What each card code adds to the :func:`usefulness` of the natural ``card`` (0.0 for none)."""
    key = (sets, runs, card.code)
    row = t.use_rows.get(key)
    if row is not None:
        return row
    wild = t.wild
    run_len = t.run_min
    r = card.rank
    suit = card.code >> 4
    high = 14 if r == 1 else r
    row = [0.0] * 80
    for code in range(16, 80):
        cr = code & 15
        if cr == 0 or cr == wild:
            continue
        if cr == r:
            if sets:
                row[code] = 1.0
            elif code >> 4 == suit:
                row[code] = 0.1
        elif runs and code >> 4 == suit:
            d = abs(cr - r)
            if r == 1 or cr == 1:
                d = min(d, abs(high - (14 if cr == 1 else cr)))
            if d < run_len:
                row[code] = (run_len - d) / run_len
    t.use_rows[key] = row
    return row


def related(s: Snapshot, card: Card, hand: Sequence[Card]) -> bool:
    """Could ``card`` join a card of ``hand`` in a set or a run of this contract?"""
    r = card.rank
    suit = card.suit
    reach = s.t.run_min - 1
    wild = s.t.wild
    for c in hand:
        cr = c.rank
        if cr in (0, wild):
            continue
        if cr == r:
            if s.sets:
                return True
        elif s.runs and c.suit == suit:
            d = abs(cr - r)
            if d <= reach or ((cr == 1 or r == 1) and abs((14 if r == 1 else r) - (14 if cr == 1 else cr)) <= reach):
                return True
    return False


def feeds(s: Snapshot, card: Card, acc: tuple[frozenset[int], bool] | None) -> float:
    """A penalty for discarding ``card`` when the next player is known to want it."""
    fit_pen, wanted = _feed_parts(s)
    return _feed_pen(s, card, acc, fit_pen, wanted)


def _feed_parts(s: Snapshot) -> tuple[float, list[Card]]:
    """What :func:`feeds` reads for every card: the penalty of a card the table accepts, and the
    cards the next player collected (none when that player is down)."""
    me = s.me
    nxt = (me + 1) % s.n
    down = s.down
    fit_pen = 0.0
    for p in range(s.n):
        if p != me and down[p]:
            fit_pen += 6.0 if p == nxt else 2.0
    wanted = s.collects.get(nxt)
    return fit_pen, wanted if wanted and not down[nxt] else []


def _feed_pen(
    s: Snapshot, card: Card, acc: tuple[frozenset[int], bool] | None, fit_pen: float, wanted: list[Card]
) -> float:
    """:func:`feeds` of ``card`` from :func:`_feed_parts`."""
    pen = fit_pen if acc is not None and s.fits(card, acc) else 0.0
    if wanted:
        rank = card.rank
        suit = card.suit
        sets = s.sets
        runs = s.runs
        for c in wanted:
            if c.rank == rank and (sets or c.suit == suit):
                pen += 5.0
            elif c.suit == suit and runs and abs(c.rank - rank) <= 2:
                pen += 3.0
    return pen


def discard_ranking(s: Snapshot, options: Sequence[Card], full: bool = True) -> list[tuple[float, Card]]:
    """The cards of ``options`` (distinct cards of the hand) scored for discarding, best first.

    With ``full`` off, the cards a best partial contract keeps are left out when others remain.
    """
    t = s.t
    hand = s.hand
    acc = s.accepts() if s.meld_view or s.melds else None  # (the view's melds read only when needed)
    pts = t.pts
    out: list[tuple[float, Card]] = []
    if s.down[s.me]:
        # down: shed the highest card that fits nothing (a fitting card could be called, R32)
        fit_pen, wanted = _feed_parts(s)
        for c in options:
            key = (
                -pts[c.rank]
                + (50.0 if acc is not None and s.fits(c, acc) else 0.0)
                + _feed_pen(s, c, None, fit_pen, wanted)
            )
            if s.is_wild(c):
                key += 100.0
            out.append((key, c))
        out.sort()
        return out
    danger = s.danger()
    point_weight = 1.0 + danger * TUNING.danger_weight
    deficit, keep, set_ranks = analyse(t, hand, s.sets, s.runs, s.whole)
    wild = t.wild
    unused = []
    used = []
    for c in options:
        r = c.rank
        if r not in (0, wild) and not (set_ranks >> r & 1 or keep[(c.code >> 4) - 1] >> r & 1):
            unused.append(c)
        else:
            used.append(c)
    fit_pen, wanted = _feed_parts(s)
    weight = TUNING.useful_weight
    for c in unused:
        out.append(
            (usefulness(s, c, hand) * weight - pts[c.rank] * point_weight + _feed_pen(s, c, acc, fit_pen, wanted), c)
        )
    if used and (full or not unused):
        rests = deficits_without(t, hand, used, s.sets, s.runs, s.whole) if not unused else None
        for i, c in enumerate(used):
            d = rests[i] - deficit if rests is not None else 1
            score = (
                1000.0 * (1 + d)
                + usefulness(s, c, hand) * weight
                - pts[c.rank] * point_weight
                + _feed_pen(s, c, acc, fit_pen, wanted)
            )
            if s.is_wild(c):
                score += 500.0
            out.append((score, c))
    out.sort()
    return out


def note_discard(s: Snapshot, card: Card) -> None:
    """Remember the measure of the hand left after discarding ``card`` when it is known: a card no
    best partial contract uses leaves the deficit and the plan as they were."""
    if s.down[s.me] or s.is_wild(card):
        return
    t = s.t
    key = (bytes(sorted(s.hand)), s.sets, s.runs, s.whole)
    hit = t.memo.get(key)
    if hit is None:
        return
    if len(hit[1]) != 4:  # an entry without its plan: plan it
        hit = analyse(t, s.hand, s.sets, s.runs, s.whole)
    _, keep, set_ranks = hit
    r = card.rank
    if set_ranks >> r & 1 or keep[(card.code >> 4) - 1] >> r & 1:
        return
    rest = bytearray(key[0])
    rest.remove(card)
    if s.whole:  # the card was left over: one fewer to replace
        hit = (hit[0] - 1, keep, set_ranks)
    t.memo[(bytes(rest), s.sets, s.runs, s.whole)] = hit


def discard_choice(s: Snapshot, options: Sequence[Card]) -> Card:
    """The card to discard among ``options`` (distinct cards of the hand)."""
    return discard_ranking(s, options, full=False)[0][1]


def wants_card(s: Snapshot, card: Card, buying: bool = False) -> bool:
    """Does taking ``card`` help (lower the deficit; for a down player, fit the table)?"""
    if s.down[s.me]:
        if buying:
            return False
        return s.fits(card, s.accepts()) and len(s.hand) >= 1
    t = s.t
    if buying:
        # buying costs penalty cards: worth it early in the deal with a hand that is not too large
        extra = s.hand_size + 1 + s.rules.buy_penalty - s.contract_cards
        if extra > TUNING.buy_extra or s.danger() >= TUNING.buy_danger:
            return False
    if not s.is_wild(card) and not related(s, card, s.hand):
        return False
    base = deficit_of(t, s.hand, s.sets, s.runs, s.whole)
    if base <= 0 and not buying and can_complete(s.hand, s.sets, s.runs, s.rules, whole_hand=s.whole):
        # already able to go down: take it only when it goes down with the contract
        return s.is_wild(card) or can_complete(
            [*s.hand, card], s.sets, s.runs, s.rules, whole_hand=s.whole, must_use=card
        )
    after = deficit_of(t, [*s.hand, card], s.sets, s.runs, s.whole, base)
    if after >= base:
        return False
    if not buying:
        return True
    return not (after > TUNING.buy_far and len(s.hand) + 1 + s.rules.buy_penalty - s.contract_cards > 2)


# --------------------------------------------------------------------------------------- choose
def _plan_meld(s: Snapshot, melds: list[Meld]) -> Meld:
    """The legal Meld that follows the solver's best arrangement of what is left to lay."""
    rules = s.rules
    sets_done = sum(1 for k, _ in s.staged if k == "set")
    runs_done = len(s.staged) - sets_done
    used_ranks: set[int] = set()
    used_suits: set[str] = set()
    wild = s.t.wild
    must = s.must_meld
    for kind, cards in s.staged:
        nat = [c for c in cards if c.rank and c.rank != wild]
        if must is not None and must in cards:
            must = None
        if not nat:
            continue
        if kind == "set":
            used_ranks.add(nat[0].rank)
        else:
            used_suits.add(nat[0].suit)
    plan = solve(
        s.hand,
        s.sets - sets_done,
        s.runs - runs_done,
        rules,
        whole_hand=s.whole,
        must_use=must,
        used_set_ranks=frozenset(used_ranks),
        used_run_suits=frozenset(used_suits),
    )
    if plan:
        n_sets = s.sets - sets_done
        wanted = [("set" if i < n_sets else "run", tuple(m)) for i, m in enumerate(plan)]
        for kind, meld_cards in wanted:
            exact = tuple(sorted(meld_cards)) if kind == "set" else meld_cards  # sets are listed sorted
            for m in melds:
                if m.kind == kind and m.cards == exact:
                    return m
        for kind, meld_cards in wanted:
            key = sorted(meld_cards)
            for m in melds:
                if m.kind == kind and sorted(m.cards) == key:
                    return m
    # no exact match: the legal meld leaving the fewest points after the rest of the contract
    best = melds[0]
    best_pts = _BIG
    for m in melds[:40]:
        rest = list(s.hand)
        for c in m.cards:
            rest.remove(c)
        sets_left = s.sets - sets_done - (m.kind == "set")
        runs_left = s.runs - runs_done - (m.kind == "run")
        sol = solve(rest, sets_left, runs_left, rules, whole_hand=s.whole)
        if sol is None:
            continue
        for mm in sol:
            for c in mm:
                rest.remove(c)
        pts = sum(s.t.pts[c.rank] for c in rest)
        if pts < best_pts:
            best, best_pts = m, pts
    return best


_DRAW_OR_PASS: Final = (DrawStock, DrawDiscard, DrawFromPile, Pass)


def choose(s: Snapshot, legal: Sequence[Action]) -> Action:
    """Greedy's choice among ``legal`` (the seat's legal actions) for the snapshot ``s``."""
    if len(legal) == 1:
        return legal[0]
    first = legal[0]
    if isinstance(first, Buy | Call | Pass):
        return _out_of_turn(s, legal)
    draw_stock = None
    draw_discard = None
    piles: list[DrawFromPile] = []
    for a in legal:
        if isinstance(a, _DRAW_OR_PASS):
            if isinstance(a, Pass):
                return _out_of_turn(s, legal)
            if isinstance(a, DrawStock):
                draw_stock = a
            elif isinstance(a, DrawDiscard):
                draw_discard = a
            else:
                piles.append(a)
    if draw_stock is not None or draw_discard is not None or piles:
        return _draw(s, legal, draw_stock, draw_discard, piles)
    return _play(s, legal)


def _out_of_turn(s: Snapshot, legal: Sequence[Action]) -> Action:
    passing = None
    buy = None
    for a in legal:
        if isinstance(a, Call):
            return a
        if isinstance(a, Buy):
            buy = a
        elif isinstance(a, Pass):
            passing = a
    if buy is not None and s.top is not None and wants_card(s, s.top, buying=True):
        return buy
    if passing is not None:
        return passing
    return legal[0]


def _draw(
    s: Snapshot,
    legal: Sequence[Action],
    draw_stock: Action | None,
    draw_discard: Action | None,
    piles: list[DrawFromPile],
) -> Action:
    if piles:
        choice = _pile_choice(s, piles)
        if choice is not None:
            return choice
    if draw_discard is not None and s.top is not None and wants_card(s, s.top):
        return draw_discard
    if draw_stock is not None:
        return draw_stock
    return draw_discard if draw_discard is not None else legal[0]


def _pile_choice(s: Snapshot, piles: list[DrawFromPile]) -> Action | None:
    """R22 ``pile_draw``: take cards from inside the pile when the deepest lets us meld at once."""
    pile = s.discard_pile
    if pile is None:
        return None
    t = s.t
    if s.down[s.me]:
        acc = s.accepts()
        best = None
        for a in piles:
            taken = pile[-1 - a.depth :]
            if all(s.fits(c, acc) for c in taken) and (best is None or a.depth > best.depth):
                best = a
        return best
    if can_complete(s.hand, s.sets, s.runs, s.rules, whole_hand=s.whole):
        return None
    best = None
    best_pts = _BIG
    for a in piles:
        taken = pile[-1 - a.depth :]
        hand = [*s.hand, *taken]
        sol = solve(hand, s.sets, s.runs, s.rules, whole_hand=s.whole, must_use=taken[0])
        if sol is None:
            continue
        for m in sol:
            for c in m:
                hand.remove(c)
        pts = sum(t.pts[c.rank] for c in hand) - (max(t.pts[c.rank] for c in hand) if hand else 0)
        if pts < best_pts:
            best, best_pts = a, pts
    return best


def _play(s: Snapshot, legal: Sequence[Action]) -> Action:
    me = s.me
    melds: list[Meld] = []
    layoffs: list[LayOff] = []
    swaps: list[SwapJoker] = []
    discards: list[Card] = []
    end_turn = None
    unswap = None
    retract = None
    for a in legal:
        if isinstance(a, Discard):  # the commonest first
            discards.append(a.card)
        elif isinstance(a, Meld):
            melds.append(a)
        elif isinstance(a, LayOff):
            layoffs.append(a)
        elif isinstance(a, SwapJoker):
            swaps.append(a)
        elif isinstance(a, EndTurn):
            end_turn = a
        elif isinstance(a, Unswap):
            unswap = a
        elif isinstance(a, Retract):
            retract = a
    hand = s.hand
    down = s.down[me]
    if not down:
        if melds:
            return _plan_meld(s, melds)
        if swaps and not s.staged:
            for a in swaps:
                rest = list(hand)
                rest.remove(a.card)
                rest.append(JOKER)
                if can_complete(rest, s.sets, s.runs, s.rules, whole_hand=s.whole):
                    return a
    else:
        if layoffs:
            choice = _layoff_choice(s, layoffs, bool(discards))
            if choice is not None:
                return choice
        if swaps and len(hand) >= 2 and not s.swaps:
            acc = s.accepts()
            if acc[1]:
                # swap a natural we cannot play for the joker, then lay the joker off
                for a in swaps:
                    if a.card not in acc[0]:
                        return a
    if discards:
        card = discard_choice(s, discards)
        note_discard(s, card)
        return Discard(me, card)
    if end_turn is not None:
        return end_turn
    if layoffs:
        return layoffs[0]
    if melds:
        return melds[0]
    if unswap is not None:
        return unswap
    if retract is not None:
        return retract
    return legal[0]


def _layoff_choice(s: Snapshot, layoffs: list[LayOff], can_discard: bool) -> LayOff | None:
    """The lay-off to make now, or None to stop (keeping a card to go out by a discard, R38)."""
    hand = s.hand
    must = s.must_meld
    if must is not None:
        for a in layoffs:
            if a.card == must:
                return a
    if s.swaps:
        for a in layoffs:
            if s.is_wild(a.card):
                return a
    floating = s.rules.floating and not s.whole
    if len(hand) <= 1 and floating and can_discard:
        return None  # go out by discarding the last card (R35, R37)
    taken = s.taken
    pts = s.t.pts
    best = None
    best_key = -1.0
    for a in layoffs:
        c = a.card
        # the card just taken from the pile first (it may not be discarded, R26), then the costliest
        key = pts[c.rank] + (1000.0 if taken is not None and c == taken else 0.0) - (0.5 if s.is_wild(c) else 0.0)
        if key > best_key:
            best, best_key = a, key
    return best


# --------------------------------------------------------------------------------------- events
class EventTracker:
    """Cards each player took from the discard pile this deal (draws, buys, pile draws, calls)."""

    def __init__(self) -> None:
        self.first: object = None
        self.count = 0
        self.collects: dict[int, list[Card]] = {}
        self.declined: dict[int, list[Card]] = {}

    def update(self, view: dict[str, Any]) -> dict[int, list[Card]]:
        events = view["events"]
        if not events:
            return self.collects
        if events[0] is not self.first or len(events) < self.count:
            self.first = events[0]
            self.count = 0
            self.collects = {}
        parse = parse_card
        for e in events[self.count :]:
            kind = e["type"]
            if kind in {"draw_discard", "buy"}:
                self.collects.setdefault(e["player"], []).append(parse(e["card"]))
            elif kind == "draw_pile":
                self.collects.setdefault(e["player"], []).extend(parse(c) for c in e["cards"])
            elif kind == "deal":
                self.collects = {}
        self.count = len(events)
        return self.collects


class GreedyBot(Bot):
    """The greedy heuristic player (see the module doc)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.tracker = EventTracker()
        self._rules: tuple[dict[str, Any], RuleSet, Tactics] | None = None
        """The last rules dict of a view, its rule set and tactics (a game hands out one dict)."""

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        data = view["rules"]
        known = self._rules
        if known is None or known[0] is not data:
            rules = cached_rules(data)
            known = self._rules = (data, rules, tactics(rules))
        s = Snapshot.from_view(view, known[1], known[2])
        s.track(self.tracker, view)
        if s.rules.pile_draw and any(isinstance(a, DrawFromPile) for a in legal):
            s.discard_pile = parse_tokens(view["discard_pile"])
        return choose(s, legal)


class EasyBot(GreedyBot):
    """The ``easy`` difficulty: greedy that never buys and, with probability ``mistakes`` (default
    0.35), draws or discards at random instead of by plan."""

    name = "easy"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        # ``mistakes`` is read from ``options``: mypyc 2.4 fails to build a subclass's ``__init__``
        # that names a parameter between defaulted ones and ``**options``.
        mistakes = options.pop("mistakes", 0.35)
        super().__init__(seed=seed, **options)
        if isinstance(mistakes, bool) or not isinstance(mistakes, int | float) or not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes must be a number between 0 and 1, got {mistakes!r}")
        self.mistakes = float(mistakes)

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        choice = super().act(view, legal)
        if isinstance(choice, Buy):
            return next((a for a in legal if isinstance(a, Pass)), choice)
        if isinstance(choice, Discard | DrawStock | DrawDiscard) and self.rng.random() < self.mistakes:
            same = [a for a in legal if isinstance(a, Discard | DrawStock | DrawDiscard) and type(a) is type(choice)]
            if isinstance(choice, DrawStock | DrawDiscard):
                same = [a for a in legal if isinstance(a, DrawStock | DrawDiscard)]
            return same[self.rng.randrange(len(same))]
        return choice

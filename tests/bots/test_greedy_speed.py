"""Greedy's fast exact computations against the slower reference implementations they replaced,
and its lazy memo entries against plain :func:`analyse`."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from liverpool import RuleSet
from liverpool.bots.greedy import (
    _COST_SHIFT,
    _MISS_SHIFT,
    _NO_STATE,
    Snapshot,
    Tactics,
    _measure,
    _runs_only,
    _suit_runs,
    _suit_whole,
    _whole_plan,
    analyse,
    deficit_of,
    deficits_without,
    feeds,
    usefulness,
)
from liverpool.cards import JOKER, Card

_BIG = 1 << 20


def reference_suit_whole(t: Tactics, a1: int, a2: int, a3: int, runs: int) -> list[tuple[int, int, int]]:
    """``_suit_whole`` as it was: a dynamic program over the values on the card counts, with (cost,
    places missing, ranks kept) tuples as states."""
    copies = [((a1 >> r) & 1) + ((a2 >> r) & 1) + ((a3 >> r) & 1) for r in range(14)]
    run_len = t.run_min
    top = t.top
    width = run_len + 1
    best: list[tuple[int, int, int]] = [(sum(copies), 0, 0)] + [(_BIG, 0, 0)] * runs
    held = [v for v in range(1, top + 1) if copies[v if v <= 13 else 1]]
    first = max(1, held[0] - run_len + 1) if held else 1
    last = min(top, held[-1] + run_len - 1) if held else top
    for high_ace in (0, 1) if copies[1] and top == 14 else (0,):
        # states[j][length]: j runs begun, the current one ``length`` long (capped at run_len; 0
        # outside a run); value (cost, places missing, rank mask kept)
        lo, hi = first, last
        if high_ace:
            hi = top
            if not any(copies[r] for r in range(2, 14)):
                lo = max(1, top - run_len + 1)
        elif copies[1]:
            lo = 1
        states: list[list[tuple[int, int, int] | None]] = [[None] * width for _ in range(runs + 1)]
        states[0][0] = (0, 0, 0)
        skipped = 0  # cards outside [lo, hi] are left over
        for v in range(1, top + 1):
            if lo <= v <= hi:
                continue
            r = v if v <= 13 else 1
            if r == 1 and top == 14 and (v == 14) != bool(high_ace):
                continue
            skipped += copies[r]
        for v in range(lo, hi + 1):
            r = v if v <= 13 else 1
            c = copies[r]
            if r == 1 and top == 14 and (v == 14) != bool(high_ace):
                c = 0  # the aces are counted at one end only
            bit = (1 << r) if c else 0
            miss = 0 if c else 1
            inside = miss + (c - 1 if c > 1 else 0)
            new: list[list[tuple[int, int, int] | None]] = [[None] * width for _ in range(runs + 1)]
            for j in range(runs + 1):
                row = states[j]
                out = new[j]
                for length in range(width):
                    val = row[length]
                    if val is None:
                        continue
                    cost, missing, kept = val
                    if length in (0, run_len):
                        cur = out[0]
                        if cur is None or cost + c < cur[0]:
                            out[0] = (cost + c, missing, kept)
                        if j < runs:
                            cur = new[j + 1][1]
                            if cur is None or cost + inside < cur[0]:
                                new[j + 1][1] = (cost + inside, missing + miss, kept | bit)
                    if length:
                        n = length + 1 if length < run_len else run_len
                        cur = out[n]
                        if cur is None or cost + inside < cur[0]:
                            out[n] = (cost + inside, missing + miss, kept | bit)
            states = new
        for j in range(1, runs + 1):
            for length in (0, run_len):
                val = states[j][length]
                if val is not None and val[0] + skipped < best[j][0]:
                    best[j] = (val[0] + skipped, min(val[1], j * t.run_cap), val[2])
    return best


def reference_whole_plan(t: Tactics, held_mask: int, runs: int) -> list[tuple[int, int, int]]:
    """``_whole_plan`` as it was before its rows were unrolled for runs of 3 and 4."""
    run_len = t.run_min
    top = t.top
    has = [(held_mask >> r) & 1 for r in range(14)]
    best: list[tuple[int, int, int]] = [(held_mask.bit_count(), 0, 0)] + [(_BIG, 0, 0)] * runs
    held = [v for v in range(1, top + 1) if has[v if v <= 13 else 1]]
    first = max(1, held[0] - run_len + 1) if held else 1
    last = min(top, held[-1] + run_len - 1) if held else top
    shift = _COST_SHIFT
    none = _NO_STATE
    wild_place = (1 << shift) | (1 << _MISS_SHIFT)
    prev = run_len - 1
    blank = [none] * (run_len - 1)
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
        for j, row in enumerate(rows, 1):
            for val in (row[0], row[run_len]):
                if val < none:
                    cost = (val >> shift) + skipped
                    if cost < best[j][0]:
                        missing = (val >> _MISS_SHIFT) & 0xFF
                        cap = j * t.run_cap
                        best[j] = (cost, missing if missing < cap else cap, val & 0xFFFF)
    return best


def reference_usefulness(s: Snapshot, card: Card, hand: list[Card]) -> float:
    """``usefulness`` as it was: a walk over the hand per card."""
    t = s.t
    wild = t.wild
    r = card.rank
    if r == 0 or r == wild:
        return 100.0
    u = 0.0
    run_len = t.run_min
    suit = card.suit
    high = 14 if r == 1 else r
    seen_self = False
    for c in hand:
        if c is card and not seen_self:
            seen_self = True
            continue
        cr = c.rank
        if cr == 0 or cr == wild:
            continue
        if cr == r:
            if s.sets:
                u += 1.0
            elif c.suit == suit:
                u += 0.1
        elif s.runs and c.suit == suit:
            d = abs(cr - r)
            if r == 1 or cr == 1:
                d = min(d, abs(high - (14 if cr == 1 else cr)))
            if d < run_len:
                u += (run_len - d) / run_len
    return u


def reference_feeds(s: Snapshot, card: Card, acc: tuple[frozenset[int], bool] | None) -> float:
    """``feeds`` as it was, reading everything per card."""
    nxt = (s.me + 1) % s.n
    pen = 0.0
    if acc is not None and s.fits(card, acc):
        for p in range(s.n):
            if p != s.me and s.down[p]:
                pen += 6.0 if p == nxt else 2.0
    wanted = s.collects.get(nxt)
    if wanted and not s.down[nxt]:
        for c in wanted:
            if c.rank == card.rank and (s.sets or c.suit == card.suit):
                pen += 5.0
            elif c.suit == card.suit and s.runs and abs(c.rank - card.rank) <= 2:
                pen += 3.0
    return pen


def reference_runs_only(
    t: Tactics, m1: list[int], m2: list[int], m3: list[int], runs: int, jokers: int, whole: bool
) -> tuple[int, tuple[int, ...], int]:
    """The knapsack over the suits as it was before the packed states."""
    suits = [si for si in range(4) if m1[si]]
    if whole:
        tables = [_suit_whole(t, m1[si], m2[si], m3[si], runs) for si in suits]
    else:
        tables = [[_suit_runs(t, m1[si], m2[si], m3[si], k, whole) for k in range(runs + 1)] for si in suits]
    most = 1 if t.runs_distinct else runs
    run_len = t.run_min
    run_cap = t.run_cap
    wilds = min(jokers, runs * run_cap)
    if not wilds:
        # no wild cards: a knapsack over the suits on the runs left
        row: list[tuple[int, tuple[int, ...]] | None] = [None] * (runs + 1)
        row[runs] = (0, (0, 0, 0, 0))
        for i, si in enumerate(suits):
            table = tables[i]
            nxt: list[tuple[int, tuple[int, ...]] | None] = [None] * (runs + 1)
            for left in range(runs + 1):
                val = row[left]
                if val is None:
                    continue
                cost, kept = val
                for k in range(min(left, most) + 1):
                    c, _, kp = table[k]
                    cur = nxt[left - k]
                    if cur is None or cost + c < cur[0]:
                        if kp:
                            grown = list(kept)
                            grown[si] = kp
                            nxt[left - k] = (cost + c, tuple(grown))
                        else:
                            nxt[left - k] = (cost + c, kept)
            row = nxt
        best_total = _BIG
        best_kept: tuple[int, ...] = (0, 0, 0, 0)
        for left in range(runs + 1):
            val = row[left]
            if val is not None and val[0] + left * run_len < best_total:
                best_total, best_kept = val[0] + left * run_len, val[1]
        return best_total, best_kept, 0
    # knapsack over the suits: (runs left, wild places (capped at the wilds held)) -> (cost, kept)
    dp: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(runs, 0): (0, (0, 0, 0, 0))}
    for i, si in enumerate(suits):
        table = tables[i]
        new: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (left, caps), (cost, kept) in dp.items():
            for k in range(min(left, most) + 1):
                c, cp, kp = table[k]
                state = (left - k, min(wilds, caps + cp))
                total = cost + c
                cur = new.get(state)
                if cur is None or total < cur[0]:
                    if kp:
                        grown = list(kept)
                        grown[si] = kp
                        new[state] = (total, tuple(grown))
                    else:
                        new[state] = (total, kept)
        dp = new
    best = _BIG
    best_keep: tuple[int, ...] = (0, 0, 0, 0)
    for (left, caps), (cost, kept) in dp.items():
        total = cost + left * run_len - min(wilds, caps + left * run_cap)
        if total < best:
            best, best_keep = total, kept
    return best, best_keep, 0


def _masks(rng: random.Random) -> tuple[int, int, int]:
    """Rank masks of a suit's first, second and third copies (each a subset of the one before)."""
    a1 = 0
    density = rng.random()
    for r in range(1, 14):
        if rng.random() < density:
            a1 |= 1 << r
    a2 = a1 & rng.getrandbits(14) & rng.getrandbits(14)
    a3 = a2 & rng.getrandbits(14) & rng.getrandbits(14)
    return a1, a2, a3


RULES = [
    RuleSet(),
    RuleSet.preset("contract"),
    RuleSet(ace_high=False),
    RuleSet(run_min=2),
    RuleSet(run_min=5),
    RuleSet(run_min=13),
    RuleSet(run_min=14),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"run_min={r.run_min},ace_high={r.ace_high}")
def test_suit_whole_matches_reference(rules: RuleSet) -> None:
    rng = random.Random(rules.run_min * 2 + rules.ace_high)
    cases = [(0, 0, 0), (2, 0, 0), (2 | 1 << 13, 0, 0), (0x3FFE, 0x3FFE, 0x3FFE)]
    cases += [_masks(rng) for _ in range(400)]
    for a1, a2, a3 in cases:
        for runs in (1, 2, 3, 4):
            t = Tactics(rules)
            assert _suit_whole(t, a1, a2, a3, runs) == reference_suit_whole(t, a1, a2, a3, runs), (a1, a2, a3, runs)


def test_suit_whole_dataclass_variants() -> None:
    rules = dataclasses.replace(RuleSet(), run_min=3, ace_high=False)
    t = Tactics(rules)
    rng = random.Random(7)
    for _ in range(200):
        a1, a2, a3 = _masks(rng)
        assert _suit_whole(t, a1, a2, a3, 3) == reference_suit_whole(t, a1, a2, a3, 3)


@pytest.mark.parametrize("rules", RULES[:4], ids=lambda r: f"run_min={r.run_min},ace_high={r.ace_high}")
def test_runs_only_matches_reference(rules: RuleSet) -> None:
    rng = random.Random(11 + rules.run_min)
    for _ in range(300):
        suits = [_masks(rng) if rng.random() < 0.8 else (0, 0, 0) for _ in range(4)]
        m1, m2, m3 = ([s[i] for s in suits] for i in range(3))
        runs = rng.randint(1, 4)
        jokers = rng.choice((0, 0, 1, 2, 3, 5))
        for whole in (False, True):
            t = Tactics(rules)
            expected = reference_runs_only(t, m1, m2, m3, runs, jokers, whole)
            assert _runs_only(t, m1, m2, m3, runs, jokers, whole) == expected, (m1, m2, m3, runs, jokers, whole)
    distinct = dataclasses.replace(rules, runs_distinct_suits=True)
    for _ in range(100):
        suits = [_masks(rng) for _ in range(4)]
        m1, m2, m3 = ([s[i] for s in suits] for i in range(3))
        t = Tactics(distinct)
        for jokers in (0, 2):
            expected = reference_runs_only(t, m1, m2, m3, 3, jokers, True)
            assert _runs_only(t, m1, m2, m3, 3, jokers, True) == expected


def _hand(rng: random.Random, deck: list[Card]) -> list[Card]:
    return [rng.choice(deck) for _ in range(rng.randint(4, 17))]


DECK = [JOKER] + [Card(r, s) for s in "SHDC" for r in range(1, 14)]
CONTRACTS = [(2, 0), (3, 0), (1, 1), (2, 1), (1, 2), (0, 2), (0, 3), (2, 2)]


@pytest.mark.parametrize(
    "rules", [RuleSet(), RuleSet.preset("contract"), RuleSet(wild_rank=2)], ids=["lp", "ct", "wild"]
)
def test_bounded_search_matches_full(rules: RuleSet) -> None:
    """``_measure`` with ``below`` finds the same plan when the deficit is under it, else says ``below``."""
    rng = random.Random(3)
    t = Tactics(rules)
    for _ in range(1500):
        codes = bytes(sorted(_hand(rng, DECK)))
        sets, runs = rng.choice(CONTRACTS)
        whole = rng.random() < 0.3
        full = _measure(t, codes, sets, runs, whole)
        for below in range(8):
            got = _measure(t, codes, sets, runs, whole, below)
            if sets and runs:
                assert got == full if full[0] < below else got[0] == below, (codes, sets, runs, whole, below)


@pytest.mark.parametrize(
    "rules", [RuleSet(), RuleSet.preset("contract"), RuleSet(wild_rank=2)], ids=["lp", "ct", "wild"]
)
def test_lazy_memo_entries_match_analyse(rules: RuleSet) -> None:
    """``deficit_of`` (with or without a bound) and ``deficits_without`` leave memo entries from
    which ``analyse`` answers as a fresh memo would."""
    rng = random.Random(5)
    lazy = Tactics(rules)
    for _ in range(600):
        hand = _hand(rng, DECK)
        sets, runs = rng.choice(CONTRACTS)
        whole = rng.random() < 0.3
        fresh = Tactics(rules)
        expected = analyse(fresh, hand, sets, runs, whole)
        below = rng.randint(0, 6)
        assert deficit_of(lazy, hand, sets, runs, whole, below) == min(expected[0], below)
        assert deficit_of(lazy, hand, sets, runs, whole) == expected[0]
        cards = sorted(set(hand))
        for card in cards[::2]:  # bounds known for some of the hands left
            rest = list(hand)
            rest.remove(card)
            deficit_of(lazy, rest, sets, runs, whole, rng.randint(0, 3))
        rests = deficits_without(lazy, hand, cards, sets, runs, whole)
        for card, deficit in zip(cards, rests, strict=True):
            rest = list(hand)
            rest.remove(card)
            assert deficit == analyse(Tactics(rules), rest, sets, runs, whole)[0]
            assert analyse(lazy, rest, sets, runs, whole) == analyse(Tactics(rules), rest, sets, runs, whole)
        assert analyse(lazy, hand, sets, runs, whole) == expected


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"run_min={r.run_min},ace_high={r.ace_high}")
def test_whole_plan_matches_reference(rules: RuleSet) -> None:
    """The unrolled rows of ``_whole_plan`` against the plain ones: every rank mask for the presets'
    run lengths, random ones for the others."""
    t = Tactics(rules)
    masks: Sequence[int]
    if rules.run_min in (3, 4):
        masks = range(0, 1 << 14, 2)
    else:
        rng = random.Random(rules.run_min)
        masks = [rng.getrandbits(13) << 1 for _ in range(500)]
    for mask in masks:
        for runs in (1, 2, 3, 4):
            assert _whole_plan(t, mask, runs) == reference_whole_plan(t, mask, runs), (mask, runs)


@pytest.mark.parametrize(
    "rules",
    [RuleSet(), RuleSet.preset("contract"), RuleSet(wild_rank=2), RuleSet(run_min=5)],
    ids=["lp", "ct", "wild", "run5"],
)
def test_usefulness_and_feeds_match_reference(rules: RuleSet) -> None:
    """The tabled ``usefulness`` and ``feeds`` give the very floats of the per-card walks."""
    rng = random.Random(17)
    t = Tactics(rules)
    for _ in range(1500):
        s = Snapshot()
        s.rules = rules
        s.t = t
        s.sets, s.runs = rng.choice([*CONTRACTS, (0, 0)])
        s.n = rng.randint(2, 6)
        s.me = rng.randrange(s.n)
        s.down = [rng.random() < 0.3 for _ in range(s.n)]
        s.collects = {p: _hand(rng, DECK)[: rng.randint(0, 4)] for p in range(s.n) if rng.random() < 0.7}
        hand = _hand(rng, DECK)
        s.hand = hand
        acc = None
        if rng.random() < 0.7:
            acc = (frozenset(int(c) for c in _hand(rng, DECK)), rng.random() < 0.5)
        for card in [*hand, rng.choice(DECK)]:
            assert usefulness(s, card, hand) == reference_usefulness(s, card, hand), (hand, card)
            assert feeds(s, card, acc) == reference_feeds(s, card, acc)


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
def test_remembered_accepts_match_fresh(preset: str) -> None:
    """``accepts`` of a view's snapshot, remembered per table, against one worked out from the
    parsed melds (setting ``melds`` makes a snapshot forget the view's)."""
    from liverpool.bots import get
    from liverpool.driver import next_to_act
    from liverpool.game import Game

    checked = 0
    for seed in range(3):
        game = Game.new(players=4, seed=seed, rules=RuleSet.preset(preset))
        bots = [get("greedy", seed=i) for i in range(4)]
        while not game.is_over:
            seat, legal = next_to_act(game)
            view = game.view(seat)
            if view["melds"]:
                s = Snapshot.from_view(view)
                first = s.accepts()
                assert s.accepts() == first
                fresh = Snapshot.from_view(view)
                fresh.melds = fresh.melds
                assert not fresh.meld_view
                assert fresh.accepts() == first
                checked += 1
            game.apply(bots[seat].act(view, legal))
    assert checked > 50

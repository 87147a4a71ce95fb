"""The contract solver (R3, R10-R15, R17-R19, R40, R42, R46) against hand-made cases and a brute force."""

from __future__ import annotations

import dataclasses
import itertools
import os
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool.cards import JOKER, SUITS, Card, format_cards, parse_cards
from liverpool.melds import hand_points, is_valid_run, is_valid_set, run_start
from liverpool.rules import RuleSet, parse_schedule
from liverpool.solver import can_complete, candidate_melds, find_contract, solve

LIVERPOOL = RuleSet()
CONTRACT = RuleSet.preset("contract")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def fmt(melds: Sequence[Sequence[Card]] | None) -> list[str] | None:
    return None if melds is None else [format_cards(m) for m in melds]


def leftover(hand: Sequence[Card], melds: Sequence[Sequence[Card]]) -> list[Card]:
    rest = Counter(hand)
    for meld in melds:
        for card in meld:
            rest[card] -= 1
            assert rest[card] >= 0, f"{card} used more often than the hand holds it"
    return list(rest.elements())


# ------------------------------------------------------------------------------ brute force
def bf_run_ok(group: Sequence[Card], rules: RuleSet, exact: bool) -> bool:
    """Independent run check: can these cards be laid out as a run (R3, R12, R19)?"""
    wild = [c for c in group if rules.is_wild(c.rank)]
    nat = [c for c in group if not rules.is_wild(c.rank)]
    n = len(group)
    if not nat or n < rules.run_min or (exact and n != rules.run_min) or len({c.suit for c in nat}) != 1:
        return False
    top = 14 if rules.ace_high else 13
    has_ace = any(c.rank == 1 for c in nat)
    for high in (False, True) if has_ace and rules.ace_high else (False,):
        values = sorted(14 if c.rank == 1 and high else c.rank for c in nat)
        if len(set(values)) != len(values):
            continue
        gaps = values[-1] - values[0] + 1 - len(values)
        extra = len(wild) - gaps
        for low in range(extra + 1):
            start, end = values[0] - low, values[-1] + extra - low
            if start < 1 or end > top or end - start + 1 > 13:
                continue
            holes = [v for v in range(start, end + 1) if v not in values]
            if all(b - a >= 4 for a, b in itertools.pairwise(holes)):
                return True
    return False


def bf_set_ok(group: Sequence[Card], rules: RuleSet, exact: bool) -> bool:
    nat = [c for c in group if not rules.is_wild(c.rank)]
    n = len(group)
    if n < rules.set_min or (rules.set_max is not None and n > rules.set_max) or (exact and n != rules.set_min):
        return False
    if len(nat) < rules.set_min_naturals or len({c.rank for c in nat}) != 1:
        return False
    return not rules.set_distinct_suits or len({c.suit for c in nat}) == len(nat)


def brute_force(
    hand: Sequence[Card],
    nsets: int,
    nruns: int,
    rules: RuleSet,
    *,
    whole_hand: bool = False,
    must_use: Card | None = None,
    used_set_ranks: frozenset[int] = frozenset(),
    used_run_suits: frozenset[str] = frozenset(),
) -> int | None:
    """Fewest points left over all ways to pick the melds (index subsets of the hand), or None."""
    exact = rules.exact_melds and not whole_hand
    n = len(hand)
    pts = [rules.points(c.rank) for c in hand]
    set_masks: list[tuple[int, int]] = []  # (mask, rank)
    run_masks: list[tuple[int, str]] = []  # (mask, suit)
    for mask in range(1, 1 << n):
        group = [hand[i] for i in range(n) if mask >> i & 1]
        if nsets and bf_set_ok(group, rules, exact):
            rank = next(c.rank for c in group if not rules.is_wild(c.rank))
            set_masks.append((mask, rank))
        if nruns and bf_run_ok(group, rules, exact):
            suit = next(c.suit for c in group if not rules.is_wild(c.rank))
            run_masks.append((mask, suit))
    best: int | None = None
    total = sum(pts)

    def finish(used: int) -> None:
        nonlocal best
        if whole_hand and used != (1 << n) - 1:
            return
        if must_use is not None and not any(used >> i & 1 and hand[i] == must_use for i in range(n)):
            return
        left = total - sum(pts[i] for i in range(n) if used >> i & 1)
        if best is None or left < best:
            best = left

    def pick_runs(k: int, start: int, used: int, suits: frozenset[str]) -> None:
        if k == 0:
            finish(used)
            return
        for j in range(start, len(run_masks)):
            mask, suit = run_masks[j]
            if mask & used:
                continue
            if rules.runs_distinct_suits and suit in suits:
                continue
            pick_runs(k - 1, j + 1, used | mask, suits | {suit})

    def pick_sets(k: int, start: int, used: int, ranks: frozenset[int]) -> None:
        if k == 0:
            pick_runs(nruns, 0, used, used_run_suits)
            return
        for j in range(start, len(set_masks)):
            mask, rank = set_masks[j]
            if mask & used:
                continue
            if rules.sets_distinct_ranks and rank in ranks:
                continue
            pick_sets(k - 1, j + 1, used | mask, ranks | {rank})

    pick_sets(nsets, 0, 0, used_set_ranks)
    return best


def check_solution(
    hand: Sequence[Card],
    melds: list[list[Card]],
    nsets: int,
    nruns: int,
    rules: RuleSet,
    *,
    whole_hand: bool = False,
    must_use: Card | None = None,
    used_set_ranks: frozenset[int] = frozenset(),
    used_run_suits: frozenset[str] = frozenset(),
) -> int:
    """Assert ``melds`` meets the request (R10-R19, R42); return the points left in hand."""
    exact = rules.exact_melds and not whole_hand
    assert len(melds) == nsets + nruns
    for meld in melds[:nsets]:
        assert is_valid_set(meld, rules), format_cards(meld)
        if exact:
            assert len(meld) == rules.set_min
    for meld in melds[nsets:]:
        assert is_valid_run(meld, rules), format_cards(meld)
        if exact:
            assert len(meld) == rules.run_min
    if rules.sets_distinct_ranks:
        ranks = [next(c.rank for c in m if not rules.is_wild(c.rank)) for m in melds[:nsets]]
        assert len(set(ranks)) == len(ranks) and not set(ranks) & used_set_ranks
    if rules.runs_distinct_suits:
        suits = [next(c.suit for c in m if not rules.is_wild(c.rank)) for m in melds[nsets:]]
        assert len(set(suits)) == len(suits) and not set(suits) & used_run_suits
    if must_use is not None:
        assert any(must_use in m for m in melds)
    rest = leftover(hand, melds)
    if whole_hand:
        assert rest == []
    return hand_points(rest, rules)


def agree(hand: Sequence[Card], nsets: int, nruns: int, rules: RuleSet, /, **kw: object) -> None:
    """solve, can_complete and the brute force agree on this request."""
    expect = brute_force(hand, nsets, nruns, rules, **kw)  # type: ignore[arg-type]
    got = solve(hand, nsets, nruns, rules, **kw)  # type: ignore[arg-type]
    ok = can_complete(hand, nsets, nruns, rules, **kw)  # type: ignore[arg-type]
    note = f"{format_cards(hand)} {nsets}S{nruns}R {kw}"
    if expect is None:
        assert got is None, f"{note}: solver found {fmt(got)}"
        assert not ok, note
    else:
        assert got is not None, f"{note}: solver found nothing, brute force leaves {expect}"
        assert ok, note
        assert check_solution(hand, got, nsets, nruns, rules, **kw) == expect, f"{note}: {fmt(got)}"  # type: ignore[arg-type]


def left_points(hand: Sequence[Card], melds: Sequence[Sequence[Card]] | None, rules: RuleSet) -> int:
    assert melds is not None
    return hand_points(leftover(hand, melds), rules)


# ------------------------------------------------------------------------------ contracts (R10, R15)
def test_r10_each_deal_of_the_default_schedule() -> None:
    hand = cards("7H 7S 7D 9C 9D JK 2C 3C 4C 5C 6C 8H")
    assert fmt(find_contract(hand, 1, LIVERPOOL)) == ["7S 7H 7D", "9D 9C JK"]
    assert fmt(find_contract(hand, 2, LIVERPOOL)) == ["7S 7H 7D JK", "2C 3C 4C 5C 6C"]
    assert find_contract(hand, 3, LIVERPOOL) is None  # one suit of clubs, 2R needs two runs
    assert find_contract(hand, 4, LIVERPOOL) is None
    assert fmt(find_contract(hand, 5, LIVERPOOL)) == ["7S 7H 7D", "9D 9C JK", "2C 3C 4C 5C 6C"]
    assert find_contract(hand, 6, LIVERPOOL) is None
    assert find_contract(hand, 7, LIVERPOOL) is None


def test_r10_deal_out_of_range_raises() -> None:
    hand = cards("7H 7S 7D")
    for deal in (0, 8, -1):
        with pytest.raises(ValueError, match="deal"):
            find_contract(hand, deal, LIVERPOOL)
    short = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1S/6"))
    assert fmt(find_contract(cards("7H 7S 7D"), 1, short)) == ["7S 7H 7D"]
    with pytest.raises(ValueError):
        find_contract(hand, 2, short)


def test_r10_order_sets_then_runs_each_run_in_table_order() -> None:
    hand = cards("9S JK 8S 7S QD QC QH 4D 2D 3D AD 6S")
    melds = find_contract(hand, 6, LIVERPOOL)  # 1 set + 2 runs
    assert melds is not None and check_solution(hand, melds, 1, 2, LIVERPOOL) == 0
    # the joker may go with the queens or end the spade run: the same points either way
    assert fmt(melds) in (
        ["QH QD QC JK", "6S 7S 8S 9S", "AD 2D 3D 4D"],
        ["QH QD QC", "6S 7S 8S 9S JK", "AD 2D 3D 4D"],
    )
    # runs come by suit (spades, hearts, diamonds, clubs)
    assert fmt(find_contract(cards("2C 3C 4C 5C 9H 10H JH QH"), 3, LIVERPOOL)) == ["9H 10H JH QH", "2C 3C 4C 5C"]


def test_r15_last_deal_whole_hand_of_thirteen() -> None:
    hand = cards("AH 2H 3H 4H 5H 7S 8S 9S 10S JD QD KD JK")
    melds = find_contract(hand, 7, LIVERPOOL)
    assert melds is not None and check_solution(hand, melds, 0, 3, LIVERPOOL, whole_hand=True) == 0
    assert fmt(melds)[:2] == ["7S 8S 9S 10S", "AH 2H 3H 4H 5H"]  # type: ignore[index]
    assert fmt(melds)[2] in ("JK JD QD KD", "JD QD KD JK")  # type: ignore[index]
    # one card that fits no run: a whole-hand deal cannot go down (R15)
    stray = cards("AH 2H 3H 4H 5H 7S 8S 9S 10S JD QD KD JK 5C")
    assert find_contract(stray, 7, LIVERPOOL) is None
    # the same hand may keep that card when the deal is not whole-hand
    loose = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("3R/12"))
    assert left_points(stray, find_contract(stray, 1, loose), LIVERPOOL) == 5


def test_r15_whole_hand_splits_a_long_suit_into_two_runs() -> None:
    hand = cards("2H 3H 4H 5H 6H 7H 8H 9H 4S 5S 6S 7S")
    assert fmt(find_contract(hand, 7, LIVERPOOL)) == ["4S 5S 6S 7S", "2H 3H 4H 5H", "6H 7H 8H 9H"]
    # contract preset: runs of one contract differ in suit (R13), so two heart runs are refused
    assert find_contract(hand, 7, CONTRACT) is None


def test_r15_whole_hand_with_duplicates_from_two_packs() -> None:
    hand = cards("5D 6D 7D 8D 5D 6D 7D 8D 9C 10C JC QC")
    assert fmt(find_contract(hand, 7, LIVERPOOL)) == ["5D 6D 7D 8D", "5D 6D 7D 8D", "9C 10C JC QC"]


def test_r15_whole_hand_uses_every_joker() -> None:
    hand = cards("JK 4H 5H 6H 8S 9S 10S JS 2C 3C 4C JK")
    melds = find_contract(hand, 7, LIVERPOOL)
    assert melds is not None and leftover(hand, melds) == []
    assert check_solution(hand, melds, 0, 3, LIVERPOOL, whole_hand=True) == 0


# ------------------------------------------------------------------------------ runs (R3, R12, R17, R19)
def test_r3_ace_low_and_ace_high() -> None:
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/4"))
    assert fmt(find_contract(cards("AH 2H 3H 4H"), 1, one_run)) == ["AH 2H 3H 4H"]
    assert fmt(find_contract(cards("JH QH KH AH"), 1, one_run)) == ["JH QH KH AH"]
    assert fmt(find_contract(cards("QH KH AH JK"), 1, one_run)) == ["JK QH KH AH"]
    low_only = dataclasses.replace(one_run, ace_high=False)
    assert find_contract(cards("JH QH KH AH"), 1, low_only) is None
    assert fmt(find_contract(cards("QH KH AH JK"), 1, low_only)) is None


def test_r3_no_wrap_around_the_king() -> None:
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/4"))
    assert find_contract(cards("KS AS 2S 3S"), 1, one_run) is None
    assert find_contract(cards("QS KS AS 2S"), 1, one_run) is None
    # an ace serves one end only: A-2-3-4 uses it low, leaving K and Q out
    assert fmt(find_contract(cards("QS KS AS 2S 3S 4S"), 1, one_run)) == ["AS 2S 3S 4S"]


def test_r3_thirteen_card_run_is_the_longest() -> None:
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/14"))
    hand = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    melds = find_contract(hand, 1, one_run)
    assert melds is not None and len(melds[0]) == 13
    assert left_points(hand, melds, LIVERPOOL) == 15  # one ace stays


def test_r17_joker_at_either_end_of_a_run() -> None:
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/4"))
    assert fmt(find_contract(cards("5H 6H 7H JK"), 1, one_run)) in (["JK 5H 6H 7H"], ["5H 6H 7H JK"])
    assert fmt(find_contract(cards("AH 2H 3H JK"), 1, one_run)) == ["AH 2H 3H JK"]  # nothing below the ace
    assert fmt(find_contract(cards("QH KH AH JK"), 1, one_run)) == ["JK QH KH AH"]  # nothing above it
    assert fmt(find_contract(cards("5H JK 7H 8H"), 1, one_run)) == ["5H JK 7H 8H"]  # inside


def test_r19_two_jokers_in_one_run_four_apart() -> None:
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/5"))
    assert fmt(find_contract(cards("JK 5H 6H 7H JK"), 1, one_run)) == ["JK 5H 6H 7H JK"]
    for hand in ("5H 6H JK JK", "5H JK 7H JK 9H", "JK 6H 7H JK 9H"):  # side by side, two and three apart
        assert solve(cards(hand), 0, 1, LIVERPOOL, whole_hand=True) is None, hand
        melds = solve(cards(hand), 0, 1, LIVERPOOL)
        assert melds is None or melds[0].count(JOKER) == 1
    long_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/9"))
    assert fmt(find_contract(cards("2S JK 4S 5S 6S JK 8S 9S 10S"), 1, long_run)) == ["2S JK 4S 5S 6S JK 8S 9S 10S"]


def test_r19_spare_joker_goes_where_the_spacing_allows() -> None:
    # 3H-6H can take one joker at an end; a second joker would stand too close
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/6"))
    melds = find_contract(cards("3H 4H 5H 6H JK JK"), 1, one_run)
    assert melds is not None and len(melds[0]) == 6
    assert fmt(melds) == ["JK 3H 4H 5H 6H JK"]


def test_r19_a_joker_may_stand_where_the_hand_holds_the_natural() -> None:
    # exact runs (R42): melding the joker in the king's place leaves a 10-point king, not the joker
    rules = dataclasses.replace(LIVERPOOL, exact_melds=True)
    hand = cards("JH QH KH AH JK")
    melds = solve(hand, 0, 1, rules)
    assert melds is not None and left_points(hand, melds, rules) == 10
    low_only = dataclasses.replace(rules, ace_high=False)
    melds = solve(cards("AH 2H 3H 4H JK"), 0, 1, low_only)
    assert fmt(melds) in (["AH JK 3H 4H"], ["AH 2H JK 4H"])
    # two runs of one suit share the naturals they can and a joker takes the place of the 6H
    hand = cards("4H 5H 6H 7H 4H 5H 7H JK")
    melds = solve(hand, 0, 2, LIVERPOOL, whole_hand=True)
    assert fmt(melds) == ["4H 5H 6H 7H", "4H 5H JK 7H"]


def test_r12_run_lengths_by_preset() -> None:
    hand = cards("4C 5C 6C KD KD")
    one_run = parse_schedule("1R/4")
    assert find_contract(hand, 1, dataclasses.replace(LIVERPOOL, schedule=one_run)) is None
    assert fmt(find_contract(hand, 1, dataclasses.replace(CONTRACT, schedule=one_run))) == ["4C 5C 6C"]


# ------------------------------------------------------------------------------ sets (R11, R18)
def test_r11_sets_from_several_packs() -> None:
    hand = cards("7H 7H 7H 9S 9S 9S KD")
    assert fmt(find_contract(hand, 1, LIVERPOOL)) == ["7H 7H 7H", "9S 9S 9S"]
    # contract preset: no two naturals of one suit in a set
    assert find_contract(hand, 1, CONTRACT) is None
    assert fmt(find_contract(cards("7H 7H 7S 7D 7C 7C"), 1, LIVERPOOL)) == ["7S 7H 7C", "7H 7D 7C"]


def test_r11_contract_sets_distinct_suits_and_at_most_four() -> None:
    hand = cards("7H 7S 7D 7C 7H 9S 9D 9C")
    assert fmt(find_contract(hand, 1, CONTRACT)) == ["7S 7H 7D 7C", "9S 9D 9C"]
    two_of_sevens = cards("7H 7S 7D 7C 7H 7S 2D")
    assert fmt(find_contract(two_of_sevens, 1, CONTRACT)) == ["7S 7H 7D", "7S 7H 7C"]
    # liverpool: any number of cards, one set of six sevens plus another set needs 3 more
    assert fmt(find_contract(cards("7H 7S 7D 7C 7H 7S"), 1, LIVERPOOL)) == ["7S 7H 7D", "7S 7H 7C"]


def test_r11_contract_set_cap_prefers_the_joker_to_a_low_natural() -> None:
    # 4 is the most a contract set holds: 3 fours + JK leaves a four (4 points), not the joker (15)
    hand = cards("4S 4H 4D 4C JK 9S 9H 9D 9C")
    melds = find_contract(hand, 1, CONTRACT)
    assert melds is not None and left_points(hand, melds, CONTRACT) == 4
    assert check_solution(hand, melds, 2, 0, CONTRACT) == 4


def test_r11_sets_distinct_ranks_and_used_ranks() -> None:
    rules = dataclasses.replace(LIVERPOOL, sets_distinct_ranks=True)
    hand = cards("7H 7S 7D 7C 7H 7S 9D")
    assert find_contract(hand, 1, rules) is None
    assert find_contract(hand, 1, LIVERPOOL) is not None
    hand = cards("7H 7S 7D 9C 9D 9S")
    assert fmt(solve(hand, 1, 0, rules, used_set_ranks=frozenset({7}))) == ["9S 9D 9C"]
    assert solve(hand, 2, 0, rules, used_set_ranks=frozenset({9})) is None
    # without the option the used ranks do not matter
    assert fmt(solve(hand, 1, 0, LIVERPOOL, used_set_ranks=frozenset({7, 9}))) is not None


def test_r18_a_set_needs_two_naturals() -> None:
    assert find_contract(cards("7H JK JK 9S 9D 9C"), 1, LIVERPOOL) is None
    assert fmt(find_contract(cards("7H 7C JK 9S 9D 9C"), 1, LIVERPOOL)) == ["7H 7C JK", "9S 9D 9C"]
    assert fmt(find_contract(cards("7H 7C JK JK JK 9S 9D"), 1, LIVERPOOL)) == ["7H 7C JK JK", "9S 9D JK"]


# ------------------------------------------------------------------------------ runs of one contract (R13)
def test_r13_runs_of_one_contract_in_different_suits() -> None:
    hand = cards("2H 3H 4H 5H 9H 10H JH QH")
    assert fmt(find_contract(hand, 3, LIVERPOOL)) == ["2H 3H 4H 5H", "9H 10H JH QH"]
    assert find_contract(hand, 3, CONTRACT) is None
    hand = cards("2H 3H 4H 9S 10S JS")
    assert fmt(find_contract(hand, 3, CONTRACT)) == ["9S 10S JS", "2H 3H 4H"]


def test_r13_used_run_suits() -> None:
    hand = cards("2H 3H 4H 9S 10S JS")
    assert fmt(solve(hand, 0, 1, CONTRACT, used_run_suits=frozenset("S"))) == ["2H 3H 4H"]
    assert solve(hand, 0, 2, CONTRACT, used_run_suits=frozenset("S")) is None
    assert solve(hand, 0, 1, CONTRACT, used_run_suits=frozenset("SH")) is None
    # R13 off: the used suits do not matter
    assert fmt(solve(cards("2H 3H 4H 5H"), 0, 1, LIVERPOOL, used_run_suits=frozenset("H"))) == ["2H 3H 4H 5H"]


# ------------------------------------------------------------------------------ fewest points left (R40)
def test_r40_keeps_the_cheapest_cards() -> None:
    # a set of kings beats a set of fives; the joker goes down rather than stay in hand
    hand = cards("5S 5H 5D KS KH KD JK 9C 9D QS QH")
    melds = find_contract(hand, 1, LIVERPOOL)
    assert melds is not None and left_points(hand, melds, LIVERPOOL) == 5 + 5 + 5 + 5 + 5
    assert [format_cards(m[:3]) for m in melds] == ["QS QH JK", "KS KH KD"]


def test_r40_runs_take_the_high_cards_and_the_long_way() -> None:
    one_run = dataclasses.replace(LIVERPOOL, schedule=parse_schedule("1R/9"))
    # both the low and the high ace fit; the long run leaves nothing
    hand = cards("AS 2S 3S 4S 10S JS QS KS AS")
    melds = find_contract(hand, 1, one_run)
    assert melds is not None and left_points(hand, melds, LIVERPOOL) == 5 + 5 + 5 + 15
    assert fmt(melds) == ["10S JS QS KS AS"]


def test_r40_card_shared_by_a_set_and_a_run() -> None:
    # 7H fits both the set of sevens and the heart run: the solver must give it to one of them
    hand = cards("7H 7S 7D 4H 5H 6H 8C")
    melds = find_contract(hand, 2, LIVERPOOL)
    assert melds is None
    hand = cards("7H 7S 7D 7C 4H 5H 6H")
    assert fmt(find_contract(hand, 2, LIVERPOOL)) == ["7S 7D 7C", "4H 5H 6H 7H"]


def test_r40_joker_stands_in_for_a_card_the_set_needs() -> None:
    # one 6H: the run gets a joker in its place so the 6H can make the set of sixes
    hand = cards("3H 4H 5H 6H 6S 6D JK 7H KC")
    melds = find_contract(hand, 2, LIVERPOOL)
    assert melds is not None and left_points(hand, melds, LIVERPOOL) == 10
    check_solution(hand, melds, 1, 1, LIVERPOOL)


def test_r42_exact_set_melds_the_joker_and_keeps_a_four() -> None:
    rules = RULESETS["contract exact"]
    hand = cards("4S 4H 4D 4C 5S JK QD KD AD")
    melds = find_contract(hand, 2, rules)
    assert melds is not None and left_points(hand, melds, rules) == 13
    assert JOKER in melds[0]


def test_r12_two_runs_of_one_suit_take_every_card() -> None:
    hand = cards("2H 3H 4H 5H 6H 7H 8H 9H 10H")
    melds = find_contract(hand, 3, LIVERPOOL)
    assert melds is not None and leftover(hand, melds) == []


def test_r40_contract_scoring() -> None:
    hand = cards("2S 2H 2D KS KH KD 9C")
    melds = find_contract(hand, 1, CONTRACT)
    assert melds is not None and left_points(hand, melds, CONTRACT) == 9


# ------------------------------------------------------------------------------ exact melds (R42)
def test_r42_exact_melds_have_the_minimum_length() -> None:
    rules = dataclasses.replace(LIVERPOOL, exact_melds=True)
    hand = cards("7H 7S 7D 7C 4S 5S 6S 7S 8S JK")
    melds = find_contract(hand, 2, rules)
    assert melds is not None and [len(m) for m in melds] == [3, 4]
    assert check_solution(hand, melds, 1, 1, rules) == left_points(hand, melds, rules)
    # the loose rules meld more
    loose = find_contract(hand, 2, LIVERPOOL)
    assert loose is not None and left_points(hand, loose, LIVERPOOL) < left_points(hand, melds, rules)
    # exact melds meld the joker rather than a low natural
    hand = cards("7H 7S 7D JK 9S 9D 9C")
    assert left_points(hand, find_contract(hand, 1, rules), rules) == 5


def test_r42_does_not_apply_to_the_whole_hand_deal() -> None:
    rules = dataclasses.replace(LIVERPOOL, exact_melds=True)
    hand = cards("AH 2H 3H 4H 5H 7S 8S 9S 10S JD QD KD JK")
    melds = find_contract(hand, 7, rules)
    assert melds is not None and leftover(hand, melds) == [] and len(melds[1]) == 5


# ------------------------------------------------------------------------------ wild rank (R46)
def test_r46_deuces_wild() -> None:
    rules = dataclasses.replace(LIVERPOOL, wild_rank=2)
    # 2C is wild: it completes the set of nines and the 2H cannot stand as a natural two
    hand = cards("9S 9D 2C 7H 7S 7D")
    assert fmt(find_contract(hand, 1, rules)) == ["7S 7H 7D", "9S 9D 2C"]
    assert find_contract(cards("2S 2H 2D 9S 9D 9C"), 1, rules) is None  # deuces are no set of their own
    one_run = dataclasses.replace(rules, schedule=parse_schedule("1R/4"))
    # in a run a deuce is a wild card too, even in its own place
    assert fmt(find_contract(cards("AH 2H 3H 4H"), 1, one_run)) == ["AH 2H 3H 4H"]
    assert find_contract(cards("AH 2H 2D 4H"), 1, one_run) is None  # two wilds side by side (R19)
    assert fmt(find_contract(cards("5C 6C 2D 8C"), 1, one_run)) == ["5C 6C 2D 8C"]


def test_r46_the_joker_goes_down_before_the_deuce() -> None:
    rules = dataclasses.replace(LIVERPOOL, wild_rank=2)
    hand = cards("9S 9D 2C JK 7H")
    melds = solve(hand, 1, 0, rules)
    assert fmt(melds) == ["9S 9D JK 2C"]
    exact = dataclasses.replace(rules, exact_melds=True)
    assert fmt(solve(hand, 1, 0, exact)) == ["9S 9D JK"]


# ------------------------------------------------------------------------------ must_use, partial contracts
def test_must_use_a_natural() -> None:
    hand = cards("7H 7S 7D 7C 9D")
    assert fmt(solve(hand, 1, 0, LIVERPOOL, must_use=Card(7, "C"))) == ["7S 7H 7D 7C"]
    assert solve(hand, 1, 0, LIVERPOOL, must_use=Card(9, "D")) is None
    assert solve(hand, 1, 0, LIVERPOOL, must_use=Card(8, "D")) is None  # not in hand
    rules = dataclasses.replace(LIVERPOOL, exact_melds=True)
    melds = solve(hand, 1, 0, rules, must_use=Card(7, "C"))
    assert melds is not None and Card(7, "C") in melds[0] and len(melds[0]) == 3
    # in a run
    hand = cards("4H 5H 6H 7H 8H 7S 7D")
    melds = solve(hand, 0, 1, LIVERPOOL, must_use=Card(8, "H"))
    assert fmt(melds) == ["4H 5H 6H 7H 8H"]
    exact_run = solve(hand, 0, 1, rules, must_use=Card(4, "H"))
    assert fmt(exact_run) == ["4H 5H 6H 7H"]
    # the set of sevens wants 7H, the run too: must_use 7H in the set needs a joker in the run
    hand = cards("4H 5H 6H 7H 7S 7D JK")
    assert fmt(solve(hand, 1, 1, LIVERPOOL, must_use=Card(7, "H"))) in (
        ["7S 7H 7D", "JK 4H 5H 6H"],
        ["7S 7H 7D", "4H 5H 6H JK"],
        ["7S 7D JK", "4H 5H 6H 7H"],
    )


def test_must_use_a_wild() -> None:
    hand = cards("7H 7S 7D 7C JK")
    assert fmt(solve(hand, 1, 0, LIVERPOOL, must_use=JOKER)) == ["7S 7H 7D 7C JK"]
    rules = dataclasses.replace(LIVERPOOL, exact_melds=True)
    assert fmt(solve(hand, 1, 0, rules, must_use=JOKER)) == ["7S 7H JK"]
    assert solve(cards("7H 7S 7D"), 1, 0, LIVERPOOL, must_use=JOKER) is None
    deuces = dataclasses.replace(LIVERPOOL, wild_rank=2, exact_melds=True)
    assert fmt(solve(cards("7H 7S 2C JK"), 1, 0, deuces, must_use=Card(2, "C"))) == ["7S 7H 2C"]


def test_must_use_a_wild_in_a_full_set() -> None:
    # R11 cap / R42: the wild only goes down if a natural of equal worth stays in hand
    assert fmt(solve(cards("AS AH AD AC JK"), 1, 0, CONTRACT, must_use=JOKER)) == ["AS AH AD JK"]
    exact = dataclasses.replace(LIVERPOOL, exact_melds=True)
    assert fmt(solve(cards("AS AH AD JK"), 1, 0, exact, must_use=JOKER)) == ["AS AH JK"]
    agree(cards("AS AH AD AC JK"), 1, 0, CONTRACT, must_use=JOKER)


def test_must_use_a_run_card_of_a_poorer_suit() -> None:
    hand = cards("4H 5H 6H 7H 9S 10S JS QS KS")
    assert fmt(solve(hand, 0, 1, LIVERPOOL)) == ["9S 10S JS QS KS"]
    assert fmt(solve(hand, 0, 1, LIVERPOOL, must_use=Card(4, "H"))) == ["4H 5H 6H 7H"]
    agree(hand, 0, 2, CONTRACT, must_use=Card(4, "H"))


def test_r15_whole_hand_sets() -> None:
    # contract sets hold at most four cards of distinct suits: a fifth seven cannot go down
    agree(cards("7S 7H 7D 7C 7S 9S 9H 9D"), 2, 0, CONTRACT, whole_hand=True)
    assert solve(cards("7S 7H 7D 7C 7S 9S 9H 9D"), 2, 0, CONTRACT, whole_hand=True) is None
    assert fmt(solve(cards("7S 7H 7D 7C 7S 9S 9H 9D"), 2, 0, LIVERPOOL, whole_hand=True)) == [
        "7S 7S 7H 7D 7C",
        "9S 9H 9D",
    ]
    assert solve(cards("7S 7H 7D 9S 9H 9D 5C"), 2, 0, LIVERPOOL, whole_hand=True) is None


def test_r40_the_better_set_comes_later() -> None:
    # the fives are tried first; the kings, found later, leave fewer points
    hand = cards("5S 5H 5D KS KH KD 9C 10C JC QC")
    assert fmt(find_contract(hand, 2, LIVERPOOL)) == ["KS KH KD", "9C 10C JC QC"]
    agree(hand, 1, 1, LIVERPOOL)


def test_completing_a_partial_contract() -> None:
    hand = cards("7H 7S 7D 4C 5C 6C 7C")
    assert solve(hand, 0, 0, LIVERPOOL) == []
    assert solve(hand, 0, 0, LIVERPOOL, whole_hand=True) is None
    assert solve([], 0, 0, LIVERPOOL, whole_hand=True) == []
    assert solve(hand, 0, 0, LIVERPOOL, must_use=Card(7, "H")) is None
    assert can_complete(hand, 0, 0, LIVERPOOL)
    assert not can_complete(hand, 0, 0, LIVERPOOL, must_use=Card(7, "H"))
    assert fmt(solve(hand, 1, 1, LIVERPOOL)) == ["7S 7H 7D", "4C 5C 6C 7C"]
    assert can_complete(hand, 1, 1, LIVERPOOL)
    assert not can_complete(hand, 2, 1, LIVERPOOL)
    with pytest.raises(ValueError):
        solve(hand, -1, 1, LIVERPOOL)


def test_hand_order_does_not_matter() -> None:
    hand = cards("9S JK 8S 7S QD QC QH 4D 2D 3D AD 6S")
    expect = fmt(find_contract(hand, 6, LIVERPOOL))
    for shift in range(1, len(hand)):
        turned = hand[shift:] + hand[:shift]
        assert fmt(find_contract(turned, 6, LIVERPOOL)) == expect
        assert fmt(find_contract(list(reversed(turned)), 6, LIVERPOOL)) == expect


def test_result_lists_are_fresh() -> None:
    hand = cards("7H 7S 7D 9C 9D JK")
    first = find_contract(hand, 1, LIVERPOOL)
    assert first is not None
    first[0].clear()
    again = find_contract(hand, 1, LIVERPOOL)
    assert again is not None and len(again[0]) == 3


# ------------------------------------------------------------------------------ candidate_melds
def test_candidate_sets() -> None:
    hand = cards("7H 7S 7D JK 9C 9C")
    sets = fmt(candidate_melds(hand, "set", LIVERPOOL))
    assert sets is not None
    expected = {"7S 7H 7D", "7S 7H 7D JK", "7S 7H JK", "7S 7D JK", "7H 7D JK", "9C 9C JK"}
    assert set(sets) == expected and len(sets) == len(expected)
    exact = fmt(candidate_melds(hand, "set", LIVERPOOL, exact=True))
    assert exact is not None and set(exact) == {"7S 7H 7D", "7S 7H JK", "7S 7D JK", "7H 7D JK", "9C 9C JK"}
    contract = fmt(candidate_melds(cards("7H 7S 7D 7C 7H"), "set", CONTRACT))
    assert contract is not None and "7S 7H 7D 7C" in contract and all("7H 7H" not in s for s in contract)


def test_candidate_runs() -> None:
    runs = fmt(candidate_melds(cards("4H 5H 6H JK 9C"), "run", LIVERPOOL))
    assert runs == ["JK 4H 5H 6H", "4H 5H 6H JK"]
    runs = fmt(candidate_melds(cards("4H 5H 7H 8H JK"), "run", LIVERPOOL))
    assert runs is not None and "4H 5H JK 7H 8H" in runs and "4H 5H JK 7H" in runs and "5H JK 7H 8H" in runs
    # never a wild where the hand holds the natural
    assert all(not r.startswith("4H JK") for r in runs)
    # aces both ways
    runs = fmt(candidate_melds(cards("AS 2S 3S QS KS JK"), "run", LIVERPOOL))
    assert runs is not None and "AS 2S 3S JK" in runs and "JK QS KS AS" in runs
    assert "QS KS AS 2S" not in runs
    assert fmt(candidate_melds(cards("5D 6D 7D"), "run", CONTRACT)) == ["5D 6D 7D"]
    assert fmt(candidate_melds(cards("5D 6D 7D 8D"), "run", CONTRACT, exact=True)) == ["5D 6D 7D", "6D 7D 8D"]
    with pytest.raises(ValueError):
        candidate_melds(cards("5D"), "book", LIVERPOOL)


def test_candidate_runs_with_two_kinds_of_wild() -> None:
    rules = dataclasses.replace(LIVERPOOL, wild_rank=2)
    runs = fmt(candidate_melds(cards("5C 6C 7C JK 2D"), "run", rules))
    assert runs is not None
    assert {"JK 5C 6C 7C", "2D 5C 6C 7C", "5C 6C 7C JK", "5C 6C 7C 2D", "JK 5C 6C 7C 2D", "2D 5C 6C 7C JK"} <= set(runs)
    assert len(runs) == len(set(runs))


# ------------------------------------------------------------------------------ properties against the brute force
RULESETS = {
    "liverpool": LIVERPOOL,
    "contract": CONTRACT,
    "liverpool-run3": dataclasses.replace(LIVERPOOL, run_min=3),
    "exact (R42)": dataclasses.replace(LIVERPOOL, exact_melds=True, run_min=3),
    "deuces wild (R46)": dataclasses.replace(LIVERPOOL, wild_rank=2, run_min=3),
    "contract exact": dataclasses.replace(CONTRACT, exact_melds=True),
    "distinct ranks and suits (R11, R13)": dataclasses.replace(
        LIVERPOOL, sets_distinct_ranks=True, runs_distinct_suits=True, run_min=3
    ),
    "capped sets, ace low only (R3, R11)": dataclasses.replace(LIVERPOOL, set_max=4, ace_high=False, run_min=3),
    "three naturals, joker 20 (R18, R49)": dataclasses.replace(
        LIVERPOOL, set_min_naturals=3, joker_points=20, run_min=3
    ),
    "long runs": dataclasses.replace(LIVERPOOL, run_min=5),
    "tiny melds": dataclasses.replace(LIVERPOOL, run_min=2, set_min=2, set_min_naturals=1, set_max=3),
}
REQUESTS = [(1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3), (1, 1), (2, 1), (1, 2)]


@st.composite
def hands(draw: st.DrawFn, most: int = 9) -> tuple[str, list[Card]]:
    """A rule set and a hand from a narrow pool, so that melds are common (several packs: repeats)."""
    name = draw(st.sampled_from(sorted(RULESETS)))
    rules = RULESETS[name]
    low = draw(st.integers(1, 10))
    high = min(13, low + draw(st.integers(2, 5)))
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=3, unique=True))
    pool = [Card(r, s) for r in range(low, high + 1) for s in suits] + [Card(1, s) for s in suits] + [JOKER]
    if rules.wild_rank:
        pool += [Card(rules.wild_rank, s) for s in suits]
    hand = draw(st.lists(st.sampled_from(pool), min_size=3, max_size=most))
    return name, hand


# SOLVER_EXAMPLES=5000 for a longer search
EXAMPLES = int(os.environ.get("SOLVER_EXAMPLES", "250"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(hands(), st.sampled_from(REQUESTS))
def test_r10_to_r19_solve_equals_brute_force(case: tuple[str, list[Card]], request: tuple[int, int]) -> None:
    """R10-R19, R40, R42: solve is valid and leaves the brute force's fewest points; None exactly when
    the brute force finds nothing; can_complete agrees."""
    name, hand = case
    agree(hand, *request, RULESETS[name])


@PROPERTY
@given(hands(most=8), st.sampled_from(REQUESTS[:7]), st.data())
def test_r13_r15_options_equal_brute_force(
    case: tuple[str, list[Card]], request: tuple[int, int], data: st.DataObject
) -> None:
    """R11, R13, R15 and must_use: whole hand, a card that must go down, ranks and suits already used."""
    name, hand = case
    rules = RULESETS[name]
    kw: dict[str, object] = {}
    choice = data.draw(st.sampled_from(["whole", "must", "used"]))
    if choice == "whole":
        kw["whole_hand"] = True
    elif choice == "must":
        kw["must_use"] = data.draw(st.sampled_from([*hand, JOKER, Card(13, "C")]))
    else:
        kw["used_run_suits"] = frozenset(data.draw(st.lists(st.sampled_from(SUITS), max_size=2)))
        kw["used_set_ranks"] = frozenset(data.draw(st.lists(st.integers(1, 13), max_size=2)))
    agree(hand, *request, rules, **kw)


@PROPERTY
@given(hands(), st.sampled_from(["1S1R/9", "2S/9", "2R/9", "1S1R/9*", "2R/9*", "3S/9*", "1S2R/9"]))
def test_r48_find_contract_with_a_custom_schedule(case: tuple[str, list[Card]], contract: str) -> None:
    """R10, R15, R48: find_contract reads the contract of the deal from the schedule."""
    name, hand = case
    rules = dataclasses.replace(RULESETS[name], schedule=parse_schedule(f"2S/10,{contract}"))
    c = rules.schedule[1]
    got = find_contract(hand, 2, rules)
    expect = brute_force(hand, c.sets, c.runs, rules, whole_hand=c.whole_hand)
    if expect is None:
        assert got is None
    else:
        assert got is not None
        assert check_solution(hand, got, c.sets, c.runs, rules, whole_hand=c.whole_hand) == expect


LARGE_CASES = [
    ("liverpool", "2H 3H 4H 5H 6H 7H 8H 9H JK 4S 5S 6S", 0, 3, True),
    ("liverpool", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 0, 3, True),
    ("liverpool", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK", 0, 3, True),
    ("liverpool", "5D 6D 7D 8D 5D 6D 7D 8D 9D JK 10C JC", 0, 3, False),
    ("liverpool", "7H 7S 7D 7C 4H 5H 6H 8H JK 9S 9S 9D", 2, 1, False),
    ("liverpool", "7H 7S 7D 4H 5H 6H 8H JK 3S 4S 5S 6S", 1, 2, False),
    ("contract", "7H 7S 7D 7C 4H 5H 6H 8H JK 9S 9C 9D", 2, 1, False),
    ("contract", "AH 2H 3H QS KS AS 5D 6D 7D JK 9C 10C", 0, 3, True),
    ("deuces wild (R46)", "2H 3H 4H 5H 2C 7S 8S 9S 2D JK QD KD", 0, 3, True),
    ("exact (R42)", "7H 7S 7D 7C 4H 5H 6H 8H JK 9S 9C 9D", 1, 2, False),
    ("contract", "4S 4H 4D 4C 5S 6S 9D JD QD JK JK", 1, 1, False),
    ("contract", "4S 4H 4D 4C 5S 6S 9D JD QD JK", 1, 1, False),
    ("contract exact", "4S 4H 4D 4C 5S JK QD KD AD", 1, 1, False),
    ("liverpool", "7S 7H 7D 7C 8S 9S 10S JS 4D 4H 4C", 1, 1, True),
    ("liverpool", "2H 3H 4H 5H 6H 7H 8H 9H 10H 10H", 0, 2, False),
]


@pytest.mark.parametrize(("name", "text", "nsets", "nruns", "whole"), LARGE_CASES)
def test_r15_large_hands_equal_brute_force(name: str, text: str, nsets: int, nruns: int, whole: bool) -> None:
    """R10-R19: twelve- and thirteen-card hands, including whole-hand deals with two runs in one suit."""
    agree(cards(text), nsets, nruns, RULESETS[name], whole_hand=whole)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["liverpool", "contract"]), st.randoms(use_true_random=False), st.integers(10, 15))
def test_r10_random_deals_are_valid(name: str, rng: object, size: int) -> None:
    """R10: on random hands from the real deck, every deal's answer is valid, can_complete agrees and
    the order of the hand does not matter."""
    import random

    assert isinstance(rng, random.Random)
    rules = RULESETS[name]
    deck = [Card(r, s) for s in SUITS for r in range(1, 14)] * 2 + [JOKER] * 4
    hand = rng.sample(deck, size)
    for deal, contract in enumerate(rules.schedule, 1):
        melds = find_contract(hand, deal, rules)
        assert can_complete(hand, contract.sets, contract.runs, rules, whole_hand=contract.whole_hand) == (
            melds is not None
        )
        if melds is not None:
            check_solution(hand, melds, contract.sets, contract.runs, rules, whole_hand=contract.whole_hand)
        shuffled = list(hand)
        rng.shuffle(shuffled)
        assert fmt(find_contract(shuffled, deal, rules)) == fmt(melds)


# ------------------------------------------------------------------------------ candidate_melds against the brute force
def bf_candidates(hand: Sequence[Card], kind: str, rules: RuleSet, exact: bool) -> set[tuple[int, ...]]:
    """Sorted codes of every sub-multiset of the hand that candidate_melds should offer."""
    out: set[tuple[int, ...]] = set()
    n = len(hand)
    present = {(c.suit, c.rank) for c in hand if not rules.is_wild(c.rank)}
    top = 14 if rules.ace_high else 13
    for mask in range(1, 1 << n):
        group = [hand[i] for i in range(n) if mask >> i & 1]
        key = tuple(sorted(c.code for c in group))
        if key in out:
            continue
        if kind == "set":
            if bf_set_ok(group, rules, exact):
                out.add(key)
            continue
        if not bf_run_ok(group, rules, exact):
            continue
        # some layout must put its wilds only where the hand has no natural
        wild = [c for c in group if rules.is_wild(c.rank)]
        nat = [c for c in group if not rules.is_wild(c.rank)]
        suit = nat[0].suit
        for high in (False, True) if any(c.rank == 1 for c in nat) and rules.ace_high else (False,):
            values = sorted(14 if c.rank == 1 and high else c.rank for c in nat)
            if len(set(values)) != len(values):
                continue
            extra = len(wild) - (values[-1] - values[0] + 1 - len(values))
            for low in range(extra + 1):
                start, end = values[0] - low, values[-1] + extra - low
                if start < 1 or end > top or end - start + 1 > 13:
                    continue
                holes = [v for v in range(start, end + 1) if v not in values]
                if any(b - a < 4 for a, b in itertools.pairwise(holes)):
                    continue
                if all((suit, 1 if v == 14 else v) not in present for v in holes):
                    out.add(key)
    return out


@PROPERTY
@given(hands(most=8), st.sampled_from(["set", "run"]), st.booleans())
def test_r11_r12_candidate_melds_equal_brute_force(case: tuple[str, list[Card]], kind: str, exact: bool) -> None:
    """R11, R12, R17-R19, R42: candidate_melds gives valid melds from the hand, no two alike, and as
    multisets exactly those the brute force finds."""
    name, hand = case
    rules = RULESETS[name]
    melds = candidate_melds(hand, kind, rules, exact=exact)
    valid = is_valid_set if kind == "set" else is_valid_run
    have = Counter(hand)
    seen = set()
    for meld in melds:
        assert valid(meld, rules), format_cards(meld)
        assert not Counter(meld) - have
        if exact:
            assert len(meld) == (rules.set_min if kind == "set" else rules.run_min)
        key = tuple(meld) if kind == "run" else tuple(sorted(c.code for c in meld))
        assert key not in seen, format_cards(meld)
        seen.add(key)
        if kind == "run":
            # wilds stand only where the hand holds no natural
            suit = next(c.suit for c in meld if not rules.is_wild(c.rank))
            start = run_start(meld, rules)
            assert start is not None
            naturals = {(x.suit, x.rank) for x in hand if not rules.is_wild(x.rank)}
            for i, c in enumerate(meld):
                value = start + i
                if rules.is_wild(c.rank):
                    assert (suit, 1 if value == 14 else value) not in naturals, format_cards(meld)
    assert {tuple(sorted(c.code for c in m)) for m in melds} == bf_candidates(hand, kind, rules, exact)
    assert candidate_melds(list(reversed(hand)), kind, rules, exact=exact) == melds

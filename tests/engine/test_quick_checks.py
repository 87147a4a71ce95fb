"""The engine's quick paths agree with the slow ones they stand in for.

``can_complete`` answers most questions (not the whole hand, no card that must be used) with a
direct existence test instead of the solver's search; :class:`RestChecker` asks it for a hand less
some cards; ``Game.apply`` skips verification for an action object of the current listing. Each is
compared here with the brute force of ``test_solver``, the solver's search or the slow path.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from test_solver import brute_force

from helpers import LIVERPOOL, build, meld
from liverpool import Discard, Game, IllegalAction, RuleSet
from liverpool.cards import SUITS, Card, full_deck
from liverpool.solver import RestChecker, _ctx, _search, can_complete

OPTIONS: dict[str, list[Any]] = {
    "wild_rank": [None, 2, 13, 1],
    "set_min": [3, 2, 4],
    "set_max": [None, 4, 5],
    "set_distinct_suits": [False, True],
    "sets_distinct_ranks": [False, True],
    "run_min": [4, 3, 2, 5, 8, 11, 13],
    "runs_distinct_suits": [False, True],
    "set_min_naturals": [2, 1, 3],
    "ace_high": [True, False],
    "exact_melds": [False, True],
    "jokers_per_pack": [2, 0, 1, 4],
}
SHAPES = [(0, 1), (1, 0), (1, 1), (2, 0), (0, 2), (2, 1), (1, 2), (3, 0), (0, 3)]


def random_rules(rng: random.Random) -> RuleSet:
    base = rng.choice([RuleSet(), RuleSet.preset("contract")])
    changes = {name: rng.choice(values) for name, values in OPTIONS.items() if rng.random() < 0.3}
    try:
        return dataclasses.replace(base, **changes)
    except ValueError:  # an invalid combination
        return base


def random_hand(rng: random.Random, rules: RuleSet, low: int, high: int) -> list[Card]:
    deck = full_deck(rng.choice([1, 2, 3]), rules.jokers_per_pack)
    if rng.random() < 0.6:  # a few suits and ranks, so that melds are likely
        suits = rng.sample(SUITS, rng.randint(1, 3))
        lo = rng.randint(1, 9)
        hi = min(13, lo + rng.randint(3, 7))
        deck = [c for c in deck if c.rank == 0 or (c.suit in suits and lo <= c.rank <= hi) or rng.random() < 0.05]
    return rng.sample(deck, min(len(deck), rng.randint(low, high)))


def used(rng: random.Random) -> tuple[frozenset[int], frozenset[str]]:
    ranks = frozenset(rng.sample(range(1, 14), rng.randint(0, 3))) if rng.random() < 0.3 else frozenset()
    suits = frozenset(rng.sample(SUITS, rng.randint(0, 2))) if rng.random() < 0.3 else frozenset()
    return ranks, suits


@pytest.mark.parametrize("seed", range(4))
def test_quick_existence_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        rules = random_rules(rng)
        hand = random_hand(rng, rules, 3, 9)
        nsets, nruns = rng.choice(SHAPES)
        ranks, suits = used(rng)
        want = brute_force(hand, nsets, nruns, rules, used_set_ranks=ranks, used_run_suits=suits) is not None
        got = can_complete(hand, nsets, nruns, rules, used_set_ranks=ranks, used_run_suits=suits)
        assert got == want, (hand, nsets, nruns, ranks, suits, rules)


@pytest.mark.parametrize("seed", range(4))
def test_quick_existence_equals_the_search(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(600):
        rules = random_rules(rng)
        ctx = _ctx(rules)
        hand = random_hand(rng, rules, 0, 15)
        nsets, nruns = rng.choice([*SHAPES, (2, 2), (4, 0), (0, 4)])
        ranks, suits = used(rng)
        search = _search(
            ctx,
            hand,
            nsets,
            nruns,
            whole=False,
            must=None,
            used_ranks=ranks if rules.sets_distinct_ranks else frozenset(),
            used_suits=suits if rules.runs_distinct_suits else frozenset(),
            first=True,
        )
        got = can_complete(hand, nsets, nruns, rules, used_set_ranks=ranks, used_run_suits=suits)
        assert got == (search is not None), (hand, nsets, nruns, ranks, suits, rules)


@pytest.mark.parametrize("seed", range(3))
def test_rest_checker_equals_can_complete_on_the_rest(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(200):
        rules = random_rules(rng)
        hand = random_hand(rng, rules, 0, 15)
        check = RestChecker(hand, rules)
        for _ in range(5):
            cards = rng.sample(hand, rng.randint(0, min(5, len(hand))))
            rest = list(hand)
            for card in cards:
                rest.remove(card)
            nsets, nruns = rng.choice([*SHAPES, (0, 0)])
            ranks, suits = used(rng)
            want = can_complete(rest, nsets, nruns, rules, used_set_ranks=ranks, used_run_suits=suits)
            assert check(cards, nsets, nruns, ranks, suits) == want, (hand, cards, nsets, nruns, rules)


def test_a_begun_lay_down_always_has_a_legal_continuation() -> None:
    """The contract's last two runs need a joker where the hand holds the natural (AC 2C JK 4C and
    AC 2C 3C JK): the listing, whose jokers only fill gaps, would offer nothing, so it offers the
    melds of a completion instead."""
    game = build(
        LIVERPOOL,
        ["AS AS AD JK KC 4C AC AC 2C 3C JK JK 2C", "5H 6H", "5D 6D", "5S 6S"],
        deal=6,
    )
    first = meld(0, "set", "AS AS AD JK")
    assert game.can_apply(first)
    game.apply(first)
    legal = game.legal_actions(0)
    assert [str(a) for a in legal] == ["p0 meld run AC 2C JK 4C", "p0 meld run AC 2C 3C JK"]
    while not game.down[0]:
        game.apply(game.legal_actions(0)[0])
    assert game.hand(0) == [Card(13, "C")]


def test_apply_checks_an_equal_action_that_is_not_listed_the_same() -> None:
    """An action object of the current listing is applied without verifying it again; any other
    object, equal or not, is verified: the same refusals as before."""
    game = Game.new(players=3, seed=11)
    game.apply(game.legal_actions()[0])  # the player to act draws
    listed = game.legal_actions(game.current)
    discard = next(a for a in listed if isinstance(a, Discard))
    other = next(c for c in full_deck(1, 1) if c not in game.hand(game.current))
    with pytest.raises(IllegalAction, match="you do not hold"):
        game.apply(Discard(game.current, other))
    with pytest.raises(IllegalAction, match="turn"):
        game.apply(Discard((game.current + 1) % 3, game.hand((game.current + 1) % 3)[0]))
    copy = game.copy()
    copy.apply(Discard(discard.player, discard.card))  # an equal object: verified, legal
    game.apply(discard)  # the listed object itself
    assert copy.record() == game.record() and copy.view(0) == game.view(0)

"""House-rule variants of runs (issue 16): ``run_wild_limit`` (R19), ``ace`` and ``wrap_around``
(R3), ``wild_rank_place`` (R46 with deuces wild). For each value, in both presets, a run (or a
lay-off, or a swap) that it allows and one that it refuses, through the engine's listing and
checks, and the solver's answer.

The positions are deal 2 (one set and one run); seat 0 holds the set QH QC QD, the run under test
and a card to discard. Three packs, so that the contract preset holds three jokers.
"""

from __future__ import annotations

from typing import Any

import pytest

from liverpool import Card, Game, LayOff, Meld, RuleSet, SwapJoker
from liverpool.melds import can_extend_run, is_valid_run
from liverpool.solver import solve
from rules_helpers import PRESETS, apply_all, assert_refused, cards, position, rules

OTHERS = ("2C 8C", "3C 4D", "5H")
SET7 = "QH QC QD"


def going_down(preset: str, run: str, **options: Any) -> Game:
    """Seat 0, in play, holds the set of queens, ``run`` and KD."""
    r = rules(preset, packs=3, **options)
    return position(r, hands=(f"{SET7} {run} KD", *OTHERS), current=0, phase="play", deal=2)


def assert_run_allowed(preset: str, run: str, **options: Any) -> None:
    """``run`` is listed as a meld, lays down with the set, and the solver finds a contract."""
    game = going_down(preset, run, **options)
    meld = Meld(0, "run", tuple(cards(run)))
    assert meld in game.legal_actions(), f"{run} not listed"
    apply_all(game, Meld(0, "set", tuple(sorted(cards(SET7)))), meld)
    assert game.down[0] and game.melds[-1].cards == tuple(cards(run))
    assert solve(cards(f"{SET7} {run} KD"), 1, 1, game.rules) is not None
    assert is_valid_run(cards(run), game.rules)


def assert_run_refused(preset: str, run: str, **options: Any) -> None:
    game = going_down(preset, run, **options)
    assert_refused(game, Meld(0, "run", tuple(cards(run))), "not a valid run")
    assert not is_valid_run(cards(run), game.rules)


def on_table(preset: str, run: str, hand: str, **options: Any) -> Game:
    """Seat 0 is down, in play, holding ``hand``; ``run`` (meld 0) is seat 1's."""
    r = rules(preset, packs=3, **options)
    return position(r, hands=(hand, *OTHERS), current=0, phase="play", melds=[(1, "run", run)], down=[0, 1], deal=2)


# ---------------------------------------------------------------------------- R19 run_wild_limit
@pytest.mark.parametrize("preset", PRESETS)
def test_r19_run_wild_limit_spacing_is_the_default(preset: str) -> None:
    assert rules(preset).run_wild_limit == "spacing"
    assert_run_allowed(preset, "5S 6S JK 8S")
    assert_run_refused(preset, "5S JK JK 8S")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("limit", ["ratio", "half"])
def test_r19_run_wild_limit_ratio_and_half_allow_as_many_wild_as_natural_cards(preset: str, limit: str) -> None:
    assert_run_allowed(preset, "5S JK JK 8S", run_wild_limit=limit)
    assert_run_refused(preset, "5S JK JK JK 9S", run_wild_limit=limit)


@pytest.mark.parametrize("preset", PRESETS)
def test_r19_run_wild_limit_none_allows_any_number_of_wild_cards(preset: str) -> None:
    assert_run_allowed(preset, "5S JK JK JK 9S", run_wild_limit="none")
    # a run still needs a natural card (run_min_naturals 1)
    assert_run_refused(preset, "JK JK JK", run_wild_limit="none")


@pytest.mark.parametrize("preset", PRESETS)
def test_r19_run_wild_limit_is_judged_at_lay_offs_as_run_joker_check_says(preset: str) -> None:
    game = on_table(preset, "5S JK 7S JK", "JK KD", run_wild_limit="ratio")
    assert_refused(game, LayOff(0, Card(0), 0, True), "does not fit")
    assert_refused(game, LayOff(0, Card(0), 0, False), "does not fit")
    game = on_table(preset, "5S JK 7S JK", "JK KD", run_wild_limit="ratio", run_joker_check="initial")
    apply_all(game, LayOff(0, Card(0), 0, True))
    game = on_table(preset, "5S JK 7S JK", "JK KD", run_wild_limit="none")
    apply_all(game, LayOff(0, Card(0), 0, False))
    assert game.melds[0].cards == tuple(cards("JK 5S JK 7S JK"))


# ---------------------------------------------------------------------------- R3 ace, wrap_around
@pytest.mark.parametrize("preset", PRESETS)
def test_r3_ace_low_only(preset: str) -> None:
    assert_run_allowed(preset, "AS 2S 3S 4S", ace="low")
    assert_run_refused(preset, "JS QS KS AS", ace="low")


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_ace_high_only(preset: str) -> None:
    assert_run_allowed(preset, "JS QS KS AS", ace="high")
    assert_run_refused(preset, "AS 2S 3S 4S", ace="high")
    # the option decides over the old spelling
    assert_run_allowed(preset, "JS QS KS AS", ace="high", ace_high=False)


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_ace_either_is_the_default_and_never_both(preset: str) -> None:
    assert rules(preset).ace_rule == "either" and rules(preset, ace_high=False).ace_rule == "low"
    assert_run_allowed(preset, "AS 2S 3S 4S", ace="either")
    assert_run_allowed(preset, "JS QS KS AS", ace="either")
    whole = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    game = on_table(preset, whole, "AS KD", ace="either")
    assert_refused(game, LayOff(0, Card(1, "S"), 0, True), "does not fit")


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_ace_both_ends_one_run(preset: str) -> None:
    whole = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    game = on_table(preset, whole, "AS KD", ace="both")
    apply_all(game, LayOff(0, Card(1, "S"), 0, True))
    assert len(game.melds[0].cards) == 14
    assert is_valid_run(cards(whole + " AS"), game.rules)
    # both aces, but no wrap past them
    assert not is_valid_run(cards("QS KS AS 2S"), game.rules)


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_wrap_around_turns_the_corner(preset: str) -> None:
    assert_run_allowed(preset, "QS KS AS 2S", wrap_around=True)
    assert_run_refused(preset, "QS KS AS 2S")
    assert_run_refused(preset, "KS AS 2S 4S", wrap_around=True)
    game = on_table(preset, "KS AS 2S 3S", "QS 4S KD", wrap_around=True)
    apply_all(game, LayOff(0, Card(4, "S"), 0, True), LayOff(0, Card(12, "S"), 0, False))
    assert game.melds[0].cards == tuple(cards("QS KS AS 2S 3S 4S"))


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_r20_wrap_around_a_joker_stands_for_the_card_of_its_place(preset: str) -> None:
    game = on_table(preset, "KS JK 2S 3S", "AS KD", wrap_around=True, joker_swap="once_down")
    assert SwapJoker(0, 0, 1, Card(1, "S")) in game.legal_actions()
    assert_refused(game, SwapJoker(0, 0, 1, Card(2, "S")), "stands for AS")


def test_r3_options_are_checked_and_described() -> None:
    with pytest.raises(ValueError, match="ace must be one of"):
        RuleSet(ace="top")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="wrap_around needs the ace"):
        RuleSet(ace="low", wrap_around=True)
    with pytest.raises(ValueError, match="run_wild_limit must be one of"):
        RuleSet().with_options(run_wild_limit="two")
    words = dict(RuleSet(ace="both", wrap_around=True).describe())["R3"]
    assert "both in one run" in words and "K-A-2-3" in words
    assert "never wrap" in dict(RuleSet().describe())["R3"]
    assert "any number of wild cards" in dict(RuleSet(run_wild_limit="none").describe())["R19"]
    r = RuleSet().with_options(ace="high", wrap_around="no", run_wild_limit="ratio")
    assert RuleSet.from_dict(r.to_dict()) == r and r.to_dict()["ace"] == "high"
    assert "ace" not in RuleSet().to_dict() and "run_wild_limit" not in RuleSet().to_dict()


# ---------------------------------------------------------------------------- R46 wild_rank_place
@pytest.mark.parametrize("preset", PRESETS)
def test_r46_wild_rank_place_wild_a_wild_card_stands_for_a_deuce(preset: str) -> None:
    assert rules(preset).wild_rank_place == "wild"
    assert_run_allowed(preset, "JK 3S 4S 5S", wild_rank=2)
    assert_run_allowed(preset, "AS 2S 3S 4S", wild_rank=2)
    game = on_table(preset, "3S 4S 5S 6S", "JK KD", wild_rank=2)
    apply_all(game, LayOff(0, Card(0), 0, False))


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_wild_rank_place_none_runs_go_three_to_ace(preset: str) -> None:
    assert_run_refused(preset, "JK 3S 4S 5S", wild_rank=2, wild_rank_place="none")
    assert_run_refused(preset, "AS 2S 3S 4S", wild_rank=2, wild_rank_place="none")
    assert_run_allowed(preset, "3S 4S 5S JK", wild_rank=2, wild_rank_place="none")
    assert_run_allowed(preset, "JS QS KS AS", wild_rank=2, wild_rank_place="none")
    game = on_table(preset, "3S 4S 5S 6S", "JK KD", wild_rank=2, wild_rank_place="none")
    assert_refused(game, LayOff(0, Card(0), 0, False), "does not fit")
    assert LayOff(0, Card(0), 0, True) in game.legal_actions()


def test_r46_wild_rank_place_is_described() -> None:
    r = RuleSet(wild_rank=2, wild_rank_place="none")
    assert "has no place in runs" in dict(r.describe())["R46"]
    with pytest.raises(ValueError, match="wild_rank_place"):
        RuleSet(wild_rank=2, wild_rank_place="low")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the solver follows
@pytest.mark.parametrize("preset", PRESETS)
def test_r19_r3_the_solver_lays_what_the_options_allow(preset: str) -> None:
    hand = cards("5S JK JK 8S KH 7H 7D 7C")
    assert solve(hand, 1, 1, rules(preset, packs=3)) is None
    found = solve(hand, 1, 1, rules(preset, packs=3, run_wild_limit="none"))
    assert found is not None and cards("5S JK JK 8S") in found
    wrap = rules(preset, packs=3, wrap_around=True)
    found = solve(cards("KS AS 2S 3S 7H 7D 7C 9H"), 1, 1, wrap)
    assert found is not None and cards("KS AS 2S 3S") in found
    assert can_extend_run(cards("KS AS 2S 3S"), 13, Card(4, "S"), True, wrap)

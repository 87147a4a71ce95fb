"""House-rule variants of wild cards in sets (issue 16): ``set_wild_limit`` (R18),
``set_min_naturals`` 0 (R18) and ``wild_rank_natural_sets`` (R46, deuces wild). For each value, in
both presets, a set (or a lay-off) it allows and one it refuses, through the engine's listing and
checks, and the solver's answer.

The positions are deal 1 (two sets); seat 0 holds the set 9H 9S 9D, the set under test and a card
to discard. Three packs, so that the contract preset holds three jokers.
"""

from __future__ import annotations

from typing import Any

import pytest

from liverpool import Card, Game, LayOff, Meld, RuleSet
from liverpool.melds import can_extend_set, is_valid_set
from liverpool.solver import solve
from rules_helpers import PRESETS, apply_all, assert_refused, cards, position, rules

OTHERS = ("2C 8C", "3C 4D", "5H")
SET9 = "9H 9S 9D"


def going_down(preset: str, meld: str, **options: Any) -> Game:
    r = rules(preset, packs=3, **options)
    return position(r, hands=(f"{SET9} {meld} KD", *OTHERS), current=0, phase="play", deal=1)


def assert_set_allowed(preset: str, meld: str, **options: Any) -> None:
    """``meld`` is listed as a set, lays down with the 9s, and the solver finds a contract."""
    game = going_down(preset, meld, **options)
    action = Meld(0, "set", tuple(sorted(cards(meld))))
    assert action in game.legal_actions(), f"{meld} not listed"
    apply_all(game, Meld(0, "set", tuple(sorted(cards(SET9)))), action)
    assert game.down[0]
    assert solve(cards(f"{SET9} {meld} KD"), 2, 0, game.rules) is not None
    assert is_valid_set(cards(meld), game.rules)


def assert_set_refused(preset: str, meld: str, **options: Any) -> None:
    game = going_down(preset, meld, **options)
    assert_refused(game, Meld(0, "set", tuple(sorted(cards(meld)))), "not a valid set")
    assert not is_valid_set(cards(meld), game.rules)


def on_table(preset: str, meld: str, hand: str, **options: Any) -> Game:
    """Seat 0 is down, in play, holding ``hand``; the set ``meld`` (meld 0) is seat 1's."""
    r = rules(preset, packs=3, **options)
    return position(r, hands=(hand, *OTHERS), current=0, phase="play", melds=[(1, "set", meld)], down=[0, 1])


# ---------------------------------------------------------------------------- R18 set_wild_limit
@pytest.mark.parametrize("preset", PRESETS)
def test_r18_set_wild_limit_none_is_the_default(preset: str) -> None:
    assert rules(preset).set_wild_limit == "none"
    assert_set_allowed(preset, "7H JK JK", set_min_naturals=1)
    assert_set_refused(preset, "7H JK JK")  # set_min_naturals 2 still applies


@pytest.mark.parametrize("preset", PRESETS)
def test_r18_set_wild_limit_ratio_wild_cards_never_outnumber_naturals(preset: str) -> None:
    assert_set_allowed(preset, "7H 7S JK JK", set_wild_limit="ratio")
    assert_set_refused(preset, "7H JK JK", set_wild_limit="ratio", set_min_naturals=1)


@pytest.mark.parametrize("preset", PRESETS)
def test_r18_set_wild_limit_is_judged_at_lay_offs_as_run_joker_check_says(preset: str) -> None:
    ratio = {"set_wild_limit": "ratio", "set_max": None}  # contract: sets of any length here
    game = on_table(preset, "7H 7S JK JK", "JK KD", **ratio)
    assert_refused(game, LayOff(0, Card(0), 0), "does not fit")
    game = on_table(preset, "7H 7S JK JK", "JK KD", run_joker_check="initial", **ratio)
    apply_all(game, LayOff(0, Card(0), 0))
    game = on_table(preset, "7H 7S JK JK", "JK 7D KD", **ratio)
    apply_all(game, LayOff(0, Card(7, "D"), 0), LayOff(0, Card(0), 0))


# ---------------------------------------------------------------------------- R18 set_min_naturals 0
@pytest.mark.parametrize("preset", PRESETS)
def test_r18_set_min_naturals_zero_a_set_of_wild_cards(preset: str) -> None:
    assert_set_allowed(preset, "JK JK JK", set_min_naturals=0)
    assert_set_refused(preset, "JK JK JK", set_min_naturals=1)
    # the first natural card laid off gives the set its rank
    game = on_table(preset, "JK JK JK", "7C 8C KD", set_min_naturals=0)
    assert LayOff(0, Card(8, "C"), 0) in game.legal_actions()
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert_refused(game, LayOff(0, Card(8, "C"), 0), "does not fit")


def test_r18_set_min_naturals_is_checked() -> None:
    with pytest.raises(ValueError, match="set_min_naturals must be 0 to set_min"):
        RuleSet(set_min_naturals=-1)
    assert RuleSet(set_min_naturals=0).meld_variant and not RuleSet().meld_variant
    assert "never outnumber" in dict(RuleSet(set_wild_limit="ratio").describe())["R18"]
    with pytest.raises(ValueError, match="set_wild_limit must be one of"):
        RuleSet().with_options(set_wild_limit="half")


# ---------------------------------------------------------------------------- R46 natural deuce sets
@pytest.mark.parametrize("preset", PRESETS)
def test_r46_wild_rank_natural_sets_off_three_deuces_are_no_set(preset: str) -> None:
    assert rules(preset).wild_rank_natural_sets is False
    assert_set_refused(preset, "2S 2H 2D", wild_rank=2)
    assert_set_allowed(preset, "7S 7H 2D", wild_rank=2)


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_wild_rank_natural_sets_natural_deuces_form_a_set(preset: str) -> None:
    assert_set_allowed(preset, "2S 2H 2D", wild_rank=2, wild_rank_natural_sets=True)
    assert_set_refused(preset, "2S JK JK", wild_rank=2, wild_rank_natural_sets=True)
    game = on_table(preset, "2S 2H 2D", "2C 7C KD", wild_rank=2, wild_rank_natural_sets=True)
    assert_refused(game, LayOff(0, Card(7, "C"), 0), "does not fit")
    apply_all(game, LayOff(0, Card(2, "C"), 0))
    rules_ = rules(preset, wild_rank=2, wild_rank_natural_sets=True)
    assert not can_extend_set(cards("2S 2H 2D"), Card(7, "C"), rules_)
    assert "form a set of 2s" in dict(rules_.describe())["R46"]

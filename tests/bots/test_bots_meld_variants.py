"""The greedy bots under the meld variants of issue 16 (wild limits, all-wild melds, the ace, the
corner, deuces with no place of their own or in sets of their own): they choose only among the
engine's legal actions, finish whole games, and their contract deficit stays sensible: they go out
about as often as under the preset's own rules (the same seeds)."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest

import liverpool.bots as bots
from liverpool import Game, RuleSet
from liverpool.driver import play_game
from liverpool.rules import parse_schedule

VARIANTS: dict[str, dict[str, Any]] = {
    "none-wrap": {"run_wild_limit": "none", "wrap_around": True},
    "ratio-deuces-no-place": {
        "run_wild_limit": "ratio",
        "set_wild_limit": "ratio",
        "wild_rank": 2,
        "wild_rank_place": "none",
    },
    "ace-high-deuce-sets": {"ace": "high", "wild_rank": 2, "wild_rank_natural_sets": True},
    "all-wild": {"run_wild_limit": "none", "run_min_naturals": 0, "set_min_naturals": 0},
    "ace-both-half": {"ace": "both", "run_wild_limit": "half"},
}


@cache
def went_out(preset: str, name: str) -> tuple[int, int]:
    """(deals someone went out in, deals) over two seeded games of four greedy bots."""
    options = VARIANTS.get(name, {})
    schedule = parse_schedule("2S/10,1S1R/10,0S2R/10,1S2R/12,3R/12*")
    rules = dataclasses.replace(RuleSet.preset(preset), schedule=schedule, **options)
    deals = outs = 0
    for seed in range(2):
        players = [bots.get("greedy", seed=seed + p) for p in range(4)]
        game = play_game(Game.new(players=4, rules=rules, seed=seed), players)
        assert game.is_over
        deals += len(game.deal_scores)
        outs += sum(1 for scores in game.deal_scores if 0 in scores)
    return outs, deals


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_greedy_bots_play_the_meld_variants_sensibly(preset: str, name: str) -> None:
    outs, deals = went_out(preset, name)
    usual, _ = went_out(preset, "")
    assert deals == 10
    assert outs >= usual // 2 and outs >= 2, f"{outs} of {deals} deals went out ({usual} under the preset's rules)"

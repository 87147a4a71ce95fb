"""R1, R2: tables of up to 16 players (Board Game Arena's Liverpool Rummy seats 2-16), with the packs
each count needs; a table the packs cannot deal is refused naming the packs it would need."""

from __future__ import annotations

import random

import pytest

from liverpool import Game, RuleSet

BIG = RuleSet(max_players=16, pack_schedule=((5, 2), (8, 3), (12, 4), (16, 4)))


def test_r2_up_to_sixteen_players_and_no_more() -> None:
    assert RuleSet().with_options(max_players="16").max_players == 16
    with pytest.raises(ValueError, match="max_players must be a whole number from 2 to 16, got 17"):
        RuleSet(max_players=17)
    with pytest.raises(ValueError, match="min_players, max_players"):
        Game.new(players=17, rules=BIG, seed=1)


def test_r1_sixteen_players_are_dealt_from_four_packs() -> None:
    """Ported from Board Game Arena's 2-16 seat tables: 16 hands of 12 from four packs with jokers
    (216 cards), the upcard and a stock of at least one card a player."""
    game = Game.new(players=16, rules=BIG, seed=3)
    assert BIG.packs_for(16) == 4 and BIG.deck_size(16) == 216
    assert all(len(game.hand(p)) == 10 for p in range(16))
    assert game.stock_size + 16 * 10 + 1 == 216
    rng = random.Random(5)
    for _ in range(400):  # random play keeps the game legal at this size
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.players == 16


def test_r1_the_refusal_names_the_packs_needed() -> None:
    rules = RuleSet(max_players=16)  # the default pack schedule's last pair: 3 packs
    with pytest.raises(ValueError, match="raise option packs to 4"):
        Game.new(players=16, rules=rules, seed=1)
    assert rules.packs_needed(16) == 4 and rules.packs_needed(12) == 3 and rules.packs_needed(8) == 2


def test_r1_r2_the_rules_text_covers_every_table_allowed() -> None:
    text = dict(BIG.describe())
    assert text["R2"] == "Players: 2 to 16."
    assert text["R1"].endswith("2 packs for 2-5 players, 3 packs for 6-8 players, 4 packs for 9-16 players.")
    wide = dict(RuleSet(max_players=12).describe())["R1"]  # the last pair serves the larger tables too
    assert wide.endswith("3 packs for 6-12 players.")

"""The driver's and apply's shortcuts against the plain algorithms they stand for.

``next_to_act`` finds the nearest seat with an out-of-turn action as one slice of the draw phase's
listing (the listing groups each seat's actions); ``reference_next_to_act`` below scans every
action. ``Game.apply`` takes a discard a bot builds itself for the equal one of the listing, without
verifying it; it must be exactly as if it had been verified.
"""

from __future__ import annotations

import random

import pytest

from liverpool import Discard, Game, IllegalAction, RuleSet
from liverpool.actions import Action
from liverpool.cards import full_deck
from liverpool.driver import next_to_act
from liverpool.game import DRAW

VARIANTS: dict[str, dict[str, object]] = {
    "liverpool": {},
    "call": {"playable_discard": "call"},
    "liverpool_call": {"playable_discard": "liverpool", "down_may_buy": True},
    "first_buyer": {"buy_precedence": "first", "buy_limit": 1, "pile_draw": True},
}


def reference_next_to_act(game: Game) -> tuple[int, list[Action]]:
    """The nearest clockwise other seat with an action in a draw phase, by a scan of the listing."""
    legal = game.legal_actions()
    p, n = game.current, game.players
    if game.phase != DRAW:
        return p, legal
    steps = [(a.player - p) % n for a in legal if a.player != p]
    if steps:
        q = (p + min(steps)) % n
        return q, [a for a in legal if a.player == q]
    return p, legal


def _games(options: dict[str, object], count: int = 3) -> list[Game]:
    rules = RuleSet.preset("liverpool").with_options(**options) if options else RuleSet.preset("liverpool")
    rng = random.Random(repr(options))
    return [Game.new(players=3 + i, rules=rules, seed=rng.getrandbits(32)) for i in range(count)]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_next_to_act_agrees_with_the_reference(name: str) -> None:
    rng = random.Random(name)
    asked = 0
    for game in _games(VARIANTS[name]):
        while not game.is_over:
            seat, legal = next_to_act(game)
            assert (seat, legal) == reference_next_to_act(game)
            asked += seat != game.current
            game.apply(rng.choice(legal))
    assert asked > 100


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_own_discards_apply_as_verified(name: str) -> None:
    rng = random.Random(name)
    checked = 0
    for game in _games(VARIANTS[name], count=1):
        deck = full_deck(game.rules.packs_for(game.players), game.rules.jokers_per_pack)
        positions = 0
        while not game.is_over and positions < 40:  # enough positions, in a few deals
            seat, legal = next_to_act(game)
            if game.phase != DRAW and rng.random() < 0.1:
                positions += 1
                held = set(game.hands[seat])
                for card in held | set(rng.sample(deck, 3)):
                    own = Discard(seat, card)  # equal to a listed one, never the same object
                    listed = own in legal
                    assert game.can_apply(own) is listed
                    trial = game.copy()
                    trial.legal_actions()
                    if listed:
                        trial.apply(own)
                        verified = game.copy()
                        verified.apply(own)  # no listing: verified
                        assert trial.record() == verified.record()
                        assert trial.view(seat) == verified.view(seat)
                        checked += 1
                    else:
                        with pytest.raises(IllegalAction):
                            trial.apply(own)
                        assert trial.view(seat) == game.view(seat)
                with pytest.raises(IllegalAction):
                    game.copy().apply(Discard(game.players, next(iter(held))))
            game.apply(rng.choice(legal))
    assert checked > 100

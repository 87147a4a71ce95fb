"""One home per rule (issue 10): the bots' fast paths ask the engine's rule functions, and agree with
what the engine lists and verifies, over random positions of whole games on both presets and random
house rules.

- lay-off targets (R24): the greedy bot's knowledge of the table (``Snapshot.accepts``, from a view
  and from a game) against :meth:`Game.layoff_spot` and against the meld checks
  (``can_extend_set`` / ``can_extend_run``) for every card of the deck and every meld;
- who may buy (R27-R31, R44): :meth:`Game.may_buy` against the listing and :meth:`Game.can_apply`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers import greedy_decisions
from liverpool import Game
from liverpool.actions import Action, Buy
from liverpool.bots.greedy import Snapshot
from liverpool.cards import Card, full_deck
from liverpool.game import DRAW, layoff_targets
from liverpool.melds import can_extend_run, can_extend_set

HOUSE: dict[str, list[Any]] = {
    "playable_discard": ["call", "liverpool", "strict", "off"],
    "joker_swap": ["going_down_turn", "once_down", "later_turns", "off"],
    "floating": [False, True, "refuse"],
    "layoff_same_turn": [False, True],
    "wild_rank": [None, 2],
    "buy_limit": [None, 0, 1, 3],
    "down_may_buy": [False, True],
    "set_distinct_suits": [False, True, "laydown"],
    "run_joker_check": ["always", "initial"],
    "ace_high": [False, True],
}


def _games(seed: int, count: int) -> Iterator[tuple[Game, int, list[Action]]]:
    """(game, seat to act, its legal actions) at every decision of ``count`` greedy games."""
    return greedy_decisions(seed, count, HOUSE, players=(3, 4, 5))


@pytest.mark.parametrize("seed", [1, 2])
def test_greedy_layoff_targets_are_the_engines(seed: int) -> None:
    """R24: a card fits the table for the greedy bot (from a view, remembered per table, and from a
    game) exactly when the engine has a lay-off spot for it, and every lay-off target the engine
    names is a lay-off ``can_extend_set`` / ``can_extend_run`` accept (and no other)."""
    checked = 0
    for game, seat, _ in _games(seed, 6):
        if not game.melds or game.version % 3:
            continue
        rules = game.rules
        deck = sorted(set(full_deck(1, 1)))
        from_view = Snapshot.from_view(game.view(seat))
        from_game = Snapshot.from_game(game, seat)
        for acc in (from_view.accepts(), from_game.accepts()):
            for card in deck:
                assert from_view.fits(card, acc) == (game.layoff_spot(card) is not None), (card, game.melds)
        for m in game.melds:
            start = next(v["start"] for v in game.view(seat)["melds"] if v["id"] == m.id)
            targets = layoff_targets(m.kind, m.cards, start, rules)
            for card in deck:
                for high in (False, True):
                    fits = any(
                        h == high and (c == card or (c is None and rules.is_wild(card.rank))) for c, h in targets
                    )
                    if m.kind == "set":
                        assert (fits and high) == (can_extend_set(m.cards, card, rules) and high), (card, m)
                    else:
                        assert fits == can_extend_run(m.cards, start, card, high, rules), (card, high, m)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("seed", [3, 4])
def test_may_buy_is_the_listings_rule(seed: int) -> None:
    """R27-R31, R44: ``Game.may_buy(q)`` is true exactly when the listing offers ``q`` a Buy, and
    agrees with ``can_apply`` (the strong bot's playouts ask ``may_buy``)."""
    checked = 0
    for game, _, _ in _games(seed, 6):
        if game.phase != DRAW:
            continue
        legal = game.legal_actions()
        top = game.discard_pile[-1] if game.discard_pile else None
        for q in range(game.players):
            listed = any(isinstance(a, Buy) and a.player == q for a in legal)
            assert game.may_buy(q) == listed
            assert game.may_buy(q) == game.can_apply(Buy(q, top if isinstance(top, Card) else None))
            checked += 1
    assert checked > 100

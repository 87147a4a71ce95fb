"""House-rule variant of the buy window (issue 16): ``buy_window`` (R30). "until_draw" (the
default): a buy may be asked until the next player draws; the requests are resolved at their stock
draw. "until_discard": the window stays open after that stock draw, until that player discards;
the buys asked then are resolved when their turn ends (R29's precedence among them). For each
value, in both presets (buying on), a buy it allows and one it refuses."""

from __future__ import annotations

import pytest

from liverpool import Buy, Card, Discard, DrawDiscard, DrawStock, Game, LayOff, Pass, RuleSet, StaleAction
from liverpool.driver import next_to_act
from liverpool.game import PLAY
from rules_helpers import PRESETS, apply_all, assert_conserved, assert_refused, events_of, position, rules, snapshot

KC = Card(13, "C")
HANDS = ("2H 3H 4H 5H 9D", "4S 5S 6S 7S 9C", "KS KH 7D 8D 9H", "KD 3C 4C 5C 6C")


def after_discard(preset: str, **options: object) -> Game:
    """Player 0 discarded the KC; player 1 is to draw; players 2 and 3 may buy it."""
    return position(
        rules(preset, buying=True, **options),
        hands=HANDS,
        stock="QS QH 10S 10H",
        discard="8C KC",
        discarder=0,
        current=1,
    )


def test_r30_buy_window_default_and_choices() -> None:
    assert RuleSet().buy_window == "until_draw" and RuleSet.preset("contract").buy_window == "until_draw"
    assert "buy_window" not in RuleSet().to_dict()  # a variant option: invisible at its default
    assert RuleSet().with_options(buy_window="until_discard").to_dict()["buy_window"] == "until_discard"
    with pytest.raises(ValueError, match="buy_window must be one of until_draw, until_discard"):
        RuleSet().with_options(buy_window="forever")


@pytest.mark.parametrize("preset", PRESETS)
def test_r30_until_draw_refuses_a_buy_after_the_stock_draw(preset: str) -> None:
    game = after_discard(preset)
    apply_all(game, DrawStock(1))
    assert game.view(2)["buy_window"] is False
    assert_refused(game, Buy(2, KC), "R30")
    assert_refused(game, Pass(3), "R30")
    assert next_to_act(game)[0] == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_r30_until_discard_allows_a_buy_after_the_stock_draw(preset: str) -> None:
    game = after_discard(preset, buy_window="until_discard")
    apply_all(game, Pass(2), Pass(3), DrawStock(1))
    # the window is asked anew: everyone may buy again, the player to play is asked last
    assert game.phase == PLAY and game.view(2)["buy_window"] is True and game.view(2)["passed"] == []
    legal = game.legal_actions()
    assert Buy(2, KC) in legal and Buy(3, KC) in legal and Pass(3) in legal
    assert next_to_act(game)[0] == 2
    hand2, hand3 = game.hand(2), game.hand(3)
    apply_all(game, Buy(3, KC), Buy(2, KC))
    assert game.hand(3) == hand3 and game.hand(2) == hand2  # nothing is resolved before the turn ends
    assert game.discard_pile[-1] == KC and game.view(0)["buy_requests"] == [3, 2]
    stock = game.stock_size
    apply_all(game, Discard(1, Card(9, "C")))
    # R29 nearest clockwise to the discarding player wins: player 2
    assert game.hand(2).count(KC) == 1 and len(game.hand(2)) == len(hand2) + 2
    assert game.stock_size == stock - 1
    assert game.discard_pile[-2:] == [Card(8, "C"), Card(9, "C")]
    assert [e["type"] for e in game.events[-2:]] == ["buy", "discard"]  # bought before the new discard
    assert [e["player"] for e in events_of(game, "buy")] == [2]
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r30_until_discard_refuses_a_buy_once_the_discard_is_made(preset: str) -> None:
    game = after_discard(preset, buy_window="until_discard")
    apply_all(game, DrawStock(1), Discard(1, Card(9, "C")))
    # a new window on the new discard: a buy naming the KC is stale, and player 1 may not buy
    # their own discard
    before = snapshot(game)
    with pytest.raises(StaleAction, match="top discard is 9C"):
        game.apply(Buy(3, KC))
    assert snapshot(game) == before
    assert_refused(game, Buy(1), "own discard")


@pytest.mark.parametrize("preset", PRESETS)
def test_r30_until_discard_the_player_to_play_may_not_buy_or_pass(preset: str) -> None:
    game = after_discard(preset, buy_window="until_discard")
    apply_all(game, DrawStock(1))
    assert_refused(game, Buy(1, KC), "other players")
    assert_refused(game, Pass(1), "your turn")
    assert_refused(game, Buy(0, KC), "own discard")


@pytest.mark.parametrize("preset", PRESETS)
def test_r30_until_discard_a_taken_discard_closes_the_window(preset: str) -> None:
    game = after_discard(preset, buy_window="until_discard")
    apply_all(game, DrawDiscard(1))
    assert game.view(2)["buy_window"] is False
    assert_refused(game, Buy(2), "R30")


@pytest.mark.parametrize("preset", PRESETS)
def test_r30_until_discard_a_buy_before_the_draw_is_resolved_at_the_draw(preset: str) -> None:
    game = after_discard(preset, buy_window="until_discard")
    apply_all(game, Buy(3, KC), DrawStock(1))
    assert KC in game.hand(3)
    assert game.view(2)["buy_window"] is False  # the card is gone: the window is closed
    assert_refused(game, Buy(2, KC), "R30")


@pytest.mark.parametrize("floating", [True, False])
def test_r30_until_discard_a_turn_ended_by_floating_resolves_the_buys(floating: bool) -> None:
    # Player 1, down, draws the QS and lays off both cards: floating (R38) ends the turn without a
    # discard and the buy asked after the draw is resolved; going out instead ends the deal first.
    game = position(
        rules("liverpool", buy_window="until_discard", floating=floating),
        hands=("2H 3H 4H 5H 9D", "9C", "KS KH 7D 8D 9H", "KD 3C 4C 5C 6C"),
        stock="10S QS",
        discard="8C KC",
        melds=[(1, "set", "9S 9H 9D"), (1, "set", "QH QD QC")],
        down=[1],
        discarder=0,
        current=1,
    )
    apply_all(game, DrawStock(1), Buy(2, KC), LayOff(1, Card(9, "C"), 0), LayOff(1, Card(12, "S"), 1))
    if floating:
        assert KC in game.hand(2) and [e["player"] for e in events_of(game, "buy")] == [2]
        assert game.current == 2 and game.phase == "draw"
    else:
        assert events_of(game, "deal_end")[0]["out"] == 1 and not events_of(game, "buy")


def test_r30_until_discard_a_buy_the_stock_cannot_pay_is_refused() -> None:
    game = position(
        rules("liverpool", buy_window="until_discard", stock_rebuilds=0),
        hands=HANDS,
        stock="QS",
        discard="KC",
        discarder=0,
        current=1,
        rest="discard",
    )
    apply_all(game, DrawStock(1))
    assert game.stock_size == 0
    assert_refused(game, Buy(2, KC), "stock")

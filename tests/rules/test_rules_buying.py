"""Rules R26-R31, R44, R47 (RULES.md): the discard lock and buying out of turn, in both presets."""

from __future__ import annotations

import pytest

from liverpool import Buy, Card, Discard, DrawDiscard, DrawFromPile, DrawStock, Game, LayOff, Pass
from liverpool.bots import get
from liverpool.driver import play_game
from liverpool.game import PLAY
from rules_helpers import (
    PRESETS,
    apply_all,
    assert_conserved,
    assert_refused,
    events_of,
    position,
    rules,
)

# Four hands of one pack with no card in common: valid in both presets (contract plays one pack).
HANDS = (
    "2C 3D 4H 5S 6C 7D 8H 9S 10C",
    "2H 3S 4D 5C 6H 7S 8D 9C 10H JS",
    "2D 3C 4S 5H 6D 7C 8S 9D 10S JC",
    "2S 3H 4C 5D 6S 7H 8C 9H 10D JH",
)
KC = Card(13, "C")


def after_discard(preset: str = "liverpool", **options: object) -> Game:
    """Player 0 has just discarded KC; player 1 is to draw; the stock's top cards are QH (top), QS."""
    return position(
        rules(preset, **options),
        hands=HANDS,
        stock="QS QH",
        discard="KD KC",
        current=1,
        discarder=0,
    )


# ------------------------------------------------------------------------------ R26
@pytest.mark.parametrize("preset", PRESETS)
def test_r26_card_taken_from_discard_cannot_be_discarded_same_turn(preset: str) -> None:
    game = after_discard(preset, buying=False)
    game.apply(DrawDiscard(1))
    assert game.view(1)["taken_from_discard"] == "KC"
    assert_refused(game, Discard(1, KC), "KC", "R26")
    assert Discard(1, Card(2, "H")) in game.legal_actions()
    game.apply(Discard(1, Card(2, "H")))
    assert game.discard_pile[-1] == Card(2, "H")


def test_r26_an_equal_card_from_another_pack_is_refused_too() -> None:
    # Two packs: player 1 holds a KC and takes the other. Both are the same card to everyone at the
    # table, so discarding "a KC" this turn is refused (decision noted in docs/rules.md).
    hands = list(HANDS)
    hands[1] += " KC"
    game = position(hands=hands, stock="QS QH", discard="KD KC", current=1, discarder=0)
    game.apply(DrawDiscard(1))
    assert_refused(game, Discard(1, KC), "R26")


def test_r26_card_taken_from_stock_may_be_discarded() -> None:
    game = after_discard()
    game.apply(DrawStock(1))
    assert game.hand(1)[-1] == Card(12, "H")
    game.apply(Discard(1, Card(12, "H")))
    assert game.discard_pile[-1] == Card(12, "H")


def test_r26_option_discard_lock_off_allows_discarding_the_taken_card() -> None:
    game = after_discard(discard_lock=False)
    game.apply(DrawDiscard(1))
    assert Discard(1, KC) in game.legal_actions()
    game.apply(Discard(1, KC))
    assert game.discard_pile[-1] == KC
    assert game.current == 2


def test_r26_contract_several_cards_taken_from_the_pile_one_may_be_discarded() -> None:
    # Contract (R22): player 1, down, takes 7C from inside the pile and the KC above it; 7C must be
    # melded at once (it fits the set of 7s) and KC, one of several cards taken, may be discarded.
    game = position(
        rules("contract"),
        hands=("2C 3D", "2H 3S", "2D 3C", "2S 3H"),
        melds=[(0, "set", "7H 7S 7D")],
        down=[0, 1],
        stock="QS QH",
        discard="KD 7C KC",
        current=1,
        discarder=0,
    )
    assert DrawFromPile(1, 1) in game.legal_actions()
    game.apply(DrawFromPile(1, 1))
    assert game.view(1)["taken_from_discard"] is None
    assert_refused(game, Discard(1, KC), "7C", "R22")  # the deepest card is melded first
    game.apply(LayOff(1, Card(7, "C"), 0))
    assert Discard(1, KC) in game.legal_actions()
    game.apply(Discard(1, KC))
    assert game.discard_pile[-2:] == [Card(13, "D"), KC]
    assert_conserved(game)


def test_r26_contract_single_card_taken_from_the_top_is_locked() -> None:
    game = after_discard("contract")
    game.apply(DrawDiscard(1))
    assert_refused(game, Discard(1, KC), "R26")


# ------------------------------------------------------------------------------ R27
def test_r27_other_players_may_buy_a_discard_the_next_player_has_not_taken() -> None:
    game = after_discard()
    legal = game.legal_actions()
    assert Buy(2) in legal and Buy(3) in legal
    assert game.view(2)["buy_window"] is True
    assert_refused(game, Buy(0), "own discard")  # the discarder
    assert_refused(game, Buy(1), "your turn")  # the player to draw takes it instead


def test_r27_buy_is_resolved_only_when_the_next_player_draws_from_the_stock() -> None:
    game = after_discard()
    hand3 = game.hand(3)
    game.apply(Buy(3))
    assert game.hand(3) == hand3  # only a request so far
    assert game.view(0)["buy_requests"] == [3]
    assert game.discard_pile[-1] == KC
    game.apply(DrawStock(1))
    assert sorted(game.hand(3)) == sorted([*hand3, KC, Card(12, "H")])
    assert game.hand(1)[-1] == Card(12, "S")
    assert game.discard_pile[-1] == Card(13, "D")
    assert game.view(0)["buys_used"] == [0, 0, 0, 1]
    assert game.phase == PLAY and game.current == 1
    assert_conserved(game)


def test_r27_buy_request_lapses_when_the_next_player_takes_the_discard() -> None:
    game = after_discard()
    hand3 = game.hand(3)
    stock = game.stock_size
    game.apply(Buy(3))
    game.apply(DrawDiscard(1))
    assert KC in game.hand(1)
    assert game.hand(3) == hand3
    assert game.stock_size == stock
    assert game.view(3)["buys_used"] == [0, 0, 0, 0]
    assert not events_of(game, "buy")


def test_r27_the_upcard_may_be_bought() -> None:
    game = Game.new(players=4, seed=11)
    first = game.current
    others = [q for q in range(4) if q != first]
    for q in others:
        assert Buy(q) in game.legal_actions()
    upcard = game.discard_pile[-1]
    game.apply(Buy(others[-1]))
    game.apply(DrawStock(first))
    assert upcard in game.hand(others[-1])
    assert len(game.hand(others[-1])) == 12
    assert_conserved(game)


def test_r27_a_player_who_passed_may_not_buy_that_discard() -> None:
    game = after_discard()
    apply_all(game, Pass(2))
    assert_refused(game, Buy(2), "passed")
    assert_refused(game, Pass(2), "passed")
    assert Buy(3) in game.legal_actions()


def test_r27_one_request_per_player() -> None:
    game = after_discard()
    game.apply(Buy(2))
    assert_refused(game, Buy(2), "already")


def test_r27_contract_buying_is_off() -> None:
    game = after_discard("contract")
    assert not [a for a in game.legal_actions() if isinstance(a, Buy | Pass)]
    assert game.view(2)["buy_window"] is False
    for q in (0, 2, 3):
        assert_refused(game, Buy(q), "R27")


def test_r27_contract_with_buying_switched_on() -> None:
    game = after_discard("contract", buying=True)
    apply_all(game, Buy(2), DrawStock(1))
    assert KC in game.hand(2) and Card(12, "H") in game.hand(2)
    assert_conserved(game)


# ------------------------------------------------------------------------------ R28, R47
@pytest.mark.parametrize("preset", PRESETS)
def test_r28_a_buy_costs_one_penalty_card_from_the_stock(preset: str) -> None:
    game = after_discard(preset, buying=True)
    stock = game.stock_size
    before = len(game.hand(2))
    apply_all(game, Buy(2), DrawStock(1))
    assert len(game.hand(2)) == before + 2
    assert game.stock_size == stock - 2  # the penalty card and player 1's draw
    (buy,) = events_of(game, "buy")
    assert buy["player"] == 2 and buy["card"] == "KC" and buy["penalty"] == 1
    assert "QH" not in str(buy)  # the penalty card is taken face down
    assert_conserved(game)


@pytest.mark.parametrize("penalty", [0, 2, 3])
def test_r47_buy_price_option(penalty: int) -> None:
    game = after_discard(buy_penalty=penalty)
    stock = game.stock_size
    before = len(game.hand(2))
    apply_all(game, Buy(2), DrawStock(1))
    assert len(game.hand(2)) == before + 1 + penalty
    assert game.stock_size == stock - penalty - 1
    assert events_of(game, "buy")[0]["penalty"] == penalty
    assert_conserved(game)


def test_r28_buy_refused_when_the_stock_cannot_pay_and_cannot_be_rebuilt() -> None:
    # One card in the stock: the penalty card would take it and player 1 could not draw.
    game = position(
        rules(stock_rebuilds=0),
        hands=HANDS,
        stock="QH",
        discard="KD KC",
        current=1,
        discarder=0,
        rest="discard",
    )
    assert_refused(game, Buy(2), "stock")
    assert not [a for a in game.legal_actions() if isinstance(a, Buy)]
    game.apply(DrawStock(1))  # the player to draw still may
    assert game.hand(1)[-1] == Card(12, "H")


def test_r28_buy_refused_when_the_rebuild_limit_is_spent() -> None:
    game = position(
        rules(stock_rebuilds=2),
        hands=HANDS,
        stock="QH",
        discard="KD KC",
        current=1,
        discarder=0,
        rebuilds=2,
        rest="discard",
    )
    assert_refused(game, Buy(2), "stock")


def test_r28_buy_refused_when_a_rebuild_would_hold_no_card() -> None:
    # Stock of one card, the pile only KD under the KC being bought: a rebuild keeps the pile's
    # new top (KD) and so holds nothing for player 1's draw. (The deck's other cards are in seat 3's hand.)
    game = position(hands=HANDS, stock="QH", discard="KD KC", current=1, discarder=0, rest="hand")
    assert_refused(game, Buy(2), "stock")


def test_r28_buy_with_the_stock_nearly_empty_rebuilds_it_from_the_discard_pile() -> None:
    game = position(
        hands=HANDS,
        stock="QH",
        discard="KD KC",
        current=1,
        discarder=0,
        rest="discard",  # every other card lies in the discard pile, under KD
    )
    pile = game.discard_pile
    assert game.stock_size == 1
    apply_all(game, Buy(2), DrawStock(1))
    assert KC in game.hand(2) and Card(12, "H") in game.hand(2)
    (rebuilt,) = events_of(game, "stock_rebuilt")
    assert rebuilt["count"] == 1
    assert game.discard_pile == [Card(13, "D")]  # the pile's top stays
    assert game.stock_size == len(pile) - 3  # less KC (bought), KD (kept) and player 1's draw
    assert game.view(0)["rebuilds"] == 1
    assert_conserved(game)


# ------------------------------------------------------------------------------ R29
def test_r29_nearest_buyer_wins() -> None:
    game = after_discard()
    hand2, hand3 = game.hand(2), game.hand(3)
    apply_all(game, Buy(3), Buy(2), DrawStock(1))  # 3 asked first; 2 sits nearer to player 1
    assert KC in game.hand(2)
    assert len(game.hand(2)) == len(hand2) + 2
    assert game.hand(3) == hand3
    assert game.view(0)["buys_used"] == [0, 0, 1, 0]


def test_r29_nearest_buyer_counts_clockwise_round_the_table() -> None:
    # Player 2 discarded, player 3 is to draw: player 0 sits next after 3, then 1.
    game = position(hands=HANDS, stock="QS QH", discard="KD KC", current=3, discarder=2)
    apply_all(game, Buy(1), Buy(0), DrawStock(3))
    assert KC in game.hand(0)
    assert KC not in game.hand(1)


def test_r29_upcard_nearest_includes_the_dealer() -> None:
    # No discarder (the upcard): player 1 draws first; the dealer (0) is the farthest clockwise.
    game = position(hands=HANDS, stock="QS QH", discard="KD KC", current=1, discarder=None)
    apply_all(game, Buy(0), Buy(3), DrawStock(1))
    assert KC in game.hand(3)
    game = position(hands=HANDS, stock="QS QH", discard="KD KC", current=1, discarder=None)
    apply_all(game, Buy(0), DrawStock(1))
    assert KC in game.hand(0)


def test_r29_option_first_call_wins_by_arrival() -> None:
    game = after_discard(buy_precedence="first")
    hand2 = game.hand(2)
    apply_all(game, Buy(3), Buy(2), DrawStock(1))
    assert KC in game.hand(3)
    assert game.hand(2) == hand2
    game = after_discard(buy_precedence="first")
    apply_all(game, Buy(2), Buy(3), DrawStock(1))
    assert KC in game.hand(2)


# ------------------------------------------------------------------------------ R30
def test_r30_buy_window_closes_when_the_next_player_draws_from_the_stock() -> None:
    game = after_discard()
    game.apply(DrawStock(1))
    assert game.view(2)["buy_window"] is False
    assert_refused(game, Buy(2), "R30")
    assert_refused(game, Pass(3), "R30")


def test_r30_buy_window_closes_when_the_next_player_takes_the_discard() -> None:
    game = after_discard()
    game.apply(DrawDiscard(1))
    assert_refused(game, Buy(2), "R30")


def test_r30_each_discard_opens_a_new_window() -> None:
    game = after_discard()
    apply_all(game, Buy(3), Pass(2), DrawDiscard(1), Discard(1, Card(2, "H")))
    view = game.view(3)
    assert view["buy_window"] is True and view["buy_requests"] == [] and view["passed"] == []
    assert game.current == 2
    assert Buy(3) in game.legal_actions() and Buy(0) in game.legal_actions()
    assert_refused(game, Buy(1), "own discard")
    apply_all(game, Buy(0), DrawStock(2))
    assert Card(2, "H") in game.hand(0)


# ------------------------------------------------------------------------------ R31, R47
def test_r31_buys_are_unlimited_by_default() -> None:
    game = position(hands=HANDS, stock="QS QH", discard="KD KC", current=1, discarder=0, buys_used=[0, 0, 0, 40])
    apply_all(game, Buy(3), DrawStock(1))
    assert game.view(3)["buys_used"][3] == 41


def test_r31_buy_limit_per_player_per_deal() -> None:
    game = position(
        rules(buy_limit=3), hands=HANDS, stock="QS QH", discard="KD KC", current=1, discarder=0, buys_used=[0, 0, 2, 3]
    )
    assert_refused(game, Buy(3), "R31", "3")
    apply_all(game, Buy(2), DrawStock(1))
    assert game.view(2)["buys_used"] == [0, 0, 3, 3]


def test_r31_a_request_that_loses_does_not_count() -> None:
    game = position(rules(buy_limit=1), hands=HANDS, stock="QS QH", discard="KD KC", current=1, discarder=0)
    apply_all(game, Buy(3), Buy(2), DrawStock(1))
    assert game.view(3)["buys_used"] == [0, 0, 1, 0]


def test_r31_buy_limit_zero_means_no_buying() -> None:
    game = after_discard(buy_limit=0)
    assert not [a for a in game.legal_actions() if isinstance(a, Buy)]
    assert_refused(game, Buy(2), "R31")


def test_r31_buy_count_starts_again_each_deal() -> None:
    # Player 0, down, goes out by discarding their last card; the buys of the deal are forgotten.
    game = position(
        rules(buy_limit=1),
        hands=("KS", *HANDS[1:]),
        melds=[(0, "set", "7H 7S 7D")],
        down=[0],
        phase=PLAY,
        buys_used=[1, 1, 1, 1],
    )
    game.apply(Discard(0, Card(13, "S")))
    assert game.deal == 2
    assert game.view(0)["buys_used"] == [0, 0, 0, 0]
    first = game.current
    buyer = (first + 1) % 4
    assert Buy(buyer) in game.legal_actions()


# ------------------------------------------------------------------------------ R44
def test_r44_down_players_may_buy_by_default() -> None:
    game = position(
        hands=HANDS, melds=[(3, "set", "QC QD QS")], down=[3], stock="QS QH", discard="KD KC", current=1, discarder=0
    )
    apply_all(game, Buy(3), DrawStock(1))
    assert KC in game.hand(3)


@pytest.mark.parametrize("preset", PRESETS)
def test_r44_option_down_players_may_not_buy(preset: str) -> None:
    game = position(
        rules(preset, buying=True, down_may_buy=False),
        hands=HANDS,
        melds=[(3, "set", "QC QD QS")],
        down=[3],
        stock="AS AH",
        discard="KD KC",
        current=1,
        discarder=0,
    )
    assert_refused(game, Buy(3), "R44")
    apply_all(game, Buy(2), DrawStock(1))
    assert KC in game.hand(2)


def test_r26_a_bought_card_may_be_discarded_in_the_buyers_next_turn() -> None:
    # R26 speaks of a card taken in the same turn; a card bought out of turn is not locked.
    game = after_discard()
    apply_all(game, Buy(2), DrawStock(1), Discard(1, Card(12, "S")), DrawStock(2))
    assert KC in game.hand(2)
    assert Discard(2, KC) in game.legal_actions()
    game.apply(Discard(2, KC))
    assert game.discard_pile[-1] == KC


# ------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("liverpool", {}),
        ("liverpool", {"buy_precedence": "first", "buy_penalty": 2, "buy_limit": 2}),
        ("liverpool", {"playable_discard": "liverpool", "down_may_buy": False}),
        ("contract", {"buying": True}),
    ],
)
def test_r27_r31_games_with_buys_keep_every_card(preset: str, options: dict[str, object]) -> None:
    # Random players buy, call and pass whenever they may; after every action each card of the deck
    # is in exactly one place, and no one buys more than the limit.
    r = rules(preset, **options)
    for seed in range(3):
        game = Game.new(players=4, rules=r, seed=seed)

        def check(g: Game, action: object) -> None:
            if not g.is_over:
                assert_conserved(g)
                assert g.legal_actions(), f"no legal action after {action}"
                if r.buy_limit is not None:
                    assert max(g.view(0)["buys_used"]) <= r.buy_limit

        play_game(game, [get("random", seed=seed * 10 + i) for i in range(4)], on_action=check)
        assert game.is_over
        if r.buying:
            assert events_of(game, "buy")

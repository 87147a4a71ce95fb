"""Rules R22-R25 (the draw, the contract preset's draw from inside the pile, laying down, laying
off on anyone's melds once down, the discard) in both presets."""

from __future__ import annotations

import json

import pytest

from helpers import (
    CONTRACT,
    LIVERPOOL,
    PRESETS,
    assert_conserved,
    assert_refused,
    build,
    card,
    cards,
    events_of,
    meld,
    play,
    rules,
)
from liverpool import (
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    LayOff,
    Meld,
    RuleSet,
)

# ----------------------------------------------------------------------------------------- R22


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_draw_the_top_of_the_stock(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["9S 3C", "4D 6D", "6H 7H"], phase="draw", stock="5C", discard="KD")
    size = game.stock_size
    play(game, DrawStock(0))
    assert game.phase == "play"
    assert game.stock_size == size - 1
    assert sorted(game.hand(0)) == sorted(cards("9S 3C 5C"))
    assert game.discard_pile == cards("KD")
    assert "5C" not in json.dumps(game.view(1))  # a card drawn from the stock stays secret
    assert game.view(1)["hand_sizes"][0] == 3
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_draw_the_top_discard(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["9S 3C", "4D 6D", "6H 7H"], phase="draw", discard="8S KD")
    size = game.stock_size
    play(game, DrawDiscard(0))
    assert game.stock_size == size
    assert game.discard_pile == cards("8S")
    assert card("KD") in game.hand(0)
    assert game.view(2)["taken_from_discard"] == "KD"  # everyone saw it taken
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_draw_first_and_only_once(preset: str) -> None:
    game = build(
        RuleSet.preset(preset),
        ["9S 3H 3S 3D 8C 8H 8S", "4D 6D", "6H 7H"],
        phase="draw",
        discard="KD",
        melds=[(1, "set", "QH QS QD")],
        down=[1],
    )
    assert {type(a) for a in game.legal_actions(0)} <= {DrawStock, DrawDiscard, DrawFromPile}
    assert_refused(game, Discard(0, card("9S")), "draw first", "R22")
    assert_refused(game, meld(0, "set", "3H 3S 3D"), "draw first")
    assert_refused(game, LayOff(0, card("9S"), 0), "draw first")
    assert_refused(game, DrawStock(1), "seat 0's turn")
    play(game, DrawStock(0))
    assert_refused(game, DrawStock(0), "already drawn")
    assert_refused(game, DrawDiscard(0), "already drawn")


def test_r22_liverpool_takes_no_card_from_inside_the_pile() -> None:
    game = build(LIVERPOOL, ["9S 9H 3C 3D 3H QC", "4D 6D", "6H 7H"], phase="draw", discard="2S 9D 4C KS")
    assert not [a for a in game.legal_actions() if isinstance(a, DrawFromPile)]
    assert_refused(game, DrawFromPile(0, 2), "pile_draw", "R22")


def test_r22_contract_draw_from_inside_the_pile_melds_the_deepest_card_at_once() -> None:
    hand = "9S 9H 3C 3D 3H QC JD"
    game = build(CONTRACT, [hand, "4D 6D", "6H 7H"], phase="draw", discard="2S 9D 4C KS")
    pile_draws = [a for a in game.legal_actions() if isinstance(a, DrawFromPile)]
    assert pile_draws == [DrawFromPile(0, 2)]  # only the 9D can be melded at once
    assert_refused(game, DrawFromPile(0, 1), "4C", "R22")
    assert_refused(game, DrawFromPile(0, 3), "2S", "R22")
    assert_refused(game, DrawFromPile(0, 4), "no card 4 places below the top")
    play(game, DrawFromPile(0, 2))
    assert game.discard_pile == cards("2S")
    assert sorted(game.hand(0)) == sorted(cards(hand + " 9D 4C KS"))  # every card above it comes too
    assert game.view(1)["must_meld"] == "9D"
    assert_conserved(game)
    assert_refused(game, Discard(0, card("QC")), "must meld 9D", "R22")
    assert_refused(game, EndTurn(0), "finish")
    play(game, meld(0, "set", "3C 3D 3H"), meld(0, "set", "9S 9H 9D"))
    assert game.view(0)["down"][0]
    assert game.view(0)["must_meld"] is None
    play(game, Discard(0, card("QC")))


def test_r22_contract_pile_draw_a_meld_that_leaves_the_deepest_card_out_is_refused() -> None:
    game = build(CONTRACT, ["9S 9H 9C 3C 3D 3H QC", "4D 6D", "6H 7H"], phase="draw", discard="2S 9D 4C KS")
    play(game, DrawFromPile(0, 2))
    assert_refused(game, meld(0, "set", "9S 9H 9C"), "with 9D in it")
    play(game, meld(0, "set", "9S 9H 9C 9D"), meld(0, "set", "3C 3D 3H"))
    assert game.view(0)["down"][0]


def test_r22_contract_pile_draw_when_down_lays_off_the_deepest_card_first() -> None:
    table = [(1, "run", "5H 6H 7H"), (0, "set", "3S 3D 3C"), (0, "set", "9S 9D 9C")]
    game = build(CONTRACT, ["4H QC", "4D 6D", "10C JC"], phase="draw", discard="2S 8H 4C KS", melds=table)
    assert_refused(game, DrawFromPile(0, 1), "4C fits no meld")
    play(game, DrawFromPile(0, 2))
    assert_refused(game, LayOff(0, card("4H"), 0, high=False), "first meld 8H")
    assert_refused(game, Discard(0, card("QC")), "must meld 8H")
    play(game, LayOff(0, card("8H"), 0, high=True), LayOff(0, card("4H"), 0, high=False))
    assert [str(c) for c in game.melds[0].cards] == ["4H", "5H", "6H", "7H", "8H"]
    play(game, Discard(0, card("QC")))


# ----------------------------------------------------------------------------------------- R23


@pytest.mark.parametrize("preset", PRESETS)
def test_r23_lay_down_the_contract_in_the_turn(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["3H 3S 3D 8C 8H 8S 9C", "4D 6D", "6H 7H"], phase="draw", stock="KD")
    play(game, DrawStock(0), meld(0, "set", "3H 3S 3D"), meld(0, "set", "8C 8H 8S"), Discard(0, card("KD")))
    assert game.view(1)["down"] == [True, False, False]
    assert game.view(1)["hand_sizes"][0] == 1


# ----------------------------------------------------------------------------------------- R24


@pytest.mark.parametrize("preset", PRESETS)
def test_r24_no_lay_off_before_going_down(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["8C 9C 10C KD", "4D 6D", "6H 7H"], melds=[(1, "set", "8H 8S 8D")])
    assert not [a for a in game.legal_actions() if isinstance(a, LayOff)]
    assert_refused(game, LayOff(0, card("8C"), 0), "lay down your contract before laying off", "R24")


@pytest.mark.parametrize("preset", PRESETS)
def test_r24_once_down_lay_off_on_own_and_other_players_melds(preset: str) -> None:
    table = [(0, "set", "3S 3D 3C"), (0, "set", "JS JD JC"), (1, "set", "8H 8S 8D"), (2, "run", "10H JH QH KH")]
    game = build(RuleSet.preset(preset), ["3H 8C 9H AH 5S KD", "4D 6D", "6H 7H"], melds=table)
    play(
        game,
        LayOff(0, card("3H"), 0),
        LayOff(0, card("8C"), 2),
        LayOff(0, card("9H"), 3, high=False),
        LayOff(0, card("AH"), 3, high=True),
    )
    assert [m.owner for m in game.melds] == [0, 0, 1, 2]  # a meld stays its owner's
    assert [str(c) for c in game.melds[3].cards] == ["9H", "10H", "JH", "QH", "KH", "AH"]
    assert sorted(game.hand(0)) == sorted(cards("5S KD"))
    assert_refused(game, LayOff(0, card("5S"), 2), "5S does not fit meld 2")
    assert_refused(game, LayOff(0, card("KD"), 3, high=True), "does not fit")
    assert_refused(game, LayOff(0, card("QS"), 0), "do not hold QS")
    assert_refused(game, LayOff(0, card("5S"), 9), "no meld 9")
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r24_a_set_lay_off_has_one_spelling_listed_applied_and_recorded(preset: str) -> None:
    """A set has no ends: the listing offers ``LayOff(p, card, set_id)`` (``high=True``) only, and
    ``high=False`` on a set, accepted as the same move, is applied and recorded as listed."""
    table = [(0, "set", "3S 3D 3C"), (1, "run", "10H JH QH KH")]
    game = build(RuleSet.preset(preset), ["3H 9H 5S KD", "4D 6D", "6H 7H"], melds=table)
    on_set = [a for a in game.legal_actions() if isinstance(a, LayOff) and a.meld == 0]
    assert on_set and all(a.high for a in on_set)
    low = LayOff(0, card("3H"), 0, high=False)
    assert game.can_apply(low)
    events = game.apply(low)
    assert game.actions[-1] == LayOff(0, card("3H"), 0, high=True) in on_set
    assert game.record()["actions"][-1] == LayOff(0, card("3H"), 0).to_dict()
    assert [e["type"] for e in events] == ["lay_off"]
    assert game.apply(LayOff(0, card("9H"), 1, high=False))  # a run's low end stays its own spelling
    assert game.actions[-1] == LayOff(0, card("9H"), 1, high=False)
    assert [str(c) for c in game.melds[0].cards] == ["3S", "3D", "3C", "3H"]
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r24_lay_off_in_the_turn_of_going_down(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["3H 3S 3D 8C 8H 8S 9H KD", "4D 6D", "6H 7H"], melds=[(1, "set", "9S 9D 9C")])
    play(game, meld(0, "set", "3H 3S 3D"), meld(0, "set", "8C 8H 8S"), LayOff(0, card("9H"), 0))
    assert len(game.melds[0].cards) == 4


@pytest.mark.parametrize("preset", PRESETS)
def test_r24_only_the_player_in_turn_lays_off(preset: str) -> None:
    table = [(0, "set", "3S 3D 3C"), (0, "set", "JS JD JC"), (1, "set", "8H 8S 8D")]
    game = build(RuleSet.preset(preset), ["KD 4C", "8C 6D", "6H 7H"], melds=table)
    assert_refused(game, LayOff(1, card("8C"), 2), "seat 0's turn")


# ----------------------------------------------------------------------------------------- R25


@pytest.mark.parametrize("preset", PRESETS)
def test_r25_discard_one_card_ends_the_turn(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["9S 3C KD", "4D 6D", "6H 7H"], discard="2C")
    legal = game.legal_actions(0)
    assert set(legal) == {Discard(0, c) for c in cards("9S 3C KD")}  # nothing else ends this turn
    assert_refused(game, EndTurn(0), "discard a card to end your turn", "R25")
    assert_refused(game, Discard(0, card("QH")), "do not hold QH")
    play(game, Discard(0, card("KD")))
    assert game.current == 1
    assert game.phase == "draw"
    assert game.discard_pile == cards("2C KD")
    assert sorted(game.hand(0)) == sorted(cards("9S 3C"))
    assert events_of(game, "discard")[-1]["card"] == "KD"
    assert_refused(game, Discard(0, card("9S")), "seat 1")


@pytest.mark.parametrize("preset", PRESETS)
def test_r25_discard_after_laying_down(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["3H 3S 3D 8C 8H 8S 9C KD", "4D 6D", "6H 7H"])
    play(game, meld(0, "set", "3H 3S 3D"), meld(0, "set", "8C 8H 8S"))
    assert {type(a) for a in game.legal_actions(0)} <= {Discard, LayOff}
    play(game, Discard(0, card("KD")))
    assert game.hand(0) == cards("9C")
    assert game.current == 1


def test_r25_contract_melding_every_card_goes_out_without_a_discard() -> None:
    game = build(
        CONTRACT, ["8C", "4D 6D", "6H 7H"], melds=[(1, "set", "8H 8S 8D"), (0, "set", "3S 3D 3C")], down=[0, 1]
    )
    play(game, LayOff(0, card("8C"), 0))
    assert game.deal == 2
    assert game.view(0)["deal_scores"][0][0] == 0
    assert not events_of(game, "discard")


def test_r25_liverpool_melding_every_card_ends_the_turn_without_a_discard() -> None:
    game = build(
        LIVERPOOL, ["8C", "4D 6D", "6H 7H"], melds=[(1, "set", "8H 8S 8D"), (0, "set", "3S 3D 3C")], down=[0, 1]
    )
    play(game, LayOff(0, card("8C"), 0))
    assert game.deal == 1
    assert game.hand(0) == []
    assert game.current == 1
    assert not events_of(game, "discard")


@pytest.mark.parametrize("preset", PRESETS)
def test_r25_discard_of_the_last_card_goes_out(preset: str) -> None:
    game = build(rules(preset), ["KD", "4D 6D", "6H 7H"], melds=[(0, "set", "3S 3D 3C"), (0, "set", "JS JD JC")])
    play(game, Discard(0, card("KD")))
    assert game.deal == 2
    assert game.view(0)["deal_scores"][0] == ([0, 10, 10] if preset == "liverpool" else [0, 10, 13])


def test_r25_no_meld_can_end_a_turn_of_a_player_not_down() -> None:
    game = build(LIVERPOOL, ["3H 3S 3D 8C 8H 8S 9C KD", "4D 6D", "6H 7H"])
    assert any(isinstance(a, Meld) for a in game.legal_actions(0))
    play(game, Discard(0, card("9C")))
    assert not game.view(0)["down"][0]

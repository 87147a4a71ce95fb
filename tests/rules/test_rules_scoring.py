"""Rules R37-R41 (RULES.md): going out, floating, knocking, card values and the game's winner, in
both presets."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from liverpool import Card, Discard, DrawDiscard, DrawStock, EndTurn, Game, IllegalAction, LayOff, Meld
from liverpool.bots import get
from liverpool.driver import play_game
from liverpool.game import DRAW, OVER
from liverpool.melds import hand_points
from rules_helpers import (
    PRESETS,
    apply_all,
    assert_conserved,
    assert_refused,
    cards,
    events_of,
    position,
    rules,
)

OTHERS = ("2C 9C 10C JC QC KC AH JK", "3C 4D", "5S")
"""Hands of players 1-3 (one pack's cards): liverpool 80, 10, 5 points; contract 81, 7, 5."""
POINTS = {"liverpool": [80, 10, 5], "contract": [81, 7, 5]}
SET7 = (0, "set", "7H 7S 7D")
RUN_H = (2, "run", "9H 10H JH QH")
DEAL7_HAND = "3H 4H 5H 6H 8S 9S 10S JS 9D 10D JD QD KD"


def at_play(preset: str, hand: str, others: tuple[str, ...] = OTHERS, **kwargs: Any) -> Game:
    """Player 0 has drawn and holds ``hand``; by default down with a set of 7s on the table and
    player 2's run of hearts beside it."""
    options = kwargs.pop("options", {})
    kwargs.setdefault("melds", [SET7, RUN_H])
    kwargs.setdefault("down", [0, 2])
    kwargs.setdefault("phase", "play")
    return position(rules(preset, **options), hands=(hand, *others), current=0, **kwargs)


def deal_end(game: Game) -> dict[str, Any]:
    (end,) = events_of(game, "deal_end")
    return end


# ------------------------------------------------------------------------------ R37
@pytest.mark.parametrize("preset", PRESETS)
def test_r37_going_out_by_discarding_the_last_card_ends_the_deal_at_once(preset: str) -> None:
    game = at_play(preset, "KS")
    game.apply(Discard(0, Card(13, "S")))
    end = deal_end(game)
    assert end["out"] == 0 and end["reason"] == "went out"
    assert end["points"] == [0, *POINTS[preset]]
    assert end["hands"] == {"0": "", "1": OTHERS[0], "2": OTHERS[1], "3": OTHERS[2]}
    assert game.deal_scores == [[0, *POINTS[preset]]]
    assert game.scores == [0, *POINTS[preset]]
    # the next deal is dealt at once, the deal passing to the left (R4)
    assert game.deal == 2 and game.phase == DRAW
    assert game.dealer == 0 and game.current == 1
    assert [len(game.hand(p)) for p in range(4)] == [10] * 4
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r37_deal7_goes_out_by_melding_the_whole_hand(preset: str) -> None:
    game = at_play(preset, DEAL7_HAND, deal=7, melds=[], down=[], scores=[10, 20, 30, 40])
    assert game.contract.whole_hand
    apply_all(game, Meld(0, "run", tuple(cards("3H 4H 5H 6H"))), Meld(0, "run", tuple(cards("8S 9S 10S JS"))))
    assert not game.view(0)["down"][0]  # nothing is down until the whole hand is
    assert_refused(game, Discard(0, Card(13, "D")))  # no final discard in deal 7
    apply_all(game, Meld(0, "run", tuple(cards("9D 10D JD QD KD"))))
    end = deal_end(game)
    assert end["out"] == 0 and end["points"] == [0, *POINTS[preset]]
    assert game.phase == OVER and game.is_over
    assert game.scores == [10, 20 + POINTS[preset][0], 30 + POINTS[preset][1], 40 + POINTS[preset][2]]


def test_r37_contract_melding_every_card_goes_out() -> None:
    game = at_play("contract", "7C 7S 7D 8C 8D 8H", melds=[], down=[])
    apply_all(game, Meld(0, "set", tuple(cards("7C 7S 7D"))), Meld(0, "set", tuple(cards("8C 8D 8H"))))
    end = deal_end(game)
    assert end["out"] == 0 and end["points"] == [0, *POINTS["contract"]]
    assert game.deal == 2


def test_r37_contract_laying_off_the_last_card_goes_out() -> None:
    game = at_play("contract", "7C")
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert deal_end(game)["out"] == 0
    assert game.deal == 2


# ------------------------------------------------------------------------------ R38
def test_r38_liverpool_laying_off_every_card_floats() -> None:
    game = at_play("liverpool", "7C 8H")
    apply_all(game, LayOff(0, Card(7, "C"), 0), LayOff(0, Card(8, "H"), 1, high=False))
    (float_,) = events_of(game, "float")
    assert float_["player"] == 0
    assert not events_of(game, "deal_end")
    assert game.deal == 1 and game.hand(0) == []
    assert game.current == 1 and game.phase == DRAW  # the turn ends without a discard
    assert game.view(1)["buy_window"] is False  # no new discard to buy
    assert game.view(1)["down"][0] is True


def test_r38_liverpool_melding_every_card_at_going_down_floats() -> None:
    game = at_play("liverpool", "7C 7S 7D 8C 8D 8H", melds=[], down=[])
    apply_all(game, Meld(0, "set", tuple(cards("7C 7S 7D"))), Meld(0, "set", tuple(cards("8C 8D 8H"))))
    assert events_of(game, "float") and not events_of(game, "deal_end")
    assert game.current == 1


def test_r38_floater_draws_next_turn_and_must_go_out_by_a_discard() -> None:
    # Stock from the top: AH (player 1), AC (player 2), AD (player 3), KS (player 0).
    game = at_play("liverpool", "7C 8H", stock="KS AD AC AH")
    apply_all(game, LayOff(0, Card(7, "C"), 0), LayOff(0, Card(8, "H"), 1, high=False))
    for p, card in ((1, "AH"), (2, "AC"), (3, "AD")):
        apply_all(game, DrawStock(p), Discard(p, Card(1, card[1])))
    assert game.current == 0 and game.phase == DRAW
    apply_all(game, DrawStock(0))
    assert game.hand(0) == [Card(13, "S")]
    apply_all(game, Discard(0, Card(13, "S")))
    end = deal_end(game)
    assert end["out"] == 0 and end["points"][0] == 0
    assert game.deal == 2


def test_r38_floater_may_lay_off_again_and_keeps_floating() -> None:
    game = at_play("liverpool", "", stock="7C", discard="AS", discarder=3, phase=DRAW)
    apply_all(game, DrawStock(0), LayOff(0, Card(7, "C"), 0))
    assert len(events_of(game, "float")) == 1
    assert not events_of(game, "deal_end")
    assert game.current == 1


def test_r38_floater_may_not_discard_a_card_taken_from_the_pile() -> None:
    # "a floater must draw an unplayable card from the deck in order to go out" (R26)
    game = at_play("liverpool", "", discard="AS KS", discarder=3, phase=DRAW)
    apply_all(game, DrawDiscard(0))
    assert_refused(game, Discard(0, Card(13, "S")), "R26")
    assert EndTurn(0) in game.legal_actions()
    apply_all(game, EndTurn(0))
    assert game.hand(0) == [Card(13, "S")]
    assert game.current == 1 and game.deal == 1


def test_r38_option_floating_off_in_liverpool_melding_all_goes_out() -> None:
    game = at_play("liverpool", "7C 8H", options={"floating": False})
    apply_all(game, LayOff(0, Card(7, "C"), 0), LayOff(0, Card(8, "H"), 1, high=False))
    assert deal_end(game)["out"] == 0
    assert not events_of(game, "float")


def test_r38_option_floating_on_in_contract() -> None:
    game = at_play("contract", "7C", options={"floating": True})
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert events_of(game, "float") and not events_of(game, "deal_end")


# ------------------------------------------------------------------------------ R39
@pytest.mark.parametrize("preset", PRESETS)
def test_r39_a_player_left_with_one_card_is_announced(preset: str) -> None:
    game = at_play(preset, "7C KS QS")
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert not events_of(game, "knock")
    apply_all(game, Discard(0, Card(12, "S")))
    (knock,) = events_of(game, "knock")
    assert knock["player"] == 0
    assert knock in game.view(3)["events"]  # announced to all


@pytest.mark.parametrize("preset", PRESETS)
def test_r39_knock_when_a_lay_off_leaves_one_card(preset: str) -> None:
    game = at_play(preset, "7C KS")
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert [e["player"] for e in events_of(game, "knock")] == [0]


def test_r39_option_knock_off() -> None:
    game = at_play("liverpool", "7C KS QS", options={"knock": False})
    apply_all(game, LayOff(0, Card(7, "C"), 0), Discard(0, Card(12, "S")))
    assert not events_of(game, "knock")


# ------------------------------------------------------------------------------ R40
def test_r40_card_values_liverpool() -> None:
    r = rules("liverpool")
    for token, points in [("2C", 5), ("9D", 5), ("10H", 10), ("JS", 10), ("QC", 10), ("KD", 10), ("AH", 15)]:
        assert hand_points(cards(token), r) == points, token
    assert hand_points(cards("JK"), r) == 15


def test_r40_card_values_contract() -> None:
    r = rules("contract")
    for rank in range(2, 11):
        assert hand_points([Card(rank, "S")], r) == rank
    for token, points in [("JS", 10), ("QC", 10), ("KD", 10), ("AH", 15), ("JK", 15)]:
        assert hand_points(cards(token), r) == points, token


@pytest.mark.parametrize("preset", PRESETS)
def test_r40_option_joker_points_20(preset: str) -> None:
    game = at_play(preset, "KS", options={"joker_points": 20})
    game.apply(Discard(0, Card(13, "S")))
    assert deal_end(game)["points"] == [0, POINTS[preset][0] + 5, *POINTS[preset][1:]]


def test_r40_a_floater_scores_nothing_but_is_not_out() -> None:
    game = at_play("liverpool", "", stock="7C", discard="AS", discarder=3, phase=DRAW, options={"turn_limit": 10})
    apply_all(game, DrawStock(0), LayOff(0, Card(7, "C"), 0))  # floats; the turn limit ends the deal
    end = deal_end(game)
    assert end["out"] is None
    assert end["points"] == [0, *POINTS["liverpool"]]


# ------------------------------------------------------------------------------ R41
@pytest.mark.parametrize("preset", PRESETS)
def test_r41_seven_deals_and_the_lowest_total_wins(preset: str) -> None:
    game = Game.new(players=4, rules=rules(preset), seed=5)
    play_game(game, [get("random", seed=i) for i in range(4)])
    assert game.is_over
    assert len(game.deal_scores) == 7
    deals = events_of(game, "deal")
    assert [e["number"] for e in deals] == [1, 2, 3, 4, 5, 6, 7]
    assert [(b["dealer"] - a["dealer"]) % 4 for a, b in itertools.pairwise(deals)] == [1] * 6
    totals = [sum(d[p] for d in game.deal_scores) for p in range(4)]
    assert game.scores == totals
    assert game.winners == [p for p in range(4) if totals[p] == min(totals)]
    (over,) = events_of(game, "game_over")
    assert over["winners"] == game.winners and over["scores"] == totals
    assert game.view(0)["winners"] == game.winners
    with pytest.raises(IllegalAction, match="over"):
        game.apply(DrawStock(0))


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_ties_share_the_win(preset: str) -> None:
    # Totals before the last deal: 100, 50, 80, 60. Player 0 goes out; 1 and 3 end on 70.
    game = at_play(preset, DEAL7_HAND, ("KC QC", "2C", "KH"), deal=7, melds=[], down=[], scores=[100, 50, 80, 60])
    apply_all(
        game,
        Meld(0, "run", tuple(cards("3H 4H 5H 6H"))),
        Meld(0, "run", tuple(cards("8S 9S 10S JS"))),
        Meld(0, "run", tuple(cards("9D 10D JD QD KD"))),
    )
    assert game.is_over
    assert game.scores[1] == game.scores[3] == 70
    assert game.winners == [1, 3]
    assert events_of(game, "game_over")[0]["winners"] == [1, 3]


def test_r41_lowest_total_wins_alone() -> None:
    game = at_play(
        "liverpool", DEAL7_HAND, ("KC QC", "2C", "KH QH JH"), deal=7, melds=[], down=[], scores=[100, 50, 80, 60]
    )
    apply_all(
        game,
        Meld(0, "run", tuple(cards("3H 4H 5H 6H"))),
        Meld(0, "run", tuple(cards("8S 9S 10S JS"))),
        Meld(0, "run", tuple(cards("9D 10D JD QD KD"))),
    )
    assert game.scores == [100, 70, 85, 90]
    assert game.winners == [1]


def test_r39_a_floater_left_holding_one_card_is_announced() -> None:
    # A floater who takes the top discard may not discard it (R26) and ends the turn holding one
    # card: a player with one card left, to be announced like any other.
    game = at_play("liverpool", "", discard="AS KS", discarder=3, phase=DRAW)
    apply_all(game, DrawDiscard(0), EndTurn(0))
    assert len(game.hand(0)) == 1
    assert [e["player"] for e in events_of(game, "knock")] == [0]

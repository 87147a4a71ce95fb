"""R22, R27-R36, R10/R14/R48: the rule answers a seat's client asks the engine for, from its view
alone (``liverpool.game.answers``): buying and until when, taking the discard, playable discards,
who takes a called card, and the suggested lay-down."""

from __future__ import annotations

import json

import pytest

from helpers import build, rules
from liverpool.actions import DrawStock, Meld
from liverpool.bots import get
from liverpool.driver import next_to_act
from liverpool.game import PLAY, Game
from liverpool.game.answers import called_card_goes_to, seat_answers, suggest_lay_down
from liverpool.rules import PRESETS, RuleSet


def test_r30_buy_window_until_the_next_player_draws_or_discards() -> None:
    for option, event in (("until_draw", "draw"), ("until_discard", "discard")):
        game = build(
            rules(buy_window=option),
            ["2C 3C 4C 5C", "6H 7H 8H 9H", "KC KD QS JS"],
            current=1,
            phase="draw",
            discard="9S",
            fresh=True,
            discarder=0,
        )
        a = seat_answers(game.view(2))
        assert a["buy"] == {"may": True, "why_not": None, "until": {"seat": 1, "event": event}}
        mine = seat_answers(game.view(0))["buy"]  # the discarder may not buy it (R27)
        assert mine["may"] is False and "own discard" in mine["why_not"]
        assert seat_answers(game.view(1))["buy"]["may"] is game.may_buy(1) is False


def test_r44_a_down_player_may_not_buy_under_down_may_buy_off() -> None:
    game = build(
        rules(down_may_buy=False),
        ["2C 3C 4C 5C", "6H 7H 8H 9H", "KC KD"],
        melds=[(2, "set", "QS QD QH"), (2, "set", "JS JD JH")],
        current=1,
        phase="draw",
        discard="9S",
        fresh=True,
        discarder=0,
    )
    a = seat_answers(game.view(2))
    assert a["buy"]["may"] is False and "R44" in a["buy"]["why_not"]


def test_r22_take_discard_for_every_seat() -> None:
    game = build(
        rules(down_may_take_discard=False),
        ["2C 3C 4C 5C", "6H 7H 8H 9H", "KC KD"],
        melds=[(2, "set", "QS QD QH"), (2, "set", "JS JD JH")],
        current=1,
        phase="draw",
        discard="9S",
    )
    assert seat_answers(game.view(0))["take_discard"] == [True, True, False]
    assert [game.may_take_discard(p) for p in range(3)] == [True, True, False]


def test_r32_r35_playable_discards_of_the_seats_hand() -> None:
    hands = ["2C 3C KH", "6H 7H 8H 9H", "KC KD"]
    melds = [(0, "set", "QS QD QH"), (0, "run", "4S 5S 6S 7S")]
    for mode, goes_to in (("call", "offender"), ("liverpool", "caller"), ("strict", None)):
        game = build(rules(playable_discard=mode), hands, melds=melds, current=0, phase="play")
        a = seat_answers(game.view(0))
        assert a["playable_discards"] == [] and a["called_card_goes_to"] == goes_to  # nothing fits
        game = build(rules(playable_discard=mode), ["2C QC KH", *hands[1:]], melds=melds, current=0)
        assert seat_answers(game.view(0))["playable_discards"] == ["QC"]
    off = build(rules(playable_discard="off"), ["2C QC KH", *hands[1:]], melds=melds, current=0)
    assert seat_answers(off.view(0))["playable_discards"] == []
    last = build(rules(), ["QC", *hands[1:]], melds=melds, current=0)  # R35: the last card goes out
    assert seat_answers(last.view(0))["playable_discards"] == []


def test_r33_r34_called_card_goes_to() -> None:
    assert called_card_goes_to(RuleSet()) == "offender"
    assert called_card_goes_to(RuleSet(playable_discard="liverpool")) == "caller"
    assert called_card_goes_to(RuleSet(playable_discard="off")) is None


def test_r10_r14_suggested_lay_down_is_laid_by_the_engine() -> None:
    game = build(rules(), ["7H 7S 7D 9C 9D 9S 2C 3C 4C KD 5H", "6H 7C 8H 9H"], current=0, phase="play")
    melds = suggest_lay_down(game, 0)
    assert melds is not None and [m.kind for m in melds] == ["set", "set"]
    for m in melds:
        game.apply(m)
    assert game.down[0]
    assert suggest_lay_down(game, 0) is None  # down already


@pytest.mark.parametrize("preset", list(PRESETS))
def test_r10_r48_suggestion_is_legal_under_every_preset(preset: str) -> None:
    """The suggestion (terminal [f], the browser's button) is always laid by the engine, for the
    seat's own contract or level, at the greedy bots' turns of a game of each preset (its copy of
    the game lays it; the game itself plays on); the answers are JSON."""
    game = Game.new(players=3, rules=RuleSet.preset(preset), seed=11)
    bots = [get("greedy", seed=p) for p in range(3)]
    found = 0
    while not game.is_over and game.deal <= 2:
        seat, legal = next_to_act(game)
        if game.phase == PLAY and seat == game.current and not game.down[seat] and not game.pending:
            a = seat_answers(game.view(seat))
            json.dumps(a)
            melds = suggest_lay_down(game, seat)
            assert (melds is None) == (a["lay_down"] is None)
            if melds is not None:
                found += 1
                trial = game.copy()
                for m in melds:
                    assert isinstance(m, Meld)
                    trial.apply(m)
                assert trial.down[seat]
        game.apply(bots[seat].act(game.view(seat), legal))
    assert found


def test_r27_answers_read_the_view_alone() -> None:
    """Two games that differ only in what seat 2 cannot see give seat 2 the same answers."""
    a = build(rules(), ["2C 3C 4C 5C", "6H 7H 8H 9H", "KC KD QS JS"], current=1, phase="draw", discard="9S", fresh=True)
    b = build(rules(), ["2D 3D 4D 5D", "6S 7S 8S 9S", "KC KD QS JS"], current=1, phase="draw", discard="9S", fresh=True)
    assert seat_answers(a.view(2)) == seat_answers(b.view(2))
    assert DrawStock(1) in a.legal_actions()

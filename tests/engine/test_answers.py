"""R22, R27-R36, R10/R14/R48, R20: the rule answers a seat's client asks the engine for, from its
view alone (``liverpool.game.answers``): buying and until when, taking the discard, playable
discards, who takes a called card, the suggested lay-down, whether a card fits the contract
(``card_fits``, ``solver.cards_missing``), whether a joker swap lets the seat go down and who
would take a discard if called (``discard_called``)."""

from __future__ import annotations

import json
import random

import pytest

from helpers import build, rules
from liverpool.actions import DrawStock, Meld, SwapJoker
from liverpool.bots import get
from liverpool.cards import full_deck, parse_card
from liverpool.driver import next_to_act
from liverpool.game import PLAY, Game
from liverpool.game.answers import (
    called_card_goes_to,
    card_fits,
    discard_called,
    public_game,
    seat_answers,
    suggest_lay_down,
    swap_lets_go_down,
)
from liverpool.rules import PRESETS, RuleSet
from liverpool.solver import cards_missing, contract_melds


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


def test_r32_r34_discard_called_names_who_takes_the_card() -> None:
    hands = ["2C QC KH", "6H 7H 8H 9H", "KC KD"]
    melds = [(0, "set", "QS QD QH"), (0, "run", "4S 5S 6S 7S")]
    for mode, goes_to in (("call", "offender"), ("liverpool", "caller"), ("strict", None), ("off", None)):
        game = build(rules(playable_discard=mode), hands, melds=melds, current=0)
        seen = public_game(game.view(0))
        assert discard_called(seen, 0, parse_card("QC")) == goes_to
        assert discard_called(seen, 0, parse_card("2C")) is None  # fits no meld
    last = build(rules(), ["QC", *hands[1:]], melds=melds, current=0)  # R35: the last card goes out
    assert discard_called(last, 0, parse_card("QC")) is None


def test_r10_card_fits_a_hand_that_is_not_down() -> None:
    game = build(rules(), ["7H 7S 9C 4D KD QS", "6H 7C 8H 9H", "KC KD"], current=1, phase="draw")
    seen = public_game(game.view(0))
    assert cards_missing(seen.hands[0], seen.contract_of(0), seen.rules) == 3  # 7 7 _, 9 _ _
    assert card_fits(seen, 0, parse_card("9D"))  # 9 9 _: one card fewer missing
    assert card_fits(seen, 0, parse_card("JK"))  # wild (R46)
    assert not card_fits(seen, 0, parse_card("5C"))  # a third single: still 3 missing
    assert card_fits(game, 0, parse_card("9D")) and not card_fits(game, 0, parse_card("5C"))


def test_r24_card_fits_a_down_hand_when_it_goes_on_a_meld() -> None:
    melds = [(0, "set", "QS QD QH"), (1, "run", "4S 5S 6S 7S")]
    game = build(rules(), ["2C 3C KH", "6H 7H 8H 9H", "KC KD"], melds=melds, current=1, phase="draw")
    seen = public_game(game.view(0))
    assert card_fits(seen, 0, parse_card("QC")) and card_fits(seen, 0, parse_card("8S"))
    assert not card_fits(seen, 0, parse_card("2D")) and not card_fits(seen, 0, parse_card("9S"))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_r10_r48_cards_missing_against_the_solver(preset: str) -> None:
    """0 whenever the solver lays the contract; one card more lowers it by one at most, never
    raises it; over random hands of every contract of the preset."""
    r = RuleSet.preset(preset)
    rng = random.Random(preset)
    for contract in r.schedule:
        for _ in range(8):
            cards = full_deck(2, r.jokers_per_pack)
            rng.shuffle(cards)
            hand, more = cards[:11], cards[11]
            missing = cards_missing(hand, contract, r)
            if contract_melds(hand, contract, r) is not None:
                assert missing == 0
            assert missing - 1 <= cards_missing([*hand, more], contract, r) <= missing


def test_r20_swap_lets_go_down_when_the_hand_after_it_lays_the_contract() -> None:
    game = build(
        rules(),
        ["7H 7S 7D 3C 4C 6C 6H KD", "8D 8S 8C", "KC QD"],
        deal=2,  # one set and one run (R10)
        melds=[(1, "set", "9C 9H 9S"), (1, "run", "4H 5H JK 7H")],
        current=0,
    )
    seen = public_game(game.view(0))
    assert swap_lets_go_down(seen, 0, SwapJoker(0, 1, 2, parse_card("6H")))  # 3C 4C JK 6C and 7 7 7
    no_run = build(
        rules(),
        ["7H 7S 7D 3C 9C 6C 6H KD", "8D 8S 8C", "KC QD"],
        deal=2,
        melds=[(1, "set", "9C 9H 9S"), (1, "run", "4H 5H JK 7H")],
        current=0,
    )
    assert not swap_lets_go_down(public_game(no_run.view(0)), 0, SwapJoker(0, 1, 2, parse_card("6H")))
    free = build(
        rules(swap_must_play=False),
        ["7H 7S 7D 3C 9C 6C 6H KD", "8D 8S 8C", "KC QD"],
        deal=2,
        melds=[(1, "set", "9C 9H 9S"), (1, "run", "4H 5H JK 7H")],
        current=0,
    )
    assert swap_lets_go_down(free, 0, SwapJoker(0, 1, 2, parse_card("6H")))  # the joker may stay in hand

"""House-rule variants of going out (issue 16): ``floating="refuse"`` (R38). A player may not meld
or lay off their last card: a discard must remain to go out (whole-hand deals, R15, excepted). For
the value, in both presets, a lay-down and a lay-off it allows and ones it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from liverpool import Card, Discard, Game, LayOff, Meld, RuleSet
from liverpool.solver import can_complete, solve
from rules_helpers import PRESETS, apply_all, assert_refused, cards, events_of, position, rules

OTHERS = ("2C 8C", "3C 4D", "5S")
SET7 = (0, "set", "7H 7S 7D")
DEAL7_HAND = "3H 4H 5H 6H 8S 9S 10S JS 9D 10D JD QD KD"


def at_play(preset: str, hand: str, floating: Any = "refuse", **kwargs: Any) -> Game:
    kwargs.setdefault("melds", [SET7])
    kwargs.setdefault("down", [0])
    return position(rules(preset, floating=floating), hands=(hand, *OTHERS), current=0, phase="play", **kwargs)


def melds_of(game: Game) -> list[Meld]:
    return [a for a in game.legal_actions() if isinstance(a, Meld)]


# ------------------------------------------------------------------------------ lay-offs
@pytest.mark.parametrize("preset", PRESETS)
def test_r38_refuse_the_last_card_may_not_be_laid_off(preset: str) -> None:
    game = at_play(preset, "7C")
    assert_refused(game, LayOff(0, Card(7, "C"), 0), "last card", "R38")
    assert not [a for a in game.legal_actions() if isinstance(a, LayOff)]
    apply_all(game, Discard(0, Card(7, "C")))  # the discard goes out (R35, R37)
    assert events_of(game, "deal_end")[0]["out"] == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_r38_refuse_a_lay_off_that_leaves_a_card_is_allowed(preset: str) -> None:
    game = at_play(preset, "7C KS")
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert game.hand(0) == cards("KS")
    assert_refused(game, LayOff(0, Card(13, "S"), 0), "R38")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("floating", [True, False])
def test_r38_without_refuse_the_last_card_is_laid_off(preset: str, floating: bool) -> None:
    game = at_play(preset, "7C", floating=floating)
    apply_all(game, LayOff(0, Card(7, "C"), 0))
    assert bool(events_of(game, "float")) is floating
    assert bool(events_of(game, "deal_end")) is not floating


# ------------------------------------------------------------------------------ lay-downs
@pytest.mark.parametrize("preset", PRESETS)
def test_r38_refuse_a_lay_down_of_the_whole_hand_is_refused(preset: str) -> None:
    game = at_play(preset, "7H 7S 7D 9C 9D 9H", melds=[], down=[])
    assert not melds_of(game)
    assert_refused(game, Meld(0, "set", tuple(cards("7H 7S 7D"))), "could not lay")
    loose = at_play(preset, "7H 7S 7D 9C 9D 9H", floating=preset == "liverpool", melds=[], down=[])
    apply_all(loose, Meld(0, "set", tuple(cards("7H 7S 7D"))), Meld(0, "set", tuple(cards("9C 9D 9H"))))
    assert loose.view(0)["down"][0] or events_of(loose, "deal_end")  # contract: goes out


@pytest.mark.parametrize("preset", PRESETS)
def test_r38_refuse_the_lay_down_keeps_a_card_back(preset: str) -> None:
    game = at_play(preset, "7H 7S 7D 7C 9C 9D 9H", melds=[], down=[])
    assert_refused(game, Meld(0, "set", tuple(cards("7H 7S 7D 7C"))), "could not lay")
    assert all(len(m.cards) == 3 for m in melds_of(game))
    apply_all(game, Meld(0, "set", tuple(cards("7C 7D 7H"))), Meld(0, "set", tuple(cards("9C 9D 9H"))))
    assert game.view(0)["down"][0] and game.hand(0) == cards("7S")
    apply_all(game, Discard(0, Card(7, "S")))
    assert events_of(game, "deal_end")[0]["out"] == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_r38_refuse_does_not_bind_a_whole_hand_deal(preset: str) -> None:
    game = at_play(preset, DEAL7_HAND, melds=[], down=[], deal=7)
    apply_all(
        game,
        Meld(0, "run", tuple(cards("3H 4H 5H 6H"))),
        Meld(0, "run", tuple(cards("8S 9S 10S JS"))),
        Meld(0, "run", tuple(cards("9D 10D JD QD KD"))),
    )
    assert events_of(game, "deal_end")[0]["out"] == 0


def test_r38_refuse_the_solver_keeps_a_card() -> None:
    refuse = RuleSet(floating="refuse")
    hand = cards("7H 7S 7D 9C 9D 9H")
    assert solve(hand, 2, 0, RuleSet()) is not None
    assert solve(hand, 2, 0, refuse) is None and not can_complete(hand, 2, 0, refuse)
    plan = solve([*hand, *cards("7C KS")], 2, 0, refuse)
    assert plan is not None and sum(map(len, plan)) == 7  # the KS stays, the 7C goes in
    plan = solve([*hand, *cards("7C")], 2, 0, refuse)
    assert plan is not None and sum(map(len, plan)) == 6
    assert can_complete(hand, 2, 0, refuse, whole_hand=True)


def test_r38_refuse_is_described_and_read_from_the_command_line() -> None:
    r = RuleSet().with_options(floating="refuse")
    assert r.floating == "refuse"
    assert "may not meld or lay off their last card" in dict(r.describe())["R38"]
    assert RuleSet.from_dict(r.to_dict()) == r
    assert RuleSet().with_options(floating="no").floating is False
    with pytest.raises(ValueError, match="floating"):
        RuleSet().with_options(floating="sometimes")

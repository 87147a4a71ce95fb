"""House-rule variants of sets (issue 16): ``set_distinct_suits="laydown"`` (R11). The natural
cards laid at going down are of distinct suits; later lay-offs may repeat a suit. In both presets
(two packs, so that two cards of one suit exist), a meld and a lay-off it allows and ones it
refuses."""

from __future__ import annotations

from typing import Any

import pytest

from liverpool import Card, Game, LayOff, Meld, RuleSet
from liverpool.melds import can_extend_set, is_valid_set
from rules_helpers import PRESETS, apply_all, assert_refused, cards, position, rules

OTHERS = ("2C 8C", "3C 4D", "5S")
SET7 = (0, "set", "7H 7S 7D")


def at_play(preset: str, hand: str, distinct: Any = "laydown", **kwargs: Any) -> Game:
    kwargs.setdefault("melds", [SET7])
    kwargs.setdefault("down", [0])
    return position(
        rules(preset, set_distinct_suits=distinct, packs=2),
        hands=(hand, *OTHERS),
        current=0,
        phase="play",
        **kwargs,
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_r11_laydown_a_set_laid_at_going_down_has_distinct_suits(preset: str) -> None:
    game = at_play(preset, "7H 7H 7S 7D 9C 9D 9H KS", melds=[], down=[])
    assert_refused(game, Meld(0, "set", tuple(cards("7H 7H 7S"))), "not a valid set", "R11")
    sets = [a for a in game.legal_actions() if isinstance(a, Meld)]
    assert sets and all(len({c.suit for c in m.cards}) == len(m.cards) for m in sets)
    assert Meld(0, "set", tuple(sorted(cards("7H 7S 7D")))) in sets


@pytest.mark.parametrize("preset", PRESETS)
def test_r11_laydown_a_lay_off_may_repeat_a_suit(preset: str) -> None:
    game = at_play(preset, "7H KS")
    assert LayOff(0, Card(7, "H"), 0) in game.legal_actions()
    apply_all(game, LayOff(0, Card(7, "H"), 0))
    assert game.melds[0].cards == tuple(cards("7H 7S 7D 7H"))


@pytest.mark.parametrize("preset", PRESETS)
def test_r11_distinct_suits_true_still_refuses_the_lay_off(preset: str) -> None:
    game = at_play(preset, "7H KS", distinct=True)
    assert_refused(game, LayOff(0, Card(7, "H"), 0), "does not fit")


@pytest.mark.parametrize("preset", PRESETS)
def test_r11_laydown_off_by_default_in_liverpool_only(preset: str) -> None:
    game = at_play(preset, "7H 7H 7S 7D 9C 9D 9H KS", distinct=rules(preset).set_distinct_suits, melds=[], down=[])
    legal = Meld(0, "set", tuple(sorted(cards("7H 7H 7S")))) in game.legal_actions()
    assert legal is (preset == "liverpool")


def test_r11_laydown_the_melds_functions_and_the_words() -> None:
    r = RuleSet().with_options(set_distinct_suits="laydown", packs="2")
    assert r.set_distinct_suits == "laydown" and not r.layoff_distinct_suits
    assert not is_valid_set(cards("7H 7H 7S"), r) and is_valid_set(cards("7H 7D 7S"), r)
    assert can_extend_set(cards("7H 7D 7S"), Card(7, "H"), r)
    assert "among those laid at going down" in dict(r.describe())["R11"]
    assert RuleSet.from_dict(r.to_dict()) == r
    with pytest.raises(ValueError, match="set_distinct_suits"):
        RuleSet().with_options(set_distinct_suits="later")

"""The public API named by the engine issue: cards, rule sets, actions and records."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from liverpool import (
    Card,
    Discard,
    Game,
    IllegalAction,
    LayOff,
    Meld,
    RuleSet,
    action_from_dict,
    format_cards,
    parse_action,
    parse_cards,
)
from liverpool.cards import SUITS, full_deck
from liverpool.cli import main
from liverpool.melds import hand_points, is_valid_run, is_valid_set
from liverpool.solver import find_contract

ALL_CARDS = sorted(set(full_deck(1, 1)))


def test_parse_cards_accepts_every_spelling() -> None:
    cards = parse_cards("7H 10s JK A♠, t♥ qd *  kc")
    assert [str(c) for c in cards] == ["7H", "10S", "JK", "AS", "10H", "QD", "JK", "KC"]
    assert parse_cards("") == []


@pytest.mark.parametrize("token", ["1X", "11H", "ZZ", "10", "H", "JKK"])
def test_parse_cards_names_the_bad_token(token: str) -> None:
    with pytest.raises(ValueError, match=token):
        parse_cards(f"7H {token}")


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=20))
def test_format_and_parse_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert format_cards(parse_cards(format_cards(cards))) == format_cards(cards)


def test_cards_compare_by_value() -> None:
    assert Card(7, "H") == parse_cards("7h")[0]
    assert Card(7, "H") is Card(7, "H")
    assert Card(7, "H") != Card(7, "S")
    assert len({Card(1, s) for s in SUITS} | {Card(1, "S")}) == 4
    with pytest.raises(ValueError):
        Card(14, "H")
    with pytest.raises(AttributeError):
        Card(7, "H").rank = 8


def test_rule_set_presets_and_validation() -> None:
    assert RuleSet() == RuleSet.preset("liverpool")
    contract = RuleSet.preset("contract")
    assert contract != RuleSet() and contract.run_min == 3 and not contract.buying
    with pytest.raises(ValueError, match="unknown preset"):
        RuleSet.preset("gin")
    with pytest.raises(ValueError, match="run_min"):
        dataclasses.replace(RuleSet(), run_min=0)
    with pytest.raises(ValueError, match="set_max"):
        dataclasses.replace(RuleSet(), set_max=2)
    with pytest.raises(ValueError, match="buy_precedence"):
        dataclasses.replace(RuleSet(), buy_precedence="loudest")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown option"):
        RuleSet().with_options(colour="red")
    with pytest.raises(ValueError, match="buy_limit"):
        RuleSet().with_options(buy_limit="lots")
    with pytest.raises(dataclasses.FrozenInstanceError):
        RuleSet().run_min = 3  # type: ignore[misc]
    for rules in (RuleSet(), contract, RuleSet().with_options(schedule="2S/8,3R/12*", buy_limit="3")):
        assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_meld_functions_of_the_public_api() -> None:
    rules = RuleSet()
    assert is_valid_set(parse_cards("7H 7C JK"), rules)
    assert is_valid_run(parse_cards("JK 2H 3H 4H"), rules)
    assert not is_valid_run(parse_cards("KH AH 2H 3H"), rules)
    assert hand_points(parse_cards("AS 9D 10C JK"), rules) == 45
    melds = find_contract(parse_cards("7H 7S 7D 9C 9D JK 2C"), 1, rules)
    assert melds is not None and sorted(len(m) for m in melds) == [3, 3]
    assert find_contract(parse_cards("7H 7S 9D 2C"), 1, rules) is None


def test_actions_round_trip_through_dicts_and_text() -> None:
    actions = [
        Discard(2, Card(7, "H")),
        LayOff(1, Card(10, "S"), 3, False),
        Meld(0, "run", tuple(parse_cards("5H 6H JK 8H"))),
    ]
    for action in actions:
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        assert parse_action(str(action)) == action
    with pytest.raises(ValueError):
        action_from_dict({"type": "teleport", "player": 0})
    with pytest.raises(ValueError):
        parse_action("discard 7H")


def test_game_new_refuses_bad_tables_naming_the_option() -> None:
    with pytest.raises(ValueError, match="min_players"):
        Game.new(players=1)
    with pytest.raises(ValueError, match="packs"):
        Game.new(players=8, rules=dataclasses.replace(RuleSet(), packs=1))
    with pytest.raises(ValueError, match="packs"):
        Game.new(players=5, rules=dataclasses.replace(RuleSet.preset("contract"), pack_schedule=((8, 1),)))


def test_game_state_accessors_and_errors() -> None:
    game = Game.new(players=4, seed=3)
    assert game.deal == 1 and not game.is_over and game.scores == [0, 0, 0, 0]
    assert game.deck_size == 108 and game.stock_size == 108 - 40 - 1
    assert len(game.discard_pile) == 1 and game.melds == []
    with pytest.raises(IllegalAction, match="turn"):
        game.apply(Discard((game.current + 1) % 4, game.hand((game.current + 1) % 4)[0]))
    assert isinstance(IllegalAction("x"), ValueError)
    view = game.view(0)
    json.dumps(view)
    assert "seed" not in view and "stock" not in view


def test_cli_rules_prints_every_numbered_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for n in range(1, 50):
        assert f"R{n} " in out
    assert main(["rules", "--preset", "contract", "--set", "run_min=4"]) == 0
    assert "A run is 4 or more" in capsys.readouterr().out
    assert main(["rules", "--set", "nonsense=1"]) == 2
    assert "unknown option" in capsys.readouterr().err
    assert main(["rules", "--set", "run_min=many"]) == 2
    assert "run_min" in capsys.readouterr().err


@pytest.mark.parametrize("swap", ["once_down", "going_down_turn", "later_turns"])
def test_search_fast_paths_agree_with_legal_actions(swap: str) -> None:
    """R20/R24: ``Game.layoff_spot`` and ``Game.swap_actions`` (the playouts' fast paths) agree with
    the lay-offs and swaps ``legal_actions`` lists."""
    from liverpool.actions import LayOff, SwapJoker
    from liverpool.bots import get
    from liverpool.driver import next_to_act
    from liverpool.game import PLAY

    rules = RuleSet().with_options(joker_swap=swap)
    checked = 0
    for seed in range(4):
        game = Game.new(players=4, rules=rules, seed=seed)
        bots = [get("greedy", seed=p) for p in range(4)]
        while not game.is_over:
            seat, legal = next_to_act(game)
            if game.phase == PLAY and seat == game.current:
                assert [a for a in legal if isinstance(a, SwapJoker)] == game.swap_actions(seat)
                layoffs = {(a.card, a.meld, a.high) for a in legal if isinstance(a, LayOff)}
                if game.down[seat] and game.must_meld is None and layoffs:
                    for card in set(game.hand(seat)):
                        spot = game.layoff_spot(card)
                        listed = {(m, h) for c, m, h in layoffs if c == card}
                        assert (spot is None) == (not listed)
                        assert spot is None or spot in listed
                        checked += 1
            game.apply(bots[seat].act(game.view(seat), legal))
    assert checked > 20

"""House-rule variants of scoring (issue 16): every seat's place (R41, ``game.placings``) and the
scoring hooks of R49 (``going_out_bonus``, ``going_out_bonus_if_alone``, ``first_down_bonus``,
``joker_in_meld_points``), in both presets: for each, a deal that earns the points and one that
does not."""

from __future__ import annotations

from typing import Any

import pytest

from liverpool import Card, Discard, Game, Meld, RuleSet
from rules_helpers import PRESETS, apply_all, cards, events_of, position, rules

OTHERS = ("2C 9C", "3C 4D", "5S")
"""Hands of players 1-3: liverpool 10, 10, 5 points; contract 11, 7, 5."""
HAND_POINTS = {"liverpool": [10, 10, 5], "contract": [11, 7, 5]}
SET7 = (0, "set", "7H 7S 7D")
RUN_H = (2, "run", "9H 10H JH QH")
DEAL7_HAND = "3H 4H 5H 6H 8S 9S 10S JS 9D 10D JD QD KD"


def at_play(preset: str, hand: str, others: tuple[str, ...] = OTHERS, **kwargs: Any) -> Game:
    """Player 0 has drawn and holds ``hand``; by default down with a set of 7s, player 2 down
    with a run of hearts."""
    options = kwargs.pop("options", {})
    kwargs.setdefault("melds", [SET7, RUN_H])
    kwargs.setdefault("down", [0, 2])
    return position(rules(preset, **options), hands=(hand, *others), current=0, phase="play", **kwargs)


def go_out(game: Game) -> list[int]:
    """Player 0 discards the king of spades, their last card: the deal's points."""
    game.apply(Discard(0, Card(13, "S")))
    (end,) = events_of(game, "deal_end")
    points: list[int] = end["points"]
    assert game.deal_scores[-1] == points
    return points


def bonuses(game: Game) -> list[tuple[int, int, str]]:
    return [(e["player"], e["points"], e["reason"]) for e in events_of(game, "bonus")]


# ------------------------------------------------------------------------------ R41 placings
def finish_last_deal(preset: str, others: tuple[str, ...], scores: list[int]) -> Game:
    game = at_play(preset, DEAL7_HAND, others, deal=7, melds=[], down=[], scores=scores)
    apply_all(
        game,
        Meld(0, "run", tuple(cards("3H 4H 5H 6H"))),
        Meld(0, "run", tuple(cards("8S 9S 10S JS"))),
        Meld(0, "run", tuple(cards("9D 10D JD QD KD"))),
    )
    assert game.is_over
    return game


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_placings_ties_share_a_place_and_skip_the_next(preset: str) -> None:
    # Totals 100, 70, 85 (contract 82), 70: seats 1 and 3 share first place, nobody is second.
    game = finish_last_deal(preset, ("KC QC", "2C", "KH"), [100, 50, 80, 60])
    assert game.scores[1] == game.scores[3] == 70
    assert game.placings == [4, 1, 3, 1]
    assert [p for p, place in enumerate(game.placings) if place == 1] == game.winners


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_placings_without_ties_are_one_to_n(preset: str) -> None:
    game = finish_last_deal(preset, ("KC QC", "2C", "KH QH JH"), [100, 50, 80, 60])
    assert sorted(game.placings) == [1, 2, 3, 4]
    assert game.placings == [4, 1, 2, 3]
    assert game.placings[game.winners[0]] == 1


def test_r41_placings_of_a_table_all_tied() -> None:
    game = finish_last_deal("liverpool", ("", "", ""), [0, 0, 0, 0])
    assert game.scores == [0, 0, 0, 0] and game.placings == [1, 1, 1, 1]


def test_r41_placings_are_described() -> None:
    described = dict(RuleSet().describe())
    assert "ties sharing a place" in described["R41"]


# ------------------------------------------------------------------------------ R49 hooks
@pytest.mark.parametrize("preset", PRESETS)
def test_r49_no_bonus_by_default(preset: str) -> None:
    game = at_play(preset, "KS")
    assert go_out(game) == [0, *HAND_POINTS[preset]]
    assert bonuses(game) == []
    assert "no bonuses" in dict(game.rules.describe())["R49"]


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_going_out_bonus_goes_to_the_player_who_goes_out(preset: str) -> None:
    game = at_play(preset, "KS", options={"going_out_bonus": -10})
    assert go_out(game) == [-10, *HAND_POINTS[preset]]
    assert bonuses(game) == [(0, -10, "going_out_bonus")]
    assert game.scores == [-10, *HAND_POINTS[preset]]
    assert game.view(1)["scores"] == game.scores  # public


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_going_out_bonus_not_paid_in_a_stalemate(preset: str) -> None:
    game = position(
        rules(preset, going_out_bonus=-10, turn_limit=10),
        hands=("KS 4S", *OTHERS),
        current=0,
        phase="play",
        turn=10,
    )
    game.apply(Discard(0, Card(13, "S")))
    (end,) = events_of(game, "deal_end")
    assert end["out"] is None and bonuses(game) == []
    assert end["points"] == [5 if preset == "liverpool" else 4, *HAND_POINTS[preset]]


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_going_out_bonus_if_alone_when_nobody_else_is_down(preset: str) -> None:
    game = at_play(preset, "KS", melds=[SET7], down=[0], options={"going_out_bonus_if_alone": -20})
    assert go_out(game) == [-20, *HAND_POINTS[preset]]
    assert bonuses(game) == [(0, -20, "going_out_bonus_if_alone")]


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_going_out_bonus_if_alone_not_paid_when_another_player_is_down(preset: str) -> None:
    game = at_play(preset, "KS", options={"going_out_bonus_if_alone": -20})
    assert go_out(game) == [0, *HAND_POINTS[preset]]
    assert bonuses(game) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_both_going_out_bonuses_add_up(preset: str) -> None:
    options = {"going_out_bonus": -10, "going_out_bonus_if_alone": -20}
    game = at_play(preset, "KS", melds=[SET7], down=[0], options=options)
    assert go_out(game)[0] == -30


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_first_down_bonus_goes_to_the_first_player_down_not_the_one_out(preset: str) -> None:
    # Player 2 went down in an earlier turn; player 0 goes down now and goes out.
    game = at_play(preset, "7H 7S 7D 8C 8D 8S KS", melds=[RUN_H], down=[2], options={"first_down_bonus": -5})
    apply_all(game, Meld(0, "set", tuple(cards("7H 7S 7D"))), Meld(0, "set", tuple(cards("8C 8D 8S"))))
    points = go_out(game)
    assert bonuses(game) == [(2, -5, "first_down_bonus")]
    assert points == [0, HAND_POINTS[preset][0], HAND_POINTS[preset][1] - 5, HAND_POINTS[preset][2]]


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_first_down_bonus_not_paid_when_nobody_went_down(preset: str) -> None:
    game = position(
        rules(preset, first_down_bonus=-5, turn_limit=10), hands=("KS 4S", *OTHERS), current=0, phase="play", turn=10
    )
    game.apply(Discard(0, Card(13, "S")))
    assert events_of(game, "deal_end")[0]["out"] is None
    assert bonuses(game) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_joker_in_meld_points_per_wild_card_in_the_owners_melds(preset: str) -> None:
    run = (2, "run", "9H 10H JK QH")
    game = at_play(preset, "KS", melds=[SET7, run], options={"joker_in_meld_points": 25})
    points = go_out(game)
    assert bonuses(game) == [(2, 25, "joker_in_meld_points")]
    assert points == [0, HAND_POINTS[preset][0], HAND_POINTS[preset][1] + 25, HAND_POINTS[preset][2]]


@pytest.mark.parametrize("preset", PRESETS)
def test_r49_joker_in_meld_points_count_a_wild_rank_and_not_melds_without_wild_cards(preset: str) -> None:
    run = (2, "run", "9H 10H JK QH")
    options = {"joker_in_meld_points": -15, "wild_rank": 2}
    game = at_play(preset, "KS", melds=[(0, "set", "7H 7S 2D"), run], others=("3C 9C", "3D 4D", "5S"), options=options)
    go_out(game)
    assert bonuses(game) == [(0, -15, "joker_in_meld_points"), (2, -15, "joker_in_meld_points")]
    plain = at_play(preset, "KS", options={"joker_in_meld_points": 25})
    go_out(plain)
    assert bonuses(plain) == []


def test_r49_hooks_are_whole_numbers_described_and_read_from_the_command_line() -> None:
    r = RuleSet().with_options(going_out_bonus="-10", first_down_bonus="5", joker_in_meld_points="25")
    text = dict(r.describe())["R49"]
    assert "going out: -10 points" in text and "first down in the deal: +5 points" in text
    assert "per wild card" in text
    assert RuleSet.from_dict(r.to_dict()) == r
    for name in ("going_out_bonus", "going_out_bonus_if_alone", "first_down_bonus", "joker_in_meld_points"):
        with pytest.raises(ValueError, match=name):
            RuleSet().with_options(**{name: 1.5})
        assert name not in RuleSet().to_dict()  # at their default, tables read as before

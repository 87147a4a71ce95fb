"""House-rule variant of the wild rank (issue 16): ``dead_discarded_wild`` (R46, deuces wild). A
discarded deuce is dead: a card value of its own (token ``2H~``), a natural card from then on,
never wild again, fitting no meld, and scored like a natural 3. For each value, in both presets
(deuces wild), a move it allows and one it refuses; records, positions and views keep it."""

from __future__ import annotations

import json
import random

import pytest

from liverpool import Card, Discard, DrawDiscard, DrawStock, Game, LayOff, Meld, RuleSet, parse_card
from liverpool.cards import DEAD_DEUCES, DEAD_RANK, full_deck
from liverpool.melds import hand_points
from liverpool.solver import solve
from rules_helpers import PRESETS, apply_all, assert_conserved, assert_refused, cards, position, rules

TWO_H = Card(2, "H")
DEAD_2H = parse_card("2H~")
OTHERS = ("4D 6D 9S", "6H 8H 9C", "5S 8C 9D")


def deuces(preset: str, dead: bool, **options: object) -> RuleSet:
    return rules(preset, wild_rank=2, dead_discarded_wild=dead, **options)


def discarding_a_deuce(preset: str, dead: bool) -> Game:
    """Player 0 has drawn and holds the 2H; a set of 7s is on the table (player 3 is down)."""
    return position(
        deuces(preset, dead),
        hands=("2H 3C KD", *OTHERS),
        melds=[(3, "set", "7H 7S 7D")],
        down=[3],
        phase="play",
        current=0,
    )


def test_r46_dead_deuce_card_value_and_option() -> None:
    assert DEAD_2H is Card(DEAD_RANK, "H") and DEAD_2H.is_dead and DEAD_2H.live is TWO_H
    assert str(DEAD_2H) == "2H~" and DEAD_2H.pretty() == "2♥~" and DEAD_2H != TWO_H
    assert [str(c) for c in DEAD_DEUCES] == ["2S~", "2H~", "2D~", "2C~"]
    assert DEAD_2H not in full_deck(2, 2)  # never dealt: a deuce becomes one when discarded
    with pytest.raises(ValueError, match="only a deuce may be dead"):
        parse_card("3H~")
    assert "dead_discarded_wild" not in RuleSet().to_dict()
    with pytest.raises(ValueError, match="dead_discarded_wild needs deuces wild"):
        RuleSet(dead_discarded_wild=True)
    with pytest.raises(ValueError, match="dead_discarded_wild needs deuces wild"):
        RuleSet(wild_rank=5, dead_discarded_wild=True)
    words = dict(RuleSet(wild_rank=2, dead_discarded_wild=True).describe())["R46"]
    assert "discarded deuce is dead" in words and "2H~" in words
    assert "dead" not in dict(RuleSet(wild_rank=2).describe())["R46"]


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_without_the_option_a_discarded_deuce_stays_wild(preset: str) -> None:
    game = discarding_a_deuce(preset, dead=False)
    apply_all(game, Discard(0, TWO_H))
    assert game.discard_pile[-1] is TWO_H
    apply_all(game, DrawDiscard(1))
    assert TWO_H in game.hand(1)


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_discarded_deuce_is_dead(preset: str) -> None:
    game = discarding_a_deuce(preset, dead=True)
    apply_all(game, Discard(0, TWO_H))
    assert game.discard_pile[-1] is DEAD_2H
    assert game.events[-1]["card"] == "2H~"
    assert game.view(2)["discard_pile"][-1] == "2H~"
    apply_all(game, DrawDiscard(1))
    assert DEAD_2H in game.hand(1) and TWO_H not in game.hand(1)
    assert game.view(1)["hand"].count("2H~") == 1
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_is_never_wild_again(preset: str) -> None:
    # Player 3, down, holds a live 2S and a dead 2H: the live one lays off on the 7s as a wild
    # card, the dead one is refused (and is not listed); it may only be discarded, staying dead.
    def game_with(hand: str) -> Game:
        return position(
            deuces(preset, dead=True),
            hands=("3C KD", "6H 8H 9C", "5S 8C 9D", hand),
            melds=[(3, "set", "7H 7S 7D")],
            down=[3],
            phase="play",
            current=3,
        )

    game = game_with("2S 2H~ QC")
    apply_all(game, LayOff(3, Card(2, "S"), 0))
    assert_refused(game, LayOff(3, DEAD_2H, 0), "does not fit")
    assert not any(isinstance(a, LayOff) and a.card is DEAD_2H for a in game.legal_actions())
    apply_all(game, Discard(3, DEAD_2H))
    assert game.discard_pile[-1] is DEAD_2H


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_fits_no_meld(preset: str) -> None:
    # No set of dead deuces, no run through the deuce's place; the solver and the listing agree.
    game = position(
        deuces(preset, dead=True, set_distinct_suits=False, runs_distinct_suits=False),
        hands=("2H~ 2S~ JK 2D~ AC 3C 4C 10D 10S 10H", *OTHERS),
        phase="play",
        current=0,
        deal=2,  # one set and one run
    )
    assert_refused(game, Meld(0, "set", tuple(cards("2S~ 2H~ JK"))), "dead deuce fits no meld")
    assert_refused(game, Meld(0, "run", tuple(cards("AC 2D~ 3C 4C"))), "not a valid run")
    hand = game.hand(0)
    best = solve(hand, 1, 1, game.rules)
    assert best is None or not any(c.is_dead for meld in best for c in meld)
    assert not any(isinstance(a, Meld) and any(c.is_dead for c in a.cards) for a in game.legal_actions())


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_scores_like_a_natural_3(preset: str) -> None:
    r = deuces(preset, dead=True)
    assert hand_points([DEAD_2H], r) == r.points(3) == hand_points(cards("3H"), r)
    assert hand_points([TWO_H], r) == r.points(2)
    shanghai_like = deuces(preset, dead=True, rank_points=(15, 20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10))
    assert hand_points([DEAD_2H, TWO_H], shanghai_like) == 5 + 20


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_dead_deuces_go_through_a_rebuilt_stock_dead(preset: str) -> None:
    game = position(
        deuces(preset, dead=True),
        hands=("3C KD", *OTHERS),
        stock="",
        discard="9H 2H~ 5C",
        current=1,
        discarder=0,
        rest="discard",
    )
    assert game.stock_size == 0 and DEAD_2H in game.discard_pile[:-1]
    apply_all(game, DrawStock(1))  # the stock is rebuilt from the pile less its top card
    assert sum(1 for c in game.stock + game.hand(1) if c is DEAD_2H) == 1
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_dead_deuces_in_records_and_positions(preset: str) -> None:
    game = discarding_a_deuce(preset, dead=True)
    apply_all(game, Discard(0, TWO_H), DrawDiscard(1))
    text = game.position()
    assert "2H~" in text
    again = Game.from_position(text)
    assert again.position() == text and DEAD_2H in again.hand(1)
    # a position holding a dead deuce without the option is refused, naming it
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("rules "))
    options = json.loads(lines[at][len("rules ") :])
    del options["dead_discarded_wild"]
    lines[at] = "rules " + json.dumps(options)
    with pytest.raises(ValueError, match="dead_discarded_wild"):
        Game.from_position("\n".join(lines))
    # a whole game's record replays with the dead deuces where they were
    full = Game.new(players=3, rules=deuces(preset, dead=True), seed=7)
    rng = random.Random(7)
    while not full.is_over and full.version < 400:
        full.apply(rng.choice(full.legal_actions()))
    record = json.loads(json.dumps(full.record()))
    replay = Game.from_record(record)
    assert replay.events == full.events and replay.position() == full.position()

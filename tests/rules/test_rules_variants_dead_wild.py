"""House-rule variant of the wild rank (issue 16): ``dead_discarded_wild`` (R46, deuces wild). A
discarded deuce is dead: a card value of its own (token ``2H~``), a natural card from then on,
never wild again, a natural 2 of its suit in melds (A-2-3 runs where the wild rank has its place, sets
of deuces with ``wild_rank_natural_sets``), and scored like a natural 3. For each value, in both presets
(deuces wild), a move it allows and one it refuses; records, positions and views keep it."""

from __future__ import annotations

import json
import random

import pytest

from liverpool import Card, Discard, DrawDiscard, DrawStock, Game, LayOff, Meld, RuleSet, SwapJoker, parse_card
from liverpool.cards import DEAD_DEUCES, DEAD_RANK, JOKER, full_deck
from liverpool.melds import hand_points
from liverpool.solver import solve
from rules_helpers import PRESETS, apply_all, assert_conserved, assert_refused, cards, position, rules

TWO_H = Card(2, "H")
DEAD_2H = parse_card("2H~")
DEAD_2C = parse_card("2C~")
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
    assert "at the deuce's place in runs (A-2-3) and in no set" in words
    words = dict(RuleSet(wild_rank=2, dead_discarded_wild=True, wild_rank_place="none").describe())["R46"]
    assert "in no run" in words and "A-2-3" not in words
    words = dict(RuleSet(wild_rank=2, dead_discarded_wild=True, wild_rank_natural_sets=True).describe())["R46"]
    assert "in sets of deuces" in words
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
def test_r46_option_a_dead_deuce_is_no_wild_card_in_a_set(preset: str) -> None:
    # Without wild_rank_natural_sets there is no set of deuces: a set of dead deuces is refused,
    # and the solver and the listing agree.
    game = position(
        deuces(preset, dead=True, set_distinct_suits=False, runs_distinct_suits=False),
        hands=("2H~ 2S~ JK 2D~ KC 10D 10S 10H", *OTHERS),
        phase="play",
        current=0,
        deal=2,  # one set and one run
    )
    assert_refused(game, Meld(0, "set", tuple(cards("2S~ 2H~ JK"))), "dead deuce fits no meld")
    best = solve(game.hand(0), 1, 0, game.rules)
    assert best is not None and not any(c.is_dead for meld in best for c in meld)
    assert not any(
        isinstance(a, Meld) and a.kind == "set" and any(c.is_dead for c in a.cards) for a in game.legal_actions()
    )


def ace_two_three(preset: str, hand: str, **options: object) -> Game:
    """Player 0 holds ``hand`` in deal 2 (one set and one run), to play."""
    return position(
        deuces(preset, dead=True, **options),
        hands=(hand, *OTHERS),
        phase="play",
        current=0,
        deal=2,
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_lays_down_as_the_natural_2_of_a_run(preset: str) -> None:
    # A dead deuce is a natural 2 of its suit: A-2-3-4 of clubs with no wild card at all; the
    # solver finds it and the listing names the real card (2C~), so the record replays.
    game = ace_two_three(preset, "AC 2C~ 3C 4C 10D 10S 10H KD")
    run = Meld(0, "run", tuple(cards("AC 2C~ 3C 4C")))
    assert game.can_apply(run)
    assert run in game.legal_actions()
    best = solve(game.hand(0), 1, 1, game.rules)
    assert best is not None and any(DEAD_2C in meld for meld in best)
    apply_all(game, Meld(0, "set", tuple(cards("10D 10S 10H"))), run)
    assert game.down[0] and game.melds[-1].cards == tuple(cards("AC 2C~ 3C 4C"))
    assert game.view(1)["melds"][-1]["cards"] == ["AC", "2C~", "3C", "4C"]
    assert_conserved(game)
    # no other place: a dead deuce is never a 5 (nor wild)
    other = ace_two_three(preset, "3C 4C 2C~ 6C 10D 10S 10H KD")
    assert_refused(other, Meld(0, "run", tuple(cards("3C 4C 2C~ 6C"))), "not a valid run")
    assert_refused(other, Meld(0, "run", tuple(cards("2C~ 3C 4C 6C"))), "not a valid run")


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_lays_off_at_the_low_end_of_three(preset: str) -> None:
    game = position(
        deuces(preset, dead=True),
        hands=("2C~ 2S~ KD", *OTHERS),
        melds=[(3, "run", "3C 4C 5C 6C"), (3, "set", "7H 7S 7D")],
        down=[0, 3],
        phase="play",
        current=0,
    )
    listed = [a for a in game.legal_actions() if isinstance(a, LayOff) and a.card.is_dead]
    assert listed == [LayOff(0, DEAD_2C, 0, False)]  # not the 2S~ (another suit), not on the 7s
    assert_refused(game, LayOff(0, Card(DEAD_RANK, "S"), 0, False), "does not fit")
    assert_refused(game, LayOff(0, DEAD_2C, 1), "does not fit")
    apply_all(game, LayOff(0, DEAD_2C, 0, False))
    assert game.melds[0].cards == tuple(cards("2C~ 3C 4C 5C 6C"))
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_swaps_for_a_joker_standing_for_a_2(preset: str) -> None:
    # Without the option a joker at the 2's place stands for a wild card: no swap. With it, the
    # dead deuce is the natural card the joker stands for.
    def game_with(dead: bool, hand: str) -> Game:
        return position(
            deuces(preset, dead=dead, joker_swap="once_down", swap_must_play=False),
            hands=(hand, *OTHERS),
            melds=[(3, "run", "AH JK 3H 4H"), (3, "set", "7H 7S 7D")],
            down=[0, 3],
            phase="play",
            current=0,
        )

    game = game_with(True, "2H~ KD QC")
    swap = SwapJoker(0, 0, 1, DEAD_2H)
    assert swap in game.legal_actions()
    assert_refused(game, SwapJoker(0, 0, 1, TWO_H), "stands for 2H~")
    apply_all(game, swap)
    assert game.melds[0].cards == tuple(cards("AH 2H~ 3H 4H")) and JOKER in game.hand(0)
    assert_conserved(game)
    live = game_with(False, "2H KD QC")
    assert not any(isinstance(a, SwapJoker) for a in live.legal_actions())


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_dead_deuces_form_a_set_of_deuces_with_natural_sets(preset: str) -> None:
    game = ace_two_three(preset, "2S~ 2H~ 2D 3C 4C 5C 6C KD", wild_rank_natural_sets=True, set_distinct_suits=False)
    deuce_set = Meld(0, "set", tuple(cards("2S~ 2H~ 2D")))
    assert deuce_set in game.legal_actions()
    best = solve(game.hand(0), 1, 1, game.rules)
    assert best is not None and any(c.is_dead for meld in best for c in meld)
    apply_all(game, deuce_set, Meld(0, "run", tuple(cards("3C 4C 5C 6C"))))
    assert game.down[0]
    assert_conserved(game)
    # and a dead deuce lays off on a set of deuces (not on a set of 7s)
    table = position(
        deuces(preset, dead=True, wild_rank_natural_sets=True, set_distinct_suits=False),
        hands=("2C~ KD", *OTHERS),
        melds=[(3, "set", "2S 2H 2D"), (3, "set", "7H 7S 7D")],
        down=[0, 3],
        phase="play",
        current=0,
    )
    assert [a for a in table.legal_actions() if isinstance(a, LayOff) and a.card.is_dead] == [LayOff(0, DEAD_2C, 0)]
    assert_refused(table, LayOff(0, DEAD_2C, 1), "does not fit")
    apply_all(table, LayOff(0, DEAD_2C, 0))


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_a_dead_deuce_has_no_place_in_runs_without_the_deuces_place(preset: str) -> None:
    # wild_rank_place "none": runs go 3 to ace, so a dead deuce fits no run (nor a lay-off at 3).
    game = ace_two_three(preset, "AC 2C~ 3C 4C 5C 10D 10S 10H", wild_rank_place="none")
    assert_refused(game, Meld(0, "run", tuple(cards("AC 2C~ 3C 4C"))), "not a valid run")
    assert not any(isinstance(a, Meld) and any(c.is_dead for c in a.cards) for a in game.legal_actions())
    best = solve(game.hand(0), 1, 1, game.rules)
    assert best is None or not any(c.is_dead for meld in best for c in meld)
    table = position(
        deuces(preset, dead=True, wild_rank_place="none"),
        hands=("2C~ KD", *OTHERS),
        melds=[(3, "run", "3C 4C 5C 6C"), (3, "set", "7H 7S 7D")],
        down=[0, 3],
        phase="play",
        current=0,
    )
    assert_refused(table, LayOff(0, DEAD_2C, 0, False), "does not fit")
    assert not any(isinstance(a, LayOff) and a.card.is_dead for a in table.legal_actions())


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


@pytest.mark.parametrize("place", ["wild", "none"])
def test_r46_option_the_greedy_bots_deficit_counts_a_dead_deuce_where_it_fits(place: str) -> None:
    # The greedy bot's fast deficit (bots/greedy) reads a dead deuce as the engine does: a natural 2
    # at the deuce's place in runs, or no card of any run when deuces have no place there.
    from liverpool.bots.greedy.deficit import deficit_of, deficits_without
    from liverpool.bots.greedy.tactics import Tactics

    t = Tactics(deuces("liverpool", dead=True, wild_rank_place=place))
    hand = cards("AC 2C~ 3C 4C KD")
    fits = place == "wild"
    # with no place, runs go 3 to ace: 3C 4C lack two cards (the ace and the dead deuce help nothing)
    assert deficit_of(t, hand, 0, 1, False) == (0 if fits else 2)
    # without the dead deuce, A-2-3-4 lacks its 2 (or, with no place for it, nothing changes)
    assert deficits_without(t, hand, [DEAD_2C, Card(13, "D")], 0, 1, False) == ([1, 0] if fits else [2, 2])

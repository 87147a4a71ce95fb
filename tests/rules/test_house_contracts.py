"""House rules about contracts (issue 16): a length per meld in the schedule text (R48,
``1R[5]1R[7]/10``: at least; ``R[=5]``: exactly) and ``runs_same_suit_gap`` (R13). In both
presets, a lay-down each allows and one each refuses, through the engine's one validation path
(``Game.verify``) and its listing (``legal_actions``), and the solver's answer agreeing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from liverpool import Discard, Game, Meld, RuleSet
from liverpool.cli import main as cli_main
from liverpool.rules import Contract, parse_schedule
from liverpool.solver import Left, contract_left, find_contract, left_after
from rules_helpers import PRESETS, apply_all, assert_refused, cards, position, rules

OTHERS = ("2C 2D 3D", "3C 4D QD", "JD QC KC")


def at_play(rule_set: RuleSet, hand: str) -> Game:
    game: Game = position(rule_set, hands=(hand, *OTHERS), current=0, phase="play")
    return game


def melds(game: Game) -> set[tuple[str, tuple[Any, ...]]]:
    return {(a.kind, a.cards) for a in game.legal_actions() if isinstance(a, Meld)}


def run(text: str) -> Meld:
    return Meld(0, "run", tuple(cards(text)))


def a_set(text: str) -> Meld:
    return Meld(0, "set", tuple(sorted(cards(text))))


# ---------------------------------------------------------------- the schedule text (R48)
def test_r48_brackets_parse_and_round_trip() -> None:
    (c,) = parse_schedule("1R[5]1R[7]/10")
    assert (c.sets, c.runs, c.cards, c.run_lengths, c.set_lengths) == (0, 2, 10, (5, 7), ())
    (c,) = parse_schedule("2S[=4]1R/11*")
    assert (c.sets, c.set_lengths, c.run_lengths, c.whole_hand) == (2, (-4, -4), (), True)
    assert str(c) == "2S[=4]1R/11*" and c.describe() == "2 sets of exactly 4 + 1 run"
    for preset in PRESETS:
        r = rules(preset).with_options(schedule="1S[4]1R[=5]/10,1R[5]1R[7]/10,2S/10")
        again = RuleSet.from_dict(json.loads(json.dumps(r.to_dict())))
        assert again == r and again.to_dict()["schedule"] == "1S[4]1R[=5]/10,1R[5]1R[7]/10,2S/10"


def test_r48_plain_contracts_are_unchanged() -> None:
    """A schedule without brackets reads, prints and compares exactly as before (records, digests)."""
    plain = parse_schedule("2S/10,1S1R/10")
    assert plain == (Contract(2, 0, 10), Contract(1, 1, 10)) and not any(c.grouped for c in plain)
    assert repr(plain[0]) == "Contract(sets=2, runs=0, cards=10, whole_hand=False)"
    assert parse_schedule("1R[4]/10") != parse_schedule("1R/10")
    assert parse_schedule("0S2R/10") == parse_schedule("2R/10")
    assert not RuleSet().grouped_contracts and "runs_same_suit_gap" not in RuleSet().to_dict()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1R[15]/10", "2-14"),
        ("1R[1]/10", "2-14"),
        ("1R[5/10", "cannot read contract"),
        ("0S[4]/10", "needs a meld"),
        ("0S0R/10", "at least one meld"),
        ("2S[4]/10x", "cannot read contract"),
    ],
)
def test_r48_bad_brackets_are_refused_clearly(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_schedule(text)


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_brackets_are_checked_against_the_options(preset: str) -> None:
    with pytest.raises(ValueError, match="set_max"):
        rules(preset, set_max=4).with_options(schedule="1S[5]/10")
    with pytest.raises(ValueError, match="longer than any run"):
        rules(preset, ace_high=False).with_options(schedule="1R[14]/10")
    with pytest.raises(ValueError, match="set_min_naturals"):
        rules(preset, set_min_naturals=3, set_min=3).with_options(schedule="1S[2]/10")


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_the_rules_text_names_the_lengths(preset: str) -> None:
    r = rules(preset).with_options(schedule="1R[5]1R[=7]/10")
    text = dict(r.describe())
    assert "1 run of 5+ + 1 run of exactly 7" in text["R10"]
    assert "1R[5]1R[=7]/10" in text["R48"]


def test_r48_the_rules_command_prints_the_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "--preset", "contract", "--set", "schedule=1S[4]1R[=5]/10"]) in (0, None)
    out = capsys.readouterr().out
    assert "1 set of 4+ + 1 run of exactly 5" in out and "1S[4]1R[=5]/10" in out


# ---------------------------------------------------------------- lay-downs (R48 with R10-R12)
@pytest.mark.parametrize("preset", PRESETS)
def test_r48_a_run_of_at_least_the_bracket_is_allowed(preset: str) -> None:
    game = at_play(rules(preset, schedule=parse_schedule("1R[5]1R[7]/10")), "3S 4S 5S 6S 7S 4H 5H 6H 7H 8H 9H 10H KD")
    assert ("run", tuple(cards("3S 4S 5S 6S 7S"))) in melds(game)
    apply_all(game, run("3S 4S 5S 6S 7S"), run("4H 5H 6H 7H 8H 9H 10H"))
    assert game.down[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_a_run_shorter_than_its_bracket_is_refused(preset: str) -> None:
    game = at_play(rules(preset, schedule=parse_schedule("1R[5]1R[7]/10")), "3S 4S 5S 6S 7S 4H 5H 6H 7H 8H 9H 10H KD")
    listed = melds(game)
    assert ("run", tuple(cards("3S 4S 5S 6S"))) not in listed  # a run of 4: no group takes it
    assert_refused(game, run("3S 4S 5S 6S"), "no run of 4 cards")
    # a 6-run of hearts would fill the 5-group and leave the 7-group to 3S-7S, which is too short
    assert ("run", tuple(cards("4H 5H 6H 7H 8H 9H"))) not in listed
    assert_refused(game, run("4H 5H 6H 7H 8H 9H"), "could not lay the rest of the contract")


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_an_exact_bracket_refuses_a_longer_meld(preset: str) -> None:
    game = at_play(rules(preset, schedule=parse_schedule("1S1R[=5]/10")), "3S 4S 5S 6S 7S 8S 9D 9C 9H KD")
    listed = melds(game)
    assert ("run", tuple(cards("3S 4S 5S 6S 7S"))) in listed
    assert ("run", tuple(cards("4S 5S 6S 7S 8S"))) in listed
    assert ("run", tuple(cards("3S 4S 5S 6S 7S 8S"))) not in listed
    assert_refused(game, run("3S 4S 5S 6S 7S 8S"), "no run of 6 cards", "exactly 5")
    apply_all(game, a_set("9D 9C 9H"), run("4S 5S 6S 7S 8S"))
    assert game.down[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_a_set_bracket_asks_for_longer_sets(preset: str) -> None:
    game = at_play(rules(preset, packs=2, schedule=parse_schedule("2S[4]/10")), "9D 9C 9H 9S 7C 7D 7H KD JK")
    assert ("set", tuple(sorted(cards("7C 7D 7H")))) not in melds(game)
    assert_refused(game, a_set("7C 7D 7H"), "no set of 3 cards")
    apply_all(game, a_set("9D 9C 9H 9S"), a_set("7C 7D 7H JK"))
    assert game.down[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_a_bracket_below_the_option_allows_a_shorter_meld(preset: str) -> None:
    r = rules(preset, run_min=4, schedule=parse_schedule("1R[3]1R/10"))
    game = at_play(r, "3S 4S 5S 6H 7H 8H 9H KD")
    assert ("run", tuple(cards("3S 4S 5S"))) in melds(game)
    apply_all(game, run("3S 4S 5S"), run("6H 7H 8H 9H"))
    assert game.down[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_the_solver_follows_the_brackets(preset: str) -> None:
    r = rules(preset, packs=2, schedule=parse_schedule("1R[5]1R[7]/10,2S[=4]/10"))
    hand = cards("3S 4S 5S 6S 7S 4H 5H 6H 7H 8H 9H 10H KD")
    found = find_contract(hand, 1, r)
    assert found is not None and sorted(map(len, found)) == [5, 7]
    assert find_contract(hand[:-2] + hand[-1:], 1, r) is None  # the hearts now 6 long
    found = find_contract(cards("9D 9C 9H 9S 9S 7C 7D 7H 7S KD"), 2, r)
    assert found is not None and sorted(map(len, found)) == [4, 4]


def test_r48_a_meld_fills_the_group_that_leaves_the_most_choice() -> None:
    r = RuleSet()
    left = Left((), (-5, 4))
    after = left_after(left, "run", cards("3S 4S 5S 6S 7S"), r)
    assert isinstance(after, Left) and after.runs == (4,)
    after = left_after(Left((), (7, 5)), "run", cards("3S 4S 5S 6S 7S 8S"), r)
    assert isinstance(after, Left) and after.runs == (7,)
    left0 = contract_left(parse_schedule("1R[5]1R/10")[0], RuleSet(exact_melds=True))
    assert left0 == Left((), (-5, -4))


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_the_view_gives_the_lengths_only_when_there_are_some(preset: str) -> None:
    plain = Game.new(players=4, rules=rules(preset, min_players=2), seed=3).view(0)["contract"]
    assert "run_lengths" not in plain and "set_lengths" not in plain
    game = Game.new(players=4, rules=rules(preset, min_players=2, schedule=parse_schedule("1S1R[=5]/10")), seed=3)
    c = game.view(0)["contract"]
    assert c["run_lengths"] == [-5] and c["set_lengths"] == [] and c["text"] == "1 set + 1 run of exactly 5"


# ---------------------------------------------------------------- runs_same_suit_gap (R13)
@pytest.mark.parametrize("preset", PRESETS)
def test_r13_gap_allows_two_runs_of_one_suit_far_enough_apart(preset: str) -> None:
    r = rules(preset, runs_distinct_suits=False, runs_same_suit_gap=2, schedule=parse_schedule("2R/10"))
    game = at_play(r, "3S 4S 5S 6S 9S 10S JS QS KD")
    assert ("run", tuple(cards("3S 4S 5S 6S"))) in melds(game)
    apply_all(game, run("3S 4S 5S 6S"), run("9S 10S JS QS"))
    assert game.down[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r13_gap_refuses_two_runs_of_one_suit_too_close(preset: str) -> None:
    r = rules(preset, runs_distinct_suits=False, runs_same_suit_gap=5, schedule=parse_schedule("2R/10"))
    game = at_play(r, "3S 4S 5S 6S 9S 10S JS QS KD")
    assert melds(game) == set()  # at most 6S-9S lie between two runs: four ranks, fewer than five
    assert_refused(game, run("3S 4S 5S 6S"), "could not lay the rest")
    assert find_contract(cards("3S 4S 5S 6S 9S 10S JS QS KD"), 1, r) is None
    loose = rules(preset, runs_distinct_suits=False, schedule=parse_schedule("2R/10"))
    assert find_contract(cards("3S 4S 5S 6S 9S 10S JS QS KD"), 1, loose) is not None


@pytest.mark.parametrize("preset", PRESETS)
def test_r13_gap_zero_refuses_overlapping_runs_only(preset: str) -> None:
    r = rules(preset, packs=2, runs_distinct_suits=False, runs_same_suit_gap=0, schedule=parse_schedule("2R/10"))
    game = at_play(r, "3S 4S 5S 6S 5S 6S 7S 8S KD")
    assert_refused(game, run("3S 4S 5S 6S"), "could not lay the rest")
    game = at_play(r, "3S 4S 5S 6S 7S 8S 9S 10S KD")
    apply_all(game, run("3S 4S 5S 6S"), run("7S 8S 9S 10S"))
    assert game.down[0]


def test_r13_gap_is_validated_and_described() -> None:
    with pytest.raises(ValueError, match="runs_same_suit_gap"):
        RuleSet(runs_same_suit_gap=-1)
    r = RuleSet(runs_same_suit_gap=2)
    assert "at least 2 rank(s) between them" in dict(r.describe())["R13"]
    assert r.to_dict()["runs_same_suit_gap"] == 2 and RuleSet.from_dict(r.to_dict()) == r
    assert RuleSet().with_options(runs_same_suit_gap="none").runs_same_suit_gap is None


# ---------------------------------------------------------------- progression (R41, R48)
LEVELS = "2S/10,1S1R/11,2R/12"
STOCK = "4C 5C 6C 7C 8C 10C 5D 6D 8D 10D"


def levels_at_play(preset: str, levels: list[int], hand: str, **kwargs: Any) -> Game:
    """Seat 0 to play, each seat at ``levels`` (0-based), under ``progression="player"``."""
    r = rules(preset, progression="player", schedule=parse_schedule(LEVELS))
    kwargs.setdefault("stock", STOCK)
    game: Game = position(r, hands=(hand, *OTHERS), current=0, phase="play", levels=levels, **kwargs)
    return game


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_each_seat_plays_its_own_levels_contract(preset: str) -> None:
    game = levels_at_play(preset, [1, 0, 0, 0], "7H 7S 7D 3S 4S 5S 6S KS")
    assert game.view(0)["contract"]["text"] == "1 set + 1 run" and game.view(0)["levels"] == [2, 1, 1, 1]
    assert game.view(1)["contract"]["text"] == "2 sets" and game.view(1)["levels"] == [2, 1, 1, 1]
    assert ("run", tuple(cards("3S 4S 5S 6S"))) in melds(game)
    apply_all(game, run("3S 4S 5S 6S"), a_set("7H 7S 7D"))
    assert game.down[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_a_meld_of_another_level_is_refused(preset: str) -> None:
    game = levels_at_play(preset, [0, 1, 1, 1], "7H 7S 7D 3S 4S 5S 6S KS")
    assert ("run", tuple(cards("3S 4S 5S 6S"))) not in melds(game)
    assert_refused(game, run("3S 4S 5S 6S"), "no more runs")


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_going_down_moves_on_and_each_is_dealt_their_levels_cards(preset: str) -> None:
    game = levels_at_play(preset, [0, 0, 0, 0], "7H 7S 7D 9C 9D 9H KS")
    apply_all(game, a_set("7H 7S 7D"), a_set("9C 9D 9H"))
    apply_all(game, Discard(0, cards("KS")[0]))
    assert game.deal == 2 and not game.is_over
    assert game.levels == [1, 0, 0, 0]
    assert [e for e in game.events if e["type"] == "level"][-1]["player"] == 0
    assert [len(game.hand(p)) for p in range(4)] == [11, 10, 10, 10]  # level 2 deals 11, level 1 deals 10
    assert game.view(0)["contract"]["text"] == "1 set + 1 run" and game.view(2)["contract"]["text"] == "2 sets"


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_completing_the_last_level_ends_the_game_and_wins(preset: str) -> None:
    game = levels_at_play(preset, [2, 0, 1, 0], "3S 4S 5S 6S 8H 9H 10H JH KS", scores=[500, 0, 0, 0])
    apply_all(game, run("3S 4S 5S 6S"), run("8H 9H 10H JH"))
    apply_all(game, Discard(0, cards("KS")[0]))
    assert game.is_over
    assert game.winners == [0]  # the most levels completed wins, whatever the total
    assert game.placings == [1, 3, 2, 4]  # then the lowest total: seat 1 holds fewer points than seat 3
    assert game.view(1)["levels"] == [4, 1, 2, 1]


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_the_game_ends_after_the_most_deals(preset: str) -> None:
    r = rules(preset, progression="player", schedule=parse_schedule(LEVELS))
    assert r.max_deals == 9
    game: Game = position(
        r, hands=("7H 7S 7D 9C 9D 9H KS", *OTHERS), current=0, phase="play", deal=9, stock=STOCK, levels=[0, 1, 0, 0]
    )
    apply_all(game, a_set("7H 7S 7D"), a_set("9C 9D 9H"))
    apply_all(game, Discard(0, cards("KS")[0]))
    assert game.is_over and game.levels == [1, 1, 0, 0]
    assert set(game.winners) <= {0, 1} and game.winners


def test_r41_player_is_validated_described_and_invisible_when_off() -> None:
    with pytest.raises(ValueError, match="progression"):
        RuleSet().with_options(progression="level")
    r = RuleSet().with_options(progression="player")
    text = dict(r.describe())
    assert "Levels per player" in text["R41"] and "level 1: 2 sets" in text["R10"]
    assert RuleSet.from_dict(r.to_dict()) == r and r.to_dict()["progression"] == "player"
    assert "progression" not in RuleSet().to_dict() and "levels" not in Game.new(players=3, seed=1).view(0)


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_positions_and_copies_keep_the_levels(preset: str) -> None:
    game = levels_at_play(preset, [2, 0, 1, 0], "3S 4S 5S 6S 8H 9H 10H JH KS")
    again = Game.from_position(game.position())
    assert again.levels == [2, 0, 1, 0] and again.view(0) == game.view(0)
    assert game.copy().levels == [2, 0, 1, 0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r41_player_bots_play_whole_games(preset: str) -> None:
    from liverpool.bots.arena import play_match

    r = rules(preset, progression="player", schedule=parse_schedule("2S/10,1S1R[5]/11"), turn_limit=80)
    result = play_match("greedy", "greedy", games=1, players=4, rules=r)
    assert result.games and result.games[0].decisions > 0

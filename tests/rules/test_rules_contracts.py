"""Rules R10-R16 (the contract of each deal, sets, runs, laying down all at once and once per
deal, the whole-hand last deal, the failed lay-down penalty) in both presets."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import (
    CONTRACT,
    LIVERPOOL,
    PRESETS,
    assert_conserved,
    assert_refused,
    build,
    card,
    cards,
    events_of,
    listed,
    meld,
    play,
    rules,
)
from liverpool import Discard, EndTurn, LayOff, Meld, Retract, RuleSet

# ----------------------------------------------------------------------------------------- R10

CONTRACTS = [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]

# a hand meeting each deal's contract with melds of the least length, plus one card (KD) to discard
DEAL_MELDS: dict[int, list[tuple[str, str]]] = {
    1: [("set", "3H 3S 3D"), ("set", "8C 8H 8S")],
    2: [("set", "3H 3S 3D"), ("run", "5C 6C 7C 8C")],
    3: [("run", "5C 6C 7C 8C"), ("run", "9H 10H JH QH")],
    4: [("set", "3H 3S 3D"), ("set", "8C 8H 8S"), ("set", "JS JH JD")],
    5: [("set", "3H 3S 3D"), ("set", "8C 8H 8S"), ("run", "4D 5D 6D 7D")],
    6: [("set", "3H 3S 3D"), ("run", "5C 6C 7C 8C"), ("run", "9H 10H JH QH")],
}


@pytest.mark.parametrize("preset", PRESETS)
def test_r10_contract_of_each_deal(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    assert [(c.sets, c.runs) for c in rule_set.schedule] == CONTRACTS
    assert [c.whole_hand for c in rule_set.schedule] == [False] * 6 + [True]
    # the least cards that meet each contract with this preset's smallest set and run
    least = [c.sets * rule_set.set_min + c.runs * rule_set.run_min for c in rule_set.schedule]
    if preset == "liverpool":
        assert least == [6, 7, 8, 9, 10, 11, 12]
    for deal, (sets, runs) in enumerate(CONTRACTS, 1):
        game = build(rule_set, ["KD", "2C", "2S"], deal=deal)
        shown = game.view(1)["contract"]
        assert (shown["sets"], shown["runs"]) == (sets, runs)
        assert game.contract.sets == sets and game.contract.runs == runs


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("deal", range(1, 7))
def test_r10_laying_each_deals_contract_goes_down(preset: str, deal: int) -> None:
    melds = DEAL_MELDS[deal]
    hand = " ".join(text for _, text in melds) + " KD"
    game = build(RuleSet.preset(preset), [hand, "2C", "2S"], deal=deal)
    for i, (kind, text) in enumerate(melds):
        assert game.melds == [], "nothing reaches the table before the contract is complete (R14)"
        assert not game.view(0)["down"][0]
        assert len(game.staged()) == i
        play(game, meld(0, kind, text))
    assert game.view(0)["down"][0]
    assert [(m.owner, m.kind, list(m.cards)) for m in game.melds] == [(0, k, cards(t)) for k, t in melds]
    assert game.hand(0) == cards("KD")
    assert_conserved(game)
    play(game, Discard(0, card("KD")))


@pytest.mark.parametrize("preset", PRESETS)
def test_r10_a_meld_the_contract_does_not_ask_for_is_refused(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    # deal 1 (two sets) takes no run, deal 3 (two runs) no set
    game = build(rule_set, ["9S 10S JS QS 3H 3S 3D 8C 8H 8S KD", "2C", "2S"], deal=1)
    assert_refused(game, meld(0, "run", "9S 10S JS QS"), "2 sets", "no more runs")
    game = build(rule_set, ["QS QH QD 5C 6C 7C 8C 9H 10H JH KH KD", "2C", "2S"], deal=3)
    assert_refused(game, meld(0, "set", "QS QH QD"), "2 runs", "no more sets")
    # deal 2 (one set, one run): a second set is refused once the set is laid
    game = build(rule_set, ["3H 3S 3D 8C 8H 8S 7D 8D 9D 10D KD", "2C", "2S"], deal=2)
    play(game, meld(0, "set", "3H 3S 3D"))
    assert_refused(game, meld(0, "set", "8C 8H 8S"), "1 set + 1 run", "no more sets")
    play(game, meld(0, "run", "7D 8D 9D 10D") if preset == "liverpool" else meld(0, "run", "8D 9D 10D"))
    assert game.view(0)["down"][0]


# ----------------------------------------------------------------------------------------- R11


def test_r11_liverpool_set_of_three_or_more_any_suits() -> None:
    game = build(LIVERPOOL, ["7H 7S 7D 7C 7H 9C 9C 9D KD", "2C", "2S"], deal=1)
    play(game, meld(0, "set", "7H 7S 7D 7C 7H"), meld(0, "set", "9C 9C 9D"))
    assert [len(m.cards) for m in game.melds] == [5, 3]
    game = build(LIVERPOOL, ["7H 7S 9C 9D KD", "2C", "2S"], deal=1)
    assert_refused(game, meld(0, "set", "7H 7S"), "not a valid set", "R11")


def test_r11_liverpool_lay_off_on_a_set_of_any_size_and_suit() -> None:
    game = build(LIVERPOOL, ["7H 7C 9D", "2C", "2S"], deal=1, melds=[(0, "set", "7H 7S 7D 7C"), (1, "set", "8H 8S 8D")])
    play(game, LayOff(0, card("7H"), 0), LayOff(0, card("7C"), 0))
    assert len(game.melds[0].cards) == 6


def test_r11_contract_set_is_three_or_four() -> None:
    game = build(CONTRACT, ["7H 7S 7D 7C JK 9C 9H 9D KD", "2C", "2S"], deal=1)
    assert_refused(game, meld(0, "set", "7H 7S 7D 7C JK"), "not a valid set", "R11")
    play(game, meld(0, "set", "7H 7S 7D 7C"), meld(0, "set", "9C 9H 9D"))
    assert [len(m.cards) for m in game.melds] == [4, 3]


def test_r11_contract_set_with_several_packs_no_two_of_one_suit() -> None:
    # five players: two packs, so two 5D exist
    hands = ["5D 5D 5H 5S 9C 9H 9D KD", "2C", "2S", "3C", "3S"]
    game = build(CONTRACT, hands, deal=1)
    assert_refused(game, meld(0, "set", "5D 5D 5H"), "not a valid set", "R11")
    play(game, meld(0, "set", "5D 5H 5S"), meld(0, "set", "9C 9H 9D"))


def test_r11_contract_lay_off_respects_max_four_and_distinct_suits() -> None:
    hands = ["7H 7C 8C JK KD", "2C", "2S", "3C", "3S"]
    table = [(0, "set", "7H 7S 7D"), (1, "set", "8H 8S 8D 8C")]
    game = build(CONTRACT, hands, deal=1, melds=table)
    assert_refused(game, LayOff(0, card("7H"), 0), "does not fit")  # a second 7H
    assert_refused(game, LayOff(0, card("8C"), 1), "does not fit")  # a fifth card
    assert_refused(game, LayOff(0, card("JK"), 1), "does not fit")  # not even a joker
    play(game, LayOff(0, card("7C"), 0))
    assert_refused(game, LayOff(0, card("JK"), 0), "does not fit")  # 7H 7S 7D 7C is full


@pytest.mark.parametrize("preset", PRESETS)
def test_r11_two_sets_of_one_contract_may_share_a_rank(preset: str) -> None:
    hands = ["7H 7S 7D 7C 7H 7S KD", "2C", "2S", "3C", "3S"]  # five players: two packs in both presets
    game = build(RuleSet.preset(preset), hands, deal=1)
    play(game, meld(0, "set", "7H 7S 7D"), meld(0, "set", "7C 7H 7S"))
    assert game.view(0)["down"][0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r11_option_sets_distinct_ranks(preset: str) -> None:
    hands = ["7H 7S 7D 7C 7H 7S 9H 9S 9D KD", "2C", "2S", "3C", "3S"]
    game = build(rules(preset, sets_distinct_ranks=True), hands, deal=1)
    play(game, meld(0, "set", "7H 7S 7D"))
    assert_refused(game, meld(0, "set", "7C 7H 7S"), "differ in rank", "sets_distinct_ranks")
    play(game, meld(0, "set", "9H 9S 9D"))


# ----------------------------------------------------------------------------------------- R12


def test_r12_liverpool_run_is_four_or_more() -> None:
    game = build(LIVERPOOL, ["3H 3S 3D 5C 6C 7C 8C 9C KD", "2C", "2S"], deal=2)
    assert_refused(game, meld(0, "run", "5C 6C 7C"), "not a valid run", "R12")
    play(game, meld(0, "run", "5C 6C 7C 8C 9C"), meld(0, "set", "3H 3S 3D"))
    assert len(game.melds[0].cards) == 5


def test_r12_contract_run_is_three_or_more() -> None:
    game = build(CONTRACT, ["3H 3S 3D 5C 6C 7C KD", "2C", "2S"], deal=2)
    assert_refused(game, meld(0, "run", "5C 6C"), "not a valid run", "R12")
    play(game, meld(0, "run", "5C 6C 7C"), meld(0, "set", "3H 3S 3D"))
    assert game.view(0)["down"][0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r12_run_is_of_one_suit_and_consecutive(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["3H 3S 3D 5C 6C 7D 8C 7C KD", "2C", "2S"], deal=2)
    assert_refused(game, meld(0, "run", "5C 6C 7D 8C"), "not a valid run")
    assert_refused(game, meld(0, "run", "5C 6C 8C 7C"), "not a valid run")  # table order


# ----------------------------------------------------------------------------------------- R13


def test_r13_liverpool_runs_of_one_contract_may_share_a_suit() -> None:
    game = build(LIVERPOOL, ["2H 3H 4H 5H 9H 10H JH QH KD", "2C", "2S"], deal=3)
    play(game, meld(0, "run", "2H 3H 4H 5H"), meld(0, "run", "9H 10H JH QH"))
    assert game.view(0)["down"][0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r13_distinct_suits_refuses_a_second_run_of_one_suit(preset: str) -> None:
    rule_set = CONTRACT if preset == "contract" else rules(runs_distinct_suits=True)
    game = build(rule_set, ["2H 3H 4H 5H 9H 10H JH QH 4S 5S 6S 7S KD", "2C", "2S"], deal=3)
    play(game, meld(0, "run", "2H 3H 4H 5H"))
    assert_refused(game, meld(0, "run", "9H 10H JH QH"), "differ in suit", "R13")
    play(game, meld(0, "run", "4S 5S 6S 7S"))
    assert game.view(0)["down"][0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r13_distinct_suits_refuses_a_lay_down_that_needs_one_suit_twice(preset: str) -> None:
    rule_set = CONTRACT if preset == "contract" else rules(runs_distinct_suits=True)
    game = build(rule_set, ["2H 3H 4H 5H 9H 10H JH QH KD", "2C", "2S"], deal=3)
    assert_refused(game, meld(0, "run", "2H 3H 4H 5H"), "could not lay the rest")
    assert not [a for a in game.legal_actions() if isinstance(a, Meld)]


# ----------------------------------------------------------------------------------------- R14


@pytest.mark.parametrize("preset", PRESETS)
def test_r14_staged_melds_take_effect_only_when_the_contract_is_complete(preset: str) -> None:
    game = build(
        RuleSet.preset(preset), ["3H 3S 3D 8C 8H 8S 9C KD", "2C", "2S"], deal=1, melds=[(1, "set", "QH QS QD")]
    )
    play(game, meld(0, "set", "3H 3S 3D"))
    assert len(game.melds) == 1  # only player 1's set is on the table
    for p in range(3):
        view = game.view(p)
        assert view["staged"] == [{"kind": "set", "cards": ["3H", "3S", "3D"]}]  # staged melds are public
        assert view["down"] == [False, True, False]
        assert view["hand_sizes"][0] == 5
    assert_conserved(game)
    assert_refused(game, Discard(0, card("KD")), "finish laying down")
    assert_refused(game, EndTurn(0), "finish")
    assert_refused(game, LayOff(0, card("9C"), 0), "lay down your contract before laying off")
    play(game, meld(0, "set", "8C 8H 8S"))
    assert game.view(2)["down"] == [True, True, False]
    assert game.view(2)["staged"] == []
    assert [m.owner for m in game.melds] == [1, 0, 0]
    assert events_of(game, "down")
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r14_a_lay_down_that_cannot_be_completed_is_refused(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["3H 3S 3D 8C 8H 9S KD", "2C", "2S"], deal=1)
    assert not [a for a in game.legal_actions() if isinstance(a, Meld)]
    assert_refused(game, meld(0, "set", "3H 3S 3D"), "could not lay the rest of the contract")
    assert_refused(game, meld(0, "set", "3H 3S 4D"), "not a valid set")
    assert_refused(game, meld(0, "set", "5H 5S 5D"), "do not hold")


@pytest.mark.parametrize("preset", PRESETS)
def test_r14_only_once_per_deal(preset: str) -> None:
    hand = "3H 3S 3D 8C 8H 8S QH QS QD KD"
    game = build(RuleSet.preset(preset), [hand, "2C", "2S"], deal=1)
    play(game, meld(0, "set", "3H 3S 3D"), meld(0, "set", "8C 8H 8S"))
    assert_refused(game, meld(0, "set", "QH QS QD"), "already down", "R14")
    # and in a later turn
    game = build(RuleSet.preset(preset), ["QH QS QD KD", "2C", "2S"], deal=1, melds=[(0, "set", "3H 3S 3D")])
    assert_refused(game, meld(0, "set", "QH QS QD"), "already down", "R14")
    assert not [a for a in game.legal_actions() if isinstance(a, Meld)]


@pytest.mark.parametrize("preset", PRESETS)
def test_r14_only_the_player_whose_turn_it_is_lays_down(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["KD", "3H 3S 3D 8C 8H 8S 9C", "2S"], deal=1)
    assert_refused(game, meld(1, "set", "3H 3S 3D"), "seat 0's turn")


# ----------------------------------------------------------------------------------------- R15

WHOLE_HAND = {
    "liverpool": [("3H 4H 5H 6H"), ("7S 8S 9S 10S"), ("2D 3D 4D 5D 6D")],
    "contract": [("3H 4H 5H"), ("7S 8S 9S 10S"), ("2D 3D 4D 5D 6D 7D")],
}


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_last_deal_whole_hand_of_13_goes_down_at_once_without_discard(preset: str) -> None:
    runs = WHOLE_HAND[preset]
    hand = " ".join(runs)
    assert len(cards(hand)) == 13  # 12 dealt + 1 drawn
    game = build(RuleSet.preset(preset), [hand, "KC QC", "AC"], deal=7)
    assert game.contract.whole_hand
    for run in runs[:2]:
        play(game, meld(0, "run", run))
        assert game.melds == []
        assert game.phase == "play"
    play(game, meld(0, "run", runs[2]))  # the last card melded ends the deal (and this last deal the game)
    assert game.is_over
    assert game.view(1)["deal_scores"][-1][0] == 0
    assert game.view(1)["deal_scores"][-1][1] > 0
    assert game.winners == [0]
    assert not events_of(game, "discard")
    (end,) = events_of(game, "deal_end")
    assert end["out"] == 0


@pytest.mark.parametrize("preset", PRESETS)
def test_r15_last_deal_refuses_a_lay_down_that_leaves_a_card(preset: str) -> None:
    runs = WHOLE_HAND[preset]
    hand = " ".join(runs).replace("2D", "KC")  # KC fits no run: the hand cannot all go down
    game = build(RuleSet.preset(preset), [hand, "QC", "AC"], deal=7)
    assert not [a for a in game.legal_actions() if isinstance(a, Meld)]
    assert_refused(game, meld(0, "run", runs[0]), "every card of your hand")
    # a discard is still allowed: the player just does not go down this turn
    play(game, Discard(0, card("KC")))
    assert game.current == 1


@pytest.mark.parametrize(
    ("preset", "runs"),
    [
        ("liverpool", ["AH 2H 3H 4H 5H", "7S 8S 9S 10S", "JC QC KC AC"]),
        ("contract", ["AH 2H 3H 4H 5H 6H 7H", "7S 8S 9S", "QC KC AC"]),
    ],
)
def test_r15_last_deal_melds_may_be_longer_than_the_minimum(preset: str, runs: list[str]) -> None:
    game = build(RuleSet.preset(preset), [" ".join(runs), "QD", "AD"], deal=7)
    play(game, *(meld(0, "run", r) for r in runs))
    assert game.is_over
    assert [len(m.cards) for m in game.melds] == [len(cards(r)) for r in runs]


def test_r15_exact_melds_option_does_not_apply_to_the_whole_hand_deal() -> None:
    runs = WHOLE_HAND["liverpool"]
    game = build(rules(exact_melds=True), [" ".join(runs), "QC", "AC"], deal=7)
    play(game, *(meld(0, "run", r) for r in runs))
    assert game.is_over


# ----------------------------------------------------------------------------------------- R16


@pytest.mark.parametrize("preset", PRESETS)
def test_r16_no_penalty_by_default_and_no_retract(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    assert rule_set.failed_meld_penalty == 0
    game = build(rule_set, ["3H 3S 3D 8C 8H 8S KD", "2C", "2S"], deal=1)
    assert_refused(game, Retract(0), "R16")
    play(game, meld(0, "set", "3H 3S 3D"))
    assert_refused(game, Retract(0), "R16")


@pytest.mark.parametrize("preset", PRESETS)
def test_r16_failed_meld_penalty_option_retract_costs_50(preset: str) -> None:
    rule_set = rules(preset, failed_meld_penalty=50)
    game = build(rule_set, ["3H 3S 3D 8C 8H 9S KD", "2C", "2S"], deal=1, scores=[7, 0, 0])
    before = Counter(game.hand(0))
    # with the penalty on, a lay-down that cannot be completed may be begun
    assert listed(game, meld(0, "set", "3H 3S 3D"))
    play(game, meld(0, "set", "3H 3S 3D"))
    assert game.melds == []
    assert Retract(0) in game.legal_actions()
    assert_refused(game, Discard(0, card("KD")), "finish laying down", "take it back")
    assert_refused(game, EndTurn(0), "finish")
    play(game, Retract(0))
    assert Counter(game.hand(0)) == before
    assert game.scores == [57, 0, 0]
    assert game.view(1)["staged"] == []
    assert events_of(game, "retract")[0]["penalty"] == 50
    assert_conserved(game)
    assert_refused(game, meld(0, "set", "3H 3S 3D"), "R16")
    play(game, Discard(0, card("KD")))
    assert game.current == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_r16_failed_meld_penalty_option_a_completed_lay_down_costs_nothing(preset: str) -> None:
    game = build(rules(preset, failed_meld_penalty=50), ["3H 3S 3D 8C 8H 8S KD", "2C", "2S"], deal=1)
    play(game, meld(0, "set", "3H 3S 3D"), meld(0, "set", "8C 8H 8S"))
    assert game.view(0)["down"][0]
    assert game.scores == [0, 0, 0]
    assert_refused(game, Retract(0), "not begun")

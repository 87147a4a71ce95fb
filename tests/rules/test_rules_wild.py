"""Rules R17-R21 (jokers in runs and sets, natural cards a meld needs, joker spacing, the joker
swap and its modes, dead jokers in sets) and the wild_rank option, in both presets."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import (
    LIVERPOOL,
    PRESETS,
    assert_conserved,
    assert_refused,
    build,
    card,
    cards,
    meld,
    play,
    rules,
)
from liverpool import Discard, EndTurn, Game, LayOff, Meld, RuleSet, SwapJoker, Unswap
from liverpool.melds import is_valid_run

# five players: two packs in both presets, so two jokers even in `contract`
FIVE = ["2C", "2D", "3C", "3D"]

# ----------------------------------------------------------------------------------------- R17


@pytest.mark.parametrize("preset", PRESETS)
def test_r17_joker_in_a_run_stands_for_the_card_of_its_place(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["3H 3S 3D 5H 6H JK 8H 4H 9H 7H", "2C", "2S"], deal=2)
    play(game, meld(0, "run", "5H 6H JK 8H"), meld(0, "set", "3H 3S 3D"))
    (run,) = [m for m in game.view(0)["melds"] if m["kind"] == "run"]
    assert run["cards"] == ["5H", "6H", "JK", "8H"]
    assert run["start"] == 5
    run_id = run["id"]
    assert_refused(game, LayOff(0, card("7H"), run_id, high=True), "does not fit")  # the joker is the 7H
    play(game, LayOff(0, card("4H"), run_id, high=False), LayOff(0, card("9H"), run_id, high=True))
    assert [str(c) for c in game.melds[run_id].cards] == ["4H", "5H", "6H", "JK", "8H", "9H"]
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("run", "fits", "blocked"),
    [
        ("JK 6H 7H 8H", LayOff(0, card("4H"), 0, high=False), LayOff(0, card("5H"), 0, high=False)),
        ("6H 7H 8H JK", LayOff(0, card("10H"), 0, high=True), LayOff(0, card("9H"), 0, high=True)),
        ("JK 2H 3H 4H", LayOff(0, card("5H"), 0, high=True), LayOff(0, card("AH"), 0, high=False)),
        ("JH QH KH JK", LayOff(0, card("10H"), 0, high=False), LayOff(0, card("AH"), 0, high=True)),
    ],
    ids=["low-end", "high-end", "low-ace", "high-ace"],
)
def test_r17_joker_at_either_end_of_a_run(preset: str, run: str, fits: LayOff, blocked: LayOff) -> None:
    hand = f"{fits.card} {blocked.card} KD"
    game = build(RuleSet.preset(preset), [hand, "2C", "2S"], deal=3, melds=[(1, "run", run), (0, "run", "5S 6S 7S 8S")])
    assert_refused(game, blocked, "does not fit")
    play(game, fits)


@pytest.mark.parametrize("preset", PRESETS)
def test_r17_the_player_places_the_joker_by_the_order_of_the_run(preset: str) -> None:
    hand = "5H 6H 7H JK 2S 3S 4S 5S KD"
    game = build(RuleSet.preset(preset), [hand, "2C", "2D"], deal=3)
    assert_refused(game, meld(0, "run", "5H JK 6H 7H"), "not a valid run in table order")
    play(game, meld(0, "run", "JK 5H 6H 7H"), meld(0, "run", "2S 3S 4S 5S"))
    assert game.view(0)["melds"][0]["start"] == 4  # the joker is the 4H
    game = build(RuleSet.preset(preset), [hand, "2C", "2D"], deal=3)
    play(game, meld(0, "run", "5H 6H 7H JK"), meld(0, "run", "2S 3S 4S 5S"))
    assert game.view(0)["melds"][0]["start"] == 5  # the joker is the 8H


@pytest.mark.parametrize("preset", PRESETS)
def test_r17_joker_keeps_its_card_when_the_run_grows(preset: str) -> None:
    rule_set = rules(preset, joker_swap="once_down")
    table = [(1, "run", "5H 6H JK 8H"), (0, "set", "9S 9D 9C")]
    game = build(rule_set, ["4H 7H KD", "2C", "2S"], deal=1, melds=table)
    play(game, LayOff(0, card("4H"), 0, high=False))
    assert game.view(0)["melds"][0]["start"] == 4
    assert_refused(game, SwapJoker(0, 0, 2, card("7H")), "no joker at place 2")
    play(game, SwapJoker(0, 0, 3, card("7H")))  # still the 7H, one place further along
    assert [str(c) for c in game.melds[0].cards] == ["4H", "5H", "6H", "7H", "8H"]


# ----------------------------------------------------------------------------------------- R18


@pytest.mark.parametrize("preset", PRESETS)
def test_r18_set_needs_two_natural_cards(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["7H JK JK 9S 9D 9C KD", *FIVE], deal=1)
    assert_refused(game, meld(0, "set", "7H JK JK"), "not a valid set", "R18")
    game = build(RuleSet.preset(preset), ["7H 7C JK 9S 9D 9C KD", *FIVE], deal=1)
    play(game, meld(0, "set", "7H 7C JK"), meld(0, "set", "9S 9D 9C"))
    assert game.view(0)["down"][0]


def test_r18_jokers_laid_off_on_a_set_keep_it_valid() -> None:
    game = build(LIVERPOOL, ["JK JK KD", "2C", "2S"], deal=1, melds=[(0, "set", "7H 7C JK"), (1, "set", "8H 8S 8D")])
    play(game, LayOff(0, card("JK"), 0), LayOff(0, card("JK"), 0))
    assert [str(c) for c in game.melds[0].cards] == ["7H", "7C", "JK", "JK", "JK"]


def test_r18_option_set_min_naturals() -> None:
    game = build(rules(set_min_naturals=1), ["7H JK JK 9S 9D 9C KD", "2C", "2S"], deal=1)
    play(game, meld(0, "set", "7H JK JK"), meld(0, "set", "9S 9D 9C"))
    assert game.view(0)["down"][0]


# ----------------------------------------------------------------------------------------- R19


@pytest.mark.parametrize("preset", PRESETS)
def test_r19_two_jokers_need_four_places_apart(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["JK 5H 6H 7H JK 2S 3S 4S 5S KD", *FIVE], deal=3)
    play(game, meld(0, "run", "JK 5H 6H 7H JK"), meld(0, "run", "2S 3S 4S 5S"))
    assert game.view(0)["down"][0]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("run", ["5H JK 7H JK 9H", "JK 5H 6H JK 8H", "JK JK 6H 7H", "5H 6H 7H 8H JK 10H JK"])
def test_r19_two_jokers_closer_than_four_places_are_refused(preset: str, run: str) -> None:
    hand = "5H 6H 7H 8H 9H 10H JK JK 2S 3S 4S 5S KD"
    for rule_set in (RuleSet.preset(preset), rules(preset, run_joker_check="initial")):
        game = build(rule_set, [hand, *FIVE], deal=3)
        assert_refused(game, meld(0, "run", run), "not a valid run", "R19")


def test_r19_contract_three_card_run_holds_one_joker_at_most() -> None:
    rule_set = RuleSet.preset("contract")
    game = build(rule_set, ["5H JK JK 7H 2S 3S 4S KD", *FIVE], deal=3)
    assert_refused(game, meld(0, "run", "JK 5H JK"), "R19")
    play(game, meld(0, "run", "5H JK 7H"), meld(0, "run", "2S 3S 4S"))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("run", "high", "ok"),
    [
        ("5H JK 7H 8H", True, False),  # jokers 3 places apart
        ("5H JK 7H 8H", False, False),  # jokers next to each other
        ("5H 6H 7H JK", False, True),  # jokers 4 places apart
        ("JK 6H 7H 8H 9H", True, True),
    ],
)
def test_r19_laying_off_a_joker_keeps_four_places_between_jokers(preset: str, run: str, high: bool, ok: bool) -> None:
    table = [(1, "run", run), (0, "run", "2S 3S 4S 5S")]
    for check in ("always", "initial"):
        game = build(rules(preset, run_joker_check=check), ["JK KD", *FIVE], deal=3, melds=table)
        action = LayOff(0, card("JK"), 0, high=high)
        if ok or check == "initial":  # "initial": only the melds as first laid are checked
            play(game, action)
            assert len(game.melds[0].cards) == len(cards(run)) + 1
        else:
            assert_refused(game, action, "does not fit")


# ----------------------------------------------------------------------------------------- R20

MODES = ("going_down_turn", "once_down", "later_turns", "off")
TABLE = [(1, "run", "5H 6H JK 8H"), (1, "set", "QC QD QS")]
OWN = [(0, "set", "3S 3D 3C"), (0, "set", "9S 9D 9C")]
SWAP = SwapJoker(0, 0, 2, card("7H"))


def _down_earlier(rule_set: RuleSet, hand: str = "7H KC", players: int = 3) -> Game:
    others = ["2C", "2D", "4C", "4D"][: players - 1]
    return build(rule_set, [hand, *others], deal=1, melds=TABLE + OWN)


def _swaps(game: Game) -> list[SwapJoker]:
    return [a for a in game.legal_actions() if isinstance(a, SwapJoker)]


def test_r20_default_modes_of_the_presets() -> None:
    assert RuleSet.preset("liverpool").joker_swap == "going_down_turn"
    assert RuleSet.preset("contract").joker_swap == "later_turns"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("mode", MODES)
def test_r20_swap_in_the_turn_before_laying_down(preset: str, mode: str) -> None:
    game = build(rules(preset, joker_swap=mode), ["7H 9S 9D 3S 3D 3C KC", "2C", "2D"], deal=1, melds=TABLE)
    assert not [a for a in game.legal_actions() if isinstance(a, Meld)]  # not without the joker
    if mode != "going_down_turn":
        assert_refused(game, SWAP, "R20", "joker_swap")
        assert not _swaps(game)
        return
    play(game, SWAP)
    assert game.hand(0).count(card("JK")) == 1
    assert_refused(game, Discard(0, card("KC")), "R20")
    play(game, meld(0, "set", "9S 9D JK"), meld(0, "set", "3S 3D 3C"))
    assert [str(c) for c in game.melds[0].cards] == ["5H", "6H", "7H", "8H"]
    play(game, Discard(0, card("KC")))
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("mode", MODES)
def test_r20_swap_in_a_turn_after_going_down(preset: str, mode: str) -> None:
    game = _down_earlier(rules(preset, joker_swap=mode))
    if mode not in ("once_down", "later_turns"):
        assert_refused(game, SWAP, "R20", "joker_swap")
        assert not _swaps(game)
        return
    play(game, SWAP)
    assert [str(c) for c in game.melds[0].cards] == ["5H", "6H", "7H", "8H"]
    assert Counter(game.hand(0)) == Counter(cards("JK KC"))
    assert_refused(game, Discard(0, card("KC")), "joker", "R20")
    assert_refused(game, Discard(0, card("JK")), "joker", "R20")  # discarding it is not playing it
    assert_refused(game, EndTurn(0), "finish")
    play(game, LayOff(0, card("JK"), 2))
    play(game, Discard(0, card("KC")))
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("mode", MODES)
def test_r20_swap_in_the_turn_of_going_down_after_laying_down(preset: str, mode: str) -> None:
    hand = "7H 9S 9D 9C 3S 3D 3C KC KD"
    game = build(rules(preset, joker_swap=mode), [hand, "2C", "2D"], deal=1, melds=TABLE)
    play(game, meld(0, "set", "3S 3D 3C"), meld(0, "set", "9S 9D 9C"))
    assert game.view(0)["down"][0]
    if mode not in ("going_down_turn", "once_down"):
        assert_refused(game, SWAP, "R20", "joker_swap")
        return
    play(game, SWAP, LayOff(0, card("JK"), 3), Discard(0, card("KC")))
    assert [str(c) for c in game.melds[3].cards] == ["9S", "9D", "9C", "JK"]


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_a_swap_must_name_the_card_the_joker_stands_for(preset: str) -> None:
    game = _down_earlier(rules(preset, joker_swap="once_down"), hand="7H 9H KC")
    assert_refused(game, SwapJoker(0, 0, 2, card("9H")), "stands for 7H")
    assert_refused(game, SwapJoker(0, 0, 1, card("7H")), "no joker at place 1")
    assert_refused(game, SwapJoker(0, 7, 2, card("7H")), "no meld 7")
    game = _down_earlier(rules(preset, joker_swap="once_down"), hand="9H KC")
    assert_refused(game, SwapJoker(0, 0, 2, card("7H")), "do not hold 7H")


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_unswap_takes_a_swap_back(preset: str) -> None:
    game = _down_earlier(rules(preset, joker_swap="once_down"))
    assert_refused(game, Unswap(0), "no joker swap")
    table = game.melds
    hand = Counter(game.hand(0))
    play(game, SWAP, Unswap(0))
    assert game.melds == table
    assert Counter(game.hand(0)) == hand
    assert_refused(game, SWAP, "already took back")
    assert not _swaps(game)
    play(game, Discard(0, card("KC")))


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_unswap_refused_once_the_joker_is_played(preset: str) -> None:
    game = _down_earlier(rules(preset, joker_swap="once_down"))
    play(game, SWAP, LayOff(0, card("JK"), 2))
    assert_refused(game, Unswap(0), "no joker swap")


def test_r20_going_down_turn_a_swap_that_leads_nowhere_must_be_taken_back() -> None:
    game = build(LIVERPOOL, ["7H 9S 3S 3D 3C KC", "2C", "2D"], deal=1, melds=TABLE)
    play(game, SWAP)
    assert not [a for a in game.legal_actions() if isinstance(a, Meld)]
    assert_refused(game, Discard(0, card("KC")), "R20")
    assert [type(a) for a in game.legal_actions(0)] == [Unswap]
    play(game, Unswap(0), Discard(0, card("KC")))


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_swapped_joker_played_when_another_joker_was_already_held(preset: str) -> None:
    # the hand held a joker before the swap: after playing one joker it holds as many as before,
    # so the swapped joker has been played and the turn may end with a discard
    game = _down_earlier(rules(preset, joker_swap="once_down"), hand="7H JK KC", players=5)
    play(game, SWAP)
    assert game.hand(0).count(card("JK")) == 2
    play(game, LayOff(0, card("JK"), 2))
    assert game.hand(0).count(card("JK")) == 1
    assert game.can_apply(Discard(0, card("KC"))), "one joker played: the swap is settled"
    play(game, Discard(0, card("KC")))


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_r19_the_swap_a_joker_laid_next_to_its_place_settles_is_that_one(preset: str) -> None:
    # two swaps, then one joker laid off next to the second swap's place: one swap is settled, and
    # it must be the second, whose joker could no longer go back (R19: two jokers within four
    # cards); the first can still be taken back. Found by random play (a hypothesis property).
    table = [(1, "run", "4D JK 6D 7D"), (1, "run", "9C 10C JK QC"), *OWN]
    for check in ("always", "initial"):
        game = build(rules(preset, joker_swap="once_down", run_joker_check=check), ["5D JC KC", *FIVE], melds=table)
        play(game, SwapJoker(0, 0, 1, card("5D")), SwapJoker(0, 1, 2, card("JC")), LayOff(0, card("JK"), 1, high=False))
        assert game.melds[1].cards == tuple(cards("JK 9C 10C JC QC"))
        assert Unswap(0) in game.legal_actions(0)
        play(game, Unswap(0))
        if check == "always":
            assert [game.melds[0].cards, game.melds[1].cards] == [
                tuple(cards("4D JK 6D 7D")),
                tuple(cards("JK 9C 10C JC QC")),
            ]
            assert sorted(map(str, game.hand(0))) == ["5D", "KC"]
        else:  # "initial": lay-offs are not checked, and the first swap was settled as before
            assert [game.melds[0].cards, game.melds[1].cards] == [
                tuple(cards("4D 5D 6D 7D")),
                tuple(cards("JK 9C 10C JK QC")),
            ]
            assert sorted(map(str, game.hand(0))) == ["JC", "KC"]
        for m in game.melds:
            if m.kind == "run" and check == "always":
                assert is_valid_run(m.cards, game.rules)
        play(game, Discard(0, card("KC")))


# ----------------------------------------------------------------------------------------- R21


@pytest.mark.parametrize("preset", PRESETS)
def test_r21_a_joker_in_a_set_is_dead(preset: str) -> None:
    table = [(1, "set", "QC QD JK"), (0, "set", "3S 3D 3C"), (0, "set", "9S 9D 9C")]
    game = build(rules(preset, joker_swap="once_down"), ["QS KC", "2C", "2D"], deal=1, melds=table)
    assert_refused(game, SwapJoker(0, 0, 2, card("QS")), "dead", "R21")
    assert not _swaps(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r21_a_joker_laid_off_on_a_set_is_dead(preset: str) -> None:
    game = _down_earlier(rules(preset, joker_swap="once_down"), hand="7H 3H KC")
    play(game, SWAP, LayOff(0, card("JK"), 2))
    assert_refused(game, SwapJoker(0, 2, 3, card("3H")), "dead", "R21")


# ------------------------------------------------------------------------------- wild_rank (R46)

DEUCES = 2


@pytest.mark.parametrize("preset", PRESETS)
def test_r17_wild_rank_deuces_play_as_jokers_in_runs_and_sets(preset: str) -> None:
    rule_set = rules(preset, wild_rank=DEUCES)
    game = build(rule_set, ["5H 6H 2C 8H 9S 9C 2D KD", "3C", "3D"], deal=2)
    play(game, meld(0, "run", "5H 6H 2C 8H"), meld(0, "set", "9S 9C 2D"))
    assert game.view(0)["down"][0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r18_wild_rank_a_set_of_deuces_has_no_natural_card(preset: str) -> None:
    game = build(rules(preset, wild_rank=DEUCES), ["2H 2C 2D 9S 9C 9D KD", "3C", "3D"], deal=1)
    assert_refused(game, meld(0, "set", "2H 2C 2D"), "not a valid set")


@pytest.mark.parametrize("preset", PRESETS)
def test_r19_wild_rank_deuces_count_as_jokers_for_spacing(preset: str) -> None:
    game = build(rules(preset, wild_rank=DEUCES), ["5H 2C 7H 2D 9H 4S 5S 6S 7S KD", "3C", "3D"], deal=3)
    assert_refused(game, meld(0, "run", "5H 2C 7H 2D 9H"), "R19")


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_r21_wild_rank_deuce_swaps_in_runs_and_is_dead_in_sets(preset: str) -> None:
    table = [(1, "run", "5H 6H 2C 8H"), (1, "set", "QC QD 2D"), (0, "set", "3S 3D 3C"), (0, "set", "9S 9D 9C")]
    game = build(rules(preset, wild_rank=DEUCES, joker_swap="once_down"), ["7H QS KC", "4C", "4D"], deal=1, melds=table)
    assert_refused(game, SwapJoker(0, 1, 2, card("QS")), "dead", "R21")
    play(game, SwapJoker(0, 0, 2, card("7H")))
    assert card("2C") in game.hand(0)
    assert_refused(game, Discard(0, card("KC")), "R20")
    play(game, LayOff(0, card("2C"), 2), Discard(0, card("KC")))


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_wild_rank_a_wild_card_standing_for_a_deuce_cannot_be_swapped(preset: str) -> None:
    # with deuces wild the 2H the joker stands for is itself wild: there is no natural to swap
    # (found by random play: deuces swapped for deuces, back and forth, without end)
    table = [(1, "run", "AH JK 3H 4H"), (1, "run", "5H 6H 2C 8H"), *OWN]
    game = build(rules(preset, wild_rank=DEUCES, joker_swap="once_down"), ["2H 7H KC", *FIVE], melds=table)
    assert_refused(game, SwapJoker(0, 0, 1, card("2H")), "stands for 2H, itself a wild card", "R20")
    assert _swaps(game) == [SwapJoker(0, 1, 2, card("7H"))]


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_wild_rank_playing_the_joker_settles_its_own_swap_not_a_deuces(preset: str) -> None:
    # two swaps took a deuce and a joker; the joker is laid off. Wild cards of one kind are alike,
    # but a joker is not a deuce: the joker's swap is the one settled, and the deuce's can still be
    # taken back. (Settling the deuce's left a swap whose joker was gone: no legal action.)
    table = [(1, "run", "7S 2C 9S 10S"), (1, "run", "10H JH JK KH"), *OWN]
    game = build(rules(preset, wild_rank=DEUCES, joker_swap="once_down"), ["8S QH KC", *FIVE], melds=table)
    play(game, SwapJoker(0, 0, 1, card("8S")), SwapJoker(0, 1, 2, card("QH")), LayOff(0, card("JK"), 2))
    assert game.melds[2].cards == tuple(cards("3S 3D 3C JK"))
    assert_refused(game, Discard(0, card("KC")), "R20")
    assert Unswap(0) in game.legal_actions()
    play(game, Unswap(0))
    assert game.melds[0].cards == tuple(cards("7S 2C 9S 10S"))
    assert sorted(map(str, game.hand(0))) == ["8S", "KC"]
    play(game, Discard(0, card("KC")))


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_r19_a_wild_card_may_not_block_the_way_back_of_another_swap(preset: str) -> None:
    # the deuce swapped out of 7S 2C 9S 10S must be able to go back (or be played): a joker laid
    # off next to its place would leave it neither, and the turn no legal action
    table = [(1, "run", "7S 2C 9S 10S"), (1, "run", "10H JH JK KH"), *OWN]
    game = build(rules(preset, wild_rank=DEUCES, joker_swap="once_down"), ["8S QH KC", *FIVE], melds=table)
    play(game, SwapJoker(0, 0, 1, card("8S")), SwapJoker(0, 1, 2, card("QH")))
    for high in (True, False):
        blocked = LayOff(0, card("JK"), 0, high=high)
        assert_refused(game, blocked, "no place for a wild card you swapped this turn to go back to", "R19", "R20")
        assert blocked not in game.legal_actions()
    play(game, LayOff(0, card("JK"), 1, high=False), Unswap(0), Discard(0, card("KC")))
    assert game.melds[0].cards == tuple(cards("7S 2C 9S 10S"))


def test_r20_liverpool_swap_before_laying_down_with_a_joker_already_held() -> None:
    # default rules (going_down_turn): the hand held a joker, swapped a second one out of a run and
    # laid one joker in its contract; it now holds as many jokers as before the swap
    game = build(LIVERPOOL, ["7H JK 9S 9D 3S 3D 3C KC QD", "2C", "2D"], deal=1, melds=TABLE)
    play(game, SWAP, meld(0, "set", "9S 9D JK"), meld(0, "set", "3S 3D 3C"))
    assert game.view(0)["down"][0]
    assert game.hand(0).count(card("JK")) == 1
    assert game.can_apply(Discard(0, card("KC"))), "one joker played: the swap is settled"
    play(game, Discard(0, card("KC")))

"""House-rule variants of the joker swap (issue 16): ``swap_must_play`` (R20). On (the default in
both presets), a joker taken in a swap must be played the same turn, or the swap taken back; off,
it may be kept in hand and the swap is final. For each value, in both presets, a move it allows
and one it refuses."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import LIVERPOOL, PRESETS, assert_conserved, assert_refused, build, card, cards, play, rules
from liverpool import Discard, Game, RuleSet, SwapJoker, Unswap

TABLE = [(1, "run", "5H 6H JK 8H"), (1, "set", "QC QD QS"), (0, "set", "3S 3D 3C"), (0, "set", "9S 9D 9C")]
SWAP = SwapJoker(0, 0, 2, card("7H"))


def down_earlier(preset: str, **options: object) -> Game:
    """Player 0, down since an earlier turn, holds the 7H the run's joker stands for."""
    return build(rules(preset, joker_swap="once_down", **options), ["7H KC", "2C", "2D"], deal=1, melds=TABLE)


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_swapped_joker_must_be_played_by_default(preset: str) -> None:
    game = down_earlier(preset)
    assert game.rules.swap_must_play
    play(game, SWAP)
    assert_refused(game, Discard(0, card("KC")), "must play the joker", "R20")
    assert not [a for a in game.legal_actions() if isinstance(a, Discard)]
    assert Unswap(0) in game.legal_actions()


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_option_swapped_joker_may_be_kept_in_hand(preset: str) -> None:
    game = down_earlier(preset, swap_must_play=False)
    before = Counter(game.hand(0))
    play(game, SWAP)
    assert game.melds[0].cards == tuple(cards("5H 6H 7H 8H"))
    assert Counter(game.hand(0)) == before - Counter([card("7H")]) + Counter([card("JK")])
    assert_refused(game, Unswap(0), "no joker swap")  # the swap is final
    assert game.discard_options(0) == sorted({card("KC"), card("JK")})
    play(game, Discard(0, card("KC")))
    assert card("JK") in game.hand(0) and game.current == 1
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_option_a_kept_joker_may_even_be_discarded(preset: str) -> None:
    game = down_earlier(preset, swap_must_play=False)
    play(game, SWAP, Discard(0, card("JK")))
    assert game.discard_pile[-1] == card("JK")


def test_r20_option_a_player_not_down_keeps_the_joker_without_going_down() -> None:
    # going_down_turn (liverpool's mode): the swap before the lay-down; the lay-down never comes.
    table = [(1, "run", "5H 6H JK 8H"), (1, "set", "QC QD QS")]
    strict = build(LIVERPOOL, ["7H 9S 3S 3D 3C KC", "2C", "2D"], deal=1, melds=table)
    play(strict, SWAP)
    assert [type(a) for a in strict.legal_actions(0)] == [Unswap]
    kept = build(rules(swap_must_play=False), ["7H 9S 3S 3D 3C KC", "2C", "2D"], deal=1, melds=table)
    play(kept, SWAP, Discard(0, card("KC")))
    assert card("JK") in kept.hand(0)
    assert not kept.view(0)["down"][0]


def test_r20_option_is_described_and_read_from_the_command_line() -> None:
    r = RuleSet().with_options(swap_must_play="false")
    assert r.swap_must_play is False
    assert "may be kept in hand" in dict(r.describe())["R20"]
    assert "must be played the same turn" in dict(RuleSet().describe())["R20"]
    assert RuleSet.from_dict(r.to_dict()) == r
    assert "swap_must_play" not in RuleSet().to_dict()


# ------------------------------------------------------------------------------ wild_rank_swappable
DEUCE_TABLE = [
    (1, "run", "5H 6H 2C 8H"),
    (1, "run", "10S JS JK KS"),
    (0, "set", "3S 3D 3C"),
    (0, "set", "9S 9D 9C"),
]
DEUCE_SWAP = SwapJoker(0, 0, 2, card("7H"))
JOKER_SWAP = SwapJoker(0, 1, 2, card("QS"))


def deuces_wild(preset: str, **options: object) -> Game:
    r = rules(preset, wild_rank=2, joker_swap="once_down", **options)
    return build(r, ["7H QS KC", "4C", "4D"], deal=1, melds=DEUCE_TABLE)


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_r46_a_laid_deuce_is_swapped_like_a_joker_by_default(preset: str) -> None:
    game = deuces_wild(preset)
    assert game.rules.wild_rank_swappable
    assert {DEUCE_SWAP, JOKER_SWAP} <= set(game.legal_actions())
    play(game, DEUCE_SWAP)
    assert card("2C") in game.hand(0)


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_r46_option_a_laid_deuce_is_never_swapped(preset: str) -> None:
    game = deuces_wild(preset, wild_rank_swappable=False)
    assert_refused(game, DEUCE_SWAP, "never swapped out", "wild_rank_swappable")
    swaps = [a for a in game.legal_actions() if isinstance(a, SwapJoker)]
    assert swaps == [JOKER_SWAP]  # the joker still is
    play(game, JOKER_SWAP)
    assert card("JK") in game.hand(0)


def test_r46_wild_rank_swappable_is_described() -> None:
    r = RuleSet().with_options(wild_rank="2", wild_rank_swappable="no")
    assert "never swapped out" in dict(r.describe())["R46"]
    assert "swapped out like a joker" in dict(RuleSet(wild_rank=2).describe())["R46"]
    assert RuleSet.from_dict(r.to_dict()) == r
    assert "wild_rank_swappable" not in RuleSet().to_dict()


# ---- swap_own_run (issue 22): Moonridge's Liverpool lets a player swap a joker out of their own run
OWN = [(0, "run", "5H 6H JK 8H"), (0, "set", "QC QD QS"), (1, "set", "3S 3D 3C"), (1, "set", "9S 9D 9C")]


def own_run(preset: str, **options: object) -> Game:
    """Player 0, down since an earlier turn, owns the run 5H 6H JK 8H and holds the 7H."""
    return build(rules(preset, joker_swap="once_down", **options), ["7H KC", "2C", "2D"], deal=1, melds=OWN)


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_own_run_swap_refused_by_default(preset: str) -> None:
    game = own_run(preset)
    assert not game.rules.swap_own_run
    assert_refused(game, SWAP, "another player's run", "R20")
    assert not [a for a in game.legal_actions() if isinstance(a, SwapJoker)]


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_option_swap_own_run_allows_it_listed_and_checked_alike(preset: str) -> None:
    """The Moonridge case: the owner of 5H 6H JK 8H lays the 7H in the joker's place and takes the
    joker, which must then be played (swap_must_play) or the swap taken back."""
    game = own_run(preset, swap_own_run=True)
    assert SWAP in game.legal_actions()
    play(game, SWAP)
    assert game.melds[0].cards == tuple(cards("5H 6H 7H 8H"))
    assert card("JK") in game.hand(0)
    assert Unswap(0) in game.legal_actions()
    assert_conserved(game)
    assert "own run too" in dict(game.rules.describe())["R20"]
    assert "own run" not in dict(rules(preset).describe())["R20"]
    off = own_run(preset, swap_own_run=True).rules.with_options(joker_swap="off")
    assert "own run" not in dict(off.describe())["R20"]

"""House-rule variants of the draw (issue 16): ``down_may_take_discard`` (R22). Off, a player who
is down draws from the stock only: neither the top discard nor (``pile_draw``) cards from inside
the pile. For each value, in both presets, a draw it allows and one it refuses."""

from __future__ import annotations

import pytest

from liverpool import DrawDiscard, DrawFromPile, DrawStock, Game, RuleSet
from liverpool.bots import strong
from rules_helpers import PRESETS, apply_all, assert_conserved, assert_refused, cards, position, rules

OTHERS = ("4D 6D", "6H 7H", "5S")


def down_player_to_draw(preset: str, **options: object) -> Game:
    """Player 0 is down (a set of queens on the table) and is to draw; the top discard is the KD."""
    return position(
        rules(preset, **options),
        hands=("9S 3C", *OTHERS),
        melds=[(0, "set", "QH QS QD")],
        down=[0],
        discard="8S KD",
        discarder=3,
        current=0,
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_a_down_player_may_take_the_discard_by_default(preset: str) -> None:
    game = down_player_to_draw(preset)
    assert game.rules.down_may_take_discard and game.may_take_discard(0)
    apply_all(game, DrawDiscard(0))
    assert cards("KD")[0] in game.hand(0)


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_option_down_player_draws_from_the_stock_only(preset: str) -> None:
    game = down_player_to_draw(preset, down_may_take_discard=False)
    assert not game.may_take_discard(0)
    assert_refused(game, DrawDiscard(0), "stock only", "down_may_take_discard", "R22")
    assert [type(a) for a in game.legal_actions(0)] == [DrawStock]
    apply_all(game, DrawStock(0))
    assert game.discard_pile == cards("8S KD")
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_option_a_player_not_down_still_takes_the_discard(preset: str) -> None:
    game = position(
        rules(preset, down_may_take_discard=False),
        hands=("9S 3C", *OTHERS),
        melds=[(1, "set", "QH QS QD")],
        down=[1],
        discard="8S KD",
        discarder=3,
        current=0,
    )
    assert game.may_take_discard(0) and not game.may_take_discard(1)
    apply_all(game, DrawDiscard(0))


@pytest.mark.parametrize("preset", PRESETS)
def test_r22_option_down_player_takes_nothing_from_inside_the_pile(preset: str) -> None:
    # The 3D under the top card would lay off on the table's set of 3s: a pile draw allowed by
    # default, refused with the option.
    def game_with(allowed: bool) -> Game:
        return position(
            rules(preset, pile_draw=True, down_may_take_discard=allowed),
            hands=("9S 4C", *OTHERS),
            melds=[(0, "set", "3H 3S 3C")],
            down=[0],
            discard="8S 3D KD",
            discarder=3,
            current=0,
        )

    allowed = game_with(True)
    assert DrawFromPile(0, 1, cards("3D")[0]) in allowed.legal_actions()
    refused = game_with(False)
    assert_refused(refused, DrawFromPile(0, 1), "stock only", "R22")
    assert not [a for a in refused.legal_actions() if isinstance(a, DrawFromPile | DrawDiscard)]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("allowed", [True, False])
def test_r22_option_the_strong_bots_playouts_draw_from_the_stock(preset: str, allowed: bool) -> None:
    # The KD lays off on player 0's set of kings: a playout takes it unless the option forbids it.
    game = position(
        rules(preset, down_may_take_discard=allowed),
        hands=("9S 3C", *OTHERS),
        melds=[(0, "set", "KH KS KC")],
        down=[0],
        discard="8S KD",
        discarder=3,
        current=0,
    )
    old = strong.CHECK_PLAYOUTS
    strong.CHECK_PLAYOUTS = True  # the engine verifies the playout's action
    try:
        strong._draw_phase(game)
    finally:
        strong.CHECK_PLAYOUTS = old
    assert (cards("KD")[0] in game.hand(0)) is allowed
    assert game.phase == "play" and game.current == 0


def test_r22_option_is_described_and_read_from_the_command_line() -> None:
    r = RuleSet().with_options(down_may_take_discard="no")
    assert r.down_may_take_discard is False
    assert "down draws from the stock only" in dict(r.describe())["R22"]
    assert "stock only" not in dict(RuleSet().describe())["R22"]
    assert RuleSet.from_dict(r.to_dict()) == r
    assert "down_may_take_discard" not in RuleSet().to_dict()

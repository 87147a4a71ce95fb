"""Rules R32-R36 (RULES.md): a down player's discard that fits a meld on the table, in every mode of
option ``playable_discard`` ("call", "liverpool", "strict", "off") and both presets."""

from __future__ import annotations

import pytest

from liverpool import Buy, Call, Card, Discard, DrawDiscard, DrawStock, Game, LayOff, Pass
from liverpool.game import DRAW, LIVERPOOL_DISCARD, PLAY
from rules_helpers import (
    PRESETS,
    apply_all,
    assert_conserved,
    assert_legal_agrees,
    assert_refused,
    events_of,
    position,
    rules,
)

H7 = Card(7, "H")  # fits player 0's set of 7s
KH = Card(13, "H")  # fits player 2's run 9H-QH, high
KD = Card(13, "D")  # fits nothing
AC = Card(1, "C")  # the stock's top card


OTHER_HANDS = ("2H 3S 4D 5C 6H", "2D 3C 4S 5D 6D", "2S 3H 4C 5S 6S")


def offender(
    mode: str = "call",
    hand: str = "7H KD QS",
    preset: str = "liverpool",
    *,
    hands: tuple[str, ...] | None = None,
    down: tuple[int, ...] = (0, 2),
    current: int = 0,
    stock: str = "AD AC",
    **options: object,
) -> Game:
    """Player 0 (down, owns the set 7S 7D 7C) has drawn and is to discard; player 2 is down too
    (owns the run 9H 10H JH QH); players 1 and 3 are not. Stock top: AC, then AD. One pack's
    cards only, so the position is valid in both presets. ``hands``, ``down``, ``current`` and
    ``stock`` change the position (``hands``: all four; ``current`` has drawn)."""
    return position(
        rules(preset, playable_discard=mode, **options),
        hands=hands if hands is not None else (hand, *OTHER_HANDS),
        melds=[(0, "set", "7S 7D 7C"), (2, "run", "9H 10H JH QH")],
        down=down,
        discard="AS",
        stock=stock,
        phase=PLAY,
        current=current,
    )


def out_of_turn(game: Game) -> list[object]:
    return [a for a in game.legal_actions() if isinstance(a, Buy | Call | Pass)]


# ------------------------------------------------------------------------------ R32
@pytest.mark.parametrize("preset", PRESETS)
def test_r32_down_players_playable_discard_may_be_called(preset: str) -> None:
    game = offender(preset=preset)
    game.apply(Discard(0, H7))
    view = game.view(3)
    assert view["call_window"] is True
    assert view["current"] == 1 and view["phase"] == DRAW
    legal = game.legal_actions()
    assert Call(2) in legal and Call(3) in legal
    assert_refused(game, Call(0), "own discard")


def test_r32_a_card_that_fits_another_players_meld_is_playable() -> None:
    game = offender(hand="KH KD QS")
    game.apply(Discard(0, KH))
    assert game.view(1)["call_window"] is True


def test_r32_a_joker_is_always_playable_on_a_set() -> None:
    game = offender(hand="JK KD QS")
    game.apply(Discard(0, Card(0)))
    assert game.view(1)["call_window"] is True


def test_r32_a_card_that_fits_no_meld_is_not_callable() -> None:
    game = offender()
    game.apply(Discard(0, KD))
    assert game.view(1)["call_window"] is False
    assert not [a for a in game.legal_actions() if isinstance(a, Call)]
    assert_refused(game, Call(2), "no playable discard")


def test_r32_only_a_down_players_discard_counts() -> None:
    # Player 1 is not down: discarding 8H, which fits the run low, is no offence.
    game = offender(hands=("7H KD", "8H 2H", *OTHER_HANDS[1:]), current=1)
    apply_all(game, Discard(1, Card(8, "H")))
    assert game.view(2)["call_window"] is False
    assert_refused(game, Call(2), "no playable discard")


@pytest.mark.parametrize("mode", ["call", "liverpool", "strict", "off"])
def test_r32_the_mode_is_the_playable_discard_option(mode: str) -> None:
    assert rules(playable_discard=mode).playable_discard == mode
    assert rules("liverpool").playable_discard == "call"
    assert rules("contract").playable_discard == "off"


# ------------------------------------------------------------------------------ R33 ("call")
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("caller", [2, 3])
def test_r33_any_other_player_calls_offender_takes_card_back_plus_penalty(preset: str, caller: int) -> None:
    # Player 2 is down, player 3 is not: both may call rummy.
    game = offender(preset=preset)
    game.apply(Discard(0, H7))
    apply_all(game, Call(caller))
    assert sorted(game.hand(0)) == sorted([H7, KD, Card(12, "S"), AC])
    assert game.discard_pile[-1] == Card(1, "S")
    view = game.view(caller)
    assert view["call_window"] is False and view["buy_window"] is False
    assert game.current == 1 and game.phase == DRAW  # the next player's turn goes on
    (call,) = events_of(game, "call")
    assert call["player"] == caller and call["offender"] == 0 and call["card"] == "7H"
    (penalty,) = events_of(game, "call_penalty")
    assert penalty["player"] == 0 and penalty["penalty"] == 1
    assert_conserved(game)
    apply_all(game, DrawStock(1))
    assert game.hand(1)[-1] == Card(1, "D")


def test_r33_the_player_about_to_draw_may_call() -> None:
    # "every other player has until the commencement of the next player's turn to call rummy":
    # the next player is one of the others, and legal_actions must list the call it may make.
    game = offender()
    game.apply(Discard(0, H7))
    assert game.can_apply(Call(1))
    assert_legal_agrees(game, [Call(q) for q in range(4)])
    game.apply(Call(1))
    assert H7 in game.hand(0)
    assert game.current == 1


def test_r33_option_playable_discard_penalty() -> None:
    game = offender(playable_discard_penalty=2)
    apply_all(game, Discard(0, H7), Call(3))
    assert sorted(game.hand(0)) == sorted([H7, KD, Card(12, "S"), AC, Card(1, "D")])
    assert_conserved(game)


def test_r33_call_window_closes_when_the_next_player_draws_from_the_stock() -> None:
    game = offender()
    apply_all(game, Discard(0, H7), DrawStock(1))
    assert game.view(2)["call_window"] is False
    assert_refused(game, Call(2))
    assert_refused(game, Call(3))


def test_r33_call_window_closes_when_the_next_player_takes_the_discard() -> None:
    game = offender()
    apply_all(game, Discard(0, H7), DrawDiscard(1))
    assert H7 in game.hand(1)
    assert_refused(game, Call(3))


def test_r33_only_one_call() -> None:
    game = offender()
    apply_all(game, Discard(0, H7), Call(3))
    assert_refused(game, Call(2), "no playable discard")
    assert events_of(game, "call_penalty")[0]["penalty"] == 1


def test_r33_a_call_voids_buy_requests_on_that_discard() -> None:
    game = offender()
    hand3 = game.hand(3)
    apply_all(game, Discard(0, H7), Buy(3), Call(2), DrawStock(1))
    assert game.hand(3) == hand3
    assert not events_of(game, "buy")


def test_r33_a_player_who_passed_may_not_call() -> None:
    game = offender()
    apply_all(game, Discard(0, H7), Pass(3))
    assert_refused(game, Call(3), "passed")


# ------------------------------------------------------------------------------ R34 ("liverpool")
def test_r34_only_down_players_may_call_liverpool() -> None:
    game = offender("liverpool")
    game.apply(Discard(0, H7))
    assert_refused(game, Call(3), "R34")  # not down
    assert_refused(game, Call(1), "R34")  # not down (and about to draw)
    assert Call(2) in game.legal_actions()


def test_r34_caller_takes_the_card_discards_one_and_play_resumes_after_the_caller() -> None:
    game = offender("liverpool", liverpool_resume="after_caller")  # the old reading (option)
    hand0, hand1, hand2 = game.hand(0), game.hand(1), game.hand(2)
    apply_all(game, Discard(0, H7), Call(2))
    assert game.phase == LIVERPOOL_DISCARD and game.current == 2
    assert sorted(game.hand(2)) == sorted([*hand2, H7])
    assert sorted(game.hand(0)) == sorted(c for c in hand0 if c != H7)  # no penalty card
    assert {type(a) for a in game.legal_actions()} == {Discard}
    assert all(a.player == 2 for a in game.legal_actions())
    assert_refused(game, DrawStock(1), "calling")
    assert_refused(game, LayOff(2, H7, 0), "R34")
    apply_all(game, Discard(2, Card(2, "D")))
    # play resumes with the player after the caller: player 1's turn was passed over
    assert game.current == 3 and game.phase == DRAW
    assert game.hand(1) == hand1
    assert game.discard_pile[-1] == Card(2, "D")
    assert Buy(0) in game.legal_actions() and Buy(1) in game.legal_actions()
    assert_conserved(game)


def test_r34_the_first_caller_wins() -> None:
    game = offender("liverpool", down=(0, 2, 3), liverpool_resume="after_caller")  # the old reading (option)
    game.apply(Discard(0, H7))
    assert Call(3) in game.legal_actions()
    apply_all(game, Call(3))
    assert_refused(game, Call(2))
    assert H7 in game.hand(3)
    apply_all(game, Discard(3, Card(2, "S")))
    assert game.current == 0


def test_r34_the_player_about_to_draw_may_call_when_down() -> None:
    game = offender("liverpool", down=(0, 1, 2), liverpool_resume="after_caller")  # the old reading (option)
    game.apply(Discard(0, H7))
    assert_legal_agrees(game, [Call(q) for q in range(4)])
    apply_all(game, Call(1), Discard(1, Card(2, "H")))
    assert game.current == 2


def test_r34_call_window_closes_when_the_next_player_draws() -> None:
    game = offender("liverpool")
    apply_all(game, Discard(0, H7), DrawStock(1))
    assert_refused(game, Call(2))


# ------------------------------------------------------------------------------ R35
@pytest.mark.parametrize("mode", ["call", "liverpool", "strict"])
def test_r35_going_out_discard_is_exempt(mode: str) -> None:
    game = offender(mode, hand="7H")
    assert Discard(0, H7) in game.legal_actions()
    game.apply(Discard(0, H7))
    (end,) = events_of(game, "deal_end")
    assert end["out"] == 0
    assert game.deal == 2
    assert not events_of(game, "call")
    assert game.view(0)["call_window"] is False


# ------------------------------------------------------------------------------ R36 ("strict")
@pytest.mark.parametrize("preset", PRESETS)
def test_r36_strict_refuses_a_playable_discard(preset: str) -> None:
    game = offender("strict", hand="7H KH KD QS", preset=preset)
    assert_refused(game, Discard(0, H7), "7H", "R36")
    assert_refused(game, Discard(0, KH), "KH", "R36")
    discards = {a for a in game.legal_actions() if isinstance(a, Discard)}
    assert discards == {Discard(0, KD), Discard(0, Card(12, "S"))}
    game.apply(Discard(0, KD))
    assert game.view(1)["call_window"] is False


def test_r36_strict_does_not_bind_a_player_who_is_not_down() -> None:
    game = offender("strict", down=(2,))
    assert Discard(0, H7) in game.legal_actions()
    game.apply(Discard(0, H7))
    assert game.discard_pile[-1] == H7


# ------------------------------------------------------------------------------ "off"
@pytest.mark.parametrize("game_maker", ["liverpool_off", "contract_default"])
def test_r32_off_allows_a_playable_discard(game_maker: str) -> None:
    if game_maker == "liverpool_off":
        game = offender("off")
    else:
        game = position(
            rules("contract"),
            hands=("7H KD QS", "2H 3S 4D 5C 6H", "2D 3C 4S 5D 6D", "2S 3H 4C 5S 6S"),
            melds=[(0, "set", "7S 7D 7C"), (2, "run", "9H 10H JH QH")],
            down=[0, 2],
            discard="AS",
            stock="AD AC",
            phase=PLAY,
            current=0,
        )
    assert Discard(0, H7) in game.legal_actions()
    game.apply(Discard(0, H7))
    assert game.view(2)["call_window"] is False
    assert not [a for a in game.legal_actions() if isinstance(a, Call)]
    assert_refused(game, Call(2), "no playable discard")


def test_r34_caller_may_not_discard_the_called_card() -> None:
    # The called card is taken from the top of the discard pile: R26 locks it for the caller, who
    # "may discard one card" of their own (seed 000); else a caller could pass the card straight on.
    game = offender("liverpool")
    apply_all(game, Discard(0, H7), Call(2))
    assert_refused(game, Discard(2, H7), "R26")
    assert Discard(2, Card(2, "D")) in game.legal_actions()


def test_r34_a_floater_cannot_go_out_by_calling() -> None:
    # Player 2 floats (down, no cards). Taking the called card and discarding it would go out with a
    # card taken from the pile, which R26/R38 forbid ("a floater must draw an unplayable card from
    # the deck in order to go out"). Either the call is refused or the card is locked, and the game
    # must never be left without a legal action.
    # (player 2's hand of the other positions lies on the stock, 6D on top)
    game = offender("liverpool", hands=("7H KD QS", OTHER_HANDS[0], "", OTHER_HANDS[2]), stock="AD AC 2D 3C 4S 5D 6D")
    game.apply(Discard(0, H7))
    if game.can_apply(Call(2)):
        game.apply(Call(2))
        assert not game.can_apply(Discard(2, H7))
        assert game.legal_actions()
    assert not events_of(game, "deal_end")


def test_r34_r26_a_caller_holding_only_equals_of_the_called_card_may_not_call() -> None:
    # Player 2 holds only a card equal to the discard (two packs). R26 locks the called card and
    # its equals, so after calling there would be nothing to discard and no legal action: the call
    # is refused, with R26 off it is allowed. Found by random play under random house rules.
    for lock in (True, False):
        hands = ("7H KD QS", OTHER_HANDS[0], "7H", OTHER_HANDS[2])  # a second 7H: from a second pack
        game = offender("liverpool", hands=hands, discard_lock=lock)
        game.apply(Discard(0, H7))
        assert game.can_apply(Call(2)) is not lock
        assert (Call(2) in game.legal_actions()) is not lock
        if lock:
            assert_refused(game, Call(2), "no other card to discard after calling (R26, R34)")
        else:
            apply_all(game, Call(2), Discard(2, H7))
        assert game.legal_actions()


@pytest.mark.parametrize("mode", ["call", "liverpool"])
def test_r33_r34_two_players_the_other_player_may_call(mode: str) -> None:
    # With two players the only other player is the one about to draw.
    game = position(
        rules(playable_discard=mode),
        hands=("7H KD QS", "2D 3C 4S 5D 6D"),
        melds=[(0, "set", "7S 7D 7C"), (1, "run", "9H 10H JH QH")],
        down=[0, 1],
        discard="AS",
        phase=PLAY,
        current=0,
    )
    game.apply(Discard(0, H7))
    assert Call(1) in game.legal_actions()
    game.apply(Call(1))
    assert events_of(game, "call")

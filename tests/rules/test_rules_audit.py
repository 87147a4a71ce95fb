"""The rule defects an outside audit found (issue 10), one test or more per defect, each named by
its rule: R20 own-run swaps, R9/R45 an empty stock, R32/R33/R36 with ``layoff_same_turn`` off,
R36 with R25, R34's resumed rotation, R4/R1/R2 texts, and the strong bot's playouts (R26/R34)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import liverpool.bots.strong as strong_module
from liverpool import (
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    EndTurn,
    Game,
    LayOff,
    RuleSet,
    SwapJoker,
)
from liverpool.bots.greedy import Snapshot
from liverpool.cli import main as cli_main
from liverpool.game import DRAW, LIVERPOOL_DISCARD, PLAY
from rules_helpers import PRESETS, apply_all, assert_conserved, assert_refused, events_of, position, rules

H7 = Card(7, "H")
KH = Card(13, "H")
KD = Card(13, "D")


# ------------------------------------------------------------------------------ R20
def _own_run(preset: str, mode: str = "once_down") -> Game:
    """Five seats. Player 0 (down) owns the run 5H 6H JK 8H (the joker stands for 7H) and holds 7H; player 1
    (down) owns the run 9S 10S JK QS (the joker stands for JS) and player 0 holds JS too."""
    return position(
        rules(preset, joker_swap=mode),
        hands=("7H JS KC QD", "2C 3C 4C", "2D 3D 4D", "5C 6C 7C", "5D 6D 7D"),  # 2 packs in both presets
        melds=[(0, "run", "5H 6H JK 8H"), (1, "run", "9S 10S JK QS")],
        down=[0, 1],
        discard="AS",
        phase=PLAY,
        current=0,
    )


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("mode", ["once_down", "later_turns"])
def test_r20_no_joker_swap_out_of_the_players_own_run(preset: str, mode: str) -> None:
    game = _own_run(preset, mode)
    assert_refused(game, SwapJoker(0, 0, 2, H7), "another player's run", "R20")
    assert [(a.meld, a.card) for a in game.swap_actions(0)] == [(1, Card(11, "S"))]
    assert SwapJoker(0, 1, 2, Card(11, "S")) in game.legal_actions()
    apply_all(game, SwapJoker(0, 1, 2, Card(11, "S")))
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
def test_r20_going_down_turn_no_swap_out_of_the_run_just_laid(preset: str) -> None:
    """In the ``going_down_turn`` reading the swap takes a joker of the melds already on the
    table when the player goes down, never of the player's own new run."""
    r = rules(preset, joker_swap="going_down_turn")
    game = position(
        r,
        hands=("5H 6H JK 8H 9S 9D 9C 7H KC", "2C 3C 4C", "2D 3D 4D"),
        deal=2,
        phase=PLAY,
        current=0,
    )
    from liverpool import Meld, parse_cards

    apply_all(game, Meld(0, "set", tuple(parse_cards("9S 9D 9C"))))
    game.apply(Meld(0, "run", tuple(parse_cards("5H 6H JK 8H"))))
    assert game.down[0] and game.melds[0].owner == 0
    run = next(m for m in game.melds if m.kind == "run")
    assert_refused(game, SwapJoker(0, run.id, 2, H7), "R20")
    assert not game.swap_actions(0)


# ------------------------------------------------------------------------------ R9 / R45
def _stock_of_one(preset: str, stock: str = "KS", **options: Any) -> Game:
    """Player 0 (down, owns 7S 7D 7C) is to discard; the stock holds one card (``stock``) and may
    not be rebuilt; the pile holds the rest of the deck."""
    return position(
        rules(preset, stock_rebuilds=0, playable_discard="call", **options),
        hands=("7H KD QS", "2H 3S 4D 5C 6H", "2D 3C 4S 5D 6D", "2S 3H 4C 5S 6S"),
        melds=[(0, "set", "7S 7D 7C")],
        down=[0],
        stock=stock,
        phase=PLAY,
        current=0,
        rest="discard",
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_r9_r45_after_the_last_stock_card_the_next_player_may_take_the_discard(preset: str) -> None:
    game = _stock_of_one(preset, stock="")  # the stock ran out at the start of player 0's turn, no rebuild left
    apply_all(game, Discard(0, KD))
    assert game.phase == DRAW and game.current == 1 and game.deal == 1
    assert not events_of(game, "deal_end")
    apply_all(game, DrawDiscard(1), Discard(1, Card(2, "H")))
    assert game.current == 2 and game.deal == 1
    apply_all(game, DrawStock(2))  # a card must come from the empty stock: the deal ends
    (end,) = events_of(game, "deal_end")
    assert end["out"] is None and "stalemate" in end["reason"]
    assert game.deal == 2


@pytest.mark.parametrize("preset", PRESETS)
def test_r9_r45_a_calls_penalty_emptying_the_stock_behaves_the_same(preset: str) -> None:
    """The same behaviour on the other path: a call's penalty card takes the stock's last card;
    the next player may still take the top discard, and drawing from the empty stock ends it."""
    game = _stock_of_one(preset)
    apply_all(game, Discard(0, H7), Call(2))
    assert game.stock_size == 0 and game.phase == DRAW and game.current == 1
    assert DrawDiscard(1) in game.legal_actions()
    apply_all(game, DrawStock(1))
    (end,) = events_of(game, "deal_end")
    assert "stalemate" in end["reason"]


# ------------------------------------------------------------------------------ R32 / R33 / R36 with R43
def _went_down_now(mode: str, went_down_this_turn: bool) -> Game:
    return position(
        rules("liverpool", playable_discard=mode, layoff_same_turn=False),
        hands=("7H KD QS", "2H 3S 4D 5C 6H", "2D 3C 4S 5D 6D", "2S 3H 4C 5S 6S"),
        melds=[(0, "set", "7S 7D 7C"), (2, "run", "9H 10H JH QH")],
        down=[0, 2],
        discard="AS",
        phase=PLAY,
        current=0,
        went_down_this_turn=went_down_this_turn,
    )


@pytest.mark.parametrize("mode", ["call", "liverpool"])
def test_r32_r33_r43_a_card_the_player_may_not_lay_off_this_turn_is_not_a_playable_discard(mode: str) -> None:
    game = _went_down_now(mode, went_down_this_turn=True)
    assert not game.is_playable_discard(0, H7)
    apply_all(game, Discard(0, H7))
    assert game.view(1)["call_window"] is False
    assert not [a for a in game.legal_actions() if isinstance(a, Call)]
    # a turn later the same discard is playable: the player could have laid it off
    game = _went_down_now(mode, went_down_this_turn=False)
    assert game.is_playable_discard(0, H7)
    apply_all(game, Discard(0, H7))
    assert game.view(1)["call_window"] is True


def test_r36_r43_strict_allows_a_discard_the_player_may_not_lay_off_this_turn() -> None:
    game = _went_down_now("strict", went_down_this_turn=True)
    assert Discard(0, H7) in game.legal_actions()
    apply_all(game, Discard(0, H7))
    game = _went_down_now("strict", went_down_this_turn=False)
    assert_refused(game, Discard(0, H7), "R36")


# ------------------------------------------------------------------------------ R36 with R25
@pytest.mark.parametrize("preset", PRESETS)
def test_r36_r25_strict_a_hand_whose_cards_all_fit_lays_off_instead_of_ending_the_turn(preset: str) -> None:
    game = position(
        rules(preset, playable_discard="strict"),
        hands=("7H KH", "2H 3S 4D 5C 6H", "2D 3C 4S 5D 6D", "2S 3H 4C 5S 6S"),
        melds=[(0, "set", "7S 7D 7C"), (2, "run", "9H 10H JH QH")],
        down=[0, 2],
        discard="AS",
        phase=PLAY,
        current=0,
    )
    legal = game.legal_actions()
    assert not [a for a in legal if isinstance(a, Discard | EndTurn)]
    assert LayOff(0, H7, 0) in legal and LayOff(0, KH, 1) in legal
    assert_refused(game, EndTurn(0), "R36")
    apply_all(game, LayOff(0, H7, 0))
    # one card left: its discard goes out (R35), so the turn can end by a discard (R25)
    assert Discard(0, KH) in game.legal_actions()
    apply_all(game, Discard(0, KH))
    assert game.deal == 2


# ------------------------------------------------------------------------------ R34
def _liverpool(**options: Any) -> Game:
    return position(
        rules("liverpool", playable_discard="liverpool", **options),
        hands=("7H KD QS", "2H 3S 4D 5C 6H", "2D 3C 4S 5D 6D", "2S 3H 4C 5S 6S"),
        melds=[(0, "set", "7S 7D 7C"), (2, "run", "9H 10H JH QH")],
        down=[0, 2],
        discard="AS",
        stock="AD AC",
        phase=PLAY,
        current=0,
    )


def test_r34_by_default_play_resumes_with_the_player_about_to_draw() -> None:
    assert RuleSet.preset("liverpool").liverpool_resume == "in_turn"
    assert RuleSet.preset("contract").liverpool_resume == "in_turn"
    game = _liverpool()
    hand1 = game.hand(1)
    apply_all(game, Discard(0, H7), Call(2))
    assert game.phase == LIVERPOOL_DISCARD and game.current == 2
    apply_all(game, Discard(2, Card(2, "D")))
    # nobody between the discarder and the caller loses a turn: player 1 draws next
    assert game.current == 1 and game.phase == DRAW and game.hand(1) == hand1
    assert game.discard_pile[-1] == Card(2, "D")
    assert DrawDiscard(1) in game.legal_actions()
    apply_all(game, DrawStock(1))
    assert game.current == 1 and game.phase == PLAY
    assert_conserved(game)


def test_r34_option_after_caller_keeps_the_other_reading() -> None:
    game = _liverpool(liverpool_resume="after_caller")
    apply_all(game, Discard(0, H7), Call(2), Discard(2, Card(2, "D")))
    assert game.current == 3
    assert RuleSet().with_options(liverpool_resume="after_caller").liverpool_resume == "after_caller"
    with pytest.raises(ValueError, match="liverpool_resume"):
        RuleSet().with_options(liverpool_resume="sideways")


def test_r34_records_made_before_the_option_replay_with_the_old_reading() -> None:
    game = Game.new(players=3, rules=rules("liverpool", playable_discard="liverpool"), seed=3)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    record = game.record()
    del record["rules"]["liverpool_resume"]
    replayed = Game.from_record(record)
    assert replayed.rules.liverpool_resume == "after_caller"
    assert replayed.view(0)["hand"] == game.view(0)["hand"]


def test_r34_the_rules_text_names_the_resumed_rotation() -> None:
    text = dict(RuleSet().with_options(playable_discard="liverpool").describe())["R34"]
    assert "player who was about to draw" in text
    text = dict(RuleSet().with_options(liverpool_resume="after_caller").describe())["R34"]
    assert "after the caller" in text


# ------------------------------------------------------------------------------ R4, R1, R2 texts
def test_r4_rules_text_numbers_seats_from_zero_like_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(players=3, rules=rules("liverpool", cut_for_dealer=False), seed=1)
    assert game.dealer == 0
    text = dict(game.rules.describe())["R4"]
    assert "Seat 0 deals first" in text and "Seat 1" not in text
    assert cli_main(["rules", "--set", "cut_for_dealer=false"]) == 0
    out = capsys.readouterr().out
    assert "Seat 0 deals first" in out and "Seat 1 deals" not in out


@pytest.mark.parametrize("preset", PRESETS)
def test_r1_r2_the_pack_text_covers_exactly_the_players_allowed(preset: str) -> None:
    r = RuleSet.preset(preset)
    lines = dict(r.describe())
    assert lines["R2"] == f"Players: {r.min_players} to {r.max_players}."
    r1 = lines["R1"]
    assert f"{r.min_players}-" in r1 and f"-{r.max_players} players" in r1
    assert "12" not in r1 and "1 players" not in r1 and "(s)" not in r1
    if preset == "contract":
        assert "1 pack for 3-4 players, 2 packs for 5-8 players" in r1
    one = RuleSet(min_players=2, max_players=2, pack_schedule=((2, 1),), jokers_per_pack=1)
    assert "1 pack for 2 players" in dict(one.describe())["R1"] and "1 joker each" in dict(one.describe())["R1"]


# ------------------------------------------------------------------------------ strong bot (R26, R34)
def test_r26_r34_strong_playouts_never_offer_a_caller_the_card_just_called(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _liverpool()
    apply_all(game, Discard(0, H7), Call(2))
    offered: list[list[Card]] = []

    def spy(s: Snapshot, options: Sequence[Card]) -> Card:
        offered.append(list(options))
        return options[0]

    monkeypatch.setattr(strong_module, "discard_choice", spy)
    monkeypatch.setattr(strong_module, "CHECK_PLAYOUTS", True)
    strong_module._discard_or_end(game, Snapshot.from_game(game, 2))
    assert offered and H7 not in offered[0]
    assert offered[0] == game.discard_options(2) or game.phase == DRAW


@pytest.mark.parametrize(
    "options",
    [
        {"playable_discard": "liverpool"},
        {"playable_discard": "strict", "layoff_same_turn": False},
        {"playable_discard": "call", "layoff_same_turn": False, "stock_rebuilds": 0},
    ],
)
def test_r26_r32_r36_strong_playouts_are_legal_under_the_engines_rules(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every playout action goes through ``Game.apply`` (verified): an illegal one would raise."""
    monkeypatch.setattr(strong_module, "CHECK_PLAYOUTS", True)
    for seed in range(6):
        game = Game.new(players=4, rules=rules("liverpool", **options), seed=seed)
        assert strong_module.playout(game)

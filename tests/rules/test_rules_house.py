"""House rules R42-R49 (RULES.md) in both presets, and the ``liverpool rules`` command that prints
the numbered rules in effect."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from liverpool import JOKER, Call, Card, Discard, DrawDiscard, DrawStock, Game, LayOff, Meld, RuleSet
from liverpool.cli import main
from liverpool.game import DRAW
from liverpool.rules import DEFAULT_SCHEDULE, Contract, parse_schedule
from rules_helpers import (
    PRESETS,
    apply_all,
    assert_conserved,
    assert_refused,
    cards,
    events_of,
    position,
    rules,
)

OTHERS = ("2C 3C", "4D", "5S 6S KC")
"""Hands of players 1-3: liverpool 10, 5, 20 points; contract 5, 4, 21."""


def melds_of(game: Game) -> list[Meld]:
    return [a for a in game.legal_actions() if isinstance(a, Meld)]


def first_discard(game: Game) -> Discard:
    return next(a for a in game.legal_actions() if isinstance(a, Discard))


# ------------------------------------------------------------------------------ R42
@pytest.mark.parametrize("preset", PRESETS)
def test_r42_option_exact_melds_refuses_a_longer_set(preset: str) -> None:
    game = position(
        rules(preset, exact_melds=True), hands=("7H 7S 7D 7C 9C 9D 9H KS", *OTHERS), phase="play", current=0
    )
    assert_refused(game, Meld(0, "set", tuple(cards("7H 7S 7D 7C"))), "R42", "3")
    assert melds_of(game) and all(len(m.cards) == 3 for m in melds_of(game))
    apply_all(game, Meld(0, "set", tuple(cards("7H 7S 7D"))), Meld(0, "set", tuple(cards("9C 9D 9H"))))
    assert game.view(0)["down"][0]
    apply_all(game, LayOff(0, Card(7, "C"), 0))  # only the melds laid at going down are exact
    assert len(game.melds[0].cards) == 4


@pytest.mark.parametrize("preset", PRESETS)
def test_r42_option_exact_melds_refuses_a_longer_run(preset: str) -> None:
    need = rules(preset).run_min
    hand = "3H 4H 5H 6H 7H 8S 9S 10S JS QS KD"
    game = position(rules(preset, exact_melds=True), hands=(hand, *OTHERS), phase="play", current=0, deal=3)
    assert_refused(game, Meld(0, "run", tuple(cards("3H 4H 5H 6H 7H"))), "R42")
    runs = melds_of(game)
    assert runs and all(len(m.cards) == need for m in runs)


@pytest.mark.parametrize("preset", PRESETS)
def test_r42_longer_melds_allowed_by_default(preset: str) -> None:
    game = position(rules(preset), hands=("7H 7S 7D 7C 9C 9D 9H KS", *OTHERS), phase="play", current=0)
    assert any(len(m.cards) == 4 for m in melds_of(game))
    apply_all(game, Meld(0, "set", tuple(cards("7H 7S 7D 7C"))), Meld(0, "set", tuple(cards("9C 9D 9H"))))
    assert [len(m.cards) for m in game.melds] == [4, 3]


def test_r42_exact_melds_does_not_bind_a_whole_hand_deal() -> None:
    hand = "3H 4H 5H 6H 8S 9S 10S JS 9D 10D JD QD KD"
    game = position(rules(exact_melds=True), hands=(hand, *OTHERS), phase="play", current=0, deal=7)
    apply_all(
        game,
        Meld(0, "run", tuple(cards("3H 4H 5H 6H"))),
        Meld(0, "run", tuple(cards("8S 9S 10S JS"))),
        Meld(0, "run", tuple(cards("9D 10D JD QD KD"))),
    )
    assert game.is_over and events_of(game, "deal_end")[0]["out"] == 0


# ------------------------------------------------------------------------------ R43
@pytest.mark.parametrize("preset", PRESETS)
def test_r43_lay_off_in_the_turn_of_going_down_allowed_by_default(preset: str) -> None:
    game = position(rules(preset), hands=("7H 7S 7D 9C 9D 9H 7C KS", *OTHERS), phase="play", current=0)
    apply_all(game, Meld(0, "set", tuple(cards("7H 7S 7D"))), Meld(0, "set", tuple(cards("9C 9D 9H"))))
    assert LayOff(0, Card(7, "C"), 0) in game.legal_actions()
    apply_all(game, LayOff(0, Card(7, "C"), 0))


@pytest.mark.parametrize("preset", PRESETS)
def test_r43_option_no_lay_off_until_the_next_turn(preset: str) -> None:
    game = position(
        rules(preset, layoff_same_turn=False),
        hands=("7H 7S 7D 9C 9D 9H 7C KS", *OTHERS),
        stock="QS QD QC QH",
        phase="play",
        current=0,
    )
    apply_all(game, Meld(0, "set", tuple(cards("7H 7S 7D"))), Meld(0, "set", tuple(cards("9C 9D 9H"))))
    assert not [a for a in game.legal_actions() if isinstance(a, LayOff)]
    assert_refused(game, LayOff(0, Card(7, "C"), 0), "R43")
    apply_all(game, Discard(0, Card(13, "S")))
    for p in (1, 2, 3):
        apply_all(game, DrawStock(p), Discard(p, game.hand(p)[-1]))
    apply_all(game, DrawStock(0), LayOff(0, Card(7, "C"), 0))
    assert len(game.melds[0].cards) == 4


# ------------------------------------------------------------------------------ R45
def stock_out(preset: str, rebuilds: int = 0, **options: Any) -> Game:
    """Player 0 to draw the stock's last card (KS); every other card lies in the discard pile; the
    stock was rebuilt ``rebuilds`` times already."""
    return position(
        rules(preset, **options),
        hands=("2H 3H", *OTHERS),
        stock="KS",
        discard="AS",
        current=0,
        discarder=3,
        rebuilds=rebuilds,
        rest="discard",
    )


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("limit", [0, 1, 3])
def test_r45_deal_ends_when_the_stock_runs_out_after_n_rebuilds(preset: str, limit: int) -> None:
    game = stock_out(preset, stock_rebuilds=limit, rebuilds=limit)
    apply_all(game, DrawStock(0), Discard(0, Card(2, "H")))
    # R9/R45: the next player may still take the top discard; the deal ends when a card must
    # come from the empty stock
    assert not events_of(game, "deal_end") and game.can_apply(DrawDiscard(1))
    apply_all(game, DrawStock(1))
    (end,) = events_of(game, "deal_end")
    assert end["out"] is None and "stalemate" in end["reason"]
    expected = [RuleSet.preset(preset).points(c.rank) for c in cards("3H KS")]
    assert end["points"][0] == sum(expected)  # everyone scores their hand
    assert end["points"][1:] == [sum(game.rules.points(c.rank) for c in cards(h)) for h in OTHERS]
    assert game.deal == 2


@pytest.mark.parametrize("preset", PRESETS)
def test_r45_the_stock_is_rebuilt_while_rebuilds_are_left(preset: str) -> None:
    game = stock_out(preset, stock_rebuilds=2, rebuilds=1)
    pile = len(game.discard_pile)
    apply_all(game, DrawStock(0), Discard(0, Card(2, "H")))
    (rebuilt,) = events_of(game, "stock_rebuilt")
    assert rebuilt["count"] == 2
    assert game.deal == 1 and game.current == 1 and game.phase == DRAW
    assert game.stock_size == pile  # the old pile plus 2H, less its top card (2H)
    assert game.discard_pile == [Card(2, "H")]
    assert_conserved(game)


def test_r45_unlimited_rebuilds() -> None:
    game = stock_out("liverpool", stock_rebuilds=None, rebuilds=99)
    apply_all(game, DrawStock(0), Discard(0, Card(2, "H")))
    assert events_of(game, "stock_rebuilt") and not events_of(game, "deal_end")


@pytest.mark.parametrize("preset", PRESETS)
def test_r45_default_three_rebuilds(preset: str) -> None:
    assert RuleSet.preset(preset).stock_rebuilds == 3


@pytest.mark.parametrize("preset", PRESETS)
def test_r45_option_turn_limit_ends_a_deal_as_a_stalemate(preset: str) -> None:
    game = Game.new(players=4, rules=rules(preset, turn_limit=3), seed=2)
    hands_before = None
    for turn in range(3):
        assert game.deal == 1, turn
        p = game.current
        apply_all(game, DrawStock(p))
        hands_before = [game.hand(q) for q in range(4)]
        game.apply(first_discard(game))
    (end,) = events_of(game, "deal_end")
    assert end["out"] is None and "3 turns" in end["reason"]
    assert hands_before is not None
    assert sum(end["points"]) > 0
    assert game.deal == 2


# ------------------------------------------------------------------------------ R46
@pytest.mark.parametrize(
    ("preset", "players", "deck", "jokers"),
    [("liverpool", 4, 108, 4), ("liverpool", 6, 162, 6), ("contract", 4, 53, 1), ("contract", 5, 106, 2)],
)
def test_r46_jokers_per_pack_by_preset(preset: str, players: int, deck: int, jokers: int) -> None:
    game = Game.new(players=players, rules=rules(preset), seed=1)
    everything = [c for p in range(players) for c in game.hand(p)] + game.discard_pile + game.stock
    assert game.deck_size == len(everything) == deck
    assert Counter(everything)[JOKER] == jokers


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("per_pack", [0, 3])
def test_r46_option_jokers_per_pack(preset: str, per_pack: int) -> None:
    game = Game.new(players=3, rules=rules(preset, jokers_per_pack=per_pack), seed=1)
    everything = [c for p in range(3) for c in game.hand(p)] + game.discard_pile + game.stock
    packs = game.rules.packs_for(3)
    assert Counter(everything)[JOKER] == per_pack * packs
    assert len(everything) == packs * (52 + per_pack)


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_option_wild_rank_deuces_play_as_jokers(preset: str) -> None:
    r = rules(preset, wild_rank=2)
    game = position(r, hands=("7H 7C 2D 5S 2S 7S 8S KD", *OTHERS[:2], "5D 6D KC"), phase="play", current=0, deal=2)
    apply_all(game, Meld(0, "set", tuple(cards("7H 7C 2D"))), Meld(0, "run", tuple(cards("5S 2S 7S 8S"))))
    assert game.view(0)["down"][0]
    # a swap of the deuce standing for 6S is as for a joker (R20); a deuce is laid off like a joker
    assert rules(preset).is_wild(2) is False and r.is_wild(2) is True


@pytest.mark.parametrize("preset", PRESETS)
def test_r46_wild_deuce_is_a_playable_discard(preset: str) -> None:
    game = position(
        rules(preset, wild_rank=2, playable_discard="call"),
        hands=("2D KD QS", *OTHERS),
        melds=[(0, "set", "7H 7S 7C")],
        down=[0],
        phase="play",
        current=0,
    )
    apply_all(game, Discard(0, Card(2, "D")))
    assert Call(2) in game.legal_actions()


def test_r46_a_set_needs_natural_cards_besides_wild_deuces() -> None:
    game = position(rules(wild_rank=2), hands=("2H 2S 2D 9C 9D 9H KS", *OTHERS), phase="play", current=0)
    assert_refused(game, Meld(0, "set", tuple(cards("2H 2S 2D"))), "R18")


# ------------------------------------------------------------------------------ R48
def test_r48_parse_schedule_reads_the_default_schedule() -> None:
    text = "2S/10,1S1R/10,2R/10,3S/10,2S1R/12,1S2R/12,3R/12*"
    assert parse_schedule(text) == DEFAULT_SCHEDULE
    assert RuleSet.preset("liverpool").schedule == RuleSet.preset("contract").schedule == DEFAULT_SCHEDULE
    assert ",".join(map(str, DEFAULT_SCHEDULE)) == text
    assert parse_schedule("1s2r/12*") == (Contract(1, 2, 12, whole_hand=True),)


@pytest.mark.parametrize("text", ["", "2X/10", "2S", "2S/0", "0S/10", "2S/10,,1R/10"])
def test_r48_a_bad_schedule_is_a_clear_error(text: str) -> None:
    with pytest.raises(ValueError, match="schedule"):
        parse_schedule(text)


SHANGHAI = "2S/11,1S1R/11,2R/11,3S/11,2S1R/11,1S2R/11,3R/11,4S/11,3S1R/11,3R/11*"


@pytest.mark.parametrize("preset", PRESETS)
def test_r48_shanghai_like_ten_contracts(preset: str) -> None:
    schedule = parse_schedule(SHANGHAI)
    assert len(schedule) == 10
    r = rules(preset, schedule=schedule, turn_limit=1)
    assert r == RuleSet.preset(preset).with_options(schedule=SHANGHAI, turn_limit="1")
    game = Game.new(players=4, rules=r, seed=4)
    seen = []
    while not game.is_over:
        assert game.contract == schedule[game.deal - 1]
        assert [len(game.hand(p)) for p in range(4)] == [11] * 4
        assert game.view(0)["deals"] == 10
        seen.append(game.deal)
        apply_all(game, DrawStock(game.current))
        game.apply(first_discard(game))
    assert seen == list(range(1, 11))
    assert len(game.deal_scores) == 10
    assert [e["contract"] for e in events_of(game, "deal")][7] == "4 sets"
    described = dict(game.rules.describe())
    assert described["R41"].startswith("10 deals")
    assert SHANGHAI in described["R48"]


def test_r48_a_short_schedule_ends_the_game_early() -> None:
    r = rules(schedule=parse_schedule("1S/6,1R/7*"), turn_limit=2)
    game = Game.new(players=3, rules=r, seed=9)
    assert [len(game.hand(p)) for p in range(3)] == [6] * 3
    while game.deal == 1:
        apply_all(game, DrawStock(game.current))
        game.apply(first_discard(game))
    assert [len(game.hand(p)) for p in range(3)] == [7] * 3
    assert game.contract == Contract(0, 1, 7, whole_hand=True)
    while not game.is_over:
        apply_all(game, DrawStock(game.current))
        game.apply(first_discard(game))
    assert len(game.deal_scores) == 2


def test_r48_a_schedule_the_deck_cannot_deal_is_refused_naming_the_option() -> None:
    r = rules(schedule=parse_schedule("2S/30"))
    with pytest.raises(ValueError, match="packs"):
        Game.new(players=5, rules=r, seed=1)


# ------------------------------------------------------------------------------ R49
@pytest.mark.parametrize("preset", PRESETS)
def test_r49_option_rank_points_table(preset: str) -> None:
    table = tuple(range(1, 14))
    r = rules(preset, rank_points=table, joker_points=50)
    assert r == RuleSet.preset(preset).with_options(rank_points="1,2,3,4,5,6,7,8,9,10,11,12,13", joker_points="50")
    game = position(
        r,
        hands=("KS", "AC 2C KC JK", "4D", "QH JH"),
        melds=[(0, "set", "7H 7S 7D")],
        down=[0],
        phase="play",
        current=0,
    )
    apply_all(game, Discard(0, Card(13, "S")))
    assert events_of(game, "deal_end")[0]["points"] == [0, 1 + 2 + 13 + 50, 4, 12 + 11]


@pytest.mark.parametrize("bad", [(5,) * 12, (5,) * 14, (5,) * 12 + (-1,)])
def test_r49_a_bad_rank_points_table_is_refused(bad: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="rank_points"):
        rules(rank_points=bad)


def test_r49_wild_deuce_scores_by_the_rank_table() -> None:
    # Decision: a card of the wild rank left in hand scores its rank's points (R49 sets them).
    r = rules(wild_rank=2, rank_points=(15, 20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10))
    assert r.points(2) == 20
    assert rules(wild_rank=2).points(2) == 5


# ------------------------------------------------------------------------------ `liverpool rules`
def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rules", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def numbered(out: str) -> dict[int, str]:
    lines = {}
    for line in out.splitlines():
        match = re.match(r"^\s*R(\d+)\s+(.*)$", line)
        if match:
            lines[int(match.group(1))] = match.group(2)
    return lines


@pytest.mark.parametrize("preset", PRESETS)
def test_cli_rules_prints_every_numbered_rule(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    code, out, err = run_cli(capsys, "--preset", preset)
    assert code == 0 and err == ""
    lines = numbered(out)
    assert sorted(lines) == list(range(1, 50))
    assert "buying" in lines[27].lower() and lines[27].endswith("yes." if preset == "liverpool" else "no.")


def test_cli_rules_contract_with_a_setting(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--preset", "contract", "--set", "run_min=3")
    assert code == 0
    assert "run_min=3" in out.splitlines()[0]
    assert "3 or more" in numbered(out)[12]
    code, out, _ = run_cli(capsys, "--preset", "contract", "--set", "run_min=5", "--set", "buying=yes")
    assert code == 0
    lines = numbered(out)
    assert "5 or more" in lines[12] and lines[27].endswith("yes.")


def test_cli_rules_settings_reach_the_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys,
        "--set",
        "exact_melds=yes",
        "--set",
        "layoff_same_turn=no",
        "--set",
        "stock_rebuilds=1",
        "--set",
        "wild_rank=2",
        "--set",
        f"schedule={SHANGHAI}",
        "--set",
        "buy_limit=3",
    )
    assert code == 0
    lines = numbered(out)
    assert "exactly" in lines[42]
    assert "not until the next turn" in lines[43]
    assert "1 rebuild" in lines[45]
    assert "2" in lines[46]
    assert SHANGHAI in lines[48]
    assert "3" in lines[31] and "3 per deal" in lines[47]


def test_cli_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--preset", "contract", "--set", "buy_limit=2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["buy_limit"] == 2 and data["run_min"] == 3
    assert RuleSet.from_dict(data) == rules("contract", buy_limit=2)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--set", "nonsense=1"], "unknown option 'nonsense'"),
        (["--set", "run_min=abc"], "run_min"),
        (["--set", "run_min=1"], "run_min must be at least 2"),
        (["--set", "playable_discard=maybe"], "playable_discard must be one of"),
        (["--set", "buying=perhaps"], "buying"),
        (["--set", "schedule=2X/10"], "schedule"),
        (["--set", "rank_points=1,2,3"], "rank_points"),
        (["--set", "run_min"], "option=value"),
        (["--preset", "canasta"], "unknown preset 'canasta'"),
    ],
)
def test_cli_rules_bad_option_is_a_clear_error_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("liverpool: error:")
    assert fragment in err


# ---- stock_out_ends_deal (issue 22): May I's deal ends at once when the stock cannot be refilled
@pytest.mark.parametrize("preset", PRESETS)
def test_r45_option_stock_out_ends_the_deal_at_the_discard(preset: str) -> None:
    """May I (the case its programs play): a discard that leaves no stock and no rebuild ends the
    deal at once; nobody takes that discard, everyone scores their hand."""
    game = stock_out(preset, stock_rebuilds=1, rebuilds=1, stock_out_ends_deal=True)
    apply_all(game, DrawStock(0), Discard(0, Card(2, "H")))
    (end,) = events_of(game, "deal_end")
    assert end["out"] is None and "stalemate: the stock ran out" in end["reason"]
    assert end["points"][0] == sum(RuleSet.preset(preset).points(c.rank) for c in cards("3H KS"))
    assert game.deal == 2
    assert "at once" in dict(game.rules.describe())["R45"]
    assert "at once" not in dict(rules(preset).describe())["R45"]


@pytest.mark.parametrize("preset", PRESETS)
def test_r45_option_stock_out_ends_deal_waits_while_a_rebuild_is_left(preset: str) -> None:
    game = stock_out(preset, stock_rebuilds=2, rebuilds=1, stock_out_ends_deal=True)
    apply_all(game, DrawStock(0), Discard(0, Card(2, "H")))
    assert not events_of(game, "deal_end") and events_of(game, "stock_rebuilt")
    assert game.deal == 1 and game.phase == DRAW

"""The client contract (issue 10): refusals with stable codes and rule numbers, the error classes
a client tells apart, and their import paths."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import liverpool
import liverpool.game
from liverpool import (
    Call,
    Card,
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    LayOff,
    MalformedAction,
    Meld,
    StaleAction,
    SwapJoker,
    parse_cards,
)
from liverpool.errors import CODES, classify
from liverpool.game import PLAY
from rules_helpers import position, rules, snapshot


def _down() -> Game:
    """Player 0 (down, owns the set 7S 7D 7C) has drawn; player 1 owns the run 5H 6H JK 8H."""
    return position(
        rules("liverpool", joker_swap="once_down"),
        hands=("7H KD QS 9C", "2H 3S 4D 5C 6D", "2D 3C 4S 5D 6C"),
        melds=[(0, "set", "7S 7D 7C"), (1, "run", "5H 6H JK 8H")],
        down=[0, 1],
        discard="AS",
        phase=PLAY,
        current=0,
    )


def _code(game: Game, action: object, version: int | None = None) -> IllegalAction:
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action, version)  # type: ignore[arg-type]
    assert snapshot(game) == before
    return info.value


def test_import_paths_of_the_errors() -> None:
    assert liverpool.IllegalAction is liverpool.game.IllegalAction is liverpool.errors.IllegalAction
    assert issubclass(IllegalAction, ValueError)
    assert issubclass(MalformedAction, IllegalAction) and issubclass(StaleAction, IllegalAction)
    assert liverpool.game.MalformedAction is MalformedAction


def test_every_code_is_reachable_with_its_rule() -> None:
    game = _down()
    seen: dict[str, IllegalAction] = {}
    cases: list[tuple[object, int | None, str, str | None]] = [
        (Discard(0, 9), None, "malformed", None),  # type: ignore[arg-type]
        (Discard(7, Card(7, "H")), None, "malformed", None),
        (Discard(0, Card(13, "D")), 3, "stale", None),
        (Discard(1, Card(2, "H")), None, "not_your_turn", None),
        (DrawStock(0), None, "wrong_phase", "R22"),
        (Call(1), None, "wrong_phase", "R30"),
        (Discard(0, Card(2, "C")), None, "not_in_hand", None),
        (LayOff(0, Card(13, "D"), 0), None, "invalid_meld", "R24"),
        (LayOff(0, Card(7, "H"), 5), None, "no_such_meld", None),
        (SwapJoker(0, 1, 0, Card(5, "H")), None, "no_such_meld", None),
        (Meld(0, "set", tuple(parse_cards("KD QS 9C"))), None, "forbidden", "R14"),
    ]
    for action, version, code, rule in cases:
        exc = _code(game, action, version)
        assert exc.code == code, (action, str(exc))
        assert exc.rule == rule, (action, str(exc))
        seen.setdefault(code, exc)
    assert isinstance(seen["malformed"], MalformedAction) and seen["malformed"].field == "card"
    assert isinstance(seen["stale"], StaleAction)
    # the rule numbers: R26 (a card just taken), R20 (a swap out of one's own run)
    over = Game.new(players=2, rules=rules("liverpool", schedule=rules().schedule[:1]), seed=1)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    assert _code(over, DrawStock(0)).code == "game_over"
    assert set(seen) | {"game_over"} == set(CODES)


def test_codes_follow_the_words_of_the_messages() -> None:
    assert classify("you do not hold 7H") == "not_in_hand"
    assert classify("it is seat 2's turn") == "not_your_turn"
    assert classify("something new (R12)") == "forbidden"
    assert IllegalAction("you may not discard 7H, just taken from the discard pile (R26)").rule == "R26"
    assert IllegalAction("x", code="stale").code == "stale"


def test_a_record_refusal_keeps_its_code() -> None:
    game = Game.new(players=3, seed=2)
    game.apply(game.legal_actions()[0])
    record = game.record()
    record["actions"].append({"type": "discard", "player": (game.current + 1) % 3, "card": "7H"})
    with pytest.raises(IllegalAction) as info:
        Game.from_record(record)
    assert info.value.code == "not_your_turn" and "record action 1" in str(info.value)


def test_a_record_of_format_1_replays_as_it_was_played() -> None:
    """A record the engine made before the rule fixes of issue 10 (its deal 1 ended the moment the
    stock ran out, R45): it replays under the rules it was played by, and records itself as
    format 1 again. (Made with the engine of commit 76af4aa; the scores are that engine's.)"""
    data = json.loads((Path(__file__).parent / "data" / "record_v1.json").read_text())
    record = data["record"]
    assert record["format"] == "liverpool-record/1"
    game = Game.from_record(record)
    assert game.scores == data["scores"] and game.version == data["version"] and game.deal == data["deal"]
    assert game.record()["format"] == "liverpool-record/1"
    assert Game.from_record(game.record()).scores == data["scores"]
    # read as a format 2 record, its actions break the fixed R45 at the deal's end
    with pytest.raises(IllegalAction, match="record action"):
        Game.from_record({**record, "format": "liverpool-record/2"})
    assert Game.new(players=3, seed=1).record()["format"] == "liverpool-record/2"
    with pytest.raises(ValueError, match="unknown record format"):
        Game.from_record({**record, "format": "liverpool-record/9"})


def test_the_examples_of_docs_engine_md_run() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 4, "the client contract shows an example of errors, events, positions and views"
    for block in blocks:
        exec(compile(block, "docs/engine.md", "exec"), {"__name__": "engine_md"})


def test_words_for_people_number_seats_from_0() -> None:
    """A seat the client has no name for is "seat N", N the engine's seat number (from 0, as in the
    records' ``p0``), never "player N"."""
    from liverpool.describe import describe_event

    game = Game.new(players=3, seed=2)
    p = game.current
    (event,) = game.apply(DrawStock(p))
    assert describe_event(event, []).startswith(f"seat {p} ")
    assert describe_event(event, ["Ana", "Bo", "Cy"]).startswith(["Ana", "Bo", "Cy"][p] + " ")

"""Positions (``game.position()`` / ``Game.from_position``), the view's documented shape
(``seatview.PlayerView``) and the events contract (``apply`` returns events, ``events_for``)."""

from __future__ import annotations

import random
import types
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool import (
    Buy,
    Card,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    Game,
    Meld,
    RuleSet,
    StaleAction,
    parse_action,
)
from liverpool.events import EVENT_TYPES
from liverpool.rules import parse_schedule
from liverpool.seatview import PlayerView
from rules_helpers import position

OPTIONS: list[dict[str, Any]] = [
    {},
    {"playable_discard": "liverpool", "joker_swap": "once_down"},
    {"pile_draw": True, "failed_meld_penalty": 10, "wild_rank": 2},
    {"playable_discard": "strict", "stock_rebuilds": 0, "upcard": False},
    {"schedule": parse_schedule("2S/8,1S1R/8,2R/9*"), "floating": False},
]


def _play(seed: int, options: dict[str, Any], steps: int, players: int) -> tuple[Game, random.Random]:
    rules = RuleSet().with_options(**options) if "schedule" not in options else RuleSet(**options)
    game = Game.new(players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game, rng


def _without_history(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("version", "events")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    options=st.sampled_from(OPTIONS),
    steps=st.integers(0, 400),
    players=st.integers(3, 5),
)
def test_positions_round_trip_and_play_on_alike(seed: int, options: dict[str, Any], steps: int, players: int) -> None:
    game, rng = _play(seed, options, steps, players)
    text = game.position()
    copy = Game.from_position(text)
    assert copy.position() == text
    for p in range(players):
        assert _without_history(copy.view(p)) == _without_history(game.view(p))
    assert [str(a) for a in copy.legal_actions()] == [str(a) for a in game.legal_actions()]
    # the seed is in the position: the shuffles to come (rebuilt stocks, next deals) agree too
    for _ in range(200):
        if game.is_over:
            break
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        copy.apply(parse_action(str(action)))
    assert copy.position() == game.position()


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda t: t.replace("players 3", "players 9"), "players"),
        (lambda t: t.replace("phase draw", "phase nap"), "phase"),
        (lambda t: t + "colour blue\n", "unknown field 'colour'"),
        (lambda t: t.replace("format liverpool-position/1", "format chess"), "format"),
        (lambda t: "\n".join(line for line in t.splitlines() if not line.startswith("stock")), "stock"),
        (lambda t: t.replace("hand 0 ", "hand 0 JK JK JK JK "), "too many: JK"),
        (lambda t: t.replace("seed ", "seed x"), "seed"),
    ],
)
def test_a_bad_position_is_a_clear_error(edit: Any, fragment: str) -> None:
    text = Game.new(players=3, seed=5).position()
    with pytest.raises(ValueError, match=fragment):
        Game.from_position(edit(text))


def test_rule_positions_are_built_from_the_notation() -> None:
    game = position(hands=("7H 8H", "2C 3C", "2D 3D"), stock="KS", discard="AS", current=1)
    text = game.position()
    assert "hand 0 7H 8H" in text and "pile" in text and text.splitlines()[-4] == "must_meld -"
    assert Game.from_position(text).position() == text


# ------------------------------------------------------------------------------ the view's shape
def test_the_view_has_exactly_the_keys_and_types_of_player_view() -> None:
    hints = typing.get_type_hints(PlayerView)
    for options in OPTIONS:
        game, _ = _play(4, options, 120, 4)
        view = game.view(1)
        assert set(view) == set(hints)
        for key, hint in hints.items():
            origin = typing.get_origin(hint) or hint
            value = view[key]
            if origin is typing.Union or origin is types.UnionType:
                kinds = tuple(a for a in typing.get_args(hint) if a is not type(None))
                assert value is None or isinstance(value, kinds)
            elif origin in (list, dict):
                assert isinstance(value, origin), key
            elif isinstance(origin, type) and issubclass(origin, dict):  # a nested TypedDict
                assert set(value) == set(typing.get_type_hints(origin)), key
            else:
                assert isinstance(value, origin), key
        for meld in view["melds"]:
            assert set(meld) == {"id", "owner", "kind", "start", "cards"}


# ------------------------------------------------------------------------------ events
@pytest.mark.parametrize("options", OPTIONS)
def test_every_event_has_the_keys_of_its_record_type(options: dict[str, Any]) -> None:
    game, _ = _play(11, options, 2000, 4)
    assert game.events
    for event in game.events:
        record = EVENT_TYPES[event["type"]]
        hints = typing.get_type_hints(record)
        required = set(getattr(record, "__required_keys__", hints))
        assert required <= set(event) <= set(hints), event
    versions = [e["version"] for e in game.events]
    assert versions == sorted(versions) and versions[-1] == game.version


def test_apply_returns_the_events_it_produced_stamped_with_the_version() -> None:
    game = Game.new(players=3, seed=2)
    before = len(game.events)
    action = game.legal_actions()[0]
    events = game.apply(action)
    assert events == game.events[before:] and events
    assert all(e["version"] == game.version == 1 for e in events)


def test_events_for_shows_a_seat_its_own_stock_draw_and_no_one_elses() -> None:
    game = Game.new(players=3, seed=2)
    p = game.current
    events = game.apply(DrawStock(p))
    since = len(game.events) - len(events)
    mine = [e for e in game.events_for(p, since) if e["type"] == "draw_stock"]
    theirs = [e for e in game.events_for((p + 1) % 3, since) if e["type"] == "draw_stock"]
    assert mine[0]["card"] == str(game.hand(p)[-1])
    assert "card" not in theirs[0] and "card" not in game.view(p)["events"][-1]
    assert "card" not in game.events[-1]  # the public record stays public


def test_buy_penalty_cards_are_shown_to_the_buyer_only() -> None:
    game = position(
        RuleSet(),
        hands=("2H 3H", "4C 5C", "6D 7D"),
        stock="QS KS",
        discard="AS 9C",
        current=1,
        discarder=0,
    )
    since = len(game.events)
    game.apply(Buy(2, Card(9, "C")))
    game.apply(DrawStock(1))
    (buyer_sees,) = [e for e in game.events_for(2, since) if e["type"] == "buy"]
    (other_sees,) = [e for e in game.events_for(1, since) if e["type"] == "buy"]
    assert buyer_sees["penalty_cards"] == ["KS"] and "penalty_cards" not in other_sees
    assert other_sees["card"] == "9C" and other_sees["penalty"] == 1


# ------------------------------------------------------------------------------ actions name what they take
def test_actions_that_take_a_card_name_it_and_a_stale_one_is_refused() -> None:
    game = position(hands=("2H 3H", "4C 5C", "6D 7D"), stock="QS KS", discard="AS 9C", current=1, discarder=0)
    legal = game.legal_actions()
    take = next(a for a in legal if isinstance(a, DrawDiscard))
    assert take.card == Card(9, "C") and str(take) == "p1 draw_discard 9C"
    assert next(a for a in legal if isinstance(a, Buy)).card == Card(9, "C")
    assert DrawDiscard(1) in legal  # the card is a check, not part of the move
    with pytest.raises(StaleAction) as info:
        game.apply(DrawDiscard(1, Card(1, "S")))
    assert info.value.code == "stale"
    with pytest.raises(StaleAction):
        game.apply(DrawStock(1), version=game.version + 1)
    game.apply(parse_action("p1 draw_discard 9C"))
    assert Card(9, "C") in game.hand(1)


def test_pile_draws_name_the_deepest_card() -> None:
    game = position(
        RuleSet.preset("contract"),
        hands=("2H 3H 4S", "4C 4D 4H 9D 9H 6S 7S 8S", "6D 7D 10D"),
        stock="QS KS",
        discard="9C KD",
        current=1,
        discarder=0,
    )
    pile = [a for a in game.legal_actions() if isinstance(a, DrawFromPile)]
    assert [str(a) for a in pile] == ["p1 draw_pile 1 9C"]
    with pytest.raises(StaleAction):
        game.apply(DrawFromPile(1, 1, Card(13, "D")))


def test_a_set_is_listed_once_in_card_order() -> None:
    game = position(hands=("7H 7S 7D 7C 9H 9S 9D KC", "2C 3C", "2D 3D"), stock="QS KS", phase="play", current=0)
    sets = [a for a in game.legal_actions() if isinstance(a, Meld) and a.kind == "set"]
    assert sets and all(list(a.cards) == sorted(a.cards) for a in sets)
    assert len({a.cards for a in sets}) == len(sets)
    game.apply(Meld(0, "set", (Card(7, "C"), Card(7, "H"), Card(7, "S"))))  # another order is accepted
    assert Discard(0, Card(13, "C")) not in game.legal_actions()  # staged: finish first

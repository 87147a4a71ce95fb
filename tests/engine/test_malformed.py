"""Untrusted input (issue 10): every malformed action is refused with ``IllegalAction`` and a reason,
and nothing changes: state, views and record stay as they were, and the record still replays.

Hypothesis builds actions of every type with one field given a wrong type (plain ints for cards,
bools for seats, strings, None, lists for tuples) or an out-of-range value, and dicts and texts
for :func:`action_from_dict` / :func:`parse_action` with a bad field."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool import (
    Action,
    Buy,
    Call,
    Card,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    Game,
    IllegalAction,
    LayOff,
    Meld,
    Pass,
    Retract,
    RuleSet,
    SwapJoker,
    Unswap,
    action_from_dict,
    parse_action,
)
from liverpool.errors import MalformedAction, StaleAction
from rules_helpers import snapshot

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS: list[dict[str, Any]] = [
    {},
    {"playable_discard": "liverpool", "joker_swap": "once_down"},
    {"pile_draw": True, "failed_meld_penalty": 10},
]


@cache
def _positions() -> tuple[Game, ...]:
    """Games in many phases: random play from a few seeds, kept every few actions."""
    out: list[Game] = []
    for seed, options in enumerate(OPTIONS * 2):
        game = Game.new(players=3 + seed % 3, rules=RuleSet().with_options(**options), seed=seed)
        rng = random.Random(seed)
        for step in range(120):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            if step % 15 == 7:
                out.append(game.copy())
    return tuple(out)


positions = st.integers(min_value=0, max_value=10**6).map(lambda i: _positions()[i % len(_positions())])

A_CARD = Card(7, "H")
not_a_card = st.one_of(
    st.integers(min_value=-5, max_value=80),  # plain ints: cards are ints underneath
    st.text(max_size=3),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.just((A_CARD,)),
    st.just([A_CARD]),
)
not_an_int = st.one_of(
    st.booleans(), st.text(max_size=3), st.none(), st.floats(allow_nan=False), st.just([0]), st.just(A_CARD)
)
out_of_range = st.one_of(st.integers(max_value=-1), st.integers(min_value=500))
not_a_bool = st.one_of(st.integers(), st.text(max_size=5), st.none(), st.just(A_CARD))
not_cards = st.one_of(
    st.just([A_CARD, A_CARD, A_CARD]),  # a list, not a tuple
    st.just(()),
    st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)),
    st.tuples(st.just("7H"), st.just("7S"), st.just("7D")),
    st.tuples(st.just(A_CARD), st.none()),
    st.none(),
    st.text(max_size=4),
)

not_an_optional_card = st.one_of(  # where None is allowed (the card a draw names, a declared card)
    st.integers(min_value=-5, max_value=80),
    st.text(max_size=3),
    st.booleans(),
    st.floats(allow_nan=False),
    st.just((A_CARD,)),
    st.just([A_CARD]),
)

# (class, its fields beyond player with a valid value each; None: an optional card)
SHAPES: list[tuple[type[Action], dict[str, Any]]] = [
    (DrawStock, {}),
    (DrawDiscard, {"card": None}),
    (DrawFromPile, {"depth": 1, "card": None}),
    (Buy, {"card": None}),
    (Pass, {}),
    (Call, {"card": None}),
    (Meld, {"kind": "set", "cards": (A_CARD, Card(7, "S"), Card(7, "D")), "declared": None}),
    (LayOff, {"card": A_CARD, "meld": 0, "high": True}),
    (SwapJoker, {"meld": 0, "index": 0, "card": A_CARD}),
    (Unswap, {}),
    (Discard, {"card": A_CARD}),
    (EndTurn, {}),
    (Retract, {}),
]
WRONG = {
    "player": st.one_of(not_an_int, out_of_range),
    "card": not_a_card,
    "depth": st.one_of(not_an_int, out_of_range),
    "meld": st.one_of(not_an_int, out_of_range),
    "index": st.one_of(not_an_int, out_of_range),
    "high": not_a_bool,
    "kind": st.one_of(st.none(), st.integers(), st.just(["set"])),
    "cards": not_cards,
    "declared": not_an_optional_card,
}


@st.composite
def bad_actions(draw: st.DrawFn) -> tuple[Action, str]:
    """An action of any type with one field wrong, and that field's name."""
    cls, fields = draw(st.sampled_from(SHAPES))
    names = ["player", *fields]
    field = draw(st.sampled_from(names))
    wrong = not_an_optional_card if field in fields and fields[field] is None else WRONG[field]
    values = {"player": 0, **fields, field: draw(wrong)}
    action = cls(values.pop("player"), **values)  # dataclasses do not check types: the engine must
    return action, field


def assert_unchanged_and_replays(game: Game, before: list[Any]) -> None:
    assert snapshot(game) == before
    replayed = Game.from_record(json.loads(json.dumps(game.record())))
    assert [replayed.view(p) for p in range(game.players)] == [game.view(p) for p in range(game.players)]


@SETTINGS
@given(game=positions, bad=bad_actions(), seat=st.integers(0, 7))
def test_every_field_of_every_action_is_checked(game: Game, bad: tuple[Action, str], seat: int) -> None:
    game = game.copy()
    action, field = bad
    if field != "player":
        object.__setattr__(action, "player", seat % game.players)
    before = snapshot(game)
    assert not game.can_apply(action)
    assert all(action is not listed for listed in game.legal_actions())  # (DrawStock(True) == DrawStock(1))
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    exc = info.value
    assert isinstance(exc, ValueError) and str(exc)
    assert exc.code in ("malformed", "no_such_meld", "forbidden", "not_your_turn", "wrong_phase", "game_over")
    if isinstance(exc, MalformedAction):
        assert exc.field == field and field in str(exc)
    assert_unchanged_and_replays(game, before)


@SETTINGS
@given(game=positions, kind=st.sampled_from([DrawDiscard, Buy, Call, DrawFromPile]), seat=st.integers(0, 7))
def test_a_card_that_is_not_the_one_taken_is_stale(game: Game, kind: type[Action], seat: int) -> None:
    """DrawDiscard, Buy and Call name the top discard, DrawFromPile the deepest card it takes: another
    card is refused (as stale in the draw phase, when these actions are made), and nothing changes."""
    game = game.copy()
    p = seat % game.players
    pile = game.discard_pile
    taken = (pile[-2] if len(pile) > 1 else None) if kind is DrawFromPile else (pile[-1] if pile else None)
    other = next(c for c in (Card(7, "H"), Card(8, "S")) if c is not taken)
    action = kind(p, 1, other) if kind is DrawFromPile else kind(p, other)  # type: ignore[call-arg]
    before = snapshot(game)
    assert not game.can_apply(action)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    exc = info.value
    assert str(exc)
    if game.phase == "draw" and (kind is not DrawFromPile or len(pile) > 1):
        assert isinstance(exc, StaleAction) and exc.code == "stale" and str(other) in str(exc)
    else:
        assert exc.code in ("stale", "wrong_phase", "forbidden", "not_your_turn", "no_such_meld", "game_over")
    assert_unchanged_and_replays(game, before)


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=4)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=5,
)


@SETTINGS
@given(game=positions, pick=st.integers(0, 10**6), data=st.data())
def test_action_dicts_from_clients_are_read_strictly(game: Game, pick: int, data: st.DataObject) -> None:
    game = game.copy()
    legal = game.legal_actions()
    if not legal:
        return
    good = legal[pick % len(legal)].to_dict()
    bad = dict(good)
    how = data.draw(st.sampled_from(["replace", "drop", "extra"]))
    key = data.draw(st.sampled_from(sorted(good)))
    if how == "replace":
        bad[key] = data.draw(json_values)
    elif how == "drop":
        del bad[key]
    else:
        bad[data.draw(st.text(min_size=1, max_size=5).filter(lambda k: k not in good))] = 1
    before = snapshot(game)
    try:
        action = action_from_dict(bad)
    except MalformedAction as exc:
        assert isinstance(exc, ValueError) and exc.code == "malformed"
        assert exc.field is not None and (exc.field in str(exc) or repr(exc.field) in str(exc) or exc.field == "type")
        return
    # read: it is a well-formed action (perhaps another legal one); applying it is all or nothing
    try:
        game.apply(action)
    except IllegalAction:
        assert_unchanged_and_replays(game, before)
    else:
        Game.from_record(game.record())


@SETTINGS
@given(text=st.text(max_size=30))
def test_action_texts_are_read_strictly(text: str) -> None:
    try:
        action = parse_action(text)
    except MalformedAction as exc:
        assert exc.code == "malformed" and str(exc)
        return
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "discard", "player": 0, "card": 9}, "card"),
        ({"type": "discard", "player": 0, "card": None}, "card"),
        ({"type": "discard", "player": True, "card": "7H"}, "player"),
        ({"type": "discard", "player": 0}, "card"),
        ({"type": "lay_off", "player": 0, "card": "7H", "meld": "0", "high": True}, "meld"),
        ({"type": "lay_off", "player": 0, "card": "7H", "meld": 0, "high": "false"}, "high"),
        ({"type": "swap", "player": 0, "meld": 0, "index": 1.0, "card": "7H"}, "index"),
        ({"type": "draw_stock", "player": 0, "depth": 1}, "depth"),
        ({"type": "draw_pile", "player": 0, "depth": False}, "depth"),
        ({"type": "meld", "player": 0, "kind": "set", "cards": 7}, "cards"),
        ({"type": "meld", "player": 0, "kind": "set", "cards": []}, "cards"),
        ({"type": "meld", "player": 0, "kind": 1, "cards": ["7H"]}, "kind"),
        ({"type": "fly", "player": 0}, "type"),
    ],
)
def test_action_from_dict_names_the_bad_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(MalformedAction) as info:
        action_from_dict(data)
    assert info.value.field == field and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("p0 lay_off 7H 3 sideways", "high"),
        ("p0 lay_off 7H x", "meld"),
        ("p0 discard 7H 8H", "arguments"),
        ("p0 discard", "card"),
        ("p0 discard 99", "card"),
        ("p0 draw_pile -1", "depth"),
        ("p0 swap 0 one 7H", "index"),
        ("px draw_stock", "player"),
        ("p0 fly", "type"),
        # str.isdigit accepts these, int() refuses "²" and reads "٣" as 3: ASCII digits only
        ("p² draw_stock", "player"),
        ("p٣ draw_stock", "player"),
        ("p0 draw_pile ²", "depth"),
        ("p0 draw_pile ٣", "depth"),
        ("p0 swap ² 1 7H", "meld"),
        ("p0 swap 0 ² 7H", "index"),
        ("p0 lay_off 7H ²", "meld"),
        ("p0 lay_off 7H ٣ high", "meld"),
    ],
)
def test_parse_action_names_the_bad_field(text: str, field: str) -> None:
    with pytest.raises(MalformedAction) as info:
        parse_action(text)
    assert info.value.field == field and info.value.code == "malformed" and str(info.value)


def test_the_defects_the_issue_names_are_refused_and_change_nothing() -> None:
    """``Discard(p, 9)``, ``DrawStock(True)``, a Meld with a list of cards, cards as strings or
    None, a string meld id, ``high="low"``: each is refused and the record still replays."""
    for game in _positions():
        game = game.copy()
        p = game.current
        hand = game.hand(p)
        before = snapshot(game)
        for action in [
            Discard(p, int(hand[0])),  # type: ignore[arg-type]
            Discard(p, str(hand[0])),  # type: ignore[arg-type]
            Discard(p, None),  # type: ignore[arg-type]
            DrawStock(True),
            Meld(p, "set", list(hand[:3])),  # type: ignore[arg-type]
            LayOff(p, hand[0], "0", True),  # type: ignore[arg-type]
            LayOff(p, hand[0], 0, "low"),  # type: ignore[arg-type]
            SwapJoker(p, 0, 0, None),  # type: ignore[arg-type]
        ]:
            with pytest.raises(MalformedAction):
                game.apply(action)
            assert snapshot(game) == before
        assert_unchanged_and_replays(game, before)


# ------------------------------------------------------------------------------ fresh views
def _scribble(value: Any) -> None:
    """Change every list and dict inside ``value`` that allows it (read-only records refuse)."""
    if isinstance(value, dict):
        for v in list(value.values()):
            _scribble(v)
        with contextlib.suppress(TypeError):
            value["scribbled"] = True
    elif isinstance(value, list):
        for v in list(value):
            _scribble(v)
        with contextlib.suppress(TypeError):
            value.append("scribbled")


@pytest.mark.parametrize("index", range(0, 12, 3))
def test_editing_a_view_changes_neither_the_game_nor_another_view(index: int) -> None:
    game = _positions()[index].copy()
    views = [json.dumps(game.view(p), sort_keys=True) for p in range(game.players)]
    record = json.dumps(game.record(), sort_keys=True)
    mine = game.view(0)
    other = game.view(1)
    _scribble(mine)
    assert json.dumps(other, sort_keys=True) == views[1]
    assert [json.dumps(game.view(p), sort_keys=True) for p in range(game.players)] == views
    assert json.dumps(game.record(), sort_keys=True) == record
    with pytest.raises(TypeError, match="read-only"):
        mine["events"][0]["type"] = "changed"
    plain = copy.deepcopy(game.view(0))  # a deep copy is plain and changeable
    plain["events"][0]["type"] = "changed"
    assert game.view(0)["events"][0]["type"] != "changed"

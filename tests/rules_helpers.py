"""Helpers for the rule tests R26-R49: build a game in an exact position and check refusals.

A position is written in the public notation of :mod:`liverpool.positions` (hands, stock,
discard pile, melds on the table, who is down, whose turn and which phase) and read with
``Game.from_position``. Unless told otherwise the
cards the position does not name go to the bottom of the stock, so that every card of the deck
is somewhere exactly once (:func:`assert_conserved`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import pytest

from helpers import CONTRACT, LIVERPOOL, PRESETS, cards, events_of, rules
from liverpool import Action, Card, Game, IllegalAction, Meld, RuleSet
from liverpool.cards import full_deck
from liverpool.game import DRAW
from liverpool.melds import run_start

__all__ = [
    "CONTRACT",
    "LIVERPOOL",
    "PRESETS",
    "apply_all",
    "assert_conserved",
    "assert_legal_agrees",
    "assert_refused",
    "cards",
    "events_of",
    "position",
    "rules",
    "snapshot",
]


Rest = Literal["stock", "discard", "hand"]


def _deck(game: Game) -> Counter[Card]:
    return Counter(full_deck(game.rules.packs_for(game.players), game.rules.jokers_per_pack))


def _placed(game: Game) -> Counter[Card]:
    """Every card in play, a dead deuce (``dead_discarded_wild``) counted as the deuce it was."""
    placed: Counter[Card] = Counter()
    for hand in game.hands:
        placed.update(c.live for c in hand)
    placed.update(c.live for c in game.stock)
    placed.update(c.live for c in game.discard)
    for meld in game.melds:
        placed.update(c.live for c in meld.cards)
    for _, staged in game.staged():
        placed.update(c.live for c in staged)
    return placed


def position(
    rule_set: RuleSet | None = None,
    *,
    hands: Sequence[str],
    stock: str = "",
    discard: str = "",
    melds: Sequence[tuple[int, str, str]] = (),
    down: Iterable[int] = (),
    current: int = 0,
    phase: str = DRAW,
    discarder: int | None = None,
    fresh: bool = True,
    call_open: bool = False,
    deal: int = 1,
    turn: int = 10,
    went_down_this_turn: bool = False,
    scores: Sequence[int] | None = None,
    buys_used: Sequence[int] | None = None,
    rebuilds: int = 0,
    levels: Sequence[int] | None = None,
    rest: Rest = "stock",
    seed: int = 1,
) -> Game:
    """A game of ``len(hands)`` players in an exact position.

    ``hands``: one string of card tokens per seat. ``stock`` and ``discard``: tokens, the top card
    last. ``melds``: (owner, "set" or "run", tokens in table order). ``down``: the seats that are
    down (they went down in an earlier turn unless ``went_down_this_turn``). ``phase`` is "draw"
    (``current`` is to draw; ``discarder`` made the top discard, ``fresh`` says whether it may still
    be taken or bought, ``call_open`` whether it may be called) or "play" (``current`` has drawn).
    ``rest`` says where the deck's other cards go: under the given ``stock`` (the default), under
    the given ``discard`` pile, or into the last seat's hand ("hand": a stock and a pile of
    exactly the cards given). ``levels``: each seat's level, 0-based, with ``progression="player"``.
    """
    r = rule_set if rule_set is not None else LIVERPOOL
    n = len(hands)
    deck = Counter(full_deck(r.packs_for(n), r.jokers_per_pack))
    given_stock = cards(stock)
    given_discard = cards(discard)
    table = []
    placed: Counter[Card] = Counter(c.live for c in given_stock + given_discard)  # 2H~ is a 2H of the deck
    for i, (owner, kind, text) in enumerate(melds):
        meld_cards = cards(text)
        start = run_start(meld_cards, r) if kind == "run" else 0
        if kind == "run" and start is None:
            raise ValueError(f"not a run in table order: {text}")
        table.append(f"meld {i} {owner} {kind} {start or 0} {text}")
        placed.update(c.live for c in meld_cards)
    for h in hands:
        placed.update(c.live for c in cards(h))
    extra = [c for c, k in (placed - deck).items() if k > 0]
    if extra:
        raise ValueError(f"the position holds more copies of {extra} than the deck has")
    others = sorted((deck - placed).elements())
    random.Random(seed).shuffle(others)
    full_stock, full_discard = given_stock, given_discard
    hand_texts = list(hands)
    if rest == "stock":
        full_stock = others + given_stock
    elif rest == "discard":
        full_discard = others + given_discard
    else:
        hand_texts[-1] = " ".join([hand_texts[-1], *map(str, others)]).strip()
    down_set = set(down)

    def words(values: Iterable[object]) -> str:
        text = " ".join(str(v) for v in values)
        return text or "-"

    lines = [
        "format liverpool-position/1",
        "rules " + json.dumps(r.to_dict()),
        f"players {n}",
        f"seed {seed}",
        f"deal {deal}",
        f"dealer {(current - 1) % n}",
        f"turn {turn}",
        f"current {current}",
        f"phase {phase}",
        f"scores {words(scores if scores is not None else [0] * n)}",
        "deal_scores -",
        *([f"levels {words(v + 1 for v in levels)}"] if levels is not None else []),
        *(f"hand {p} {h or '-'}" for p, h in enumerate(hand_texts)),
        f"stock {words(full_stock)}",
        f"pile {words(full_discard)}",
        *table,
        f"down {words(int(p in down_set) for p in range(n))}",
        "down_turn " + words((turn if went_down_this_turn else turn - 1) if p in down_set else -1 for p in range(n)),
        f"buys_used {words(buys_used if buys_used is not None else [0] * n)}",
        f"knocked {words(int(len(cards(h)) == 1) for h in hand_texts)}",
        f"rebuilds {rebuilds}",
        f"discarder {'-' if discarder is None else discarder}",
        f"fresh {int(fresh and phase == DRAW and bool(full_discard))}",
        f"call_open {int(call_open)}",
        "buy_requests -",
        "passed -",
        "taken -",
        "must_meld -",
        "swap_base 0",
        "retracted 0",
        "resume -",
    ]
    return Game.from_position("\n".join(lines))


def assert_conserved(game: Game) -> None:
    """Every card of the deck is in exactly one place: a hand, the stock, the pile or the table."""
    assert _placed(game) == _deck(game)


def snapshot(game: Game) -> list[Any]:
    """Everything a refused action must leave untouched: every seat's view, the record, the
    hidden stock and hands."""
    return [
        [game.view(p) for p in range(game.players)],
        game.record(),
        [str(c) for c in game.stock],
        [[str(c) for c in game.hand(p)] for p in range(game.players)],
        game.scores,
        len(game.events),
    ]


def assert_refused(game: Game, action: Action, *fragments: str) -> str:
    """``action`` is refused with IllegalAction whose message holds every ``fragments`` (case
    ignored), is not listed as legal, and leaves the game exactly as it was. Returns the message."""
    before = snapshot(game)
    assert not game.can_apply(action)
    assert action not in game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    message = str(info.value)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} not in {message!r}"
    assert snapshot(game) == before
    return message


def apply_all(game: Game, *actions: Action) -> None:
    """Apply each action in turn; each (but a meld, listed in one arrangement only) must be
    listed in ``legal_actions`` first."""
    for action in actions:
        if not isinstance(action, Meld) and action not in game.legal_actions():
            game.verify(action)  # raises with the reason
            raise AssertionError(f"{action} is legal but not listed in legal_actions()")
        game.apply(action)


def assert_legal_agrees(game: Game, candidates: Iterable[Action]) -> None:
    """For each candidate action: listed in ``legal_actions()`` exactly when ``can_apply``."""
    legal = game.legal_actions()
    for action in candidates:
        assert (action in legal) == game.can_apply(action), f"{action}: listed {action in legal}"

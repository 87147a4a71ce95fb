"""Helpers for the rule tests R1-R25: build a game in an exact position, check refusals.

A position is built with :meth:`Game.from_view`: a real view of a fresh game of the same table is
edited (deal, hands, discard pile, melds, who is down, whose turn, which phase) and the hidden
cards filled in. Unless told otherwise the deck's cards the position does not name go under the
given stock, so that every card of the deck is somewhere exactly once (:func:`assert_conserved`).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

import pytest

from liverpool import Action, Card, Game, IllegalAction, Meld, RuleSet, parse_card, parse_cards
from liverpool.bots import get
from liverpool.cards import full_deck
from liverpool.driver import next_to_act
from liverpool.melds import run_start

__all__ = [
    "CONTRACT",
    "LIVERPOOL",
    "PRESETS",
    "assert_conserved",
    "assert_refused",
    "build",
    "card",
    "cards",
    "deck_of",
    "events_of",
    "greedy_decisions",
    "hand_counter",
    "listed",
    "meld",
    "meld_ids",
    "play",
    "random_house_rules",
    "rules",
    "snapshot",
]

LIVERPOOL = RuleSet.preset("liverpool")
CONTRACT = RuleSet.preset("contract")
PRESETS = ("liverpool", "contract")

Rest = Literal["stock", "discard", "none"]


def random_house_rules(rng: random.Random, preset: str, choices: Mapping[str, Sequence[Any]]) -> RuleSet:
    """``preset`` with each option of ``choices`` (option: its values) drawn by ``rng``; the preset
    itself when the rules refuse the combination drawn."""
    names = {f.name for f in dataclasses.fields(RuleSet)}
    options: dict[str, Any] = {k: rng.choice(list(v)) for k, v in choices.items() if k in names}
    try:
        return dataclasses.replace(RuleSet.preset(preset), **options)
    except ValueError:  # a combination the rules refuse
        return RuleSet.preset(preset)


def greedy_decisions(
    seed: int, count: int, choices: Mapping[str, Sequence[Any]], players: Sequence[int] = (3, 4, 5)
) -> Iterator[tuple[Game, int, list[Action]]]:
    """(game, seat to act, its legal actions) at every decision of ``count`` whole games of greedy
    bots, the presets in turn, each with random house rules (:func:`random_house_rules`)."""
    rng = random.Random(seed)
    for i in range(count):
        rule_set = random_house_rules(rng, PRESETS[i % 2], choices)
        game = Game.new(players=rng.choice(list(players)), rules=rule_set, seed=rng.getrandbits(32))
        bots = [get("greedy", seed=p) for p in range(game.players)]
        while not game.is_over:
            seat, legal = next_to_act(game)
            yield game, seat, legal
            game.apply(bots[seat].act(game.view(seat), legal))


def rules(preset: str = "liverpool", **options: Any) -> RuleSet:
    """A preset with some options changed."""
    return dataclasses.replace(RuleSet.preset(preset), **options)


def cards(text: str) -> list[Card]:
    """Cards from tokens, e.g. ``cards("7H 7S JK")``."""
    return parse_cards(text)


def card(text: str) -> Card:
    return parse_card(text)


def meld(player: int, kind: str, text: str) -> Meld:
    """A Meld action from tokens in table order."""
    return Meld(player, kind, tuple(parse_cards(text)))


def deck_of(rule_set: RuleSet, players: int) -> Counter[Card]:
    """The deck a table of ``players`` plays with, as a multiset."""
    return Counter(full_deck(rule_set.packs_for(players), rule_set.jokers_per_pack))


def hand_counter(game: Game, player: int) -> Counter[Card]:
    return Counter(game.hand(player))


def build(
    rule_set: RuleSet,
    hands: Sequence[str],
    *,
    deal: int = 1,
    current: int = 0,
    phase: str = "play",
    discard: str = "",
    stock: str = "",
    melds: Sequence[tuple[int, str, str]] = (),
    down: Iterable[int] | None = None,
    down_turn: dict[int, int] | None = None,
    turn: int = 20,
    dealer: int | None = None,
    taken: str | None = None,
    fresh: bool = False,
    discarder: int | None = None,
    rest: Rest = "stock",
    scores: Sequence[int] | None = None,
) -> Game:
    """A game of ``len(hands)`` players in an exact position, built through ``Game.from_view``.

    ``hands``: card tokens per seat. ``stock``, ``discard``: tokens, top card last. ``melds``:
    (owner, "set" or "run", tokens in table order). ``down``: seats that are down (default: the
    owners of ``melds``); they went down in an earlier turn unless ``down_turn`` says otherwise.
    ``phase``: "draw" (``current`` is to draw) or "play" (``current`` has drawn; ``taken`` is the
    card just taken from the discard pile, if any). ``rest``: where the deck's other cards go,
    under the ``stock`` (default), under the ``discard`` pile, or nowhere ("none").
    """
    n = len(hands)
    template = Game.new(players=n, rules=rule_set, seed=0)
    view = template.view(0)
    hand_cards = [parse_cards(h) for h in hands]
    discard_cards = parse_cards(discard)
    stock_cards = parse_cards(stock)
    table = [(owner, kind, parse_cards(text)) for owner, kind, text in melds]
    if rest != "none":
        used: Counter[Card] = Counter(discard_cards) + Counter(stock_cards)
        for h in hand_cards:
            used.update(h)
        for _, _, meld_cards in table:
            used.update(meld_cards)
        deck = deck_of(rule_set, n)
        too_many = used - deck
        if too_many:
            raise ValueError(f"the position holds more copies of {sorted(too_many)} than the deck has")
        others = sorted((deck - used).elements())
        random.Random(1).shuffle(others)
        if rest == "stock":
            stock_cards = others + stock_cards
        else:
            discard_cards = others + discard_cards
    view_melds = []
    for i, (owner, kind, meld_cards) in enumerate(table):
        start = run_start(meld_cards, rule_set) if kind == "run" else 0
        if start is None:
            raise ValueError(f"not a run in table order: {meld_cards}")
        view_melds.append(
            {"id": i, "owner": owner, "kind": kind, "start": start, "cards": [str(c) for c in meld_cards]}
        )
    downs = {owner for owner, _, _ in melds} if down is None else set(down)
    turns = down_turn or {}
    view.update(
        deal=deal,
        dealer=(current - 1) % n if dealer is None else dealer,
        current=current,
        phase=phase,
        turn=turn,
        hand=[str(c) for c in hand_cards[0]],
        hand_sizes=[len(h) for h in hand_cards],
        down=[p in downs for p in range(n)],
        down_turn=[turns.get(p, turn - n) if p in downs else -1 for p in range(n)],
        buys_used=[0] * n,
        scores=list(scores) if scores is not None else [0] * n,
        deal_scores=[[0] * n for _ in range(deal - 1)],
        melds=view_melds,
        staged=[],
        discard_pile=[str(c) for c in discard_cards],
        stock_size=len(stock_cards),
        rebuilds=0,
        fresh_discard=fresh,
        discarder=discarder,
        passed=[],
        buy_requests=[],
        call_window=False,
        taken_from_discard=taken,
        must_meld=None,
        swaps=[],
        unswapped=[],
        retracted=False,
    )
    return Game.from_view(view, {p: hand_cards[p] for p in range(n)}, stock_cards)


def assert_conserved(game: Game) -> None:
    """Every card of the deck is in exactly one place: a hand, the stock, the pile, the table or
    the lay-down being staged."""
    placed: Counter[Card] = Counter(game.stock) + Counter(game.discard_pile)
    for p in range(game.players):
        placed.update(game.hand(p))
    for m in game.melds:
        placed.update(m.cards)
    for _, staged in game.staged():
        placed.update(staged)
    assert placed == deck_of(game.rules, game.players)
    assert sum(placed.values()) == game.deck_size


def snapshot(game: Game) -> list[Any]:
    """What a refused action must leave untouched: every seat's view, the record, the stock."""
    return [
        [game.view(p) for p in range(game.players)],
        game.record(),
        [str(c) for c in game.stock],
        game.scores,
    ]


def listed(game: Game, action: Action) -> bool:
    """Is ``action`` in ``legal_actions()``? A set is compared as a multiset (the listing orders a
    set's cards its own way); anything else exactly."""
    if isinstance(action, Meld) and action.kind == "set":
        want = Counter(action.cards)
        return any(
            isinstance(a, Meld) and a.kind == "set" and a.player == action.player and Counter(a.cards) == want
            for a in game.legal_actions()
        )
    return action in game.legal_actions()


def assert_refused(game: Game, action: Action, *fragments: str) -> str:
    """``action`` is refused with an IllegalAction whose message holds every fragment (case
    ignored), is not listed as legal, and leaves the game exactly as it was. Returns the message."""
    before = snapshot(game)
    assert not game.can_apply(action)
    assert not listed(game, action), f"{action} is refused but listed in legal_actions()"
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    message = str(info.value)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} not in {message!r}"
    assert snapshot(game) == before, f"refused {action} changed the game"
    return message


def play(game: Game, *actions: Action) -> None:
    """Apply each action; each must be legal (``can_apply``) and listed in ``legal_actions()``
    (a set compared as a multiset; a run must be listed in its exact arrangement only when it
    uses no wild card, since the listing places wild cards its own way)."""
    for action in actions:
        game.verify(action)
        if isinstance(action, Meld) and action.kind == "run" and any(game.rules.is_wild(c.rank) for c in action.cards):
            pass
        else:
            assert listed(game, action), f"{action} is legal but not listed in legal_actions()"
        game.apply(action)


def meld_ids(game: Game) -> list[int]:
    return [m.id for m in game.melds]


def events_of(game: Game, kind: str) -> list[dict[str, Any]]:
    """The game's events of one type."""
    return [e for e in game.events if e["type"] == kind]

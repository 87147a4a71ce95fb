"""The shape of what a seat is told: :class:`PlayerView`, the dict ``Game.view(p)`` returns.

Every client (server, browser, terminal, RL environment, bots) reads this one shape. A view is
JSON-serializable; it holds that seat's knowledge only (its own hand, everyone's hand size, the
table, the whole discard pile, the public history of the deal) and never another hand, the
stock's order or the seed. Each call returns new containers: editing a view changes neither the
game nor another view (the event records in it are shared read-only dicts, see
:mod:`liverpool.events`). ``tests/engine/test_positions.py`` checks that the keys and value types agree
with ``Game.view``.

>>> from liverpool import Game
>>> view = Game.new(players=3, seed=1).view(0)
>>> sorted(view) == sorted(PlayerView.__annotations__)
True
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = ["ContractView", "MeldView", "PlayerView", "StagedMeld"]


class ContractView(TypedDict):
    """This deal's contract (R10): ``sets`` and ``runs`` to lay, ``cards`` dealt, ``whole_hand``
    (R15) and ``text`` (in words, e.g. ``1 set + 1 run``)."""

    sets: int
    runs: int
    cards: int
    whole_hand: bool
    text: str


class MeldView(TypedDict):
    """A meld on the table: its ``id`` (the ``meld`` of LayOff/SwapJoker), ``owner``, ``kind``
    ("set" or "run"), ``start`` (a run's first value, 1-14; 0 for a set; with ``wrap_around`` a
    run's values go on past 14, 15 being a 2, and below 1, 0 being a king) and ``cards`` (tokens,
    in table order); ``declared``, only for a run of wild cards (``run_min_naturals`` 0): the
    natural card its first place stands for."""

    id: int
    owner: int
    kind: str
    start: int
    cards: list[str]
    declared: NotRequired[str]


class StagedMeld(TypedDict):
    """A meld laid toward the contract this turn, not yet on the table (R14); ``declared`` as in
    :class:`MeldView`."""

    kind: str
    cards: list[str]
    declared: NotRequired[str]


class PlayerView(TypedDict):
    """What seat ``player`` may know (``Game.view(player)``)."""

    player: int
    """The seat this view is for (seats are numbered from 0)."""
    players: int
    deal: int
    """The deal being played, 1-based."""
    deals: int
    contract: ContractView
    dealer: int
    current: int
    """The seat to act (to draw, to play, or a Liverpool caller to discard)."""
    phase: str
    """"draw", "play", "liverpool_discard" or "over"."""
    turn: int
    version: int
    """Actions applied so far: pass it to ``Game.apply(action, version)`` to detect a stale one."""
    hand: list[str]
    """This seat's cards (tokens), in the order held."""
    hand_sizes: list[int]
    down: list[bool]
    """Per seat: has laid down this deal's contract (R14)."""
    buys_used: list[int]
    scores: list[int]
    """Running totals (R40, R41)."""
    deal_scores: list[list[int]]
    """Points of each deal played, per seat."""
    melds: list[MeldView]
    staged: list[StagedMeld]
    discard_pile: list[str]
    """Bottom first; the top card last."""
    stock_size: int
    deck_size: int
    buy_window: bool
    """A buy may be asked now (R27): in the draw phase, or in the play phase after a stock draw
    with ``buy_window="until_discard"`` (R30)."""
    buy_requests: list[int]
    call_window: bool
    """The top discard may be called (R33, R34)."""
    taken_from_discard: str | None
    """The card the player to play took from the pile this turn, locked for the discard (R26)."""
    must_meld: str | None
    """The deepest card of a pile draw, to be melded before anything else (R22)."""
    down_turn: list[int]
    """Per seat: the turn it went down in (-1: not down)."""
    rebuilds: int
    fresh_discard: bool
    discarder: int | None
    passed: list[int]
    swaps: list[list[Any]]
    """This turn's open joker swaps: [meld id, place value, natural card, wild card] (R20)."""
    unswapped: list[list[int]]
    swap_base: int
    retracted: bool
    resume: int | None
    """R34 (``liverpool_resume`` "in_turn"): the seat that draws after the caller's discard."""
    rules: dict[str, Any]
    """The rules in effect (``RuleSet.to_dict()``)."""
    events: list[dict[str, Any]]
    """The public history since the last deal began (read-only records, :mod:`liverpool.events`)."""
    is_over: bool
    winners: list[int]

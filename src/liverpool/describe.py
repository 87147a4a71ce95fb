"""Plain words for cards, actions and events: the one home of the text every client shows
(the browser's legal moves and last-move line, the terminal app's moves and log, the review).

No rules here, only text. Only what the seat may know is used: the action itself, the seat's view
(the card on top of the discard pile, the melds on the table) and the players' names.

>>> from liverpool.actions import Buy, Discard, DrawStock
>>> from liverpool.cards import Card
>>> names = ["Ana", "Bo (medium)"]
>>> describe_action(DrawStock(0))
'draw from the stock'
>>> describe_action(Discard(0, Card(9, "C")))
'discard the 9♣'
>>> describe_action(Discard(0, Card(9, "C")), ascii_only=True)
'discard the 9C'
>>> describe_action(Buy(1, Card(9, "C")))
'buy the top discard (9♣) (with a penalty card from the stock)'
>>> describe_event({"type": "discard", "player": 1, "card": "7H"}, names)
'Bo (medium) discarded the 7♥'
>>> describe_event({"type": "buy", "player": 1, "card": "9C", "penalty": 1}, names)
'Bo (medium) bought the 9♣ and 1 penalty card'
>>> describe_event({"type": "draw_stock", "player": 0, "card": "JK"}, names)
'Ana drew a joker from the stock'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    LayOff,
    Meld,
    Pass,
    Retract,
    SwapJoker,
    Unswap,
)
from .cards import Card, parse_card

__all__ = [
    "card_text",
    "cards_text",
    "describe_action",
    "describe_event",
    "event_words",
    "meld_label",
    "plural",
    "pretty_cards",
    "worded",
]


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def card_text(card: Card | str, ascii_only: bool = False) -> str:
    """A card as a player reads it: ``9♣`` (``9C`` in ASCII), ``JK``."""
    c = parse_card(card) if isinstance(card, str) else card
    return str(c) if ascii_only else c.pretty()


def cards_text(cards: Sequence[Card | str], ascii_only: bool = False) -> str:
    """Cards separated by spaces (``-`` for none)."""
    return " ".join(card_text(c, ascii_only) for c in cards) or "-"


def pretty_cards(tokens: Sequence[str]) -> str:
    """Card tokens with suit symbols, e.g. ``5♥ 6♥ JK`` ("" for none)."""
    return " ".join(card_text(t) for t in tokens)


def _the(card: Card | str, ascii_only: bool) -> str:
    c = parse_card(card) if isinstance(card, str) else card
    return "a joker" if c.is_joker else f"the {card_text(c, ascii_only)}"


def _name(names: Sequence[str] | None, p: Any) -> str:
    if names is not None and isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return f"seat {p}" if isinstance(p, int) else "someone"


def meld_label(meld: Mapping[str, Any], names: Sequence[str] | None, ascii_only: bool = False) -> str:
    """``Bo's run 5♥ 6♥ JK 8♥`` for a meld of a view (``run 5♥ 6♥ JK 8♥`` without names)."""
    owner = meld.get("owner")
    whose = f"{names[owner]}'s " if names is not None and isinstance(owner, int) and 0 <= owner < len(names) else ""
    return f"{whose}{meld.get('kind', 'meld')} {cards_text(meld.get('cards', []), ascii_only)}"


def _top(action_card: Card | None, view: Mapping[str, Any] | None, ascii_only: bool) -> str:
    """`` (9♣)``: the card an action takes from the pile (the action names it when listed)."""
    if action_card is not None:
        return f" ({card_text(action_card, ascii_only)})"
    pile = view.get("discard_pile") if view else None
    return f" ({card_text(pile[-1], ascii_only)})" if pile else ""


def describe_action(
    action: Action,
    view: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
    *,
    ascii_only: bool = False,
) -> str:
    """What choosing ``action`` does, in words, for the seat taking it (imperative).

    ``view`` (that seat's :meth:`Game.view`) names the discard and the melds; ``names`` the players;
    ``ascii_only`` writes ``9C`` for ``9♣``.
    """
    a = ascii_only
    melds: Sequence[Mapping[str, Any]] = view.get("melds", []) if view else []

    def where(meld_id: int) -> str:
        m = next((x for x in melds if x.get("id") == meld_id), None)
        return meld_label(m, names, a) if m is not None else f"meld {meld_id}"

    if isinstance(action, DrawStock):
        return "draw from the stock"
    if isinstance(action, DrawDiscard):
        return "take the top discard" + _top(action.card, view, a)
    if isinstance(action, DrawFromPile):
        deepest = f" (from the {card_text(action.card, a)} up)" if action.card is not None else ""
        return f"take the discard {action.depth} below the top and every card above it{deepest}"
    if isinstance(action, Buy):
        return f"buy the top discard{_top(action.card, view, a)} (with a penalty card from the stock)"
    if isinstance(action, Pass):
        return "pass (don't buy or call)"
    if isinstance(action, Call):
        return f"call the discard{_top(action.card, view, a)} (it fits a meld on the table)"
    if isinstance(action, Discard):
        return f"discard {_the(action.card, a)}"
    if isinstance(action, Meld):
        declared = "" if action.declared is None else f" (from {card_text(action.declared, a)} up)"
        return f"lay a {action.kind}: {cards_text(action.cards, a)}{declared}"
    if isinstance(action, LayOff):
        end = "" if action.high else " (at the low end)"
        return f"lay off {_the(action.card, a)} on {where(action.meld)}{end}"
    if isinstance(action, SwapJoker):
        m = next((x for x in melds if x.get("id") == action.meld), None)
        wild = "the wild card"
        if m is not None and 0 <= action.index < len(m["cards"]):
            token = m["cards"][action.index]
            wild = "the joker" if parse_card(token).is_joker else f"the {card_text(token, a)}"
        return (
            f"put your {card_text(action.card, a)} in place of {wild} in {where(action.meld)}; "
            f"{wild} comes to your hand and must be played this turn"
        )
    if isinstance(action, Unswap):
        return "undo the last joker swap (the wild card goes back)"
    if isinstance(action, EndTurn):
        return "end the turn (no card may be discarded)"
    if isinstance(action, Retract):
        return "take back the melds laid this turn (and pay the penalty)"
    return str(action)


def describe_event(
    event: Mapping[str, Any],
    names: Sequence[str],
    *,
    ascii_only: bool = False,
    melds: Sequence[Mapping[str, Any]] = (),
) -> str:
    """One public event of the game (:meth:`Game.events_for`) as a line of a log, past tense;
    "" for bookkeeping not worth a line (a pass, a deal's cut). ``melds`` (a view's) name the meld
    a card was laid off on."""
    kind = event.get("type")
    p = event.get("player")
    who = _name(names, p)
    a = ascii_only

    def cards(key: str) -> str:
        value = event.get(key, [])
        if isinstance(value, str):
            value = value.split()
        return cards_text(value, a)

    if kind == "deal":
        return f"Deal {event.get('number')}: {event.get('contract')}; {_name(names, event.get('dealer'))} dealt"
    if kind == "discard":
        return f"{who} discarded {_the(event['card'], a)}"
    if kind == "draw_stock":
        if "card" in event:  # the seat's own draw (``Game.events_for``): the card named to its owner
            return f"{who} drew {_the(event['card'], a)} from the stock"
        return f"{who} drew from the stock"
    if kind == "draw_discard":
        return f"{who} took {_the(event['card'], a)} from the discard pile"
    if kind == "draw_pile":
        return f"{who} took {cards('cards')} from the discard pile"
    if kind == "buy_request":
        return f"{who} asked to buy the discard"
    if kind == "buy":
        penalty = int(event.get("penalty", 0))
        extra = f" and {plural(penalty, 'penalty card')}" if penalty else ""
        return f"{who} bought {_the(event['card'], a)}{extra}"
    if kind == "meld":
        return f"{who} laid a {event.get('kind', 'meld')}: {cards('cards')}"
    if kind == "down":
        return f"{who} is down (contract laid)"
    if kind == "lay_off":
        meld = next((m for m in melds if m.get("id") == event.get("meld")), None)
        if meld is None:
            return f"{who} laid off {_the(event['card'], a)}"
        owner = "their own" if meld.get("owner") == p else f"{_name(names, meld.get('owner'))}'s"
        return f"{who} laid off {_the(event['card'], a)} on {owner} {meld.get('kind', 'meld')}"
    if kind == "swap":
        return f"{who} swapped {_the(event['card'], a)} for a wild card"
    if kind == "unswap":
        return f"{who} undid a joker swap"
    if kind == "call":
        return f"{who} called {_name(names, event.get('offender'))}'s discard {card_text(event['card'], a)}"
    if kind == "call_penalty":
        penalty = int(event.get("penalty", 0))
        return f"{who} takes {plural(penalty, 'penalty card')} for the called discard"
    if kind == "knock":
        return f"{who} knocks: one card left"
    if kind == "float":
        return f"{who} melded every card and floats"
    if kind == "retract":
        return f"{who} took back a lay-down"
    if kind == "end_turn":
        return f"{who} ended the turn"
    if kind == "level":
        return f"{who} completed level {event.get('completed')} and moves on"
    if kind == "stock_rebuilt":
        return f"The stock was rebuilt from the discard pile ({event.get('size')} cards)"
    if kind == "cut_bonus":
        return f"{who} cut exactly the cards needed: {event.get('points')} points"
    if kind == "deal_end":
        out = event.get("out")
        return f"{_name(names, out)} went out" if isinstance(out, int) else f"The deal ended: {event.get('reason')}"
    if kind == "game_over":
        winners = event.get("winners", [])
        return (
            "Game over: " + " and ".join(_name(names, w) for w in winners) + (" wins" if len(winners) == 1 else " win")
        )
    return ""


_SEAT_MARKS = tuple(f"{{p{i}}}" for i in range(64))
"""``{p0}``, ``{p1}``...: the names of :func:`event_words`, for a client to fill in."""


def event_words(event: Mapping[str, Any]) -> str:
    """:func:`describe_event` of a public event with ``{pN}`` for seat N's name: the words the
    server sends with every event (``text``), in which a client puts its own name for each seat
    (the browser's ``web/static/js/words.js`` does, and adds nothing else). "" for bookkeeping.

    >>> event_words({"type": "buy", "player": 1, "card": "9C", "penalty": 1})
    '{p1} bought the 9♣ and 1 penalty card'
    """
    return describe_event(event, _SEAT_MARKS)


def worded(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each event with its words (``text``: :func:`event_words`), as the server sends events to
    the browser (states, spectators' states, replay frames)."""
    return [{**e, "text": event_words(e)} for e in events]

"""Plain words for cards, actions and events, as the app shows them (no rules here: only text).

>>> from liverpool.actions import Buy, Discard
>>> from liverpool.cards import Card
>>> names = ["Ana", "Bo (medium)"]
>>> action_text(Discard(0, Card(9, "C")), names, you=0)
'discard the 9♣'
>>> action_text(Discard(0, Card(9, "C")), names, you=0, ascii_only=True)
'discard the 9C'
>>> action_text(Buy(1, Card(9, "C")), names, you=1)
'buy the top discard (9♣) (with a penalty card from the stock)'
>>> event_text({"type": "buy", "player": 1, "card": "9C", "penalty": 1}, names, you=0)
'Bo (medium) bought the 9♣ and 1 penalty card'
>>> event_text({"type": "draw_stock", "player": 0, "card": "JK"}, names, you=0)
'Ana drew a joker from the stock'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import (
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
from ..cards import Card, parse_card

__all__ = ["action_text", "card_text", "cards_text", "event_text", "meld_label", "plural"]


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def card_text(card: Card | str, ascii_only: bool = False) -> str:
    """A card as a player reads it: ``9♣`` (``9C`` in ASCII), ``joker``."""
    c = parse_card(card) if isinstance(card, str) else card
    return str(c) if ascii_only else c.pretty()


def cards_text(cards: Sequence[Card | str], ascii_only: bool = False) -> str:
    """Cards separated by spaces (``-`` for none)."""
    return " ".join(card_text(c, ascii_only) for c in cards) or "-"


def _the(card: Card | str, ascii_only: bool) -> str:
    c = parse_card(card) if isinstance(card, str) else card
    return "a joker" if c.is_joker else f"the {card_text(c, ascii_only)}"


def meld_label(meld: dict[str, Any], names: Sequence[str], ascii_only: bool = False) -> str:
    """``Bo's run 5♥ 6♥ JK 8♥`` for a meld of a view."""
    return f"{names[meld['owner']]}'s {meld['kind']} {cards_text(meld['cards'], ascii_only)}"


def action_text(
    action: Action,
    names: Sequence[str],
    you: int | None = None,
    melds: Sequence[dict[str, Any]] = (),
    ascii_only: bool = False,
) -> str:
    """What choosing ``action`` does, in words, for the seat ``you`` (``melds``: the view's melds)."""
    by_id = {m["id"]: m for m in melds}

    def where(meld_id: int) -> str:
        m = by_id.get(meld_id)
        return meld_label(m, names, ascii_only) if m else f"meld {meld_id}"

    if isinstance(action, DrawStock):
        return "draw from the stock"
    # DrawDiscard, Buy and Call name the top discard (DrawFromPile the deepest card) when listed
    if isinstance(action, DrawDiscard):
        return "take the top discard" + (f" ({card_text(action.card, ascii_only)})" if action.card is not None else "")
    if isinstance(action, DrawFromPile):
        deepest = f" (from the {card_text(action.card, ascii_only)} up)" if action.card is not None else ""
        return f"take the discard {action.depth} below the top and every card above it{deepest}"
    if isinstance(action, Buy):
        top = f" ({card_text(action.card, ascii_only)})" if action.card is not None else ""
        return f"buy the top discard{top} (with a penalty card from the stock)"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Call):
        top = f" ({card_text(action.card, ascii_only)})" if action.card is not None else ""
        return f"call the discard{top} (it fits a meld on the table)"
    if isinstance(action, Discard):
        return f"discard {_the(action.card, ascii_only)}"
    if isinstance(action, Meld):
        return f"lay a {action.kind}: {cards_text(action.cards, ascii_only)}"
    if isinstance(action, LayOff):
        end = "" if action.high else " (at the low end)"
        return f"lay off {_the(action.card, ascii_only)} on {where(action.meld)}{end}"
    if isinstance(action, SwapJoker):
        m = by_id.get(action.meld)
        wild = "the wild card"
        if m and 0 <= action.index < len(m["cards"]):
            token = m["cards"][action.index]
            wild = "the joker" if parse_card(token).is_joker else f"the {card_text(token, ascii_only)}"
        return (
            f"put your {card_text(action.card, ascii_only)} in place of {wild} in {where(action.meld)}; "
            f"{wild} comes to your hand and must be played this turn"
        )
    if isinstance(action, Unswap):
        return "undo the last joker swap (the wild card goes back)"
    if isinstance(action, EndTurn):
        return "end the turn (no card may be discarded)"
    if isinstance(action, Retract):
        return "take back the melds laid this turn (and pay the penalty)"
    return str(action)


def event_text(
    event: dict[str, Any],
    names: Sequence[str],
    you: int | None = None,
    ascii_only: bool = False,
    melds: Sequence[dict[str, Any]] = (),
) -> str:
    """A public event of the game as a line of the log ("" for events not worth a line); ``melds``
    (a view's) name the meld a card was laid off on."""
    kind = event.get("type")
    p = event.get("player")
    who = names[p] if isinstance(p, int) and 0 <= p < len(names) else ""
    a = ascii_only

    def cards(key: str) -> str:
        value = event.get(key, [])
        if isinstance(value, str):
            value = value.split()
        return cards_text(value, a)

    if kind == "deal":
        dealer = event.get("dealer")
        dealer_name = names[dealer] if isinstance(dealer, int) and dealer < len(names) else "?"
        return f"Deal {event.get('number')}: {event.get('contract')}; {dealer_name} dealt"
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
        return f"{who} laid a {event['kind']}: {cards('cards')}"
    if kind == "down":
        return f"{who} is down (contract laid)"
    if kind == "lay_off":
        meld = next((m for m in melds if m["id"] == event.get("meld")), None)
        owner = "their own" if meld and meld["owner"] == p else f"{names[meld['owner']]}'s" if meld else ""
        where = f" on {owner} {meld['kind']}" if meld else ""
        return f"{who} laid off {_the(event['card'], a)}{where}"
    if kind == "swap":
        return f"{who} swapped {_the(event['card'], a)} for a wild card"
    if kind == "unswap":
        return f"{who} undid a joker swap"
    if kind == "call":
        offender = names[event["offender"]]
        return f"{who} called {offender}'s discard {card_text(event['card'], a)}"
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
        head = f"{names[out]} went out" if isinstance(out, int) else f"The deal ended: {event.get('reason')}"
        return head
    if kind == "game_over":
        winners = event.get("winners", [])
        return "Game over: " + " and ".join(names[w] for w in winners) + (" wins" if len(winners) == 1 else " win")
    return ""

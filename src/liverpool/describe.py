"""Plain words for actions and public events, for any client (browser, terminal, logs).

Only what the seat may know is used: the action itself, the seat's view (for the card on top of
the discard pile and the melds on the table) and the players' names.

>>> from liverpool import Game
>>> from liverpool.actions import DrawStock, Discard
>>> from liverpool.cards import Card
>>> describe_action(DrawStock(0))
'draw from the stock'
>>> describe_action(Discard(1, Card(7, "H")))
'discard 7♥'
>>> describe_event({"type": "discard", "player": 1, "card": "7H"}, ["Ana", "Bo"])
'Bo discarded 7♥'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from .cards import parse_card

__all__ = ["describe_action", "describe_event", "pretty_cards"]


def pretty_cards(tokens: Sequence[str]) -> str:
    """Card tokens with suit symbols, e.g. ``5♥ 6♥ JK``."""
    return " ".join(parse_card(t).pretty() for t in tokens)


def _top_discard(view: Mapping[str, Any] | None) -> str:
    pile = view.get("discard_pile") if view else None
    return f" {pretty_cards(pile[-1:])}" if pile else ""


def _meld_words(view: Mapping[str, Any] | None, meld_id: int, names: Sequence[str] | None) -> str:
    for m in view.get("melds", []) if view else []:
        if m.get("id") == meld_id:
            owner = m.get("owner")
            whose = f"{names[owner]}'s " if names is not None and isinstance(owner, int) and owner < len(names) else ""
            return f"{whose}{m.get('kind', 'meld')} {pretty_cards(m.get('cards', []))}"
    return f"meld {meld_id}"


def describe_action(action: Action, view: Mapping[str, Any] | None = None, names: Sequence[str] | None = None) -> str:
    """Plain words for ``action`` as the seat taking it would read it (imperative).

    ``view`` (that seat's :meth:`Game.view`) names the discard and the melds; ``names`` the players.
    """
    if isinstance(action, DrawStock):
        return "draw from the stock"
    if isinstance(action, DrawDiscard):
        return f"take the discard{_top_discard(view)}"
    if isinstance(action, DrawFromPile):
        return f"take {action.depth + 1} cards from the discard pile"
    if isinstance(action, Buy):
        return f"buy the discard{_top_discard(view)}"
    if isinstance(action, Pass):
        return "pass (don't buy or call)"
    if isinstance(action, Call):
        return f"call the discard{_top_discard(view)}"
    if isinstance(action, Meld):
        declared = "" if action.declared is None else f" (from {action.declared.pretty()} up)"
        return f"lay down a {action.kind}: {' '.join(c.pretty() for c in action.cards)}{declared}"
    if isinstance(action, LayOff):
        end = "" if action.high else " (low end)"
        return f"lay off {action.card.pretty()} on {_meld_words(view, action.meld, names)}{end}"
    if isinstance(action, SwapJoker):
        return f"swap {action.card.pretty()} for the wild card in {_meld_words(view, action.meld, names)}"
    if isinstance(action, Unswap):
        return "undo the last joker swap"
    if isinstance(action, Discard):
        return f"discard {action.card.pretty()}"
    if isinstance(action, EndTurn):
        return "end the turn"
    if isinstance(action, Retract):
        return "take back the lay-down (penalty)"
    return str(action)


def _name(names: Sequence[str], p: Any) -> str:
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return "someone"


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """Plain words (past tense) for one public event of :attr:`Game.events`; "" for bookkeeping."""
    kind = event.get("type")
    who = _name(names, event.get("player"))
    card = pretty_cards([event["card"]]) if isinstance(event.get("card"), str) else ""
    if kind == "draw_stock":
        return f"{who} drew from the stock"
    if kind == "draw_discard":
        return f"{who} took {card} from the discard pile"
    if kind == "draw_pile":
        return f"{who} took {pretty_cards(event.get('cards', []))} from the discard pile"
    if kind == "discard":
        return f"{who} discarded {card}"
    if kind == "pass":
        return f"{who} passed"
    if kind == "buy_request":
        return f"{who} asked to buy the discard"
    if kind == "buy":
        return f"{who} bought {card} (+{event.get('penalty', 0)} penalty)"
    if kind == "meld":
        return f"{who} laid a {event.get('kind', 'meld')}: {pretty_cards(event.get('cards', []))}"
    if kind == "down":
        return f"{who} went down"
    if kind == "lay_off":
        return f"{who} laid off {card} on meld {event.get('meld')}"
    if kind == "swap":
        return f"{who} swapped {card} for a wild card in meld {event.get('meld')}"
    if kind == "unswap":
        return f"{who} undid a joker swap"
    if kind == "call":
        return f"{who} called {_name(names, event.get('offender'))}'s discard {card}"
    if kind == "call_penalty":
        return f"{who} took back {card} (+{event.get('penalty', 0)} penalty)"
    if kind == "knock":
        return f"{who} has one card left"
    if kind == "float":
        return f"{who} is floating"
    if kind == "end_turn":
        return f"{who} ended the turn"
    if kind == "retract":
        return f"{who} took back a lay-down (+{event.get('penalty', 0)} points)"
    if kind == "stock_rebuilt":
        return "the discard pile was shuffled into a new stock"
    if kind == "level":
        return f"{who} completed level {event.get('completed')}"
    if kind == "deal":
        return f"deal {event.get('number')}: {event.get('contract')}, {_name(names, event.get('dealer'))} deals"
    if kind == "deal_end":
        out = event.get("out")
        head = f"{_name(names, out)} went out" if isinstance(out, int) else f"the deal ended ({event.get('reason')})"
        return head
    if kind == "game_over":
        winners = event.get("winners", [])
        return "game over: " + " and ".join(_name(names, w) for w in winners) + " won"
    return ""

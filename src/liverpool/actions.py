"""Actions: frozen records, one per move; a game's log is its list of actions.

Every action names its ``player``. ``action.to_dict()`` and :func:`action_from_dict` round-trip
through JSON; ``str(action)`` is a short human-readable form that :func:`parse_action` reads back.

>>> a = Discard(2, Card(7, "H"))
>>> str(a), parse_action(str(a)) == a
('p2 discard 7H', True)
>>> action_from_dict(Meld(0, "run", tuple(parse_cards("5H 6H JK 8H"))).to_dict())
Meld(player=0, kind='run', cards=(Card('5H'), Card('6H'), Card('JK'), Card('8H')))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import Card, format_cards, parse_card, parse_cards

__all__ = [
    "Action",
    "Buy",
    "Call",
    "Discard",
    "DrawDiscard",
    "DrawFromPile",
    "DrawStock",
    "EndTurn",
    "LayOff",
    "Meld",
    "Pass",
    "Retract",
    "SwapJoker",
    "Unswap",
    "action_from_dict",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: the seat (0-based) that takes it."""

    player: int
    name: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form; cards as canonical tokens."""
        out: dict[str, Any] = {"type": self.name, "player": self.player}
        for key in self.__slots__:
            value = getattr(self, key)
            if isinstance(value, Card):
                value = str(value)
            elif isinstance(value, tuple):
                value = [str(c) for c in value]
            out[key] = value
        return out

    def _args(self) -> str:
        return ""

    def __str__(self) -> str:
        args = self._args()
        return f"p{self.player} {self.name}" + (f" {args}" if args else "")


@dataclass(frozen=True, slots=True)
class DrawStock(Action):
    """R22: take the top card of the stock (closes the buy window, R30)."""

    name: ClassVar[str] = "draw_stock"


@dataclass(frozen=True, slots=True)
class DrawDiscard(Action):
    """R22: take the top card of the discard pile."""

    name: ClassVar[str] = "draw_discard"


@dataclass(frozen=True, slots=True)
class DrawFromPile(Action):
    """R22 (``pile_draw``): take the card ``depth`` places below the top and every card above
    it; the deepest must be melded at once."""

    depth: int
    name: ClassVar[str] = "draw_pile"

    def _args(self) -> str:
        return str(self.depth)


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """R27-R31: ask to buy the top discard out of turn (resolved when the player to draw declines
    it by drawing from the stock)."""

    name: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline every out-of-turn chance (buy, call) on the current discard."""

    name: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """R33/R34: call a down player's discard that fits a meld on the table."""

    name: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Meld(Action):
    """R14, R23: lay one meld of the contract; the contract takes effect when complete."""

    kind: str
    cards: tuple[Card, ...]
    name: ClassVar[str] = "meld"

    def _args(self) -> str:
        return f"{self.kind} {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class LayOff(Action):
    """R24: add ``card`` to the table meld ``meld`` (its id), at the high end of a run or low."""

    card: Card
    meld: int
    high: bool = True
    name: ClassVar[str] = "lay_off"

    def _args(self) -> str:
        return f"{self.card} {self.meld} {'high' if self.high else 'low'}"


@dataclass(frozen=True, slots=True)
class SwapJoker(Action):
    """R20: put ``card`` in place of the wild card at ``index`` of run ``meld``; the wild card
    goes to the hand and must be played in the same turn."""

    meld: int
    index: int
    card: Card
    name: ClassVar[str] = "swap"

    def _args(self) -> str:
        return f"{self.meld} {self.index} {self.card}"


@dataclass(frozen=True, slots=True)
class Unswap(Action):
    """R20: undo this turn's last joker swap whose wild card is still in hand."""

    name: ClassVar[str] = "unswap"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """R25: discard ``card``, ending the turn (going out with the last card, R37)."""

    card: Card
    name: ClassVar[str] = "discard"

    def _args(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End a turn without discarding: legal only when no discard is (R26, R36, R38)."""

    name: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class Retract(Action):
    """R16 (``failed_meld_penalty``): take back a begun lay-down, paying the penalty."""

    name: ClassVar[str] = "retract"


_TYPES: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (
        DrawStock,
        DrawDiscard,
        DrawFromPile,
        Buy,
        Pass,
        Call,
        Meld,
        LayOff,
        SwapJoker,
        Unswap,
        Discard,
        EndTurn,
        Retract,
    )
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of :meth:`Action.to_dict`; a malformed dict raises ValueError."""
    try:
        cls = _TYPES[data["type"]]
        player = data["player"]
        if not isinstance(player, int) or isinstance(player, bool):
            raise ValueError(f"player must be a seat number, got {player!r}")
        if cls is Meld:
            cards = data["cards"]
            parsed = tuple(parse_cards(cards if isinstance(cards, str) else list(cards)))
            return Meld(player, str(data["kind"]), parsed)
        if cls is LayOff:
            return LayOff(player, parse_card(data["card"]), int(data["meld"]), bool(data.get("high", True)))
        if cls is SwapJoker:
            return SwapJoker(player, int(data["meld"]), int(data["index"]), parse_card(data["card"]))
        if cls is Discard:
            return Discard(player, parse_card(data["card"]))
        if cls is DrawFromPile:
            return DrawFromPile(player, int(data["depth"]))
        return cls(player)
    except KeyError as exc:
        raise ValueError(f"action is missing {exc}: {data!r}") from None
    except (TypeError, AttributeError):
        raise ValueError(f"not an action: {data!r}") from None


def parse_action(text: str) -> Action:
    """Read the form ``str(action)`` prints, e.g. ``p1 lay_off 7H 3 high``."""
    words = text.split()
    if len(words) < 2 or not words[0].lower().startswith("p") or not words[0][1:].isdigit():
        raise ValueError(f"not an action: {text!r} (write e.g. 'p0 draw_stock')")
    player, name, args = int(words[0][1:]), words[1].lower(), words[2:]
    data: dict[str, Any] = {"type": name, "player": player}
    try:
        if name == "meld":
            data |= {"kind": args[0], "cards": args[1:]}
        elif name == "lay_off":
            data |= {"card": args[0], "meld": args[1], "high": len(args) < 3 or args[2].lower() != "low"}
        elif name == "swap":
            data |= {"meld": args[0], "index": args[1], "card": args[2]}
        elif name == "discard":
            data["card"] = args[0]
        elif name == "draw_pile":
            data["depth"] = args[0]
        elif name not in _TYPES:
            raise ValueError(f"unknown action {name!r}; actions are: {', '.join(_TYPES)}")
    except IndexError:
        raise ValueError(f"action {text!r} is missing an argument") from None
    return action_from_dict(data)

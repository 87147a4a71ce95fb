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

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cards import Card, format_cards, parse_card, parse_cards  # noqa: F401 (parse_cards: doctests)
from .errors import MalformedAction

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
    "check_action",
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
            if value is None:
                continue  # a card an older action did not name
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
    """R22: take the top card of the discard pile. ``card`` names it (the listed actions do): an
    action naming another card than the top one is stale. The card is a check, not part of the
    move: ``DrawDiscard(1) == DrawDiscard(1, Card(7, "H"))``."""

    card: Card | None = field(default=None, compare=False)
    name: ClassVar[str] = "draw_discard"

    def _args(self) -> str:
        return "" if self.card is None else str(self.card)


@dataclass(frozen=True, slots=True)
class DrawFromPile(Action):
    """R22 (``pile_draw``): take the card ``depth`` places below the top and every card above
    it; the deepest must be melded at once."""

    depth: int
    card: Card | None = field(default=None, compare=False)
    """The deepest card taken (a check, as :class:`DrawDiscard`'s ``card``)."""
    name: ClassVar[str] = "draw_pile"

    def _args(self) -> str:
        return str(self.depth) if self.card is None else f"{self.depth} {self.card}"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """R27-R31: ask to buy the top discard out of turn (resolved when the player to draw declines
    it by drawing from the stock). ``card`` names the card (a check, as :class:`DrawDiscard`'s)."""

    card: Card | None = field(default=None, compare=False)
    name: ClassVar[str] = "buy"

    def _args(self) -> str:
        return "" if self.card is None else str(self.card)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline every out-of-turn chance (buy, call) on the current discard."""

    name: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """R33/R34: call a down player's discard that fits a meld on the table. ``card`` names it (a
    check, as :class:`DrawDiscard`'s)."""

    card: Card | None = field(default=None, compare=False)
    name: ClassVar[str] = "call"

    def _args(self) -> str:
        return "" if self.card is None else str(self.card)


@dataclass(frozen=True, slots=True)
class Meld(Action):
    """R14, R23: lay one meld of the contract; the contract takes effect when complete.
    ``declared``: for a run of wild cards only (``run_min_naturals`` 0, R17), the natural card its
    first card stands for, which names the run's suit and ranks (``p0 meld run JK JK JK declared 5S``)."""

    kind: str
    cards: tuple[Card, ...]
    declared: Card | None = None
    name: ClassVar[str] = "meld"

    def __repr__(self) -> str:
        declared = "" if self.declared is None else f", declared={self.declared!r}"
        return f"Meld(player={self.player!r}, kind={self.kind!r}, cards={self.cards!r}{declared})"

    def _args(self) -> str:
        return f"{self.kind} {format_cards(self.cards)}" + (
            "" if self.declared is None else f" declared {self.declared}"
        )


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
_CLASSES: frozenset[type[Action]] = frozenset(_TYPES.values())


# The type of each field beyond ``player`` (an int seat), per action class: "card" a Card,
# "int" an int that is no bool, "bool" a bool, "str" a str, "cards" a non-empty tuple of Cards.
_FIELDS: dict[type[Action], tuple[tuple[str, str], ...]] = {
    DrawDiscard: (("card", "card?"),),
    Buy: (("card", "card?"),),
    Call: (("card", "card?"),),
    DrawFromPile: (("depth", "int"), ("card", "card?")),
    Meld: (("kind", "str"), ("cards", "cards"), ("declared", "card?")),
    LayOff: (("card", "card"), ("meld", "int"), ("high", "bool")),
    SwapJoker: (("meld", "int"), ("index", "int"), ("card", "card")),
    Discard: (("card", "card"),),
}
_WHAT: dict[str, str] = {
    "card": "a Card",
    "card?": "a Card or None",
    "int": "a whole number (int, not bool)",
    "bool": "True or False",
    "str": "a str",
    "cards": "a non-empty tuple of Cards",
}


def _type_ok(kind: str, value: object) -> bool:
    t = type(value)
    if kind == "card":
        return t is Card
    if kind == "card?":
        return t is Card or value is None
    if kind == "int":
        return t is int
    if kind == "bool":
        return t is bool
    if kind == "str":
        return t is str
    if t is not tuple:
        return False
    items: tuple[object, ...] = value  # type: ignore[assignment]
    return len(items) > 0 and all(type(c) is Card for c in items)


def check_action(action: object) -> tuple[str, str] | None:
    """Why ``action`` is not a well-formed action, as (the bad field, the message), or None. Every
    field is checked by type, exactly: ``Card`` instances (not plain ints), seats and places that
    are ints and not bools, bools that are bools, a meld's cards a tuple. Whether the values are
    legal now is the game's question (:meth:`Game.verify`)."""
    cls = type(action)
    if cls not in _CLASSES:
        return "type", f"not an action: {action!r}"
    assert isinstance(action, Action)
    if type(action.player) is not int:
        return "player", f"{cls.name}: player must be a seat number (an int), got {action.player!r}"
    for name, kind in _FIELDS.get(cls, ()):
        value = getattr(action, name)
        if not _type_ok(kind, value):
            return name, f"{cls.name}: {name} must be {_WHAT[kind]}, got {value!r}"
    return None


def _malformed(message: str, field: str | None) -> MalformedAction:
    return MalformedAction(message, field)


def _read_card(kind: str, name: str, value: object) -> Card:
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise _malformed(f"{kind}: {name} must be a card token such as '7H', got {value!r}", name)
    try:
        return parse_card(value)
    except ValueError as exc:
        raise _malformed(f"{kind}: {name}: {exc}", name) from None


def _read_field(kind: str, name: str, spec: str, value: object) -> Any:
    if spec == "card":
        return _read_card(kind, name, value)
    if spec == "card?":
        return None if value is None else _read_card(kind, name, value)
    if spec == "cards":
        if isinstance(value, str):
            items: list[object] = list(value.split())
        elif isinstance(value, list | tuple):
            items = list(value)
        else:
            raise _malformed(f"{kind}: {name} must be a list of card tokens, got {value!r}", name)
        if not items:
            raise _malformed(f"{kind}: {name} must name at least one card", name)
        return tuple(_read_card(kind, name, c) for c in items)
    if not _type_ok(spec, value):
        raise _malformed(f"{kind}: {name} must be {_WHAT[spec]}, got {value!r}", name)
    return value


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of :meth:`Action.to_dict`, strict: a dict that is not exactly an action (unknown
    type or field, a missing field, a value of the wrong type: ``"high": "false"`` is no bool)
    raises :class:`~liverpool.errors.MalformedAction` (a ValueError) naming the bad field."""
    if not isinstance(data, dict):
        raise _malformed(f"an action is a dict with 'type' and 'player', got {data!r}", None)
    kind_name = data.get("type")
    cls = _TYPES.get(kind_name) if isinstance(kind_name, str) else None
    if cls is None:
        raise _malformed(f"unknown action type {kind_name!r}; actions are: {', '.join(_TYPES)}", "type")
    name = cls.name
    fields = _FIELDS.get(cls, ())
    known = {"type", "player", *(f for f, _ in fields)}
    for key in data:
        if key not in known:
            raise _malformed(f"{name}: unknown field {key!r} (fields: {', '.join(sorted(known))})", str(key))
    if "player" not in data:
        raise _malformed(f"{name}: missing field 'player'", "player")
    player = data["player"]
    if type(player) is not int:
        raise _malformed(f"{name}: player must be a seat number (an int), got {player!r}", "player")
    values: list[Any] = []
    for key, spec in fields:
        if key not in data:
            if cls is LayOff and key == "high":
                values.append(True)
                continue
            if spec == "card?":
                values.append(None)
                continue
            raise _malformed(f"{name}: missing field {key!r}", key)
        values.append(_read_field(name, key, spec, data[key]))
    return cls(player, *values)


def _is_number(word: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts "²" and "٣", which ``int`` refuses or reads."""
    return word.isascii() and word.isdigit()


def _word_int(kind: str, field: str, word: str) -> int:
    if not _is_number(word):
        raise _malformed(f"{kind}: {field} must be a whole number, got {word!r}", field)
    return int(word)


def parse_action(text: str) -> Action:
    """Read the form ``str(action)`` prints, e.g. ``p1 lay_off 7H 3 high``; strict: a wrong word
    or a missing or extra argument raises :class:`~liverpool.errors.MalformedAction`."""
    if not isinstance(text, str):
        raise _malformed(f"an action text is a str, got {text!r}", None)
    words = text.split()
    if len(words) < 2 or not words[0].lower().startswith("p") or not _is_number(words[0][1:]):
        raise _malformed(f"not an action: {text!r} (write e.g. 'p0 draw_stock')", "player")
    player, name, args = int(words[0][1:]), words[1].lower(), words[2:]
    cls = _TYPES.get(name)
    if cls is None:
        raise _malformed(f"unknown action {name!r}; actions are: {', '.join(_TYPES)}", "type")
    want = {
        Meld: None,
        LayOff: (2, 3),
        SwapJoker: (3, 3),
        Discard: (1, 1),
        DrawFromPile: (1, 2),
        DrawDiscard: (0, 1),
        Buy: (0, 1),
        Call: (0, 1),
    }.get(cls, (0, 0))
    if want is None:
        if len(args) < 2:
            raise _malformed(f"action {text!r} is missing an argument (meld KIND CARDS...)", "cards")
    elif not want[0] <= len(args) <= want[1]:
        field = "arguments" if len(args) > want[1] else [f for f, _ in _FIELDS[cls]][len(args)]
        raise _malformed(f"action {text!r}: {name} takes {want[1]} argument(s), got {len(args)}", field)
    if cls is Meld:
        declared = None
        if len(args) >= 4 and args[-2].lower() == "declared":
            declared = _read_card(name, "declared", args[-1])
            args = args[:-2]
        return Meld(player, args[0], _read_field(name, "cards", "cards", args[1:]), declared)
    if cls is LayOff:
        high = True
        if len(args) == 3:
            end = args[2].lower()
            if end not in ("high", "low"):
                raise _malformed(f"{name}: the end must be 'high' or 'low', got {args[2]!r}", "high")
            high = end == "high"
        return LayOff(player, _read_card(name, "card", args[0]), _word_int(name, "meld", args[1]), high)
    if cls is SwapJoker:
        meld, index = _word_int(name, "meld", args[0]), _word_int(name, "index", args[1])
        return SwapJoker(player, meld, index, _read_card(name, "card", args[2]))
    if cls is Discard:
        return Discard(player, _read_card(name, "card", args[0]))
    if cls is DrawFromPile:
        deepest = _read_card(name, "card", args[1]) if len(args) > 1 else None
        return DrawFromPile(player, _word_int(name, "depth", args[0]), deepest)
    if cls in (DrawDiscard, Buy, Call):
        return cls(player, _read_card(name, "card", args[0]) if args else None)
    return cls(player)

"""Event records: what happened, as read-only JSON dicts, one typed record per kind
(:data:`EVENT_TYPES`), each stamped with the game's ``version``. ``Game.apply`` returns the
events an action produced; ``Game.events_for(p)`` gives seat ``p`` what it may see of them.

Every event the engine records is a :class:`FrozenDict` (a ``dict`` that refuses changes) whose
lists are :class:`FrozenList`: views hand the same records to every seat, so none may change
them, and ``json.dumps`` / ``==`` treat them as the plain dicts and lists they are
(``copy.copy`` / ``copy.deepcopy`` give plain, changeable ones).

>>> e = freeze({"type": "discard", "player": 1, "card": "7H", "cards": ["7H"]})
>>> e == {"type": "discard", "player": 1, "card": "7H", "cards": ["7H"]}
True
>>> e["card"] = "8H"
Traceback (most recent call last):
...
TypeError: an event record is read-only; copy it first (dict(event))
"""

import copy
from typing import Any, Final, NoReturn, NotRequired, SupportsIndex, TypedDict

__all__ = ["EVENT_TYPES", "FrozenDict", "FrozenList", "freeze"]


def _read_only(*args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError("an event record is read-only; copy it first (dict(event))")


class FrozenDict(dict[str, Any]):
    """A dict that refuses changes (an event record, or a dict inside one)."""

    __slots__ = ()

    def __setitem__(self, key: str, value: Any) -> NoReturn:
        _read_only()

    def __delitem__(self, key: str) -> NoReturn:
        _read_only()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _read_only()

    clear = _read_only
    pop = _read_only
    popitem = _read_only
    setdefault = _read_only
    update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: Any) -> dict[str, Any]:
        return {k: copy.deepcopy(v, memo) for k, v in self.items()}


class FrozenList(list[Any]):
    """A list that refuses changes (inside an event record)."""

    __slots__ = ()

    def __setitem__(self, index: SupportsIndex | slice, value: Any) -> NoReturn:
        _read_only()

    def __delitem__(self, index: SupportsIndex | slice) -> NoReturn:
        _read_only()

    def __iadd__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _read_only()

    def __imul__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _read_only()

    append = _read_only
    extend = _read_only
    insert = _read_only
    pop = _read_only
    remove = _read_only
    reverse = _read_only
    sort = _read_only
    clear = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: Any) -> list[Any]:
        return [copy.deepcopy(v, memo) for v in self]


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it made read-only (strings and numbers as they are)."""
    if isinstance(value, _ATOMS):  # the commonest: a card's name, a seat, a score
        return value
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        if all(isinstance(v, _ATOMS) for v in value):  # a list of cards' names or of scores
            return FrozenList(value)
        return FrozenList(map(freeze, value))
    return value


_ATOMS: Final = (str, int)  # int covers bool; None and floats take the last line of freeze


# ------------------------------------------------------------------------------ typed records
# One TypedDict per event kind: the keys every record of that kind holds. Every record also holds
# ``type`` (its kind), ``deal`` (1-based; 0 for the cut for the first dealer) and ``version`` (the
# game's version once the action that produced it was applied; 0 before the first action).


class _Event(TypedDict):
    type: str
    deal: int
    version: int


class CutEvent(_Event):
    """R4: the cards cut for the first dealer, by seat (as a string)."""

    cards: dict[str, str]


class DealEvent(_Event):
    """R6, R10: a deal begins: its number, dealer and contract (in words)."""

    number: int
    dealer: int
    contract: str


class CutForDealEvent(_Event):
    """R5: the dealer's right-hand neighbour cut ``cut`` cards; ``needed`` wins the bonus."""

    player: int
    cut: int
    needed: int


class CutBonusEvent(_Event):
    """R5: the cut bonus (negative points)."""

    player: int
    points: int


class BonusEvent(_Event):
    """R49: a scoring hook's points added to a player's deal score at the deal's end; ``reason``
    names the option (``going_out_bonus``, ``going_out_bonus_if_alone``, ``first_down_bonus``,
    ``joker_in_meld_points``)."""

    player: int
    points: int
    reason: str


class StockRebuiltEvent(_Event):
    """R9: the stock was rebuilt from the pile (the ``count``-th time this deal)."""

    count: int
    size: int


class PlayerEvent(_Event):
    """Events that only name a seat: ``pass``, ``buy_request``, ``end_turn``, ``down``, ``float``,
    ``knock``."""

    player: int


class DrawStockEvent(_Event):
    """R22: a seat drew from the stock. The card is in :meth:`Game.events_for` of that seat only
    (``card``); every other seat sees that a card was drawn."""

    player: int
    card: NotRequired[str]


class CardEvent(_Event):
    """``discard`` and ``draw_discard``: a seat discarded, or took the top discard."""

    player: int
    card: str


class DrawPileEvent(_Event):
    """R22: a seat took ``cards`` from inside the pile (the deepest first)."""

    player: int
    cards: list[str]


class BuyEvent(_Event):
    """R27-R29: the winning buyer took ``card`` and ``penalty`` cards from the stock (face down:
    ``penalty_cards`` in the buyer's :meth:`Game.events_for` only)."""

    player: int
    card: str
    penalty: int
    penalty_cards: NotRequired[list[str]]


class CallEvent(_Event):
    """R33/R34: ``player`` called ``offender``'s discard ``card``."""

    player: int
    offender: int
    card: str


class CallPenaltyEvent(_Event):
    """R33: the offender took the card back and ``penalty`` cards (``penalty_cards`` for them)."""

    player: int
    card: str
    penalty: int
    penalty_cards: NotRequired[list[str]]


class MeldEvent(_Event):
    """R14: one meld of a lay-down was laid (staged until the contract is complete)."""

    player: int
    kind: str
    cards: list[str]


class LayOffEvent(_Event):
    """R24: ``card`` laid off on meld ``meld`` at its high end or low."""

    player: int
    card: str
    meld: int
    high: bool


class SwapEvent(_Event):
    """R20: ``card`` put in place of the wild card at ``index`` of meld ``meld``."""

    player: int
    meld: int
    index: int
    card: str


class UnswapEvent(_Event):
    """R20: a swap taken back; ``card`` went back to the hand."""

    player: int
    meld: int
    card: str


class RetractEvent(_Event):
    """R16: a begun lay-down taken back for ``penalty`` points."""

    player: int
    penalty: int


class DealEndEvent(_Event):
    """R37, R40, R45: the deal ended (``out`` went out, or None: a stalemate); everyone's hand
    (now public), the deal's points and the running totals."""

    out: int | None
    reason: str
    points: list[int]
    hands: dict[str, str]
    scores: list[int]


class LevelEvent(_Event):
    """Issue 16, ``progression="player"``: at a deal's end, ``player`` went down with their level's
    contract and moves on: now at ``level`` (1-based), having completed ``completed`` levels."""

    player: int
    level: int
    completed: int


class GameOverEvent(_Event):
    """R41: the game ended; totals and winners."""

    scores: list[int]
    winners: list[int]


EVENT_TYPES: Final[dict[str, type]] = {
    "cut": CutEvent,
    "deal": DealEvent,
    "cut_for_deal": CutForDealEvent,
    "cut_bonus": CutBonusEvent,
    "bonus": BonusEvent,
    "stock_rebuilt": StockRebuiltEvent,
    "discard": CardEvent,
    "pass": PlayerEvent,
    "draw_stock": DrawStockEvent,
    "draw_discard": CardEvent,
    "draw_pile": DrawPileEvent,
    "buy_request": PlayerEvent,
    "buy": BuyEvent,
    "call": CallEvent,
    "call_penalty": CallPenaltyEvent,
    "meld": MeldEvent,
    "lay_off": LayOffEvent,
    "swap": SwapEvent,
    "unswap": UnswapEvent,
    "end_turn": PlayerEvent,
    "retract": RetractEvent,
    "down": PlayerEvent,
    "float": PlayerEvent,
    "knock": PlayerEvent,
    "deal_end": DealEndEvent,
    "level": LevelEvent,
    "game_over": GameOverEvent,
}
"""The record type of each event kind (``event["type"]``)."""

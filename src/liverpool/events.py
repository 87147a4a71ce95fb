"""Event records: what happened, as read-only JSON dicts.

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

from __future__ import annotations

import copy
from typing import Any, NoReturn, SupportsIndex

__all__ = ["FrozenDict", "FrozenList", "freeze"]


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
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return FrozenList(freeze(v) for v in value)
    return value

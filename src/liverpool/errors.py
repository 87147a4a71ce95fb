"""The errors a client of the engine must tell apart, each with a stable machine-readable ``code``
and the ``rule`` it enforces (``"R26"``), or None.

:class:`IllegalAction` (a ``ValueError``) is every refusal; :class:`MalformedAction` an action that
is not well formed at all (a field of the wrong type, an unknown seat, a dict or text that does not
read as an action); :class:`StaleAction` one that was legal at another version of the game.

>>> from liverpool import Card, Discard, Game
>>> game = Game.new(players=3, seed=1)
>>> try:
...     game.apply(Discard(0, 9))  # a plain int is not a card
... except IllegalAction as exc:
...     print(type(exc).__name__, exc.code, exc.field)
MalformedAction malformed card
>>> try:
...     game.apply(Discard((game.current + 1) % 3, Card(7, "H")))
... except IllegalAction as exc:
...     print(exc.code, exc.rule)
not_your_turn None
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["CODES", "RULE_CODES", "IllegalAction", "MalformedAction", "StaleAction", "classify"]

CODES: Final = (
    "malformed",
    "stale",
    "game_over",
    "not_your_turn",
    "wrong_phase",
    "not_in_hand",
    "no_such_meld",
    "invalid_meld",
    "forbidden",
)
"""Every ``IllegalAction.code``: ``malformed`` (not a well-formed action: wrong types, unknown seat,
unreadable text), ``stale`` (made for another version of the game), ``game_over``,
``not_your_turn`` (another seat acts now), ``wrong_phase`` (not an action of this phase: draw
first, already drawn, the windows are closed), ``not_in_hand`` (a card the player does not hold),
``no_such_meld`` (no meld, or no joker, at that place), ``invalid_meld`` (cards that do not form
that meld or do not fit it), ``forbidden`` (a rule forbids it now; ``rule`` names it)."""

RULE_CODES: Final = ("wrong_phase", "invalid_meld", "forbidden")
"""The codes of refusals a rule makes: each such refusal names its ``rule`` (``"R22"``). The other
codes are bookkeeping (a malformed or stale action, a game over, another seat's turn, a card not
held, a meld or place that does not exist), refused whatever the rules, with ``rule`` None."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str(exc)`` says why, ``code`` (one of
    :data:`CODES`) says what kind of refusal it is and ``rule`` (e.g. ``"R26"``) which rule
    refused it, when one did. A refused action changes nothing."""

    default_code: str = "forbidden"

    def __init__(self, message: str, code: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.code: str = code if code is not None else classify(message, self.default_code)
        self.rule: str | None = rule if rule is not None else _first_rule(message)


class MalformedAction(IllegalAction):
    """Not a well-formed action: ``field`` names the bad field (``"card"``, ``"player"``...)."""

    default_code = "malformed"

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message, code="malformed", rule=None)
        self.field: str | None = field


class StaleAction(IllegalAction):
    """An action made for another state of the game (its ``version`` or the card it names no
    longer matches): the client should fetch a fresh view."""

    default_code = "stale"

    def __init__(self, message: str) -> None:
        super().__init__(message, code="stale", rule=None)


_RULE: Final = re.compile(r"\bR(\d{1,2})\b")

# The engine's refusal messages, by the words that start or mark them: one table, so that a code
# stays the same while a message's wording is improved (tests/engine/test_client_contract.py checks
# each code is reachable).
_PATTERNS: Final[tuple[tuple[str, str], ...]] = (
    ("(stale)", "stale"),
    ("not an action", "malformed"),
    ("player must be a seat, 0 to", "malformed"),
    ("the game is over", "game_over"),
    ("it is seat ", "not_your_turn"),
    (" is discarding after calling", "not_your_turn"),
    ("you do not hold", "not_in_hand"),
    ("there is no meld", "no_such_meld"),
    ("there is no joker at place", "no_such_meld"),
    ("the discard pile has no card", "no_such_meld"),
    ("the discard pile is empty", "wrong_phase"),
    ("draw first", "wrong_phase"),
    ("you have already drawn", "wrong_phase"),
    ("windows are closed", "wrong_phase"),
    ("after calling you discard", "wrong_phase"),
    ("draw instead", "wrong_phase"),
    ("is not a valid", "invalid_meld"),
    ("does not fit meld", "invalid_meld"),
    ("a meld is a 'set' or a 'run'", "invalid_meld"),
    ("that joker stands for", "invalid_meld"),
)


def classify(message: str, default: str = "forbidden") -> str:
    """The code of an engine refusal message (see :data:`CODES`)."""
    for words, code in _PATTERNS:
        if words in message:
            return code
    return default


def _first_rule(message: str) -> str | None:
    match = _RULE.search(message)
    return f"R{int(match.group(1))}" if match else None

"""The names of bot seats (issue 24): every bot seat has a distinct name with its level, e.g.
"Ada (medium bot)", the same in the table, the log, the replay, reviews, the lobby's lists, the
history and the terminal (they all read the seat's name)."""

from __future__ import annotations

__all__ = ["BOT_NAMES", "bot_seat_name", "seat_name"]

BOT_NAMES = (
    "Ada",
    "Bea",
    "Cal",
    "Dot",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivo",
    "Jan",
    "Kim",
    "Lou",
    "Max",
    "Ned",
    "Oda",
    "Pia",
)
"""One first name per seat (as many as the engine's most seats, ``OPTIONS["max_players"].high``:
a test checks it), so the names of a table's bots differ; seats 0-7 keep the names they had."""


def bot_seat_name(seat: int, bot: str | None) -> str:
    """The name of the bot playing seat ``seat`` at level ``bot``.

    >>> [bot_seat_name(1, "medium"), bot_seat_name(2, "hard")]
    ['Bea (medium bot)', 'Cal (hard bot)']
    """
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} ({bot or 'medium'} bot)"


def seat_name(seat: int, name: str | None, kind: str, bot: str | None) -> str:
    """A seat's name as people read it: the person's name, a bot seat's name (also for seats kept
    without a name by an older server), or "seat N" for a person's seat nobody took."""
    if name:
        return name
    if kind == "bot":
        return bot_seat_name(seat, bot)
    return f"seat {seat}"

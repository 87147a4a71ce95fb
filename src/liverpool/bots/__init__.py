"""Bots: players that see only their seat's view and pick one of their legal actions.

``random`` plays uniformly, ``greedy`` is a sound heuristic player, ``strong`` searches with
determinized greedy playouts. The difficulty names ``easy``, ``medium`` and ``hard`` pick a bot and
its budget for people (see ``docs/bots.md``).

>>> from liverpool import Game
>>> from liverpool.bots import get
>>> game = Game.new(players=3, seed=3)
>>> bot = get("random", seed=1)
>>> p = game.current
>>> bot.act(game.view(p), game.legal_actions(p)) in game.legal_actions(p)
True
>>> get("hard").name, get("medium").name
('strong', 'greedy')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .base import Bot, RandomBot
from .greedy import EasyBot, GreedyBot
from .strong import DEFAULT_THINK, StrongBot

__all__ = ["BOTS", "DIFFICULTIES", "Bot", "EasyBot", "GreedyBot", "RandomBot", "StrongBot", "get", "names"]

BotFactory = Callable[..., Bot]
BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}

DIFFICULTIES: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "easy": ("easy", {}),
    "medium": ("greedy", {}),
    "hard": ("strong", {"think": DEFAULT_THINK}),
}
"""Difficulty names for people: the bot each names and its options."""


def _difficulty(level: str) -> BotFactory:
    bot_name, defaults = DIFFICULTIES[level]

    def make(seed: int | None = None, **options: Any) -> Bot:
        factory = EasyBot if bot_name == "easy" else BOTS[bot_name]
        return factory(seed=seed, **(defaults | options))

    return make


BOTS.update({level: _difficulty(level) for level in DIFFICULTIES})


def names() -> list[str]:
    """Every bot name (difficulty names included)."""
    return sorted(BOTS)


def get(name: str, seed: int | None = None, **options: Any) -> Bot:
    """The bot called ``name``, seeded; unknown names raise ValueError listing the known ones."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(names())}")
    return factory(seed=seed, **options)

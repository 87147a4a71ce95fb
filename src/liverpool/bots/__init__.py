"""Bots: players that see only their seat's view and pick one of their legal actions.

>>> from liverpool import Game
>>> from liverpool.bots import get
>>> game = Game.new(players=3, seed=3)
>>> bot = get("random", seed=1)
>>> p = game.current
>>> bot.act(game.view(p), game.legal_actions(p)) in game.legal_actions(p)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Bot, RandomBot

__all__ = ["BOTS", "Bot", "RandomBot", "get", "names"]

BotFactory = Callable[..., Bot]
BOTS: dict[str, BotFactory] = {"random": RandomBot}


def names() -> list[str]:
    """Every bot name."""
    return sorted(BOTS)


def get(name: str, seed: int | None = None, **options: Any) -> Bot:
    """The bot called ``name``, seeded; unknown names raise ValueError listing the known ones."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(names())}")
    return factory(seed=seed, **options)

"""The bot interface and the random bot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actions import Action

__all__ = ["Bot", "RandomBot"]


class Bot:
    """A player. ``act`` sees only the seat's view (``Game.view``) and the seat's legal actions,
    and returns one of them; out-of-turn decisions (buy, call or pass) come the same way."""

    name = "bot"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        if options:
            raise ValueError(f"bot {self.name!r} takes no options {sorted(options)}")
        self.rng = random.Random(seed)

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]

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

A bot *spec* names a bot and its options, as the simulator's ``--seats`` and the arena take them:
``name`` or ``name:option=value:option=value`` (``,`` may separate options too where the spec is
not inside a list of seats).

>>> parse_spec("strong:samples=50:race=off:margin=1.5")
('strong', {'samples': 50, 'race': False, 'margin': 1.5})
>>> from_spec("strong:samples=8", seed=1).fixed_samples
8
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from .base import Bot, RandomBot
from .greedy import EasyBot, GreedyBot
from .strong import DEFAULT_THINK, StrongBot

__all__ = [
    "BOTS",
    "DIFFICULTIES",
    "Bot",
    "EasyBot",
    "GreedyBot",
    "RandomBot",
    "StrongBot",
    "from_spec",
    "get",
    "names",
    "parse_spec",
]

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


_OPTION_SEPARATORS: Final = re.compile(r"[:,]")
_TRUE: Final = frozenset({"true", "on", "yes"})
_FALSE: Final = frozenset({"false", "off", "no"})


def _option_value(text: str) -> Any:
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The bot name and options of a spec ``name[:option=value...]``; values are read as booleans
    (``true``/``false``, ``on``/``off``), integers, floats or text. An unknown bot name or an option
    without ``=`` raises ValueError (an unknown option is refused when the bot is made)."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(names())}")
    options: dict[str, Any] = {}
    for item in _OPTION_SEPARATORS.split(rest) if rest else ():
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bot options are option=value, got {item!r} in {spec!r}")
        options[key] = _option_value(text)
    return name, options


def from_spec(spec: str, seed: int | None = None, **defaults: Any) -> Bot:
    """The bot a spec describes, seeded; ``defaults`` apply unless the spec sets the option. Bad
    options raise ValueError naming the spec."""
    name, options = parse_spec(spec)
    try:
        return get(name, seed=seed, **(defaults | options))
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r} in {spec!r}: {exc}") from exc

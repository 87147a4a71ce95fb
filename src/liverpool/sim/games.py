"""One simulated game: its spec (who sits where, the seeds) and its result record.

Seeds come from :func:`derive_seed`, a hash of the tournament seed and the game's index, so a game
plays the same whichever process, machine or backend plays it.

>>> from liverpool.rules import RuleSet
>>> rules = RuleSet().with_options(schedule="2S/10", turn_limit="40")
>>> spec = GameSpec(0, derive_seed(1, "game", 0), ("random", "random"), (1, 2), rules)
>>> result = play_one(spec)
>>> result.deals, len(result.scores), result == play_one(spec)
(1, 2, True)
"""

from __future__ import annotations

import hashlib
import inspect
from dataclasses import dataclass, field
from typing import Any

from .. import bots as bot_registry
from ..driver import play_game
from ..game import Game
from ..rules import RuleSet

__all__ = ["GameResult", "GameSpec", "accepts_think", "derive_seed", "make_bot", "play_one"]


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed derived from ``seed`` and ``parts``: stable across processes and Python
    versions (a SHA-256 hash, not :func:`hash`).

    >>> derive_seed(0, "game", 1) == derive_seed(0, "game", 1) != derive_seed(0, "game", 2)
    True
    """
    text = "/".join(["liverpool-sim", str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def _parameters(name: str) -> dict[str, inspect.Parameter]:
    factory = bot_registry.BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(bot_registry.names())}")
    try:
        return dict(inspect.signature(factory).parameters)
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return {}


def accepts_think(name: str) -> bool:
    """True when the bot ``name`` (or spec) declares a ``think`` option (a searching bot)."""
    parameter = _parameters(name.partition(":")[0].strip()).get("think")
    return parameter is not None and parameter.kind in (
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.KEYWORD_ONLY,
    )


def make_bot(name: str, seed: int, think: float | None = None) -> bot_registry.Bot:
    """The bot of spec ``name`` (a bot name, with options or not: ``strong:samples=50``) with
    ``seed``; ``think`` goes to bots that take it unless the spec sets it: those declaring it, and
    those taking any options (such as a difficulty name standing for a searching bot) that do not
    refuse it."""
    bot_name, options = bot_registry.parse_spec(name)
    if think is not None and "think" not in options:
        if accepts_think(bot_name):
            return bot_registry.from_spec(name, seed=seed, think=think)
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in _parameters(bot_name).values()):
            try:
                return bot_registry.from_spec(name, seed=seed, think=think)
            except (TypeError, ValueError):
                pass  # a bot that takes no think
    return bot_registry.from_spec(name, seed=seed)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything a worker needs to play game ``index``: ``lineup[seat]`` is the bot's name at that
    seat and ``bot_seeds[seat]`` its seed."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    rules: RuleSet
    think: float | None = None
    keep_record: bool = False
    """Return the game's record (:meth:`Game.record`) with its result (``--records``)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """The record of one game, per seat: final ``scores``, ``winners`` (lowest total, ties share),
    ``deal_points[d][seat]`` (the hand points each deal scored), ``deal_out[d]`` (the seat that went
    out, None on a stalemate), ``buys`` (buys made) and ``actions`` (moves applied). ``record`` is
    the game's :meth:`Game.record` when its spec asked to keep it (it takes no part in equality)."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    deal_points: tuple[tuple[int, ...], ...]
    deal_out: tuple[int | None, ...]
    buys: tuple[int, ...]
    actions: int
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def deals(self) -> int:
        return len(self.deal_points)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "deal_points": [list(p) for p in self.deal_points],
            "deal_out": list(self.deal_out),
            "buys": list(self.buys),
            "actions": self.actions,
        }

    def row(self) -> dict[str, Any]:
        """The game in one row: index, seed, seats (bot per seat), scores, winners (seats)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": list(self.lineup),
            "scores": list(self.scores),
            "winners": list(self.winners),
        }

    def record_file(self) -> dict[str, Any]:
        """What ``--records`` writes for this game: its row and, under ``"record"``, the record
        (``Game.from_record`` replays it; ``liverpool review FILE --seat N`` reviews it)."""
        if self.record is None:
            raise ValueError(f"game {self.index} was played without keeping its record")
        return {**self.row(), "record": self.record}

    @classmethod
    def from_game(cls, spec: GameSpec, game: Game) -> GameResult:
        n = game.players
        buys = [0] * n
        deal_out: list[int | None] = []
        for event in game.events:
            kind = event["type"]
            if kind == "buy":
                buys[int(event["player"])] += 1
            elif kind == "deal_end":
                out = event.get("out")
                deal_out.append(None if out is None else int(out))
        return cls(
            index=spec.index,
            seed=spec.seed,
            lineup=spec.lineup,
            scores=tuple(game.scores),
            winners=tuple(game.winners),
            deal_points=tuple(tuple(points) for points in game.deal_scores),
            deal_out=tuple(deal_out),
            buys=tuple(buys),
            actions=len(game.actions),
            record=game.record() if spec.keep_record else None,
        )


def play_one(spec: GameSpec) -> GameResult:
    """Play the game ``spec`` describes to its end (run in worker processes and Ray tasks)."""
    players = [make_bot(name, seed, spec.think) for name, seed in zip(spec.lineup, spec.bot_seeds, strict=True)]
    game = Game.new(players=len(spec.lineup), rules=spec.rules, seed=spec.seed)
    try:
        play_game(game, players)
    except Exception as exc:
        raise RuntimeError(
            f"game {spec.index} (seed {spec.seed}, seats {','.join(spec.lineup)}) failed: {type(exc).__name__}: {exc}"
        ) from exc
    return GameResult.from_game(spec, game)

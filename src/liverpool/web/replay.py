"""Replay frames of a finished game: one per action, with every hand shown.

The browser holds no rules, so it cannot rebuild positions from a record; the server turns the
record into frames with the engine (``Game.new`` + ``apply``) and the replay page steps through them.

>>> from liverpool.game import Game
>>> from liverpool.rules import RuleSet
>>> g = Game.new(players=3, rules=RuleSet.preset("liverpool"), seed=5)
>>> [e["type"] for e in g.apply(g.legal_actions(g.current)[0])]  # apply returns the events it made
['draw_stock']
>>> frames = replay_frames(g.record())
>>> len(frames), frames[0]["action"], frames[1]["action"]["type"]
(2, None, 'draw_stock')
>>> [len(h) for h in frames[1]["hands"]] == frames[1]["hand_sizes"]
True
"""

from __future__ import annotations

from typing import Any

from ..actions import action_from_dict
from ..describe import worded
from ..game import Game
from ..rules import RuleSet

__all__ = ["replay_frames"]


def _frame(
    game: Game, n: int, step: int, action: dict[str, Any] | None, events: list[dict[str, Any]]
) -> dict[str, Any]:
    views = [game.view(p) for p in range(n)]
    v = views[0]
    return {
        "step": step,
        "action": action,
        "events": events,
        "players": v["players"],
        "deal": v["deal"],
        "deals": v["deals"],
        "contract": v["contract"],
        "current": v["current"],
        "phase": v["phase"],
        "turn": v["turn"],
        "hands": [w["hand"] for w in views],
        "hand_sizes": v["hand_sizes"],
        "down": v["down"],
        "melds": v["melds"],
        "discard_pile": v["discard_pile"][-5:],
        "stock_size": v["stock_size"],
        "scores": v["scores"],
        "deal_scores": v["deal_scores"],
        "is_over": v["is_over"],
        "winners": v["winners"],
    }


def replay_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Frame 0 is the first deal as dealt; frame i follows the record's i-th action, with the
    public events it caused. A malformed record raises ValueError."""
    rules = RuleSet.from_dict(record["rules"]) if "rules" in record else RuleSet()
    n = int(record["players"])
    game = Game.new(players=n, rules=rules, seed=int(record["seed"]))
    seen = len(game.events)
    frames = [_frame(game, n, 0, None, worded(game.events))]
    for i, data in enumerate(record.get("actions", []), start=1):
        game.apply(action_from_dict(data))
        frames.append(_frame(game, n, i, dict(data), worded(game.events[seen:])))
        seen = len(game.events)
    return frames

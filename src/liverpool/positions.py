"""Positions: a game's whole state as text (``Game.position()``, ``Game.from_position(text)``).

The notation and its reader and writer live in :mod:`liverpool.game.positions`, beside the state
they read (so the engine's imports point one way: this module imports the game, never the
reverse); this module is their public name. Tests: ``tests/engine/test_positions.py``.
"""

from __future__ import annotations

from .game.positions import POSITION_FORMAT, read_position, write_position

__all__ = ["POSITION_FORMAT", "read_position", "write_position"]

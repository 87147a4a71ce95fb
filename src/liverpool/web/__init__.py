"""The browser table: static files (``static/``) the game server serves at ``/``, and the replay
frames a finished game's record is stepped through with (:mod:`.replay`)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The folder of ``index.html``, the ES modules and the vendored view library."""

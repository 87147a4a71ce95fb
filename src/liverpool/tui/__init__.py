"""``liverpool play``: a full-screen Textual app (the optional extra ``tui``).

:class:`LiverpoolApp` draws one seat's view and takes that seat's moves from the keyboard and mouse;
:class:`LocalSession` holds the engine's game, the bots, the save file and the finished game's record.
See docs/tui.md for the keys and screens.
"""

from __future__ import annotations

from .session import LocalSession, data_dir, parse_bots

__all__ = ["LocalSession", "data_dir", "parse_bots"]

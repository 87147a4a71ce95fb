"""The Liverpool game server (``liverpool serve``): tables, seats, bots and a log that keeps every
game. Needs the ``server`` extra (``pip install 'liverpool-rummy[server]'``).

- :mod:`.app`: the FastAPI application (:func:`create_app`), REST lobby and WebSocket play.
- :mod:`.lobby`: the tables in memory, their creation, rebuild and records.
- :mod:`.table`: one table: its lock, its sockets, its bots.
- :mod:`.store`: the append-only log (SQLAlchemy Core, Alembic migrations).
- :mod:`.protocol`: the client messages (pydantic); ``docs/protocol.md`` documents them all.
- :mod:`.advice`: bot moves, hints, reviews, records and replays in worker processes.
- :mod:`.limits`: the rate limits by client address; :mod:`.logs`: no secret in a log line.
"""

from __future__ import annotations

from .app import create_app
from .config import Settings

__all__ = ["Settings", "create_app"]

"""The server's settings (``liverpool serve`` options)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "default_static_dir", "secret_seed"]


def secret_seed(_purpose: str) -> int:
    """A seed for a shuffle or a bot, from :mod:`secrets` (the default for every table)."""
    return secrets.randbits(63)


def default_static_dir() -> Path:
    """``src/liverpool/web/static`` (the browser client)."""
    return Path(__file__).resolve().parent.parent / "web" / "static"


@dataclass
class Settings:
    """Everything ``create_app`` needs; the defaults are those of ``liverpool serve``."""

    database: str = "sqlite:///liverpool.db"
    """SQLAlchemy URL of the store (the driver is made async: sqlite -> sqlite+aiosqlite)."""
    synchronous: str = "normal"
    """SQLite ``PRAGMA synchronous`` in WAL mode: normal (survives a crash of the server) or full
    (also a power cut, slower)."""
    bot_delay: float = 0.7
    """Seconds a bot waits before a move of its own turn, so people can follow (a table may set its own)."""
    grace: float = 60.0
    """Seconds a disconnected person keeps the seat before a bot plays for them."""
    buy_window: float = 4.0
    """Seconds a bot about to draw waits for people who may still buy or call the discard, counted
    from that discard (under ``buy_window="until_discard"`` only the bot's move that closes their
    window, such as its discard, waits for it; its stock draw and melds do not)."""
    takeover_bot: str = "medium"
    """The bot that plays for a person (grace period over, or turn timer run out)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins allowed to use the API and sockets; empty: the server's own (the Host header)."""
    public_url: str | None = None
    """Base of invite links (default: the URL the request came to)."""
    rate: float = 20.0
    """Messages per second a socket may send on average ..."""
    burst: int = 40
    """... and at once; more get ``rate_limited`` errors."""
    auth_timeout: float = 10.0
    """Seconds a new socket has to send its first message, ``{"type": "auth", "token": ...}``."""
    flood_close: int = 40
    """Refused (rate-limited) messages within ``flood_window`` seconds after which the connection
    is closed (1008); the refused messages get one ``rate_limited`` error a second at most."""
    flood_window: float = 60.0
    """The sliding window, in seconds, over which refused messages are counted."""
    rest_rate: float = 5.0
    """Lobby requests (POST) per second per client address on average ..."""
    rest_burst: int = 60
    """... and at once; more get 429."""
    get_rate: float = 20.0
    """Lobby reads (GET and HEAD under ``/api``) per second per client address on average ..."""
    get_burst: int = 60
    """... and at once; more get 429."""
    heavy_rate: float = 1.0
    """Reads of a finished game (record, replay, review) per second per client address on
    average (besides ``get_rate``) ..."""
    heavy_burst: int = 6
    """... and at once; more get 429."""
    max_waiting: int = 2000
    """Tables waiting for players (made, not started) the server keeps at most; more get 429.
    A table counts from its creation until it starts, or for ``waiting_expiry`` seconds."""
    max_waiting_per_address: int = 20
    """... and per client address that made them."""
    waiting_expiry: float = 86_400.0
    """Seconds after which a table nobody started stops counting against the caps; once nobody
    used it either (no socket, join or request) for that long it is deleted, from memory and from
    the store, by the sweeper and at start-up (``liverpool serve --waiting-expiry``)."""
    limiter_keys: int = 10_000
    """Client addresses each rate limiter remembers at most (the least recently seen go first)."""
    seeds: Callable[[str], int] = field(default=secret_seed)
    """Where seeds come from: ``seeds("game")`` for the shuffles, ``seeds("bot3")`` for seat 3's bot."""
    static_dir: Path | None = None
    """The browser client's files (default: :func:`default_static_dir`)."""
    rebuild: bool = True
    """Rebuild the unfinished tables of the store on start."""
    hint_samples: int = 24
    """Samples of the hidden cards behind a hint (``liverpool.analysis`` budget; 0.1 s or so each)."""
    review_samples: int = 24
    """Samples per decision of a review when the request names none (``?samples=``)."""
    review_max_samples: int = 64
    """The most samples per decision a review request may ask for."""
    analysis_seed: int = 0
    """The seed of hints and reviews: fixed, so a cached review equals a fresh one."""
    hint_workers: int = 1
    """Worker processes computing hints (0: a thread of the server's process)."""
    review_workers: int = 1
    """Worker processes computing reviews (0: a thread of the server's process)."""
    bot_workers: int = 1
    """Worker processes making the bots' moves (0: a thread of the server's process, sharing
    its interpreter lock with the event loop)."""
    replay_workers: int = 1
    """Worker processes rebuilding and encoding finished games' records and replays (0: a
    thread of the server's process)."""
    replay_cache_bytes: int = 64 * 1024 * 1024
    """Bytes of finished games' record and replay JSON kept in memory (least recently asked for
    dropped first)."""
    review_jobs: int = 2
    """Processes one review is split over, from its review worker (``review(..., jobs=)``: the same
    review, sooner on several cores; 1: the worker alone; with ``review_workers`` 0 always 1)."""
    evict_after: float = 600.0
    """Seconds a finished table, or one still waiting for players, stays in memory once nobody is
    connected to it; it stays in the store (record, history, replay, review; a waiting table's
    seats and tokens), and comes back into memory when asked for."""
    shared: bool = False
    """One of several workers on one PostgreSQL store (``--workers N``, server/bus.py); ignored
    for SQLite."""
    migrate: bool = True
    """Run the store's migrations on start (False: a release step ran them before)."""
    warm_hints: bool = True
    """Start the hint worker when a table with hints starts (not at the first hint: a process
    takes a second or more to start)."""

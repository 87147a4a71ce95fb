"""``liverpool serve``: the game server for browsers (and any client of docs/protocol.md)."""

from __future__ import annotations

import argparse
import json
import os

__all__ = ["register"]

SHUTDOWN_GRACE = 3  # seconds a running request has to end once the server is told to stop


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from ..server import Settings, create_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ValueError(f"the server needs the 'server' extra: pip install -e '.[server]' ({exc})") from None
    options = dict(
        database=args.database,
        synchronous=args.synchronous,
        bot_delay=args.bot_delay,
        grace=args.grace,
        buy_window=args.buy_window,
        allowed_origins=tuple(args.allowed_origin),
        public_url=args.public_url,
        rate=args.rate,
        burst=max(40, int(2 * args.rate)),
        rest_rate=args.rest_rate,
        rest_burst=max(60, int(2 * args.rest_rate)),
        get_rate=args.get_rate,
        get_burst=max(60, int(3 * args.get_rate)),
        max_waiting=args.max_waiting,
        max_waiting_per_address=args.max_waiting_per_address,
        waiting_expiry=args.waiting_expiry,
        hint_samples=args.hint_samples,
        review_samples=args.review_samples,
        review_max_samples=max(64, args.review_samples),
        review_workers=args.review_workers,
        review_jobs=args.review_jobs,
        bot_workers=args.bot_workers,
    )
    from ..server.store import StoreLocked, async_url, check_free

    backend = async_url(args.database).split(":", 1)[0].split("+", 1)[0]
    if args.workers > 1 and backend == "sqlite":
        raise ValueError(
            f"--workers {args.workers} needs PostgreSQL (--database postgresql+asyncpg://USER@HOST/DB): "
            "a SQLite store has one writer, so one process serves it (docs/deploy.md)"
        )
    if args.shared and backend == "sqlite":
        raise ValueError("--shared needs PostgreSQL: a SQLite store has one writer, so one process serves it")
    try:
        check_free(args.database)  # a second server on one SQLite file: refused before it starts
    except StoreLocked as exc:
        raise ValueError(str(exc)) from None
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    run = {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "ws_max_size": 4 * 64 * 1024,
        "forwarded_allow_ips": args.forwarded_allow_ips,  # None: $FORWARDED_ALLOW_IPS or 127.0.0.1
        # on Ctrl-C, a request still running (a long review) is cancelled after this long rather
        # than holding the server until it ends; the workers' jobs are then ended (Workers.close)
        "timeout_graceful_shutdown": SHUTDOWN_GRACE,
    }
    # the store's address as people read it: never its password (it would be in the log of the terminal)
    shown_store = make_url(args.database).render_as_string(hide_password=True)
    if args.workers == 1:
        app = create_app(Settings(**options, shared=args.shared))
        print(f"Liverpool server: open http://{shown}:{args.port}/ (lobby API at /docs; store {shown_store})")
        uvicorn.run(app, **run)
        return 0
    # several workers (server/bus.py): the migrations once, as a release step, then uvicorn's
    # supervisor starts the workers on one port; each builds its app from the same settings
    from ..server.app import WORKER_SETTINGS
    from ..server.pgcluster import migrate

    print("release step: the store's migrations ...", flush=True)
    migrate(args.database)
    os.environ[WORKER_SETTINGS] = json.dumps(options)
    print(
        f"Liverpool server: open http://{shown}:{args.port}/ ({args.workers} workers; lobby API at /docs; "
        f"store {shown_store})",
        flush=True,
    )
    uvicorn.run("liverpool.server.app:worker_app", factory=True, workers=args.workers, **run)
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    p = sub.add_parser("serve", help="run the game server (play in a browser with friends and bots)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--database",
        default="sqlite:///liverpool.db",
        help="SQLAlchemy URL of the store: sqlite:///FILE (default liverpool.db here) or "
        "postgresql+asyncpg://USER@HOST/DB",
    )
    p.add_argument(
        "--synchronous",
        choices=("normal", "full"),
        default="normal",
        help="SQLite durability: normal survives a server crash, full also a power cut",
    )
    p.add_argument("--bot-delay", type=float, default=0.7, help="seconds a bot waits before its move")
    p.add_argument("--grace", type=float, default=60.0, help="seconds a disconnected person keeps the seat")
    p.add_argument("--buy-window", type=float, default=4.0, help="seconds a bot about to draw waits for buyers")
    p.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser origin allowed besides the server's own (repeatable)",
    )
    p.add_argument("--public-url", default=None, help="base of invite links, e.g. https://cards.example.org")
    p.add_argument("--rate", type=float, default=20.0, help="messages per second a socket may send (on average)")
    p.add_argument("--rest-rate", type=float, default=5.0, help="lobby requests per second per client address")
    p.add_argument(
        "--get-rate", type=float, default=20.0, help="lobby reads (GET /api/...) per second per client address"
    )
    p.add_argument(
        "--max-waiting", type=_positive, default=2000, help="tables waiting for players the server keeps at most"
    )
    p.add_argument(
        "--max-waiting-per-address",
        type=_positive,
        default=20,
        help="tables waiting for players one client address may have made",
    )
    p.add_argument(
        "--waiting-expiry",
        type=_positive,
        default=86_400,
        metavar="SECONDS",
        help="a table nobody started and nobody used for this long is deleted (default 86400: a day)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="comma-separated addresses of trusted reverse proxies (or '*') whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed: rate limits and caps then count each player's own address "
        "(uvicorn's option; default: $FORWARDED_ALLOW_IPS or 127.0.0.1)",
    )
    p.add_argument(
        "--hint-samples", type=_positive, default=24, help="samples of the hidden cards behind a hint (default 24)"
    )
    p.add_argument(
        "--review-samples",
        type=_positive,
        default=24,
        help="samples per decision of a game review when the request names none (default 24)",
    )
    p.add_argument(
        "--review-workers", type=_positive, default=1, help="worker processes computing game reviews (default 1)"
    )
    p.add_argument(
        "--review-jobs", type=_positive, default=2, help="processes one game review is split over (default 2)"
    )
    p.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="server processes on one port (default 1; more than 1 needs PostgreSQL: any worker serves any "
        "table, docs/deploy.md)",
    )
    p.add_argument(
        "--shared",
        action="store_true",
        help="serve as one worker of a PostgreSQL store that other `liverpool serve --shared` processes "
        "serve too (on other ports or machines, behind one proxy); --workers N runs N of them on one port",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        choices=range(0, 65),
        default=1,
        metavar="N",
        help="worker processes making the bots' moves (default 1; 0: a thread of the server)",
    )
    p.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))
    p.set_defaults(func=_cmd_serve)

"""``liverpool play``: a game in the terminal against bots, in a full-screen app (``--watch``: bots only).

Every value is checked before anything starts: a wrong bot name, a table size the rules do not
allow, a negative delay are errors naming the limits.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence

from ..bots import names as bot_names
from .common import add_rules_args, rules_from_args

__all__ = ["register"]

MAX_DELAY = 60.0
MAX_BUY_TIME = 600.0


def _seconds(limit: float, what: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a number of seconds, got {text!r}") from None
        if not 0 <= value <= limit:
            raise argparse.ArgumentTypeError(f"{what} must be 0 to {limit:g} seconds, got {text}")
        return value

    return parse


def _cmd_play(args: argparse.Namespace) -> int:
    if getattr(args, "watch_table", None):  # issue 24: follow a server's table (tui/watch.py)
        from ..tui.watch import run as watch_table

        return watch_table(args.watch_table, ascii_only=args.ascii)
    try:
        from ..tui.app import LiverpoolApp
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        print(
            f"liverpool play needs the optional extra 'tui' (textual): pip install -e '.[tui]' ({exc})",
            file=sys.stderr,
        )
        return 2
    from ..tui.session import LocalSession, data_dir

    if args.token and not args.connect:
        raise ValueError("--token goes with --connect URL (the table to take your seat back at)")
    if args.connect:
        given = [
            flag
            for flag, value in (
                ("--players", args.players),
                ("--bots", args.bots),
                ("--seed", args.seed),
                ("--resume", args.resume or None),
                ("--watch", args.watch or None),
                ("--set", args.settings or None),
                ("--rules", None if args.preset == "liverpool" else args.preset),
            )
            if value is not None
        ]
        if given:
            raise ValueError(
                f"{', '.join(given)} cannot go with --connect: the server's table decides the seats and the rules"
            )
        return _play_remote(args)
    folder = data_dir()
    if args.players is None:
        args.players = 4
    if args.bots is None:
        args.bots = "medium"
    if args.resume:
        session = LocalSession.resume(folder / "save.json", data_dir=folder)
    else:
        rules = rules_from_args(args.preset, args.settings)
        session = LocalSession.new(
            players=args.players,
            rules=rules,
            bots=args.bots,
            seed=args.seed,
            name=args.name,
            watch=args.watch,
            data_dir=folder,
        )
    app = LiverpoolApp(session, delay=args.delay, ascii_only=args.ascii, buy_seconds=args.buy_time)
    app.run()
    if app.quit_reason:
        print(app.quit_reason)
    if session.record_path is not None:
        print(f"The game's record: {session.record_path}")
    return app.return_code or 0


def _play_remote(args: argparse.Namespace) -> int:
    """A seat at a server's table. Its token is kept in the data folder (``seats.json``): the same
    link and ``--name`` take the seat back after a closed terminal; the command that takes it back
    is printed on leaving, also after Ctrl-C or a hang-up."""
    from ..tui.app import LiverpoolApp
    from ..tui.remote import BuyPrefs, RemoteSession, parse_connect_url, save_seat, saved_seat
    from ..tui.session import data_dir

    folder = data_dir()
    name = args.name.strip() or "You"
    token = args.token
    base, table_id = parse_connect_url(args.connect)
    kept = None if token else saved_seat(folder, base, table_id, name)
    remote = None
    if kept is not None:
        try:
            remote = RemoteSession.connect(args.connect, name=name, token=kept)
        except ValueError:
            remote = None  # the table is gone: joining names the reason
        else:
            print(f"Taking back your seat at table {table_id} (its token was kept in {folder / 'seats.json'}).")
    if remote is None:
        remote = RemoteSession.connect(args.connect, name=name, token=token)
    remote.data = folder  # the buy choice (B) is kept there too, for every table
    remote.buy = BuyPrefs.load(folder)
    try:
        save_seat(folder, base, table_id, name, remote.token)
    except OSError as exc:
        print(f"liverpool: cannot keep the seat's token in {folder}: {exc}", file=sys.stderr)
    app = LiverpoolApp(remote, ascii_only=args.ascii, buy_seconds=args.buy_time)
    try:
        app.run()  # a hang-up (SIGHUP) ends it as q would (LiverpoolApp.on_mount)
    finally:
        remote.close()
    note = app.quit_reason or app.leave_note()
    if note:
        with contextlib.suppress(OSError):  # the terminal is gone (a hang-up): the token is in seats.json
            print(note)
    return app.return_code or 0


def normalize_argv(argv: Sequence[str]) -> list[str]:
    """``--token VALUE`` as ``--token=VALUE``, so that a token beginning with ``-`` (one in 64 of
    the server's) is not taken for an option by argparse.

    >>> normalize_argv(["play", "--connect", "u", "--token", "-x9"])
    ['play', '--connect', 'u', '--token=-x9']
    """
    out: list[str] = []
    items = list(argv)
    i = 0
    while i < len(items):
        if items[i] == "--token" and i + 1 < len(items):
            out.append(f"--token={items[i + 1]}")
            i += 2
            continue
        out.append(items[i])
        i += 1
    return out


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    bots = ", ".join(bot_names())
    p = sub.add_parser(
        "play",
        help="play against bots in a full-screen terminal app (or --watch bots play)",
        description="Play Liverpool in the terminal: you in seat 1, bots in the others. F1 in the game shows the keys.",
    )
    add_rules_args(p)
    p.add_argument(
        "--players", type=int, default=None, help="seats at the table, you included (default 4; the rules allow 2-8)"
    )
    p.add_argument(
        "--bots",
        default=None,
        help=f"bots for the other seats, a comma list; the last repeats (default medium). Bots: {bots}",
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle seed, to play the same cards again")
    p.add_argument("--name", default="You", help="your name at the table (default You)")
    p.add_argument("--ascii", action="store_true", help="suits as letters (S H D C) instead of symbols")
    p.add_argument("--watch", action="store_true", help="bots in every seat; you watch (p pauses)")
    p.add_argument(
        "--delay",
        type=_seconds(MAX_DELAY, "--delay"),
        default=0.5,
        help=f"seconds between the bots' moves (default 0.5, 0 to {MAX_DELAY:g})",
    )
    p.add_argument(
        "--buy-time",
        type=_seconds(MAX_BUY_TIME, "--buy-time"),
        default=8.0,
        help="seconds the out-of-turn buy/call prompt stays open before passing (default 8)",
    )
    p.add_argument("--resume", action="store_true", help="continue the game saved when you last quit")
    p.add_argument(
        "--connect",
        metavar="URL",
        default=None,
        help="play at a table of `liverpool serve`: its invite link (http://host:port/?join=TABLE_ID) joins "
        "as --name; with --token, take your seat back",
    )
    p.add_argument(
        "--token",
        default=None,
        help="with --connect: your seat's token, to take the seat back (--token=TOKEN also holds a token "
        "beginning with -)",
    )
    p.add_argument(
        "--watch-table",
        metavar="URL",
        default=None,
        help="watch a table of `liverpool serve` live (its watch link http://host:port/?watch=TABLE_ID): "
        "every public move in words, the chat and the scores; no hand is ever shown",
    )
    p.set_defaults(func=_cmd_play)

"""The ``liverpool`` command: one module per subcommand, each with a ``register(sub)``.

``rules`` (:mod:`.rules`), ``play`` (:mod:`.play`), ``simulate`` (:mod:`.simulate`), ``review``
(:mod:`.review`), ``serve`` (:mod:`.serve`), ``login`` (:mod:`.login`). A new
subcommand is a module of this package with a ``register`` function, named in ``_COMMANDS``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..bots import names as bot_names
from . import login, play, review, rules, serve, simulate
from .common import rules_from_args

__all__ = ["build_parser", "main", "rules_from_args"]

_COMMANDS = (rules, play, simulate, review, serve, login)


def build_parser() -> argparse.ArgumentParser:
    """The ``liverpool`` command's parser, every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="liverpool",
        description="Liverpool Rummy and Contract Rummy",
        epilog=f"Bots: {', '.join(bot_names())} (easy, medium and hard are the difficulty levels). "
        "`liverpool COMMAND --help` shows a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"liverpool {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``liverpool`` command; the exit status (2 for bad input, 130 after Ctrl-C)."""
    parser = build_parser()
    args = parser.parse_args(play.normalize_argv(sys.argv[1:] if argv is None else argv))
    try:
        result: int = args.func(args)
        sys.stdout.flush()
    except ValueError as exc:
        print(f"liverpool: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nliverpool: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `liverpool rules | head`): stop quietly, and keep the
        # interpreter's last flush of stdout from complaining
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 0
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The ``liverpool`` command: one module per subcommand, each with a ``register(sub)``.

``rules`` (:mod:`.rules`), ``play`` (:mod:`.play`), ``simulate`` (:mod:`.simulate`), ``serve`` (:mod:`.serve`). A new
subcommand is a module of this package with a ``register`` function, named in ``_COMMANDS``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import play, rules, serve, simulate
from .common import rules_from_args

__all__ = ["main", "rules_from_args"]

_COMMANDS = (rules, play, simulate, serve)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="liverpool", description="Liverpool Rummy and Contract Rummy")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        command.register(sub)
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except ValueError as exc:
        print(f"liverpool: error: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

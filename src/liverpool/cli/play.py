"""``liverpool play``: a game in the terminal against bots (``--watch``: bots only)."""

from __future__ import annotations

import argparse

from .common import add_rules_args, rules_from_args

__all__ = ["register"]


def _cmd_play(args: argparse.Namespace) -> int:
    from ..watch import watch

    rules = rules_from_args(args.preset, args.settings)
    human = False if args.watch else None
    return watch(players=args.players, rules=rules, seed=args.seed, delay=args.delay, bots=args.bots, human=human)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser("play", help="play against bots in the terminal (or --watch bots play)")
    add_rules_args(p)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause between turns")
    p.add_argument("--bots", default="greedy", help="bot name for every seat, or a comma list")
    p.add_argument("--watch", action="store_true", help="bots in every seat; you only watch")
    p.set_defaults(func=_cmd_play)

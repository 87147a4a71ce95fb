"""The ``liverpool`` command: ``rules``, ``play`` and ``simulate``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .rules import RuleSet

__all__ = ["main", "rules_from_args"]


def rules_from_args(preset: str, settings: Sequence[str]) -> RuleSet:
    """A preset with ``option=value`` settings applied; errors are ValueError with a clear text."""
    rules = RuleSet.preset(preset)
    options: dict[str, str] = {}
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--set takes option=value, got {item!r}")
        options[name.strip()] = value.strip()
    return rules.with_options(**options)


def _add_rules_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset", "--rules", dest="preset", default="liverpool", help="liverpool (default) or contract"
    )
    parser.add_argument(
        "--set", dest="settings", action="append", default=[], metavar="OPTION=VALUE", help="change one rule option"
    )


def _cmd_rules(args: argparse.Namespace) -> int:
    rules = rules_from_args(args.preset, args.settings)
    if args.json:
        print(json.dumps(rules.to_dict(), indent=2))
        return 0
    print(f"Rules in effect (preset {args.preset}{', changed: ' + ', '.join(args.settings) if args.settings else ''}):")
    for number, text in rules.describe(args.players):
        print(f"{number:>4}  {text}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .watch import watch

    rules = rules_from_args(args.preset, args.settings)
    human = False if args.watch else None
    return watch(players=args.players, rules=rules, seed=args.seed, delay=args.delay, bots=args.bots, human=human)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .sim.cli import simulate_command

    return simulate_command(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="liverpool", description="Liverpool Rummy and Contract Rummy")
    sub = parser.add_subparsers(dest="command", required=True)

    p_rules = sub.add_parser("rules", help="print the rules in effect, each with its number")
    _add_rules_args(p_rules)
    p_rules.add_argument("--players", type=int, default=None, help="show packs for this many players")
    p_rules.add_argument("--json", action="store_true", help="print the options as JSON")
    p_rules.set_defaults(func=_cmd_rules)

    p_play = sub.add_parser("play", help="play against bots in the terminal (or --watch bots play)")
    _add_rules_args(p_play)
    p_play.add_argument("--players", type=int, default=4)
    p_play.add_argument("--seed", type=int, default=None)
    p_play.add_argument("--delay", type=float, default=0.0, help="seconds to pause between turns")
    p_play.add_argument("--bots", default="greedy", help="bot name for every seat, or a comma list")
    p_play.add_argument("--watch", action="store_true", help="bots in every seat; you only watch")
    p_play.set_defaults(func=_cmd_play)

    p_sim = sub.add_parser("simulate", help="play many games between bots and measure them")
    _add_rules_args(p_sim)
    p_sim.add_argument("--games", type=int, default=100)
    p_sim.add_argument("--seats", default="greedy,greedy,greedy,greedy")
    p_sim.add_argument("--jobs", type=int, default=1)
    p_sim.add_argument("--seed", type=int, default=0)
    p_sim.add_argument("--think", type=float, default=None, help="seconds per decision for searching bots")
    p_sim.add_argument("--backend", choices=["local", "ray"], default="local")
    p_sim.add_argument("--address", default=None, help="Ray cluster address (backend ray)")
    p_sim.add_argument("--json", action="store_true")
    p_sim.add_argument("--ladder", action="store_true", help="play every bot against the others and rate them")
    p_sim.set_defaults(func=_cmd_simulate)

    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except ValueError as exc:
        print(f"liverpool: error: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

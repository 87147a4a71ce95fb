"""``liverpool rules``: the rules in effect, each with its number (or the options as JSON, or each
option's declaration with ``--options``)."""

from __future__ import annotations

import argparse
import json

from ..rules import OPTIONS, PRESET_CHOICES
from .common import add_rules_args, rules_from_args

__all__ = ["register"]


def _cmd_rules(args: argparse.Namespace) -> int:
    rules = rules_from_args(args.preset, args.settings)
    if args.json:
        print(json.dumps(rules.to_dict(), indent=2))
        return 0
    if args.options:
        for name, option in OPTIONS.items():
            value = option.typed(getattr(rules, name))
            print(f"{name} = {value}  ({', '.join(option.rules)}) {option.help}")
            print(f"      allowed: {option.allowed()}")
        return 0
    print(f"Rules in effect (preset {args.preset}{', changed: ' + ', '.join(args.settings) if args.settings else ''}):")
    for number, text in rules.describe(args.players):
        print(f"{number:>4}  {text}")
    choices = PRESET_CHOICES.get(args.preset)
    if choices:
        print(f"The {args.preset} preset's choices (the rest as liverpool), each with its reason:")
        for name, why in choices:
            print(f"      {name}: {why}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` subcommand."""
    p = sub.add_parser("rules", help="print the rules in effect, each with its number")
    add_rules_args(p)
    p.add_argument("--players", type=int, default=None, help="show packs for this many players")
    p.add_argument("--json", action="store_true", help="print the options as JSON")
    p.add_argument(
        "--options", action="store_true", help="list every option: its value, rule numbers, help and allowed values"
    )
    p.set_defaults(func=_cmd_rules)

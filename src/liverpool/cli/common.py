"""What every ``liverpool`` subcommand shares: the rules options and the error they raise."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..rules import PRESETS, RuleSet

__all__ = ["add_rules_args", "rules_from_args"]


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


def add_rules_args(parser: argparse.ArgumentParser) -> None:
    """``--preset``/``--rules`` and repeatable ``--set OPTION=VALUE``."""
    parser.add_argument(
        "--preset",
        "--rules",
        dest="preset",
        default="liverpool",
        help="one of " + ", ".join(PRESETS) + " (default liverpool)",
    )
    parser.add_argument(
        "--set", dest="settings", action="append", default=[], metavar="OPTION=VALUE", help="change one rule option"
    )

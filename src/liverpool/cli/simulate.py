"""``liverpool simulate``: a tournament (or with ``--ladder``, a rating ladder) from the command line.

The ladder rates the distinct bots named in ``--seats`` when there are two or more, otherwise every
registered bot (searching bots only when ``--think`` is given); its tables have as many seats as
``--seats`` names.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console

from ..bots import names as bot_names
from ..sim.ratings import LadderResult, ladder_bots, run_ladder
from ..sim.ray_backend import RayBackendError, RayUnavailableError
from ..sim.report import print_ladder, print_tournament
from ..sim.runner import Interrupted, Stopped
from ..sim.tournament import TournamentResult, parse_seats, run_tournament
from .common import add_rules_args, rules_from_args

__all__ = ["register", "simulate_command"]

_PIPE_WIDTH = 140


def _stdout_console() -> Console:
    console = Console()
    return console if console.is_terminal else Console(width=_PIPE_WIDTH)


def simulate_command(args: argparse.Namespace) -> int:
    """Run ``liverpool simulate`` from parsed arguments; prints a table, or JSON with ``--json``."""
    rules = rules_from_args(args.preset, args.settings)
    seats = parse_seats(args.seats)
    out = _stdout_console()
    # the bar goes to the terminal only: on stdout with the table, on stderr with --json
    bar = Console(stderr=True) if args.json else out
    progress = bar.is_terminal
    try:
        if args.ladder:
            bots = sorted(set(seats)) if len(set(seats)) > 1 else ladder_bots(args.think)
            ladder = run_ladder(
                bots,
                games=args.games,
                table=len(seats),
                rules=rules,
                seed=args.seed,
                jobs=args.jobs,
                think=args.think,
                backend=args.backend,
                address=args.address,
                progress=progress,
                console=bar,
                records=args.records,
            )
            if args.json:
                print(json.dumps(ladder.to_dict(), indent=2))
            else:
                print_ladder(ladder, out)
            return 0
        result = run_tournament(
            seats,
            games=args.games,
            rules=rules,
            seed=args.seed,
            jobs=args.jobs,
            think=args.think,
            backend=args.backend,
            address=args.address,
            progress=progress,
            console=bar,
            records=args.records,
        )
    except (RayUnavailableError, RayBackendError) as exc:
        print(f"liverpool: error: {exc}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        return _interrupted(stop, args, out)
    except Stopped as stop:
        print(f"liverpool: error: {stop}", file=sys.stderr)
        _partial(stop.summary, len(stop.results), args, out)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print_tournament(result, out)
    return 0


def _interrupted(stop: Interrupted, args: argparse.Namespace, out: Console) -> int:
    """Ctrl-C: the workers are stopped; print what the finished games show."""
    done = len(stop.results)
    print(f"\nliverpool: interrupted after {done} of {stop.total} games", file=sys.stderr)
    _partial(stop.summary, done, args, out)
    return 130


def _partial(summary: object, done: int, args: argparse.Namespace, out: Console) -> None:
    """The statistics of the games finished before a run stopped, as a finished run prints them."""
    if isinstance(summary, TournamentResult) and done:
        if args.json:
            print(json.dumps(summary.to_dict(), indent=2))
        else:
            print_tournament(summary, out)
    elif isinstance(summary, LadderResult) and done:
        if args.json:
            print(json.dumps(summary.to_dict(), indent=2))
        else:
            print_ladder(summary, out)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser("simulate", help="play many games between bots and measure them")
    add_rules_args(p)
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument(
        "--seats",
        default="greedy,greedy,greedy,greedy",
        help=f"one bot per seat, a comma list; options as name:option=value (bots: {', '.join(bot_names())})",
    )
    p.add_argument("--jobs", type=int, default=1, help="processes playing at once (default 1)")
    p.add_argument("--seed", type=int, default=0, help="tournament seed: the same seed plays the same games")
    p.add_argument("--think", type=float, default=None, help="seconds per decision for searching bots")
    p.add_argument("--backend", choices=["local", "ray"], default="local", help="local processes (default) or Ray")
    p.add_argument("--address", default=None, help="Ray cluster address (backend ray)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the results as JSON (with a row per game: seed, seats, scores, winners)",
    )
    p.add_argument(
        "--records",
        metavar="DIR",
        default=None,
        help="write each game's record to DIR/game-NNNNNN.json as it ends (Game.from_record replays it, "
        "liverpool review reviews it)",
    )
    p.add_argument("--ladder", action="store_true", help="play every bot against the others and rate them")
    p.set_defaults(func=simulate_command)

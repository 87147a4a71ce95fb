"""``liverpool review RECORD.json --seat N``: every decision of one seat in a finished game, rated.

The record is a ``Game.record()`` saved as JSON (or an object holding one under ``"record"``).
The report lists the decisions by verdict, the points lost per deal, the mistakes and blunders,
and the three costliest moments with the better move and why; ``--json`` prints the whole review
for tools (see docs/analysis.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..analysis import DEFAULT_SAMPLES, THRESHOLDS, VERDICTS, Budget, Decision, Review, explain, review
from ..cards import parse_card
from ..describe import card_text

__all__ = ["load_record", "print_review", "register", "review_command"]

_ROWS = 20
"""Mistakes and blunders listed at most (the costliest, in the order played)."""

_STYLE = {
    "best": "green",
    "good": "cyan",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
    "uncertain": "magenta",
}


_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}


def hand_text(tokens: list[str]) -> str:
    """A hand as a player sorts and reads it: by suit (♠ ♥ ♦ ♣) then rank, jokers last, symbols."""

    def key(token: str) -> tuple[int, int, int]:
        c = parse_card(token)
        return (1, 99, 99) if c.is_joker else (0, _SUITS.get(c.suit, 9), c.rank)

    return " ".join(card_text(t) for t in sorted(tokens, key=key)) or "-"


def load_names(path: str) -> list[str] | None:
    """The players' names saved beside the record (an object's ``"names"``), if any."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError):
        return None
    names = data.get("names") if isinstance(data, dict) else None
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return names
    return None


def load_record(path: str) -> dict[str, Any]:
    """The game record in the JSON file ``path``; ValueError with a clear text otherwise."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    if not isinstance(data, dict) or "actions" not in data:
        raise ValueError(f"{path} holds no game record (Game.record(): players, rules, seed, actions)")
    return data


def _loss(d: Decision) -> str:
    se = d.loss_se
    return f"{d.loss:.1f}" + (f" ± {se:.1f}" if d.loss > 0 and math.isfinite(se) else "")


def _who(names: list[str] | None, seat: int) -> str:
    return names[seat] if names is not None and 0 <= seat < len(names) else f"Seat {seat}"


def print_review(r: Review, reasons: dict[int, str], console: Console, names: list[str] | None = None) -> None:
    """The readable report (``names``: the players' names, by seat)."""
    status = "finished" if r.finished else "not finished"
    scores = ", ".join(f"{_who(names, p)} {s}" for p, s in enumerate(r.scores))
    console.print(
        f"[bold]Review of {_who(names, r.seat)}[/bold] · {r.players} players · game {status} · "
        f"final scores {scores} · up to {r.budget.samples} samples per decision, seed {r.budget.seed}",
        highlight=False,
    )
    if not r.complete:
        console.print(
            f"[bold yellow]Stopped:[/] {len(r.decisions)} of {r.total} decisions rated; the report covers those.",
            highlight=False,
        )
    console.print(
        "Points are the seat's points at the end of the deal less the others' average (lower is better); "
        "points lost: the action taken against the best found; uncertain: a loss the samples cannot tell "
        "from nothing."
    )
    counts = r.by_verdict
    verdicts = Table(box=box.SIMPLE_HEAD, title="Decisions by verdict", show_edge=False)
    verdicts.add_column("Verdict")
    verdicts.add_column("Points lost", justify="right")
    verdicts.add_column("Decisions", justify="right")
    bounds = [0.0] + [limit for _, limit in THRESHOLDS]
    for i, name in enumerate(v for v in VERDICTS if v != "uncertain"):
        span = f"{bounds[i]:g} - {bounds[i + 1]:g}" if i + 1 < len(bounds) else f"{bounds[i]:g} +"
        verdicts.add_row(f"[{_STYLE[name]}]{name}[/]", span, str(counts[name]))
    verdicts.add_row(f"[{_STYLE['uncertain']}]uncertain[/]", "2 + within its error", str(counts["uncertain"]))
    verdicts.add_row("forced (one legal action)", "", str(r.forced))
    console.print(verdicts)
    deals = Table(box=box.SIMPLE_HEAD, title="Points lost per deal", show_edge=False)
    deals.add_column("Deal", justify="right")
    deals.add_column("Decisions", justify="right")
    deals.add_column("Points lost", justify="right")
    per_deal = r.loss_per_deal
    for deal in sorted(per_deal):
        n = sum(1 for d in r.decisions if d.deal == deal)
        deals.add_row(str(deal), str(n), f"{per_deal[deal]:.1f}")
    deals.add_row("all", str(len(r.decisions)), f"{r.total_loss:.1f} ({r.mean_loss:.2f} per decision)")
    console.print(deals)
    bad = [d for d in r.decisions if d.verdict in ("mistake", "blunder")]
    if bad:
        shown = sorted(sorted(bad, key=lambda d: -d.loss)[:_ROWS], key=lambda d: d.index)
        more = f" (the {_ROWS} costliest of {len(bad)})" if len(bad) > _ROWS else ""
        table = Table(box=box.SIMPLE_HEAD, title=f"Mistakes and blunders{more}", show_edge=False)
        for heading in ("Deal", "Turn", "Played", "Better", "Points lost", "Verdict"):
            table.add_column(heading, justify="right" if heading in ("Deal", "Turn", "Points lost") else "left")
        for d in shown:
            table.add_row(
                str(d.deal),
                str(d.turn),
                d.taken_words or str(d.taken),
                d.best_words or str(d.best),
                _loss(d),
                f"[{_STYLE[d.verdict]}]{d.verdict}[/]",
            )
        console.print(table)
    costly = r.costliest()
    if costly:
        console.print("[bold]The three costliest moments[/bold]")
        for k, d in enumerate(costly, 1):
            console.print(
                f"{k}. Deal {d.deal}, turn {d.turn} · hand {hand_text(d.hand)}\n"
                f"   played [bold]{d.taken_words or d.taken}[/bold], better [bold]{d.best_words or d.best}[/bold]: "
                f"{_loss(d)} points lost ([{_STYLE[d.verdict]}]{d.verdict}[/])",
                highlight=False,
            )
            if d.index in reasons:
                console.print(f"   {reasons[d.index]}", highlight=False)
    else:
        console.print("No decision lost points.")


def review_command(args: argparse.Namespace) -> int:
    try:
        return _review_command(args)
    except KeyboardInterrupt:  # before any decision was rated (reading and replaying the record)
        print("Stopped before any decision was rated.")
        return 130


def _review_command(args: argparse.Namespace) -> int:
    record = load_record(args.record)
    names = [n.strip() for n in args.names.split(",")] if args.names else load_names(args.record)
    budget = Budget(samples=args.samples, seed=args.seed)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    out = Console()
    bar = Console(stderr=True) if args.json else out
    if bar.is_terminal:
        with Progress(
            TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=bar, transient=True
        ) as progress:
            task = progress.add_task("review", total=None)

            def tick(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            result = review(record, args.seat, budget, jobs=jobs, progress=tick, partial=True)
    else:
        result = review(record, args.seat, budget, jobs=jobs, partial=True)
    try:
        reasons = explain(record, result.costliest())
    except KeyboardInterrupt:  # a second Ctrl-C: the report without the reasons
        reasons = {}
    if args.json:
        data = result.to_dict()
        data["summary"]["costliest_reasons"] = {str(k): v for k, v in reasons.items()}
        print(json.dumps(data, indent=2))
    else:
        print_review(result, reasons, out, names)
    return 0 if result.complete else 130


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``review`` subcommand."""
    p = sub.add_parser("review", help="rate every decision of one seat in a recorded game")
    p.add_argument("record", help="a game record (JSON of Game.record())")
    p.add_argument("--seat", type=int, required=True, help="the seat to review (0-based)")
    p.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help="most samples per decision (fewer once a verdict is settled)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sampler (the review is reproducible)")
    p.add_argument("--jobs", type=int, default=0, help="processes (default: one per core)")
    p.add_argument("--names", default="", help="the players' names by seat, comma-separated (default: Seat N)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.set_defaults(func=review_command)

"""Play in the terminal: you against bots (a numbered menu of your legal actions), or watch bots.

The table is drawn with rich from your seat's view only; every rule is the engine's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from .actions import Action, Buy, Call, Discard, DrawDiscard, DrawStock, LayOff, Meld, Pass
from .bots import get
from .driver import next_to_act
from .game import Game
from .rules import RuleSet

__all__ = ["describe_action", "render_view", "watch"]


def describe_action(action: Action) -> str:
    """Plain words for an action."""
    if isinstance(action, DrawStock):
        return "draw from the stock"
    if isinstance(action, DrawDiscard):
        return "take the top discard"
    if isinstance(action, Buy):
        return "buy the discard"
    if isinstance(action, Pass):
        return "pass (don't buy or call)"
    if isinstance(action, Call):
        return "call the playable discard"
    if isinstance(action, Discard):
        return f"discard {action.card.pretty()}"
    if isinstance(action, Meld):
        return f"lay a {action.kind}: {' '.join(c.pretty() for c in action.cards)}"
    if isinstance(action, LayOff):
        return f"lay off {action.card.pretty()} on meld {action.meld}" + ("" if action.high else " (low end)")
    return str(action)


def _pretty(tokens: Sequence[str]) -> str:
    from .cards import parse_card

    return " ".join(parse_card(t).pretty() for t in tokens) or "-"


def render_view(view: dict[str, Any], names: Sequence[str]) -> Table:
    """A table of what one seat sees."""
    table = Table(title=f"Deal {view['deal']}/{view['deals']}: {view['contract']['text']}", expand=False)
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("down")
    table.add_column("score", justify="right")
    for p, name in enumerate(names):
        marker = "▶ " if p == view["current"] else "  "
        table.add_row(
            f"{marker}{name}", str(view["hand_sizes"][p]), "yes" if view["down"][p] else "", str(view["scores"][p])
        )
    for m in view["melds"]:
        table.add_row(f"  meld {m['id']} ({names[m['owner']]})", m["kind"], _pretty(m["cards"]), "")
    pile = view["discard_pile"]
    table.add_row("  discard", str(len(pile)), _pretty(pile[-1:]), f"stock {view['stock_size']}")
    return table


def watch(
    players: int = 4,
    rules: RuleSet | None = None,
    seed: int | None = None,
    delay: float = 0.0,
    bots: str = "greedy",
    human: bool | None = None,
) -> int:
    """Play a game in the terminal; ``human`` (default: when stdin is a terminal) takes seat 0."""
    console = Console()
    rules = rules or RuleSet()
    game = Game.new(players=players, rules=rules, seed=seed)
    human = sys.stdin.isatty() if human is None else human
    kinds = [k.strip() for k in bots.split(",") if k.strip()] or ["greedy"]
    seats = [get(kinds[i % len(kinds)], seed=(game.seed + i) % 2**32) for i in range(players)]
    names = ["you" if human and p == 0 else f"{seats[p].name} {p}" for p in range(players)]
    deal = 0
    while not game.is_over:
        seat, legal = next_to_act(game)
        if game.deal != deal:
            deal = game.deal
            console.rule(f"Deal {deal}")
        if human and seat == 0:
            view = game.view(0)
            console.print(render_view(view, names))
            console.print("Your hand: " + _pretty(view["hand"]))
            for i, action in enumerate(legal):
                console.print(f"  [bold]{i}[/bold] {describe_action(action)}")
            choice = console.input("Your move (number, q to quit): ").strip()
            if choice.lower() == "q":
                return 0
            if not choice.isdigit() or int(choice) >= len(legal):
                console.print("[red]Choose one of the numbers shown.[/red]")
                continue
            action = legal[int(choice)]
        else:
            action = seats[seat].act(game.view(seat), legal)
        before = len(game.events)
        game.apply(action)
        for event in game.events[before:]:
            line = _event_line(event, names)
            if line:
                console.print(line)
        if delay:
            time.sleep(delay)
    table = Table(title="Final scores")
    table.add_column("seat")
    table.add_column("score", justify="right")
    for p in range(players):
        table.add_row(names[p] + (" (winner)" if p in game.winners else ""), str(game.scores[p]))
    console.print(table)
    return 0


_VERBS = (
    ("discards", "discard"),
    ("takes", "take"),
    ("buys", "buy"),
    ("goes", "go"),
    ("lays", "lay"),
    ("calls", "call"),
    ("knocks", "knock"),
)


def _event_line(event: dict[str, Any], names: Sequence[str]) -> str:
    kind = event["type"]
    who = names[event["player"]] if isinstance(event.get("player"), int) else ""
    if who == "you":
        line = _event_line(event, [n if n != "you" else "YOU" for n in names])
        for third, second in _VERBS:
            line = line.replace(f"YOU {third}", f"you {second}")
        return line.replace("YOU", "you")
    if kind == "discard":
        return f"{who} discards {_pretty([event['card']])}"
    if kind == "draw_discard":
        return f"{who} takes {_pretty([event['card']])} from the discard pile"
    if kind == "buy":
        return f"{who} buys {_pretty([event['card']])} (+{event['penalty']} penalty)"
    if kind == "down":
        return f"[bold]{who} goes down[/bold]"
    if kind == "lay_off":
        return f"{who} lays off {_pretty([event['card']])} on meld {event['meld']}"
    if kind == "call":
        return f"{who} calls {names[event['offender']]}'s discard {_pretty([event['card']])}"
    if kind == "knock":
        return f"{who} knocks: one card left"
    if kind == "deal_end":
        out = event["out"]
        head = f"{names[out]} went out" if out is not None else event["reason"]
        return f"[bold]{head}[/bold]; points " + ", ".join(f"{names[p]} {v}" for p, v in enumerate(event["points"]))
    return ""

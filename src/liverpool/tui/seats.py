"""The players' panel of the terminal table: one row a seat, or, when the seats do not fit the
panel's height (tables of 9-16 at 80×24), compact rows side by side, so every seat shows at once.

>>> view = {"current": 1, "hand_sizes": [10, 6, 11], "down": [False, True, False], "scores": [0, 5, 20]}
>>> t = players_table(["Ana", "Bo (medium)", "Cy (easy)"], view, me=0, over=False, height=0)
>>> [c.header for c in t.columns]
['player', 'cards', 'down', 'score']
>>> t = players_table(["Ana", "Bo (medium)", "Cy (easy)"], view, me=0, over=False, height=3)
>>> [c.header for c in t.columns], t.row_count, t.caption
(['player', 'cards', 'pts', 'player', 'cards', 'pts'], 2, 'cards (↓: down), points')
"""

from __future__ import annotations

import re
from typing import Any

from rich.table import Table
from rich.text import Text

__all__ = ["compact_names", "players_table"]

_LEVEL = re.compile(r" \([^)]*\)$")


def compact_names(names: list[str]) -> list[str]:
    """The names without a bot's level in brackets ("Bo (medium)" → "Bo"), unless that makes two
    seats' names alike: then the names as they are."""
    short = [_LEVEL.sub("", n) or n for n in names]
    return short if len(set(short)) == len(short) else list(names)


def players_table(
    names: list[str], view: dict[str, Any], me: int | None, over: bool, height: int, ascii_only: bool = False
) -> Table:
    """The players' panel: a seat's name (the one to play marked), cards in hand, whether down and
    the score. ``height``: the panel's rows (0: not laid out yet); when the seats and the header do
    not fit it, the seats go in as many side-by-side groups as needed, each row "name, cards (a
    mark when down), points" with no header and a caption saying so, the level of a bot left out
    of its name."""
    arrow = ">" if ascii_only else "▶"
    seats = len(names)
    groups = 1 if height <= 0 or seats + 1 <= height else -(-seats // max(1, height - 1))  # the caption
    shown = names if groups == 1 else compact_names(names)

    def name_cell(p: int) -> Text:
        style = "bold" if p == me else ""
        marker = arrow if p == view["current"] and not over else " "
        return Text(f"{marker} {shown[p]}", style=style + (" yellow" if marker != " " else ""))

    if groups == 1:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("player", no_wrap=True, max_width=20)
        table.add_column("cards", justify="right")
        table.add_column("down")
        table.add_column("score", justify="right")
        for p in range(seats):
            table.add_row(
                name_cell(p), str(view["hand_sizes"][p]), "down" if view["down"][p] else "", str(view["scores"][p])
            )
        return table
    down_mark = "d" if ascii_only else "↓"
    table = Table(
        box=None,
        padding=(0, 0, 0, 1),
        show_edge=False,
        show_header=False,
        expand=True,
        caption=f"cards ({down_mark}: down), points",
        caption_justify="left",
        caption_style="dim",
    )
    for _ in range(groups):
        table.add_column("player", no_wrap=True, overflow="ellipsis", ratio=1)
        table.add_column("cards", justify="right", no_wrap=True, min_width=3)
        table.add_column("pts", justify="right", no_wrap=True, min_width=3)
    rows = -(-seats // groups)
    for r in range(rows):
        cells: list[Text | str] = []
        for g in range(groups):
            p = g * rows + r
            if p >= seats:
                cells += ["", "", ""]
                continue
            cells += [
                name_cell(p),
                f"{view['hand_sizes'][p]}{down_mark if view['down'][p] else ' '}",
                str(view["scores"][p]),
            ]
        table.add_row(*cells)
    return table

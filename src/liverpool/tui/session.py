"""A local game for the app: the engine's game, the bots in their seats, the save file and the record.

Nothing here knows a rule: who acts and what is legal come from :func:`liverpool.driver.next_to_act`,
every move is checked by ``Game.apply``. Every seat decides from its own view (``Game.view(p)``).

>>> session = LocalSession.new(players=3, bots=["easy"], seed=4, name="Ana", watch=False, data_dir=None)
>>> session.names
['Ana', 'Bo (easy)', 'Cy (easy)']
>>> parse_bots("hard,medium", 3)
['hard', 'medium', 'medium']
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..actions import Action
from ..bots import Bot, get, names
from ..driver import next_to_act
from ..game import Game
from ..rules import RuleSet

__all__ = ["SAVE_FORMAT", "LocalSession", "data_dir", "parse_bots"]

SAVE_FORMAT = "liverpool-tui-save-1"
BOT_NAMES = (
    "Ana",
    "Bo",
    "Cy",
    "Di",
    "Ed",
    "Flo",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kit",
    "Lu",
    "Max",
    "Ned",
    "Oz",
    "Pam",
    "Quin",
)


def data_dir() -> Path:
    """Where saves and game records go: ``$LIVERPOOL_DATA_DIR``, else ``$XDG_DATA_HOME/liverpool``,
    else ``~/.local/share/liverpool``."""
    explicit = os.environ.get("LIVERPOOL_DATA_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "liverpool"


def parse_bots(text: str | Sequence[str], seats: int) -> list[str]:
    """Bot names for ``seats`` bot seats: a comma list, the last name repeated for the seats left.
    An unknown name raises ValueError listing the known ones."""
    items = [t.strip() for t in text.split(",")] if isinstance(text, str) else [t.strip() for t in text]
    items = [t for t in items if t] or ["medium"]
    known = names()
    for item in items:
        if item not in known:
            raise ValueError(f"unknown bot {item!r}; bots are: {', '.join(known)}")
    if len(items) > seats:
        raise ValueError(f"{len(items)} bot names for {seats} bot seat{'s' if seats != 1 else ''}")
    return [items[min(i, len(items) - 1)] for i in range(seats)]


@dataclass
class LocalSession:
    """A game in progress with its seats; ``human`` is the seat played from the keyboard (None when
    watching)."""

    game: Game
    names: list[str]
    kinds: list[str | None]  # bot name per seat; None for the human seat
    human: int | None
    data: Path | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    record_path: Path | None = None

    def __post_init__(self) -> None:
        for seat, kind in enumerate(self.kinds):
            if kind is not None and seat not in self.bots:
                self.bots[seat] = get(kind, seed=(self.game.seed + seat) % 2**32)

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(
        cls,
        players: int = 4,
        rules: RuleSet | None = None,
        bots: Sequence[str] | str = ("medium",),
        seed: int | None = None,
        name: str = "You",
        watch: bool = False,
        data_dir: Path | None = None,
    ) -> LocalSession:
        """A new game: the human in seat 0 (unless ``watch``), bots in the other seats."""
        rules = rules or RuleSet()
        rules.check_table(players)
        bot_seats = players if watch else players - 1
        kinds_list = parse_bots(bots, bot_seats)
        game = Game.new(players=players, rules=rules, seed=seed)
        kinds: list[str | None] = list(kinds_list) if watch else [None, *kinds_list]
        human_name = name.strip() or "You"
        pool = [n for n in BOT_NAMES if n.lower() != human_name.lower()]
        bot_names = iter(pool * (1 + players // len(pool)))
        seat_names = [human_name if kind is None else f"{next(bot_names)} ({kind})" for kind in kinds]
        return cls(game=game, names=seat_names, kinds=kinds, human=None if watch else 0, data=data_dir)

    @classmethod
    def resume(cls, path: Path, data_dir: Path | None = None) -> LocalSession:
        """The game saved at ``path``, replayed by the engine from its record."""
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"no saved game at {path}; start one with `liverpool play`") from None
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read the saved game {path}: {exc}") from None
        if not isinstance(saved, dict) or saved.get("format") != SAVE_FORMAT:
            raise ValueError(f"{path} is not a saved game of this app")
        game = Game.from_record(saved["record"])
        if game.is_over:
            raise ValueError(f"the game saved at {path} is over")
        return cls(
            game=game,
            names=list(saved["names"]),
            kinds=list(saved["kinds"]),
            human=saved["human"],
            data=data_dir if data_dir is not None else path.parent,
        )

    # ------------------------------------------------------------------ playing
    @property
    def watching(self) -> bool:
        return self.human is None

    def to_act(self) -> tuple[int, list[Action]]:
        """The seat asked now and its legal actions."""
        return next_to_act(self.game)

    def bot_action(self, seat: int, legal: Sequence[Action]) -> Action:
        """The bot of ``seat`` decides from its own view."""
        return self.bots[seat].act(self.game.view(seat), legal)

    def events(self, since: int = 0) -> list[dict[str, Any]]:
        """The game's events from index ``since`` on, as the human's seat sees them (its own draws
        from the stock name the card: ``Game.events_for``); the public ones when watching."""
        if self.human is None:
            return self.game.events[since:]
        return self.game.events_for(self.human, since)

    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Apply ``action`` (IllegalAction when refused: nothing changes); the events it produced,
        as the human's seat sees them."""
        before = len(self.game.events)
        self.game.apply(action)
        events = self.events(before)
        if self.game.is_over:
            self.finish()
        return events

    # ------------------------------------------------------------------ files
    @property
    def save_path(self) -> Path | None:
        return None if self.data is None else self.data / "save.json"

    def save(self) -> Path | None:
        """Write the game in progress (not when watching or over); its path."""
        path = self.save_path
        if path is None or self.watching or self.game.is_over:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "format": SAVE_FORMAT,
            "names": self.names,
            "kinds": self.kinds,
            "human": self.human,
            "record": self.game.record(),
        }
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(path)
        return path

    def finish(self) -> Path | None:
        """Write the finished game's record (with the seat names) and remove the save; its path."""
        if self.record_path is not None or self.data is None:
            return self.record_path
        folder = self.data / "games"
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"game-{stamp}-{self.game.seed}.json"
        record = self.game.record() | {"names": self.names, "bots": self.kinds, "human": self.human}
        path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        self.record_path = path
        save = self.save_path
        if save is not None and save.exists() and not self.watching:
            save.unlink()
        return path

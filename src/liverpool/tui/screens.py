"""The app's other screens: help, a choice among actions, quit confirmation, deal end, game end."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from ..describe import cards_text
from .remote import BUY_MODES, CHAT_MAX, BuyPrefs, parse_wish

__all__ = [
    "BuyPrefsScreen",
    "ChatScreen",
    "ChooseScreen",
    "DealEndScreen",
    "GameEndScreen",
    "HelpScreen",
    "QuitScreen",
    "score_table",
]

KEYS_HELP = (
    ("Your turn, drawing", ""),
    ("s", "draw from the stock"),
    ("d", "take the top discard"),
    ("Your turn, playing", ""),
    ("← →  (or h l)", "move along your hand; a click chooses a card"),
    ("space", "choose / unchoose the card under the cursor"),
    ("m", "stage the chosen cards as a meld of your contract (checked at once)"),
    ("f", "fill in the solver's suggested lay-down"),
    ("enter", "lay the staged melds down (when they make the contract)"),
    ("esc", "cancel the staged melds and the choice"),
    ("o", "lay off the card under the cursor (the melds it fits are marked ◆)"),
    ("j", "swap a joker on the table (offered when the rules allow it and you can then go down)"),
    ("u", "undo your joker swap (the joker goes back; the card you gave returns)"),
    ("x", "discard the card under the cursor (press again to confirm a warning)"),
    ("a", "every legal action, in words (also: pile draws, unswap, end turn)"),
    ("Out of turn", ""),
    ("b", "buy the discard while the buy prompt is open"),
    ("c", "call the playable discard while the prompt is open"),
    ("n", "pass now (the prompt passes by itself when its time is up)"),
    ("Any time", ""),
    ("H", "a hint for your decision now: the move found best and why (hints per deal as the table allows)"),
    ("t", "sort the hand by suit or by rank"),
    ("p", "pause / resume the bots"),
    ("F1 or ?", "this help"),
    ("q", "quit (asks first; the game is saved, `liverpool play --resume` continues it)"),
    ("ctrl+c", "save and quit at once"),
    ("At a server's table", ""),
    ("B", "buying: ask me, pass unless the card fits my contract, never buy, a wish list (the server answers)"),
    ("/", "write a line to the table's chat (shown in the chat pane, as text)"),
    ("M", "mute or unmute a person in the chat (kept by the server for your seat)"),
    ("enter", "on the deal-end screen: done reading (the table waits for everyone who reads it)"),
)


class HelpScreen(ModalScreen[None]):
    """The keys and the rules in play."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark,enter", "close", "close"),
    ]

    def __init__(self, rules: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        keys = Table(box=None, show_header=False, padding=(0, 1))
        keys.add_column(style="bold cyan", no_wrap=True)
        keys.add_column()
        for key, text in KEYS_HELP:
            if text:
                keys.add_row(key, text)
            else:
                keys.add_row(Text(key, style="bold underline"), "")
        rules = Table(box=None, show_header=False, padding=(0, 1))
        rules.add_column(style="bold", no_wrap=True)
        rules.add_column()
        for number, text in self.rules:
            rules.add_row(number, text)
        with Vertical(id="dialog"):
            yield Static(Text("Help: keys and the rules in play  (esc closes)", style="bold"), classes="title")
            with VerticalScroll():
                yield Static(keys)
                yield Static(Text("\nThe rules in play", style="bold underline"))
                yield Static(rules)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class ChooseScreen(ModalScreen[int | None]):
    """Choose one of several actions described in words (the index chosen, None when cancelled)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, options: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text + "  (enter chooses, esc cancels)", style="bold"), classes="title")
            yield OptionList(*self.options, id="choices")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Ask before quitting."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes, quit"),
        Binding("n,escape", "answer(False)", "no, keep playing"),
    ]

    def __init__(self, saved: bool, note: str | None = None) -> None:
        super().__init__()
        self.saved = saved
        self.note = note

    def compose(self) -> ComposeResult:
        more = self.note or (
            "The game is saved: `liverpool play --resume` continues it."
            if self.saved
            else "This game is not saved (watching)."
        )
        with Vertical(id="dialog", classes="small"):
            yield Static(Text("Quit the game?", style="bold"), classes="title")
            yield Static(Text(f"{more}\n\n[y] yes, quit    [n] no, keep playing"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def score_table(names: Sequence[str], deal_scores: Sequence[Sequence[int]], totals: Sequence[int]) -> Table:
    """Points per deal and the totals, one column per seat (a row per seat past 8 seats, where the
    columns would not fit 80 columns)."""
    table = Table(title="Scores (lowest wins)", padding=(0, 1), box=box.SIMPLE_HEAD, show_edge=False)
    if len(names) > 8:
        table.add_column("player", no_wrap=True)
        for i in range(1, len(deal_scores) + 1):
            table.add_column(f"deal {i}" if len(deal_scores) < 4 else str(i), justify="right")
        table.add_column("total", justify="right", style="bold")
        for p, name in enumerate(names):
            table.add_row(name, *(str(row[p]) for row in deal_scores), str(totals[p]))
        return table
    table.add_column("deal", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for i, row in enumerate(deal_scores, 1):
        table.add_row(str(i), *(str(v) for v in row))
    table.add_row(Text("total", style="bold"), *(Text(str(v), style="bold") for v in totals))
    return table


class DealEndScreen(ModalScreen[None]):
    """Every hand revealed and the score table, after a deal."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space,escape", "close", "continue")]

    def __init__(
        self,
        event: dict[str, Any],
        names: Sequence[str],
        deal_scores: Sequence[Sequence[int]],
        totals: Sequence[int],
        deal: int,
        ascii_only: bool = False,
        auto_close: float | None = None,
        next_text: str = "next deal",
    ) -> None:
        super().__init__()
        self.next_text = next_text
        self.event = event
        self.names = list(names)
        self.deal_scores = deal_scores
        self.totals = totals
        self.deal = deal
        self.ascii_only = ascii_only
        self.auto_close = auto_close

    def compose(self) -> ComposeResult:
        out = self.event.get("out")
        head = (
            f"Deal {self.deal} is over: {self.names[out]} went out"
            if isinstance(out, int)
            else f"Deal {self.deal} is over: {self.event.get('reason')}"
        )
        # the totals first, beside this deal's points: on a small terminal the score table below
        # (a row per deal) may scroll, the standing never does
        hands = Table(box=None, padding=(0, 1), show_header=True)
        hands.add_column("player", no_wrap=True)
        hands.add_column("points", justify="right")
        hands.add_column("total", justify="right", style="bold")
        hands.add_column("cards left")
        points = self.event.get("points", [])
        shown = self.event.get("hands", {})
        for p, name in enumerate(self.names):
            cards = shown.get(str(p), "")
            text = cards_text(cards.split(), self.ascii_only) if cards else "(out)"
            total = str(self.totals[p]) if p < len(self.totals) else ""
            hands.add_row(name, str(points[p]) if p < len(points) else "", total, text)
        with Vertical(id="dialog"):
            yield Static(Text(head, style="bold"), classes="title")
            with VerticalScroll():
                yield Static(hands)
                yield Static(score_table(self.names, self.deal_scores, self.totals))
            yield Static(Text(f"[enter] {self.next_text}", style="bold"), classes="hint")

    def on_mount(self) -> None:
        if self.auto_close is not None:
            self.set_timer(self.auto_close, self.action_close)

    def action_close(self) -> None:
        if self.is_active:
            self.dismiss(None)


class GameEndScreen(ModalScreen[None]):
    """The final scores, the winner and where the record was written."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,q,escape", "close", "quit")]

    def __init__(
        self,
        names: Sequence[str],
        deal_scores: Sequence[Sequence[int]],
        totals: Sequence[int],
        winners: Sequence[int],
        record: Path | None,
    ) -> None:
        super().__init__()
        self.names = list(names)
        self.deal_scores = deal_scores
        self.totals = totals
        self.winners = winners
        self.record = record

    def compose(self) -> ComposeResult:
        who = " and ".join(self.names[w] for w in self.winners)
        verb = "wins" if len(self.winners) == 1 else "win"
        where = f"The game's record: {self.record}" if self.record else "The game's record was not written."
        with Vertical(id="dialog"):
            yield Static(Text(f"Game over: {who} {verb}!", style="bold"), classes="title")
            with VerticalScroll():
                yield Static(score_table(self.names, self.deal_scores, self.totals))
                yield Static(Text(where))
            yield Static(Text("[enter] or [q] leave", style="bold"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class BuyPrefsScreen(ModalScreen[BuyPrefs | None]):
    """The buy choice at a server's table (``prefs``): ask me, pass unless the card fits my
    contract, never buy, and a wish list of cards bought at once. The server makes those passes
    and buys (server/pacing.py); the app decides no rule."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, current: BuyPrefs, ascii_only: bool = False) -> None:
        super().__init__()
        self.current = current
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        modes = list(BUY_MODES)
        with Vertical(id="dialog", classes="small"):
            yield Static(Text("Buying: when the others discard a card you may buy", style="bold"), classes="title")
            yield OptionList(*(BUY_MODES[m].capitalize() for m in modes), id="buy-modes")
            yield Static(Text("Wish list: cards bought at once whenever you may (7H, Q for any queen, JK):"))
            yield Input(value=" ".join(self.current.wish), placeholder="e.g. 7H Q JK", id="wish")
            yield Static(Text("enter saves (on a choice or the wish list), tab moves, esc cancels", style="dim"))

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = list(BUY_MODES).index(self.current.mode) if self.current.mode in BUY_MODES else 0
        options.focus()

    def chosen(self) -> BuyPrefs:
        index = self.query_one(OptionList).highlighted or 0
        mode = list(BUY_MODES)[index]
        return BuyPrefs(mode, tuple(parse_wish(self.query_one(Input).value)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.chosen())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(self.chosen())

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatScreen(ModalScreen[str | None]):
    """Write one chat line (the text typed, None when cancelled). What is typed is sent as text:
    the chat pane never reads markup in it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static(Text("Say something to the table", style="bold"), classes="title")
            yield Input(placeholder="a line of text", max_length=CHAT_MAX, id="chat-input")
            yield Static(Text(f"enter sends (at most {CHAT_MAX} characters), esc cancels", style="dim"))

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)

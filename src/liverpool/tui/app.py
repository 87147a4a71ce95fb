"""The Textual app: one table of Liverpool seen from one seat, the bots playing the other seats.

Every rule is the engine's: what may be done comes from the legal actions the engine lists (or its
``verify`` for a meld built by hand), the suggested lay-down from :func:`liverpool.game.answers.suggest_lay_down`,
and everything drawn on screen from the seat's own view (``Game.view(p)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from ..actions import Action, Buy, Call, Discard, DrawDiscard, DrawStock, LayOff, Meld, Pass, SwapJoker, Unswap
from ..cards import Card, parse_card, parse_cards
from ..describe import card_text, cards_text, describe_action, describe_event, plural
from ..game import Game, IllegalAction
from ..game.answers import discard_called, public_game, suggest_lay_down, swap_lets_go_down
from .remote import BuyPrefs, RemoteGame, RemoteSession, gained_cards
from .screens import BuyPrefsScreen, ChatScreen, ChooseScreen, DealEndScreen, GameEndScreen, HelpScreen, QuitScreen
from .seats import players_table
from .session import LocalSession

__all__ = ["HandView", "LiverpoolApp"]

SUIT_ORDER = {"S": 0, "H": 1, "D": 2, "C": 3}
SLOT = 5  # cells per card in the hand
CHAT_REFUSALS = frozenset({"chat_off", "chat_limited", "malformed"})  # a chat line the server did not take


def card_style(card: Card) -> str:
    """Red for hearts and diamonds, magenta for jokers."""
    if card.is_joker:
        return "bold magenta"
    return "bold red" if card.suit in "HD" else "bold"


def sort_hand(cards: Sequence[Card], by_rank: bool) -> list[Card]:
    """The hand sorted by suit then rank, or by rank then suit; jokers last."""

    def key(c: Card) -> tuple[int, int, int]:
        if c.is_joker:
            return (1, 99, 99)
        if by_rank:
            return (0, c.rank, SUIT_ORDER.get(c.suit, 9))
        return (0, SUIT_ORDER.get(c.suit, 9), c.rank)

    return sorted(cards, key=key)


def hand_size(cards: Counter[Card]) -> int:
    return sum(cards.values())


class HandChanged(Message):
    """The cursor or the choice moved."""


class HandView(Widget):
    """The player's hand: a cursor, chosen cards (reversed), cards just taken marked ``*``."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 3; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[Card] = []
        self.cursor = 0
        self.chosen: list[int] = []  # indices into cards, in the order chosen
        self.fresh: Counter[Card] = Counter()
        self.title = "Your hand"
        self.ascii_only = False
        self.active = False

    def set_cards(self, cards: list[Card]) -> None:
        if Counter(cards) != Counter(self.cards) or cards != self.cards:
            if Counter(cards) != Counter(self.cards):
                self.chosen = []
            self.cards = cards
            self.cursor = min(self.cursor, max(0, len(cards) - 1))
        self.refresh(layout=True)

    def per_line(self) -> int:
        return max(1, (self.size.width or 80) // SLOT)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        per = max(1, width // SLOT)
        return 1 + max(1, -(-len(self.cards) // per))

    def render(self) -> Text:
        text = Text(self.title, style="bold")
        text.append("\n")
        per = self.per_line()
        fresh = Counter(self.fresh)
        for i, card in enumerate(self.cards):
            if i and i % per == 0:
                text.append("\n")
            at_cursor = i == self.cursor and self.active
            text.append(">" if at_cursor else " ", style="bold yellow")
            style = card_style(card)
            if i in self.chosen:
                style += " reverse"
            if at_cursor:
                style += " underline"
            token = card_text(card, self.ascii_only)
            text.append(token, style=style)
            mark = ""
            if fresh[card] > 0:
                fresh[card] -= 1
                mark = "*"
            text.append(mark, style="bold green")
            text.append(" " * (SLOT - 1 - len(token) - len(mark)))
        if not self.cards:
            text.append("(no cards)")
        return text

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return
        index = (event.y - 1) * self.per_line() + event.x // SLOT
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.toggle()

    def toggle(self) -> None:
        if not self.cards:
            return
        if self.cursor in self.chosen:
            self.chosen.remove(self.cursor)
        else:
            self.chosen.append(self.cursor)
        self.refresh()
        self.post_message(HandChanged())

    @property
    def current(self) -> Card | None:
        return self.cards[self.cursor] if self.cards else None


class LiverpoolApp(App[int]):
    """A game of Liverpool in the terminal."""

    TITLE = "Liverpool"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; padding: 0 1; }
    #top { height: 2fr; min-height: 5; }
    #players { width: 38; padding: 0 1; }
    #melds-box { width: 1fr; border-left: solid $primary-darken-2; padding: 0 1; }
    #log { height: 1fr; min-height: 4; border-top: solid $primary-darken-2; padding: 0 1; scrollbar-size-vertical: 1; }
    #lower { height: 1fr; min-height: 5; }
    #chat { width: 40%; height: 1fr; min-height: 4; padding: 0 1; scrollbar-size-vertical: 1;
            border-top: solid $primary-darken-2; border-left: solid $primary-darken-2; }
    #prompt { height: auto; max-height: 3; padding: 0 1; }
    #staging { height: auto; max-height: 3; padding: 0 1; }
    #staging.empty { display: none; }
    HandView { padding: 0 1; border-top: solid $primary-darken-2; }
    ModalScreen { align: center middle; }
    #dialog { width: 90%; height: 90%; border: thick $primary; background: $surface; padding: 0 1; }
    #dialog.small { height: auto; width: 70; }
    #dialog .title { height: auto; margin-bottom: 1; }
    #dialog .hint { height: 1; dock: bottom; }
    #dialog VerticalScroll { height: 1fr; }
    #choices { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "help"),
        Binding("q", "quit_game", "quit"),
        Binding("ctrl+c", "save_and_quit", "save & quit", show=False, priority=True),
        Binding("p", "pause", "pause"),
        Binding("t", "sort", "sort"),
        Binding("left,h", "cursor(-1)", "left", show=False),
        Binding("right,l", "cursor(1)", "right", show=False),
        Binding("space", "choose", "choose", show=False),
        Binding("s", "draw_stock", "stock", show=False),
        Binding("d", "draw_discard", "discard pile", show=False),
        Binding("m", "stage", "meld", show=False),
        Binding("f", "fill", "suggest", show=False),
        Binding("enter", "lay_down", "lay down", show=False),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("o", "lay_off", "lay off", show=False),
        Binding("j", "swap", "joker swap", show=False),
        Binding("u", "unswap", "undo swap", show=False),
        Binding("x", "discard", "discard", show=False),
        Binding("a", "all_actions", "actions"),
        Binding("b", "buy", "buy", show=False),
        Binding("c", "call", "call", show=False),
        Binding("n", "pass_now", "pass", show=False),
        Binding("H", "hint", "hint"),  # shift+h (h moves left)
        Binding("B", "buy_prefs", "buying"),  # at a server's table (check_action)
        Binding("slash", "chat", "chat"),
        Binding("M", "mute", "mute", show=False),
    ]

    REMOTE_ONLY: ClassVar[frozenset[str]] = frozenset({"buy_prefs", "chat", "mute"})
    """Keys of a server's table only: hidden from the footer (and off) in a local game."""

    def __init__(
        self,
        session: LocalSession | RemoteSession,
        delay: float = 0.5,
        ascii_only: bool = False,
        buy_seconds: float = 8.0,
        auto_deal_end: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        hints: int | None = 3,
        hint_samples: int = 24,
    ) -> None:
        """``delay``: seconds between the bots' moves; ``buy_seconds``: how long the out-of-turn
        prompt stays open; ``auto_deal_end``: seconds before the deal-end screen closes by itself
        (default: never when playing, 6 s when watching); ``clock``: the time source (tests fix it);
        ``hints``: hints per deal on the H key (the table option's 3 by default; None: no limit, 0:
        off), each searched with at most ``hint_samples`` samples (``liverpool.analysis.hint``)."""
        super().__init__()
        self.hints = hints
        self.hint_samples = hint_samples
        self.hints_used = 0
        self.hints_deal = 0
        self.hint_for: int | None = None  # the game's length in actions a hint is computed for
        self.clock = clock
        self.session = session
        self.delay = delay
        self.ascii_only = ascii_only
        self.buy_seconds = buy_seconds
        self.auto_deal_end = auto_deal_end
        self.paused = False
        self.busy = False  # a bot is deciding
        self.next_at = 0.0
        self.prompt_deadline: float | None = None
        self.prompt_legal: list[Action] = []
        self.staged: list[Meld] = []
        self.message: Text | None = None
        self.warned_discard: Card | None = None
        self.ended = False
        self.quit_reason = ""
        self.remote = isinstance(session, RemoteSession)
        self.was_started = False  # a server's table sent its first state

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield Static(id="players")
            with VerticalScroll(id="melds-box"):
                yield Static(id="melds")
        with Horizontal(id="lower"):
            # beside the chat the log is narrow: its lines wrap at its width (RichLog's default is 78)
            yield RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20 if self.remote else 78)
            chat = RichLog(id="chat", wrap=True, markup=False, max_lines=500, min_width=20)  # text, never markup
            chat.display = self.remote
            yield chat
        yield Static(id="prompt")
        yield Static(id="staging")
        hand = HandView(id="hand")
        hand.ascii_only = self.ascii_only
        yield hand
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        names = self.session.names
        if isinstance(self.session, RemoteSession):
            log.write(Text(f"Connecting to {self.session.base}, table {self.session.table_id}…", style="italic"))
            self.catch_hangup()
            self.run_worker(self.session.run(self.on_remote), group="socket")
            self.set_interval(0.05, self.tick)
            self.refresh_view()
            return
        for event in self.session.events()[-200:]:
            line = describe_event(event, names, ascii_only=self.ascii_only)
            if line:
                log.write(Text(line))
        if self.session.watching:
            log.write(Text("Watching bots play: p pauses, q quits.", style="italic"))
        else:
            log.write(Text("Welcome! F1 or ? shows the keys and the rules in play.", style="italic"))
        self.set_interval(0.05, self.tick)
        self.refresh_view()

    def catch_hangup(self) -> None:
        """A closed terminal (SIGHUP) ends the app as q does, so the seat's command is still printed
        (and its token is in seats.json): not killed mid-frame."""
        hangup = getattr(signal, "SIGHUP", None)
        if hangup is None:
            return
        try:
            asyncio.get_running_loop().add_signal_handler(hangup, self.hang_up)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals
            return
        self.hangup_caught = True

    def hang_up(self) -> None:
        self.quit_reason = self.leave_note() or ""
        self.exit(0)

    def on_unmount(self) -> None:
        if self.hangup_caught:
            self.hangup_caught = False
            with contextlib.suppress(RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGHUP)

    hangup_caught = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys of a server's table (buying choices) are hidden in a local game."""
        return self.remote or action not in self.REMOTE_ONLY

    # ------------------------------------------------------------------ state helpers
    @property
    def game(self) -> Game | RemoteGame:
        return self.session.game

    # ------------------------------------------------------------------ a server's table
    def on_remote(self, message: dict[str, Any]) -> None:
        """A message of the server (already taken in by the session), or the socket's news."""
        session = self.session
        kind = message.get("type")
        if kind == "hello":
            self.log_line(f"Connected to table {self.table_id()} as {session.names[self.seat]}.", "bold green")
            self.message = None
            self.remote_pause()
        elif kind == "state":
            if not self.was_started:  # the table just started: "Starting the game…" is done
                self.message = None
            self.remote_state(message)
            self.remote_pause()
        elif kind == "error":
            reason = message.get("reason", message.get("code", "?"))
            self.say(f"The server says: {reason}", "bold red")
            if message.get("code") in CHAT_REFUSALS:
                self.chat_note(f"Not sent: {reason}", "bold red")
        elif kind == "hint":  # the server's answer to H (docs/protocol.md "hint")
            left = message.get("left")
            note = "" if left is None else f" ({left} left this deal)"
            self.say(f"Hint: {message.get('text', '')}{note}", "bold cyan")
            self.log_line(f"Hint: {message.get('text', '')}", "cyan")
        elif kind == "chat_log":
            self.show_chat()
        elif kind == "chat":
            line = message.get("line")
            if isinstance(line, dict):
                self.chat_line(line)
        elif kind == "disconnected":
            if message.get("attempt") == 1:
                self.log_line(f"Connection lost; reconnecting in {message.get('wait', 0):g}s…", "bold red")
            self.prompt_deadline = None
            self.prompt_legal = []
            if message.get("attempt") == 1:
                self.message = None  # the banner says what matters now
        elif kind == "fatal":
            self.log_line(str(message.get("reason")), "bold red")
            self.say(f"{message.get('reason')}. Press q to quit.", "bold red")
        elif kind == "lobby":
            self.log_line("Waiting for the table to start: " + ", ".join(session.names), "dim")
        if self.is_running:
            self.refresh_view()

    def remote_pause(self) -> None:
        """The deal-end pause as the server holds it: a seat it waits for sees the deal-end screen
        (again, after a reconnect); a pause ended by its timer closes the screen."""
        session = self.session
        if not isinstance(session, RemoteSession) or not session.ready or not self.is_running:
            return
        showing = any(isinstance(s, DealEndScreen) for s in self.screen_stack)
        if session.waited_for():
            self.held = True
            event = session.last_deal_end()
            if not showing and event is not None:
                self.show_deal_end(event)
        elif self.held:
            self.held = False
            if session.pause is None and isinstance(self.screen, DealEndScreen):
                self.log_line("The deal-end pause is over: the next deal goes on.", "dim")
                self.screen.dismiss(None)

    held = False  # the server's deal-end pause waited for this seat at the last message

    # ------------------------------------------------------------------ the chat pane
    def show_chat(self) -> None:
        """The whole chat again (a ``chat_log``, after every hello)."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return
        for pane in self.query("#chat").results(RichLog):
            pane.clear()
            if session.chat_option == "off":
                pane.write(Text("The chat is off at this table.", style="dim"))
            else:
                muted = f" Muted: {len(session.chat_muted)} (M)." if session.chat_muted else ""
                pane.write(Text(f"Chat: / writes a line, M mutes.{muted}", style="dim"))
        for line in session.chat:
            self.chat_line(line)

    def chat_line(self, line: dict[str, Any]) -> None:
        """One line of the chat, as text (a name and a message are never read as markup)."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return
        text = Text()
        if line.get("kind") == "system":
            text.append(f"* {line.get('text', '')}", style="italic dim")
        else:
            text.append(session.chat_who(line), style="bold")
            text.append(": ")
            text.append(str(line.get("text", "")))
        for pane in self.query("#chat").results(RichLog):
            pane.write(text)

    def chat_note(self, note: str, style: str = "") -> None:
        for pane in self.query("#chat").results(RichLog):
            pane.write(Text(note, style=style))

    def action_mute(self) -> None:
        """M: mute or unmute a person in the chat (kept by the server for this seat)."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return
        talkers = session.talkers()
        if not talkers:
            self.say("Nobody to mute: no other person at this table has talked.", "yellow")
            return
        texts = [f"{'Unmute' if key in session.chat_muted else 'Mute'} {name}" for key, name in talkers]

        def chosen(index: int | None) -> None:
            if index is None:
                return
            key, name = talkers[index]
            on = key not in session.chat_muted
            if session.mute(key, on):
                self.say(f"{name} is {'muted: their lines are not sent to you' if on else 'heard again'}.", "green")
            else:
                self.say("Not connected to the server: reconnecting…", "bold red")

        self.push_screen(ChooseScreen("Mute or unmute in the chat", texts), chosen)

    def action_chat(self) -> None:
        """/: write a line to the table's chat (at a server's table)."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return
        if session.chat_option == "off":
            self.say("The chat is off at this table.", "yellow")
            return

        def written(text: str | None) -> None:
            if text is None or not text.strip():
                return
            refused = session.say(text)
            if refused is not None:
                self.say(f"Not sent: {refused}", "bold red")
                self.chat_note(f"Not sent: {refused}", "bold red")

        self.push_screen(ChatScreen(), written)

    def table_id(self) -> str:
        return self.session.table_id if isinstance(self.session, RemoteSession) else ""

    def remote_state(self, message: dict[str, Any]) -> None:
        """Log the moves of a ``state`` (its public events, else its ``last``), mark the cards taken."""
        names = self.session.names
        melds = self.game.view(self.viewer)["melds"]
        lines = 0
        deal_end: dict[str, Any] | None = None
        for event in message.get("events", []):
            line = describe_event(event, names, ascii_only=self.ascii_only, melds=melds)
            if line:
                style = "bold" if event.get("type") in ("down", "deal_end", "game_over", "call_penalty") else ""
                self.log_line(line, style)
                lines += 1
            if event.get("type") == "deal_end":
                deal_end = event
        last = message.get("last")
        if not lines and isinstance(last, dict) and last.get("text"):
            self.log_line(str(last["text"]))
        session = self.session
        if isinstance(session, RemoteSession) and self.me is not None:
            hand = self.query_one(HandView)
            mine = [e for e in message.get("events", []) if e.get("player") == self.me]
            if any(e.get("type") in ("draw_stock", "draw_discard") for e in mine):
                hand.fresh = gained_cards(session.previous_hand, self.game.hand(self.me))
            elif any(e.get("type") == "buy" for e in mine):
                hand.fresh = hand.fresh + gained_cards(session.previous_hand, self.game.hand(self.me))
            elif any(e.get("type") == "discard" for e in mine):
                hand.fresh = Counter()
        if not self.in_turn():
            self.staged = []
        showing = any(isinstance(s, DealEndScreen) for s in self.screen_stack)
        if deal_end is not None and not showing:  # also over another dialog: the table may wait for us
            self.query_one(HandView).fresh = Counter()
            self.show_deal_end(deal_end)

    @property
    def me(self) -> int | None:
        return self.session.human

    @property
    def seat(self) -> int:
        """The human's seat (only asked for when there is one)."""
        if self.me is None:
            raise RuntimeError("no human seat: watching")
        return self.me

    @property
    def viewer(self) -> int:
        """The seat whose view is drawn: the human's, or when watching the seat to play."""
        return self.me if self.me is not None else self.game.current

    def my_turn_legal(self) -> list[Action]:
        """The human's legal actions when it is their turn to act (in turn or out of turn)."""
        if self.me is None or self.game.is_over or self.busy:
            return []
        seat, legal = self.session.to_act()
        return legal if seat == self.me else []

    def in_turn(self) -> bool:
        return self.me is not None and not self.game.is_over and self.game.current == self.me

    def say(self, text: str, style: str = "") -> None:
        self.message = Text(text, style=style)
        self.refresh_view()

    def log_line(self, text: str, style: str = "") -> None:
        for log in self.query("#log").results(RichLog):  # one while the app runs; none once it is closing
            log.write(Text(text, style=style))

    # ------------------------------------------------------------------ the loop
    def modal_open(self) -> bool:
        return len(self.screen_stack) > 1

    def on_resize(self, event: events.Resize) -> None:
        """A new terminal size lays the players' panel out again (compact rows or not)."""
        self.call_after_refresh(lambda: None if self.modal_open() or self.ended else self.refresh_view())

    def tick(self) -> None:
        """Advance the game: bots act at the chosen pace; the human's prompt times out."""
        try:
            self.step()
        except NoMatches:  # the app is closing (a timer's last call): its widgets are gone
            return

    def step(self) -> None:
        if self.ended or self.busy or self.modal_open() or not self.is_running:  # not while the app closes
            return
        if isinstance(self.session, RemoteSession) and not self.session.ready:
            return
        self.was_started = True
        game = self.game
        if game.is_over:
            self.show_game_end()
            return
        seat, legal = self.session.to_act()
        offered = seat == self.me and game.current != self.me and any(isinstance(a, (Buy, Call)) for a in legal)
        if isinstance(self.session, RemoteSession) and self.session.auto_decides:
            offered = False  # the buy choice answers it: the server passes (or buys) at once
        if self.prompt_deadline is not None and (not offered or legal != self.prompt_legal):
            self.close_prompt()  # the window closed (or another discard's opened): its prompt goes
        if offered:
            self.open_prompt(legal)
        if seat == self.me:
            return
        if self.remote:  # the server plays the other seats
            return
        if self.paused or self.clock() < self.next_at:
            return
        self.busy = True
        self.run_worker(self.bot_turn(seat, legal), exclusive=True, group="bots")

    async def bot_turn(self, seat: int, legal: list[Action]) -> None:
        try:
            view = self.game.view(seat)
            bot = self.session.bots[seat]
            action = await asyncio.to_thread(bot.act, view, legal)
            if self.is_running and not self.ended:  # not while the app closes (its widgets are gone)
                self.apply(action)
        finally:
            self.busy = False
            self.next_at = self.clock() + self.delay

    prompt_server = False  # the open prompt counts down to the server's buy_deadline

    def server_deadline(self) -> float | None:
        """At a server's table: when its buy window closes (its ``buy_deadline``) on this app's clock."""
        session = self.session
        if not isinstance(session, RemoteSession) or session.buy_deadline is None:
            return None
        return self.clock() + (session.buy_deadline / 1000.0 - time.time())

    def open_prompt(self, legal: list[Action]) -> None:
        server = self.server_deadline()  # the server closes its window itself: no pass is sent for it
        if self.prompt_deadline is None:
            self.prompt_deadline = server if server is not None else self.clock() + self.buy_seconds
            self.prompt_legal = legal
            self.prompt_server = server is not None
        elif server is not None:
            self.prompt_deadline = server
            self.prompt_server = True
        elif self.clock() >= self.prompt_deadline and not self.prompt_server:
            self.answer_prompt(Pass)
            return
        self.refresh_prompt()

    def close_prompt(self) -> None:
        self.prompt_deadline = None
        self.prompt_legal = []
        self.refresh_prompt()

    def answer_prompt(self, kind: type[Action]) -> None:
        chosen = next((a for a in self.prompt_legal if isinstance(a, kind)), None)
        if chosen is None:
            self.bell()
            return
        self.prompt_deadline = None
        self.prompt_legal = []
        self.apply(chosen)

    def apply(self, action: Action) -> bool:
        """Apply an action through the session; False (and the reason shown) when refused."""
        mine = action.player == self.me
        before = Counter(self.game.hand(self.me)) if self.me is not None else Counter()
        try:
            new_events = self.session.apply(action)
        except IllegalAction as exc:
            self.say(f"Not allowed: {exc}", "bold red")
            return False
        if mine:
            self.message = None
            self.warned_discard = None
        if self.me is not None and not self.game.is_over and not self.remote:
            after = Counter(self.game.hand(self.me))
            gained = after - before
            if isinstance(action, (DrawStock, DrawDiscard)) or any(e.get("type") == "buy" for e in new_events):
                hand = self.query_one(HandView)
                hand.fresh = gained if isinstance(action, (DrawStock, DrawDiscard)) else hand.fresh + gained
            if isinstance(action, Discard) and mine:
                self.query_one(HandView).fresh = Counter()
            self.session.save()
        names = self.session.names
        deal_end: dict[str, Any] | None = None
        melds = self.game.view(self.viewer)["melds"]
        for event in new_events:
            line = describe_event(event, names, ascii_only=self.ascii_only, melds=melds)
            if line:
                style = "bold" if event.get("type") in ("down", "deal_end", "game_over", "call_penalty") else ""
                self.log_line(line, style)
            if event.get("type") == "deal_end":
                deal_end = event
        if not self.in_turn():
            self.staged = []
        self.refresh_view()
        if deal_end is not None:
            self.staged = []
            self.query_one(HandView).fresh = Counter()  # a new hand: nothing in it was just taken
            self.show_deal_end(deal_end)
        return True

    def show_deal_end(self, event: dict[str, Any]) -> None:
        game = self.game
        deal = len(game.deal_scores)
        auto = self.auto_deal_end if self.auto_deal_end is not None else (None if self.me is not None else 6.0)
        session = self.session

        def read(_: None) -> None:
            if isinstance(session, RemoteSession) and not game.is_over:
                self.held = False
                session.send({"type": "continue"})  # the server's deal-end pause: done reading
                self.refresh_view()

        self.push_screen(
            DealEndScreen(
                event,
                self.session.names,
                game.deal_scores,
                game.scores,
                deal,
                self.ascii_only,
                auto_close=auto,
                next_text="final scores" if game.is_over else "next deal",
            ),
            read,
        )

    def show_game_end(self) -> None:
        if self.ended:
            return
        self.ended = True
        game = self.game
        path = self.session.finish()
        if path is not None:
            self.log_line(f"The game's record is in {path}", "bold")

        def done(_: None) -> None:
            self.exit(0)

        self.push_screen(GameEndScreen(self.session.names, game.deal_scores, game.scores, game.winners, path), done)

    # ------------------------------------------------------------------ drawing
    def refresh_view(self) -> None:
        session = self.session
        if isinstance(session, RemoteSession) and not session.ready:
            status = Text(f"Table {session.table_id}: {session.status}", style="bold")
            self.query_one("#status", Static).update(status)
            wait = "Waiting for the game to start: " + ", ".join(session.names) if session.names else ""
            if wait and self.me == 0 and not session.ended:
                wait += "  ([enter] starts it now; free seats go to bots)"
            self.query_one("#prompt", Static).update(self.message or Text(wait, style="dim"))
            return
        game = self.game
        names = self.session.names
        view = game.view(self.viewer)
        a = self.ascii_only
        # status line
        pile = view["discard_pile"]
        top = card_text(pile[-1], a) if pile else "none"
        phase = {"draw": "to draw", "play": "to play", "liverpool_discard": "to discard", "over": ""}.get(
            view["phase"], view["phase"]
        )
        turn = "the game is over" if game.is_over else f"{names[view['current']]} {phase}"
        status = Text()
        level = f", your level {view['levels'][view['player']]}" if "levels" in view else ""  # issue 16
        status.append(f"Deal {view['deal']} of {view['deals']}{level}: {view['contract']['text']}", style="bold")
        status.append(f" │ {turn} │ stock {view['stock_size']} │ discard ")
        status.append(top, style=card_style(parse_card(pile[-1])) if pile else "")
        if self.paused:
            status.append(" │ PAUSED (p)", style="bold yellow")
        if isinstance(session, RemoteSession) and not session.connected:
            status = Text(f"⚠ {session.status}", style="bold white on red")
        self.query_one("#status", Static).update(status)
        # players
        panel = self.query_one("#players", Static)  # compact rows when the seats outgrow it (tui/seats.py)
        rows = self.query_one("#top").content_size.height  # the panel grows with its rows: its box limits it
        panel.update(players_table(list(names), view, self.me, game.is_over, rows, a))
        # melds, those the current card fits marked
        hand = self.query_one(HandView)
        fits = self.fitting_melds()
        melds = Text()
        if not view["melds"] and not view["staged"]:
            melds.append("No melds on the table yet.", style="dim")
        for m in view["melds"]:
            mark = "◆" if not a else "*"
            fit = m["id"] in fits
            melds.append(f"{mark if fit else ' '} ", style="bold green")
            melds.append(f"{names[m['owner']]}: {m['kind']} ", style="bold green" if fit else "")
            for token in m["cards"]:
                c = parse_card(token)
                melds.append(card_text(c, a), style=card_style(c))
                melds.append(" ")
            melds.append("\n")
        for staged in view["staged"]:
            melds.append(
                f"  (being laid) {names[view['current']]}: {staged['kind']} {cards_text(staged['cards'], a)}\n",
                style="dim",
            )
        self.query_one("#melds", Static).update(melds)
        # hand
        viewer_hand = parse_cards(view["hand"]) if view.get("hand") is not None else []
        shown = Counter(viewer_hand) - Counter(c for meld in self.staged for c in meld.cards)
        hand.set_cards(sort_hand(list(shown.elements()), self.by_rank))
        hand.active = self.in_turn()
        who = "Your hand" if self.me is not None else f"{names[self.viewer]}'s hand"
        order = "by rank" if self.by_rank else "by suit"
        aside = f" ({len(viewer_hand) - hand_size(shown)} staged)" if self.staged else ""
        hand.title = f"{who}: {plural(len(viewer_hand), 'card')}{aside}, {order}" + (
            "  (* just taken)" if hand.fresh and self.me is not None else ""
        )
        hand.refresh(layout=True)
        self.refresh_prompt()
        self.refresh_staging()

    by_rank = False

    def fitting_melds(self) -> set[int]:
        """Ids of the melds the card under the cursor may be laid off on now (the engine's list)."""
        if not self.in_turn() or self.game.phase != "play":
            return set()
        card = self.query_one(HandView).current
        if card is None:
            return set()
        return {a.meld for a in self.game.legal_actions(self.me) if isinstance(a, LayOff) and a.card == card}

    def refresh_prompt(self) -> None:
        prompt = self.query_one("#prompt", Static)
        a = self.ascii_only
        if self.prompt_deadline is not None and self.prompt_legal:
            left = max(0, int(self.prompt_deadline - self.clock() + 0.99))
            view = self.game.view(self.seat)
            pile = view["discard_pile"]
            top = card_text(pile[-1], a) if pile else "the discard"
            penalty = int(view["rules"].get("buy_penalty", 0))
            extra = f" (and {'a penalty card' if penalty == 1 else plural(penalty, 'penalty card')})" if penalty else ""
            text = Text()
            choices = []
            if any(isinstance(x, Buy) for x in self.prompt_legal):
                choices.append(f"[b] buy the {top}{extra}")
            if any(isinstance(x, Call) for x in self.prompt_legal):
                choices.append(f"[c] call the {top}")
            text.append("Out of turn: " + "  ".join(choices), style="bold yellow")
            if self.prompt_server:
                text.append(f"  [n] pass — the window closes in {left}s", style="yellow")
            else:
                text.append(f"  [n] pass — passing in {left}s", style="yellow")
            prompt.update(text)
            return
        if self.message is not None:
            prompt.update(self.message)
            return
        if isinstance(self.session, RemoteSession) and not self.session.connected:
            prompt.update(Text("Disconnected: no move can be sent until the server is back (q quits).", "bold red"))
            return
        if isinstance(self.session, RemoteSession) and self.session.pause is not None:
            waiting = [self.session.names[p] for p in self.session.pause.get("waiting", []) if p != self.me]
            who = ", ".join(waiting) or "everyone"
            prompt.update(Text(f"The table waits for {who} to read the deal's end…", style="dim"))
            return
        if self.session.watching:
            prompt.update(Text("Watching: p pauses, q quits, F1 help.", style="dim"))
            return
        if self.game.is_over:
            prompt.update(Text("The game is over.", style="bold"))
            return
        if not self.in_turn():
            prompt.update(Text(f"Waiting for {self.session.names[self.game.current]}…", style="dim"))
            return
        phase = self.game.phase
        seat, legal = self.session.to_act()
        pending = isinstance(self.session, RemoteSession) and self.session._pending
        if seat != self.me and not pending:  # [s] would say "Wait…": the prompt does not invite it
            prompt.update(Text("Your turn next: the others may still buy the discard…", style="dim"))
            return
        if phase == "draw":
            prompt.update(Text("Your turn: [s] draw from the stock, [d] take the discard, [a] every action", "bold"))
        elif any(isinstance(x, Unswap) for x in legal):
            prompt.update(
                Text(
                    "Your turn: play the swapped joker in a meld ([m], [f], [o]) or [u] undo the swap; [a] all",
                    "bold",
                )
            )
        else:
            prompt.update(
                Text(
                    "Your turn: space choose, [m] meld, [f] suggest, [o] lay off, [j] swap, [x] discard, [a] all",
                    "bold",
                )
            )

    def refresh_staging(self) -> None:
        staging = self.query_one("#staging", Static)
        staging.set_class(True, "empty")
        if not self.in_turn() or self.game.phase != "play":
            staging.update("")
            return
        a = self.ascii_only
        text = Text()
        if self.remote:
            chosen = self.chosen_cards()
            if chosen:
                text.append(f"Chosen: {cards_text(chosen, a)} — ")
                if self.listed_meld(self.game, chosen) is not None:
                    text.append("a meld the server lists ([m] lays it)", style="green")
                else:
                    text.append("not a meld the server lists now", style="red")
            staging.update(text)
            staging.set_class(not text.plain, "empty")
            return
        if self.staged:
            text.append("Staged: ", style="bold")
            text.append(" | ".join(f"{m.kind} {cards_text(m.cards, a)}" for m in self.staged))
            text.append("  ([enter] lay down, [esc] cancel)" if self.staged_complete() else "  ([esc] cancel)")
            text.append("\n")
        chosen = self.chosen_cards()
        if chosen:
            kind, reason = self.check_meld(chosen)
            text.append(f"Chosen: {cards_text(chosen, a)} — ")
            if reason is None:
                text.append(f"a valid {kind} ([m] stages it)", style="green")
            else:
                text.append(f"not a meld yet: {reason}", style="red")
        staging.update(text)
        staging.set_class(not text.plain, "empty")

    # ------------------------------------------------------------------ staging melds
    def chosen_cards(self) -> list[Card]:
        hand = self.query_one(HandView)
        return [hand.cards[i] for i in hand.chosen if i < len(hand.cards)]

    def staged_game(self) -> Game:
        """A copy of the game with the staged melds applied (they were checked by the engine)."""
        game = self.game
        if isinstance(game, RemoteGame):
            raise IllegalAction("melds are checked by the server at its table")
        copy = game.copy()
        for meld in self.staged:
            copy.apply(meld)
        return copy

    def staged_complete(self) -> bool:
        if not self.staged:
            return False
        try:
            copy = self.staged_game()
        except IllegalAction:
            return False
        return bool(copy.view(self.seat)["down"][self.seat])

    def check_meld(self, cards: list[Card]) -> tuple[str, str | None]:
        """The kind the chosen cards make and None, or the likelier kind and the engine's reason."""
        try:
            copy = self.staged_game()
        except IllegalAction as exc:
            return "meld", str(exc)
        meld = self.listed_meld(copy, cards)
        if meld is not None:
            return meld.kind, None
        naturals = {c.rank for c in cards if not c.is_joker}
        kinds = ("set", "run") if len(naturals) <= 1 else ("run", "set")
        first_reason = ""
        for kind in kinds:
            try:
                copy.verify(self.new_meld(kind, cards))
            except IllegalAction as exc:
                first_reason = first_reason or str(exc)
                continue
            return kind, None
        return kinds[0], first_reason

    def listed_meld(self, copy: Game | RemoteGame, cards: list[Card]) -> Meld | None:
        """The engine's listed Meld action with exactly these cards (its wild card placement)."""
        want = Counter(cards)
        for action in copy.legal_actions(self.me):
            if isinstance(action, Meld) and Counter(action.cards) == want:
                return action
        return None

    def new_meld(self, kind: str, cards: Sequence[Card]) -> Meld:
        """A meld the engine did not list (checked by ``verify``): a set's cards in card order, as
        the engine lists and shows sets; a run's as given (their order places the wild cards)."""
        return Meld(self.seat, kind, tuple(sorted(cards)) if kind == "set" else tuple(cards))

    def meld_from_choice(self, cards: list[Card]) -> Meld | str:
        try:
            copy = self.staged_game()
        except IllegalAction as exc:
            return str(exc)
        listed = self.listed_meld(copy, cards)
        if listed is not None:
            return listed
        kind, reason = self.check_meld(cards)
        if reason is not None:
            return reason
        return self.new_meld(kind, cards)

    # ------------------------------------------------------------------ actions: keys
    @property
    def started(self) -> bool:
        """A game to play: always locally; at a server's table once it sent the first view."""
        return not isinstance(self.session, RemoteSession) or self.session.ready

    def not_started(self) -> bool:
        """Before a server's table starts: say so (and what the creator may do); True then."""
        if self.started:
            return False
        self.say(self.waiting_text(), "yellow")
        return True

    def waiting_text(self) -> str:
        session = self.session
        if isinstance(session, RemoteSession) and session.ended:
            return f"{session.status}. Press q to quit."
        if self.me == 0:
            return "The game has not started: [enter] starts it now (free seats go to bots), q quits."
        return "The game has not started yet: the table's creator starts it (q quits)."

    def can_play(self) -> bool:
        if self.not_started():
            return False
        if self.me is None:
            self.say("You are watching: bots play every seat.", "yellow")
            return False
        if self.busy or not self.in_turn() or self.modal_open():
            self.say("Not your turn yet.", "yellow")
            return False
        seat, _ = self.session.to_act()
        if seat != self.me:
            self.say("Wait: the others may still buy the discard.", "yellow")
            return False
        return True

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        rules = self.game.rules.describe(self.game.players) if self.started else ()
        self.push_screen(HelpScreen(rules))

    def action_hint(self) -> None:
        """H: the best move found for the human's decision now and why (as the browser's Hint),
        within the hints allowed per deal."""
        if isinstance(self.session, RemoteSession):  # the server's hint, within the table's hint limit
            if self.not_started():
                return
            if not self.my_turn_legal() or self.session.version is None:
                self.say("A hint is for your own decision: wait until you are asked.", "yellow")
                return
            if self.session.send({"type": "hint", "version": self.session.version}):
                self.say("Asking the server for a hint…", "italic")
            else:
                self.say("Not connected to the server: reconnecting…", "bold red")
            return
        game = self.session.game
        legal = self.my_turn_legal()
        if not legal or self.me is None:
            self.say("A hint is for your own decision: wait until you are asked.", "yellow")
            return
        if self.hints_deal != game.deal:
            self.hints_deal, self.hints_used = game.deal, 0
        if self.hints == 0:
            self.say("Hints are off at this table.", "yellow")
            return
        if self.hints is not None and self.hints_used >= self.hints:
            self.say(f"No hints left this deal ({self.hints} per deal).", "yellow")
            return
        if self.hint_for is not None:
            return  # one is being computed
        self.hint_for = len(game.actions)
        self.hints_used += 1
        view, me, names, samples = game.view(self.me), self.me, list(self.session.names), self.hint_samples
        self.say("Thinking about a hint…", "italic")

        def work() -> None:
            from ..analysis import Budget, hint

            found = hint(view, legal, Budget(samples=samples, seed=len(game.actions)), names=names)
            self.call_from_thread(self.show_hint, me, found.action, found.reason)

        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def show_hint(self, seat: int, action: Action, reason: str) -> None:
        asked, self.hint_for = self.hint_for, None
        session = self.session
        if not isinstance(session, LocalSession) or asked != len(session.game.actions) or seat != self.me:
            return  # the game moved on meanwhile: the hint is stale
        left = "" if self.hints is None else f" ({self.hints - self.hints_used} left this deal)"
        words = describe_action(action, session.game.view(seat), session.names, ascii_only=self.ascii_only)
        self.say(f"Hint: {words}. {reason}{left}", "bold cyan")
        self.log_line(f"Hint: {reason}", "cyan")

    def action_buy_prefs(self) -> None:
        """B: the buy choice at a server's table, sent to the server as ``prefs``."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return

        def chosen(buy: BuyPrefs | None) -> None:
            if buy is None:
                return
            session.set_buy(buy)
            self.say(f"Buying: {buy.words()}.", "green")
            self.log_line(f"Buying: {buy.words()}.", "green")

        self.push_screen(BuyPrefsScreen(session.buy, self.ascii_only), chosen)

    def action_quit_game(self) -> None:
        if self.started and self.game.is_over:
            self.exit(0)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                saved = self.session.save()
                self.quit_reason = f"Game saved in {saved}; `liverpool play --resume` continues it." if saved else ""
                self.quit_reason = self.quit_reason or (note or "")
                self.exit(0)

        note = self.leave_note()
        self.push_screen(QuitScreen(saved=not self.session.watching, note=note), answered)

    def action_save_and_quit(self) -> None:
        saved = self.session.save() if self.started and not self.game.is_over else None
        self.quit_reason = f"Game saved in {saved}; `liverpool play --resume` continues it." if saved else ""
        self.quit_reason = self.quit_reason or self.leave_note() or ""
        self.exit(0)

    def leave_note(self) -> str | None:
        """At a server's table: the command that takes the seat back (None locally)."""
        if not isinstance(self.session, RemoteSession):
            return None
        return (
            "The server keeps your seat (a bot plays it after the grace period). To come back: "
            + self.session.rejoin_command()
        )

    def action_pause(self) -> None:
        self.paused = not self.paused
        self.log_line("Paused: press p to go on." if self.paused else "Going on.", "yellow")
        self.refresh_view()

    def action_sort(self) -> None:
        self.by_rank = not self.by_rank
        self.query_one(HandView).chosen = []
        self.refresh_view()

    def action_cursor(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)
            self.warned_discard = None
            self.refresh_view()

    def action_choose(self) -> None:
        if self.session.watching:
            self.action_pause()
            return
        self.query_one(HandView).toggle()

    def on_hand_changed(self, _: HandChanged) -> None:
        self.refresh_view()

    def play_kind(self, kind: type[Action], missing: str) -> None:
        if not self.can_play():
            return
        action = next((a for a in self.game.legal_actions(self.me) if isinstance(a, kind)), None)
        if action is None:
            self.say(missing, "yellow")
            return
        self.apply(action)

    def action_draw_stock(self) -> None:
        self.play_kind(DrawStock, "You cannot draw from the stock now.")

    def action_draw_discard(self) -> None:
        self.play_kind(DrawDiscard, "You cannot take the discard now.")

    def action_buy(self) -> None:
        if self.prompt_deadline is None:
            self.say("There is nothing to buy now.", "yellow")
            return
        self.answer_prompt(Buy)

    def action_call(self) -> None:
        if self.prompt_deadline is None:
            self.say("There is nothing to call now.", "yellow")
            return
        self.answer_prompt(Call)

    def action_pass_now(self) -> None:
        if self.prompt_deadline is not None:
            self.answer_prompt(Pass)

    def action_stage(self) -> None:
        if not self.can_play():
            return
        cards = self.chosen_cards()
        if not cards:
            self.say("Choose the cards of a meld with space (or a click) first.", "yellow")
            return
        if self.remote:  # one meld at a time, from the server's list
            listed = self.listed_meld(self.game, cards)
            if listed is None:
                self.say("The server lists no meld with these cards now ([a] shows its list).", "yellow")
                return
            self.query_one(HandView).chosen = []
            self.apply(listed)
            return
        meld = self.meld_from_choice(cards)
        if isinstance(meld, str):
            self.say(f"Not a meld of your contract: {meld}", "bold red")
            return
        self.staged.append(meld)
        self.query_one(HandView).chosen = []
        self.message = None
        if self.staged_complete():
            self.say("The staged melds make your contract: [enter] lays them down.", "bold green")
        else:
            self.refresh_view()

    def action_fill(self) -> None:
        if not self.can_play():
            return
        if self.remote:
            self.say("At a server's table: choose a meld's cards and press m, or pick from [a].", "yellow")
            return
        view = self.game.view(self.seat)
        if view["down"][self.me]:
            self.say("You are down already.", "yellow")
            return
        melds = suggest_lay_down(public_game(view), view["player"])  # the engine's, each meld checked by it
        if melds is None:
            self.say(f"The solver finds no {view['contract']['text']} in your hand.", "yellow")
            return
        self.staged = list(melds)
        self.query_one(HandView).chosen = []
        self.say("Suggested lay-down staged: [enter] lays it down, [esc] cancels.", "bold green")

    def action_lay_down(self) -> None:
        if isinstance(self.session, RemoteSession) and not self.session.ready and self.me == 0:
            self.start_table()
            return
        if not self.can_play():
            return
        if self.remote:
            self.say("At a server's table each meld is laid as you stage it ([m]).", "yellow")
            return
        if not self.staged:
            self.say("Stage melds first: choose cards and press m (or f for a suggestion).", "yellow")
            return
        if not self.staged_complete():
            need = self.game.view(self.seat)["contract"]["text"]
            self.say(f"The staged melds do not make the contract yet ({need}).", "yellow")
            return
        melds, self.staged = self.staged, []
        for meld in melds:
            if not self.apply(meld):
                return
        self.say("You are down!", "bold green")

    def start_table(self) -> None:
        """The creator starts the server's table (an HTTP call in a thread); the first ``state`` follows."""
        session = self.session
        if not isinstance(session, RemoteSession) or session.ended:
            return

        async def start() -> None:
            try:
                await asyncio.to_thread(session.start)
            except ValueError as exc:
                self.say(f"Not started: {exc}", "bold red")
            else:
                self.log_line("You started the game.", "bold green")

        self.say("Starting the game…", "yellow")
        self.run_worker(start(), group="start", exclusive=True)

    def action_cancel(self) -> None:
        hand = self.query_one(HandView)
        if self.staged or hand.chosen:
            self.staged = []
            hand.chosen = []
            self.say("Cancelled.", "")
        self.warned_discard = None

    def cursor_card(self) -> Card | None:
        chosen = self.chosen_cards()
        if len(chosen) == 1:
            return chosen[0]
        return self.query_one(HandView).current

    def choose_action(self, title: str, actions: Sequence[Action]) -> None:
        view = self.game.view(self.me) if self.me is not None else {"melds": []}
        texts = [describe_action(x, view, self.session.names, ascii_only=self.ascii_only) for x in actions]

        def chosen(index: int | None) -> None:
            if index is None:
                return
            action = actions[index]
            if isinstance(action, (Buy, Call, Pass)):
                self.prompt_deadline = None
                self.prompt_legal = []
            self.apply(action)

        self.push_screen(ChooseScreen(title, texts), chosen)

    def action_lay_off(self) -> None:
        if not self.can_play():
            return
        card = self.cursor_card()
        options = [x for x in self.game.legal_actions(self.me) if isinstance(x, LayOff) and x.card == card]
        if card is None or not options:
            self.say("That card fits no meld you may lay off on now.", "yellow")
            return
        if len(options) == 1:
            self.apply(options[0])
        else:
            self.choose_action(f"Lay off the {card_text(card, self.ascii_only)} where?", options)

    def action_swap(self) -> None:
        if not self.can_play():
            return
        listed = [x for x in self.game.legal_actions(self.me) if isinstance(x, SwapJoker)]
        options = [x for x in listed if self.swap_lets_go_down(x)]
        if not options:
            if listed:
                self.say(
                    "A joker swap now would not let you go down, and a swapped joker must be played this turn "
                    "(R20): no swap offered.",
                    "yellow",
                )
            else:
                self.say("No joker swap is possible now.", "yellow")
            return
        self.choose_action("Swap a joker", options)

    def swap_lets_go_down(self, swap: SwapJoker) -> bool:
        """A swap worth offering: the engine's answer (``game.answers.swap_lets_go_down``, R20),
        from this seat's view; else the joker could only be handed back ([u])."""
        view = self.game.view(self.seat)
        return swap_lets_go_down(public_game(view), view["player"], swap)

    def action_unswap(self) -> None:
        if not self.can_play():
            return
        undo = next((x for x in self.game.legal_actions(self.me) if isinstance(x, Unswap)), None)
        if undo is None:
            self.say("There is no joker swap to undo now.", "yellow")
            return
        self.staged = []
        self.apply(undo)

    def action_all_actions(self) -> None:
        if self.prompt_deadline is not None:
            self.choose_action("Out of turn", self.prompt_legal)
            return
        if not self.can_play():
            return
        self.choose_action("Every action you may take now", self.game.legal_actions(self.me))

    def action_discard(self) -> None:
        if not self.can_play():
            return
        card = self.cursor_card()
        legal = self.game.legal_actions(self.me)
        action = next((x for x in legal if isinstance(x, Discard) and x.card == card), None)
        if card is None or action is None:
            if not any(isinstance(x, Discard) for x in legal) and any(isinstance(x, Unswap) for x in legal):
                self.say(
                    "You swapped a joker this turn: play it in your melds first (R20), or [u] undoes the swap.",
                    "yellow",
                )
            elif not any(isinstance(x, Discard) for x in legal):
                self.say("You cannot discard now (draw first, or finish what you began).", "yellow")
            else:
                self.say("That card may not be discarded now.", "yellow")
            return
        view = self.game.view(self.seat)
        # a playable discard (R32-R35), called (R33, R34) or refused (R36): the engine's answer
        goes = discard_called(public_game(view), view["player"], card)
        if goes is not None and self.warned_discard != card:
            self.warned_discard = card
            then = (
                "another player may call it and you take it back with a penalty card (R32, R33)"
                if goes == "offender"
                else "a player who is down may call it and take it (R32, R34)"
            )
            self.say(
                f"Careful: the {card_text(card, self.ascii_only)} fits a meld on the table, so {then}. "
                "Press x again to discard it anyway.",
                "bold yellow",
            )
            return
        self.apply(action)

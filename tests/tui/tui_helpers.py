"""Helpers for the app's tests: wait for the game to reach a state, and a keystroke player."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

from textual.pilot import Pilot

from liverpool.actions import Buy, Call, Discard, DrawStock
from liverpool.cards import Card
from liverpool.tui.app import HandView, LiverpoolApp

STEPS = 4000


async def until(pilot: Pilot[int], cond: Callable[[], bool], steps: int = STEPS) -> None:
    """Let the app run until ``cond()`` holds (a bounded number of event-loop turns, not a time)."""
    for _ in range(steps):
        if cond():
            return
        await pilot.pause(0.002)
    raise AssertionError("the app never reached the state waited for")


def human_to_act(app: LiverpoolApp) -> bool:
    """The human is asked now (in turn or out of turn) and the app is idle."""
    if app.busy or app.game.is_over or app.modal_open():
        return False
    seat, _ = app.session.to_act()
    return seat == app.me


async def play_turn_by_keys(pilot: Pilot[int], app: LiverpoolApp) -> None:
    """One decision of the human seat, by keystrokes: pass out of turn; draw from the stock; lay the
    solver's suggestion down when it can; discard the first card the engine lets go."""
    seat, legal = app.session.to_act()
    assert seat == app.me
    if any(isinstance(a, (Buy, Call)) for a in legal) and app.game.current != app.me:
        await until(pilot, lambda: app.prompt_deadline is not None)
        await pilot.press("n")
        return
    if any(isinstance(a, DrawStock) for a in legal):
        await pilot.press("s")
        return
    me = app.me
    assert me is not None
    view = app.game.view(me)
    if not view["down"][me]:
        await pilot.press("f")
        if app.staged:
            await pilot.press("enter")
    if app.game.current != me or app.game.phase != "play" or app.modal_open():
        return
    hand = app.query_one(HandView)
    for _ in range(len(hand.cards) + 1):
        legal = app.game.legal_actions(me)
        card = hand.current
        if any(isinstance(a, Discard) and a.card == card for a in legal):
            version = app.game.version
            await pilot.press("x")
            if app.game.version == version:
                await pilot.press("x")  # confirm the warning about a callable discard
            return
        await pilot.press("right")
    raise AssertionError(f"no discard found by keys: {[str(a) for a in app.game.legal_actions(me)]}")


def screen_text(app: LiverpoolApp) -> str:
    """The text on screen now (from the app's own screenshot), spaces normalised."""
    svg = app.export_screenshot()
    parts = re.findall(r"<text[^>]*>(.*?)</text>", svg, flags=re.S)
    text = html.unescape("".join(parts)).replace("\xa0", " ")
    return re.sub(r" +", " ", text)


async def choose_by_keys(pilot: Pilot[int], app: LiverpoolApp, cards: Sequence[Card]) -> None:
    """Move the cursor to each card in turn (arrow keys) and choose it (space)."""
    hand = app.query_one(HandView)
    taken: set[int] = set(hand.chosen)
    for card in cards:
        index = next(i for i, c in enumerate(hand.cards) if c == card and i not in taken)
        taken.add(index)
        while hand.cursor != index:
            await pilot.press("right")
        await pilot.press("space")


async def to_my_play_phase(pilot: Pilot[int], app: LiverpoolApp) -> None:
    """Pass and draw by keys until it is the human's turn to play (after drawing)."""
    while True:
        await until(pilot, lambda: human_to_act(app))
        if app.game.current == app.me and app.game.phase == "play":
            return
        await play_turn_by_keys(pilot, app)

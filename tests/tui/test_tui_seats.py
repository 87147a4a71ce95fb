"""Tables of 9-16 seats in the terminal (issue 22): ``liverpool play --players 16`` and a 16-seat
table over ``--connect`` show every seat in the players' panel at 80×24 (compact rows side by side)
and larger (a row a seat when they fit), nothing cut off; past 8 seats the score table has a row a
seat. Driven by Textual's pilot; the server is the real one on a free 127.0.0.1 port."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from test_connect import Server, _free_port, rest, wait_for
from textual.pilot import Pilot
from tui_helpers import human_to_act, screen_text, until

from liverpool.rules import RuleSet
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.screens import score_table
from liverpool.tui.seats import compact_names
from liverpool.tui.session import LocalSession

SIXTEEN = RuleSet().with_options(max_players="16", packs="4")


def _panel_fits(app: LiverpoolApp) -> tuple[int, int]:
    """The players' panel's rows and the rows its box gives it."""
    panel = app.query_one("#players")
    return panel.virtual_size.height, app.query_one("#top").content_size.height


async def _every_seat_shown(pilot: Pilot[int], app: LiverpoolApp, names: list[str], compact: bool) -> None:
    await pilot.pause(0.1)  # the resize's layout
    app.refresh_view()
    await pilot.pause(0.05)
    rows, room = _panel_fits(app)
    assert 0 < rows <= room, (rows, room)
    text = screen_text(app)
    shown = compact_names(names) if compact else names
    assert len(set(shown)) == len(names)
    missing = [n for n in shown if n not in text]
    assert missing == [], (missing, text)
    assert ("cards (↓: down), points" in text) == compact


@pytest.mark.parametrize(("size", "compact"), [((80, 24), True), ((120, 40), False)])
def test_play_with_sixteen_players_shows_every_seat(tmp_path: Path, size: tuple[int, int], compact: bool) -> None:
    session = LocalSession.new(players=16, rules=SIXTEEN, bots="medium", seed=3, name="Ana", data_dir=tmp_path)
    assert len(set(session.names)) == 16
    app = LiverpoolApp(session, delay=0, buy_seconds=8, clock=lambda: 0.0)

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: human_to_act(app), steps=60_000)
            await _every_seat_shown(pilot, app, list(session.names), compact)
            if size == (80, 24):  # larger: the rows come back as there is room
                await pilot.resize_terminal(120, 60)
                await _every_seat_shown(pilot, app, list(session.names), False)

    asyncio.run(run())


def test_a_sixteen_seat_table_over_connect_shows_every_seat_at_80x24(tmp_path: Path) -> None:
    from liverpool.tui.remote import RemoteSession

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    running = Server(tmp_path, port)
    try:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 15
        made = rest(
            f"{base}/api/tables",
            {"players": 16, "seats": seats, "name": "Ana", "bot_delay": 0, "options": {"max_players": 16, "packs": 4}},
        )
        rest(f"{base}/api/tables/{made['table_id']}/start", {}, token=made["token"])
        session = RemoteSession.connect(made["invite_url"], token=made["token"])
        app = LiverpoolApp(session, buy_seconds=1000)

        async def run() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: session.connected and session.ready, "the hello")
                assert len(session.names) == 16
                await _every_seat_shown(pilot, app, list(session.names), True)

        asyncio.run(run())
    finally:
        running.stop()


def test_the_score_table_of_sixteen_has_a_row_a_seat() -> None:
    names = [f"P{p}" for p in range(16)]
    table = score_table(names, [[5] * 16, [10] * 16], [15] * 16)
    assert [c.header for c in table.columns] == ["player", "deal 1", "deal 2", "total"]
    assert table.row_count == 16
    four = score_table(names[:4], [[5] * 4], [5] * 4)
    assert four.row_count == 2 and len(four.columns) == 5  # a column a seat, as before

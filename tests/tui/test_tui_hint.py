"""The terminal app's hint key (H), as the browser's Hint: the best move found and why, for the
human's own decision only, within the hints allowed per deal."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from tui_helpers import human_to_act, until

from liverpool.tui.app import LiverpoolApp
from liverpool.tui.session import LocalSession


def test_the_hint_key_gives_a_hint_within_the_limit_per_deal(tmp_path: Path) -> None:
    asyncio.run(_hints(tmp_path))


async def _hints(tmp_path: Path) -> None:
    session = LocalSession.new(players=3, bots="medium", seed=5, name="Ana", data_dir=tmp_path)
    app = LiverpoolApp(session, delay=0, buy_seconds=1000, hints=2, hint_samples=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: human_to_act(app))
        deal = session.game.deal
        for left in (1, 0):
            actions = len(session.game.actions)
            await pilot.press("H")
            await until(
                pilot, lambda: app.hint_for is None and app.message is not None and "Hint:" in app.message.plain
            )
            text = app.message.plain if app.message is not None else ""
            assert f"({left} left this deal)" in text, text
            assert len(session.game.actions) == actions  # a hint plays nothing
        assert session.game.deal == deal
        await pilot.press("H")  # the third in this deal: refused, nothing computed
        assert app.message is not None and "No hints left this deal (2 per deal)" in app.message.plain
        assert app.hint_for is None

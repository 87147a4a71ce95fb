"""The terminal app (issue 14), driven by Textual's pilot: keystrokes against bots."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from liverpool.actions import Buy, Pass
from liverpool.game import Game
from liverpool.tui.app import HandView, LiverpoolApp
from liverpool.tui.screens import DealEndScreen, GameEndScreen, QuitScreen
from liverpool.tui.session import LocalSession
from tui_helpers import human_to_act, play_turn_by_keys, screen_text, until


def make_app(tmp_path: Path, seed: int = 3, players: int = 4, **kwargs: object) -> LiverpoolApp:
    session = LocalSession.new(players=players, bots="medium", seed=seed, name="Ana", data_dir=tmp_path)
    return LiverpoolApp(session, delay=0, buy_seconds=1000, **kwargs)  # type: ignore[arg-type]


def test_a_whole_deal_by_keystrokes_reaches_the_deal_end_screen(tmp_path: Path) -> None:
    asyncio.run(_whole_deal(tmp_path))


async def _whole_deal(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await until(pilot, lambda: human_to_act(app) or isinstance(app.screen, DealEndScreen))
            if isinstance(app.screen, DealEndScreen):
                break
            await play_turn_by_keys(pilot, app)
        assert isinstance(app.screen, DealEndScreen)
        # every hand revealed and the score table
        game = app.game
        assert len(game.deal_scores) == 1
        text = screen_text(app)
        for name in app.session.names:
            assert name in text
        assert "total" in text
        # the human's own moves are in the log, in words
        log = "\n".join(line.text for line in app.query_one("RichLog").lines)
        assert "Ana drew from the stock" in log
        assert "Ana discarded the " in log
        await pilot.press("enter")
        await until(pilot, lambda: not app.modal_open())
        assert game.view(0)["deal"] == 2

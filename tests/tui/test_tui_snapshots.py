"""Snapshots of the app's main screens at 80×24 and 160×48 (pytest-textual-snapshot).

The SVGs are in tests/tui/__snapshots__/; after a deliberate change of the screens, review the new
pictures and update them with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update``. The clock is
fixed, so the buy prompt's countdown does not move.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")
pytest.importorskip("pytest_textual_snapshot")

from textual.pilot import Pilot
from tui_helpers import choose_by_keys, human_to_act, play_turn_by_keys, to_my_play_phase, until

from liverpool.rules import RuleSet
from liverpool.tui.app import LiverpoolApp
from liverpool.tui.screens import DealEndScreen, GameEndScreen
from liverpool.tui.session import LocalSession

SIZES = [(80, 24), (160, 48)]
SnapCompare = Callable[..., bool]


def make_app(tmp_path: Path, seed: int, rules: RuleSet | None = None, players: int = 4) -> LiverpoolApp:
    session = LocalSession.new(players=players, rules=rules, bots="medium", seed=seed, name="Ana", data_dir=tmp_path)
    return LiverpoolApp(session, delay=0, buy_seconds=8, clock=lambda: 0.0)


def snap(
    snap_compare: SnapCompare, app: LiverpoolApp, size: tuple[int, int], before: Callable[[Pilot[Any]], Awaitable[None]]
) -> bool:
    return snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_buy_prompt(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, seed=6)

    async def before(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.prompt_deadline is not None)

    assert snap(snap_compare, app, size, before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_playing_with_melds_on_the_table(
    snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path, seed=3)

    async def before(pilot: Pilot[Any]) -> None:
        while True:
            await to_my_play_phase(pilot, app)
            if len(app.game.view(0)["melds"]) >= 4:
                break
            await play_turn_by_keys(pilot, app)
        await pilot.press("right", "right")

    assert snap(snap_compare, app, size, before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_staging_a_lay_down(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, seed=27)

    async def before(pilot: Pilot[Any]) -> None:
        await to_my_play_phase(pilot, app)
        hand = sorted(app.game.hand(0))
        await pilot.press("f")
        staged = app.staged[0]
        await pilot.press("escape")
        await choose_by_keys(pilot, app, staged.cards)
        await pilot.press("m")
        await choose_by_keys(pilot, app, [c for c in hand if c not in staged.cards][:2])

    assert snap(snap_compare, app, size, before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_help(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, seed=6)

    async def before(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.prompt_deadline is not None)
        await pilot.press("f1")

    assert snap(snap_compare, app, size, before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_deal_end(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    rules = RuleSet.preset("liverpool").with_options(schedule="2S/10")  # a one-deal game
    app = make_app(tmp_path, seed=5, rules=rules, players=3)

    async def before(pilot: Pilot[Any]) -> None:
        while not app.modal_open():
            await until(pilot, lambda: human_to_act(app) or app.modal_open())
            if not app.modal_open():
                await play_turn_by_keys(pilot, app)
        assert isinstance(app.screen, DealEndScreen)

    assert snap(snap_compare, app, size, before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_game_end(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    rules = RuleSet.preset("liverpool").with_options(schedule="2S/10")
    app = make_app(tmp_path, seed=5, rules=rules, players=3)
    fixed = Path("/home/ana/.local/share/liverpool/games/game-20261201-120000-5.json")  # the real one has a time

    def finish() -> Path:
        app.session.record_path = fixed
        return fixed

    app.session.finish = finish  # type: ignore[method-assign]

    async def before(pilot: Pilot[Any]) -> None:
        while not app.modal_open():
            await until(pilot, lambda: human_to_act(app) or app.modal_open())
            if not app.modal_open():
                await play_turn_by_keys(pilot, app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen))

    assert snap(snap_compare, app, size, before)


class _DealEndApp(LiverpoolApp):
    """The deal-end screen of the last deal of seven at a table of five, with made-up hands."""

    def on_mount(self) -> None:
        names = ["Ana", "Bo (medium)", "Cy (medium)", "Di (hard)", "Ed (easy)"]
        scores = [[0, 35, 60, 15, 85], [40, 0, 25, 10, 55], [5, 60, 0, 45, 20]] * 2 + [[30, 15, 70, 0, 45]]
        totals = [sum(row[p] for row in scores) for p in range(5)]
        event = {
            "type": "deal_end",
            "out": 3,
            "points": scores[-1],
            "hands": {"0": "KS 10H 5D", "1": "2C 3C", "2": "JK AS AD QC 9H", "4": "8S 8H 7C 2D"},
        }
        self.push_screen(DealEndScreen(event, names, scores, totals, deal=7, next_text="final scores"))


def test_snapshot_deal_end_after_seven_deals_shows_the_totals_at_80x24(
    snap_compare: SnapCompare, tmp_path: Path
) -> None:
    app = _DealEndApp(LocalSession.new(players=5, seed=1, name="Ana", data_dir=tmp_path), clock=lambda: 0.0)

    async def before(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: isinstance(app.screen, DealEndScreen))
        await pilot.pause()
        assert isinstance(app.screen, DealEndScreen)

    assert snap(snap_compare, app, (80, 24), before)

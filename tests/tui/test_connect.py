"""``liverpool play --connect URL``: the terminal app at a table of the real server (uvicorn in a thread
on a free 127.0.0.1 port, bot delay 0), driven by Textual's pilot over the WebSocket protocol."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import uvicorn
from fastapi import FastAPI
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from liverpool.actions import Buy, Call, Discard, DrawStock
from liverpool.cli import main
from liverpool.game import Game
from liverpool.server import create_app
from liverpool.tui.app import HandView, LiverpoolApp
from liverpool.tui.remote import RemoteSession, parse_connect_url
from server_helpers import server_settings

WAIT = 60.0  # an upper bound on waiting for the server, never a measured time


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """The real server on 127.0.0.1:port, its SQLite store in ``tmp_path`` (the same file on a restart)."""

    def __init__(self, tmp_path: Path, port: int, **options: Any) -> None:
        self.app = create_app(server_settings(tmp_path, game_seed=5, **options))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert self.thread.is_alive(), "the server stopped while starting"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        assert not self.thread.is_alive(), "the server did not stop"


@contextmanager
def serve(tmp_path: Path, port: int, **options: Any) -> Iterator[FastAPI]:
    server = Server(tmp_path, port, **options)
    try:
        yield server.app
    finally:
        server.stop()


def rest(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"} | ({"X-Seat-Token": token} if token else {})
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    with urllib.request.urlopen(req, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def new_table(base: str, seats: list[dict[str, str]], start: bool) -> dict[str, Any]:
    made = rest(f"{base}/api/tables", {"players": len(seats), "seats": seats, "name": "Ana", "bot_delay": 0})
    if start:
        rest(f"{base}/api/tables/{made['table_id']}/start", {}, token=made["token"])
    return made


def server_game(app: FastAPI, table_id: str) -> Game:
    game = app.state.lobby().tables[table_id].game
    assert isinstance(game, Game)
    return game


async def wait_for(pilot: Pilot[int], cond: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not cond():
        assert time.monotonic() < deadline, f"never reached: {what}"
        await pilot.pause(0.01)


def in_turn_to_draw(app: LiverpoolApp) -> bool:
    if app.modal_open() or not app.session.ready:  # type: ignore[union-attr]
        return False
    seat, legal = app.session.to_act()
    return seat == app.me and app.game.current == app.me and any(isinstance(a, DrawStock) for a in legal)


async def answer_until_my_draw(pilot: Pilot[int], app: LiverpoolApp) -> None:
    """Pass every out-of-turn buy by keystroke until it is this seat's turn to draw."""
    deadline = time.monotonic() + WAIT
    while not in_turn_to_draw(app):
        assert time.monotonic() < deadline, "the seat's turn never came"
        if app.prompt_deadline is not None and any(isinstance(a, (Buy, Call)) for a in app.prompt_legal):
            await pilot.press("n")
        await pilot.pause(0.01)


def log_text(app: LiverpoolApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


def status_text(app: LiverpoolApp) -> str:
    return str(app.query_one("#status", Static).render())


def test_parse_connect_url() -> None:
    assert parse_connect_url("http://127.0.0.1:8000/?join=Ab3") == ("http://127.0.0.1:8000", "Ab3")
    assert parse_connect_url("http://h:1/ws/tables/Ab3?token=x") == ("http://h:1", "Ab3")
    for bad in ("ftp://h/?join=x", "http://h:1/", "not a url", "http:///?join=x"):
        with pytest.raises(ValueError):
            parse_connect_url(bad)


def test_a_draw_and_a_discard_over_the_socket_then_a_restart_restores_the_seat(tmp_path: Path) -> None:
    asyncio.run(_play_and_reconnect(tmp_path))


async def _play_and_reconnect(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    running = Server(tmp_path, port)
    try:
        made = new_table(
            base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}], True
        )
        table_id = made["table_id"]
        session = RemoteSession.connect(f"{base}/?join={table_id}", token=made["token"])
        session.backoff = (0.05, 0.1, 0.2)
        app = LiverpoolApp(session, buy_seconds=1000)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected and session.ready, "the hello")
            assert app.me == 0 and session.names[0] == "Ana"
            await answer_until_my_draw(pilot, app)
            # the client catches up with the server (a pass the server made for a seat may still be in flight)
            await wait_for(
                pilot, lambda: session.version == server_game(running.app, table_id).version, "the client caught up"
            )
            before = server_game(running.app, table_id).version
            assert session.version == before
            hand_before = app.game.hand(0)
            await pilot.press("s")  # draw from the stock: an act with the listed id
            await wait_for(pilot, lambda: len(app.game.hand(0)) == len(hand_before) + 1, "the drawn card")
            game = server_game(running.app, table_id)
            # the bots' out-of-turn passes may land after ``before`` too: the seat's own actions since
            # then are exactly the one draw
            mine = [a for a in game.actions[before:] if a.player == 0]
            assert len(mine) == 1 and isinstance(mine[0], DrawStock)
            assert sorted(app.game.hand(0)) == sorted(game.hand(0))  # the server's hand, card for card
            assert sum(app.query_one(HandView).fresh.values()) == 1  # the card just taken is marked
            # discard: move the cursor to a card the server's list lets go, press x
            hand = app.query_one(HandView)
            for _ in range(len(hand.cards)):
                legal = app.game.legal_actions(0)
                if any(isinstance(a, Discard) and a.card == hand.current for a in legal):
                    break
                await pilot.press("right")
            card = hand.current
            drawn_at = server_game(running.app, table_id).version
            await pilot.press("x")
            if app.message is not None and "Careful" in app.message.plain:
                await pilot.press("x")  # a discard the next player may call (R32) asks twice
            await wait_for(pilot, lambda: server_game(running.app, table_id).version > drawn_at, "the discard")
            played = server_game(running.app, table_id).actions[drawn_at]
            assert isinstance(played, Discard) and played.player == 0 and played.card == card
            # the bots' moves come back in the states' events and are logged
            await answer_until_my_draw(pilot, app)
            log = log_text(app)
            assert "Ana discarded the" in log
            assert session.names == ["Ana", "Bea (easy bot)", "Cal (easy bot)"]  # the server's names: distinct
            assert re.search(r"^(Bea|Cal) \(easy bot\) (discarded|drew|laid)", log, flags=re.M)  # a bot's move
            hand_then = sorted(app.game.hand(0))
            version_then = session.version
            assert version_then == server_game(running.app, table_id).version

            # an act for an old version: the server's reason is shown, nothing changes
            assert session._outbox is not None
            session._outbox.put_nowait(json.dumps({"type": "act", "version": 0, "action": "a0"}))
            await wait_for(pilot, lambda: app.message is not None and "server says" in app.message.plain, "the error")
            assert app.message is not None and "version" in app.message.plain
            assert session.version == version_then

            # the server goes away: a banner while disconnected, no move can be sent
            running.stop()
            await wait_for(pilot, lambda: not session.connected, "the drop")
            await wait_for(pilot, lambda: "disconnected" in status_text(app), "the banner")
            assert "Connection lost" in log_text(app)
            assert "Disconnected" in str(app.query_one("#prompt", Static).render())
            await pilot.press("s")
            assert app.message is not None and "not connected" in app.message.plain
            # back on the same SQLite file: the hello restores the same hand and version
            running = Server(tmp_path, port)
            await wait_for(pilot, lambda: session.connected, "the reconnect")
            await wait_for(pilot, lambda: session.version is not None and session.ready, "the restored state")
            assert session.version == version_then
            assert sorted(app.game.hand(0)) == hand_then
            assert "disconnected" not in status_text(app)
            assert log_text(app).count("Connected to table") == 2
            # and play goes on: the draw reaches the rebuilt table
            await answer_until_my_draw(pilot, app)
            at = server_game(running.app, table_id).version
            await pilot.press("s")
            await wait_for(pilot, lambda: server_game(running.app, table_id).version > at, "a draw after the restart")
            assert server_game(running.app, table_id).actions[at].player == 0
            session.close()
    finally:
        running.stop()


def test_joining_by_the_invite_link_waits_for_the_start(tmp_path: Path) -> None:
    asyncio.run(_join_and_wait(tmp_path))


async def _join_and_wait(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port):
        made = new_table(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}], False)
        session = RemoteSession.connect(made["invite_url"], name="Bo")
        assert session.human == 1 and session.names[1] == "Bo"
        app = LiverpoolApp(session, buy_seconds=1000)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected, "the hello")
            assert not session.ready
            assert "Waiting for the game to start" in str(app.query_one("#prompt", Static).render())
            rest(f"{base}/api/tables/{made['table_id']}/start", {}, token=made["token"])
            await wait_for(pilot, lambda: session.ready, "the first state")
            assert app.me == 1
            assert len(app.query_one(HandView).cards) == len(app.game.hand(1)) > 0
            session.close()


def test_bad_urls_and_a_full_table_stop_before_the_app_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    # nothing listens on the port yet
    assert main(["play", "--connect", f"{base}/?join=abc"]) == 2
    assert "cannot reach the server" in capsys.readouterr().err
    assert main(["play", "--connect", "ftp://example.org/?join=abc"]) == 2
    assert "http(s) URL" in capsys.readouterr().err
    for options in (["--players", "3"], ["--bots", "hard"], ["--seed", "4"], ["--resume"], ["--watch"]):
        assert main(["play", "--connect", f"{base}/?join=abc", *options]) == 2
        assert f"{options[0]} cannot go with --connect" in capsys.readouterr().err
    assert main(["play", "--token", "x"]) == 2
    assert "--token goes with --connect" in capsys.readouterr().err
    with serve(tmp_path, port):
        assert main(["play", "--connect", f"{base}/?join=nosuchtable"]) == 2
        assert "404" in capsys.readouterr().err
        assert main(["play", "--connect", f"{base}/"]) == 2
        assert "no table in" in capsys.readouterr().err
        full = new_table(base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], False)
        assert main(["play", "--connect", full["invite_url"]]) == 2
        assert "table is full" in capsys.readouterr().err


def test_a_wrong_token_is_refused_by_the_socket_and_not_retried(tmp_path: Path) -> None:
    asyncio.run(_wrong_token(tmp_path))


async def _wrong_token(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port):
        made = new_table(base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], True)
        session = RemoteSession.connect(f"{base}/api/tables/{made['table_id']}", token="not-the-token")
        session.backoff = (0.01,)
        app = LiverpoolApp(session, buy_seconds=1000)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.ended, "the refusal")
            assert not session.connected and not session.ready
            assert "wrong token" in log_text(app)
            assert app.message is not None and "wrong token" in app.message.plain
            assert "Connection lost" not in log_text(app)  # a refusal is not retried


def test_the_creator_starts_the_table_from_the_terminal_and_keys_before_the_start_are_answered(
    tmp_path: Path,
) -> None:
    asyncio.run(_creator_starts(tmp_path))


async def _creator_starts(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port) as server:
        made = new_table(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}], False)
        session = RemoteSession.connect(made["invite_url"], token=made["token"])
        app = LiverpoolApp(session, buy_seconds=1000)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected and app.me == 0, "the hello")
            assert "[enter] starts it now" in str(app.query_one("#prompt", Static).render())
            for key in ("a", "s", "x", "m", "o", "j", "f", "question_mark"):  # none of them may crash the app
                await pilot.press(key)
                if app.modal_open():
                    await pilot.press("escape")
            assert app.is_running and app.return_code is None
            assert app.message is not None and "has not started" in app.message.plain
            await pilot.press("enter")
            await wait_for(pilot, lambda: session.ready, "the first state")
            assert server.state.lobby().tables[made["table_id"]].status != "waiting"
            assert session.names[1] != "seat 2"  # the free person's seat went to a bot
            await wait_for(pilot, lambda: app.message is None or "Starting" not in app.message.plain, "the start")
            session.close()


def test_a_joiner_cannot_start_the_table(tmp_path: Path) -> None:
    asyncio.run(_joiner_cannot_start(tmp_path))


async def _joiner_cannot_start(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port) as server:
        made = new_table(base, [{"kind": "human"}, {"kind": "human"}], False)
        session = RemoteSession.connect(made["invite_url"], name="Bo")
        app = LiverpoolApp(session, buy_seconds=1000)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected, "the hello")
            assert "[enter]" not in str(app.query_one("#prompt", Static).render())
            await pilot.press("enter")
            assert app.message is not None and "creator starts it" in app.message.plain
            assert server.state.lobby().tables[made["table_id"]].status == "waiting"
            session.close()


def test_the_buy_prompt_leaves_the_screen_when_the_servers_window_closes(tmp_path: Path) -> None:
    asyncio.run(_buy_window_closes(tmp_path))


async def _buy_window_closes(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port, buy_window=0.3) as server:
        made = new_table(
            base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}], True
        )
        table = server.state.lobby().tables[made["table_id"]]
        session = RemoteSession.connect(made["invite_url"], token=made["token"])
        app = LiverpoolApp(session, buy_seconds=1000)  # the app's own timer never passes
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected and session.ready, "the hello")
            closed = 0
            while closed < 2:  # two windows left to close by the server, the app answering nothing
                await wait_for(pilot, lambda: app.prompt_deadline is not None or in_turn_to_draw(app), "a buy window")
                if app.prompt_deadline is None:  # our turn came without a window: play it by keys
                    await pilot.press("s")
                    await wait_for(pilot, lambda: app.game.phase == "play" and app.game.current == 0, "the draw")
                    legal = app.game.legal_actions(0)
                    hand = app.query_one(HandView)
                    while not any(isinstance(a, Discard) and a.card == hand.current for a in legal):
                        await pilot.press("right")
                    version = table.game.version if table.game else 0
                    await pilot.press("x")
                    if app.message is not None and "Careful" in app.message.plain:
                        await pilot.press("x")
                    moved = lambda v=version: table.game is not None and table.game.version > v  # noqa: E731
                    await wait_for(pilot, moved, "the discard")
                    continue
                shown = str(app.query_one("#prompt", Static).render())
                assert "Out of turn" in shown
                # the count is the server's window (0.3 s), not the app's --buy-time (1000 s)
                assert re.search(r"the window closes in [01]s", shown), shown
                await wait_for(pilot, lambda: app.prompt_deadline is None, "the prompt closing with the window")
                closed += 1
                prompt = str(app.query_one("#prompt", Static).render())
                assert "Out of turn" not in prompt and "passing in" not in prompt
                if app.game.current == 0:  # the own turn: no offer to buy one's own discard
                    await pilot.press("b")
                    assert app.message is not None and "nothing to buy" in app.message.plain
                    app.message = None
            session.close()


def test_a_token_beginning_with_a_dash_takes_the_seat_and_the_printed_command_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    import liverpool.server.lobby as lobby_module
    from liverpool.cli import build_parser
    from liverpool.cli.play import normalize_argv

    monkeypatch.setattr(lobby_module, "new_token", lambda: "-dash-token-0123456789")
    monkeypatch.setenv("LIVERPOOL_DATA_DIR", str(tmp_path / "data"))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port):
        made = new_table(base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], True)
        token = made["token"]
        assert token.startswith("-")
        link = made["invite_url"]
        seen: list[str] = []
        original_run = LiverpoolApp.run

        def run_then_quit(app: LiverpoolApp, key: str) -> None:
            session = app.session
            assert isinstance(session, RemoteSession)

            async def pilot(p: Pilot[Any]) -> None:
                await wait_for(p, lambda: session.connected and session.ready, "the hello")
                seen.append(session.token)
                await p.press(key)
                if key == "q":
                    await p.press("y")

            original_run(app, headless=True, auto_pilot=pilot)

        for spelling, key in ((["--token", token], "q"), ([f"--token={token}"], "ctrl+c")):
            monkeypatch.setattr(LiverpoolApp, "run", lambda app, k=key: run_then_quit(app, k))
            assert main(["play", "--connect", link, *spelling]) == 0
            out = capsys.readouterr().out
            assert seen[-1] == token
            command = next(line for line in out.splitlines() if "liverpool play --connect" in line)
            printed = command[command.index("liverpool play") :]
            assert f"--token={token}" in printed  # shown on leaving by q and by ctrl+c alike
            args = build_parser().parse_args(normalize_argv(shlex.split(printed)[1:]))
            assert args.token == token and parse_connect_url(args.connect)[1] == made["table_id"]
        # the seat was kept: the same link (and name) without a token takes the seat back
        monkeypatch.setattr(LiverpoolApp, "run", lambda app: run_then_quit(app, "ctrl+c"))
        assert main(["play", "--connect", link]) == 0
        assert seen[-1] == token and "Taking back your seat" in capsys.readouterr().out
        assert ((tmp_path / "data" / "seats.json").stat().st_mode & 0o777) == 0o600


async def play_my_turns_until(pilot: Pilot[int], app: LiverpoolApp, done: Callable[[], bool], what: str) -> list[str]:
    """Ana's own turns chosen by a greedy bot from her view (through the app, as a key would), never
    answering a buy window, until ``done``; the prompts the app showed meanwhile."""
    from liverpool.bots import get

    bot = get("greedy", seed=3)
    session = app.session
    assert isinstance(session, RemoteSession)
    prompts: list[str] = []
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, f"never reached: {what}"
        if app.prompt_deadline is not None:
            prompts.append(str(app.query_one("#prompt", Static).render()))
            if not any(isinstance(a, Buy) for a in app.prompt_legal):
                await pilot.press("n")  # a call (R33) is always the person's
        elif not app.modal_open() and session.ready and not session._pending and app.in_turn():
            seat, legal = session.to_act()
            if seat == 0 and legal:
                app.apply(bot.act(app.game.view(0), legal))
        await pilot.pause(0.01)
    return prompts


def test_the_buy_choice_and_the_deal_end_pause_from_the_terminal(tmp_path: Path) -> None:
    asyncio.run(_buy_choice_and_pause(tmp_path))


async def _buy_choice_and_pause(tmp_path: Path) -> None:
    from liverpool.tui.screens import BuyPrefsScreen, DealEndScreen

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    # a buy window that waits 600 s for a person: a game that goes on never waited for Ana
    with serve(tmp_path, port, buy_window=600.0) as server:
        made = new_table(
            base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}], True
        )
        table = server.state.lobby().tables[made["table_id"]]
        session = RemoteSession.connect(made["invite_url"], token=made["token"])
        session.data = tmp_path / "data"
        app = LiverpoolApp(session, buy_seconds=1000)  # the app's own timer never passes
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected and session.ready, "the hello")
            await wait_for(pilot, lambda: 0 in table.pacing.pausers, "the prefs after the hello")
            assert table.pacing.choices[0].mode == "ask"
            # B: the buying choices; "never buy" is the third, and a wish list that never matches
            await pilot.press("B")
            assert isinstance(app.screen, BuyPrefsScreen)
            await pilot.press("down", "down", "enter")
            assert not app.modal_open()
            await wait_for(pilot, lambda: table.pacing.choices[0].mode == "never", "the prefs sent")
            assert "Buying: never buy." in log_text(app)
            assert json.loads((tmp_path / "data" / "buy.json").read_text())["mode"] == "never"
            # a whole deal: every window of Ana's is passed by the server, none is shown to her
            prompts = await play_my_turns_until(
                pilot, app, lambda: any(isinstance(s, DealEndScreen) for s in app.screen_stack), "the deal's end"
            )
            assert not [p for p in prompts if "[b] buy" in p], prompts
            passes = [a for a in table.game.actions if a.player == 0 and type(a).__name__ == "Pass"]
            assert passes, "no buy window came to Ana in a whole deal"
            # the deal-end pause: the table waits for the terminal until enter
            await wait_for(pilot, lambda: table.pacing.hold == {0}, "the pause")
            version = table.game.version
            await pilot.pause(0.5)
            assert table.game.version == version and session.pause == {"waiting": [0], "until": None}
            await pilot.press("enter")
            await wait_for(pilot, lambda: table.pacing.hold is None, "the pause's end")
            await wait_for(pilot, lambda: table.game.version > version, "the next deal going on")
            assert not app.modal_open()
            session.close()


def chat_text(app: LiverpoolApp) -> str:
    return "\n".join(line.text for line in app.query_one("#chat", RichLog).lines)


def test_the_chat_pane_both_ways_with_markup_shown_as_text(tmp_path: Path) -> None:
    asyncio.run(_chat_both_ways(tmp_path))


async def _chat_both_ways(tmp_path: Path) -> None:
    from websockets.asyncio.client import connect

    from liverpool.tui.screens import ChatScreen

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port) as server:
        made = new_table(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}], False)
        bo = rest(f"{base}/api/tables/{made['table_id']}/join", {"name": "Bo"})
        session = RemoteSession.connect(made["invite_url"], token=made["token"])
        app = LiverpoolApp(session, buy_seconds=1000)
        async with (
            app.run_test(size=(180, 30)) as pilot,  # wide: a line of the pane is one line
            connect(f"ws://127.0.0.1:{port}/ws/tables/{made['table_id']}") as ws,
        ):
            await ws.send(json.dumps({"type": "auth", "token": bo["token"]}))
            await wait_for(pilot, lambda: session.connected and "* Bo took seat" in chat_text(app), "the chat log")
            # Bo says a line full of markup: the pane shows it as typed
            said = "[bold red]hi[/bold red] <b>all</b> [link=x]y[/link]"
            await ws.send(json.dumps({"type": "chat", "text": said}))
            await wait_for(pilot, lambda: f"Bo: {said}" in chat_text(app), "Bo's line in the pane")
            # Ana writes with / and enter: Bo's socket gets it
            await pilot.press("slash")
            assert isinstance(app.screen, ChatScreen)
            await pilot.press(*"[i]hello[/i]", "enter")
            assert not app.modal_open()
            heard: dict[str, Any] = {}
            deadline = time.monotonic() + WAIT
            while not heard:
                raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
                message = json.loads(raw)
                if message["type"] == "chat" and message["line"]["kind"] == "say" and message["line"]["seat"] == 0:
                    heard = message["line"]
            assert heard["text"] == "[i]hello[/i]" and heard["name"] == "Ana"
            await wait_for(pilot, lambda: "Ana: [i]hello[/i]" in chat_text(app), "Ana's own line")
            # the server's rate limit: its refusal is shown in the pane
            for i in range(7):
                assert session.say(f"line {i}") is None
            await wait_for(pilot, lambda: "Not sent: too many chat lines" in chat_text(app), "the refusal")
            # and the app's own: a line over the server's length
            assert "at most 300 characters" in (session.say("x" * 301) or "")
            # M mutes Bo (the first person listed): the server sends Ana none of his lines any more
            await pilot.press("M")
            await pilot.press("enter")
            await wait_for(pilot, lambda: session.chat_muted == ["seat:1"], "the server's answer to the mute")
            assert "Bo:" not in chat_text(app)  # the chat again, without his lines
            await ws.send(json.dumps({"type": "chat", "text": "muted words"}))
            while True:  # Bo's own socket gets his line: the server has sent it to whom it sends it
                message = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                if message["type"] == "chat" and message["line"]["text"] == "muted words":
                    break
            await pilot.pause(0.5)
            assert "muted words" not in chat_text(app)
            assert not [x for x in session.chat if x.get("text") == "muted words"]
            assert server.state.lobby().tables[made["table_id"]].chat.mutes[0] == {"seat:1"}
            session.close()


def test_the_hint_key_at_a_servers_table(tmp_path: Path) -> None:
    asyncio.run(_remote_hint(tmp_path))


async def _remote_hint(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    # the hint worker starts with the server, before the app runs (a process started under the
    # pilot, whose stdout is not a file, fails: 'bad value(s) in fds_to_keep')
    with serve(tmp_path, port, warm_hints=True, hint_samples=2):
        made = new_table(base, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], True)
        session = RemoteSession.connect(made["invite_url"], token=made["token"])
        app = LiverpoolApp(session, buy_seconds=1000)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: session.connected and session.ready, "the hello")
            await answer_until_my_draw(pilot, app)
            version = session.version
            await pilot.press("H")
            await wait_for(pilot, lambda: app.message is not None and "Hint:" in app.message.plain, "the hint")
            assert app.message is not None and "(2 left this deal)" in app.message.plain, app.message
            assert session.version == version  # a hint plays nothing
            session.close()

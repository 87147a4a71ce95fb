"""``liverpool play --watch-table URL`` (issue 24, tui/watch.py): the command follows a table of a
real server (uvicorn on a free 127.0.0.1 port) through its watch socket, printing the public moves
in words with the bots' names, the chat and the scores, and ends with the game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from liverpool.tui.watch import watch_lines
from server_helpers import server_settings, uvicorn_thread


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    req = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def test_watch_table_follows_a_game_to_its_end(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, grace=0.0, bot_delay=0.01)
    with uvicorn_thread(settings) as (served, _app):
        base = served.http
        made = _post(
            base,
            "/api/tables",
            {
                "players": 2,
                "name": "Ana",
                "options": {"schedule": "1S/7,1S/7"},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            },
        )
        env = os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from liverpool.cli import main; sys.exit(main())",
                "play",
                "--watch-table",
                f"{base}/?watch={made['table_id']}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "Watching: Ana, Bea (easy bot). The game has not started yet." in first, first
        _post(base, f"/api/tables/{made['table_id']}/start", {}, made["token"])
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        lines = out.splitlines()
        assert any(line.startswith("Bea (easy bot) ") for line in lines), out
        assert sum(line.startswith("Scores: Ana ") for line in lines) == 2, out
        assert "* Ana left the table." not in out  # Ana never connected: a bot played her seat


def test_watch_lines_of_messages() -> None:
    hello: dict[str, Any] = {
        "type": "hello",
        "view": None,
        "events": [],
        "table": {"seats": [{"seat": 0, "name": "Ana"}]},
    }
    chat = {"type": "chat", "line": {"kind": "say", "seat": 0, "name": "Ana", "text": "<b>hi</b>"}}
    system = {"type": "chat", "line": {"kind": "system", "seat": None, "name": "", "text": "Bo left the table."}}
    assert watch_lines([hello, chat, system]) == [
        "Watching: Ana. The game has not started yet.",
        "<Ana> <b>hi</b>",
        "* Bo left the table.",
    ]

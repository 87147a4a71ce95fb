"""No secret in any log line: a whole game through a real ``liverpool serve`` process (uvicorn, its
access log on at the default level), then neither a seat token nor a password or session value
anywhere in what the process wrote to stdout and stderr."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.sync.client import connect

from server_helpers import liverpool_serve

WAIT = 120.0  # an upper bound on waiting for the server, never a measured time


def _http(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"} | ({"X-Seat-Token": token} if token else {})
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            text = answer.read().decode()
            status = answer.status
    except urllib.error.HTTPError as exc:
        text, status = exc.read().decode(), exc.code
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def _seat(url: str, token: str, stack: ExitStack) -> Any:
    ws = stack.enter_context(connect(url, max_size=2**24, open_timeout=30))
    ws.send(json.dumps({"type": "auth", "token": token}))
    hello = json.loads(ws.recv(timeout=30))
    assert hello["type"] == "hello" and hello["protocol"] == 3, hello
    return ws


def _until_over(ws: Any) -> list[dict[str, Any]]:
    """Messages until the state whose view is over."""
    seen = []
    deadline = time.monotonic() + WAIT
    while True:
        msg = json.loads(ws.recv(timeout=max(1.0, deadline - time.monotonic())))
        seen.append(msg)
        if msg["type"] == "state" and msg["view"].get("is_over"):
            return seen


def test_no_token_password_or_session_in_the_servers_logs(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    tokens: list[str] = []
    # the default --log-level (info): uvicorn's access log is on
    with liverpool_serve(tmp_path, "--bot-delay", "0", "--buy-window", "0", log_level=None, log=log) as served:
        base, ws_base = served.http, served.ws
        status, made = _http(f"{base}/api/tables", {"players": 2, "name": "Ana"})
        assert status == 200, made
        table_id = made["table_id"]
        tokens.append(made["token"])
        status, joined = _http(f"{base}/api/tables/{table_id}/join", {"name": "Bo"})
        assert status == 200, joined
        tokens.append(joined["token"])
        stack = ExitStack()
        socks = [_seat(f"{ws_base}/ws/tables/{table_id}", t, stack) for t in tokens]
        for ws in socks:
            ws.send(json.dumps({"type": "autoplay", "on": True}))
        status, started = _http(f"{base}/api/tables/{table_id}/start", {}, token=tokens[0])
        assert status == 200, started
        for ws in socks:  # the whole game, every move made by the seats' bots
            _until_over(ws)
        status, again = _http(f"{base}/api/tables/{table_id}/rematch", {}, token=tokens[0])
        assert status == 200, again
        tokens.append(again["token"])
        rematch = json.loads(socks[1].recv(timeout=30))
        while rematch["type"] != "rematch":
            rematch = json.loads(socks[1].recv(timeout=30))
        tokens.append(rematch["token"])
        stack.close()
        # an old client's token in the URL: refused, and the access log's line of it redacted
        with connect(f"{ws_base}/ws/tables/{table_id}?token={tokens[0]}", open_timeout=30) as old:
            refused = json.loads(old.recv(timeout=30))
            assert refused["code"] == "bad_token" and "first message" in refused["reason"]
        assert _http(f"{base}/?join={table_id}&token={tokens[1]}")[0] == 200
        assert _http(f"{base}/api/tables/{table_id}?session=s3ss10n-v4lue&password=hunter2-pw")[0] == 200
        assert _http(f"{base}/api/tables/{table_id}/record")[0] == 200
    logs = log.read_text(errors="replace")  # stdout and stderr
    # the log is there and says what happened (else the test would prove nothing) ...
    assert f"/api/tables/{table_id}/start" in logs and "WebSocket /ws/tables/" in logs, logs[-3000:]
    assert "token=[redacted]" in logs and "password=[redacted]" in logs, logs[-3000:]
    # ... and holds no secret
    assert len(tokens) == 4
    for secret in [*tokens, "s3ss10n-v4lue", "hunter2-pw"]:
        assert secret not in logs, f"a secret is in the server's log: {secret[:4]}..."


def test_the_store_password_is_never_printed() -> None:
    """``liverpool serve`` prints the store's address for the person who started it, the password
    replaced by ``***``; nothing the process writes holds the password, even when the store cannot
    be reached (a port nothing listens on: the start-up fails, as it must)."""
    import subprocess

    from server_helpers import LIVERPOOL, free_port

    secret = "s3cret-store-pw"
    url = f"postgresql+asyncpg://bob:{secret}@127.0.0.1:{free_port()}/nodb"
    done = subprocess.run(
        [*LIVERPOOL, "serve", "--port", str(free_port()), "--database", url],
        check=False,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode != 0, done.stdout
    assert "bob:***@127.0.0.1" in done.stdout, done.stdout
    assert secret not in done.stdout + done.stderr

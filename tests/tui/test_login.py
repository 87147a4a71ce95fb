"""``liverpool login URL`` against the real server (uvicorn in a thread on a free 127.0.0.1 port):
the session kept in the config folder for its owner only, then used by ``play --connect``
(docs/players.md)."""

from __future__ import annotations

import io
import json
import stat
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("argon2")

from liverpool.cli import main
from liverpool.cli.login import auth_headers, base_of, config_dir, saved_session, sessions_file
from liverpool.tui.remote import RemoteSession

PASSWORD = "terminal secret 1"


def _free_port() -> int:
    from test_connect import _free_port as free

    return free()


def _json(url: str, body: dict[str, object] | None = None, headers: dict[str, str] | None = None) -> dict[str, object]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as answer:
        result: dict[str, object] = json.loads(answer.read())
        return result


def test_config_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "liverpool"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config_dir() == tmp_path / "home" / ".config" / "liverpool"
    assert base_of("HTTP://Example.org:8000/?join=x") == "http://example.org:8000"


def test_login_keeps_the_session_for_its_owner_and_play_connect_uses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_connect import serve

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(tmp_path, port):
        _json(f"{base}/api/accounts", {"name": "Ana", "password": PASSWORD})
        # a wrong password: refused, nothing kept
        monkeypatch.setattr("sys.stdin", io.StringIO("not it at all\n"))
        assert main(["login", base, "--name", "Ana", "--password-stdin"]) == 2
        assert "wrong name or password" in capsys.readouterr().err
        assert not sessions_file().exists()
        # the right one
        monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
        assert main(["login", base, "--name", "ana", "--password-stdin"]) == 0
        out = capsys.readouterr().out
        assert "as Ana" in out and PASSWORD not in out
        path = sessions_file()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert PASSWORD not in path.read_text()
        saved = saved_session(f"{base}/?join=whatever")
        assert saved is not None and saved["name"] == "Ana"
        assert _json(f"{base}/api/me", headers=auth_headers(base))["name"] == "Ana"
        # a table a guest made: the guest may not use the name, the logged-in terminal sits down as Ana
        made = _json(f"{base}/api/tables", {"players": 3, "name": "Cy"})
        refused = urllib.request.Request(
            f"{base}/api/tables/{made['table_id']}/join",
            data=json.dumps({"name": "Ana"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(refused, timeout=30)
        assert caught.value.code == 403
        session = RemoteSession.connect(f"{base}/?join={made['table_id']}")
        assert session.human == 1
        seats: list[dict[str, object]] = _json(f"{base}/api/tables/{made['table_id']}")["seats"]  # type: ignore[assignment]
        assert [s["name"] for s in seats][:2] == ["Cy", "Ana"]
        # log out: the server ends the session, the file forgets it
        assert main(["login", base, "--logout"]) == 0
        assert saved_session(base) is None
        assert _json(f"{base}/api/me", headers={"Authorization": f"Bearer {saved['session']}"})["name"] is None

"""``liverpool login URL``: log in to a server with a reserved name (docs/players.md).

The password is asked for without echo (or read from the first line of standard input with
``--password-stdin``); the server answers with a session, kept in ``sessions.json`` of the user's
config folder (``$XDG_CONFIG_HOME/liverpool``, else ``~/.config/liverpool``), readable by its owner
only (0600, in a 0700 folder). ``liverpool play --connect URL`` then sends it
(``Authorization: Bearer``) and sits down as the account's name. ``--logout`` ends the session
on the server and forgets it here.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["auth_headers", "base_of", "config_dir", "forget", "register", "saved_session", "sessions_file"]


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/liverpool``, else ``~/.config/liverpool``."""
    root = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(root) / "liverpool"


def sessions_file() -> Path:
    return config_dir() / "sessions.json"


def base_of(url: str) -> str:
    """The server a URL names (scheme, host and port), the key sessions are kept by.

    >>> base_of("http://127.0.0.1:8000/?join=abc")
    'http://127.0.0.1:8000'
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"a server URL such as http://127.0.0.1:8000 is needed, got {url!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def _load() -> dict[str, dict[str, str]]:
    try:
        data = json.loads(sessions_file().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, dict[str, str]]) -> None:
    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        folder.chmod(0o700)
    path = sessions_file()
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def saved_session(url: str) -> dict[str, str] | None:
    """The session kept for the server of ``url`` (``{"name", "session"}``), or None."""
    try:
        found = _load().get(base_of(url))
    except ValueError:
        return None
    return found if isinstance(found, dict) and "session" in found else None


def auth_headers(url: str) -> dict[str, str]:
    """The header that logs a request to the server of ``url`` in, when a session is kept for it."""
    found = saved_session(url)
    return {"Authorization": f"Bearer {found['session']}"} if found else {}


def forget(url: str) -> bool:
    data = _load()
    gone = data.pop(base_of(url), None) is not None
    if gone:
        _save(data)
    return gone


def _post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=15) as answer:
            result: dict[str, Any] = json.loads(answer.read().decode())
            return result
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read().decode()).get("detail", exc.reason)
        except (ValueError, AttributeError):
            detail = exc.reason
        raise ValueError(f"the server refused ({exc.code}): {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ValueError(f"cannot reach the server at {url}: {getattr(exc, 'reason', exc)}") from None


def _run(args: argparse.Namespace) -> int:
    base = base_of(args.url)
    if args.logout:
        headers = auth_headers(base)
        if headers:
            with contextlib.suppress(ValueError):  # an ended session: forget it here anyway
                _post(f"{base}/api/accounts/logout", {}, headers)
        print(f"logged out of {base}" if forget(base) else f"not logged in at {base}")
        return 0
    name = args.name or input("name: ").strip()
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(f"password for {name} at {base}: ")
    answer = _post(f"{base}/api/accounts/login", {"name": name, "password": password, "bearer": True})
    data = _load()
    data[base] = {"name": str(answer["name"]), "session": str(answer["session"])}
    _save(data)
    print(f"logged in at {base} as {answer['name']} (session kept in {sessions_file()})")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "login",
        help="log in to a server with your reserved name",
        description="Log in to a Liverpool server with a reserved name; `liverpool play --connect` then "
        "plays as it. The session is kept in your config folder, readable by you only.",
    )
    p.add_argument("url", help="the server, e.g. http://127.0.0.1:8000 (an invite link works too)")
    p.add_argument("--name", default=None, help="your reserved name (asked for when left out)")
    p.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    p.add_argument("--logout", action="store_true", help="end the session kept for this server")
    p.set_defaults(func=_run)

"""Reserved names, sessions, CSRF, ratings and players' pages through the REST API (issue 26,
docs/players.md), on the real app with its SQLite store (FastAPI's in-process client)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from fastapi.testclient import TestClient

from liverpool.server import accounts as accounts_module
from liverpool.server import create_app
from server_helpers import autoplay_to_end, downgrade_store, server_settings

PASSWORD = "correct horse battery"
SHORT = {"schedule": "2S/10,1S1R/10"}  # two deals: a game in a second or two


@pytest.fixture
def app_settings(tmp_path: Path) -> Any:
    return server_settings(tmp_path)


@pytest.fixture
def client(app_settings: Any) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as c:
        yield c


def second(client: TestClient) -> TestClient:
    """Another browser on the same running server (its own cookies, the first client's event loop)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def reserve(client: TestClient, name: str = "Ana", password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    client.headers["X-CSRF-Token"] = data["csrf"]
    return data


def login(client: TestClient, name: str = "Ana", password: str = PASSWORD, **extra: Any) -> Any:
    return client.post("/api/accounts/login", json={"name": name, "password": password, **extra})


def finished_game(client: TestClient, name: str, rated: bool = True, bots: tuple[str, ...] = ("easy", "easy")) -> str:
    """A table of ``name`` and bots, played to its end by the person's stand-in (autoplay)."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots]
    made = client.post(
        "/api/tables",
        json={"players": len(seats), "name": name, "seats": seats, "options": SHORT, "rated": rated},
    )
    assert made.status_code == 200, made.text
    table_id: str = made.json()["table_id"]
    with ExitStack() as stack:
        autoplay_to_end(client, table_id, [made.json()["token"]], stack, timeout=120)
    return table_id


def db_rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return list(db.execute(sql))


# ------------------------------------------------------------------------------------ accounts
@pytest.mark.sqlite_only  # reads the stored hashes from the SQLite file itself
def test_reserve_sets_a_safe_cookie_and_keeps_only_a_hash(client: TestClient, tmp_path: Path) -> None:
    answer = client.post("/api/accounts", json={"name": "Ana", "password": PASSWORD})
    assert answer.status_code == 201
    assert PASSWORD not in answer.text
    cookie = next(h for h in answer.headers.get_list("set-cookie") if h.startswith("liverpool_session="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie  # http: not Secure
    csrf_cookie = next(h for h in answer.headers.get_list("set-cookie") if h.startswith("liverpool_csrf="))
    assert "HttpOnly" not in csrf_cookie  # the page reads it
    assert client.get("/api/me").json() == {"name": "Ana", "private": False, "csrf": answer.json()["csrf"]}
    [(stored,)] = db_rows(tmp_path / "liverpool.db", "select password_hash from accounts")
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    token = client.cookies["liverpool_session"]
    [(digest,)] = db_rows(tmp_path / "liverpool.db", "select token_hash from sessions")
    assert token not in digest and len(digest) == 64
    again = second(client).post("/api/accounts", json={"name": " ana ", "password": PASSWORD})
    assert again.status_code == 409  # the same name, written otherwise


def test_secure_cookie_over_https(tmp_path: Path) -> None:
    with TestClient(create_app(server_settings(tmp_path)), base_url="https://testserver") as c:
        answer = c.post("/api/accounts", json={"name": "Ana", "password": PASSWORD})
        assert answer.status_code == 201
        assert all("Secure" in h for h in answer.headers.get_list("set-cookie"))


def test_bad_bodies_never_repeat_the_password(client: TestClient) -> None:
    for body in (
        {"name": "Ana", "password": "short"},
        {"name": "", "password": PASSWORD},
        {"name": "Ana", "pasword": PASSWORD},
        {"name": "Hard bot", "password": PASSWORD},
        {"name": "Player", "password": PASSWORD},
        {"name": "you", "password": PASSWORD},
        {"name": "Seat 3", "password": PASSWORD},
        {"name": "Ana", "password": 12345678},
    ):
        answer = client.post("/api/accounts", json=body)
        assert answer.status_code == 422, body
        assert PASSWORD not in answer.text and "short" not in answer.text.replace("shorter", "")
        assert "12345678" not in answer.text


def test_login_logout_and_a_second_browser(client: TestClient) -> None:
    reserve(client)
    other = second(client)
    assert other.get("/api/me").json() == {"name": None}
    answer = login(other, "ANA")
    assert answer.status_code == 200 and answer.json()["name"] == "Ana"
    assert PASSWORD not in answer.text
    assert other.get("/api/me").json()["name"] == "Ana"
    other.headers["X-CSRF-Token"] = answer.json()["csrf"]
    assert other.post("/api/accounts/logout").status_code == 200
    assert other.get("/api/me").json() == {"name": None}
    assert client.get("/api/me").json()["name"] == "Ana"  # the first browser stays logged in


def test_wrong_password_and_unknown_name_look_the_same(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    reserve(client)
    verified: list[str] = []
    real = accounts_module._verify

    async def counting(password_hash: str, password: str) -> bool:
        verified.append(password_hash)
        return await real(password_hash, password)

    monkeypatch.setattr(accounts_module, "_verify", counting)
    guest = second(client)
    wrong = login(guest, "Ana", "not the password")
    unknown = login(guest, "Nobody", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong name or password"}
    # the same work either way: one Argon2 verification (of a stand-in hash for an unknown name)
    assert len(verified) == 2 and all(h.startswith("$argon2id$") for h in verified)
    assert verified[0] != verified[1]


def test_login_renews_the_session(client: TestClient) -> None:
    reserve(client)
    before = client.cookies["liverpool_session"]
    answer = login(client)
    assert answer.status_code == 200
    after = client.cookies["liverpool_session"]
    assert after != before
    stale = second(client)
    assert stale.get("/api/me", headers={"Cookie": f"liverpool_session={before}"}).json() == {"name": None}
    # a session planted in a victim's browser is never the one logged in
    victim = second(client)
    planted = victim.post(
        "/api/accounts/login",
        json={"name": "Ana", "password": PASSWORD},
        headers={"Cookie": "liverpool_session=planted-by-someone"},
    )
    assert planted.status_code == 200
    assert victim.cookies["liverpool_session"] not in ("planted-by-someone", before, after)


def test_logins_are_rate_limited_per_name_and_per_address(client: TestClient) -> None:
    reserve(client)
    reserve(second(client), "Bo")
    guest = second(client)
    for _ in range(accounts_module.NAME_FAILURES):
        assert login(guest, "Ana", "wrong password").status_code == 401
    assert login(guest, "Ana", "wrong password").status_code == 429
    assert login(guest, "Ana").status_code == 429  # even the right password, until the window ends
    assert login(guest, "Bo").status_code == 200  # another name from the same address
    left = accounts_module.ADDRESS_FAILURES - accounts_module.NAME_FAILURES
    for i in range(left):
        assert login(guest, f"guess{i}", "wrong password").status_code == 401
    assert login(guest, "Bo").status_code == 429  # this address has had its share


def test_csrf_is_refused(client: TestClient) -> None:
    reserve(client)
    csrf = client.headers.pop("X-CSRF-Token")
    body = {"players": 2, "name": "Ana"}
    for path, payload in (
        ("/api/tables", body),
        ("/api/accounts/logout-all", None),
        ("/api/accounts/privacy", {"private": True}),
    ):
        refused = client.post(path, json=payload)
        assert refused.status_code == 403 and "CSRF" in refused.json()["detail"], path
        wrong = client.post(path, json=payload, headers={"X-CSRF-Token": "0" * 32})
        assert wrong.status_code == 403, path
    assert client.get("/api/me").json()["private"] is False  # nothing changed
    assert client.post("/api/tables", json=body, headers={"X-CSRF-Token": csrf}).status_code == 200
    # a bearer session (the terminal) is never sent by a browser on its own: no CSRF token needed
    bearer = login(second(client), bearer=True).json()["session"]
    terminal = second(client)
    made = terminal.post("/api/tables", json=body, headers={"Authorization": f"Bearer {bearer}"})
    assert made.status_code == 200, made.text


def test_a_reserved_name_is_refused_to_others(client: TestClient) -> None:
    reserve(client)
    guest = second(client)
    for name in ("Ana", "ana", " ANA "):
        refused = guest.post("/api/tables", json={"players": 2, "name": name})
        assert refused.status_code == 403 and "reserved" in refused.json()["detail"]
        assert guest.post("/api/quickplay", json={"name": name}).status_code == 403
    table = client.post("/api/tables", json={"players": 3, "name": "Ana"})
    assert table.status_code == 200
    table_id = table.json()["table_id"]
    assert guest.post(f"/api/tables/{table_id}/join", json={"name": "aNa"}).status_code == 403
    assert guest.post(f"/api/tables/{table_id}/join", json={"name": "Cy"}).status_code == 200
    # another account may not use it either
    reserve(guest, "Bo")
    assert guest.post(f"/api/tables/{table_id}/join", json={"name": "Ana"}).status_code == 403
    assert guest.post("/api/quickplay", json={"name": "Bo", "bot_delay": 0}).status_code == 200
    # guests play as before
    assert second(client).post("/api/quickplay", json={"name": "Dee", "bot_delay": 0}).status_code == 200


def test_logout_everywhere_and_change_password(client: TestClient) -> None:
    reserve(client)
    other, terminal = second(client), second(client)
    assert login(other).status_code == 200
    bearer = login(terminal, bearer=True).json()["session"]
    auth = {"Authorization": f"Bearer {bearer}"}
    assert terminal.get("/api/me", headers=auth).json()["name"] == "Ana"
    # change the password: the old one is refused from then on, and every other session ends
    refused = client.post("/api/accounts/password", json={"password": "wrong wrong", "new_password": "a new secret"})
    assert refused.status_code == 403
    changed = client.post("/api/accounts/password", json={"password": PASSWORD, "new_password": "a new secret"})
    assert changed.status_code == 200 and "a new secret" not in changed.text
    client.headers["X-CSRF-Token"] = changed.json()["csrf"]
    assert client.get("/api/me").json()["name"] == "Ana"  # this browser goes on, with a new session
    assert other.get("/api/me").json() == {"name": None}
    assert terminal.get("/api/me", headers=auth).json() == {"name": None}
    assert login(second(client)).status_code == 401
    assert login(other, password="a new secret").status_code == 200
    # log out everywhere
    assert client.post("/api/accounts/logout-all").status_code == 200
    assert client.get("/api/me").json() == {"name": None}
    assert other.get("/api/me").json() == {"name": None}


def test_passwords_never_reach_a_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    reserve(client)
    login(second(client), "Ana", "a wrong password")
    login(second(client), "Nobody", "another wrong one")
    client.post("/api/accounts/password", json={"password": PASSWORD, "new_password": "the next secret"})
    text = caplog.text
    assert caplog.records  # the failed logins are logged (without their passwords)
    for secret in (PASSWORD, "a wrong password", "another wrong one", "the next secret"):
        assert secret not in text


# ------------------------------------------------------------------------------------ ratings and pages
def test_a_game_changes_the_rating_and_shows_on_the_page(client: TestClient) -> None:
    reserve(client)
    assert client.get("/api/players/Ana/stats").json()["games"] == 0
    table_id = finished_game(client, "Ana")
    stats = client.get("/api/players/ana/stats").json()
    assert stats["name"] == "Ana" and stats["games"] == 1 and stats["yours"] is True
    assert stats["won"] in (0, 1)
    assert stats["rating"]["games"] == 1 and stats["rating"]["rating"] != 0.0
    assert [h["table_id"] for h in stats["rating_history"]] == [table_id]
    assert stats["deals"] == 2 and [c["deals"] for c in stats["points_per_deal"]] == [1, 1]
    assert stats["points_per_deal"][0]["contract"] == "2 sets"
    assert {h["name"] for h in stats["head_to_head"]} == {"easy bot"}
    assert stats["head_to_head"][0]["games"] == 2  # two easy bots at one table: two meetings
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert stats["recent"][0]["score"] == record["scores"][0]
    board = client.get("/api/leaderboard").json()["players"]
    assert {e["name"] for e in board} == {"Ana", "easy bot"}
    assert [e["rank"] for e in board] == [1, 2]
    bot = client.get("/api/players/easy bot/stats").json()
    assert bot["games"] == 2 and bot["rating"]["games"] == 1  # two seats, one rating update


def test_unrated_tables_and_guests_change_no_rating(client: TestClient) -> None:
    reserve(client)
    finished_game(client, "Ana", rated=False)
    stats = client.get("/api/players/Ana/stats").json()
    assert stats["games"] == 1 and stats["rating"]["games"] == 0 and stats["rating_history"] == []
    assert stats["recent"][0]["rated"] is False
    assert client.get("/api/leaderboard").json()["players"] == []
    guest = second(client)
    finished_game(guest, "Dee")
    assert guest.get("/api/players/Dee/stats").status_code == 404  # a guest has no page
    board = {e["name"]: e for e in client.get("/api/leaderboard").json()["players"]}
    assert set(board) == {"easy bot"}  # the bots were rated against the guest


def test_a_private_page_is_unreachable_for_others(client: TestClient) -> None:
    reserve(client)
    finished_game(client, "Ana")
    guest = second(client)
    reserve(guest, "Bo")
    assert guest.get("/api/players/Ana/stats").status_code == 200
    assert client.post("/api/accounts/privacy", json={"private": True}).json()["private"] is True
    for who in (guest, second(client)):
        for path in ("/api/players/Ana/stats", "/api/players/ana/history"):
            answer = who.get(path)
            assert answer.status_code == 404, path
            assert answer.json() == {"detail": "no public page for 'Ana'"} or "ana" in answer.json()["detail"]
        assert "Ana" not in who.get("/api/leaderboard").text
        assert "Ana" not in who.get("/api/players/easy bot/stats").text  # "a private player"
    assert who.get("/api/players/Nobody/stats").json()["detail"] == "no public page for 'Nobody'"
    assert client.get("/api/players/Ana/stats").json()["private"] is True  # the player still sees it
    assert client.get("/api/players/Ana/history").status_code == 200
    assert client.post("/api/accounts/privacy", json={"private": False}).status_code == 200
    assert guest.get("/api/players/Ana/stats").status_code == 200


def test_a_name_reserved_after_the_table_was_made_is_not_rated(client: TestClient) -> None:
    guest = second(client)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]
    made = guest.post("/api/tables", json={"players": 2, "name": "Ana", "seats": seats, "options": SHORT}).json()
    reserve(client)  # the guest's seat was taken before the name was reserved: not Ana's game
    with ExitStack() as stack:
        autoplay_to_end(guest, made["table_id"], [made["token"]], stack, timeout=120)
    assert client.get("/api/players/Ana/stats").json()["games"] == 0


@pytest.mark.sqlite_only  # lists the SQLite file's tables
def test_the_migration_goes_down_and_up(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    with TestClient(create_app(settings)) as c:
        reserve(c)
        finished_game(c, "Ana")
    downgrade_store(tmp_path / "liverpool.db", "0003")
    tables = {r[0] for r in db_rows(tmp_path / "liverpool.db", "select name from sqlite_master where type='table'")}
    assert not tables & {"accounts", "sessions", "ratings", "games", "game_seats", "login_failures", "unrated_tables"}
    with TestClient(create_app(settings)) as c:
        assert c.get("/api/players/Ana/stats").status_code == 404
        reserve(c)
        assert c.get("/api/players/Ana/stats").json()["games"] == 0


def test_a_longest_password_with_more_after_it_is_wrong(client: TestClient) -> None:
    longest = "p" * accounts_module.MAX_PASSWORD
    reserve(client, "Ana", longest)
    assert login(second(client), "Ana", longest + "extra").status_code == 401
    assert login(second(client), "Ana", longest).status_code == 200

"""The players' pages in Debian's chromium (Playwright) against the real server in-process
(issue 26, docs/players.md): reserve a name, play a game to its end (the person's stand-in bot
plays it: autoplay), see it on the page with the rating changed, log in from a second browser,
the name refused to a guest, a private page refused to others, brute force limited, CSRF refused.
Screenshots of the player's page and the leaderboard go to ``artifacts/`` (docs/images/ holds copies
taken from there by hand, after looking at them)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("argon2")

import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from liverpool.server.app import create_app
from liverpool.server.config import Settings

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync"]
IMAGES = Path(__file__).resolve().parents[2] / "artifacts"  # never docs/: a test run leaves the tree as it was
DESKTOP: ViewportSize = {"width": 1200, "height": 900}
PASSWORD = "a long family secret"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("players") / "liverpool.db"
    settings = Settings(database=f"sqlite:///{db}", bot_delay=0.0, buy_window=0.0, seeds=lambda p: 7)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser: Browser) -> tuple[BrowserContext, Page, list[str]]:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def _csrf(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "liverpool_csrf")


def test_reserve_play_see_the_page_and_the_guards(base_url: str, browser: Browser) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    # reserve a name on the players' page
    ana, page, errors = _page(browser)
    page.goto(f"{base_url}/players.html")
    page.fill("input[name=reserve-name]", "Ana")
    page.fill("input[name=reserve-password]", PASSWORD)
    page.click("form[aria-label='reserve a name'] button")
    page.wait_for_selector("text=Logged in as")
    assert "Ana" in page.inner_text("section[aria-label=account] h2")
    session = next(c for c in ana.cookies() if c["name"] == "liverpool_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    assert page.evaluate("document.cookie").count("liverpool_session") == 0  # out of the page's reach

    # a game: Ana against two bots (two short deals), started and played by the page's own buttons
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]
    made = ana.request.post(
        f"{base_url}/api/tables",
        data={"players": 3, "name": "Ana", "seats": seats, "options": {"schedule": "2S/10,1S1R/10"}},
        headers={"X-CSRF-Token": _csrf(ana)},
    )
    assert made.ok, made.text()
    table, token = made.json()["table_id"], made.json()["token"]
    page.evaluate(f"localStorage.setItem({json.dumps('liverpool.token.' + table)}, {json.dumps(token)})")
    page.goto(f"{base_url}/?table={table}")
    page.click("#start")  # a logged-in page's POST: api.js sends the CSRF token
    page.wait_for_selector("#autoplay")
    page.click("#autoplay")
    page.wait_for_selector("#game-end", timeout=120_000)

    # the player's page shows the game and a changed rating
    page.goto(f"{base_url}/players.html?name=Ana")
    page.wait_for_selector("section[aria-label=player] .figures")
    figures = page.inner_text(".figures")
    assert "1\ngames played" in figures
    assert not page.inner_text(".figure .value >> nth=0").startswith("0.00")
    assert page.locator("section[aria-label=player] svg[aria-label='rating after each rated game'] circle").count() == 2
    assert page.locator("svg[aria-label='head to head'] g").count() == 2  # easy bot, medium bot
    assert page.locator("table[aria-label='latest games'] tbody tr").count() == 1
    page.screenshot(path=str(IMAGES / "player-page.png"), full_page=True)

    # a second browser logs in as Ana; the leaderboard lists her and the bots
    second, page2, errors2 = _page(browser)
    page2.goto(f"{base_url}/players.html")
    page2.fill("input[name=login-name]", "ana")
    page2.fill("input[name=login-password]", PASSWORD)
    page2.click("form[aria-label='log in'] button")
    page2.wait_for_selector("text=Logged in as")
    page2.wait_for_selector("table.ptable tbody tr")
    names = page2.locator("table.ptable tbody td:nth-child(2)").all_inner_texts()
    assert set(names) == {"Ana", "easy bot", "medium bot"}
    page2.screenshot(path=str(IMAGES / "leaderboard.png"), full_page=True)

    # a guest may not sit down as Ana
    guest, page3, errors3 = _page(browser)
    page3.goto(base_url)
    page3.fill("#name", "ANA")
    page3.click("#quickplay")
    page3.wait_for_selector("[role=alert]")
    assert "reserved" in page3.inner_text("[role=alert]")

    # Ana makes her page private: the guest cannot see it, Ana's other browser still can
    page.goto(f"{base_url}/players.html")
    page.check("input[name=private]")
    page.wait_for_selector("text=Your page is private now.")
    page3.goto(f"{base_url}/players.html?name=Ana")
    page3.wait_for_selector("[role=alert]")
    assert "no public page" in page3.inner_text("[role=alert]")
    assert guest.request.get(f"{base_url}/api/players/Ana/history").status == 404
    page2.goto(f"{base_url}/players.html?name=Ana")
    page2.wait_for_selector(".private-note")

    # brute force: the guest's guesses are cut off, whatever comes next
    page3.goto(f"{base_url}/players.html")
    for _ in range(5):
        page3.fill("input[name=login-name]", "Ana")
        page3.fill("input[name=login-password]", "guess guess")
        page3.click("form[aria-label='log in'] button")
        page3.wait_for_selector("[role=alert]:has-text('wrong name or password')")
        page3.evaluate("document.querySelector('[role=alert]').remove()")
    page3.fill("input[name=login-password]", PASSWORD)
    page3.click("form[aria-label='log in'] button")
    page3.wait_for_selector("[role=alert]:has-text('too many failed logins')")

    # CSRF: Ana's cookie without the page's token is refused, and nothing changes
    forged = ana.request.post(f"{base_url}/api/accounts/privacy", data={"private": False})
    assert forged.status == 403 and "CSRF" in forged.json()["detail"]
    assert ana.request.get(f"{base_url}/api/me").json()["private"] is True
    assert not errors and not errors2 and not errors3, (errors, errors2, errors3)
    for context in (ana, second, guest):
        context.close()

"""Tables of 9-16 seats in the browser (issue 22): a 16-seat table made through the lobby form
(the seat count offered up to the engine's limit; the rules form widened and the packs the server's
check names), played by a stand-in bot for a while, shows every seat and its melds without running
off the page, at desktop and phone widths, in Debian's chromium against the real server (the
fixtures and helpers of test_web.py). Screenshots: artifacts/seats-16-desktop.png,
seats-16-phone.png, seats-16-deal-end.png (docs/web.md shows them)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_web import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, _errors, _free_port, _serve, _stop

SEATS = 16


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    server, thread = _serve(tmp_path_factory.mktemp("seats") / "liverpool.db", port)
    yield f"http://127.0.0.1:{port}"
    _stop(server, thread)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _overflow(page: Page) -> int:
    """How many pixels the page runs past the viewport's right edge (0: none)."""
    width: int = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    return width


SHOWN_ALL = """(n) => [...document.querySelectorAll('.seats-row .seat-box')].filter((e) => {
    const r = e.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth + 0.5;
}).length === n"""
"""True in the page once every seat's box lies wholly inside the viewport's width (as ``_seats_shown``)."""


def _seats_shown(page: Page) -> list[int]:
    """The seats whose box lies wholly inside the viewport's width (none scrolled out of sight)."""
    shown: list[int] = page.locator(".seats-row .seat-box").evaluate_all(
        """els => els.filter((e) => { const r = e.getBoundingClientRect();
                               return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth + 0.5; })
                     .map((e) => Number(e.dataset.seat))"""
    )
    return shown


def _wide_elements(page: Page) -> list[str]:
    """Elements of the table that stick out past the viewport's right edge."""
    wide: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.table-page *')]
                 .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && e.offsetParent !== null)
                 .map((e) => e.tagName + '.' + e.className)"""
    )
    return wide


def _table_page(browser: Browser, base_url: str, table: str, token: str, viewport: ViewportSize) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem({json.dumps('liverpool.token.' + table)}, {json.dumps(token)})")
    page = context.new_page()
    page.goto(f"{base_url}/?table={table}")
    page.wait_for_selector("#hand .hand-card")
    return page


def test_a_sixteen_seat_table_shows_every_seat_at_desktop_and_phone_widths(base_url: str, browser: Browser) -> None:
    lobby = browser.new_context(viewport=DESKTOP).new_page()
    errors = _errors(lobby)
    lobby.goto(base_url)
    lobby.fill("#name", "Ana")
    offered = lobby.locator("#players option").all_inner_texts()
    assert offered == [str(n) for n in range(2, SEATS + 1)], offered  # the engine's 2-16 (GET /api/options)
    lobby.select_option("#players", str(SEATS))
    # the seat count widened the preset's max_players (shown as changed); the server's check names
    # the packs 16 hands need, and the option it names is marked in the rules form
    lobby.wait_for_selector("#rules-check.bad")
    assert "raise option packs to 4" in lobby.inner_text("#rules-check")
    lobby.locator("details.rules-form").evaluate("d => d.open = true")
    assert lobby.input_value("#opt-max_players") == str(SEATS)
    assert "1 changed" in lobby.inner_text("details.rules-form summary")
    assert lobby.locator(".option.bad #opt-packs").count() == 1
    lobby.fill("#opt-packs", "4")
    lobby.wait_for_selector("#rules-check.ok")
    assert lobby.locator(".seat-choice").count() == SEATS
    assert lobby.locator(".seat-kind").evaluate_all("els => els.map((e) => e.value)") == ["bot:medium"] * (SEATS - 1)
    lobby.click("#create-table")
    lobby.wait_for_selector("#seat-list")
    assert lobby.locator("#seat-list li").count() == SEATS
    table = lobby.evaluate("() => new URLSearchParams(location.search).get('table')")
    token = lobby.evaluate(f"() => localStorage.getItem({json.dumps('liverpool.token.')} + {json.dumps(table)})")
    assert table and token
    lobby.click("#start")
    lobby.wait_for_selector("#hand .hand-card")

    # a bot plays the creator's seat until melds are on the table, then the person takes it back
    lobby.click("#autoplay")
    lobby.wait_for_function(
        "() => document.querySelectorAll('#melds .meld').length >= 4 || !!document.querySelector('#deal-end')",
        timeout=60_000,
    )
    if lobby.locator("#deal-end").count():  # the deal ended first: the next one is as good
        lobby.click("#next-deal")
    lobby.click("#autoplay")
    lobby.wait_for_function("() => document.querySelector('#autoplay').innerText.includes('Let a bot')")
    assert lobby.locator("#melds .meld").count() >= 1

    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = lobby if name == "desktop" else _table_page(browser, base_url, table, token, viewport)
        if page is not lobby:
            errors += _errors(page)
        page.wait_for_timeout(500)  # the arrival animations settle
        assert page.locator(".seats-row.many .seat-box").count() == SEATS
        # on a busy machine a seat's box may still be moving in (its width 0, or partly off the
        # edge): wait for the boxes to stand still inside the page, then check what is shown
        with contextlib.suppress(PlaywrightTimeout):  # the assertion below says which are not shown
            page.wait_for_function(SHOWN_ALL, arg=SEATS, timeout=10_000)
        assert sorted(_seats_shown(page)) == list(range(SEATS)), name
        assert _overflow(page) <= 0, (name, _overflow(page))
        assert _wide_elements(page) == [], (name, _wide_elements(page))
        # every owner's melds are shown whole: no meld wider than the melds' area
        area = page.locator("#melds").bounding_box()
        assert area is not None
        for box in page.locator("#melds .meld").evaluate_all("els => els.map((e) => e.getBoundingClientRect().right)"):
            assert box <= area["x"] + area["width"] + 0.5, name
        page.screenshot(path=str(ARTIFACTS / f"seats-16-{name}.png"))
        if page is not lobby:
            page.context.close()  # the seat's newest socket is the one served: the desktop page takes it back
            lobby.reload()
            lobby.wait_for_selector("#hand .hand-card")

    # the deal's end: sixteen columns of scores stay inside the page
    lobby.click("#autoplay")
    lobby.wait_for_selector("#deal-end, #game-end", timeout=120_000)
    lobby.wait_for_timeout(500)
    end = "#deal-end" if lobby.locator("#deal-end").count() else "#game-end"
    if end == "#deal-end":
        assert lobby.locator("#deal-end table.reveal tbody tr").count() == SEATS
    assert lobby.locator(f"{end} #score-table thead th").count() == SEATS + 1  # "Deal" and a column a seat
    assert _overflow(lobby) <= 0
    lobby.screenshot(path=str(ARTIFACTS / "seats-16-deal-end.png"))
    assert errors == []

"""The browser table, driven by Playwright in Debian's chromium against the real server in-process.

The server runs in a thread on a free 127.0.0.1 port (uvicorn, bot delay 0, seeds fixed so a run is
repeatable); every test clicks what a person would click and reads what the page shows. The
browser is the system's ``/usr/bin/chromium`` (``make chromium`` installs it): no browser is
downloaded. Screenshots go to ``artifacts/`` on every run.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from liverpool.server.app import create_app
from liverpool.server.config import Settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 360, "height": 740}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _seeds(purpose: str) -> int:
    return zlib.crc32(f"web-tests/{purpose}".encode())


def _serve(db: Path, port: int) -> tuple[uvicorn.Server, threading.Thread]:
    """The real server in a thread on 127.0.0.1:port with the SQLite store ``db``."""
    # bots wait 0.05 s before a move of their own turn: at 0 a bot playing for the person
    # (autoplay) finished the whole game before the page could click "Take my seat back";
    # hints and reviews with few samples (the analysis' own tests check what they find; here the
    # page shows them): a hint in a fraction of a second, a one-deal game's review in seconds
    settings = Settings(
        database=f"sqlite:///{db}", bot_delay=0.05, buy_window=2.0, seeds=_seeds, hint_samples=8, review_samples=2
    )
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive(), "the server stopped while starting"
        assert time.monotonic() < deadline, "the server did not start in 30 s"
        time.sleep(0.05)
    return server, thread


def _stop(server: uvicorn.Server, thread: threading.Thread) -> None:
    server.should_exit = True
    thread.join(timeout=15)
    assert not thread.is_alive(), "the server did not stop"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    server, thread = _serve(tmp_path_factory.mktemp("web") / "liverpool.db", port)
    yield f"http://127.0.0.1:{port}"
    _stop(server, thread)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def _post(base_url: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    req = urllib.request.Request(f"{base_url}{path}", data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def _version(page: Page) -> str | None:
    return page.get_attribute(".table-page", "data-version")


def _wait_change(page: Page, version: str | None, timeout: float = 10_000) -> None:
    """Wait until the table shows a newer state (or a deal/game end)."""
    page.wait_for_function(
        """(v) => { const t = document.querySelector('.table-page');
                    return (t && t.dataset.version !== v) || !!document.querySelector('#deal-end, #game-end'); }""",
        arg=version,
        timeout=timeout,
    )


def _my_turn(page: Page) -> bool:
    t = page.locator(".table-page")
    return t.count() == 1 and t.get_attribute("data-seat") == t.get_attribute("data-current")


def _fewest_of_rank(cards: list[str]) -> str:
    """A card to throw away: one of a rank held least often (a joker only when nothing else)."""
    ranks = [c[:-1] for c in cards]
    naturals = [c for c in cards if c != "JK"] or cards
    return min(naturals, key=lambda c: ranks.count(c[:-1]))


def _shot(page: Page, name: str) -> None:
    """A screenshot in artifacts/, once the arrival animations have settled."""
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / name))


def _play_one_step(page: Page, shots: dict[str, int]) -> bool:
    """Do one thing the page offers, as a person would; False when there is nothing to do yet
    (or the table moved on under the click, e.g. a bot went out: the caller looks again)."""
    if page.locator("#buy").count() and not shots.get("buy"):
        _shot(page, "buy-window.png")
        shots["buy"] = 1
    version = _version(page)
    try:
        if page.locator("#cancel-stage").count():
            page.click("#cancel-stage", timeout=2000)
            return True
        if page.locator("#pass").count():
            page.click("#pass", timeout=2000)
        elif page.locator("#stock.can").count():
            page.click("#stock", timeout=2000)
        elif page.locator("#open-stage").count() and not shots.get("laid"):
            shots["laid"] = 1  # one try a deal: suggest, check, lay down
            page.click("#open-stage", timeout=2000)
            page.click("#suggest", timeout=2000)
            page.wait_for_selector("#stage-check.ok, #stage-check.bad", timeout=5000)
            page.click("#lay-down" if page.locator("#stage-check.ok").count() else "#cancel-stage", timeout=2000)
        elif page.locator(".hand-card.can-discard").count():
            shots["discards"] = shots.get("discards", 0) + 1
            if not shots.get("mid") and (page.locator("#melds .meld").count() or shots["discards"] >= 12):
                _shot(page, "table-mid-deal.png")  # once melds are on the table
                shots["mid"] = 1
            options = page.locator("#hand .hand-card.can-discard").evaluate_all("els => els.map(e => e.dataset.card)")
            if not options:  # the hand was drawn again between the two reads: look again
                return False
            card = _fewest_of_rank(options)
            page.locator(f"#hand .hand-card.can-discard[data-card='{card}']").first.dblclick(timeout=2000)
        else:
            return False
    except PlaywrightTimeoutError:
        return False
    _wait_change(page, version)
    return True


def test_quick_play_one_whole_deal_by_clicks(base_url: str, browser: Browser) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = _errors(page)
    page.goto(base_url)
    page.fill("#name", "Ana")
    page.locator("details.rules-form").evaluate("d => d.open = true")
    page.wait_for_selector(".rule-group")
    page.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)
    page.click("#quickplay")
    page.wait_for_selector("#hand .hand-card")
    assert "Deal 1 of 7" in page.inner_text("#contract")
    shots: dict[str, int] = {}
    deadline = time.monotonic() + 240
    while not page.locator("#deal-end, #game-end").count():
        assert time.monotonic() < deadline, "the deal did not end in 4 minutes"
        if not _play_one_step(page, shots):
            page.wait_for_timeout(50)
    page.wait_for_selector("#deal-end")
    # every seat's points and the running totals are shown
    rows = page.locator("#deal-end .reveal tbody tr")
    assert rows.count() == 4
    totals = page.locator("#deal-end #score-table tr.total td").all_inner_texts()
    assert totals[0] == "Total" and all(t.lstrip("-").isdigit() for t in totals[1:])
    assert "went out" in page.inner_text("#deal-end") or "ended" in page.inner_text("#deal-end")
    _shot(page, "deal-end.png")
    page.click("#next-deal")
    assert "Deal 2 of 7" in page.inner_text("#contract")
    # a bot may play for the person a while, and they take the seat back
    page.click("#autoplay")
    page.wait_for_selector(".seat-box.me .tag:has-text('a bot plays')")
    mine = int(page.get_attribute(".table-page", "data-my-events") or 0)
    page.wait_for_function(  # the bot moved for Ana (the page counts the public events of her seat)
        "(n) => Number(document.querySelector('.table-page').dataset.myEvents) > n + 1", arg=mine, timeout=30_000
    )
    # (the bot plays at full speed: deal-end screens may cover the button, so the click is sent
    # to the button itself; the person would close the screen first)
    page.locator("#autoplay:has-text('Take my seat back')").dispatch_event("click")
    page.wait_for_selector(".seat-box.me .tag:has-text('a bot plays')", state="detached")
    if page.locator("#next-deal").count():
        page.click("#next-deal")
    # the same table on a phone-sized screen: the layout changes, the page is the same
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the phone layout scrolls sideways ({width}px)"
    _shot(page, "phone.png")
    assert shots.get("mid"), "the test never had a card to discard"
    assert not errors, errors


def _started_table_against_a_bot(
    base_url: str, browser: Browser, schedule: str, name: str, hints: int | str = 3
) -> tuple[str, Page, list[str]]:
    """A started two-seat table (``name`` against an easy bot, ``schedule``), opened in a new
    desktop page with the seat's token in its storage: the table id, the page, its console errors."""
    made = _post(
        base_url,
        "/api/tables",
        {
            "players": 2,
            "preset": "liverpool",
            "options": {"schedule": schedule},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "name": name,
            "hints": hints,
        },
    )
    table, token = made["table_id"], made["token"]
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(f"localStorage.setItem({json.dumps('liverpool.token.' + table)}, {json.dumps(token)})")
    page = context.new_page()
    errors = _errors(page)
    page.goto(f"{base_url}/?table={table}")
    page.click("#start")
    page.wait_for_selector("#hand .hand-card")
    return table, page, errors


def _hand(page: Page) -> list[str]:
    cards: list[str] = page.locator("#hand .hand-card").evaluate_all("els => els.map(e => e.dataset.card)")
    return cards


def _log_tail(page: Page, n: int = 3) -> list[str]:
    lines: list[str] = page.locator("#log li").all_inner_texts()
    return lines[-n:]


def test_invite_link_both_see_moves_and_a_reload_continues(base_url: str, browser: Browser) -> None:
    ana = browser.new_context(viewport=DESKTOP).new_page()
    errors = _errors(ana)
    ana.goto(base_url)
    ana.fill("#name", "Ana")
    ana.select_option("#players", "2")
    ana.select_option(".seat-kind[data-seat='1']", "human")
    # seats are numbered from 0 in everything shown, as in the engine and the records (p0)
    labels = ana.locator(".seat-choice").all_inner_texts()
    assert labels[0].startswith("Seat 0") and labels[1].startswith("Seat 1"), labels
    ana.wait_for_selector("#rules-check.ok")
    ana.click("#create-table")
    invite = ana.locator("#invite-link").input_value()
    assert "/?join=" in invite
    bo = browser.new_context(viewport=DESKTOP).new_page()
    errors += _errors(bo)
    bo.goto(invite)
    bo.fill("#join-name", "Bo")
    bo.click("#join")
    ana.wait_for_function("() => document.querySelector('#seat-list').innerText.includes('Bo')")
    bo.wait_for_selector("#seat-list")
    seat_list = ana.inner_text("#seat-list")
    assert "Seat 0: Ana" in seat_list and "Seat 1: Bo" in seat_list, seat_list
    ana.click("#start")
    for p in (ana, bo):
        p.wait_for_selector("#hand .hand-card")
        assert "Ana" in p.inner_text(".seats-row") and "Bo" in p.inner_text(".seats-row")

    def step() -> None:
        actor, other = (ana, bo) if _my_turn(ana) else (bo, ana)
        assert _my_turn(actor), "neither page says it is its turn"
        before = _version(other)
        actor.bring_to_front()  # a background tab gets no animation frames: clicks would wait
        assert _play_one_step(actor, {"laid": 1, "mid": 1, "buy": 1})
        _wait_change(other, before)
        assert _version(other) == _version(actor)
        # the other page saw the move, in the same words
        assert _log_tail(other) == _log_tail(actor)

    for _ in range(4):
        step()
    # Bo reloads mid-deal: the same seat, hand and position come back from `hello`
    hand, version = sorted(_hand(bo)), _version(bo)
    bo.reload()
    bo.wait_for_selector("#hand .hand-card")
    assert sorted(_hand(bo)) == hand
    assert _version(bo) == version
    for _ in range(4):
        step()
    # the same seat opened in a second tab takes the connection; the first says so and can take it back
    second = bo.context.new_page()
    second.goto(bo.url)
    second.wait_for_selector("#hand .hand-card")
    bo.wait_for_selector("#conn-banner:has-text('another window')")
    bo.click("#conn-banner button")
    bo.wait_for_selector("#conn-banner", state="detached")
    second.wait_for_selector("#conn-banner:has-text('another window')")
    second.close()
    step()
    assert not errors, errors


def test_lay_down_invalid_meld_refused_with_reason_then_valid(base_url: str, browser: Browser) -> None:
    _, page, errors = _started_table_against_a_bot(base_url, browser, "1S/10,1S/10,1S/10,1S/10", "Ana")
    deadline = time.monotonic() + 120
    # play (draw, throw a lonely card) until the page offers a lay-down
    while not page.locator("#open-stage").count():
        assert time.monotonic() < deadline, "no lay-down was offered in 2 minutes"
        if page.locator("#next-deal").count():
            page.click("#next-deal")
            continue
        if not _play_one_step(page, {"laid": 1, "mid": 1, "buy": 1}):  # never lays down itself
            page.wait_for_timeout(50)
    hand = _hand(page)
    page.click("#open-stage")
    page.click("#new-set")
    # three naturals of three different ranks, card by card: not a set
    picked: list[str] = []
    for card in hand:
        if card != "JK" and card[:-1] not in {c[:-1] for c in picked}:
            picked.append(card)
        if len(picked) == 3:
            break
    for card in picked:
        page.locator(f"#hand .hand-card[data-card='{card}']:not(.staged)").first.click()
    assert page.locator("#stage .staged-card").count() == 3
    page.wait_for_selector("#stage-check.bad")
    reason = page.inner_text("#stage-check")
    assert len(reason) > 5 and "Checking" not in reason
    _shot(page, "lay-down-refused.png")
    # sending it anyway: the server refuses it and the page says why; nothing changes
    version = _version(page)
    page.click("#lay-down")
    page.wait_for_selector("#server-error")
    assert page.inner_text("#server-error").strip()
    assert _version(page) == version
    # the suggestion (from the legal melds) is valid and is accepted
    page.click("#cancel-stage")
    page.click("#open-stage")
    page.click("#suggest")
    page.wait_for_selector("#stage-check.ok")
    page.click("#lay-down")
    page.wait_for_selector(".seat-box.me .tag.down")
    assert page.locator("#melds .meld").count() >= 1
    _shot(page, "lay-down-accepted.png")
    # the hand's order is the player's: sort by rank, then move the first card right by keyboard
    page.click("#sort-rank")
    ranked = _hand(page)
    page.locator("#hand .hand-card").first.click()
    page.keyboard.press("ArrowRight")
    assert _hand(page) == [ranked[1], ranked[0], *ranked[2:]]

    # discard by dragging a card onto the discard pile
    def discards() -> int:
        return sum(line.startswith("Ana discarded") for line in page.locator("#log li").all_inner_texts())

    before, count = _hand(page), discards()
    version = _version(page)
    page.locator("#hand .hand-card.can-discard").first.drag_to(page.locator("#discard-pile"))
    _wait_change(page, version)
    assert discards() == count + 1
    # the hand is drawn from the new state a moment after the version (the page keeps its order)
    page.wait_for_function("(n) => document.querySelectorAll('#hand .hand-card').length === n", arg=len(before) - 1)
    assert not errors, errors


def test_game_end_replay_and_rematch(base_url: str, browser: Browser) -> None:
    table, page, errors = _started_table_against_a_bot(base_url, browser, "1S/10", "Cy")
    shots: dict[str, int] = {"buy": 1, "mid": 1}
    deadline = time.monotonic() + 180
    while not page.locator("#game-end").count():
        assert time.monotonic() < deadline, "the one-deal game did not end in 3 minutes"
        if not _play_one_step(page, shots):
            page.wait_for_timeout(50)
    assert "won" in page.inner_text("#game-end .winners")
    _shot(page, "game-end.png")
    # the replay steps through every action with both hands shown
    page.click("#game-end button:has-text('Replay')")
    page.wait_for_selector("#replay-step")
    assert page.inner_text("#replay-step").startswith("Step 0 of ")
    assert page.locator(".replay-seat").count() == 2
    dealt = page.locator(".replay-seat").first.locator(".card").count()
    assert dealt == 10
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert page.inner_text("#replay-step").startswith("Step 2 of ")
    page.click("#replay-back")
    assert page.inner_text("#replay-step").startswith("Step 1 of ")
    _shot(page, "replay.png")
    # back to the finished table: a rematch seats the same people at a new table
    page.go_back()
    page.wait_for_selector("#rematch")
    page.click("#rematch")
    page.wait_for_function(f"() => !location.search.includes({json.dumps(table)})")
    page.wait_for_selector("#hand .hand-card, #start")
    # the lobby lists the name's finished games, with the replay
    page.goto(base_url)
    page.fill("#name", "Cy")
    page.wait_for_selector(f"#history a[href='/?replay={table}']")
    assert "lost" in page.inner_text("#history") or "won" in page.inner_text("#history")
    assert not errors, errors


def test_server_restart_shows_the_banner_and_the_table_comes_back(tmp_path: Path, browser: Browser) -> None:
    db, port = tmp_path / "restart.db", _free_port()
    server, thread = _serve(db, port)
    page = browser.new_page(viewport=DESKTOP)
    errors = _errors(page)
    try:
        page.goto(f"http://127.0.0.1:{port}")
        page.fill("#name", "Di")
        page.click("#quickplay")
        page.wait_for_selector("#hand .hand-card")
        while not page.locator("#stock.can").count():  # the bots play up to Di's draw
            if page.locator("#pass").count():
                _play_one_step(page, {"laid": 1, "mid": 1, "buy": 1})
            page.wait_for_timeout(50)
        hand, version = sorted(_hand(page)), _version(page)
        _stop(server, thread)
        page.wait_for_selector("#conn-banner:has-text('Reconnecting')")
        assert not page.locator("#stock.can").count(), "a move is offered while the socket is down"
        assert page.inner_text("#turn").strip() == "Reconnecting…"  # the top line says so (issue 24)
        _shot(page, "reconnect-banner.png")
        server, thread = _serve(db, port)  # a new server on the same store
        page.wait_for_selector("#conn-banner", state="detached", timeout=30_000)
        assert sorted(_hand(page)) == hand and _version(page) == version
        assert _play_one_step(page, {"laid": 1, "mid": 1, "buy": 1})  # and play goes on
        assert not errors, errors
    finally:
        _stop(server, thread)


# ---------------------------------------------------------------------------- hints and reviews
def _get(base_url: str, path: str) -> Any:
    with urllib.request.urlopen(f"{base_url}{path}", timeout=120) as res:
        return json.loads(res.read())


def _draw_when_my_turn(page: Page, deadline: float) -> None:
    """Play on (passing on buys, closing deal screens) until this seat has drawn on its turn."""
    while not page.locator("#stock.can").count():
        assert time.monotonic() < deadline, "the seat's turn to draw did not come"
        if page.locator("#next-deal").count():
            page.click("#next-deal")
        elif page.locator("#pass").count() or page.locator(".hand-card.can-discard").count():
            _play_one_step(page, {"laid": 1, "mid": 1, "buy": 1})
        else:
            page.wait_for_timeout(50)
    version = _version(page)
    page.click("#stock")
    _wait_change(page, version)
    page.wait_for_selector(".hand-card.can-discard")


def test_hint_highlights_the_suggested_cards_and_counts_down(base_url: str, browser: Browser) -> None:
    _, page, errors = _started_table_against_a_bot(base_url, browser, "1S/10,1S/10", "Hu")
    assert page.inner_text("#hint").endswith("(3 left this deal)")
    deadline = time.monotonic() + 120
    for left in (2, 1, 0):
        _draw_when_my_turn(page, deadline)
        deal = page.inner_text("#contract")
        version = _version(page)
        page.keyboard.press("h")  # the key asks as the button does
        page.wait_for_selector("#hint-box")
        assert _version(page) == version and page.inner_text("#contract") == deal  # the same decision
        text = page.inner_text("#hint-text")
        hinted = page.locator("#hand .hand-card.hinted").evaluate_all("els => els.map(e => e.dataset.card)")
        # after the draw every move plays cards of the hand: they are highlighted, and the reason
        # names them (e.g. "Discard the 8♦, ...")
        assert hinted, f"no card highlighted for the hint {text!r}"
        suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
        named = ["JK" if c == "JK" else c[:-1] + suits[c[-1]] for c in hinted]
        assert any(c in text or (c == "JK" and "joker" in text) for c in named), (text, hinted)
        label = page.inner_text("#hint")
        if left:
            assert label.endswith(f"({left} left this deal)") and page.is_enabled("#hint")
        else:
            assert "No hints left this deal" in label and not page.is_enabled("#hint")
        if left == 2:
            _shot(page, "hint.png")
            page.set_viewport_size(PHONE)  # the hint on a phone: the page still fits its width
            page.wait_for_timeout(300)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"the hint makes the phone layout scroll sideways ({width}px)"
            _shot(page, "hint-phone.png")
            page.set_viewport_size(DESKTOP)
        # play the suggestion with its button: the highlighted card leaves the hand
        before = len(_hand(page))
        page.click("#play-hint")
        _wait_change(page, version)
        page.wait_for_function("(n) => document.querySelectorAll('#hand .hand-card').length < n", arg=before)
        assert not page.locator("#hint-box").count()  # the hint was for that decision only
    assert not errors, errors


def test_no_hint_button_when_hints_are_off_and_no_count_when_unlimited(base_url: str, browser: Browser) -> None:
    _, page, errors = _started_table_against_a_bot(base_url, browser, "1S/10", "Of", hints="off")
    page.wait_for_selector("#sort-suit")
    assert not page.locator("#hint").count()
    page.keyboard.press("h")  # the key asks for nothing either
    page.wait_for_timeout(300)
    assert not page.locator("#hint-box, #server-error").count()
    page.context.close()
    _, page, errors2 = _started_table_against_a_bot(base_url, browser, "1S/10", "Un", hints="unlimited")
    page.wait_for_selector("#hint")
    assert page.inner_text("#hint") == "Hint (unlimited)"
    assert not errors and not errors2, errors + errors2


def test_review_page_after_the_game_steps_through_the_decisions(base_url: str, browser: Browser) -> None:
    table, page, errors = _started_table_against_a_bot(base_url, browser, "1S/10", "Re")
    # a few poor moves first (pairs broken up in a deal whose contract is a set), then a bot plays
    # the seat to the end of the one-deal game
    deadline = time.monotonic() + 120
    for _ in range(3):
        _draw_when_my_turn(page, deadline)
        version, hand = _version(page), _hand(page)
        paired = [c for c in hand if c != "JK" and sum(x[:-1] == c[:-1] for x in hand) >= 2]
        page.locator(f"#hand .hand-card.can-discard[data-card='{(paired or hand)[0]}']").first.dblclick()
        _wait_change(page, version)
    page.click("#autoplay")
    page.wait_for_selector("#game-end", timeout=60_000)
    # the review request is held back a while, so the page's waiting state is seen for sure
    held: list[str] = []

    def slow(route: Any) -> None:
        held.append(route.request.url)
        page.wait_for_timeout(1500)
        route.continue_()

    page.route("**/api/tables/*/review/*", slow)
    page.click("#review-game")
    page.wait_for_selector("#review-wait")
    assert "rating every decision" in page.inner_text("#review-wait")
    page.wait_for_function("() => /Waiting for [1-9]/.test(document.querySelector('#review-wait').innerText)")
    _shot(page, "review-waiting.png")
    page.wait_for_selector("#review-decision", timeout=120_000)
    assert held and held[0].endswith(f"/api/tables/{table}/review/0")
    assert f"review={table}" in page.url and "seat=0" in page.url
    data = _get(base_url, f"/api/tables/{table}/review/0")
    assert data["cached"]  # the page's request made it; this one reads it from the store
    decisions = data["review"]["decisions"]
    total = len(decisions)
    assert total >= 3
    summary = page.inner_text("#review-summary")
    for verdict, n in data["review"]["summary"]["by_verdict"].items():
        assert f"{verdict.capitalize()} {n}" in summary

    def shown(k: int) -> None:
        """The page shows decision k of the review: its place, verdict, move and hand."""
        d = decisions[k]
        assert page.inner_text("#review-pos") == f"Decision {k + 1} of {total}"
        assert page.get_attribute(".review-page", "data-decision") == str(d["index"])
        head = page.inner_text("#review-decision h2")
        assert f"Deal {d['deal']}, turn {d['turn']}" in head and d["verdict"].capitalize() in head
        assert page.inner_text("#review-taken") == d["taken_words"]
        assert page.inner_text("#review-loss") == f"{d['loss']:.1f}"
        cards = page.locator("#review-hand .review-card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(cards) == sorted(d["hand"])

    shown(0)
    assert page.is_disabled("#review-prev")
    page.click("#review-next")
    shown(1)
    page.keyboard.press("ArrowRight")
    shown(2)
    page.keyboard.press("ArrowLeft")
    shown(1)
    # a decision where a better move was found: it is named and shown on the cards
    k = next(
        i
        for i, d in enumerate(decisions)
        if d["taken"] != d["best"] and d["best"]["type"] in {"discard", "draw_stock", "draw_discard", "meld", "lay_off"}
    )
    for _ in range(k - 1):
        page.keyboard.press("ArrowRight")
    shown(k)
    d = decisions[k]
    assert page.inner_text("#review-best") == d["best_words"]
    assert page.locator("#review-decision .better").count() >= 1
    if d["best"]["type"] in {"discard", "meld", "lay_off"}:
        better = page.locator("#review-hand .review-card.better").evaluate_all("els => els.map(e => e.dataset.card)")
        assert set(better) <= set(d["best"].get("cards") or [d["best"].get("card")]) and better
    _shot(page, "review.png")
    # the filter steps through the costly decisions only
    page.select_option("#review-filter", "bad")
    bad = [d for d in decisions if d["verdict"] in {"mistake", "blunder"}]
    if bad:
        assert page.inner_text("#review-pos") == f"Decision 1 of {len(bad)}"
        assert page.get_attribute(".review-page", "data-decision") == str(bad[0]["index"])
    # on a phone the page fits the screen's width (shown: the first decision that lost points)
    costly = [d for d in decisions if d["verdict"] in {"inaccuracy", "mistake", "blunder"}]
    page.select_option("#review-filter", "costly" if costly else "all")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the review page scrolls sideways on a phone ({width}px)"
    _shot(page, "review-phone.png")
    assert not errors, errors

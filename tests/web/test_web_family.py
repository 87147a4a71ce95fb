"""The family table in the browser (issue 24): two people and a bot at one table, played by
clicks in Debian's chromium against the real server (the fixtures and helpers of test_web.py).

- a whole deal in which one person's buy choice is "pass unless the card fits my contract": their
  page never waits for them on a discard that does not fit (the server passes for them);
- at the deal's end one person continues and the other lingers: nothing moves until they do.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from test_web import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    _errors,
    _free_port,
    _my_turn,
    _play_one_step,
    _post,
    _serve,
    _stop,
    _version,
)


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    port = _free_port()
    db = tmp_path_factory.mktemp("family") / "liverpool.db"
    server, thread = _serve(db, port)
    yield f"http://127.0.0.1:{port}", db
    _stop(server, thread)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _page(browser: Browser, base_url: str, table: str, token: str) -> Page:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(f"localStorage.setItem({json.dumps('liverpool.token.' + table)}, {json.dumps(token)})")
    page = context.new_page()
    page.goto(f"{base_url}/?table={table}")
    return page


def _table_of_two_people(base_url: str, browser: Browser) -> tuple[str, Page, Page]:
    made = _post(
        base_url,
        "/api/tables",
        {
            "players": 3,
            "options": {"schedule": "2S/10,1S/7"},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "medium"}],
            "name": "Ana",
            "hints": "off",
        },
    )
    table = made["table_id"]
    joined = _post(base_url, f"/api/tables/{table}/join", {"name": "Bo"})
    ana = _page(browser, base_url, table, made["token"])
    bo = _page(browser, base_url, table, joined["token"])
    return table, ana, bo


def test_a_paced_deal_of_two_people_fits_never_waits_and_the_deal_end_holds(
    family: tuple[str, Path], browser: Browser
) -> None:
    base_url, db = family
    table, ana, bo = _table_of_two_people(base_url, browser)
    errors = _errors(ana) + _errors(bo)
    # Ana chooses in the page (kept in her browser, sent on every connection) before the start
    ana.click("#buy-prefs summary")
    ana.select_option("#buy-mode", "fits")
    assert "Pass unless the card fits" in ana.inner_text("#buy-prefs summary")
    ana.click("#buy-prefs summary")
    ana.click("#start")
    for p in (ana, bo):
        p.wait_for_selector("#hand .hand-card")
    assert "Pass unless the card fits" in ana.inner_text("#buy-prefs summary")  # the table's page too
    shots: dict[str, int] = {"laid": 0, "mid": 1, "buy": 1}
    deadline = time.monotonic() + 300
    while not (ana.locator("#deal-end").count() and bo.locator("#deal-end").count()):
        assert time.monotonic() < deadline, "the deal did not end in 5 minutes"
        moved = False
        for p in (ana, bo):
            if p.locator("#deal-end").count():
                continue
            if p is ana and ana.locator("#pass").count():
                # Ana is asked only about a card that fits her contract: the others are passed for her
                note = ana.locator("#auto-buy")
                assert note.count() and "fits your contract" in note.inner_text(), ana.inner_text("#buy-window")
            p.bring_to_front()
            shots["laid"] = 0 if p is ana else 1  # Ana lays down when she can; Bo just plays on
            moved = _play_one_step(p, shots) or moved
        if not moved:
            time.sleep(0.05)
    with sqlite3.connect(db) as c:
        sources = [r[0] for r in c.execute("SELECT source FROM actions WHERE table_id = ? AND seat = 0", (table,))]
    assert sources.count("auto") >= 1, sources  # buy windows Ana's choice answered at once

    # the deal is over: Ana continues, Bo lingers on the scores; nothing moves meanwhile
    ana.click("#next-deal")
    ana.wait_for_selector("#deal-end", state="detached")
    held = (_version(ana), _version(bo))
    ana.wait_for_selector("#pause-note:has-text('Waiting for Bo')")
    assert "Deal 2 of 2" in ana.inner_text("#contract")
    time.sleep(3.0)
    assert (_version(ana), _version(bo)) == held, "the table moved behind Bo's deal-end screen"
    assert not ana.locator("#stock.can, .hand-card.can-discard, #discard-pile.can").count()
    assert bo.locator("#deal-end").count()
    assert "waits for you" in bo.inner_text("#pause-note")
    # Bo reloads the page: the table still waits for him, and his deal-end screen is back
    bo.reload()
    bo.wait_for_selector("#deal-end #next-deal")
    time.sleep(1.0)
    assert (_version(ana), _version(bo)) == held, "the table moved after Bo's reload"
    assert "waits for you" in bo.inner_text("#pause-note")
    bo.click("#next-deal")
    # play goes on: someone may act (or the bot has acted)
    for p in (ana, bo):
        p.wait_for_function(
            """(v) => document.querySelector('.table-page').dataset.version !== v
                     || !!document.querySelector('#stock.can, #discard-pile.can')""",
            arg=held[0],
            timeout=15_000,
        )
    assert not errors, errors


def test_chat_both_ways_markup_shown_as_text_and_a_mute(family: tuple[str, Path], browser: Browser) -> None:
    base_url, _db = family
    _table, ana, bo = _table_of_two_people(base_url, browser)
    errors = _errors(ana) + _errors(bo)
    ana.click("#start")
    for p in (ana, bo):
        p.wait_for_selector("#hand .hand-card")
    # the table's own lines: who joined
    ana.wait_for_selector("#chat-lines li.chat-system:has-text('Bo joined the table.')")
    markup = "<b>hi</b> & <img src=x onerror=alert(1)> Bo"
    ana.fill("#chat-input", markup)
    ana.press("#chat-input", "Enter")
    line = bo.locator("#chat-lines li.chat-say").last
    line.wait_for()
    assert line.inner_text() == f"Ana: {markup}"
    assert not bo.locator("#chat-lines b, #chat-lines img").count()  # text, never markup
    bo.fill("#chat-input", "Hello Ana, good luck")
    bo.click("#chat-send")
    ana.wait_for_selector("#chat-lines li.chat-say:has-text('Hello Ana, good luck')")
    assert ana.locator("#chat-lines li.chat-say").last.inner_text() == "Bo: Hello Ana, good luck"
    ana.screenshot(path=str(ARTIFACTS / "chat.png"))
    # Ana mutes Bo: his next line does not show on her page (it does on his)
    ana.click("#chat .chat-mutes summary")
    ana.check("#chat input[data-mute='seat:1']")
    bo.fill("#chat-input", "you cannot hear me")
    bo.click("#chat-send")
    bo.wait_for_selector("#chat-lines li.chat-say:has-text('you cannot hear me')")
    ana.fill("#chat-input", "still here")
    ana.click("#chat-send")
    ana.wait_for_selector("#chat-lines li.chat-say:has-text('still here')")
    assert "you cannot hear me" not in ana.inner_text("#chat-lines")
    # the mute is the server's, for Ana's seat: after a reload Bo's line is still not sent to her
    ana.reload()
    ana.wait_for_selector("#chat-lines li.chat-say:has-text('still here')")
    assert "you cannot hear me" not in ana.inner_text("#chat-lines")
    ana.click("#chat .chat-mutes summary")
    assert ana.is_checked("#chat input[data-mute='seat:1']")  # listed (to unmute) though none of his lines is
    # a reload brings the chat back from the server (kept in the store with the game)
    bo.reload()
    bo.wait_for_selector("#chat-lines li.chat-say:has-text('still here')")
    assert bo.locator("#chat-lines li.chat-say").first.inner_text() == f"Ana: {markup}"
    assert not errors, errors


def test_the_spectators_page_never_holds_a_hidden_card(family: tuple[str, Path], browser: Browser) -> None:
    base_url, _db = family
    made = _post(
        base_url,
        "/api/tables",
        {
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "easy"}],
            "name": "Ana",
            "chat": "everyone",
        },
    )
    table = made["table_id"]
    ana = _page(browser, base_url, table, made["token"])
    errors = _errors(ana)
    watch_url = ana.locator("#watch-url").get_attribute("href")
    assert watch_url == f"/?watch={table}" or watch_url == f"{base_url}/?watch={table}", watch_url
    spectator = browser.new_context(viewport=DESKTOP).new_page()
    errors += _errors(spectator)
    frames: list[dict[str, Any]] = []
    spectator.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))),
    )
    spectator.goto(f"{base_url}/?watch={table}")
    spectator.wait_for_selector("text=The game has not started yet")
    ana.click("#start")
    ana.wait_for_selector("#hand .hand-card")
    spectator.wait_for_selector("#watching")
    shots = {"laid": 0, "mid": 1, "buy": 1}
    for _ in range(12):  # Ana plays a few turns; the spectator follows them live
        deadline = time.monotonic() + 30
        while not _play_one_step(ana, shots):
            assert time.monotonic() < deadline, "Ana had nothing to do for 30 s"
            if ana.locator("#deal-end, #game-end").count():
                break
            time.sleep(0.05)
    # Ana's draw: the table waits for her, so both pages settle on the same version (if a bot went
    # out within her few turns, the deal-end pause waits for her instead: she goes on to the next deal)
    ana.wait_for_selector("#stock.can, #deal-end #next-deal", timeout=60_000)
    if ana.locator("#deal-end #next-deal").count():
        ana.click("#deal-end #next-deal")
        ana.wait_for_selector("#stock.can", timeout=60_000)
    ana.wait_for_timeout(300)
    spectator.wait_for_function("(v) => document.querySelector('.table-page').dataset.version === v", arg=_version(ana))
    assert "Ana" in spectator.inner_text(".seats-row") and "Bea (medium bot)" in spectator.inner_text(".seats-row")
    assert spectator.inner_text("#log") == ana.inner_text("#log")  # the same public moves, in the same words
    # no hand, no hint, no move on the page
    assert not spectator.locator("#hand, .hand-card, #hint, #stock.can, #buy, #pass").count()
    # and none in what the server sent it: every view's hand empty, every legal list empty
    states = [f for f in frames if f.get("type") in ("hello", "state")]
    assert len(states) > 5
    for f in states:
        assert f["legal"] == [] and f.get("hints_left") is None and f.get("seat") is None
        if f.get("view"):
            assert f["view"].get("hand", []) == [] and f["view"].get("player") is None
    # a spectator may talk where the table allows it
    spectator.fill("#chat-input", "go Ana!")
    spectator.click("#chat-send")
    ana.wait_for_selector("#chat-lines li.chat-say:has-text('go Ana!')")
    spectator.wait_for_timeout(500)
    spectator.screenshot(path=str(ARTIFACTS / "spectator.png"))
    assert not errors, errors


def test_a_background_tab_says_it_is_your_turn_in_its_title(family: tuple[str, Path], browser: Browser) -> None:
    base_url, _db = family
    made = _post(
        base_url,
        "/api/tables",
        {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], "name": "Ana", "hints": "off"},
    )
    table = made["table_id"]
    ana = _page(browser, base_url, table, made["token"])
    errors = _errors(ana)
    ana.click("#start")
    ana.wait_for_selector("#hand .hand-card")
    assert ana.title() == "Liverpool Rummy"
    # headless chromium keeps every tab visible (bring_to_front and a minimized window change
    # nothing): the tab goes to the background as the browser does it, by its document's
    # visibility and the visibilitychange event
    background = """(hidden) => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
        const state = hidden ? "hidden" : "visible";
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
        document.dispatchEvent(new Event("visibilitychange"));
    }"""
    ana.evaluate(background, True)
    # her decision comes (it may be hers at once, or after the bot's move): the title says so
    ana.wait_for_function("() => document.title === '● Your turn — Liverpool'", timeout=30_000)
    assert ana.locator("link[rel='icon']").get_attribute("href") != "data:,"  # the favicon too
    ana.evaluate(background, False)
    ana.wait_for_function("() => document.title === 'Liverpool Rummy'", timeout=10_000)
    assert ana.locator("link[rel='icon']").get_attribute("href") == "data:,"
    # a tab in front never changes its title, also on its turn
    assert _my_turn(ana) or ana.wait_for_function(
        "() => { const t = document.querySelector('.table-page'); return t.dataset.seat === t.dataset.current; }",
        timeout=30_000,
    )
    assert ana.title() == "Liverpool Rummy"
    assert not errors, errors


def test_a_missing_table_or_invite_says_so_and_offers_the_lobby(family: tuple[str, Path], browser: Browser) -> None:
    base_url, _db = family
    page = browser.new_page(viewport=DESKTOP)
    errors = _errors(page)
    page.goto(f"{base_url}/?table=NoSuch1")
    page.wait_for_selector("#no-seat:has-text('There is no table NoSuch1.')")
    page.goto(f"{base_url}/?join=NoSuch2")
    page.wait_for_selector("#no-table:has-text('There is no table NoSuch2.')")
    assert not page.locator("#join, #join-name").count()  # no seat to take at a table that does not exist
    page.click("#to-lobby")
    page.wait_for_selector("#quickplay")
    # a started table's invite says it has no free seat and offers to watch it
    made = _post(base_url, "/api/tables", {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
    _post(base_url, f"/api/tables/{made['table_id']}/start", {}, made["token"])
    page.goto(f"{base_url}/?join={made['table_id']}")
    page.wait_for_selector("text=The game has already started.")
    assert not page.locator("#join").count()
    page.click("#watch-instead")
    page.wait_for_selector("#watching")
    assert not errors, errors


def test_the_replay_has_a_move_list_by_deal_and_turn_and_steps_by_turn(
    family: tuple[str, Path], browser: Browser
) -> None:
    base_url, _db = family
    made = _post(
        base_url,
        "/api/tables",
        {
            "players": 3,
            "options": {"schedule": "1S/7,1S/7"},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}],
            "name": "Ana",
            "hints": "off",
        },
    )
    table = made["table_id"]
    page = _page(browser, base_url, table, made["token"])
    errors = _errors(page)
    page.click("#start")
    page.wait_for_selector("#autoplay")
    page.click("#autoplay")  # a bot plays Ana's seat: the two deals go by
    page.wait_for_selector("#game-end", timeout=120_000)
    page.goto(f"{base_url}/?replay={table}")
    page.wait_for_selector("#replay-moves .move")
    assert page.inner_text("#replay-place") == "as dealt"
    assert page.locator("#replay-deal option").all_inner_texts() == ["1", "2"]
    # the move list of deal 1: turns with the player's name, each with its moves in words
    heads = page.locator("#replay-moves .turn-head").all_inner_texts()
    assert heads[0].startswith("Turn 1 · ") and heads[1].startswith("Turn 2 · ")
    assert any("Bea (easy bot)" in h for h in heads) and any("Cal (medium bot)" in h for h in heads)
    # by move, by turn, by keys
    page.click("#replay-forward")
    assert page.inner_text("#replay-place") == "deal 1, turn 1"
    page.click("#replay-next-turn")
    assert page.inner_text("#replay-place") == "deal 1, turn 2"
    step = int(page.get_attribute(".replay", "data-step") or "0")
    page.keyboard.press("ArrowDown")
    assert page.inner_text("#replay-place") == "deal 1, turn 3"
    page.keyboard.press("ArrowUp")
    assert page.inner_text("#replay-place") == "deal 1, turn 2"
    assert int(page.get_attribute(".replay", "data-step") or "0") == step
    page.keyboard.press("ArrowRight")
    assert int(page.get_attribute(".replay", "data-step") or "0") == step + 1
    # a move of the list jumps to it, and the current move is marked
    target = page.locator("#replay-moves .move-jump").nth(5)
    wanted = int(target.get_attribute("data-step") or "0")
    target.click()
    assert int(page.get_attribute(".replay", "data-step") or "0") == wanted
    assert page.locator("#replay-moves .move.current .move-jump").get_attribute("data-step") == str(wanted)
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / "replay-moves.png"))
    # the jump to deal 2, and Page Up back to deal 1
    page.select_option("#replay-deal", "2")
    assert page.inner_text("#replay-place").startswith("deal 2, turn ")
    assert "deal 2 of 2" in page.inner_text(".contract") or "Moves of deal 2" in page.inner_text(".move-list-side")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("PageUp")  # back to the start of deal 2, then to the start of deal 1
    assert page.inner_text("#replay-place") == "deal 2, turn 1"
    page.keyboard.press("PageUp")
    assert page.inner_text("#replay-place") == "as dealt"
    page.keyboard.press("End")
    assert page.inner_text("#replay-step").startswith("Step ") and page.inner_text("#replay-place").startswith("deal 2")
    assert not errors, errors

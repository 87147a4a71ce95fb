"""The terminal app (issue 14), driven by Textual's pilot: keystrokes against bots."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import RichLog
from tui_helpers import choose_by_keys, human_to_act, play_turn_by_keys, screen_text, to_my_play_phase, until

from liverpool.actions import Buy, Discard, LayOff, Meld, SwapJoker
from liverpool.bots import get
from liverpool.cards import parse_card
from liverpool.describe import describe_action
from liverpool.game import Game, IllegalAction
from liverpool.rules import RuleSet
from liverpool.solver import find_contract
from liverpool.tui.app import SLOT, HandView, LiverpoolApp
from liverpool.tui.screens import ChooseScreen, DealEndScreen, GameEndScreen, QuitScreen
from liverpool.tui.session import LocalSession


def make_app(tmp_path: Path, seed: int = 3, players: int = 4, **kwargs: object) -> LiverpoolApp:
    session = LocalSession.new(players=players, bots="medium", seed=seed, name="Ana", data_dir=tmp_path)
    return LiverpoolApp(session, delay=0, buy_seconds=1000, **kwargs)  # type: ignore[arg-type]


def test_a_whole_deal_by_keystrokes_reaches_the_deal_end_screen(tmp_path: Path) -> None:
    asyncio.run(_whole_deal(tmp_path))


async def _whole_deal(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await until(pilot, lambda: human_to_act(app) or isinstance(app.screen, DealEndScreen))
            if isinstance(app.screen, DealEndScreen):
                break
            await play_turn_by_keys(pilot, app)
        assert isinstance(app.screen, DealEndScreen)
        # every hand revealed and the score table
        game = app.game
        assert len(game.deal_scores) == 1
        await until(pilot, lambda: "total" in screen_text(app))  # the screen is pushed before it is composed
        text = screen_text(app)
        for name in app.session.names:
            assert name in text
        assert "total" in text
        # the human's own moves are in the log, in words
        log = "\n".join(line.text for line in app.query_one(RichLog).lines)
        assert re.search(r"^Ana drew the \S+ from the stock$", log, flags=re.M)  # the card drawn, named to its owner
        assert "Ana discarded the " in log
        await pilot.press("enter")
        await until(pilot, lambda: not app.modal_open())
        assert game.view(0)["deal"] == 2


def test_a_lay_down_built_card_by_card_with_an_invalid_meld_refused(tmp_path: Path) -> None:
    asyncio.run(_lay_down(tmp_path))


async def _lay_down(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=27)  # at its first turn the human holds 6♠ 6♠ 6♣ and 10♠ 10♥ 10♣
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_play_phase(pilot, app)
        game = app.game
        assert isinstance(game, Game)  # a local game (a server's table has no copy)
        contract = find_contract(game.hand(0), 1, game.rules)
        assert contract is not None
        first, second = (list(m) for m in contract)
        # an invalid meld: three cards of different ranks, refused with the engine's reason
        spare = [c for c in app.query_one(HandView).cards if c not in first + second]
        bad = next(
            trio
            for trio in itertools.combinations(spare, 3)
            if len({c.rank for c in trio}) == 3 and not game.copy().can_apply(Meld(0, "run", trio))
        )
        with pytest.raises(IllegalAction) as refused:
            game.copy().verify(Meld(0, "run", bad))
        version = game.version
        await choose_by_keys(pilot, app, bad)
        await pilot.press("m")
        assert app.staged == [] and game.version == version
        assert app.message is not None
        assert app.message.plain == f"Not a meld of your contract: {refused.value}"
        assert "Not a meld of your contract" in screen_text(app)
        await pilot.press("escape")
        assert app.query_one(HandView).chosen == []
        # the contract, card by card: the staging line checks each choice as it grows
        await choose_by_keys(pilot, app, first[:2])
        assert "not a meld yet" in screen_text(app)
        await choose_by_keys(pilot, app, first[2:])
        assert "a valid set" in screen_text(app)
        await pilot.press("m")
        assert [list(m.cards) for m in app.staged] == [first]
        assert not game.view(0)["down"][0]  # staged in the app, not yet on the table
        await choose_by_keys(pilot, app, second)
        await pilot.press("m")
        assert "make your contract" in screen_text(app)
        await pilot.press("enter")
        view = game.view(0)
        assert view["down"][0]
        assert sorted(tuple(m["cards"]) for m in view["melds"] if m["owner"] == 0) == sorted(
            tuple(str(c) for c in m) for m in (first, second)
        )
        assert "Ana is down" in screen_text(app)


def test_the_solver_suggestion_fills_the_staging(tmp_path: Path) -> None:
    asyncio.run(_suggestion(tmp_path))


async def _suggestion(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=2)  # a contract with a joker
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_play_phase(pilot, app)
        await pilot.press("f")
        assert len(app.staged) == 2 and app.staged_complete()
        await pilot.press("escape")
        assert app.staged == []
        await pilot.press("f", "enter")
        assert app.game.view(0)["down"][0]


def test_a_buy_taken_in_the_out_of_turn_window(tmp_path: Path) -> None:
    asyncio.run(_buy(tmp_path))


async def _buy(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=6)  # the human may buy the first upcard, and gets it
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.prompt_deadline is not None)
        game = app.game
        seat, legal = app.session.to_act()
        assert seat == 0 and game.current != 0
        assert any(isinstance(a, Buy) for a in legal)
        top = game.view(0)["discard_pile"][-1]
        text = screen_text(app)
        assert "Out of turn: [b] buy the" in text and "passing in" in text
        version = game.version
        await pilot.press("b")
        # the key asks to buy at once: the request is the very next action (events carry the version)
        assert {"type": "buy_request", "player": 0, "deal": 1, "version": version + 1} in game.events
        await until(pilot, lambda: any(e["type"] == "buy" for e in game.events))
        bought = next(e for e in game.events if e["type"] == "buy")
        assert bought["player"] == 0 and bought["card"] == top
        assert len(game.hand(0)) == 10 + 1 + bought["penalty"]
        log = "\n".join(line.text for line in app.query_one(RichLog).lines)
        assert f"Ana bought the {parse_card(top).pretty()} and 1 penalty card" in log
        assert app.query_one(HandView).fresh  # the bought cards are marked


def test_the_out_of_turn_prompt_passes_when_it_closes(tmp_path: Path) -> None:
    asyncio.run(_prompt_closes(tmp_path))


async def _prompt_closes(tmp_path: Path) -> None:
    session = LocalSession.new(players=4, bots="medium", seed=3, name="Ana", data_dir=tmp_path)
    app = LiverpoolApp(session, delay=0, buy_seconds=0)  # the window closes at once
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.game
        await until(pilot, lambda: any(e.get("player") == 0 for e in game.events))
        first = next(e for e in game.events if e.get("player") == 0)
        assert first["type"] == "pass"  # never a buy the player did not ask for


def test_keys_out_of_turn_do_nothing_and_say_why(tmp_path: Path) -> None:
    asyncio.run(_not_my_turn(tmp_path))


async def _not_my_turn(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.prompt_deadline is not None)
        version = app.game.version
        await pilot.press("s", "x", "m")
        assert app.game.version == version
        await pilot.press("n")
        assert app.game.version > version
        first = next(e for e in app.game.events if e.get("player") == 0)
        assert first == {"type": "pass", "player": 0, "deal": 1, "version": version + 1}  # the next action


def test_quit_asks_first_and_the_game_resumes(tmp_path: Path) -> None:
    asyncio.run(_quit_and_resume(tmp_path))


async def _quit_and_resume(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6):
            await until(pilot, lambda: human_to_act(app))
            await play_turn_by_keys(pilot, app)
        await until(pilot, lambda: human_to_act(app))
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("q")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)
    record = app.game.record()
    hand = app.game.hand(0)
    save = tmp_path / "save.json"
    assert json.loads(save.read_text())["record"] == record
    assert "liverpool play --resume" in app.quit_reason
    # resume: the same game, the same seats, and it plays on
    resumed = LocalSession.resume(save)
    assert resumed.game.record() == record and resumed.names == app.session.names
    app2 = LiverpoolApp(resumed, delay=0, buy_seconds=1000)
    async with app2.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: human_to_act(app2))
        assert app2.game.hand(0) == hand or app2.game.version > len(record["actions"])
        assert sorted(app2.query_one(HandView).cards) == sorted(app2.game.hand(0))
        version = app2.game.version
        await play_turn_by_keys(pilot, app2)
        assert app2.game.version > version
        await pilot.press("ctrl+c")  # saves and leaves at once, no question
        await until(pilot, lambda: not app2.is_running)
    again = LocalSession.resume(save)
    assert again.game.version == app2.game.version


def test_a_saved_game_that_is_missing_or_broken_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no saved game"):
        LocalSession.resume(tmp_path / "save.json")
    (tmp_path / "save.json").write_text("{}")
    with pytest.raises(ValueError, match="not a saved game"):
        LocalSession.resume(tmp_path / "save.json")


def test_the_game_end_screen_names_the_winner_and_the_record_file(tmp_path: Path) -> None:
    asyncio.run(_game_end(tmp_path))


async def _game_end(tmp_path: Path) -> None:
    rules = RuleSet.preset("liverpool").with_options(schedule="2S/10")  # a one-deal game
    session = LocalSession.new(players=3, rules=rules, bots="medium", seed=5, name="Ana", data_dir=tmp_path)
    app = LiverpoolApp(session, delay=0, buy_seconds=1000)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await until(pilot, lambda: human_to_act(app) or app.modal_open())
            if app.modal_open():
                break
            await play_turn_by_keys(pilot, app)
        assert isinstance(app.screen, DealEndScreen)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen))
        game = app.game
        assert game.is_over
        text = screen_text(app)
        winner = " and ".join(session.names[w] for w in game.winners)
        assert f"Game over: {winner} win" in text
        path = session.record_path
        assert path is not None and path.parent == tmp_path / "games"
        assert path.name in text.replace(" ", "") or str(path) in text
        record = json.loads(path.read_text())
        assert Game.from_record(record).scores == game.scores
        assert record["names"] == session.names
        assert not (tmp_path / "save.json").exists()  # a finished game is no longer saved
        await pilot.press("enter")
        await until(pilot, lambda: not app.is_running)


def test_watching_bots_pauses_and_goes_on(tmp_path: Path) -> None:
    asyncio.run(_watch(tmp_path))


async def _watch(tmp_path: Path) -> None:
    session = LocalSession.new(players=3, bots=["hard", "easy"], seed=8, watch=True, data_dir=tmp_path)
    assert session.names == ["Ana (hard)", "Bo (easy)", "Cy (easy)"]  # difficulty names shown as such
    session.bots[0] = get("medium", seed=1)  # the search bot is slow: its seat plays greedily here
    app = LiverpoolApp(session, delay=0, auto_deal_end=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.game.version > 20)
        await pilot.press("p")
        await until(pilot, lambda: not app.busy)
        version = app.game.version
        for _ in range(50):
            await pilot.pause(0.002)
        assert app.game.version == version
        assert "PAUSED" in screen_text(app) and "Watching" in screen_text(app)
        await pilot.press("space")  # space pauses too when watching
        await until(pilot, lambda: app.game.version > version + 20)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)
    assert not (tmp_path / "save.json").exists()  # watching saves nothing


def test_lay_off_marks_the_melds_a_card_fits_and_a_callable_discard_is_warned(tmp_path: Path) -> None:
    asyncio.run(_lay_off(tmp_path))


async def _lay_off(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=4)  # down at the first turn; at the second, cards fit melds
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.game
        for _ in range(2):
            await to_my_play_phase(pilot, app)
            if game.view(0)["down"][0]:
                break
            await play_turn_by_keys(pilot, app)
        await play_turn_by_keys(pilot, app)  # discard: the turn after going down
        await to_my_play_phase(pilot, app)
        legal = game.legal_actions(0)
        discards = {a.card for a in legal if isinstance(a, Discard)}
        fits = [a for a in legal if isinstance(a, LayOff) and a.card in discards]
        assert fits
        card = fits[0].card
        hand = app.query_one(HandView)
        while hand.current != card:
            await pilot.press("right")
        assert app.fitting_melds() == {a.meld for a in fits if a.card == card}
        assert "◆" in screen_text(app)
        # R32: the card fits a meld, so another player may call it (R33): warned first
        version = game.version
        await pilot.press("x")
        assert game.version == version
        assert "may call it and you take it back with a penalty card (R32, R33)" in " ".join(screen_text(app).split())
        # lay it off instead
        await pilot.press("o")
        if isinstance(app.screen, ChooseScreen):
            await pilot.press("enter")
        laid = [e for e in game.events[-3:] if e["type"] == "lay_off"]
        assert laid and laid[0]["player"] == 0 and laid[0]["card"] == str(card)
        assert f"Ana laid off the {card.pretty()} on " in "\n".join(line.text for line in app.query_one(RichLog).lines)


def test_cards_are_chosen_with_the_mouse_too(tmp_path: Path) -> None:
    asyncio.run(_mouse(tmp_path))


async def _mouse(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=27)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_play_phase(pilot, app)
        hand = app.query_one(HandView)
        # the third card of the first row: each card takes five cells, the row under the title
        assert await pilot.click(HandView, offset=(1 + 2 * SLOT + 1, 1))
        assert hand.chosen == [2] and hand.cursor == 2
        assert await pilot.click(HandView, offset=(1 + 2 * SLOT + 1, 1))
        assert hand.chosen == []


def test_a_joker_swap_is_described_in_words() -> None:
    names = ["Ana", "Bo (medium)"]
    melds = [{"id": 3, "owner": 1, "kind": "run", "cards": ["5H", "6H", "JK", "8H"]}]
    text = describe_action(SwapJoker(0, 3, 2, parse_card("7H")), {"melds": melds}, names)
    assert text == (
        "put your 7♥ in place of the joker in Bo (medium)'s run 5♥ 6♥ JK 8♥; "
        "the joker comes to your hand and must be played this turn"
    )


def test_a_meld_the_app_builds_names_a_sets_cards_in_card_order(tmp_path: Path) -> None:
    # the engine lists (and so shows) a set's cards in card order; a set the app builds from the
    # player's choice follows it, a run keeps the order that places its wild cards
    app = make_app(tmp_path)
    chosen = [parse_card(t) for t in ("10C", "JK", "10H", "10S")]
    meld = app.new_meld("set", chosen)
    assert meld == Meld(0, "set", tuple(parse_card(t) for t in ("JK", "10S", "10H", "10C")))
    assert list(meld.cards) == sorted(chosen) and list(meld.cards) != chosen
    run = [parse_card(t) for t in ("5H", "JK", "7H", "8H")]
    assert app.new_meld("run", run).cards == tuple(run)


def test_levels_per_player_show_the_seats_own_level_and_contract(tmp_path: Path) -> None:
    """Issue 16, ``progression="player"``: the status line names the seat's level, and the solver's
    suggestion (key f) lays the seat's own contract, with lengths per meld."""
    asyncio.run(_levels(tmp_path))


async def _levels(tmp_path: Path) -> None:
    rules = RuleSet().with_options(schedule="2S/10,1S1R[5]/11", progression="player")
    session = LocalSession.new(players=4, rules=rules, bots="medium", seed=2, name="Ana", data_dir=tmp_path)
    app = LiverpoolApp(session, delay=0, buy_seconds=1000)
    async with app.run_test(size=(100, 30)) as pilot:
        await to_my_play_phase(pilot, app)
        text = screen_text(app)
        assert "Deal 1 of 6, your level 1: 2 sets" in text, text
        game = app.game
        assert isinstance(game, Game)
        # as after going down in an earlier deal: the same position with seat 0 at level 2
        text = game.position()
        assert "\nlevels 1 1 1 1\n" in text
        assert app.session is session
        session.game = Game.from_position(text.replace("\nlevels 1 1 1 1\n", "\nlevels 2 1 1 1\n"))
        app.refresh_view()
        await pilot.pause()
        assert "your level 2: 1 set + 1 run of 5+" in screen_text(app)


def _swap_session(tmp_path: Path, hand: str) -> LocalSession:
    """Ana to play (drawn already, not down) against Bo, who is down with a run holding a joker
    that Ana's 7♥ stands for (one deal of 1 set + 1 run)."""
    from rules_helpers import position

    rules = RuleSet.preset("liverpool").with_options(schedule="1S1R/10")
    game = position(
        rules,
        hands=[hand, "8D 3S 9C"],
        melds=[(1, "run", "5H 6H JK 8H"), (1, "set", "QH QD QC")],
        down=[1],
        phase="play",
        discard="AH",
    )
    return LocalSession(game=game, names=["Ana", "Bo (medium)"], kinds=[None, "medium"], human=0, data=tmp_path)


def test_a_joker_swap_is_offered_only_when_it_lets_the_player_go_down_and_u_undoes_it(tmp_path: Path) -> None:
    asyncio.run(_swap_flow(tmp_path))


async def _swap_flow(tmp_path: Path) -> None:
    # nothing in this hand makes the contract even with the joker: the engine lists the swap, the
    # app does not offer it (the joker would have to be played this turn, R20)
    session = _swap_session(tmp_path, "7H 2S 9D KC 3C QS JH 4D 10S 6C 2D")
    assert any(isinstance(a, SwapJoker) for a in session.game.legal_actions(0))
    app = LiverpoolApp(session, delay=0, buy_seconds=1000)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        assert not app.modal_open()
        assert app.message is not None and "would not let you go down" in app.message.plain
    # with the joker this hand makes 9♠ 9♦ JK and 2♣ 3♣ 4♣ 5♣: the swap is offered; after it `x`
    # says what is owed and `u` undoes it
    session = _swap_session(tmp_path, "7H 9S 9D 2C 3C 4C 5C KD QS JH 4D")
    app = LiverpoolApp(session, delay=0, buy_seconds=1000)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("enter")
        await until(pilot, lambda: not app.modal_open())
        assert parse_card("JK") in app.game.hand(0) and parse_card("7H") not in app.game.hand(0)
        assert "[u] undo the swap" in screen_text(app)
        await pilot.press("x")
        assert app.message is not None and "[u] undoes the swap" in app.message.plain
        await pilot.press("u")
        assert parse_card("7H") in app.game.hand(0) and parse_card("JK") not in app.game.hand(0)
        assert any(isinstance(a, Discard) for a in app.game.legal_actions(0))
        await pilot.press("u")
        assert app.message is not None and "no joker swap to undo" in app.message.plain


def test_the_prompt_does_not_invite_a_draw_while_the_others_may_still_buy(tmp_path: Path) -> None:
    asyncio.run(_no_draw_invite(tmp_path))


async def _no_draw_invite(tmp_path: Path) -> None:
    from rules_helpers import position

    # Ana is to draw; Bo (seat 2) may still buy Cy's 9♣ first: the engine asks Bo before Ana
    game = position(
        hands=["7H 2S 9D KC 3C QS JH 4D 10S 6C", "8D 3S 9C 5H 6H 2C 4S 7D 8S 10H", "KD"],
        discard="9C",
        discarder=2,
        current=0,
        phase="draw",
        fresh=True,
    )
    session = LocalSession(
        game=game, names=["Ana", "Bo (medium)", "Cy (medium)"], kinds=[None, "medium", "medium"], human=0, data=tmp_path
    )
    app = LiverpoolApp(session, delay=0, buy_seconds=1000)
    app.paused = True  # Bo waits: the window before Ana's draw stays open
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        seat, _ = session.to_act()
        assert app.in_turn() and seat == 1
        text = screen_text(app)
        assert "[s] draw" not in text and "Your turn next" in text
        await pilot.press("s")
        assert app.message is not None and "Wait" in app.message.plain
        app.paused = False  # Bo decides; then the prompt invites the draw, and s draws
        await until(pilot, lambda: session.to_act()[0] == 0 and not app.busy)
        if app.message is not None:
            app.message = None
            app.refresh_view()
        await pilot.pause()
        assert "[s] draw from the stock" in screen_text(app)

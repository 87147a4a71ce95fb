"""Tables of up to the engine's limit of seats (issue 22: ``max_players`` up to 16): a 16-seat
table of bots plays to the end as ``driver.play_game`` does, and a seat count out of range is
refused with its limits named, by the lobby, the rules check and the OpenAPI schema alike."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from liverpool import Game, RuleSet
from liverpool.bots import get
from liverpool.driver import play_game
from liverpool.rules import OPTIONS
from liverpool.server.names import BOT_NAMES, bot_seat_name
from liverpool.server.protocol import SEATS_HIGH, SEATS_LOW
from server_helpers import normal, running, server_settings

SIXTEEN = {"max_players": 16, "packs": 4}
"""The options a 16-seat Liverpool table needs: the preset allows 8, and 4 packs deal 16 hands."""


def test_the_seat_limits_are_the_engines() -> None:
    assert (SEATS_LOW, SEATS_HIGH) == (OPTIONS["min_players"].low, OPTIONS["max_players"].high) == (2, 16)


@pytest.mark.parametrize("seed", [4])
def test_a_sixteen_seat_table_of_bots_plays_to_the_end(tmp_path: Path, seed: int) -> None:
    bots = ["medium", "easy", "random", "medium"] * 4  # seat 0: the creator's, played by the stand-in bot
    settings = server_settings(tmp_path, game_seed=seed, grace=0.0, takeover_bot="medium")
    with running(settings) as (client, _):
        answer = client.post(
            "/api/tables",
            json={
                "players": 16,
                "name": "Ana",
                "options": SIXTEEN,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots[1:]],
            },
        )
        assert answer.status_code == 200, answer.text
        created = answer.json()
        table_id = created["table_id"]
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["players"] == 16 and len(info["seats"]) == 16
        client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": created["token"]})
        for _ in range(6000):
            if client.get(f"/api/tables/{table_id}").json()["status"] == "over":
                break
            time.sleep(0.05)
        record = client.get(f"/api/tables/{table_id}/record").json()
    rules = RuleSet().with_options(max_players="16", packs="4")
    expected = play_game(Game.new(players=16, seed=seed, rules=rules), [get(b, seed=i) for i, b in enumerate(bots)])
    assert len(record["scores"]) == 16
    assert record["actions"] == normal(expected.record()["actions"])
    assert record["scores"] == expected.scores and record["winners"] == expected.winners


@pytest.mark.parametrize("players", [1, 17, 40])
def test_a_seat_count_beyond_the_engines_limits_is_refused_naming_them(tmp_path: Path, players: int) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        for path in ("/api/tables", "/api/rules/check"):
            answer = client.post(path, json={"players": players, "options": SIXTEEN})
            assert answer.status_code == 422, (path, answer.text)
            assert f"{players} seats: a table has 2 to 16" in answer.json()["detail"], answer.text


def test_a_count_the_presets_rules_do_not_allow_names_the_options(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        twelve = client.post("/api/tables", json={"players": 12})
        assert twelve.status_code == 422
        assert "12 players: these rules allow 2-8 (options min_players, max_players)" in twelve.json()["detail"]
        few_packs = client.post("/api/rules/check", json={"players": 16, "options": {"max_players": 16}})
        assert few_packs.status_code == 422
        assert "raise option packs to 4" in few_packs.json()["detail"]
        fits = client.post("/api/rules/check", json={"players": 16, "options": SIXTEEN})
        assert fits.status_code == 200, fits.text
        assert fits.json()["ok"] is True
        twelve_fits = client.post("/api/tables", json={"players": 12, "options": {"max_players": 12}})
        assert twelve_fits.status_code == 200, twelve_fits.text


def test_the_schema_and_the_options_endpoint_give_the_form_its_range(tmp_path: Path) -> None:
    with running(server_settings(tmp_path)) as (client, _):
        schema = client.get("/openapi.json").json()["components"]["schemas"]
        players = schema["CreateTable"]["properties"]["players"]
        assert (players["minimum"], players["maximum"]) == (2, 16)
        declared = {o["name"]: o for o in client.get("/api/options").json()["options"]}
        assert (declared["min_players"]["low"], declared["max_players"]["high"]) == (2, 16)


def test_every_bot_seat_of_the_largest_table_has_a_name_of_its_own() -> None:
    assert len(BOT_NAMES) >= SEATS_HIGH
    names = [bot_seat_name(seat, "medium") for seat in range(SEATS_HIGH)]
    assert len(set(names)) == SEATS_HIGH
    assert names[:8] == [f"{n} (medium bot)" for n in ("Ada", "Bea", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal")]

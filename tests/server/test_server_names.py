"""Bot seats' names (issue 24, server/names.py): distinct, with the bot's level, everywhere a
seat is named: the table's info, the log's words, the record and replay, the history."""

from __future__ import annotations

from pathlib import Path

from server_helpers import connect, running, server_settings


def test_every_bot_seat_has_a_distinct_name_with_its_level(tmp_path: Path) -> None:
    with running(server_settings(tmp_path, grace=0.0)) as (client, stack):
        created = client.post(
            "/api/tables",
            json={
                "players": 4,
                "name": "Ana",
                "options": {"schedule": "1S/7"},
                "seats": [
                    {"kind": "human"},
                    {"kind": "bot", "bot": "easy"},
                    {"kind": "bot", "bot": "easy"},
                    {"kind": "human"},
                ],
            },
        ).json()
        table_id = created["table_id"]
        client.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": created["token"]})
        names = [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]
        # seat 3 was a person's seat nobody took: a bot took it, with a name of its own
        assert names == ["Ana", "Bea (easy bot)", "Cal (easy bot)", "Dot (medium bot)"]
        sock = connect(client, table_id, created["token"], 0, stack)
        sock.expect("hello")
        sock.send({"type": "autoplay", "on": True})
        end = sock.until(lambda m: m["type"] == "state" and m["view"]["is_over"], timeout=120)
        assert end["last"]["text"].split(" ")[0] in ("Ana", "Bea", "Cal", "Dot")
        texts = [m["last"]["text"] for m in sock.log if m["type"] == "state" and m["last"]]
        assert any("(easy bot)" in t for t in texts) and not any(t.startswith("easy bot") for t in texts)
        # the top line always says what the move was: a pass (which the log leaves out) is "passed"
        assert any(t.endswith(" passed") for t in texts), texts
        assert not any(t.endswith(" played") for t in texts), [t for t in texts if t.endswith(" played")]
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["names"] == names
        games = client.get("/api/players/Ana/history").json()["games"]
        assert games[0]["names"] == names

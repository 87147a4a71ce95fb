"""The browser's files and the replay frames, without a browser: the page loads nothing from
outside the server, the vendored library is pinned with its licences, and a replay shows every
hand after every action."""

from __future__ import annotations

import re

from liverpool import bots, driver
from liverpool.game import Game
from liverpool.rules import RuleSet
from liverpool.web import STATIC_DIR
from liverpool.web.replay import replay_frames


def test_page_loads_only_its_own_files() -> None:
    files = [p for p in STATIC_DIR.rglob("*") if p.suffix in {".html", ".js", ".css"} and "vendor" not in p.parts]
    assert any(p.name == "app.js" for p in files)
    for path in files:
        text = path.read_text()
        assert not re.search(r"""(src|href)=["']https?://""", text), f"{path.name} loads from another site"
        assert not re.search(r"""from\s+["']https?://""", text), f"{path.name} imports from another site"


def test_import_map_names_vendored_files_that_exist_with_licences() -> None:
    html = (STATIC_DIR / "index.html").read_text()
    targets = re.findall(r'"(/vendor/[^"]+)"', html)
    assert len(targets) == 4
    for target in targets:
        assert (STATIC_DIR / target.lstrip("/")).is_file(), target
    vendor = STATIC_DIR / "vendor"
    assert "MIT" in (vendor / "LICENSE.preact").read_text()
    assert (vendor / "LICENSE.htm").read_text().strip()
    assert (vendor / "VERSIONS").read_text().split() == ["preact", "10.27.2", "htm", "3.1.1"]


def test_every_module_the_page_imports_exists() -> None:
    js = STATIC_DIR / "js"
    for path in js.glob("*.js"):
        for name in re.findall(r"""from\s+["'](\./[^"']+)["']""", path.read_text()):
            assert (js / name).is_file(), f"{path.name} imports missing {name}"


def test_replay_frames_follow_a_whole_game() -> None:
    game = Game.new(players=3, rules=RuleSet.preset("liverpool"), seed=11)
    bot = bots.get("medium", seed=1)
    while not game.is_over:
        player, legal = driver.next_to_act(game)
        game.apply(bot.act(game.view(player), legal))
    record = game.record()
    frames = replay_frames(record)
    assert len(frames) == len(record["actions"]) + 1
    assert frames[0]["action"] is None and frames[0]["deal"] == 1
    assert [f["action"] for f in frames[1:]] == record["actions"]
    for frame in frames:
        assert [len(h) for h in frame["hands"]] == frame["hand_sizes"]
    last = frames[-1]
    assert last["is_over"] and last["scores"] == game.scores and last["winners"] == game.winners
    # every deal's end is among the frames' events, with every hand shown there too
    ends = [e for f in frames for e in f["events"] if e["type"] == "deal_end"]
    assert len(ends) == len(RuleSet.preset("liverpool").schedule)

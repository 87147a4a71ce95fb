"""The reinforcement-learning environments (issue 15): PettingZoo and Gymnasium conformance, the
action mapping, the observation's secrecy, rewards and whole games of random masked play."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from liverpool import Discard, Meld, RuleSet  # noqa: E402
from liverpool.env import liverpool_v0  # noqa: E402
from liverpool.env.layout import CARD_TYPE, layouts_for  # noqa: E402
from liverpool.env.liverpool_v0 import LiverpoolAEC  # noqa: E402
from liverpool.game import PLAY  # noqa: E402
from rules_helpers import cards, position  # noqa: E402


def random_game(env: LiverpoolAEC, seed: int, check: Any = None, max_steps: int = 100_000) -> dict[str, float]:
    """Random masked play of a whole game; ``check(env)`` is called before each step. Returns the
    rewards summed per agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for steps, agent in enumerate(env.agent_iter(max_steps)):
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        if check is not None:
            check(env)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal), f"no legal action for {agent} at step {steps}"
        env.step(int(legal[rng.integers(len(legal))]))
    assert env.game is not None and env.game.is_over
    return total


@pytest.mark.parametrize("rules", ["liverpool", "contract", "may_i", "shanghai"])
def test_pettingzoo_api(rules: str) -> None:
    api_test(liverpool_v0.env(players=4, rules=rules), num_cycles=300)


def test_pettingzoo_seed() -> None:
    seed_test(lambda: liverpool_v0.env(players=3), num_cycles=300)


@pytest.mark.parametrize(
    ("rules", "seeds", "players"),
    [
        ("liverpool", range(5), [2, 3, 4]),
        ("contract", range(5), [3, 4]),
        ("may_i", range(4), [2, 3, 4]),
        ("shanghai", range(6), [2, 3, 4]),  # per-player levels and exact run lengths (issue 16)
    ],
)
def test_random_masked_play_finishes_games(rules: str, seeds: range, players: list[int]) -> None:
    for seed in seeds:
        n = players[seed % len(players)]
        env = LiverpoolAEC(players=n, rules=rules)
        total = random_game(env, seed)
        assert env.game is not None
        # score rewards: minus each deal's points, so the sum is minus the final total
        assert [total[a] for a in env.possible_agents] == [-s for s in env.game.scores]
        assert env.macro_fallbacks == 0


def check_mapping(env: LiverpoolAEC) -> None:
    """Every legal engine action of the seat to act has one index, mapping back to it, and the mask
    is exactly those indices plus the meld builder's and the macro's."""
    game = env.game
    assert game is not None
    choice = env.legal_engine_actions()
    mask = env.observe(env.agent_selection)["action_mask"]
    assert set(np.flatnonzero(mask)) == set(choice)
    seat = int(env.agent_selection.split("_")[1])
    legal = game.legal_actions(seat)
    melds = [a for a in legal if isinstance(a, Meld)]
    if env._picked:
        return
    others = [a for a in legal if not isinstance(a, Meld)]
    if game.phase == "draw":
        # the seat next_to_act asks; its legal actions are in the listing
        assert all(a.player == seat for a in others)
    indices = [env.action_index(a) for a in others]
    assert len(set(indices)) == len(indices), "two engine actions share an index"
    for a, i in zip(others, indices, strict=True):
        assert choice[i] == a
    expected = set(indices)
    if melds:
        if not env._closed:
            expected |= {env.action_layout.start("meld_pick") + CARD_TYPE[c] for m in melds for c in m.cards}
        expected.add(env.action_layout.start("lay_down_best"))
        # no more listed melds of the same cards than commit slots
        same = Counter(tuple(sorted(m.cards)) for m in melds)
        assert max(same.values()) <= env.action_layout.max_variants
    assert set(choice) == expected


@pytest.mark.parametrize("rules", ["liverpool", "contract", "may_i", "shanghai"])
def test_action_mapping_round_trips(rules: str) -> None:
    random_game(LiverpoolAEC(players=4, rules=rules), 100, check=check_mapping)


def test_every_listed_meld_is_reachable_with_the_builder() -> None:
    env = LiverpoolAEC(players=3)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    lay = env.action_layout
    checked = 0
    while env.game is not None and not env.game.is_over and checked < 60:
        melds = [a for a in env._legal if isinstance(a, Meld)]
        if melds and not env._picked:
            for m in melds:
                trial = copy.deepcopy(env)
                for c in m.cards:
                    i = lay.start("meld_pick") + CARD_TYPE[c]
                    assert trial._mask[i], f"cannot pick {c} of {m}"
                    trial.step(i)
                commits = [
                    v for v in trial.legal_engine_actions().values() if isinstance(v, tuple) and v[0] == "commit"
                ]
                assert ("commit", m) in commits
                k = commits.index(("commit", m))
                trial.step(lay.start("meld_commit") + k)
                assert trial.game is not None and trial.game.version == env.game.version + 1
                checked += 1
        legal = [i for i in np.flatnonzero(env._mask) if not lay.start("meld_pick") <= i < lay.start("meld_commit")]
        env.step(int(legal[rng.integers(len(legal))]))
    assert checked > 0


@pytest.mark.parametrize("pick", [min, max])
def test_deterministic_policies_finish(pick: Any) -> None:
    """Always the lowest (or highest) legal index: no endless loop of builder steps (a cleared meld
    closes the builder until the next game action)."""
    env = LiverpoolAEC(players=3, rules=RuleSet(schedule=RuleSet().schedule[:2]))
    env.reset(seed=1)
    for _ in range(50_000):
        if env.game is None or env.game.is_over:
            break
        env.step(int(pick(np.flatnonzero(env._mask))))
    assert env.game is not None and env.game.is_over


def test_lay_down_macro_lays_the_contract() -> None:
    env = LiverpoolAEC(players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    best = env.action_layout.start("lay_down_best")
    downs = 0
    while env.game is not None and not env.game.is_over and downs < 3:
        if env._mask[best]:
            seat = env._seat
            assert env.game is not None
            deal = env.game.deal
            env.step(best)
            if env.game.deal == deal:  # the deal did not end on it (a whole-hand deal may)
                assert env.game.view(seat)["down"][seat]
            downs += 1
            continue
        legal = np.flatnonzero(env._mask)
        env.step(int(legal[rng.integers(len(legal))]))
    assert downs == 3


def test_lay_down_macro_reads_a_declared_run_of_wild_cards_as_the_engine_does() -> None:
    """Issue 16, ``run_min_naturals`` 0 with runs of distinct suits (R13): a staged run of jokers
    declared as 8H-JH is a hearts run, so the rest of the contract is the spade run, not the
    hearts run 10H-KH (which the engine refuses). The macro's plan asks the engine for the staged
    melds' suits (it read the suit off the first natural card: none, and planned the hearts run)."""
    rules = RuleSet().with_options(
        schedule="0S2R/10", run_min_naturals=0, run_wild_limit="none", runs_distinct_suits=True
    )
    game = position(
        rules,
        hands=(
            "JK JK JK JK 10H JH QH KH 3S 4S 5S 6S KD",
            "2C 3C 4C 5C 6C 7C 8C 9C 10C JC",
            "2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
            "7S 8S 9S 10S JS QS KS 2H KC QC",
        ),
        current=0,
        phase=PLAY,
    )
    game.apply(Meld(0, "run", tuple(cards("JK JK JK JK")), cards("8H")[0]))
    env = LiverpoolAEC(players=4, rules=rules)
    env.reset(seed=0)
    env.game = game  # the environment plays on from this position
    melds = [a for a in game.legal_actions() if isinstance(a, Meld)]
    spades = Meld(0, "run", tuple(cards("3S 4S 5S 6S")))
    assert spades in melds and Meld(0, "run", tuple(cards("10H JH QH KH"))) not in melds
    assert env._best_completion(0, melds) == [spades]


def test_observation_hides_other_hands_and_the_stock() -> None:
    env = LiverpoolAEC(players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(150):
        env.step(int(rng.choice(np.flatnonzero(env._mask))))
    game = env.game
    assert game is not None
    for seat in range(4):
        enc1 = LiverpoolAEC(players=4)  # a fresh encoder each time: no shared caches
        enc1.reset(seed=0)
        obs1 = enc1.encode(game.view(seat))
        # shuffle every card the seat cannot see (other hands and the stock), sizes kept
        hidden = [c for q in range(4) if q != seat for c in game.hands[q]] + list(game.stock)
        original = ([list(h) for h in game.hands], list(game.stock))
        random.Random(seat).shuffle(hidden)
        for q in range(4):
            if q != seat:
                k = len(game.hands[q])
                game.hands[q][:] = hidden[:k]
                hidden = hidden[k:]
        game.stock[:] = hidden
        enc2 = LiverpoolAEC(players=4)
        enc2.reset(seed=0)
        obs2 = enc2.encode(game.view(seat))
        changed = any(game.hands[q] != original[0][q] for q in range(4) if q != seat) or game.stock != original[1]
        assert changed
        assert np.array_equal(obs1, obs2)
        game.hands[:] = original[0]
        game.stock[:] = original[1]
    # and the observation does change with the seat's own hand
    me = 0
    o1 = env.encode(game.view(me))
    other = 1
    game.hands[me][0], game.hands[other][0] = game.hands[other][0], game.hands[me][0]
    if game.hands[me][0] != game.hands[other][0]:
        assert not np.array_equal(o1, env.encode(game.view(me)))


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    env = LiverpoolAEC(players=3)
    env.reset(seed=2)
    assert env.game is not None
    version = env.game.version
    illegal = int(np.flatnonzero(env._mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    with pytest.raises(ValueError):
        env.step(10**9)
    assert env.game.version == version
    assert env.observe(env.agent_selection)["action_mask"].any()


def test_placement_reward() -> None:
    env = LiverpoolAEC(players=3, rules="contract", reward="placement")
    total = random_game(env, 5)
    assert env.game is not None
    scores = env.game.scores
    for p, agent in enumerate(env.possible_agents):
        better = sum(s < scores[p] for s in scores)
        worse = sum(s > scores[p] for s in scores)
        assert total[agent] == (worse - better) / 2


def test_rule_options_pass_through() -> None:
    rules = RuleSet.preset("contract").with_options(buying="true", schedule="2S/10,1S1R/10", joker_swap="off")
    env = LiverpoolAEC(players=4, rules=rules)
    env.reset(seed=1)
    assert env.game is not None and env.game.rules == rules
    lay, obs = layouts_for(4, rules)
    assert env.obs_layout == obs and obs.deals == 2
    seen_buy = False

    def look(e: LiverpoolAEC) -> None:
        nonlocal seen_buy
        seen_buy |= bool(e._mask[lay.start("buy")])

    random_game(env, 1, check=look)
    assert seen_buy  # buying, off in the contract preset, is on
    with pytest.raises(ValueError):
        LiverpoolAEC(players=9)
    with pytest.raises(TypeError):
        LiverpoolAEC(rules=3)  # type: ignore[arg-type]


def test_render_ansi() -> None:
    env = LiverpoolAEC(players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "deal 1/7" in text and "legal:" in text


def test_gymnasium_env_checker_and_a_game_against_greedy() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("liverpool/Liverpool-v0", opponents="greedy", players=3)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    total, done, info = 0.0, False, {}
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        total += float(reward)
        assert not trunc
    assert total == -info["scores"][0]


def test_gymnasium_illegal_action() -> None:
    env = gymnasium.make("liverpool/Liverpool-v0", opponents="random", players=3)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, term, _, info = env.step(illegal)
    assert reward == -1.0 and info["illegal_action"] and not term
    assert np.array_equal(obs["observation"], obs2["observation"])
    _, reward, _, _, info = env.step(10**6)  # out of range: refused the same way
    assert reward == -1.0 and info["illegal_action"]
    strict = gymnasium.make("liverpool/Liverpool-v0", opponents="random", players=3, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal"):
        strict.step(illegal)


def reference_encoding(env: LiverpoolAEC, view: dict[str, Any], picked: list[int]) -> Any:
    """The observation by the documented layout, straight from the view (no caches, plain loops)."""
    from liverpool.env.layout import NAME_TYPE

    lay = env.obs_layout
    ntypes = lay.types
    r = lay.ranges
    n: int = view["players"]
    me: int = view["player"]
    out = np.zeros(lay.size, np.float32)

    def rel(q: int) -> int:
        return (q - me) % n

    for c in view["hand"]:
        out[r["hand"][0] + NAME_TYPE[c]] += 1
    if view["discard_pile"]:
        out[r["pile_top"][0] + NAME_TYPE[view["discard_pile"][-1]]] = 1
    for c in view["discard_pile"]:
        out[r["pile"][0] + NAME_TYPE[c]] += 1
    liverpool_call = view["rules"]["playable_discard"] == "liverpool"
    for e in view["events"]:
        cards = []
        if e["type"] in ("draw_discard", "buy", "call_penalty") or (e["type"] == "call" and liverpool_call):
            cards = [e["card"]]
        elif e["type"] == "draw_pile":
            cards = e["cards"]
        for c in cards:
            out[r["taken"][0] + rel(e["player"]) * ntypes + NAME_TYPE[c]] += 1
    for q in range(n):
        for name, key in (
            ("hand_sizes", "hand_sizes"),
            ("down", "down"),
            ("buys_used", "buys_used"),
            ("scores", "scores"),
        ):
            out[r[name][0] + rel(q)] = view[key][q]
    out[r["current"][0] + rel(view["current"])] = 1
    if view["discarder"] is not None:
        out[r["discarder"][0] + rel(view["discarder"])] = 1
    for q in view["passed"]:
        out[r["passed"][0] + rel(q)] = 1
    for q in view["buy_requests"]:
        out[r["buy_requests"][0] + rel(q)] = 1
    out[r["phase"][0] + ["draw", "play", "liverpool_discard", "over"].index(view["phase"])] = 1
    flags = [view[k] for k in ("buy_window", "call_window", "fresh_discard", "retracted")]
    flags += [len(view["swaps"]), view["stock_size"], view["rebuilds"], view["deck_size"]]
    out[r["flags"][0] : r["flags"][1]] = flags
    out[r["deal"][0] + view["deal"] - 1] = 1
    c = view["contract"]
    out[r["contract"][0] : r["contract"][1]] = [c["sets"], c["runs"], c["cards"], c["whole_hand"]]
    for name, key in (("must_meld", "must_meld"), ("taken_now", "taken_from_discard")):
        if view[key] is not None:
            out[r[name][0] + NAME_TYPE[view[key]]] = 1
    for s in view["staged"]:
        for card in s["cards"]:
            out[r["staged"][0] + NAME_TYPE[card]] += 1
    for t in picked:
        out[r["picked"][0] + t] += 1
    for m in view["melds"]:
        row = r["melds"][0] + m["id"] * lay.meld_width
        out[row : row + 5] = [1, m["kind"] == "run", m["start"], len(m["cards"]), rel(m["owner"]) + 1]
        for card in m["cards"]:
            out[row + 5 + NAME_TYPE[card]] += 1
    if "levels" in r:
        for q, level in enumerate(view["levels"]):
            out[r["levels"][0] + rel(q)] = level
    return out


@pytest.mark.parametrize("rules", ["liverpool", "contract", "may_i", "shanghai"])
def test_observation_matches_the_documented_layout(rules: str) -> None:
    """The cached, incremental encoding equals a plain one built from the view, for every seat at
    every step of a game (the acting seat with its picked cards)."""
    schedule = "2S/10,1S1R[=4]/10,3R/12" if rules == "shanghai" else "2S/10,1S1R/10,3R/12*"
    short = RuleSet.preset(rules).with_options(schedule=schedule)
    env = LiverpoolAEC(players=4, rules=short, observation="raw")

    def compare(e: LiverpoolAEC) -> None:
        assert e.game is not None
        for seat, agent in enumerate(e.possible_agents):
            got = e.observe(agent)["observation"]
            picked = list(e._picked) if seat == e._seat else []
            assert np.array_equal(got, reference_encoding(e, e.game.view(seat), picked)), (seat, e.game.version)

    random_game(env, 21, check=compare)


def test_docs_tables_match_the_layouts() -> None:
    """docs/rl.md's tables of index ranges are those of a 4-player liverpool table."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(\w+)` \|", text, re.M)
    documented = [(name, int(a), int(b or a)) for a, b, name in rows]
    actions, obs = layouts_for(4, RuleSet())
    expected = [(name, a, b) for name, a, b, _ in actions.describe() + obs.describe()]
    assert documented == expected


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
def test_random_game_under_the_contract_options_of_issue_16(preset: str) -> None:
    """Levels per player (the deal one-hot spans ``RuleSet.max_deals``), lengths per meld and a
    same-suit gap: masked random play ends and every mapping round-trips."""
    rules = RuleSet.preset(preset).with_options(
        schedule="2S/10,1S1R[5]/11", progression="player", runs_same_suit_gap="1", turn_limit="60"
    )
    random_game(LiverpoolAEC(players=3, rules=rules), 5, check=check_mapping)


def test_dead_deuces_have_card_types_of_their_own() -> None:
    """With ``dead_discarded_wild`` (the shanghai preset) a dead deuce ``2H~`` is card type 54, not
    the live (wild) deuce's 15: its own discard, pick and lay-off indices and observation counts.
    Every other preset keeps the 53 types."""
    from liverpool.cards import DEAD_DEUCES, Card
    from liverpool.env.layout import NTYPES, NTYPES_DEAD

    for preset in ("liverpool", "contract", "may_i"):
        actions, obs = layouts_for(4, RuleSet.preset(preset))
        assert actions.types == obs.types == NTYPES
    actions, obs = layouts_for(4, RuleSet.preset("shanghai"))
    assert actions.types == obs.types == NTYPES_DEAD
    assert [CARD_TYPE[c] for c in DEAD_DEUCES] == [53, 54, 55, 56]
    plain, _ = layouts_for(4, RuleSet().with_options(wild_rank="2"))
    dead, _ = layouts_for(4, RuleSet().with_options(wild_rank="2", dead_discarded_wild="true"))
    assert dead.size == plain.size + 4 * (1 + 1 + 2 * plain.meld_slots)  # discard, meld_pick, lay_off

    env = LiverpoolAEC(players=4, rules="shanghai", observation="raw")
    seen = {"dead in hand": 0, "both discards": 0}

    def check(e: LiverpoolAEC) -> None:
        assert e.game is not None
        seat = e._seat
        hand = e.game.hand(seat)
        counts = e.observe(e.agent_selection)["observation"][: e.obs_layout.types]
        for c in DEAD_DEUCES:
            assert counts[CARD_TYPE[c]] == hand.count(c)
            assert counts[CARD_TYPE[c.live]] == hand.count(Card(2, c.suit))
            if c in hand:
                seen["dead in hand"] += 1
        discards = [a for a in e.legal_engine_actions().values() if isinstance(a, Discard)]
        cards = {a.card for a in discards}
        for c in DEAD_DEUCES:
            if c in cards and c.live in cards:
                seen["both discards"] += 1
        check_mapping(e)

    for seed in range(3):
        random_game(env, seed, check=check)
    assert seen["dead in hand"] > 0, seen

"""Properties over random legal play (hypothesis): card conservation, valid melds, views that hide
every secret, record and replay, refused actions that change nothing, and games that end."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool import (
    Action,
    Discard,
    DrawStock,
    Game,
    IllegalAction,
    LayOff,
    Meld,
    RuleSet,
    parse_cards,
)
from liverpool.cards import full_deck
from liverpool.melds import is_valid_run, is_valid_set, run_start, set_rank
from liverpool.rules import parse_schedule

SHORT = "2S/10,1S1R/10,0S2R/10,1S2R/12,3R/12*"


def short_rules(preset: str, **options: object) -> RuleSet:
    base = RuleSet.preset(preset)
    return dataclasses.replace(base, schedule=parse_schedule(SHORT), turn_limit=60, **options)  # type: ignore[arg-type]


def check_conservation(game: Game) -> None:
    """Hands + stock + discard pile + melds (+ a lay-down being laid) = the deck (a dead deuce,
    ``dead_discarded_wild``, is the deuce it was)."""
    cards: Counter[object] = Counter()
    for p in range(game.players):
        cards.update(c.live for c in game.hand(p))
    cards.update(c.live for c in game.stock)
    cards.update(c.live for c in game.discard_pile)
    for meld in game.melds:
        cards.update(c.live for c in meld.cards)
    for _, staged in game.staged():
        cards.update(c.live for c in staged)
    deck = Counter(full_deck(game.rules.packs_for(game.players), game.rules.jokers_per_pack))
    assert cards == deck
    assert sum(cards.values()) == game.deck_size


def check_melds(game: Game) -> None:
    rules = game.rules
    # R11 "laydown": lay-offs may repeat a suit, so a set on the table is judged without the suits
    set_rules = dataclasses.replace(rules, set_distinct_suits=False) if rules.set_distinct_suits == "laydown" else rules
    # issue 16: a run of wild cards declares the card its first place stands for (seen in views)
    declared = {m["id"]: parse_cards(m["declared"])[0] for m in game.view(0)["melds"] if "declared" in m}
    for meld in game.melds:
        if meld.kind == "set":
            # a set of wild cards (set_min_naturals 0) has no rank until a natural card joins it
            assert set_rank(meld.cards, rules) is not None or rules.set_min_naturals == 0
            # set_wild_limit: with run_joker_check "initial" lay-offs may pass the limit
            if rules.run_joker_check == "always" or rules.set_wild_limit == "none":
                assert is_valid_set(meld.cards, set_rules) or len(meld.cards) > (rules.set_max or 99)
        else:
            assert run_start(meld.cards, rules, declared.get(meld.id)) is not None
            if rules.run_joker_check == "always":
                assert is_valid_run(meld.cards, rules, declared.get(meld.id)), meld


def keys_named(value: object, name: str) -> list[object]:
    """The dicts at any depth of ``value`` (a JSON-able view) that have a key ``name``."""
    if isinstance(value, dict):
        found: list[object] = [value] if name in value else []
        return found + [d for v in value.values() for d in keys_named(v, name)]
    if isinstance(value, list):
        return [d for v in value for d in keys_named(v, name)]
    return []


def test_keys_named_finds_nested_keys() -> None:
    assert keys_named({"a": [{"b": {"seed": 1}}]}, "seed") == [{"seed": 1}]
    assert keys_named({"a": [1, "seed", {"b": 2}]}, "seed") == []


def check_no_leak(game: Game, rng: random.Random) -> None:
    """Changing what a seat may not see (other hands, the stock's order, the seed) leaves its view
    unchanged."""
    if game.is_over:
        return
    p = rng.randrange(game.players)
    view = game.view(p)
    text = json.dumps(view)
    assert not keys_named(view, "seed"), "a view names the seed"
    if game.seed >= 10**6:  # a number this long in a view could only be the seed (the seeds drawn are mostly 10 digits)
        assert str(game.seed) not in text
    other = game.copy()
    other.seed = game.seed + 1
    hidden = list(other.stock)
    for q in range(game.players):
        if q != p:
            hidden.extend(other.hands[q])
    rng.shuffle(hidden)
    for q in range(game.players):
        if q != p:
            size = len(other.hands[q])
            other.hands[q] = hidden[:size]
            hidden = hidden[size:]
    other.stock = hidden
    assert other.view(p) == view
    assert view["hand"] == [str(c) for c in game.hand(p)]


def play_random(game: Game, seed: int, checks: bool = True, max_actions: int = 20000) -> int:
    rng = random.Random(seed)
    count = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, "a game that is not over always has a legal action"
        action = rng.choice(legal)
        game.apply(action)
        count += 1
        assert count < max_actions, "game did not end"
        if checks:
            check_conservation(game)
            check_melds(game)
            if count % 7 == 0:
                check_no_leak(game, rng)
    return count


presets = st.sampled_from(["liverpool", "contract"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), preset=presets, players=st.integers(3, 8))
def test_random_play_conserves_cards_and_hides_secrets(seed: int, preset: str, players: int) -> None:
    game = Game.new(players=players, rules=short_rules(preset), seed=seed)
    play_random(game, seed)
    assert game.is_over
    assert len(game.deal_scores) == len(game.rules.schedule)
    assert game.scores == [sum(d[p] for d in game.deal_scores) for p in range(players)]


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    preset=presets,
    players=st.integers(3, 8),
    options=st.fixed_dictionaries(
        {
            "buy_precedence": st.sampled_from(["nearest", "first"]),
            "playable_discard": st.sampled_from(["call", "liverpool", "strict", "off"]),
            "joker_swap": st.sampled_from(["going_down_turn", "once_down", "later_turns", "off"]),
            "floating": st.sampled_from([True, False, "refuse"]),
            "pile_draw": st.booleans(),
            "exact_melds": st.booleans(),
            "layoff_same_turn": st.booleans(),
            "failed_meld_penalty": st.sampled_from([0, 50]),
            "run_joker_check": st.sampled_from(["always", "initial"]),
            "wild_rank": st.sampled_from([None, 2]),
            "buy_limit": st.sampled_from([None, 0, 1, 3]),
            "down_may_buy": st.booleans(),
            "stock_rebuilds": st.sampled_from([None, 0, 1, 3]),
            "cut_bonus": st.sampled_from([0, 50]),
            # issue 16's house-rule variants
            "going_out_bonus": st.sampled_from([0, -10]),
            "going_out_bonus_if_alone": st.sampled_from([0, -20]),
            "first_down_bonus": st.sampled_from([0, -5]),
            "joker_in_meld_points": st.sampled_from([0, 25]),
            "down_may_take_discard": st.booleans(),
            "swap_must_play": st.booleans(),
            "wild_rank_swappable": st.booleans(),
            "set_distinct_suits": st.sampled_from([False, True, "laydown"]),
            "buy_window": st.sampled_from(["until_draw", "until_discard"]),
            "dead_discarded_wild": st.booleans(),  # kept only with wild_rank 2 (its requirement)
            # the meld variants (wrap_around needs the ace "either" or "both": see the test)
            "run_wild_limit": st.sampled_from(["spacing", "ratio", "half", "none"]),
            "set_wild_limit": st.sampled_from(["none", "ratio"]),
            "run_min_naturals": st.sampled_from([1, 0]),
            "set_min_naturals": st.sampled_from([2, 1, 0]),
            "wild_rank_place": st.sampled_from(["wild", "none"]),
            "wild_rank_natural_sets": st.booleans(),
            "ace": st.sampled_from([None, "low", "high", "either", "both"]),
            "wrap_around": st.booleans(),
        }
    ),
)
def test_random_play_under_any_options(seed: int, preset: str, players: int, options: dict[str, object]) -> None:
    """Any house rules, either preset, any table size: random play keeps every invariant, and no
    turn is ever left without a legal action (this found the R20/R26/R34 dead ends of 2026-11-30)."""
    if options["wild_rank"] != 2:
        options = {**options, "dead_discarded_wild": False}
    if options["wrap_around"] and options["ace"] in ("low", "high"):
        options = {**options, "ace": "both"}
    rules = short_rules(preset, **options)
    game = Game.new(players=players, rules=rules, seed=seed)
    play_random(game, seed)
    again = Game.from_record(json.loads(json.dumps(game.record())))
    assert again.record() == game.record() and again.scores == game.scores and again.events == game.events


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), preset=presets)
def test_record_replays_identically(seed: int, preset: str) -> None:
    game = Game.new(players=4, rules=short_rules(preset), seed=seed)
    play_random(game, seed, checks=False)
    record = json.loads(json.dumps(game.record()))
    again = Game.from_record(record)
    assert again.record() == game.record()
    assert again.scores == game.scores
    for p in range(4):
        assert again.view(p) == game.view(p)


def test_full_games_both_presets_end() -> None:
    """Whole seven-deal games with the presets' own schedules end (R41)."""
    for preset, players in (("liverpool", 4), ("contract", 5)):
        game = Game.new(players=players, rules=RuleSet.preset(preset), seed=11)
        play_random(game, 11, checks=False)
        assert game.is_over and len(game.deal_scores) == 7
        assert game.winners == [p for p in range(players) if game.scores[p] == min(game.scores)]


def _snapshot(game: Game) -> object:
    return json.dumps([game.view(p) for p in range(game.players)], sort_keys=True), json.dumps(game.record())


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 300), preset=presets)
def test_illegal_actions_are_refused_and_change_nothing(seed: int, steps: int, preset: str) -> None:
    game = Game.new(players=4, rules=short_rules(preset), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over:
        return
    legal = game.legal_actions()
    for action in legal:
        assert game.can_apply(action)
    before = _snapshot(game)
    wrong_seat = (game.current + 1) % 4
    candidates: list[Action | None] = [
        DrawStock(wrong_seat),
        Discard(game.current, parse_cards("JK")[0])
        if game.hand(game.current).count(parse_cards("JK")[0]) == 0
        else None,
        Meld(game.current, "set", tuple(parse_cards("2C 2C 2C 2C 2C"))),
        LayOff(game.current, game.hand(game.current)[0], 999) if game.hand(game.current) else None,
        Discard(7, parse_cards("2C")[0]),
    ]
    for candidate in candidates:
        if candidate is None or candidate in legal:
            continue
        try:
            game.apply(candidate)
        except IllegalAction as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{candidate} was accepted")
        assert _snapshot(game) == before


# issue 16, contracts: lengths per meld in the schedule (R48) and a gap between runs of one suit (R13)
GROUPED = "2S/10,1S[4]1R/10,1R[5]1R[=4]/11,2S[=3]/10,1S1R[6]/12*"


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    preset=presets,
    players=st.integers(3, 6),
    grouped=st.booleans(),
    gap=st.sampled_from([None, 0, 2]),
    exact=st.booleans(),
    floating=st.sampled_from([True, "refuse"]),
    progression=st.sampled_from(["table", "player"]),
)
def test_random_play_under_contract_options(
    seed: int,
    preset: str,
    players: int,
    grouped: bool,
    gap: int | None,
    exact: bool,
    floating: object,
    progression: str,
) -> None:
    """Random play with the contract options of issue 16 keeps every invariant, never leaves a turn
    without a legal action, and replays from its record."""
    rules = dataclasses.replace(
        short_rules(preset, runs_distinct_suits=False, exact_melds=exact, floating=floating),
        schedule=parse_schedule(GROUPED if grouped else SHORT),
        runs_same_suit_gap=gap,
        progression=progression,  # type: ignore[arg-type]
    )
    game = Game.new(players=players, rules=rules, seed=seed)
    play_random(game, seed)
    again = Game.from_record(json.loads(json.dumps(game.record())))
    assert again.record() == game.record() and again.scores == game.scores
    assert again.winners == game.winners and again.placings == game.placings
    if progression == "player":
        levels = game.view(0)["levels"]
        assert max(levels) > len(rules.schedule) or game.deal == rules.max_deals
        assert game.winners and all(levels[p] == max(levels) for p in game.winners)

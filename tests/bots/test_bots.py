"""Bots: they choose only legal actions, see only their view, reproduce from a seed, and greedy
beats random. Games use short schedules and low turn limits to keep the suite fast."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool import Action, Card, Game, RuleSet, parse_cards
from liverpool.bots import BOTS, DIFFICULTIES, Bot, EasyBot, get, names, search
from liverpool.bots import strong as strong_module
from liverpool.bots.greedy import GreedyBot, Snapshot, analyse, tactics, wants_card
from liverpool.bots.strong import KnownCards, StrongBot, playout, sample_hidden, unseen_pool
from liverpool.cards import full_deck
from liverpool.driver import next_to_act, play_game
from liverpool.rules import parse_schedule
from rules_helpers import position

SHORT = "2S/10,1S1R/10"


def short_rules(preset: str = "liverpool", schedule: str = SHORT, turn_limit: int = 60, **options: Any) -> RuleSet:
    base = RuleSet.preset(preset)
    return dataclasses.replace(base, schedule=parse_schedule(schedule), turn_limit=turn_limit, **options)


class Checked:
    """Wraps a bot: asserts it returns one of the legal actions it was given, for its seat."""

    def __init__(self, bot: Bot, seat: int) -> None:
        self.bot = bot
        self.seat = seat
        self.decisions = 0

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        assert view["player"] == self.seat
        assert all(a.player == self.seat for a in legal)
        action = self.bot.act(view, legal)
        assert action in legal, f"{self.bot} chose {action}, not among {legal}"
        self.decisions += 1
        return action


def make(name: str, seed: int) -> Bot:
    if name == "strong":
        return get("strong", seed=seed, samples=2)
    return get(name, seed=seed)


OPTION_VARIANTS: list[dict[str, Any]] = [
    {},
    {"joker_swap": "once_down"},
    {"joker_swap": "later_turns", "layoff_same_turn": False},
    {"playable_discard": "liverpool"},
    {"playable_discard": "strict", "floating": False},
    {"playable_discard": "off", "buy_limit": 1, "down_may_buy": False},
    {"wild_rank": 2, "exact_melds": True},
    {"failed_meld_penalty": 25, "pile_draw": True},
    {"buy_precedence": "first", "buy_penalty": 2, "set_distinct_suits": True, "runs_distinct_suits": True},
    {"sets_distinct_ranks": True, "ace_high": False, "run_joker_check": "initial"},
    {"upcard": False, "stock_rebuilds": 0, "jokers_per_pack": 0, "wild_rank": 2},
    {"set_min": 4, "run_min": 5, "joker_points": 20, "down_may_buy": False, "knock": False},
    # issue 16's house-rule variants
    {"down_may_take_discard": False, "pile_draw": True, "going_out_bonus": -10, "first_down_bonus": -5},
    {"down_may_take_discard": False, "joker_in_meld_points": 25, "going_out_bonus_if_alone": -20},
    {"swap_must_play": False, "joker_swap": "once_down"},
    {"swap_must_play": False, "wild_rank": 2, "wild_rank_swappable": False},
    {"floating": "refuse", "pile_draw": True},
    {"set_distinct_suits": "laydown", "packs": 3, "playable_discard": "liverpool"},
    {"floating": "refuse", "wild_rank": 2, "playable_discard": "strict", "joker_swap": "once_down"},
]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    preset=st.sampled_from(["liverpool", "contract"]),
    players=st.integers(2, 8),
    variant=st.integers(0, len(OPTION_VARIANTS) - 1),
    schedule=st.sampled_from([SHORT, "1R/10", "2R/10*", "1S2R/12"]),
    lineup=st.lists(st.sampled_from(["random", "greedy", "easy", "strong"]), min_size=8, max_size=8),
)
def test_bots_choose_only_legal_actions(
    seed: int, preset: str, players: int, variant: int, schedule: str, lineup: list[str]
) -> None:
    if preset == "contract" and players < 3:
        players = 3
    rules = short_rules(preset, schedule, turn_limit=30, **OPTION_VARIANTS[variant])
    if preset == "contract" and rules.packs_for(players) == 1 and players == 4 and "12" in schedule:
        rules = dataclasses.replace(rules, packs=2)
    game = Game.new(players=players, rules=rules, seed=seed)
    bots = [Checked(make(lineup[p], seed * 10 + p), p) for p in range(players)]
    old = strong_module.CHECK_PLAYOUTS
    strong_module.CHECK_PLAYOUTS = True  # every playout action is verified by the engine
    try:
        play_game(game, bots)
    finally:
        strong_module.CHECK_PLAYOUTS = old
    assert game.is_over
    assert sum(b.decisions for b in bots) > 0


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
@pytest.mark.parametrize("players", [3, 5])
def test_greedy_and_strong_finish_games_from_views(preset: str, players: int) -> None:
    rules = short_rules(preset, "2S/10,1S1R/10,2R/10")
    game = Game.new(players=players, rules=rules, seed=players)
    bots = [Checked(GreedyBot(seed=p), p) for p in range(players)]
    bots[0] = Checked(StrongBot(seed=0, samples=3), 0)
    play_game(game, bots)
    assert game.is_over
    assert len(game.deal_scores) == 3


# ------------------------------------------------------------------------------------ views only
def _advance(game: Game, bots: Sequence[Bot], steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        seat, legal = next_to_act(game)
        game.apply(bots[seat].act(game.view(seat), legal))


def _hidden_variants(game: Game, seat: int, rng: random.Random) -> tuple[Game, Game]:
    """Two games with the view of ``seat`` but different hidden cards (other hands, stock)."""
    view = game.view(seat)
    rules = game.rules
    pool = unseen_pool(view, rules)
    out = []
    for _ in range(2):
        cards = list(pool)
        rng.shuffle(cards)
        hands: dict[int, Sequence[Card]] = {}
        for p in range(game.players):
            if p != seat:
                size = view["hand_sizes"][p]
                hands[p], cards = cards[:size], cards[size:]
        out.append(Game.from_view(view, hands, cards, seed=rng.randrange(1000)))
    return out[0], out[1]


@pytest.mark.parametrize("name", ["greedy", "strong", "easy"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_decisions_ignore_hidden_cards(name: str, seed: int) -> None:
    rules = short_rules("liverpool", "1S1R/10")
    game = Game.new(players=4, rules=rules, seed=seed)
    walkers = [GreedyBot(seed=p) for p in range(4)]
    rng = random.Random(seed)
    checked = 0
    for steps in (5, 11, 17, 23, 31):
        _advance(game, walkers, steps)
        if game.is_over:
            break
        seat, _ = next_to_act(game)
        a, b = _hidden_variants(game, seat, rng)
        assert a.hands != b.hands or a.stock != b.stock
        view_a, view_b = a.view(seat), b.view(seat)
        assert view_a == view_b  # the view hides every secret
        bot_a = get(name, seed=7, samples=4) if name == "strong" else get(name, seed=7)
        bot_b = get(name, seed=7, samples=4) if name == "strong" else get(name, seed=7)
        choice_a = bot_a.act(view_a, a.legal_actions(seat))
        choice_b = bot_b.act(view_b, b.legal_actions(seat))
        assert choice_a == choice_b
        checked += 1
    assert checked >= 2


def _greedy_positions(rules: RuleSet, seed: int, steps: int) -> Iterator[tuple[Game, int, dict[str, Any], KnownCards]]:
    """Positions of a game of greedy bots, one action apart: the game, the seat to act, its view
    and what a card tracker knows from that view."""
    game = Game.new(players=4, rules=rules, seed=seed)
    bots = [GreedyBot(seed=p) for p in range(4)]
    for _ in range(steps):
        _advance(game, bots, 1)
        if game.is_over:
            return
        seat, _ = next_to_act(game)
        view = game.view(seat)
        known = KnownCards()
        known.update(view)
        yield game, seat, view, known


@pytest.mark.parametrize(("seed", "options"), [(11, {}), (12, {"buy_penalty": 2}), (13, {"buy_penalty": 3})])
def test_strong_samples_agree_with_the_view(seed: int, options: dict[str, Any]) -> None:
    """Sampled hidden cards complete the view: card counts match the deck, known pickups are placed
    (also late in deals, with big hands from buying and a small stock)."""
    rules = short_rules("liverpool", "2S/10,1S1R/10", turn_limit=200, **options)
    rng = random.Random(3)
    for game, seat, view, known in _greedy_positions(rules, seed, 400):
        cards = known.known
        for p, held in cards.items():  # what the tracker believes a player holds, they hold
            hand = game.hand(p)
            for c in held:
                assert c in hand
                hand.remove(c)
        pool = unseen_pool(view, rules)
        s = Snapshot.from_view(view)
        hands, stock = sample_hidden(view, pool, cards, rng, s, known.stock_draws, known.declined)
        sampled = Game.from_view(view, hands, stock)
        deck = sorted(full_deck(rules.packs_for(4), rules.jokers_per_pack))
        on_table = [c for m in sampled.melds for c in m.cards] + [c for _, m in sampled.staged() for c in m]
        everything = [c for p in range(4) for c in sampled.hand(p)] + sampled.discard_pile + stock + on_table
        assert sorted(everything) == deck
        for p, held in cards.items():
            if p != seat:
                hand = sampled.hand(p)
                for c in held:
                    assert c in hand
                    hand.remove(c)


# ------------------------------------------------------------------------------------ reproducible
@pytest.mark.parametrize("lineup", [("greedy", "greedy", "random"), ("strong", "greedy", "easy")])
def test_same_seed_same_game(lineup: tuple[str, ...]) -> None:
    rules = short_rules("liverpool", SHORT)

    def run() -> list[Action]:
        bots = [make(name, 40 + i) for i, name in enumerate(lineup)]
        return play_game(Game.new(players=len(lineup), rules=rules, seed=9), bots).actions

    assert run() == run()


# ------------------------------------------------------------------------------------ strength
def test_greedy_beats_random() -> None:
    """Over 20 fixed-seed games greedy's mean score is well below random's (deterministic)."""
    rules = short_rules("liverpool", "2S/10,1S1R/10,2R/10", turn_limit=80)
    greedy_total = random_total = 0.0
    for g in range(20):
        seat = g % 4
        bots = [get("random", seed=g * 10 + p) for p in range(4)]
        bots[seat] = get("greedy", seed=g)
        game = play_game(Game.new(players=4, rules=rules, seed=500 + g), bots)
        greedy_total += game.scores[seat]
        random_total += sum(game.scores[p] for p in range(4) if p != seat) / 3
    assert greedy_total < random_total / 2


def test_playout_ends_the_deal() -> None:
    game = Game.new(players=4, rules=short_rules("liverpool", "2S/10,2R/10"), seed=3)
    assert playout(game)
    assert game.deal == 2 and len(game.deal_scores) == 1


def test_playout_horizon_stops_early_and_the_deal_is_estimated() -> None:
    game = Game.new(players=4, rules=short_rules("liverpool", "2S/10,2R/10"), seed=3)
    assert not playout(game, horizon=3)
    assert game.deal == 1 and game.turn == 4
    value = search.standing(game, 0, ended=False)  # the one value: own points less the others' mean
    expected = strong_module.expected_points(game)
    assert math.isfinite(value) and all(e >= 0 for e in expected)
    assert value == pytest.approx(expected[0] - (sum(expected) - expected[0]) / 3)
    # the estimate grows with the hand's points and the cards still missing
    read = strong_module._interpolate
    assert read(strong_module.EXPECTED_POINTS[1], 60) < read(strong_module.EXPECTED_POINTS[4], 60)
    assert read(strong_module.EXPECTED_POINTS[2], 50) < read(strong_module.EXPECTED_POINTS[2], 90)


def test_card_tracker_reads_events_in_any_slices() -> None:
    """What a seat's tracker knows does not depend on when it looked: updating it at every step (as
    a bot asked out of turn does) or once gives the same knowledge, declined discards included."""
    rules = short_rules("liverpool", "2S/10,1S1R/10", turn_limit=200)
    for seed in range(3):
        steady = {p: KnownCards() for p in range(4)}
        seen = 0
        for _, seat, view, fresh in _greedy_positions(rules, seed, 150):
            tracker = steady[seat]
            tracker.update(view)
            assert (tracker.known, tracker.declined, tracker.discarded, tracker.stock_draws) == (
                fresh.known,
                fresh.declined,
                fresh.discarded,
                fresh.stock_draws,
            )
            seen += bool(fresh.declined)
        assert seen > 10


def test_sampled_hands_agree_with_their_players_last_discard() -> None:
    """A hand sampled for a player, with its last discard back, would discard that card again (as
    greedy, the opponents here, does) more often when ``discards`` is used than when not."""
    rules = short_rules("liverpool", "2S/10,1S1R/10", turn_limit=200)
    agree = {True: 0, False: 0}
    checked = 0
    for seed in range(4):
        for step, (_, seat, view, known) in enumerate(_greedy_positions(rules, seed, 120)):
            if step % 3:
                continue
            s = Snapshot.from_view(view)
            pool = unseen_pool(view, rules)
            for use in (True, False):
                rng = random.Random(step)
                hands, _ = sample_hidden(
                    view, pool, known.known, rng, s, known.stock_draws, None, known.discarded if use else None
                )
                for p, thrown in known.discarded.items():
                    if p == seat or view["down"][p]:
                        continue
                    shaped = Snapshot.from_view(view)
                    shaped.me, shaped.hand = p, list(hands[p])
                    agree[use] += strong_module._consistent(shaped, None, thrown)
                    checked += use
    assert checked > 100
    assert agree[True] > agree[False] * 1.2


def test_sampled_hands_rarely_want_the_card_their_player_declined() -> None:
    """R27 view knowledge: a player who drew from the stock instead of taking the discard did not
    want it; hands sampled with that knowledge want it less often than hands sampled without."""
    rules = short_rules("liverpool", "2S/10,2R/10", turn_limit=200)
    wanting = {True: 0, False: 0}
    checked = 0
    for seed in range(6):
        for _, seat, view, known in _greedy_positions(rules, seed, 60):
            cards = known.known
            s = Snapshot.from_view(view)
            pool = unseen_pool(view, rules)
            for p, refused in known.declined.items():
                if p == seat or view["down"][p] or not refused:
                    continue
                for use in (True, False):
                    rng = random.Random(seed * 1000 + checked)
                    hands, _ = sample_hidden(
                        view, pool, cards, rng, s, known.stock_draws, known.declined if use else None
                    )
                    shaped = Snapshot.from_view(view)
                    shaped.me, shaped.hand = p, list(hands[p])
                    wanting[use] += wants_card(shaped, refused[-1])
                checked += 1
    assert checked > 50
    assert wanting[True] < wanting[False]


# ------------------------------------------------------------------------------------ pieces
def test_deficit_counts_missing_cards() -> None:
    t = tactics(RuleSet())
    assert analyse(t, parse_cards("7H 7S 7D 9C 9D JK 2C"), 2, 0, False)[0] == 0
    assert analyse(t, parse_cards("7H 7S 9C 9D 2C"), 2, 0, False)[0] == 2
    assert analyse(t, parse_cards("3H 4H 5H 6H 7S 7D"), 1, 1, False)[0] == 1
    assert analyse(t, parse_cards("3H 4H 6H KS"), 0, 1, False)[0] == 1
    assert analyse(t, parse_cards("3H 4H JK KS"), 0, 1, False)[0] == 1  # one wild per 4 places (R19)
    assert analyse(t, parse_cards("AH KH QH JH"), 0, 1, False)[0] == 0  # an ace high


def test_greedy_takes_a_useful_discard_and_keeps_its_pairs() -> None:
    game = position(
        short_rules("liverpool", "2S/10"),
        hands=("7H 7S 9C 9D 2C 5D KH QS 4C JD", "2S 3S 4S 5S 6S 8S 10S JS KS AS", "2H 3H 4H 5H 6H 8H 9H 10H JH AH"),
        discard="3C 7D",
        current=0,
        discarder=2,
        seed=5,
    )
    p = 0
    view = game.view(p)
    choice = GreedyBot(seed=0).act(view, game.legal_actions(p))
    assert choice.name == "draw_discard"
    game.apply(choice)
    discard = GreedyBot(seed=0).act(game.view(p), game.legal_actions(p))
    assert discard.name == "discard"
    assert discard.to_dict()["card"] not in ("7H", "7S", "9C", "9D")


def test_registry_and_difficulties() -> None:
    assert {"random", "greedy", "strong", "easy", "medium", "hard"} <= set(names())
    assert set(DIFFICULTIES) == {"easy", "medium", "hard"}
    assert get("medium").name == "greedy"
    assert get("hard").name == "strong"
    assert get("easy", seed=1).name == "easy"
    assert isinstance(get("strong", seed=1, think=0.05), StrongBot)
    with pytest.raises(ValueError, match="unknown bot"):
        get("grandmaster")
    with pytest.raises(ValueError):
        get("strong", think=-1)
    with pytest.raises(ValueError):
        get("greedy", think=1)
    assert all(callable(f) for f in BOTS.values())


def test_easy_mistakes_option() -> None:
    for options, mistakes in (({"mistakes": 0}, 0.0), ({"mistakes": 1}, 1.0), ({}, 0.35)):
        bot = get("easy", seed=1, **options)
        assert isinstance(bot, EasyBot)
        assert bot.mistakes == mistakes
    for bad in (1.5, -0.1, True, "0.2"):
        with pytest.raises(ValueError, match="mistakes must be a number between 0 and 1"):
            get("easy", mistakes=bad)
    with pytest.raises(ValueError, match="takes no options"):
        get("easy", mistake=0.2)


def test_trivial_decisions_return_at_once() -> None:
    """With one legal action the strong bot neither samples nor draws on its thinking time (how long
    that takes is measured by ``make bench``: ``strong_trivial_decision_ms_max``)."""
    game = Game.new(players=3, rules=short_rules(), seed=2)
    bot = StrongBot(seed=1, think=5.0)
    p = game.current
    only = [game.legal_actions(p)[0]]
    bank = bot.bank
    assert bot.act(game.view(p), only) == only[0]
    assert bot.samples == 0 and bot.bank == bank
    assert len(game.legal_actions(p)) > 1  # with the whole list it does think: it samples
    bot = StrongBot(seed=1, samples=2)
    bot.act(game.view(p), game.legal_actions(p))
    assert bot.samples > 0

"""Rules R1-R9 (cards, players, rank order, the cut, the deal, the upcard, turn order, the stock
rebuilt) in both presets, through the public API of Game."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import (
    CONTRACT,
    LIVERPOOL,
    PRESETS,
    assert_conserved,
    assert_refused,
    build,
    card,
    events_of,
    meld,
    play,
    rules,
)
from liverpool import JOKER, Discard, DrawDiscard, DrawStock, Game, LayOff, RuleSet

# ------------------------------------------------------------------------------------------ R1


@pytest.mark.parametrize("players", range(2, 9))
def test_r1_liverpool_two_packs_up_to_five_players_three_from_six(players: int) -> None:
    game = Game.new(players=players, rules=LIVERPOOL, seed=players)
    packs = 2 if players <= 5 else 3
    assert game.deck_size == packs * 54
    assert_conserved(game)
    everything = Counter(game.stock) + Counter(game.discard_pile)
    for p in range(players):
        everything.update(game.hand(p))
    assert everything[JOKER] == 2 * packs
    assert everything[card("7H")] == packs
    assert everything[card("AS")] == packs


@pytest.mark.parametrize("players", range(3, 9))
def test_r1_contract_one_pack_one_joker_for_three_or_four_two_packs_two_jokers_from_five(players: int) -> None:
    game = Game.new(players=players, rules=CONTRACT, seed=players)
    packs = 1 if players <= 4 else 2
    assert game.deck_size == packs * 53
    assert_conserved(game)
    everything = Counter(game.stock) + Counter(game.discard_pile)
    for p in range(players):
        everything.update(game.hand(p))
    assert everything[JOKER] == packs
    assert everything[card("QD")] == packs


def test_r1_contract_four_players_fit_one_pack_exactly() -> None:
    # 53 cards - 4 hands of 12 - the upcard = 4 cards of stock: as many as players, allowed
    game = Game.new(players=4, rules=CONTRACT, seed=3)
    assert game.deck_size == 53


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        ("liverpool", 5, {"packs": 1}),  # 54 cards cannot deal five hands of 12
        ("liverpool", 8, {"pack_schedule": ((8, 2),), "jokers_per_pack": 0}),  # 104 - 96 - 1 = 7 < 8
        ("contract", 4, {"jokers_per_pack": 0}),  # 52 - 48 - 1 = 3 < 4
        ("contract", 5, {"pack_schedule": ((12, 1),)}),  # the seed's "above 5": 53 cards for 5 hands of 12
    ],
)
def test_r1_refused_table_names_the_option_to_change(preset: str, players: int, options: dict[str, object]) -> None:
    rule_set = rules(preset, **options)
    with pytest.raises(ValueError) as info:
        Game.new(players=players, rules=rule_set, seed=1)
    message = str(info.value)
    assert "packs" in message
    assert "option" in message


def test_r1_several_packs_shuffled_together_deal_duplicate_cards() -> None:
    # with 3 packs, some card appears more than once across the dealt hands of a table of 8
    game = Game.new(players=8, rules=LIVERPOOL, seed=11)
    dealt: Counter[object] = Counter()
    for p in range(8):
        dealt.update(game.hand(p))
    assert max(dealt.values()) >= 2
    assert max(dealt.values()) <= 6  # at most every copy: 3 packs, jokers 6


# ------------------------------------------------------------------------------------------ R2


@pytest.mark.parametrize(("preset", "low", "high"), [("liverpool", 2, 8), ("contract", 3, 8)])
def test_r2_players_range(preset: str, low: int, high: int) -> None:
    rule_set = RuleSet.preset(preset)
    for players in (low, high):
        assert Game.new(players=players, rules=rule_set, seed=2).players == players
    for players in (low - 1, high + 1):
        with pytest.raises(ValueError) as info:
            Game.new(players=players, rules=rule_set, seed=2)
        assert "min_players" in str(info.value) and "max_players" in str(info.value)
        assert f"{low}-{high}" in str(info.value)


def test_r2_players_must_be_a_whole_number() -> None:
    with pytest.raises(ValueError, match="whole number"):
        Game.new(players=True, rules=LIVERPOOL, seed=2)


# ------------------------------------------------------------------------------------------ R3


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_ace_low_and_ace_high_in_one_contract(preset: str) -> None:
    game = build(RuleSet.preset(preset), ["AH 2H 3H 4H JS QS KS AS 9D", "5C", "6C"], deal=3)
    play(game, meld(0, "run", "AH 2H 3H 4H"), meld(0, "run", "JS QS KS AS"))
    assert game.view(0)["down"][0]
    starts = [m["start"] for m in game.view(0)["melds"]]
    assert starts == [1, 11]  # the ace counts 1 low, 14 high
    assert_conserved(game)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("run", ["KH AH 2H 3H", "QH KH AH 2H", "KH AH 2H"])
def test_r3_no_wrap_around_the_corner(preset: str, run: str) -> None:
    game = build(RuleSet.preset(preset), ["QH KH AH 2H 3H 5S 6S 7S 8S 9D", "5C", "6C"], deal=3)
    assert_refused(game, meld(0, "run", run), "not a valid run", "R3")


def test_r3_ace_is_never_both_low_and_high_in_one_run() -> None:
    # two packs: a 14-card run A-2-...-K-A would need the ace low and high at once
    whole = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    game = build(LIVERPOOL, [whole + " 5S 6S 7S 8S 9D", "5C", "6C"], deal=3)
    assert_refused(game, meld(0, "run", whole), "not a valid run")


@pytest.mark.parametrize(
    ("table", "lay_off", "high"),
    [
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH", True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "JK", True),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "AH", False),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "JK", False),
    ],
    ids=["A-K+A", "A-K+JK", "A+2-A", "JK+2-A"],
)
def test_r3_a_thirteen_card_run_takes_no_ace_at_its_other_end(table: str, lay_off: str, high: bool) -> None:
    game = build(LIVERPOOL, [lay_off + " 9D", "5C", "6C"], deal=3, melds=[(1, "run", table), (0, "run", "5S 6S 7S 8S")])
    assert_refused(game, LayOff(0, card(lay_off), 0, high=high), "does not fit")


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_lay_off_an_ace_low_or_high_but_never_past_it(preset: str) -> None:
    game = build(
        RuleSet.preset(preset),
        ["AH AS KH 2S 9D", "5C", "6C"],
        deal=3,
        melds=[(1, "run", "2H 3H 4H 5H"), (1, "run", "10S JS QS KS"), (0, "run", "5D 6D 7D 8D")],
    )
    play(game, LayOff(0, card("AH"), 0, high=False), LayOff(0, card("AS"), 1, high=True))
    assert [str(c) for c in game.melds[0].cards] == ["AH", "2H", "3H", "4H", "5H"]
    assert [str(c) for c in game.melds[1].cards] == ["10S", "JS", "QS", "KS", "AS"]
    assert_refused(game, LayOff(0, card("KH"), 0, high=False), "does not fit")  # no K below the low ace
    assert_refused(game, LayOff(0, card("2S"), 1, high=True), "does not fit")  # no 2 above the high ace


@pytest.mark.parametrize("preset", PRESETS)
def test_r3_option_ace_high_off_keeps_the_ace_low_only(preset: str) -> None:
    game = build(rules(preset, ace_high=False), ["JS QS KS AS AH 2H 3H 4H 5S 6S 7S 8S 9D", "5C", "6C"], deal=3)
    assert_refused(game, meld(0, "run", "JS QS KS AS"), "not a valid run")
    play(game, meld(0, "run", "AH 2H 3H 4H"))


# ------------------------------------------------------------------------------------------ R4


def _replay_cut(game: Game) -> int:
    """Who deals first according to the cut events: lowest card, ties (and jokers) cut again."""
    cutting = list(range(game.players))
    for event in events_of(game, "cut"):
        cut = {int(p): card(c) for p, c in event["cards"].items()}
        assert sorted(cut) == cutting, "only the tied players cut again"
        naturals = {p: c.rank for p, c in cut.items() if c.rank}
        if naturals:
            low = min(naturals.values())
            cutting = [p for p, r in naturals.items() if r == low]
    assert len(cutting) == 1
    return cutting[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r4_lowest_cut_deals_first(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    dealers = set()
    for seed in range(40):
        game = Game.new(players=4, rules=rule_set, seed=seed)
        assert events_of(game, "cut"), "everyone cuts for the first deal"
        assert game.dealer == _replay_cut(game)
        dealers.add(game.dealer)
    assert dealers == {0, 1, 2, 3}


def test_r4_an_ace_cut_is_the_lowest_card() -> None:
    for seed in range(200):
        game = Game.new(players=5, rules=LIVERPOOL, seed=seed)
        last = events_of(game, "cut")[-1]["cards"]
        aces = [int(p) for p, c in last.items() if card(c).rank == 1]
        if len(aces) == 1:
            assert game.dealer == aces[0]
            return
    pytest.fail("no seed with a single ace in the cut")


def test_r4_option_no_cut_seat_zero_deals_first() -> None:
    game = Game.new(players=4, rules=rules(cut_for_dealer=False), seed=9)
    assert game.dealer == 0
    assert not events_of(game, "cut")


def _go_out(rule_set: RuleSet, deal: int, players: int, dealer: int) -> Game:
    """Deal ``deal`` where the player left of ``dealer`` is down and goes out by discarding."""
    p = (dealer + 1) % players
    hands = ["KC" if q == p else f"{q + 2}D {q + 2}C" for q in range(players)]
    contract = rule_set.schedule[deal - 1]
    table: list[tuple[int, str, str]] = []
    for i in range(contract.sets):
        rank = ("7", "8", "9")[i]
        table.append((p, "set", f"{rank}H {rank}S {rank}D"))
    for i in range(contract.runs):
        suit = "SHC"[i]
        table.append((p, "run", f"10{suit} J{suit} Q{suit} K{suit}"))
    game = build(rule_set, hands, deal=deal, current=p, dealer=dealer, melds=table)
    play(game, Discard(p, card("KC")))
    return game


@pytest.mark.parametrize("preset", PRESETS)
def test_r4_the_deal_passes_to_the_left_each_deal(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    for deal in range(1, 7):
        dealer = deal % 4
        game = _go_out(rule_set, deal, 4, dealer)
        assert game.deal == deal + 1
        assert game.dealer == (dealer + 1) % 4
        assert game.view(0)["deal_scores"][-1][(dealer + 1) % 4] == 0


# ------------------------------------------------------------------------------------------ R5


@pytest.mark.parametrize("preset", PRESETS)
def test_r5_cut_bonus_is_off_by_default(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    assert rule_set.cut_bonus == 0
    for seed in range(30):
        game = Game.new(players=4, rules=rule_set, seed=seed)
        assert not events_of(game, "cut_bonus")
        assert game.scores == [0, 0, 0, 0]


@pytest.mark.parametrize("preset", PRESETS)
def test_r5_cut_bonus_option_takes_50_off_an_exact_cut(preset: str) -> None:
    rule_set = rules(preset, cut_bonus=50)
    players = 4
    hits = misses = 0
    for seed in range(3000):
        game = Game.new(players=players, rules=rule_set, seed=seed)
        (cut,) = events_of(game, "cut_for_deal")
        assert cut["needed"] == 10 * players + 1  # the cards dealt plus the upcard
        cutter = cut["player"]
        assert cutter == (game.dealer - 1) % players  # the dealer's right-hand neighbour cuts
        if cut["cut"] == cut["needed"]:
            hits += 1
            expected = [0] * players
            expected[cutter] = -50
            assert game.scores == expected
            assert events_of(game, "cut_bonus")[0]["points"] == -50
        else:
            misses += 1
            assert game.scores == [0] * players
            assert not events_of(game, "cut_bonus")
        if hits and misses >= 20:
            break
    assert hits, "no seed cut exactly"


@pytest.mark.parametrize("deal", [2, 5])
def test_r5_cut_bonus_counts_the_cards_of_each_deal(deal: int) -> None:
    rule_set = rules(cut_bonus=50)
    game = _go_out(rule_set, deal - 1, 3, dealer=0)
    assert game.deal == deal
    cut = [e for e in events_of(game, "cut_for_deal") if e["deal"] == deal][-1]
    assert cut["needed"] == rule_set.schedule[deal - 1].cards * 3 + 1
    assert cut["player"] == (game.dealer - 1) % 3


# ------------------------------------------------------------------------------------------ R6


@pytest.mark.parametrize("preset", PRESETS)
def test_r6_hand_sizes_per_deal(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    assert [c.cards for c in rule_set.schedule] == [10, 10, 10, 10, 12, 12, 12]
    game = Game.new(players=4, rules=rule_set, seed=5)
    assert [len(game.hand(p)) for p in range(4)] == [10] * 4
    for deal in range(2, 8):
        game = _go_out(rule_set, deal - 1, 4, dealer=1)
        size = rule_set.schedule[deal - 1].cards
        assert game.deal == deal
        assert [len(game.hand(p)) for p in range(4)] == [size] * 4
        assert game.stock_size == game.deck_size - 4 * size - 1
        assert game.melds == []
        assert game.view(0)["down"] == [False] * 4
        assert_conserved(game)


# ------------------------------------------------------------------------------------------ R7


@pytest.mark.parametrize("preset", PRESETS)
def test_r7_one_upcard_starts_the_discard_pile_the_rest_is_the_stock(preset: str) -> None:
    game = Game.new(players=3, rules=RuleSet.preset(preset), seed=4)
    assert len(game.discard_pile) == 1
    assert game.stock_size == game.deck_size - 3 * 10 - 1
    upcard = game.discard_pile[-1]
    view = game.view(1)
    assert view["discard_pile"] == [str(upcard)]
    assert "stock" not in view  # the stock's cards stay hidden
    first = game.current
    play(game, DrawDiscard(first))
    assert upcard in game.hand(first)
    assert_conserved(game)


def test_r7_option_no_upcard_leaves_the_discard_pile_empty() -> None:
    game = Game.new(players=3, rules=rules(upcard=False), seed=4)
    assert game.discard_pile == []
    assert game.stock_size == game.deck_size - 30
    assert_refused(game, DrawDiscard(game.current), "discard pile is empty")


# ------------------------------------------------------------------------------------------ R8


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [3, 5])
def test_r8_left_of_dealer_plays_first_then_clockwise(preset: str, players: int) -> None:
    rule_set = RuleSet.preset(preset)
    for seed in range(6):
        game = Game.new(players=players, rules=rule_set, seed=seed)
        assert game.current == (game.dealer + 1) % players
    order = []
    for _ in range(players + 1):
        p = game.current
        order.append(p)
        assert_refused(game, DrawStock((p + 1) % players), f"seat {p}")
        play(game, DrawStock(p))
        play(game, Discard(p, sorted(game.hand(p))[-1]))
    first = (game.dealer + 1) % players
    assert order == [(first + i) % players for i in range(players + 1)]


def test_r8_after_a_new_deal_left_of_the_new_dealer_plays_first() -> None:
    game = _go_out(LIVERPOOL, 1, 3, dealer=2)
    assert game.dealer == 0
    assert game.current == 1
    assert game.phase == "draw"


# ------------------------------------------------------------------------------------------ R9


@pytest.mark.parametrize("preset", PRESETS)
def test_r9_empty_stock_is_rebuilt_from_the_discard_pile_less_its_top_card(preset: str) -> None:
    rule_set = RuleSet.preset(preset)
    game = build(
        rule_set,
        ["9S 3C", "4D 5D", "6H 7H"],
        phase="draw",
        stock="5C",
        discard="KD",
        rest="discard",
    )
    assert_conserved(game)
    assert game.stock_size == 1
    play(game, DrawStock(0))
    assert game.stock_size == 0
    pile = Counter(game.discard_pile)
    play(game, Discard(0, card("9S")))
    # the next player's turn opens on a rebuilt stock: the old pile shuffled, the 9S left face up
    assert game.discard_pile == [card("9S")]
    assert Counter(game.stock) == pile
    assert game.stock_size == sum(pile.values())
    assert game.view(1)["rebuilds"] == 1
    assert events_of(game, "stock_rebuilt")
    assert_conserved(game)
    play(game, DrawDiscard(1))  # the top card is still there to take
    assert card("9S") in game.hand(1)


def test_r9_rebuilt_stock_is_shuffled() -> None:
    game = build(LIVERPOOL, ["9S 3C", "4D 5D"], phase="draw", stock="5C", discard="KD", rest="discard")
    old_order = game.discard_pile
    play(game, DrawStock(0), Discard(0, card("9S")))
    assert game.stock != old_order
    assert sorted(game.stock) == sorted(old_order)


def test_r9_edge_sets_from_several_packs_rebuild_keeps_duplicates() -> None:
    # two packs: the pile holds two of many cards; the rebuilt stock keeps every copy
    game = build(LIVERPOOL, ["9S 3C", "4D 5D"], phase="draw", stock="5C", discard="7H 7H", rest="discard")
    play(game, DrawStock(0), Discard(0, card("9S")))
    assert Counter(game.stock)[card("7H")] == 2
    assert_conserved(game)

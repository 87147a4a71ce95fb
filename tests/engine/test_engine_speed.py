"""The engine's shortcuts in listing lay-downs against the plain algorithm they stand for.

``Game._legal_melds`` takes the solver's best completion first and lets it vouch for candidates
(:class:`liverpool.game._Witness`, ``Game._witness_allows``) instead of running the existence test
or search on each; ``reference_legal_melds`` below is the listing without those shortcuts. They must
agree exactly (same melds, same order) in every position.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

from liverpool import Game, Meld, Pass, RuleSet
from liverpool.actions import Action
from liverpool.cards import SUITS, Card, full_deck
from liverpool.game import DRAW, PLAY, _canonical_sets, _Witness
from liverpool.melds import set_rank
from liverpool.rules import parse_schedule
from liverpool.solver import RestChecker, can_complete, candidate_melds, solve

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "liverpool": ("liverpool", {}),
    "contract": ("contract", {}),
    "wild_exact": ("liverpool", {"wild_rank": 2, "exact_melds": True}),
    "distinct": (
        "liverpool",
        {"sets_distinct_ranks": True, "runs_distinct_suits": True, "set_distinct_suits": True, "set_max": 4},
    ),
    "whole": ("liverpool", {"schedule": parse_schedule("2S/8,1S1R/8,2R/9*,1S2R/12*,3R/12*")}),
    "penalty_pile": ("liverpool", {"failed_meld_penalty": 10, "pile_draw": True, "wild_rank": 2}),
    "pile": ("contract", {"pile_draw": True}),
}


def reference_legal_melds(game: Game, p: int) -> list[Action]:
    """``Game._legal_melds`` without the completion witness: every candidate is checked by the
    existence test (or by ``_meld_problem`` with no witness, that is by the solver), and the best
    completion is asked for afterwards."""
    rules, contract = game.rules, game.contract
    hand = game.hands[p]
    counts = game._pending_counts()
    sets, runs, ranks, suits = counts
    left_sets, left_runs = contract.sets - sets, contract.runs - runs
    check = not rules.failed_meld_penalty or game.must_meld is not None
    must = game.must_meld
    if must is not None and game._pending_has(must):
        must = None
    exact = rules.exact_melds and not contract.whole_hand
    out: list[Action] = []
    witness = None

    def completion() -> list[list[Any]] | None:
        return solve(
            hand,
            left_sets,
            left_runs,
            rules,
            whole_hand=contract.whole_hand,
            must_use=must,
            used_set_ranks=ranks,
            used_run_suits=suits,
        )

    if check and (must is not None or contract.whole_hand):
        witness = completion()
        if witness is None:
            return []
        for kind, left in (("set", left_sets), ("run", left_runs)):
            if left > 0:
                for cards in candidate_melds(hand, kind, rules, exact=exact):
                    if game._meld_problem(p, kind, cards, True) is None:
                        out.append(Meld(p, kind, tuple(cards)))
    else:
        checker = RestChecker(hand, rules) if check else None
        if checker is not None and not checker((), left_sets, left_runs, ranks, suits):
            return []
        if left_sets > 0:
            for cards in candidate_melds(hand, "set", rules, exact=exact):
                rank = set_rank(cards, rules)
                if rules.sets_distinct_ranks and rank in ranks:
                    continue
                if checker is None or checker(
                    cards, left_sets - 1, left_runs, ranks | {rank} if rank else ranks, suits
                ):
                    out.append(Meld(p, "set", tuple(cards)))
        if left_runs > 0:
            for cards in candidate_melds(hand, "run", rules, exact=exact):
                suit = next(c.suit for c in cards if not rules.is_wild(c.rank))
                if rules.runs_distinct_suits and suit in suits:
                    continue
                if checker is None or checker(cards, left_sets, left_runs - 1, ranks, suits | {suit}):
                    out.append(Meld(p, "run", tuple(cards)))
    if check:
        best = witness if must is not None or contract.whole_hand else completion()
        listed = {(a.kind, a.cards) for a in out if isinstance(a, Meld)}
        for i, cards in enumerate(best or []):
            kind = "set" if i < left_sets else "run"
            if (kind, tuple(cards)) not in listed and game._meld_problem(p, kind, cards, check) is None:
                out.append(Meld(p, kind, tuple(cards)))
    return out


def _eager(legal: list[Action], rng: random.Random) -> Action:
    melds = [a for a in legal if isinstance(a, Meld)]
    return rng.choice(melds) if melds and rng.random() < 0.8 else rng.choice(legal)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_legal_melds_agree_with_the_reference(variant: str) -> None:
    preset, options = VARIANTS[variant]
    rule_set = RuleSet.preset(preset).with_options(**options) if options else RuleSet.preset(preset)
    rng = random.Random(variant)
    compared = 0
    for game_number in range(3):
        players = max(rule_set.min_players, 3 + game_number)
        game = Game.new(players=players, rules=rule_set, seed=rng.getrandbits(32))
        deck = full_deck(rule_set.packs_for(players), rule_set.jokers_per_pack)
        steps = 0
        while not game.is_over and steps < 2500:
            p = game.current
            if game.phase == PLAY and not game.down[p] and not game.retracted:
                assert game._legal_melds(p) == _canonical_sets(reference_legal_melds(game, p))
                compared += 1
                # a random hand of the same size in the same position (melding hands are rare)
                saved = game.hands[p]
                for _ in range(3):
                    game.hands[p] = rng.sample(deck, len(saved))
                    assert game._legal_melds(p) == _canonical_sets(reference_legal_melds(game, p))
                    compared += 1
                game.hands[p] = saved
            legal = game.legal_actions(None if game.phase == DRAW else p)
            game.apply(_eager(legal, rng))
            steps += 1
    assert compared > 100


def test_witness_is_sound() -> None:
    """Whenever the witness vouches for a candidate, the existence test agrees."""
    rng = random.Random(5)
    for preset in ("liverpool", "contract"):
        rule_set = RuleSet.preset(preset)
        deck = full_deck(2, 2)
        vouched = 0
        for _ in range(400):
            contract = rng.choice(rule_set.schedule[:6])
            hand = rng.sample(deck, rng.randint(10, 14))
            best = solve(hand, contract.sets, contract.runs, rule_set)
            if not best:
                continue
            fits = _Witness(hand, best, contract.sets, rule_set)
            checker = RestChecker(hand, rule_set)
            for kind, left in ((0, contract.sets), (1, contract.runs)):
                if not left:
                    continue
                for cards in candidate_melds(hand, "set" if kind == 0 else "run", rule_set):
                    nat = [c for c in cards if not rule_set.is_wild(c.rank)]
                    key = nat[0].rank if kind == 0 else nat[0].suit
                    if fits(kind, cards, key):
                        vouched += 1
                        sets, runs = contract.sets - (kind == 0), contract.runs - (kind == 1)
                        ranks = frozenset({key}) if kind == 0 else frozenset()
                        suits = frozenset({key}) if kind == 1 else frozenset()
                        assert checker(cards, sets, runs, ranks, suits)  # type: ignore[arg-type]
                        rest = list(hand)
                        for c in cards:
                            rest.remove(c)
                        assert can_complete(rest, sets, runs, rule_set)
        assert vouched > 100


@pytest.mark.parametrize("preset", ["liverpool", "contract"])
def test_play_leaves_no_reference_cycles(preset: str) -> None:
    """Engine, solver and greedy bot free what they allocate by reference counting alone: a
    recursive closure left bound is a reference cycle that only the cyclic collector frees, and such
    garbage once cost a tenth of a greedy game's time in collections."""
    import gc

    from liverpool.bots import get
    from liverpool.driver import play_game

    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        game = Game.new(players=4, seed=31, rules=RuleSet.preset(preset))
        play_game(game, [get("greedy", seed=i) for i in range(4)])
        assert game.is_over
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def reference_candidate_sets(hand: list[Card], rules: RuleSet, *, exact: bool) -> list[list[Card]]:
    """The sets ``candidate_melds`` lists, as its first version built them: for each rank, every
    product of per-suit choices (most cards first, the first suit outermost) times every multiset of
    the hand's wild cards (sorted by length, the wilds worth most first)."""
    wr = rules.wild_rank or 0
    wild_count: dict[Card, int] = {}
    naturals: dict[tuple[int, int], int] = {}
    for card in hand:
        if card.rank in (0, wr):
            wild_count[card] = wild_count.get(card, 0) + 1
        else:
            key = (card.rank, SUITS.index(card.suit))
            naturals[key] = naturals.get(key, 0) + 1
    kinds = sorted(wild_count.items(), key=lambda kv: (-rules.points(kv[0].rank), kv[0].code))
    wild_sets = [
        [card for (card, _), k in zip(kinds, counts, strict=True) for _ in range(k)]
        for counts in product(*(range(k + 1) for _, k in kinds))
    ]
    wild_sets.sort(key=len)
    low = rules.set_min
    high = rules.set_min if exact else (rules.set_max if rules.set_max is not None else 1 << 30)
    nmin = rules.set_min_naturals
    out: list[list[Card]] = []
    for r in range(1, 14):
        c = [naturals.get((r, si), 0) for si in range(4)]
        if sum(c) < nmin:
            continue
        limit = [min(x, 1) for x in c] if rules.set_distinct_suits else c
        choices = [[[Card(r, SUITS[si])] * t for t in range(limit[si], -1, -1)] for si in range(4)]
        for c0, c1, c2, c3 in product(*choices):
            nat = c0 + c1 + c2 + c3
            if nmin <= len(nat) <= high:
                out.extend(nat + ws for ws in wild_sets if low <= len(nat) + len(ws) <= high)
    return out


@pytest.mark.parametrize(
    "options",
    [{}, {"wild_rank": 2}, {"set_distinct_suits": True, "set_max": 4}, {"wild_rank": 2, "set_max": 5}],
    ids=["plain", "wild", "distinct_suits", "wild_max"],
)
def test_candidate_sets_agree_with_the_reference(options: dict[str, Any]) -> None:
    rng = random.Random(17)
    deck = full_deck(3, 3)
    for preset in ("liverpool", "contract"):
        rules = RuleSet.preset(preset).with_options(**options)
        for _ in range(1500):
            hand = rng.sample(deck, rng.randint(0, 16))
            for exact in (False, True):
                assert candidate_melds(hand, "set", rules, exact=exact) == reference_candidate_sets(
                    hand, rules, exact=exact
                )


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_listing_after_a_pass_is_the_full_listing(name: str) -> None:
    """After a Pass, legal_actions() reuses the listing before it less the passer's actions; it must
    be exactly what the full listing gives, in every position of games of mixed bots."""
    from liverpool.bots import get

    preset, options = VARIANTS[name]
    rules = RuleSet.preset(preset).with_options(**options)
    rng = random.Random(name)
    checked = 0
    for _ in range(3):
        players = rng.choice([3, 4, 5])
        game = Game.new(players=players, seed=rng.getrandbits(32), rules=rules)
        bots = [get(rng.choice(["greedy", "random"]), seed=i) for i in range(players)]
        steps = 0
        while not game.is_over and steps < 600:
            legal = game.legal_actions()
            assert legal == game._legal()
            seat = legal[0].player
            for action in legal:
                if action.player != game.current:
                    seat = action.player  # out of turn seats first, as the driver asks them
                    break
            mine = [a for a in legal if a.player == seat]
            game.apply(bots[seat].act(game.view(seat), mine))
            checked += isinstance(game.actions[-1], Pass)
            steps += 1
    if rules.buying or rules.playable_discard in ("call", "liverpool"):
        assert checked > 0  # (the contract preset has no out-of-turn windows, so no Pass)

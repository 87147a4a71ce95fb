"""Every refusal a rule makes names that rule (issue 10: ``IllegalAction.rule``).

Random games over both presets and random house rules; at random points every seat tries a set
of plausible but illegal actions (draws, buys, calls and passes naming the top discard, discards
and lay-offs of each card held, melds of cards held, swaps, ends of turn). Each refusal whose code
is a rule refusal (:data:`liverpool.errors.RULE_CODES`: ``wrong_phase``, ``invalid_meld``,
``forbidden``) must carry ``rule``; the bookkeeping codes (``malformed``, ``stale``, ``game_over``,
``not_your_turn``, ``not_in_hand``, ``no_such_meld``) need not."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from liverpool import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    Game,
    IllegalAction,
    LayOff,
    Meld,
    Pass,
    Retract,
    RuleSet,
    SwapJoker,
    Unswap,
)
from liverpool.errors import CODES, RULE_CODES
from liverpool.rules import parse_schedule

SHORT = "2S/10,1S1R/10,0S2R/10,1S2R/12,3R/12*"
GROUPED = "2S/10,1S[4]1R/10,1R[5]1R[=4]/11,2S[=3]/10,1S1R[6]/12*"

OPTIONS: dict[str, list[object]] = {
    "buy_precedence": ["nearest", "first"],
    "playable_discard": ["call", "liverpool", "strict", "off"],
    "liverpool_resume": ["in_turn", "after_caller"],
    "joker_swap": ["going_down_turn", "once_down", "later_turns", "off"],
    "floating": [True, False, "refuse"],
    "pile_draw": [False, True],
    "exact_melds": [False, True],
    "layoff_same_turn": [True, False],
    "failed_meld_penalty": [0, 50],
    "run_joker_check": ["always", "initial"],
    "wild_rank": [None, 2],
    "buy_limit": [None, 0, 1],
    "down_may_buy": [True, False],
    "stock_rebuilds": [None, 0, 1],
    "down_may_take_discard": [True, False],
    "swap_must_play": [True, False],
    "wild_rank_swappable": [True, False],
    "set_distinct_suits": [False, True, "laydown"],
    "sets_distinct_ranks": [False, True],
    "runs_distinct_suits": [False, True],
    "buy_window": ["until_draw", "until_discard"],
    "run_wild_limit": ["spacing", "ratio", "half", "none"],
    "run_min_naturals": [1, 0],
    "set_min_naturals": [2, 1, 0],
    "ace": [None, "low", "high", "either", "both"],
    "runs_same_suit_gap": [None, 2],
    "progression": ["table", "player"],
}


def random_rules(rng: random.Random) -> RuleSet:
    base = RuleSet.preset(rng.choice(["liverpool", "contract"]))
    schedule = parse_schedule(GROUPED if rng.random() < 0.3 else SHORT)
    changes = {name: rng.choice(values) for name, values in OPTIONS.items() if rng.random() < 0.35}
    try:
        return dataclasses.replace(base, schedule=schedule, turn_limit=60, **changes)  # type: ignore[arg-type]
    except ValueError:  # an invalid combination of options
        return dataclasses.replace(base, schedule=schedule, turn_limit=60)


def candidates(game: Game, q: int, rng: random.Random) -> Iterator[Action]:
    """Plausible actions of seat ``q``: most are illegal now."""
    pile = game.discard_pile
    top = pile[-1] if pile else None
    yield DrawStock(q)
    yield DrawDiscard(q, top)
    yield Buy(q, top)
    yield Call(q, top)
    yield Pass(q)
    for depth in range(1, min(4, len(pile))):
        yield DrawFromPile(q, depth, pile[-1 - depth])
    hand = game.hand(q)
    melds = game.melds
    for card in sorted(set(hand)):
        yield Discard(q, card)
        if melds:
            yield LayOff(q, card, rng.choice(melds).id, rng.random() < 0.5)
            meld = rng.choice(melds)
            yield SwapJoker(q, meld.id, rng.randrange(len(meld.cards)), card)
    by_rank: dict[int, list[object]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 2:
            yield Meld(q, "set", tuple(sorted(group[:3])))  # type: ignore[arg-type]
    for _ in range(3):
        if len(hand) >= 4:
            yield Meld(q, rng.choice(["set", "run"]), tuple(rng.sample(hand, rng.choice([3, 4]))))
    yield Unswap(q)
    yield EndTurn(q)
    yield Retract(q)


def test_rule_codes_are_codes() -> None:
    assert set(RULE_CODES) < set(CODES)
    assert {"malformed", "stale", "not_your_turn"}.isdisjoint(RULE_CODES)


# no shrinking: the seed is all there is to shrink, and the message names the refusal.
# Derandomized: the same 25 games every run. Some random house rules (grouped contracts with pile
# draws) make the general solver very slow (a known gap, docs/performance.md); a drawn seed hit one
# and ran for half an hour, so CI runs a fixed, measured set.
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_every_rule_refusal_names_its_rule(seed: int, players: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    try:
        game = Game.new(players=players, rules=rules, seed=seed)
    except ValueError:  # a table these rules cannot deal for
        return
    unnamed: dict[str, str] = {}
    named = 0
    steps = 0
    while not game.is_over and steps < 1500:
        steps += 1
        if rng.random() < 0.08:
            legal = set(game.legal_actions())
            for q in range(players):
                for action in candidates(game, q, rng):
                    if action in legal:
                        continue
                    try:
                        game.verify(action)
                    except IllegalAction as exc:
                        assert exc.code in CODES
                        if exc.code in RULE_CODES:
                            if exc.rule is None:
                                unnamed.setdefault(str(exc), str(action))
                            else:
                                assert f"({exc.rule}" in str(exc) or f" {exc.rule}" in str(exc)
                                named += 1
        legal_now = game.legal_actions()
        game.apply(rng.choice(legal_now))
    assert not unnamed, f"rule refusals without a rule number: {unnamed}"
    assert named or steps < 100, "the candidates met no rule refusal"

"""One home per rule (issue 10), the facts the greedy bot used to work out itself and now asks the
engine for (``Snapshot.progress``, ``floats_when_empty``, ``swap_yield``, ``is_wild``):

- the contract progress of a player part-way through laying down (R10, R14): the sets and runs
  staged and the set ranks / run suits they use, :func:`liverpool.game.staged_progress`, the count
  the listing makes (``Game._pending_counts``);
- whether melding the last card floats or goes out (R15, R37, R38),
  :func:`liverpool.game.empty_hand_floats`, the rule applying follows;
- the wild card a joker swap puts in the hand (R20, R46), :meth:`Game.swap_yield`;
- which cards are wild (R46; a dead deuce is not), :meth:`RuleSet.is_wild`.

Each is compared with the engine over every decision of greedy games on random house rules, and
the copies the bot had (which disagreed under some variants) are pinned by exact positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import greedy_decisions
from liverpool import Card, Game, LayOff, Meld, RuleSet, SwapJoker
from liverpool.actions import Action
from liverpool.bots.greedy import Snapshot
from liverpool.bots.greedy import policy as greedy_policy
from liverpool.bots.greedy.tactics import tactics
from liverpool.cards import DEAD_DEUCES, JOKER, full_deck
from liverpool.game import answers, empty_hand_floats, staged_melds, staged_progress
from liverpool.solver import solve
from rules_helpers import PRESETS, apply_all, cards, position, rules

HOUSE: dict[str, list[Any]] = {
    "floating": [False, True, "refuse"],
    "wild_rank": [None, 2, 2],
    "wild_rank_swappable": [True, False],
    "wild_rank_natural_sets": [False, True],
    "dead_discarded_wild": [False, True],
    "sets_distinct_ranks": [False, True],
    "runs_distinct_suits": [False, True],
    "joker_swap": ["going_down_turn", "once_down", "later_turns"],
    "layoff_same_turn": [False, True],
}


def _games(seed: int, count: int) -> Iterator[tuple[Game, int, list[Action]]]:
    """(game, seat to act, its legal actions) at every decision of ``count`` greedy games."""
    return greedy_decisions(seed, count, HOUSE, players=(3, 4))


@pytest.mark.parametrize("seed", [1, 2])
def test_greedy_facts_are_the_engines_over_random_games(seed: int) -> None:
    staged = floats = swaps = 0
    for game, seat, legal in _games(seed, 6):
        view = game.view(seat)
        from_view = Snapshot.from_view(view)
        from_game = Snapshot.from_game(game, seat)
        # R10, R14: the contract progress, as the listing counts it
        if game.staged() and seat == game.current:
            engine = game._pending_counts()
            assert from_view.progress() == from_game.progress() == engine
            assert staged_progress(staged_melds(view), game.rules) == engine
            staged += 1
        # R20: the wild card each listed swap yields, as applying it gives
        for a in legal:
            if isinstance(a, SwapJoker):
                trial = game.copy()
                trial.apply(a)
                gained = list((Counter(trial.hand(seat)) - Counter(game.hand(seat))).elements())
                assert [from_view.swap_yield(a)] == [from_game.swap_yield(a)] == [game.swap_yield(a)] == gained
                swaps += 1
        # R15, R37, R38: melding the last card floats or goes out, as applying it does
        if len(game.hand(seat)) == 1 and seat == game.current:
            for a in legal:
                if isinstance(a, LayOff):
                    trial = game.copy()
                    trial.apply(a)
                    floated = any(e["type"] == "float" for e in trial.events[len(game.events) :])
                    assert from_view.floats_when_empty() == floated
                    floats += 1
    assert staged and swaps and floats, (staged, swaps, floats)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"wild_rank": 2},
        {"wild_rank": 2, "dead_discarded_wild": True},
        {"wild_rank": 2, "wild_rank_natural_sets": True},
    ],
)
def test_snapshot_is_wild_is_the_rules(preset: str, options: dict[str, Any]) -> None:
    """R46: the greedy bot's wild cards are the engine's, a dead deuce (``2H~``) never wild."""
    r = rules(preset, **options)
    s = Snapshot()
    s.rules, s.t = r, tactics(r)
    for c in [*sorted(set(full_deck(1, 1))), *DEAD_DEUCES]:
        assert s.is_wild(c) == r.is_wild(c.rank)
    assert not any(s.is_wild(c) for c in DEAD_DEUCES)
    assert s.is_wild(JOKER) and s.is_wild(Card(2, "H")) == (r.wild_rank == 2)


def _plan_args(monkeypatch: pytest.MonkeyPatch, game: Game) -> dict[str, Any]:
    """The solver arguments of the greedy bot's lay-down plan from seat 0's view of ``game``."""
    seen: list[dict[str, Any]] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return solve(*args, **kwargs)

    monkeypatch.setattr(answers, "solve", spy)  # the greedy bot's plan is the engine's plan_melds
    melds = [a for a in game.legal_actions(0) if isinstance(a, Meld)]
    assert melds
    greedy_policy._plan_meld(Snapshot.from_view(game.view(0)), melds)
    return seen[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_plan_meld_counts_a_staged_set_of_deuces_by_its_rank(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """R46 ``wild_rank_natural_sets``: a staged set of deuces is a set of 2s; with
    ``sets_distinct_ranks`` the plan may not use that rank again. The bot's own count (naturals
    only, deuces left out) saw no rank at all."""
    r = rules(preset, wild_rank=2, wild_rank_natural_sets=True, sets_distinct_ranks=True)
    game = position(r, hands=("2S 2H 2D 9C 9D 9H KD", "3C 4D 5H", "6C 7D 8H", "5S"), current=0, phase="play")
    apply_all(game, Meld(0, "set", tuple(sorted(cards("2S 2H 2D")))))
    assert game._pending_counts() == (1, 0, frozenset({2}), frozenset())
    args = _plan_args(monkeypatch, game)
    assert args["used_set_ranks"] == frozenset({2}) and args["used_run_suits"] == frozenset()


@pytest.mark.parametrize("preset", PRESETS)
def test_plan_meld_counts_a_staged_declared_run_by_its_suit(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """R17 ``run_min_naturals`` 0: a staged run of jokers declared 5S is a spade run; with
    ``runs_distinct_suits`` the plan may not lay another spade run. The bot read the staged cards
    without their declaration and saw no suit."""
    r = rules(preset, packs=3, run_wild_limit="none", run_min_naturals=0, runs_distinct_suits=True)
    jokers = "JK JK JK JK" if preset == "liverpool" else "JK JK JK"
    hand = f"{jokers} 6H 7H 8H 9H KD"
    game = position(r, hands=(hand, "3C 4D 5H", "6C 7D 8H", "5D"), current=0, phase="play", deal=3)
    assert game.contract.runs == 2
    apply_all(game, Meld(0, "run", tuple(cards(jokers)), Card(5, "S")))
    assert staged_melds(game.view(0))[0][1] == game.staged()[0][1]
    assert game._pending_counts()[3] == frozenset({"S"})
    args = _plan_args(monkeypatch, game)
    assert args["used_run_suits"] == frozenset({"S"})


@pytest.mark.parametrize("preset", PRESETS)
def test_swap_yield_is_the_deuce_with_deuces_wild(preset: str) -> None:
    """R20, R46: swapping the natural for a deuce laid as a wild card yields the deuce, not a joker
    (the greedy bot judged every swap as if it yielded a joker)."""
    r = rules(preset, wild_rank=2, joker_swap="going_down_turn")
    game = position(
        r,
        hands=("6H QH QC QD 9S KD", "3C 4D 5S", "6C 7D 9D", "5D"),
        current=0,
        phase="play",
        melds=[(1, "run", "5H 2C 7H 8H")],
        down=[1],
        deal=2,
    )
    swaps = [a for a in game.legal_actions(0) if isinstance(a, SwapJoker)]
    assert swaps == [SwapJoker(0, 0, 1, Card(6, "H"))]
    s = Snapshot.from_view(game.view(0))
    assert s.swap_yield(swaps[0]) == game.swap_yield(swaps[0]) == Card(2, "C")
    apply_all(game, swaps[0])
    assert Card(2, "C") in game.hand(0)


@pytest.mark.parametrize("floating", [False, True, "refuse"])
@pytest.mark.parametrize("whole_hand", [False, True])
def test_empty_hand_floats(floating: Any, whole_hand: bool) -> None:
    """R15, R37, R38: floating on (or "refuse") floats, off goes out; a whole-hand deal goes out."""
    r = RuleSet(floating=floating)
    assert empty_hand_floats(r, whole_hand) == (bool(floating) and not whole_hand)

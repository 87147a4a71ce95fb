"""Seeded playthrough digests (OpenSpiel-style regression test): the engine's behaviour, pinned.

Each case plays one game from a fixed seed with a seeded random policy and hashes, at every step,
the full list of legal actions (``str`` of each, in order), each seat's own list, the reason
:meth:`Game.verify` gives for a fixed set of probe actions (legal or not), and now and then the
current player's view; at the end the events and scores. Any change to which actions are legal,
their order, the refusal messages or what an action does changes a digest.

Some steps apply an equal copy of the chosen action (rebuilt from its dict) rather than the listed
object itself, so that both paths through :meth:`Game.apply` are covered.

A digest changes only when behaviour changes. If that is intended (a rule fix), regenerate them
with ``.venv/bin/python tests/test_playthrough.py`` and paste the printed ``EXPECTED`` dict here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
from typing import Any

import pytest

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
    action_from_dict,
)
from liverpool.rules import parse_schedule

SHORT = {"turn_limit": 40}
OPTION_SETS: dict[str, dict[str, Any]] = {
    "plain": {},
    "short": SHORT,
    "pile": {"pile_draw": True, "turn_limit": 40},
    "penalty": {"failed_meld_penalty": 25, "turn_limit": 40},
    "wild_exact": {"wild_rank": 2, "exact_melds": True, "turn_limit": 40},
    "liverpool_call": {"playable_discard": "liverpool", "joker_swap": "once_down", "turn_limit": 40},
    "strict": {"playable_discard": "strict", "layoff_same_turn": False, "joker_swap": "later_turns", "turn_limit": 60},
    "distinct": {
        "sets_distinct_ranks": True,
        "runs_distinct_suits": True,
        "set_distinct_suits": True,
        "set_max": 4,
        "turn_limit": 40,
    },
    "misc": {
        "floating": False,
        "buy_precedence": "first",
        "buy_limit": 2,
        "run_joker_check": "initial",
        "ace_high": False,
        "turn_limit": 40,
    },
    "whole": {"schedule": parse_schedule("2S/8,1S1R/8,2R/9*,1S2R/12*"), "turn_limit": 40},
    "stock": {"stock_rebuilds": 0, "upcard": False, "cut_for_dealer": False, "cut_bonus": 10, "turn_limit": 60},
    "noswap": {"joker_swap": "off", "discard_lock": False, "knock": False, "down_may_buy": False, "turn_limit": 40},
    "penalty_pile": {"failed_meld_penalty": 10, "pile_draw": True, "wild_rank": 2, "turn_limit": 40},
}

# (case id, preset, players, option set, policy, seed); policy "eager" prefers melding moves.
CASES: list[tuple[str, str, int, str, str, int]] = [
    ("liv2-plain-uniform", "liverpool", 2, "plain", "uniform", 1),
    ("liv4-plain-uniform", "liverpool", 4, "plain", "uniform", 2),
    ("liv3-short-eager", "liverpool", 3, "short", "eager", 3),
    ("liv4-short-eager", "liverpool", 4, "short", "eager", 4),
    ("liv5-short-eager", "liverpool", 5, "short", "eager", 5),
    ("liv6-short-uniform", "liverpool", 6, "short", "uniform", 6),
    ("liv4-pile-eager", "liverpool", 4, "pile", "eager", 7),
    ("liv3-penalty-eager", "liverpool", 3, "penalty", "eager", 8),
    ("liv4-penalty-uniform", "liverpool", 4, "penalty", "uniform", 9),
    ("liv4-wild_exact-eager", "liverpool", 4, "wild_exact", "eager", 10),
    ("liv4-liverpool_call-eager", "liverpool", 4, "liverpool_call", "eager", 11),
    ("liv5-strict-eager", "liverpool", 5, "strict", "eager", 12),
    ("liv4-distinct-eager", "liverpool", 4, "distinct", "eager", 13),
    ("liv2-misc-eager", "liverpool", 2, "misc", "eager", 14),
    ("liv4-whole-eager", "liverpool", 4, "whole", "eager", 15),
    ("liv3-stock-eager", "liverpool", 3, "stock", "eager", 16),
    ("liv6-noswap-eager", "liverpool", 6, "noswap", "eager", 17),
    ("liv4-penalty_pile-eager", "liverpool", 4, "penalty_pile", "eager", 18),
    ("con3-plain-uniform", "contract", 3, "plain", "uniform", 19),
    ("con4-short-eager", "contract", 4, "short", "eager", 20),
    ("con5-short-eager", "contract", 5, "short", "eager", 21),
    ("con6-short-uniform", "contract", 6, "short", "uniform", 22),
    ("con4-penalty-eager", "contract", 4, "penalty", "eager", 23),
    ("con3-wild_exact-eager", "contract", 3, "wild_exact", "eager", 24),
    ("con4-liverpool_call-eager", "contract", 4, "liverpool_call", "eager", 25),
    ("con4-strict-eager", "contract", 4, "strict", "eager", 26),
    ("con5-misc-eager", "contract", 5, "misc", "eager", 27),
    ("con4-whole-eager", "contract", 4, "whole", "eager", 28),
    ("con3-stock-uniform", "contract", 3, "stock", "uniform", 29),
    ("con4-penalty_pile-eager", "contract", 4, "penalty_pile", "eager", 30),
]

MAX_STEPS = 1500
EAGER_KINDS = (Meld, LayOff, SwapJoker)


def _probes(game: Game) -> list[Action]:
    """A fixed set of actions to ask verify about: most illegal, some legal."""
    p = game.current
    q = (p + 1) % game.players
    hand = game.hand(p)
    out: list[Action] = [DrawStock(p), DrawDiscard(q), DrawFromPile(p, 1), Buy(q), Pass(q), Call(q), Pass(p)]
    out += [EndTurn(p), Retract(p), Unswap(p), Discard(q, hand[0] if hand else game.hand(q)[0])]
    if hand:
        ordered = sorted(hand)
        out += [
            Discard(p, hand[0]),
            Discard(p, hand[-1]),
            Meld(p, "set", tuple(hand[:3])),
            Meld(p, "set", tuple(ordered[:3])),
            Meld(p, "run", tuple(ordered[:4])),
            Meld(p, "run", tuple(ordered[-4:])),
            Meld(p, "pair", tuple(hand[:2])),
            LayOff(p, hand[0], 0, True),
            LayOff(p, hand[-1], 0, False),
            SwapJoker(p, 0, 0, hand[0]),
        ]
    return out


def _reason(game: Game, action: Action) -> str:
    try:
        game.verify(action)
    except IllegalAction as exc:
        return str(exc)
    return "ok"


def playthrough_digest(preset: str, players: int, options: str, policy: str, seed: int) -> str:
    rules = dataclasses.replace(RuleSet.preset(preset), **OPTION_SETS[options])
    game = Game.new(players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()

    def feed(obj: object) -> None:
        h.update(json.dumps(obj, sort_keys=True, default=str).encode())
        h.update(b"\n")

    for step in range(MAX_STEPS):
        if game.is_over:
            break
        legal = game.legal_actions()
        feed([str(a) for a in legal])
        feed([[str(a) for a in game.legal_actions(s)] for s in range(players)])
        feed([_reason(game, a) for a in _probes(game)])
        assert all(game.can_apply(a) for a in legal)
        if step % 25 == 0:
            feed(game.view(game.current))
        choice = legal
        if policy == "eager":
            melding: list[Action] = [a for a in legal if isinstance(a, EAGER_KINDS)]
            if melding and rng.random() < 0.85:
                choice = melding
        action = choice[rng.randrange(len(choice))]
        if rng.random() < 0.3:
            action = action_from_dict(action.to_dict())
        game.apply(action)
    feed(game.events)
    feed([game.scores, game.is_over, game.version])
    return h.hexdigest()[:20]


EXPECTED: dict[str, str] = {
    "liv2-plain-uniform": "8b50aa2177919da299dc",
    "liv4-plain-uniform": "9653083bb33b611da26a",
    "liv3-short-eager": "1f2371b03b9cf9d42117",
    "liv4-short-eager": "dfd9f170be52908cfd45",
    "liv5-short-eager": "419499ca477fc1d2a7c2",
    "liv6-short-uniform": "f4155bce15c08a29ed0e",
    "liv4-pile-eager": "f5af7a2835385445f90d",
    "liv3-penalty-eager": "e9ed0f3f615a7ff26177",
    "liv4-penalty-uniform": "325e02460e5fe4c4e7b8",
    "liv4-wild_exact-eager": "426e0d17a662be173eb6",
    "liv4-liverpool_call-eager": "6a43e3f15e987f2c0891",
    "liv5-strict-eager": "e7f01b127eaa85c3bedb",
    "liv4-distinct-eager": "4d0afa54ea48ee6c3956",
    "liv2-misc-eager": "fc8570c2fb0f2c7b2252",
    "liv4-whole-eager": "a3c01666a294bf68b738",
    "liv3-stock-eager": "fc135024122d2aa09c46",
    "liv6-noswap-eager": "0959dbd3a1332f887c5b",
    "liv4-penalty_pile-eager": "eb5b3db271ee29319203",
    "con3-plain-uniform": "46335273c1b528009045",
    "con4-short-eager": "a0f26e8938259118b270",
    "con5-short-eager": "9d62b96f3dca77804b6f",
    "con6-short-uniform": "5cc6dd82c59b757df3e7",
    "con4-penalty-eager": "addf06aa2c003d64e9f7",
    "con3-wild_exact-eager": "1ae8d4579d05ec881832",
    "con4-liverpool_call-eager": "796f9ac2ade5cdb65d5f",
    "con4-strict-eager": "12d523a1a378ae8e6cce",
    "con5-misc-eager": "d3a458f1c78508155cfa",
    "con4-whole-eager": "c85af920b944e43d1db2",
    "con3-stock-uniform": "281f82fb65598acffbf5",
    "con4-penalty_pile-eager": "32be249da8ae07af8244",
}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_playthrough_digest(case: tuple[str, str, int, str, str, int]) -> None:
    name, preset, players, options, policy, seed = case
    assert playthrough_digest(preset, players, options, policy, seed) == EXPECTED[name]


if __name__ == "__main__":  # regenerate: python tests/test_playthrough.py
    print("EXPECTED: dict[str, str] = {")
    for name, *args in CASES:
        digest = playthrough_digest(*args)  # type: ignore[arg-type]
        print(f'    "{name}": "{digest}",')
        sys.stdout.flush()
    print("}")

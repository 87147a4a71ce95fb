"""Seeded playthrough digests (OpenSpiel-style regression test): the engine's behaviour, pinned.

Each case plays one game from a fixed seed with a seeded random policy and hashes, at every step,
the full list of legal actions (``str`` of each, in order), each seat's own list, the reason
:meth:`Game.verify` gives for a fixed set of probe actions (legal or not), and now and then the
current player's view; at the end the events and scores. Any change to which actions are legal,
their order, the refusal messages or what an action does changes a digest.

Some steps apply an equal copy of the chosen action (rebuilt from its dict) rather than the listed
object itself, so that both paths through :meth:`Game.apply` are covered.

A digest changes only when behaviour changes. If that is intended (a rule fix), regenerate them
with ``.venv/bin/python tests/engine/test_playthrough.py`` and paste the printed ``EXPECTED`` dict here.
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
    "liv2-plain-uniform": "145d1fe869f5279ea2a4",
    "liv4-plain-uniform": "eb7710a82af5f062655f",
    "liv3-short-eager": "bb585ac4b54798d7c25c",
    "liv4-short-eager": "f32144531234f1c2c33e",
    "liv5-short-eager": "e4107e085f8ba84301fb",
    "liv6-short-uniform": "3eaaf5fb1f955a2b8906",
    "liv4-pile-eager": "0ea1cccae1287f56d691",
    "liv3-penalty-eager": "2f04ca4d386a5c612cab",
    "liv4-penalty-uniform": "797dfdba1c836905f74d",
    "liv4-wild_exact-eager": "aaf20c57b8e3d8445209",
    "liv4-liverpool_call-eager": "727e79590bb84aa64b05",
    "liv5-strict-eager": "dacc78851fe6a8ad161d",
    "liv4-distinct-eager": "7da3dcfcf63963f57787",
    "liv2-misc-eager": "ba8c2f349e198daaec58",
    "liv4-whole-eager": "3db5d806262a7d0657db",
    "liv3-stock-eager": "370c25fafb72b802998e",
    "liv6-noswap-eager": "1aecd1cb0801af6b4f46",
    "liv4-penalty_pile-eager": "4567c4e1d777e68bef54",
    "con3-plain-uniform": "c6b7a13e0ca00062c5a1",
    "con4-short-eager": "f95056a68a1fcb453e34",
    "con5-short-eager": "326cdc4d9bd5c9a9b0a0",
    "con6-short-uniform": "9a0f3558bc4f1cc51745",
    "con4-penalty-eager": "7cb458ace1a1c6354956",
    "con3-wild_exact-eager": "dffb28fbd7e4fed30e7e",
    "con4-liverpool_call-eager": "62eb1a3106655bf17b6d",
    "con4-strict-eager": "01d6b11d769e9cf7a451",
    "con5-misc-eager": "d61af878c8927d54f127",
    "con4-whole-eager": "10c653ceed9d5b220105",
    "con3-stock-uniform": "b7509714669db6ff39f0",
    "con4-penalty_pile-eager": "fc1568319eb4642febda",
}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_playthrough_digest(case: tuple[str, str, int, str, str, int]) -> None:
    name, preset, players, options, policy, seed = case
    assert playthrough_digest(preset, players, options, policy, seed) == EXPECTED[name]


if __name__ == "__main__":  # regenerate: python tests/engine/test_playthrough.py
    print("EXPECTED: dict[str, str] = {")
    for name, *args in CASES:
        digest = playthrough_digest(*args)  # type: ignore[arg-type]
        print(f'    "{name}": "{digest}",')
        sys.stdout.flush()
    print("}")

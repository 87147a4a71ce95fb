"""The client contract's costs (issue 10): a view, a verified apply (every field type-checked),
an apply of a listed action (the fast path), events_for, a position written and read back.

    python benchmarks/engine.py [--repeat 2000]

Prints one JSON object of microseconds per call, measured on mid-game states of random play.
"""

from __future__ import annotations

import argparse
import json
import random
import timeit

from liverpool import Game, action_from_dict


def states(count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        game = Game.new(players=4, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(40, 200)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            out.append(game)
    return out


def per_call_us(fn: object, repeat: int) -> float:
    return timeit.timeit(fn, number=repeat) / repeat * 1e6  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args(argv)
    games = states(20, seed=1)
    n = args.repeat
    out: dict[str, float] = {}
    out["view_us"] = sum(per_call_us(lambda g=g: g.view(g.current), n) for g in games) / len(games)
    out["events_for_us"] = sum(per_call_us(lambda g=g: g.events_for(g.current), n) for g in games) / len(games)

    def apply_listed(g: Game) -> None:
        c = g.copy()
        c.apply(c.legal_actions()[0])

    def apply_verified(g: Game) -> None:
        c = g.copy()
        c.apply(action_from_dict(c.legal_actions()[0].to_dict()))  # an equal action from a client

    def copy_only(g: Game) -> None:
        g.copy()

    base = sum(per_call_us(lambda g=g: copy_only(g), n // 4) for g in games) / len(games)
    listed = sum(per_call_us(lambda g=g: apply_listed(g), n // 4) for g in games) / len(games)
    verified = sum(per_call_us(lambda g=g: apply_verified(g), n // 4) for g in games) / len(games)
    out["apply_listed_us"] = listed - base
    out["apply_from_dict_verified_us"] = verified - base
    out["position_round_trip_us"] = sum(
        per_call_us(lambda g=g: Game.from_position(g.position()), n // 10) for g in games
    ) / len(games)
    print(json.dumps({k: round(v, 2) for k, v in out.items()}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The greedy bot: a sound heuristic player that plans toward this deal's contract.

It measures a hand by its *deficit*: how many cards are missing, at best, for the contract's sets
and runs of minimum length (wild cards filling what they may, R18, R19). It keeps the cards of the
best partial contract, takes the discard (or buys it, R27) when the card lowers the deficit, goes
down as soon as the engine lists a lay-down (planned with :func:`liverpool.solver.solve`), lays off
everything it can, swaps jokers when that lets it go down or rid itself of a card (R20), calls
playable discards (R33, R34) and discards its least useful card: a card outside every best partial
contract, high in points, and not one the next player is known to collect.

The decision logic reads a :class:`Snapshot`, built from a player's view (``Snapshot.from_view``)
or, inside the strong bot's playouts, from a sampled game (``Snapshot.from_game``).

The package, by part (every name is importable from ``liverpool.bots.greedy`` as before the split):
``tactics`` (what the bot derives from a rule set), ``runs`` and ``deficit`` (the contract deficit),
``knowledge`` (:class:`Snapshot`, :class:`EventTracker`: knowledge of the table), ``heuristics``
(usefulness, discard ranking, wanted cards) and ``policy`` (the choice of action, the bots).

>>> from liverpool import Game
>>> from liverpool.driver import play_game
>>> game = play_game(Game.new(players=3, seed=2), [GreedyBot(seed=i) for i in range(3)])
>>> game.is_over
True
"""

# The names of the package's modules, re-exported (the import paths of before the split), grouped by
# module in the package's order: isort would give each aliased name a statement of its own.
# ruff: noqa: I001

from __future__ import annotations

from .deficit import (
    _bounded as _bounded,
    _masks as _masks,
    _measure as _measure,
    analyse as analyse,
    deficit_of as deficit_of,
    deficits_without as deficits_without,
)
from .heuristics import (
    TUNING as TUNING,
    Tuning as Tuning,
    _feed_parts as _feed_parts,
    _feed_pen as _feed_pen,
    _use_row as _use_row,
    discard_choice as discard_choice,
    discard_ranking as discard_ranking,
    feeds as feeds,
    note_discard as note_discard,
    related as related,
    usefulness as usefulness,
    wants_card as wants_card,
)
from .knowledge import (
    EventTracker as EventTracker,
    Snapshot as Snapshot,
)
from .policy import (
    _DRAW_OR_PASS as _DRAW_OR_PASS,
    EasyBot as EasyBot,
    GreedyBot as GreedyBot,
    _draw as _draw,
    _layoff_choice as _layoff_choice,
    _out_of_turn as _out_of_turn,
    _pile_choice as _pile_choice,
    _plan_meld as _plan_meld,
    _play as _play,
    choose as choose,
)
from .runs import (
    _extend as _extend,
    _knapsack_step as _knapsack_step,
    _runs_finish as _runs_finish,
    _runs_knapsack as _runs_knapsack,
    _runs_only as _runs_only,
    _runs_tables as _runs_tables,
    _suit_runs as _suit_runs,
    _suit_table as _suit_table,
    _suit_whole as _suit_whole,
    _unpack_keep as _unpack_keep,
    _whole_plan as _whole_plan,
    _whole_rows as _whole_rows,
    _whole_rows_plain as _whole_rows_plain,
    _windows as _windows,
)
from .tactics import (
    _AT_LEAST as _AT_LEAST,
    _BIG as _BIG,
    _COST_SHIFT as _COST_SHIFT,
    _MEMO_LIMIT as _MEMO_LIMIT,
    _MISS_SHIFT as _MISS_SHIFT,
    _NO_STATE as _NO_STATE,
    _TACTICS as _TACTICS,
    _TACTICS_BY_RULES as _TACTICS_BY_RULES,
    _UNPLANNED as _UNPLANNED,
    Tactics as Tactics,
    _Leaf as _Leaf,
    _Part as _Part,
    _Rec as _Rec,
    rules_for_view as rules_for_view,
    tactics as tactics,
)

__all__ = ["GreedyBot", "Snapshot", "Tactics", "analyse", "choose", "rules_for_view"]

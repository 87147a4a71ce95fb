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

from __future__ import annotations

from .deficit import (
    _bounded as _bounded,
)
from .deficit import (
    _masks as _masks,
)
from .deficit import (
    _measure as _measure,
)
from .deficit import (
    analyse as analyse,
)
from .deficit import (
    deficit_of as deficit_of,
)
from .deficit import (
    deficits_without as deficits_without,
)
from .heuristics import (
    TUNING as TUNING,
)
from .heuristics import (
    Tuning as Tuning,
)
from .heuristics import (
    _feed_parts as _feed_parts,
)
from .heuristics import (
    _feed_pen as _feed_pen,
)
from .heuristics import (
    _use_row as _use_row,
)
from .heuristics import (
    discard_choice as discard_choice,
)
from .heuristics import (
    discard_ranking as discard_ranking,
)
from .heuristics import (
    feeds as feeds,
)
from .heuristics import (
    note_discard as note_discard,
)
from .heuristics import (
    related as related,
)
from .heuristics import (
    usefulness as usefulness,
)
from .heuristics import (
    wants_card as wants_card,
)
from .knowledge import (
    EventTracker as EventTracker,
)
from .knowledge import (
    Snapshot as Snapshot,
)
from .policy import (
    _DRAW_OR_PASS as _DRAW_OR_PASS,
)
from .policy import (
    EasyBot as EasyBot,
)
from .policy import (
    GreedyBot as GreedyBot,
)
from .policy import (
    _draw as _draw,
)
from .policy import (
    _layoff_choice as _layoff_choice,
)
from .policy import (
    _out_of_turn as _out_of_turn,
)
from .policy import (
    _pile_choice as _pile_choice,
)
from .policy import (
    _plan_meld as _plan_meld,
)
from .policy import (
    _play as _play,
)
from .policy import (
    choose as choose,
)
from .runs import (
    _extend as _extend,
)
from .runs import (
    _knapsack_step as _knapsack_step,
)
from .runs import (
    _runs_finish as _runs_finish,
)
from .runs import (
    _runs_knapsack as _runs_knapsack,
)
from .runs import (
    _runs_only as _runs_only,
)
from .runs import (
    _runs_tables as _runs_tables,
)
from .runs import (
    _suit_runs as _suit_runs,
)
from .runs import (
    _suit_table as _suit_table,
)
from .runs import (
    _suit_whole as _suit_whole,
)
from .runs import (
    _unpack_keep as _unpack_keep,
)
from .runs import (
    _whole_plan as _whole_plan,
)
from .runs import (
    _whole_rows as _whole_rows,
)
from .runs import (
    _whole_rows_plain as _whole_rows_plain,
)
from .runs import (
    _windows as _windows,
)
from .tactics import (
    _AT_LEAST as _AT_LEAST,
)
from .tactics import (
    _BIG as _BIG,
)
from .tactics import (
    _COST_SHIFT as _COST_SHIFT,
)
from .tactics import (
    _MEMO_LIMIT as _MEMO_LIMIT,
)
from .tactics import (
    _MISS_SHIFT as _MISS_SHIFT,
)
from .tactics import (
    _NO_STATE as _NO_STATE,
)
from .tactics import (
    _TACTICS as _TACTICS,
)
from .tactics import (
    _TACTICS_BY_RULES as _TACTICS_BY_RULES,
)
from .tactics import (
    _UNPLANNED as _UNPLANNED,
)
from .tactics import (
    Tactics as Tactics,
)
from .tactics import (
    _Leaf as _Leaf,
)
from .tactics import (
    _Part as _Part,
)
from .tactics import (
    _Rec as _Rec,
)
from .tactics import (
    rules_for_view as rules_for_view,
)
from .tactics import (
    tactics as tactics,
)

__all__ = ["GreedyBot", "Snapshot", "Tactics", "analyse", "choose", "rules_for_view"]

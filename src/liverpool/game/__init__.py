"""The state machine of a whole game: seven deals (or the schedule's), every rule of RULES.md.

One validation path per move: :meth:`Game.verify` raises :class:`IllegalAction` with the reason,
:meth:`Game.can_apply` answers, :meth:`Game.apply` verifies then does (an action object of the
current :meth:`Game.legal_actions` listing is legal already and goes straight through). A refused
action leaves the game exactly as it was. Randomness comes only from the game's seed (``random.Random`` seeded per
shuffle), so a game's record, its rules, seed and actions, replays it exactly.

>>> game = Game.new(players=4, seed=7)
>>> game.deal, len(game.hand(0)), game.stock_size + sum(len(game.hand(p)) for p in range(4)) + 1
(1, 10, 108)
>>> [e["type"] for e in game.apply(game.legal_actions()[0])]
['draw_stock']
>>> Game.from_record(game.record()).view(0) == game.view(0)
True

The package's modules, one layer each on the one before: ``core`` (state and the deal cycle),
``queries`` (the rule queries, one home per rule), ``moves`` (applying), ``checks``
(verification), ``listing`` (legal actions), ``views`` (views, records, positions); ``common``
holds their shared parts. Import from ``liverpool.game`` (or ``liverpool``).
"""

from __future__ import annotations

from ..errors import IllegalAction, MalformedAction, StaleAction
from . import common as _common
from . import listing as _listing
from .common import DRAW, LIVERPOOL_DISCARD, OVER, PLAY, RECORD_FORMAT, RECORD_FORMAT_1, TableMeld
from .contracts import staged_progress
from .queries import empty_hand_floats, layoff_targets
from .views import _Views, staged_melds

__all__ = [
    "DRAW",
    "LIVERPOOL_DISCARD",
    "OVER",
    "PLAY",
    "RECORD_FORMAT",
    "RECORD_FORMAT_1",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "StaleAction",
    "TableMeld",
    "empty_hand_floats",
    "layoff_targets",
    "staged_melds",
    "staged_progress",
]

# Private parts that tests reach through ``liverpool.game`` (no public API).
_Meld = _common._Meld
_Witness = _listing._Witness
_SEATS = _common._SEATS
_canonical_sets = _common._canonical_sets
_ensure_seats = _common._ensure_seats
_shared = _common._shared


class Game(_Views):
    """A game of Liverpool (or any schedule of contracts) for 2-8 players.

    Seats are numbered from 0; play goes clockwise, to the next higher seat.
    """

    __slots__ = ()  # the slots are _Core's

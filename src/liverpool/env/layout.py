"""The fixed action and observation layouts of ``liverpool_v0`` (tables in ``docs/rl.md``).

Card types: 53 of them, ``0`` the joker and ``1 + 13 * suit + (rank - 1)`` a natural card (suits in
the order S H D C, ranks ace to king), so ``AS`` is 1, ``KS`` 13, ``AH`` 14 and ``KC`` 52. Rules with
``dead_discarded_wild`` have four more, 53-56: the dead deuces ``2S~ 2H~ 2D~ 2C~`` (natural cards,
told apart from the live, wild deuces); every other rule set's layout has the 53 only.

>>> from liverpool.cards import DEAD_RANK, Card
>>> CARD_TYPE[Card(1, "S")], CARD_TYPE[Card(13, "C")], CARD_TYPE[Card(0)], TYPE_NAME[14]
(1, 52, 0, 'AH')
>>> CARD_TYPE[Card(DEAD_RANK, "H")], TYPE_NAME[54]
(54, '2H~')
>>> lay = ActionLayout(players=4, meld_slots=12, max_pile_depth=107, run_slots=14)
>>> lay.size, lay.describe()[0]
(1671, ('draw_stock', 0, 0, 'take the top card of the stock'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Final

from ..cards import CARD_NAMES, DEAD_DEUCES, RANKS, SUITS, Card
from ..rules import RuleSet

__all__ = [
    "CARD_TYPE",
    "NAME_TYPE",
    "NTYPES",
    "NTYPES_DEAD",
    "TYPE_CARD",
    "TYPE_NAME",
    "ActionLayout",
    "ObsLayout",
    "layouts_for",
]

NTYPES: Final = 53
"""Card types of every rule set without dead deuces."""
NTYPES_DEAD: Final = NTYPES + len(DEAD_DEUCES)
"""Card types with ``dead_discarded_wild``: 53-56 are the dead deuces ``2S~ 2H~ 2D~ 2C~``."""
TYPE_CARD: Final[tuple[Card, ...]] = (Card(0), *(Card(r, s) for s in SUITS for r in RANKS), *DEAD_DEUCES)
"""The card of each type (the last four, dead deuces, only in layouts of ``NTYPES_DEAD`` types)."""
TYPE_NAME: Final[tuple[str, ...]] = tuple(str(c) for c in TYPE_CARD)
CARD_TYPE: Final[list[int]] = [-1] * len(CARD_NAMES)
"""The type of each card, indexed by the card (an ``int``: its code)."""
for _t, _c in enumerate(TYPE_CARD):
    CARD_TYPE[_c] = _t
NAME_TYPE: Final[dict[str, int]] = {name: t for t, name in enumerate(TYPE_NAME)}
"""The type of each canonical card token."""


@dataclass(frozen=True)
class ActionLayout:
    """Index ranges of the discrete action space for a table (every size follows from the players
    and the rules, see :func:`layouts_for`)."""

    players: int
    meld_slots: int
    """Melds the table can hold in a deal: players x the most melds of a contract."""
    max_pile_depth: int
    """Deepest ``DrawFromPile`` depth: the deck size less one."""
    run_slots: int
    """Places in a run (14: ace low to ace high)."""
    max_variants: int = 8
    """Commit slots: listed melds with the same cards in different orders (wild card places)."""
    types: int = NTYPES
    """Card types: ``NTYPES``, or ``NTYPES_DEAD`` when the rules have dead deuces."""
    ranges: dict[str, tuple[int, int]] = field(init=False, repr=False)
    size: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        ranges: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in (
            ("draw_stock", 1),
            ("draw_discard", 1),
            ("buy", 1),
            ("pass", 1),
            ("call", 1),
            ("unswap", 1),
            ("end_turn", 1),
            ("retract", 1),
            ("lay_down_best", 1),
            ("meld_clear", 1),
            ("draw_pile", self.max_pile_depth),
            ("discard", self.types),
            ("meld_pick", self.types),
            ("meld_commit", self.max_variants),
            ("lay_off", self.types * self.meld_slots * 2),
            ("swap", self.meld_slots * self.run_slots),
        ):
            ranges[name] = (start, start + size)
            start += size
        object.__setattr__(self, "ranges", ranges)
        object.__setattr__(self, "size", start)

    def start(self, name: str) -> int:
        return self.ranges[name][0]

    def describe(self) -> list[tuple[str, int, int, str]]:
        """(name, first index, last index, meaning) per range, for the docs."""
        meaning = {
            "draw_stock": "take the top card of the stock",
            "draw_discard": "take the top card of the discard pile",
            "buy": "ask to buy the top discard out of turn (R27)",
            "pass": "decline every out-of-turn chance on this discard",
            "call": "call a down player's playable discard (R33/R34)",
            "unswap": "undo this turn's last joker swap",
            "end_turn": "end a turn without a discard (no legal discard)",
            "retract": "take back a begun lay-down, paying the penalty (R16)",
            "lay_down_best": "macro: lay the rest of the contract as the solver's best completion",
            "meld_clear": "forget the cards picked for a meld (no more picks until the next game action)",
            "draw_pile": "take the pile down to depth 1 + (i - first) (R22, contract)",
            "discard": "discard a card of type i - first",
            "meld_pick": "pick a card of type i - first for the meld being built",
            "meld_commit": "lay the listed meld made of the picked cards: variant i - first",
            "lay_off": "lay off: i - first = (type * meld_slots + meld id) * 2 + (1 if high end)",
            "swap": "joker swap: i - first = meld id * run_slots + place in the run",
        }
        return [(name, a, b - 1, meaning[name]) for name, (a, b) in self.ranges.items()]


@dataclass(frozen=True)
class ObsLayout:
    """Index ranges of the flat ``float32`` observation vector. Seats are relative: row/column 0 is
    the observing seat, 1 the next clockwise, and so on."""

    players: int
    meld_slots: int
    deals: int
    types: int = NTYPES
    """Card types: ``NTYPES``, or ``NTYPES_DEAD`` when the rules have dead deuces."""
    levels: bool = False
    """``progression="player"`` (issue 16): a last range, each seat's level."""
    ranges: dict[str, tuple[int, int]] = field(init=False, repr=False)
    size: int = field(init=False, repr=False)

    MELD_WIDTH: ClassVar[int] = 5 + NTYPES  # present, is_run, start, length, owner (relative), card counts

    @property
    def meld_width(self) -> int:
        """Values a meld: present, is_run, start, length, owner (relative), the card type counts."""
        return 5 + self.types

    def __post_init__(self) -> None:
        p = self.players
        t = self.types
        ranges: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in (
            ("hand", t),
            ("pile_top", t),
            ("pile", t),
            ("taken", p * t),
            ("hand_sizes", p),
            ("down", p),
            ("buys_used", p),
            ("scores", p),
            ("current", p),
            ("discarder", p),
            ("passed", p),
            ("buy_requests", p),
            ("phase", 4),
            ("flags", 8),
            ("deal", self.deals),
            ("contract", 4),
            ("must_meld", t),
            ("taken_now", t),
            ("staged", t),
            ("picked", t),
            ("melds", self.meld_slots * self.meld_width),
            *((("levels", p),) if self.levels else ()),
        ):
            ranges[name] = (start, start + size)
            start += size
        object.__setattr__(self, "ranges", ranges)
        object.__setattr__(self, "size", start)

    def start(self, name: str) -> int:
        return self.ranges[name][0]

    def describe(self) -> list[tuple[str, int, int, str]]:
        meaning = {
            "hand": "own hand: count of each card type",
            "pile_top": "top of the discard pile: one-hot card type (all 0 when empty)",
            "pile": "the whole discard pile: count of each card type",
            "taken": "per seat (relative), the cards it took from the pile this deal (draws, buys, calls)",
            "hand_sizes": "cards in each seat's hand",
            "down": "1 if the seat has laid its contract this deal",
            "buys_used": "buys each seat made this deal",
            "scores": "each seat's total score so far (points, lower is better)",
            "current": "one-hot: the seat whose turn it is",
            "discarder": "one-hot: the seat that made the top discard (all 0 if none)",
            "passed": "1 if the seat passed on this discard",
            "buy_requests": "1 if the seat asked to buy this discard",
            "phase": "one-hot: draw, play, liverpool_discard, over",
            "flags": "buy_window, call_window, fresh_discard, retracted, open swaps, stock size, rebuilds, deck size",
            "deal": "one-hot: the deal number (1 first)",
            "contract": "sets, runs, cards dealt, whole hand (R15)",
            "must_meld": "one-hot: the card that must be melded this turn (R22 pile draw)",
            "taken_now": "one-hot: the card just taken from the pile (may not be discarded, R26)",
            "staged": "cards of this turn's begun lay-down (counts)",
            "picked": "cards picked so far with meld_pick (counts)",
            "melds": f"per meld id: present, is_run, run's first value (1-14), length, owner (relative seat "
            f"+ 1), then the count of each card type ({self.meld_width} values a meld)",
            "levels": 'progression="player" only: each seat\'s level (1 first), the contract it plays',
        }
        return [(name, a, b - 1, meaning[name]) for name, (a, b) in self.ranges.items()]


def layouts_for(players: int, rules: RuleSet) -> tuple[ActionLayout, ObsLayout]:
    """The layouts of a table of ``players`` under ``rules``."""
    most = max(c.sets + c.runs for c in rules.schedule)
    slots = players * most
    types = NTYPES_DEAD if rules.dead_discarded_wild else NTYPES  # a dead deuce is no live (wild) deuce
    actions = ActionLayout(
        players=players,
        meld_slots=slots,
        max_pile_depth=max(1, rules.deck_size(players) - 1),
        run_slots=rules.run_top,
        max_variants=8 if rules.wild_rank is None else 720,  # distinct wild cards (deuces): their orders
        types=types,
    )
    obs = ObsLayout(
        players=players, meld_slots=slots, deals=rules.max_deals, types=types, levels=rules.progression == "player"
    )
    return actions, obs

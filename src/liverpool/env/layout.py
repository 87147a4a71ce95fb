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
from typing import Any, ClassVar, Final

from ..cards import CARD_NAMES, DEAD_DEUCES, RANKS, SUITS, Card
from ..rules import RuleSet

__all__ = [
    "CARD_TYPE",
    "NAME_TYPE",
    "NTYPES",
    "NTYPES_DEAD",
    "SCORE_SCALE",
    "TYPE_CARD",
    "TYPE_NAME",
    "ActionLayout",
    "ObsLayout",
    "ObsScale",
    "layouts_for",
    "obs_scale",
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


UNBOUNDED: Final = 1e6
"""The bound declared for a value no rule bounds (the cards a seat took from the pile, raw scores)."""

SCORE_SCALE: Final = 300.0
"""Scaled observations show each total score as ``tanh(score / SCORE_SCALE)``."""


@dataclass(frozen=True)
class ObsScale:
    """How ``observation="scaled"`` (the default) turns the raw vector into one a network can take:
    ``scaled = raw * scale``, but the ``scores`` range is ``tanh(raw / SCORE_SCALE)``. ``raw_high``
    is the most each raw value can be (from the rules: cards of a type in the deck, the deck's size,
    the buy limit, ...), ``low``/``high`` the bounds of the scaled values (``docs/rl.md``)."""

    scale: Any
    raw_low: Any
    raw_high: Any
    low: Any
    high: Any
    scores: tuple[int, int]


def obs_scale(layout: ObsLayout, rules: RuleSet) -> ObsScale:
    """The per-value scale and honest bounds of the observation of ``layout`` under ``rules``."""
    import numpy as np

    p = layout.players
    t = layout.types
    r = layout.ranges
    packs = rules.packs_for(p)
    deck = rules.deck_size(p)
    copies = np.full(t, float(packs))
    copies[0] = float(packs * rules.jokers_per_pack)
    wilds = copies[0] + (4 * packs if rules.wild_rank is not None else 0)
    most_cards = max(c.cards for c in rules.schedule)
    most_sets = max(c.sets for c in rules.schedule)
    most_runs = max(c.runs for c in rules.schedule)
    buys = deck if rules.buy_limit is None else rules.buy_limit
    rebuilds = deck if rules.stock_rebuilds is None else rules.stock_rebuilds
    run_top = rules.run_top
    high = np.ones(layout.size)
    unit = np.ones(layout.size)  # the raw value that scales to 1

    def put(name: str, raw_most: Any, to_one: Any, offset: int = 0, width: int | None = None) -> None:
        a, b = r[name]
        a += offset
        b = b if width is None else a + width
        high[a:b] = raw_most
        unit[a:b] = to_one

    for name in ("hand", "pile", "staged", "picked"):
        put(name, copies, np.maximum(copies, 1))
    # a card taken from the pile may be discarded and taken again, by the same seat, within a deal:
    # no bound follows from the deck (1e6 stands for none), scaled by the copies all the same
    put("taken", UNBOUNDED, np.tile(np.maximum(copies, 1), p))
    put("hand_sizes", deck, most_cards)
    put("buys_used", buys, max(1, rules.buy_limit or 3))
    put("scores", UNBOUNDED, 1.0)
    f = r["flags"][0]
    high[f + 4], unit[f + 4] = wilds, max(1.0, wilds)  # open swaps
    high[f + 5], unit[f + 5] = deck, deck  # stock size
    high[f + 6], unit[f + 6] = rebuilds, max(1, rules.stock_rebuilds or 3)
    high[f + 7], unit[f + 7] = deck, deck  # deck size
    c = r["contract"][0]
    for k, most in enumerate((most_sets, most_runs, most_cards)):
        high[c + k], unit[c + k] = most, max(1, most)
    width = layout.meld_width
    m0 = r["melds"][0]
    longest = max(run_top, 4 * packs + wilds)  # a run's places, or a set of one rank with every wild card
    for slot in range(layout.meld_slots):
        row = m0 + slot * width
        high[row + 2], unit[row + 2] = run_top, run_top  # start
        high[row + 3], unit[row + 3] = longest, run_top  # length
        high[row + 4], unit[row + 4] = p, p  # owner + 1
        high[row + 5 : row + width] = copies
        unit[row + 5 : row + width] = np.maximum(copies, 1)
    if layout.levels:
        put("levels", len(rules.schedule) + 1, len(rules.schedule))  # one past the last: all completed
    raw_low = np.zeros(layout.size)
    a, b = r["scores"]
    raw_low[a:b] = -UNBOUNDED
    scale = (1.0 / unit).astype(np.float32)
    low = raw_low * scale
    scaled_high = high * scale
    low[a:b], scaled_high[a:b] = -1.0, 1.0
    return ObsScale(
        scale=scale,
        raw_low=raw_low.astype(np.float32),
        raw_high=high.astype(np.float32),
        low=low.astype(np.float32),
        high=scaled_high.astype(np.float32),
        scores=(a, b),
    )

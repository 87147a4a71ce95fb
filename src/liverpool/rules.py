"""Rule options: a frozen, self-validating :class:`RuleSet` with the named presets.

Each field carries one or more numbered rules of ``RULES.md`` (see ``docs/rules.md``).

>>> RuleSet() == RuleSet.preset("liverpool")
True
>>> RuleSet.preset("contract").run_min
3
>>> import dataclasses
>>> dataclasses.replace(RuleSet(), run_min=1)
Traceback (most recent call last):
...
ValueError: run_min must be at least 2, got 1
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, TypeVar, get_args

__all__ = ["DEFAULT_SCHEDULE", "PRESETS", "Contract", "RuleSet", "cached_rules", "parse_schedule"]

JokerSwap = Literal["going_down_turn", "once_down", "later_turns", "off"]
PlayableDiscard = Literal["call", "liverpool", "strict", "off"]
LiverpoolResume = Literal["in_turn", "after_caller"]
BuyPrecedence = Literal["nearest", "first"]
RunJokerCheck = Literal["always", "initial"]
Floating = Literal[True, False, "refuse"]
SetDistinctSuits = Literal[True, False, "laydown"]
BuyWindow = Literal["until_draw", "until_discard"]
# Meld variants of issue 16 (owned with melds.py): see the fields' block "Meld variants" below.
RunWildLimit = Literal["spacing", "ratio", "half", "none"]
SetWildLimit = Literal["none", "ratio"]
WildRankPlace = Literal["wild", "none"]
Ace = Literal["low", "high", "either", "both"]
Progression = Literal["table", "player"]

PLAYER_DEALS_PER_LEVEL: Final = 3
"""R41 with ``progression="player"``: the game ends at the latest after this many deals per level of
the schedule, so that every game ends (the most levels completed then wins)."""


@dataclass(frozen=True, slots=True, repr=False)
class Contract:
    """One deal of the schedule: the melds to lay down and the cards dealt (R6, R10, R15, R48).

    >>> Contract(sets=1, runs=2, cards=12)
    Contract(sets=1, runs=2, cards=12, whole_hand=False)
    >>> str(Contract(0, 3, 12, whole_hand=True))
    '3R/12*'

    A group's length may be given per meld (R48, issue 16): ``set_lengths`` / ``run_lengths`` hold
    one entry per set / run, ``n`` for at least ``n`` cards, ``-n`` for exactly ``n`` and ``0`` for
    the option's minimum (``set_min``, ``run_min``); empty (the default) means every meld takes the
    option's minimum. The text writes them in brackets after the letter:

    >>> c = Contract(0, 2, 10, run_lengths=(5, 7))
    >>> str(c), c.describe()
    ('1R[5]1R[7]/10', '1 run of 5+ + 1 run of 7+')
    >>> str(Contract(2, 1, 11, set_lengths=(-4, -4)))
    '2S[=4]1R/11'
    """

    sets: int
    runs: int
    cards: int
    whole_hand: bool = False
    """R15: the whole hand goes down at once, no final discard, melds may be longer."""
    set_lengths: tuple[int, ...] = ()
    """R48: each set's length (``n`` at least, ``-n`` exactly, ``0`` the option's); empty: all 0."""
    run_lengths: tuple[int, ...] = ()
    """R48: each run's length (``n`` at least, ``-n`` exactly, ``0`` the option's); empty: all 0."""

    def __post_init__(self) -> None:
        if self.sets < 0 or self.runs < 0 or self.sets + self.runs == 0:
            raise ValueError(f"schedule: a contract needs at least one meld, got {self}")
        if not 1 <= self.cards <= 30:
            raise ValueError(f"schedule: cards dealt must be 1-30, got {self.cards}")
        for kind, count, lengths, top in (
            ("set", self.sets, self.set_lengths, 30),
            ("run", self.runs, self.run_lengths, 14),
        ):
            if not isinstance(lengths, tuple):
                raise ValueError(f"schedule: {kind}_lengths must be a tuple, got {lengths!r}")
            if lengths and len(lengths) != count:
                raise ValueError(f"schedule: {count} {kind}(s) need {count} lengths, got {lengths!r}")
            for n in lengths:
                if type(n) is not int or (n and not 2 <= abs(n) <= top):
                    raise ValueError(
                        f"schedule: a {kind}'s length in brackets must be 2-{top} (or =2-={top}), got {n!r}"
                    )
        if self.set_lengths and not any(self.set_lengths):
            object.__setattr__(self, "set_lengths", ())  # all the option's minimum: the plain contract
        if self.run_lengths and not any(self.run_lengths):
            object.__setattr__(self, "run_lengths", ())

    @classmethod
    def from_view(cls, data: dict[str, Any]) -> Contract:
        """The contract of a view's ``contract`` dict (``set_lengths``/``run_lengths`` given only
        when it has lengths of its own)."""
        return cls(
            int(data["sets"]),
            int(data["runs"]),
            int(data["cards"]),
            bool(data["whole_hand"]),
            set_lengths=tuple(data.get("set_lengths", ())),
            run_lengths=tuple(data.get("run_lengths", ())),
        )

    @property
    def grouped(self) -> bool:
        """True when some meld has a length of its own (brackets in the schedule text)."""
        return bool(self.set_lengths or self.run_lengths)

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (("set_lengths", self.set_lengths), ("run_lengths", self.run_lengths))
            if value
        )
        return f"Contract(sets={self.sets}, runs={self.runs}, cards={self.cards}, whole_hand={self.whole_hand}{extra})"

    def __str__(self) -> str:
        melds = _groups_text("S", self.sets, self.set_lengths) + _groups_text("R", self.runs, self.run_lengths)
        return f"{melds}/{self.cards}{'*' if self.whole_hand else ''}"

    def describe(self) -> str:
        """Plain words, e.g. ``1 set + 2 runs`` or ``1 run of 5+ + 1 run of exactly 7``."""
        parts = []
        for count, lengths, noun in ((self.sets, self.set_lengths, "set"), (self.runs, self.run_lengths, "run")):
            if not count:
                continue
            for k, n in _groups(count, lengths):
                words = f"{k} {noun}{'s' if k > 1 else ''}"
                if n > 0:
                    words += f" of {n}+"
                elif n < 0:
                    words += f" of exactly {-n}"
                parts.append(words)
        return " + ".join(parts)


def _groups(count: int, lengths: tuple[int, ...]) -> list[tuple[int, int]]:
    """(melds, length) of each run of equal lengths, e.g. ``(5, 5, 7)`` -> ``[(2, 5), (1, 7)]``."""
    if not lengths:
        return [(count, 0)] if count else []
    out: list[tuple[int, int]] = []
    for n in lengths:
        if out and out[-1][1] == n:
            out[-1] = (out[-1][0] + 1, n)
        else:
            out.append((1, n))
    return out


def _groups_text(letter: str, count: int, lengths: tuple[int, ...]) -> str:
    return "".join(
        f"{k}{letter}" + (f"[{'=' if n < 0 else ''}{abs(n)}]" if n else "") for k, n in _groups(count, lengths)
    )


DEFAULT_SCHEDULE: Final = (
    Contract(2, 0, 10),
    Contract(1, 1, 10),
    Contract(0, 2, 10),
    Contract(3, 0, 10),
    Contract(2, 1, 12),
    Contract(1, 2, 12),
    Contract(0, 3, 12, whole_hand=True),
)

_CONTRACT_RE: Final = re.compile(r"^((?:\d+[SR](?:\[=?\d+\])?)+)/(\d+)(\*?)$", re.IGNORECASE)
_GROUP_RE: Final = re.compile(r"(\d+)([SR])(?:\[(=?)(\d+)\])?", re.IGNORECASE)


def parse_schedule(text: str) -> tuple[Contract, ...]:
    """Parse a deal schedule such as ``2S/10,1S1R/10,3R/12*`` (``*``: whole hand, R15).

    >>> parse_schedule("2S/10, 3R/12*")
    (Contract(sets=2, runs=0, cards=10, whole_hand=False), Contract(sets=0, runs=3, cards=12, whole_hand=True))

    A group may give its melds' length in brackets after its letter (R48): ``1R[5]1R[7]/10`` is one
    run of at least 5 cards and one of at least 7; ``2S[=4]`` two sets of exactly 4 cards.

    >>> parse_schedule("1R[5]1R[7]/10")
    (Contract(sets=0, runs=2, cards=10, whole_hand=False, run_lengths=(5, 7)),)
    >>> parse_schedule("1R[15]/10")
    Traceback (most recent call last):
    ...
    ValueError: schedule: a run's length in brackets must be 2-14 (or =2-=14), got 15
    """
    contracts = []
    for part in text.replace(" ", "").split(","):
        match = _CONTRACT_RE.match(part)
        if not match:
            raise ValueError(f"schedule: cannot read contract {part!r} (write e.g. 2S/10, 1S2R/12* or 1R[5]1R[=7]/10)")
        groups, cards, star = match.groups()
        counts = {"S": 0, "R": 0}
        lengths: dict[str, list[int]] = {"S": [], "R": []}
        for count, letter, eq, n in _GROUP_RE.findall(groups):
            letter = letter.upper()
            k = int(count)
            if k < 1 and n:
                raise ValueError(f"schedule: a length in brackets needs a meld, got {count}{letter} in {part!r}")
            value = 0 if not n else -int(n) if eq else int(n)
            counts[letter] += k
            lengths[letter].extend([value] * k)
        contracts.append(
            Contract(
                counts["S"],
                counts["R"],
                int(cards),
                bool(star),
                set_lengths=tuple(lengths["S"]) if any(lengths["S"]) else (),
                run_lengths=tuple(lengths["R"]) if any(lengths["R"]) else (),
            )
        )
    return tuple(contracts)


_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option, declared once beside its :class:`RuleSet` field (``_option``): the numbered
    rules it carries, its help in plain words, the values it allows and, through the presets, each
    preset's default. Every text and form is made from it: the rules text (``say``), ``liverpool
    rules --options``, the errors of ``--set`` and :meth:`RuleSet.with_options`, the server's
    ``GET /api/options`` (and the lobby's form) and the option columns of ``docs/rules.md``.

    >>> o = OPTIONS["run_min"]
    >>> o.rules, o.help, o.allowed()
    (('R12',), 'fewest cards in a run.', 'a whole number of at least 2')
    >>> o.defaults()["contract"]
    3
    """

    rules: tuple[str, ...]
    """The numbered rules of RULES.md the option carries, the main one first."""
    help: str
    """What it decides, in plain words (a sentence)."""
    low: int | None = None
    """A whole-number option's least value."""
    high: int | None = None
    """A whole-number option's greatest value."""
    upto: str | None = None
    """The option whose value bounds this one from above (``set_min_naturals`` is 0 to ``set_min``)."""
    none: str | None = None
    """What None means, for an option that may be None (e.g. "unlimited")."""
    variant: bool = False
    """A house-rule variant (issue 16 on): left out of :meth:`RuleSet.to_dict` at its default, so
    tables, records and views of games that do not use it read as before it existed."""
    say: Callable[[Any], str] | None = None
    """The rules text's sentence for the option's main rule (``rules[0]``), from its value; None
    when that sentence reads several options (``_describe``)."""
    name: str = ""
    """Set from the field: the option's name."""
    kind: str = ""
    """Set from the field: its annotation (``int | None``, ``BuyWindow``...)."""
    choices: tuple[Any, ...] | None = None
    """Set from the field's Literal annotation: the values allowed (None: not a choice)."""
    default: Any = None
    """Set from the field: the liverpool preset's value."""

    def defaults(self) -> dict[str, Any]:
        """Each preset's value of the option, by preset name."""
        return {name: getattr(rules, self.name) for name, rules in PRESETS.items()}

    def allowed(self) -> str:
        """The values allowed, in words (the ``--set`` errors and the options listing say it)."""
        none = f", or none ({self.none})" if self.none is not None else ""
        if self.choices is not None:
            return "one of " + ", ".join(_json_word(c) for c in self.choices if c is not None) + none
        if self.name == "schedule":
            return "contracts such as 2S/10,1S1R/10,3R/12* (R48: S sets, R runs, /cards dealt, * whole hand)"
        if self.name == "pack_schedule":
            return "rising players:packs pairs such as 5:2,8:3 (packs 1-8)"
        if self.name == "rank_points":
            return "13 whole numbers of 0 or more, ace to king, such as 15,5,5,5,5,5,5,5,5,10,10,10,10"
        if self.kind == "bool":
            return "true or false"
        if self.low is not None and self.upto is not None:
            return f"a whole number from {self.low} to {self.upto}"
        if self.low is not None and self.high is not None:
            return f"a whole number from {self.low} to {self.high}{none}"
        if self.low is not None:
            return f"a whole number of at least {self.low}{none}"
        return f"a whole number (negative lowers the score){none}" if self.kind == "int" else f"a whole number{none}"

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is refused by this option's own limits (None: allowed). Limits between
        options are ``_validate``'s."""
        if value is None:
            return None if self.none is not None else f"must be {self.allowed()}, got None"
        if self.choices is not None:
            ok = any(
                value is c if isinstance(c, bool) else value == c and not isinstance(value, bool) for c in self.choices
            )
            return None if ok else f"must be {self.allowed()}, got {value!r}"
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"must be true or false, got {value!r}"
        if self.kind.startswith("int"):
            if not isinstance(value, int) or isinstance(value, bool):
                return f"must be {self.allowed()}, got {value!r}"
            if self.upto is not None and self.low is not None and value < self.low:
                return f"must be {self.low} to {self.upto}, got {value!r}"
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                return (
                    f"must be {self.allowed()}, got {value!r}"
                    if self.high is not None
                    else (f"must be at least {self.low}, got {value!r}")
                )
        return None

    def to_json(self) -> dict[str, Any]:
        """The declaration as JSON (``GET /api/options``)."""
        return {
            "name": self.name,
            "rules": list(self.rules),
            "help": self.help,
            "type": self.form_type(),
            "choices": None if self.choices is None else list(self.choices),
            "low": self.low,
            "high": self.high,
            "none": self.none,
            "allowed": self.allowed(),
            "defaults": {name: _json_value(self.name, value) for name, value in self.defaults().items()},
        }

    def typed(self, value: Any) -> str:
        """``value`` as ``--set`` takes it: ``true``, ``none``, ``5:2,8:3``, ``2S/10,...``."""
        if value is None or isinstance(value, bool):
            return json.dumps(value).replace("null", "none")
        if self.name == "pack_schedule":
            return ",".join(f"{most}:{packs}" for most, packs in value)
        if isinstance(value, tuple):
            return ",".join(map(str, value))
        return str(value)

    def form_type(self) -> str:
        """The form's input: "choice", "bool", "int", "int|null", "str" (the schedule) or "list"."""
        if self.choices is not None:
            return "choice"
        if self.kind in ("bool", "int"):
            return self.kind
        if self.kind == "int | None":
            return "int|null"
        return "str" if self.name == "schedule" else "list"


def _option(default: _T, rules: str, help: str, **declared: Any) -> _T:
    """A RuleSet field with its :class:`Option` (``rules``: the rule numbers, space-separated)."""
    option = Option(tuple(rules.split()), help, **declared)
    field: _T = dataclasses.field(default=default, metadata={"option": option})
    return field


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _json_word(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _json_value(name: str, value: Any) -> Any:
    """An option's value as JSON (the schedule as its text, tuples as lists)."""
    if name == "schedule":
        return ",".join(map(str, value))
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


LIVERPOOL_RANK_POINTS: Final = (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
CONTRACT_RANK_POINTS: Final = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


@dataclass(frozen=True)
class RuleSet:
    """Every rule option, each field named after what it decides and declared once with its
    :class:`Option` (rule numbers, help, allowed values); defaults are the ``liverpool`` preset.
    Instances validate themselves; change options with :func:`dataclasses.replace`.
    """

    # Players and cards (R1, R2, R46)
    min_players: int = _option(2, "R2", "fewest players.", low=2)
    max_players: int = _option(8, "R2", "most players (up to 16, as Board Game Arena's tables).", low=2, high=16)
    packs: int | None = _option(
        None, "R1", "packs shuffled together; none picks by pack_schedule.", low=1, high=8, none="by pack_schedule"
    )
    pack_schedule: tuple[tuple[int, int], ...] = _option(
        ((5, 2), (8, 3)), "R1", "(up to this many players, use this many packs), in increasing order."
    )
    jokers_per_pack: int = _option(2, "R1 R46", "jokers added per pack.", low=0, high=8)
    wild_rank: int | None = _option(
        None,
        "R46 R17",
        "an extra wild rank (2 = deuces wild); such cards play exactly as jokers.",
        low=1,
        high=13,
        none="jokers only",
    )
    wild_rank_swappable: bool = _option(
        True,
        "R20 R46",
        "a card of the wild rank laid in a run may be swapped out like a joker; off, only jokers are swapped.",
        variant=True,
    )
    dead_discarded_wild: bool = _option(
        False,
        "R46",
        "with deuces wild (wild_rank 2), a discarded deuce is dead: a natural card from then on "
        "(token 2H~), never wild again, a natural 2 of its suit in melds (at the deuce's place in a run when "
        'wild_rank_place is "wild"; in a set of deuces with wild_rank_natural_sets), scored like a natural 3.',
        variant=True,
    )
    # Dealing (R4-R9)
    cut_for_dealer: bool = _option(
        True,
        "R4",
        "players cut for the first dealer (lowest deals); off: seat 0 deals first.",
        say=lambda v: (
            "The first dealer is chosen by cutting: lowest card deals."
            if v
            else "Seat 0 deals first (seats are numbered from 0)."
        ),
    )
    cut_bonus: int = _option(
        0,
        "R5",
        "points taken off a cutter who cuts exactly the cards dealt plus the upcard (0 = off).",
        low=0,
        say=lambda v: (
            f"Cut bonus: a cutter who cuts exactly the cards needed for the deal and the upcard scores -{v}."
            if v
            else "Cut bonus: off."
        ),
    )
    upcard: bool = _option(
        True,
        "R7",
        "one card is turned up to start the discard pile.",
        say=lambda v: (
            "One card is turned up to start the discard pile." if v else "No upcard: the discard pile starts empty."
        ),
    )
    schedule: tuple[Contract, ...] = _option(
        DEFAULT_SCHEDULE, "R48 R6 R10 R15 R37 R41", "the contract and hand size of each deal."
    )
    # Melds (R3, R11-R19)
    ace_high: bool = _option(
        True, "R3", "an ace may end a run high (Q-K-A); it is always allowed low. Runs never wrap."
    )
    set_min: int = _option(3, "R11", "fewest cards in a set.", low=2)
    set_max: int | None = _option(None, "R11", "most cards in a set (none: no limit).", low=2, none="no limit")
    set_distinct_suits: SetDistinctSuits = _option(
        False,
        "R11",
        'no two natural cards of one suit in a set; "laydown": only among the cards laid at going '
        "down (later lay-offs may repeat a suit).",
    )
    sets_distinct_ranks: bool = _option(False, "R11", "the sets of one contract must be of different ranks.")
    run_min: int = _option(
        4, "R12", "fewest cards in a run.", low=2, say=lambda v: f"A run is {v} or more consecutive cards of one suit."
    )
    runs_distinct_suits: bool = _option(False, "R13", "the runs of one contract must be of different suits.")
    runs_same_suit_gap: int | None = _option(
        None,
        "R13",
        "two runs of one suit in a player's contract must have at least this many ranks between them "
        "(0: they may not overlap but may touch; none: off). Judged when the contract is laid down; later "
        "lay-offs may close the gap.",
        low=0,
        high=12,
        none="off",
        variant=True,
    )
    failed_meld_penalty: int = _option(
        0,
        "R16",
        "points for abandoning a begun lay-down (0: the engine only lets a player begin a lay-down that "
        "can be completed).",
        low=0,
        say=lambda v: (
            f"Abandoning a begun lay-down costs {v} points."
            if v
            else "A lay-down that cannot be completed is refused (no penalty)."
        ),
    )
    set_min_naturals: int = _option(
        2,
        "R18",
        "natural cards a set needs.",
        low=0,
        upto="set_min",
        say=lambda v: f"A set needs at least {v} natural cards.",
    )
    run_joker_check: RunJokerCheck = _option(
        "always",
        "R19",
        '"always": every 4 consecutive cards of a run hold at most one wild card, checked whenever '
        'a run is laid or extended; "initial": checked only when the run is first laid.',
    )
    joker_swap: JokerSwap = _option(
        "going_down_turn", "R20", "when a joker in a run may be exchanged for the card it stands for."
    )
    swap_must_play: bool = _option(
        True,
        "R20",
        "a swapped joker must be played the same turn; off, it may be kept in hand (the swap is then "
        "final: no Unswap).",
        variant=True,
    )
    swap_own_run: bool = _option(
        False,
        "R20",
        "a player may also swap a joker out of a run they laid themselves (Moonridge's Liverpool); off, "
        "only out of another player's run.",
        variant=True,
    )
    # A turn (R22-R26, R42, R43)
    pile_draw: bool = _option(
        False, "R22 R26", "a player may take several cards from inside the discard pile, melding the deepest."
    )
    down_may_take_discard: bool = _option(
        True,
        "R22",
        "a player who is down may draw from the discard pile; off: they draw from the stock only.",
        variant=True,
    )
    discard_lock: bool = _option(
        True,
        "R26",
        "a card just taken alone from the discard pile may not be discarded that turn.",
        say=lambda v: (
            "A card just taken alone from the top of the discard pile may not be discarded that turn: " + _yes(v) + "."
        ),
    )
    exact_melds: bool = _option(
        False,
        "R42",
        "melds laid at going down must have exactly the minimum length.",
        say=lambda v: (
            "Melds laid at going down: " + ("exactly the minimum length." if v else "may be longer than the minimum.")
        ),
    )
    layoff_same_turn: bool = _option(
        True,
        "R43 R24",
        "a player may lay off in the turn they go down.",
        say=lambda v: "Lay off in the turn you go down: " + ("allowed." if v else "not until the next turn."),
    )
    # Buying (R27-R31, R44, R47)
    buying: bool = _option(
        True,
        "R27",
        "other players may buy a discard the next player does not take.",
        say=lambda v: f"Buying a discard the next player does not take: {_yes(v)}.",
    )
    buy_penalty: int = _option(
        1,
        "R28 R47",
        "penalty cards from the stock per buy.",
        low=0,
        say=lambda v: f"A buy costs {v} penalty card(s) from the stock.",
    )
    buy_precedence: BuyPrecedence = _option(
        "nearest",
        "R29",
        '"nearest" clockwise to the player about to draw, or "first" to ask.',
        say=lambda v: (
            "Several buyers: "
            + (
                "the nearest clockwise to the player about to draw wins."
                if v == "nearest"
                else "the first to ask wins."
            )
        ),
    )
    buy_limit: int | None = _option(
        None,
        "R31 R47",
        "buys per player per deal (none: unlimited).",
        low=0,
        none="unlimited",
        say=lambda v: "Buys per player per deal: " + ("unlimited." if v is None else f"{v}."),
    )
    down_may_buy: bool = _option(
        True, "R44", "players who are down may buy.", say=lambda v: f"Players who are down may buy: {_yes(v)}."
    )
    buy_window: BuyWindow = _option(
        "until_draw",
        "R30",
        '"until_draw": a buy may be asked until the next player draws (from the stock: the '
        'requests are then resolved); "until_discard": also after that player\'s stock draw, until they discard '
        "(those requests are resolved when the turn ends).",
        variant=True,
        say=lambda v: (
            "The buy window ends when the next player draws from the stock."
            if v == "until_draw"
            else "The buy window stays open after the next player draws from the stock, until they discard"
            " (buys asked then are settled when their turn ends)."
        ),
    )
    # Discarding a playable card (R32-R36)
    playable_discard: PlayableDiscard = _option(
        "call",
        "R32 R33 R34 R36",
        'a down player\'s discard that fits a meld: "call" (R33, any other player calls, '
        'the offender takes it back plus a penalty card), "liverpool" (R34, down players call, the caller takes it '
        'and discards), "strict" (R36, refused), "off" (allowed).',
        say=lambda v: "A down player must not discard a card that fits a meld on the table: " + _yes(v != "off") + ".",
    )
    playable_discard_penalty: int = _option(1, "R33", "penalty cards the offender draws when called.", low=0)
    liverpool_resume: LiverpoolResume = _option(
        "in_turn",
        "R34",
        'after a Liverpool call and the caller\'s discard, "in_turn" (seed 000: rotation resumes '
        "where the call interrupted it, with the player who was about to draw; nobody loses a turn) or "
        '"after_caller" (play resumes with the player after the caller; the players between the discarder and '
        "the caller lose their turn).",
    )
    # Going out and scoring (R37-R41, R45, R49)
    floating: Floating = _option(
        True,
        "R38 R25 R37",
        "a player who lays off every card floats; off (false): melding every card goes out; "
        '"refuse": a player may not meld or lay off their last card (a discard must remain to go out; whole-hand '
        "deals, R15, excepted).",
    )
    knock: bool = _option(
        True,
        "R39",
        "announce a player with one card left.",
        say=lambda v: f"A player with one card left is announced: {_yes(v)}.",
    )
    rank_points: tuple[int, ...] = _option(
        LIVERPOOL_RANK_POINTS, "R40 R49", "points of a card left in hand, ace to king."
    )
    joker_points: int = _option(15, "R40 R49", "points of a joker left in hand.", low=0)
    stock_rebuilds: int | None = _option(
        3,
        "R45 R9",
        "times the stock is rebuilt in a deal; the next time it runs out the deal ends with everyone "
        "scoring their hand (none: unlimited).",
        low=0,
        none="unlimited",
    )
    stock_out_ends_deal: bool = _option(
        False,
        "R45 R9",
        "the deal ends at once, everyone scoring their hand, when a turn ends with the stock empty and no "
        "rebuild left (May I); off, the next player may still take the top discard and the deal ends when a "
        "card must come from the empty stock.",
        variant=True,
    )
    turn_limit: int | None = _option(
        500,
        "R45",
        "turns after which a deal with no one out ends as a stalemate (none: no limit).",
        low=1,
        none="no limit",
    )
    progression: Progression = _option(
        "table",
        "R41 R48",
        '"table": everyone plays the deal\'s contract and the game has one deal per contract; '
        '"player": each player plays the contract of their own level, moves to the next level after a deal in '
        "which they went down, and the game ends after the deal in which someone completes the last level (at the "
        "latest after PLAYER_DEALS_PER_LEVEL deals per level); the most levels completed wins, then the lowest "
        "total.",
        variant=True,
    )
    # Scoring hooks (R49): points added to a player's deal score; negative numbers lower it
    going_out_bonus: int = _option(
        0, "R49", "added to the deal score of the player who goes out (e.g. -10).", variant=True
    )
    going_out_bonus_if_alone: int = _option(
        0,
        "R49",
        "added (besides going_out_bonus) to the player who goes out when nobody else is down.",
        variant=True,
    )
    first_down_bonus: int = _option(
        0, "R49", "added to the deal score of the first player down in the deal.", variant=True
    )
    joker_in_meld_points: int = _option(
        0,
        "R49",
        "added to a player's deal score per wild card in the melds they own at the deal's end.",
        variant=True,
    )
    # ---- Meld variants (issue 16): which melds are legal. Read through melds.py; limits between
    # options checked by _validate, derived values set by _derive_meld_variants.
    run_wild_limit: RunWildLimit = _option(
        "spacing",
        "R19",
        'wild cards in a run: "spacing" (at most one in any 4 consecutive cards), "ratio" (never '
        'more wild than natural cards), "half" (at most half the run\'s cards, rounded down), "none" (any number). '
        "Judged when a run is laid and, as run_joker_check says, when a card is laid off.",
        variant=True,
    )
    set_wild_limit: SetWildLimit = _option(
        "none",
        "R18",
        'wild cards in a set: "none" (only set_min_naturals applies) or "ratio" (never more wild '
        "than natural cards; at lay-offs as run_joker_check says).",
        variant=True,
    )
    run_min_naturals: int = _option(
        1,
        "R17 R19",
        "natural cards a run needs; 0: a run may be all wild cards, declaring what it stands for.",
        low=0,
        upto="run_min",
        variant=True,
    )
    wild_rank_place: WildRankPlace = _option(
        "wild",
        "R46 R3",
        'with wild_rank: "wild" (a wild card may stand in the wild rank\'s own place in a run) or '
        '"none" (the wild rank has no place in runs: with deuces wild runs go 3 to ace).',
        variant=True,
    )
    wild_rank_natural_sets: bool = _option(
        False,
        "R46 R18",
        "with wild_rank: cards of the wild rank may form a set of their own rank (as natural "
        "cards); off, three deuces are three wild cards and no set.",
        variant=True,
    )
    ace: Ace | None = _option(
        None,
        "R3",
        '"low", "high", "either" (low or high, never both in one run) or "both" (A-2-...-K-A in one '
        'run); none: ace_high decides (true: "either", false: "low").',
        none="ace_high decides",
        variant=True,
    )
    wrap_around: bool = _option(
        False, "R3", 'runs may turn the corner (K-A-2-3); needs the ace "either" or "both".', variant=True
    )

    # Derived once per rule set (set in __post_init__), read on hot paths as plain instance
    # attributes (no class attribute of the same name, which would stop attribute specialisation).
    buys_after_draw: ClassVar[bool]
    """R30: ``buy_window == "until_discard"``: the buy window stays open after a stock draw."""
    refuses_last_card: ClassVar[bool]
    """R38: ``floating == "refuse"``: the last card may not be melded or laid off."""
    grouped_contracts: ClassVar[bool]
    """R13, R48 (issue 16): some contract has lengths of its own (brackets) or ``runs_same_suit_gap``
    is set: lay-downs take the solver's group search (``game/contracts.py``); False costs nothing."""
    layoff_distinct_suits: ClassVar[bool]
    """R11: must a card laid off on a set differ in suit from its natural cards?
    (``set_distinct_suits`` True; "laydown" binds only the cards laid at going down.) The one home
    of this reading for lay-offs: melds.can_extend_set, the engine's accepted cards and the greedy
    bot's table knowledge ask it."""
    max_deals: ClassVar[int]
    """R41: the most deals a game lasts (``progression="player"``: ``PLAYER_DEALS_PER_LEVEL`` per
    level; "table": one per contract). Derived once: every view reads it."""
    # derived from the meld variants (issue 16) by _derive_meld_variants
    ace_rule: ClassVar[str]
    """R3: the ace rule in effect: ``ace``, or what ``ace_high`` spells ("either" or "low")."""
    run_low: ClassVar[int]
    """R3: the lowest value a run may hold (1, or 2 when the ace is high only)."""
    run_top: ClassVar[int]
    """R3: the highest value a run may hold without wrapping (14 is the ace high; 13 when low only)."""
    run_len_max: ClassVar[int]
    """R3: the most cards a run may hold (13; 14 with the ace "both")."""
    run_gap: ClassVar[int]
    """R46: the rank with no place in runs (``wild_rank`` with ``wild_rank_place`` "none"), else 0."""
    meld_variant: ClassVar[bool]
    """Any meld variant in effect that the default code paths do not read (the general checks in
    melds.py and the solver's general search then answer)."""

    def __post_init__(self) -> None:
        _validate(self)
        _derive_meld_variants(self)
        # 14: an ace (high); 15: a dead deuce (dead_discarded_wild), scored like a natural 3
        points = (self.joker_points, *self.rank_points, self.rank_points[0], self.rank_points[2])
        object.__setattr__(self, "_points", points)
        object.__setattr__(self, "refuses_last_card", self.floating == "refuse")
        object.__setattr__(self, "buys_after_draw", self.buy_window == "until_discard")
        object.__setattr__(self, "layoff_distinct_suits", self.set_distinct_suits is True)
        grouped = self.runs_same_suit_gap is not None or any(c.grouped for c in self.schedule)
        object.__setattr__(self, "grouped_contracts", grouped)
        per_level = PLAYER_DEALS_PER_LEVEL if self.progression == "player" else 1
        object.__setattr__(self, "max_deals", len(self.schedule) * per_level)

    # ------------------------------------------------------------------ presets and options
    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The named preset: ``liverpool`` (the default), ``contract``, or the house-rule presets
        ``may_i`` and ``shanghai`` (issue 16; ``docs/rules.md`` gives each choice's reason)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None

    @classmethod
    def option_names(cls) -> list[str]:
        """Every option's name."""
        return [f.name for f in dataclasses.fields(cls)]

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with options changed; values may be strings as typed on a command line.

        >>> RuleSet().with_options(run_min="3", buy_limit="none").buy_limit is None
        True
        >>> RuleSet().with_options(buy_limit="lots")
        Traceback (most recent call last):
        ...
        ValueError: option buy_limit: cannot read 'lots': a whole number of at least 0, or none (unlimited)
        """
        changes = {}
        for name, value in options.items():
            if name not in OPTIONS:
                raise ValueError(f"unknown option {name!r}; options are: {', '.join(OPTIONS)}")
            changes[name] = _coerce(OPTIONS[name], value) if isinstance(value, str) else value
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-compatible values. The options added for house-rule variants
        (``Option.variant``) are left out while at their default, so that tables, records and
        views of games that do not use them read exactly as before they existed."""
        out: dict[str, Any] = {}
        for name, option in OPTIONS.items():
            value = getattr(self, name)
            if option.variant and value == option.default:
                continue
            out[name] = _json_value(name, value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Inverse of :meth:`to_dict`."""
        values = dict(data)
        if isinstance(values.get("schedule"), str):
            values["schedule"] = parse_schedule(values["schedule"])
        if "pack_schedule" in values:
            values["pack_schedule"] = tuple(tuple(p) for p in values["pack_schedule"])
        if "rank_points" in values:
            values["rank_points"] = tuple(values["rank_points"])
        return cls().with_options(**values)

    # ------------------------------------------------------------------ derived values
    def packs_for(self, players: int) -> int:
        """R1: packs used by a table of ``players``."""
        if self.packs is not None:
            return self.packs
        for most, packs in self.pack_schedule:
            if players <= most:
                return packs
        return self.pack_schedule[-1][1]

    def deck_size(self, players: int) -> int:
        """Cards in the deck for ``players``."""
        packs = self.packs_for(players)
        return packs * (52 + self.jokers_per_pack)

    def check_table(self, players: int) -> None:
        """Raise ValueError when ``players`` cannot play under these rules (R1, R2)."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{players} players: these rules allow {self.min_players}-{self.max_players} "
                "(options min_players, max_players)"
            )
        most = max(c.cards for c in self.schedule)
        left = self.deck_size(players) - players * most - (1 if self.upcard else 0)
        if left < players:
            raise ValueError(
                f"{players} players with {self.packs_for(players)} pack(s) of "
                f"{52 + self.jokers_per_pack} cards leave {left} card(s) in the stock after "
                f"dealing {most}; raise option packs to {self.packs_needed(players)} (or pack_schedule)"
            )

    def packs_needed(self, players: int) -> int:
        """R1: the fewest packs that deal ``players`` the largest hand of the schedule and the upcard
        and leave at least one stock card per player (what :meth:`check_table` asks)."""
        most = max(c.cards for c in self.schedule)
        cards = players * most + (1 if self.upcard else 0) + players
        return -(-cards // (52 + self.jokers_per_pack))

    def points(self, rank: int) -> int:
        """R40, R49: points of a card of ``rank`` (0 = joker) left in hand."""
        return self._points[rank]  # type: ignore[attr-defined,no-any-return]

    def swappable_wild(self, rank: int) -> bool:
        """R20, R46: may a wild card of ``rank`` laid in a run be swapped out (a joker always; a card
        of the wild rank unless ``wild_rank_swappable`` is off)? The one home of this rule: the
        swaps listed, verified and offered to the bots (``Game._wild_spots``, ``Game._problem``)."""
        return rank == 0 or (rank == self.wild_rank and self.wild_rank_swappable)

    def is_wild(self, rank: int) -> bool:
        """True for a joker, or a card of the wild rank (R46)."""
        return rank in (0, self.wild_rank)

    def describe(self, players: int | None = None) -> list[tuple[str, str]]:
        """The rules in effect in plain words, as (rule number, sentence) pairs."""
        return _describe(self, players)


def _coerce(option: Option, text: str) -> Any:
    """An option's value as typed (``--set option=value``, the lobby's form); ValueError says
    what the option allows."""
    low = text.strip().lower()
    try:
        if option.name == "schedule":
            return parse_schedule(text)
        if option.name == "pack_schedule":
            pairs = []
            for part in text.split(","):
                most, packs = part.split(":")
                pairs.append((int(most), int(packs)))
            return tuple(pairs)
        if option.name == "rank_points":
            return tuple(int(v) for v in text.replace(" ", "").split(","))
        if option.none is not None and low in ("none", "null", "off", "unlimited", ""):
            return None
        if option.kind == "bool" or (option.choices is not None and True in option.choices):
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            if option.choices is None:
                raise ValueError(text)
        if option.choices is not None:
            return low  # a word the choices do not hold is refused by name (Option.problem)
        if option.kind.startswith("int"):
            return int(text)
    except ValueError:
        raise ValueError(f"option {option.name}: cannot read {text!r}: {option.allowed()}") from None
    return text


def _validate(r: RuleSet) -> None:
    """Each option's own limits (``Option.problem``), then the limits between options; a refusal
    names the option."""

    def need(ok: bool, option: str, message: str) -> None:
        if not ok:
            raise ValueError(f"{option} {message}")

    for name, option in OPTIONS.items():
        problem = option.problem(getattr(r, name))
        need(problem is None, name, problem or "")
    need(r.max_players >= r.min_players, "max_players", f"must be at least min_players, got {r.max_players}")
    need(len(r.pack_schedule) > 0, "pack_schedule", "must name at least one (players, packs) pair")
    last = 0
    for pair in r.pack_schedule:
        need(
            isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(v, int) for v in pair),
            "pack_schedule",
            f"must hold (players, packs) pairs, got {pair!r}",
        )
        need(pair[0] > last and 1 <= pair[1] <= 8, "pack_schedule", f"pairs must rise, packs 1-8, got {pair!r}")
        last = pair[0]
    need(
        not r.dead_discarded_wild or r.wild_rank == 2,
        "dead_discarded_wild",
        f"needs deuces wild (wild_rank 2), got wild_rank {r.wild_rank}",
    )
    need(
        isinstance(r.schedule, tuple) and len(r.schedule) > 0 and all(isinstance(c, Contract) for c in r.schedule),
        "schedule",
        "must be a non-empty tuple of Contract",
    )
    need(r.set_max is None or r.set_max >= r.set_min, "set_max", f"must be None or at least set_min, got {r.set_max}")
    need(
        not (r.set_distinct_suits and r.set_min > 4),
        "set_distinct_suits",
        "cannot hold with set_min above 4 (there are four suits)",
    )
    need(r.run_min <= (14 if r.ace_high else 13), "run_min", f"is longer than any run, got {r.run_min}")
    for name, option in OPTIONS.items():
        if option.upto is not None:
            value = getattr(r, name)
            need(value <= getattr(r, option.upto), name, f"must be {option.low} to {option.upto}, got {value!r}")
    need(
        len(r.rank_points) == 13 and all(type(v) is int and v >= 0 for v in r.rank_points),
        "rank_points",
        f"must be 13 whole numbers (ace to king), got {r.rank_points!r}",
    )
    top = 14 if r.ace_high else 13
    for i, contract in enumerate(r.schedule, 1):
        # R48: lengths in brackets (issue 16)
        for n in contract.set_lengths:
            k = abs(n)
            if not n:
                continue
            at = f"deal {i}: a set of {k}"
            need(k >= r.set_min_naturals, "schedule", f"{at} cannot hold set_min_naturals={r.set_min_naturals}")
            need(r.set_max is None or k <= r.set_max, "schedule", f"{at} is longer than set_max={r.set_max}")
            need(not (r.set_distinct_suits and k > 4), "schedule", f"{at} cannot have distinct suits")
        for n in contract.run_lengths:
            need(abs(n) <= top, "schedule", f"deal {i}: a run of {abs(n)} is longer than any run (ace_high)")
        if contract.runs > 1 and r.runs_distinct_suits:
            need(contract.runs <= 4, "runs_distinct_suits", f"cannot hold for {contract.runs} runs")
        if contract.sets > 1 and r.sets_distinct_ranks:
            need(contract.sets <= 13, "sets_distinct_ranks", f"cannot hold for {contract.sets} sets")
    _validate_meld_variants(r)


# ---------------------------------------------------------------------- meld variants (issue 16)
def _validate_meld_variants(r: RuleSet) -> None:
    """R3, R17-R19, R46: the limits between the meld variants, each refused naming the option."""

    def need(ok: bool, option: str, message: str) -> None:
        if not ok:
            raise ValueError(f"{option} {message}")

    ace = r.ace if r.ace is not None else ("either" if r.ace_high else "low")
    need(
        not r.wrap_around or ace in ("either", "both"),
        "wrap_around",
        f"needs the ace 'either' or 'both' (option ace), got ace {ace!r}",
    )
    longest = 14 if ace == "both" else 13
    gap = r.wild_rank if r.wild_rank is not None and r.wild_rank_place == "none" else 0
    if gap:
        if r.wrap_around:
            longest = 12
        else:  # the longest stretch of places, from the lowest to the highest, without the gap's
            longest = stretch = 0
            for v in range(2 if ace == "high" else 1, (13 if ace == "low" else 14) + 1):
                stretch = 0 if (v - 1) % 13 + 1 == gap else stretch + 1
                longest = max(longest, stretch)
    need(  # (without the new options, the older check of run_min stands alone)
        type(r.run_min) is not int or r.run_min <= longest or (r.ace is None and not gap and not r.wrap_around),
        "run_min",
        f"is longer than any run these options allow ({longest} cards: options ace, wild_rank_place), got {r.run_min}",
    )


def _derive_meld_variants(r: RuleSet) -> None:
    ace = r.ace if r.ace is not None else ("either" if r.ace_high else "low")
    gap = r.wild_rank if r.wild_rank is not None and r.wild_rank_place == "none" else 0
    values = {
        "ace_rule": ace,
        "run_low": 2 if ace == "high" else 1,
        "run_top": 13 if ace == "low" else 14,
        "run_len_max": 14 if ace == "both" else 13,
        "run_gap": gap,
        "meld_variant": (
            r.run_wild_limit != "spacing"
            or r.set_wild_limit != "none"
            or r.run_min_naturals != 1
            or r.set_min_naturals == 0
            or bool(gap)
            or (r.wild_rank is not None and r.wild_rank_natural_sets)
            or r.dead_discarded_wild
            or ace in ("high", "both")
            or r.wrap_around
        ),
    }
    for name, value in values.items():
        object.__setattr__(r, name, value)


def _dead_deuce_places(r: RuleSet) -> str:
    """Where a dead deuce (R46) may be melded under ``r``, in words for :meth:`RuleSet.describe`."""
    run = "at the deuce's place in runs (A-2-3)" if r.wild_rank_place == "wild" else "in no run (deuces have no place)"
    sets = "in sets of deuces" if r.wild_rank_natural_sets else "in no set"
    return f": {run} and {sets};"


def _meld_variant_words(r: RuleSet) -> dict[str, str]:
    """The describe() sentences the meld variants add, by rule number (empty at the defaults)."""
    out: dict[str, str] = {}
    if r.ace is not None or r.wrap_around:
        ace = {
            "low": "an ace is low only (A-2-3)",
            "high": "an ace is high only (Q-K-A)",
            "either": "an ace is low or high, never both in one run",
            "both": "an ace is low or high, and both in one run (A-2-...-K-A)",
        }[r.ace_rule]
        wrap = "runs may turn the corner (K-A-2-3)" if r.wrap_around else "runs never wrap (K-A-2 is illegal)"
        out["R3"] = f"Ranks run A-2-...-K-A: {ace}; {wrap}."
    if r.set_wild_limit == "ratio":
        out["R18"] = "wild cards never outnumber the natural cards of a set"
    if r.run_min_naturals != 1:
        out["R17"] = (
            "a run may be all wild cards: it then declares the rank and suit it stands for"
            if r.run_min_naturals == 0
            else f"a run needs at least {r.run_min_naturals} natural cards"
        )
    limit = {
        "ratio": "Wild cards never outnumber the natural cards of a run",
        "half": "Wild cards are at most half a run's cards (rounded down)",
        "none": "A run may hold any number of wild cards",
    }.get(r.run_wild_limit)
    if limit and r.run_wild_limit == "none":
        out["R19"] = limit + f" (it keeps at least {r.run_min_naturals} natural card(s))."
    elif limit:
        out["R19"] = limit + (
            ", checked whenever a run is laid or extended."
            if r.run_joker_check == "always"
            else ", checked when the run is first laid."
        )
    if r.wild_rank is not None:
        word = ("joker", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")[r.wild_rank]
        parts = []
        if r.wild_rank_place == "none":
            parts.append(f"the {word} has no place in runs (nothing stands for a {word})")
        if r.wild_rank_natural_sets:
            parts.append(f"natural {word}s may form a set of {word}s")
        if parts:
            out["R46"] = "; ".join(parts)
    return out


_LITERALS: Final[dict[str, Any]] = {
    "JokerSwap": JokerSwap,
    "PlayableDiscard": PlayableDiscard,
    "LiverpoolResume": LiverpoolResume,
    "BuyPrecedence": BuyPrecedence,
    "RunJokerCheck": RunJokerCheck,
    "Floating": Floating,
    "SetDistinctSuits": SetDistinctSuits,
    "BuyWindow": BuyWindow,
    "RunWildLimit": RunWildLimit,
    "SetWildLimit": SetWildLimit,
    "WildRankPlace": WildRankPlace,
    "Ace": Ace,
    "Progression": Progression,
}


def _declared() -> dict[str, Option]:
    """Each field's :class:`Option`, completed from the field (name, annotation, choices, default)."""
    out = {}
    for f in dataclasses.fields(RuleSet):
        kind = str(f.type)
        alias = _LITERALS.get(kind.removesuffix(" | None"))
        out[f.name] = dataclasses.replace(
            f.metadata["option"],
            name=f.name,
            kind=kind,
            choices=None if alias is None else get_args(alias),
            default=f.default,
        )
    return out


OPTIONS: Final = _declared()
"""Every option's declaration, by name, in the order of the fields."""
VARIANT_OPTIONS: Final = frozenset(name for name, option in OPTIONS.items() if option.variant)
"""Options of issue 16 on (house-rule variants): omitted from :meth:`RuleSet.to_dict` at their default."""


def options_json() -> dict[str, Any]:
    """Every option's declaration and the presets, as JSON (the server's ``GET /api/options``)."""
    return {"presets": list(PRESETS), "options": [option.to_json() for option in OPTIONS.values()]}


def option_cell(rule: str) -> str:
    """The option column of ``rule``'s row in ``docs/rules.md`` (a test keeps the two equal): each
    option carrying the rule with each preset's default as ``--set`` takes it (one value: every
    preset's); an option whose main rule is another names that rule instead.

    >>> option_cell("R12")
    '`run_min` = 4 / 3 / 4 / 4'
    >>> option_cell("R8")
    'none'
    """
    parts = []
    for name, option in OPTIONS.items():
        if rule not in option.rules:
            continue
        if option.rules[0] != rule:
            parts.append(f"`{name}` (see {option.rules[0]})")
            continue
        values = [option.typed(value) for value in option.defaults().values()]
        shown = values[0] + " (every preset)" if len(set(values)) == 1 else " / ".join(values)
        parts.append(f"`{name}` = {shown}")
    return "; ".join(parts) or "none"


def option_fields(preset: str) -> list[dict[str, Any]]:
    """The options of ``preset`` for a form: name, value (the preset's), type, choices, rule, help
    (the server's ``GET /api/presets``)."""
    rules = RuleSet.preset(preset)
    return [
        {
            "name": name,
            "value": _json_value(name, getattr(rules, name)),
            "type": option.form_type(),
            "choices": None if option.choices is None else list(option.choices),
            "rule": option.rules[0],
            "help": option.help,
        }
        for name, option in OPTIONS.items()
    ]


PRESETS: Final[dict[str, RuleSet]] = {}
PRESETS["liverpool"] = RuleSet()
PRESETS["contract"] = RuleSet(
    min_players=3,
    pack_schedule=((4, 1), (12, 2)),
    jokers_per_pack=1,
    set_max=4,
    set_distinct_suits=True,
    run_min=3,
    runs_distinct_suits=True,
    joker_swap="later_turns",
    pile_draw=True,
    buying=False,
    playable_discard="off",
    floating=False,
    rank_points=CONTRACT_RANK_POINTS,
)
# The house-rule presets of issue 16 (docs/rules.md, "Presets": each choice and its reason). Options
# a preset does not name keep the liverpool preset's values.
MAY_I_RANK_POINTS: Final = (15, 20, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""May I: 3-10 their face value, 2 (wild) 20, J-K 10, ace 15 (joker 50)."""
SHANGHAI_RANK_POINTS: Final = (15, 20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)
"""Shanghai: 3-9 5, 10-K 10, ace 15, 2 (wild) 20 (joker 50); a dead deuce scores like a 3, 5."""
PRESETS["may_i"] = RuleSet(
    packs=2,
    jokers_per_pack=2,
    wild_rank=2,
    wild_rank_place="none",
    schedule=parse_schedule("2S/11,2R/11,2S1R/11,3S/11,1S2R/11,3R/11*"),
    run_wild_limit="ratio",
    set_wild_limit="ratio",
    run_joker_check="initial",
    layoff_same_turn=False,
    buy_window="until_discard",
    buy_penalty=1,
    down_may_buy=False,
    joker_swap="off",
    rank_points=MAY_I_RANK_POINTS,
    joker_points=50,
)
PRESETS["shanghai"] = RuleSet(
    pack_schedule=((4, 2), (6, 3), (8, 4)),
    jokers_per_pack=2,
    wild_rank=2,
    dead_discarded_wild=True,
    progression="player",
    schedule=parse_schedule(
        "2S/11,1S1R[=4]/11,2R[=4]/11,3S/11,2S1R[=4]/11,1S2R[=4]/11,1R[=5]1R[=6]/11,1S1R[=7]/11,3R[=4]/11"
    ),
    floating=False,
    run_wild_limit="ratio",
    set_wild_limit="ratio",
    buy_limit=3,
    buy_penalty=1,
    rank_points=SHANGHAI_RANK_POINTS,
    joker_points=50,
)

PRESET_CHOICES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "may_i": (
        ("packs", "2: May I is played with two packs shuffled together"),
        ("jokers_per_pack", "2: the packs keep their jokers"),
        ("wild_rank", "2: deuces are wild besides the jokers"),
        ("wild_rank_place", '"none": a deuce has no place of its own in a run (runs go 3 to ace)'),
        (
            "schedule",
            "six hands of eleven cards: 2 sets, 2 runs, 2 sets + run, 3 sets, set + 2 runs, 3 runs all out (*)",
        ),
        ("run_wild_limit", '"ratio": wild cards never outnumber the natural cards of a run'),
        ("set_wild_limit", '"ratio": nor of a set'),
        ("run_joker_check", '"initial": the wild-card limit is judged at the lay-down, not at later lay-offs'),
        ("layoff_same_turn", "False: no lay-off in the turn of going down"),
        ("buy_window", '"until_discard": "May I?" may be asked until the player to play discards'),
        ("buy_penalty", "1: a buy costs one penalty card"),
        ("down_may_buy", "False: players who are down are out of line for a buy"),
        ("joker_swap", '"off": a melded joker is never taken back (May I does not reuse melded jokers)'),
        ("rank_points", "3-10 face value, 2 (wild) 20, J-K 10, ace 15"),
        ("joker_points", "50"),
    ),
    "shanghai": (
        ("pack_schedule", "2 packs up to 4 players, 3 up to 6, 4 up to 8"),
        ("jokers_per_pack", "2: the packs keep their jokers"),
        ("wild_rank", "2: deuces and jokers are wild"),
        ("dead_discarded_wild", "True: a discarded deuce is dead (a natural card scored like a 3)"),
        ("progression", '"player": each player climbs the levels on their own, moving up after completing one'),
        (
            "schedule",
            "nine levels of eleven cards with exact run lengths (a family's ten-hand Shanghai less its first"
            " level, a pair of aces and a set, which cannot be written); the last, three runs of exactly four,"
            " takes the whole hand after the draw (12 cards)",
        ),
        ("floating", "False: melding every card goes out (so the last level is played all at once)"),
        ("run_wild_limit", '"ratio": never more wild cards than natural cards in a run'),
        ("set_wild_limit", '"ratio": nor in a set'),
        ("buy_limit", "3: three buys per player per deal"),
        ("buy_penalty", "1: a buy costs one card from the stock"),
        ("rank_points", "3-9 5, 10-K 10, ace 15, 2 (wild) 20; a dead deuce 5 (as a 3)"),
        ("joker_points", "50"),
    ),
}
"""The choices of each house-rule preset, (option, value and reason), as ``liverpool rules --preset``
prints them: every option the preset sets apart from the liverpool preset (a test checks it)."""


def _count(k: int, noun: str) -> str:
    """``1 pack``, ``2 packs``, ``0 jokers``."""
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"


def _packs_words(r: RuleSet) -> str:
    """R1's packs for every table R2 allows, e.g. ``1 pack for 3-4 players, 2 packs for 5-8
    players``: the pack schedule read within ``min_players``-``max_players``."""
    if r.packs:
        return _count(r.packs, "pack")
    spans: list[tuple[int, int, int]] = []  # (packs, fewest players, most players)
    low = r.min_players
    for i, (most, k) in enumerate(r.pack_schedule):
        # the last pair's packs serve every larger table too (RuleSet.packs_for)
        high = r.max_players if i == len(r.pack_schedule) - 1 else min(most, r.max_players)
        if high < low:
            continue
        if spans and spans[-1][0] == k:  # equal packs for two spans of tables: one span
            low = spans.pop()[1]
        spans.append((k, low, high))
        low = high + 1
        if low > r.max_players:
            break
    return ", ".join(
        f"{_count(k, 'pack')} for {_count(a, 'player') if a == b else f'{a}-{b} players'}" for k, a, b in spans
    )


_FIXED_RULES: Final = (
    ("R8", "The player left of the dealer plays first; play goes clockwise; the deal passes left."),
    ("R9", "When the stock runs out the discard pile, less its top card, is shuffled into a new stock."),
    ("R14", "The contract goes down all at once, in one turn, once per deal."),
    ("R21", "A joker in a set is dead: it can never be taken back."),
    ("R23", "Lay down the contract when you can (R14)."),
    ("R24", "Once down, lay off cards on any player's melds."),
    ("R35", "The rule does not apply to the discard that goes out."),
    ("R37", "A player goes out by discarding their last card (whole-hand deals: by melding the whole hand)."),
)
"""The rules text of the rules no option changes."""


def _describe(r: RuleSet, players: int | None) -> list[tuple[str, str]]:
    """The rules text: the fixed rules, each option's own sentence (``Option.say``) and below the
    sentences that read several options."""
    n = players
    packs = _count(r.packs_for(n), "pack") if n is not None else _packs_words(r)
    said = [(option.rules[0], option.say(getattr(r, name))) for name, option in OPTIONS.items() if option.say]
    lines: list[tuple[str, str]] = [
        *_FIXED_RULES,
        *said,
        ("R1", f"Cards: packs of 52 with {_count(r.jokers_per_pack, 'joker')} each, shuffled together: {packs}."),
        ("R2", f"Players: {r.min_players} to {r.max_players}."),
        (
            "R3",
            "Ranks run A-2-...-K"
            + ("-A: an ace is low or high, never both in one run" if r.ace_high else ": an ace is low only")
            + "; runs never wrap (K-A-2 is illegal).",
        ),
        ("R6", "Cards dealt per deal: " + ", ".join(str(c.cards) for c in r.schedule) + "."),
        (
            "R10",
            "Contracts: "
            + "; ".join(
                f"{'deal' if r.progression == 'table' else 'level'} {i}: {c.describe()}"
                for i, c in enumerate(r.schedule, 1)
            )
            + ".",
        ),
        (
            "R11",
            f"A set is {r.set_min}"
            + (f" to {r.set_max}" if r.set_max else " or more")
            + " cards of one rank"
            + (
                "; no two natural cards of one suit among those laid at going down (lay-offs may repeat a suit)"
                if r.set_distinct_suits == "laydown"
                else "; no two natural cards of one suit"
                if r.set_distinct_suits
                else ""
            )
            + (
                "; the sets of one contract differ in rank"
                if r.sets_distinct_ranks
                else "; two sets of a contract may share a rank"
            )
            + ".",
        ),
        (
            "R13",
            f"Runs of one contract must differ in suit: {_yes(r.runs_distinct_suits)}"
            + (
                ""
                if r.runs_same_suit_gap is None or r.runs_distinct_suits
                else f"; two runs of one suit in a contract have at least {r.runs_same_suit_gap} rank(s) between them"
            )
            + ".",
        ),
        (
            "R15",
            "Deals marked whole-hand ("
            + (", ".join(str(i) for i, c in enumerate(r.schedule, 1) if c.whole_hand) or "none")
            + "): every card goes down at once, no final discard, melds may be longer.",
        ),
        (
            "R17",
            "Jokers"
            + (f" and every {_rank_word(r.wild_rank)}" if r.wild_rank else "")
            + " are wild; in a run a wild card's rank and suit follow from its place.",
        ),
        (
            "R19",
            "Every 4 consecutive cards of a run hold at most one wild card"
            + (
                ", checked whenever a run is laid or extended."
                if r.run_joker_check == "always"
                else ", checked when the run is first laid."
            ),
        ),
        (
            "R20",
            "Joker swap: "
            + _SWAP_WORDS[r.joker_swap]
            + (
                "."
                if r.joker_swap == "off"
                else "; the swapped joker must be played the same turn."
                if r.swap_must_play
                else "; the swapped joker may be kept in hand."
            )
            + (
                " A player may swap a joker out of their own run too."
                if r.swap_own_run and r.joker_swap != "off"
                else ""
            ),
        ),
        (
            "R22",
            "Draw the top discard or the top of the stock"
            + ("; or several cards from inside the discard pile, melding the deepest at once" if r.pile_draw else "")
            + ("." if r.down_may_take_discard else "; a player who is down draws from the stock only."),
        ),
        (
            "R25",
            "Discard one card to end the turn" + ("." if r.floating else ", unless every card was melded."),
        ),
        (
            "R33",
            "Calling rummy: any other player may call such a discard before the next turn starts; "
            f"the offender takes it back plus {r.playable_discard_penalty} penalty card(s)"
            + (" (in effect)." if r.playable_discard == "call" else " (not in effect)."),
        ),
        (
            "R34",
            "Calling Liverpool: only down players may call; the first caller takes the card and discards one, "
            + (
                "then play resumes with the player who was about to draw"
                if r.liverpool_resume == "in_turn"
                else "then play resumes after the caller"
            )
            + (" (in effect)." if r.playable_discard == "liverpool" else " (not in effect)."),
        ),
        (
            "R36",
            "Strict: such a discard is refused"
            + (" (in effect)." if r.playable_discard == "strict" else " (not in effect)."),
        ),
        (
            "R38",
            "No floating: a player may not meld or lay off their last card; a discard must remain to go out"
            " (whole-hand deals excepted)."
            if r.floating == "refuse"
            else "Floating: a player who lays off every card stays in and must still go out by a discard."
            if r.floating
            else "No floating: melding every card goes out.",
        ),
        (
            "R40",
            "Points left in hand: "
            + ", ".join(f"{_rank_word(i + 1)} {v}" for i, v in enumerate(r.rank_points))
            + f", joker {r.joker_points}.",
        ),
        (
            "R41",
            f"{len(r.schedule)} deals; the lowest total wins; ties share the win; every seat is placed "
            "by its total (1 for the lowest), ties sharing a place."
            if r.progression == "table"
            else f"Levels per player: {len(r.schedule)} levels (the contracts of R10, each with its own cards "
            "dealt); each player plays their own level's contract and moves to the next after a deal in which "
            "they went down; the game ends after the deal in which someone completes the last level (at the "
            f"latest after {r.max_deals} deals); the most levels completed wins, then the lowest total; ties "
            "share the win and a place.",
        ),
        (
            "R45",
            "A deal with no one out ends, everyone scoring their hand, "
            + (
                "never for lack of stock"
                if r.stock_rebuilds is None
                else f"when the stock runs out after {r.stock_rebuilds} rebuild(s)"
                + (" (at once, at the end of the turn that empties it)" if r.stock_out_ends_deal else "")
            )
            + ("" if r.turn_limit is None else f", or after {r.turn_limit} turns")
            + ".",
        ),
        (
            "R46",
            f"Jokers per pack: {r.jokers_per_pack}; extra wild rank: "
            + (_rank_word(r.wild_rank) if r.wild_rank else "none")
            + (
                ""
                if not r.wild_rank
                else f"; a {_rank_word(r.wild_rank)} laid in a run may be swapped out like a joker"
                if r.wild_rank_swappable
                else f"; a {_rank_word(r.wild_rank)} laid in a run is never swapped out (only jokers are)"
            )
            + (
                "; a discarded deuce is dead (shown 2H~): a natural card from then on, never wild again, a natural"
                f" 2 of its suit in melds{_dead_deuce_places(r)} scored like a natural 3 ({r.rank_points[2]} points)"
                if r.dead_discarded_wild
                else ""
            )
            + ".",
        ),
        (
            "R47",
            f"Buy price: {r.buy_penalty} penalty card(s); limit: "
            + ("none." if r.buy_limit is None else f"{r.buy_limit} per deal."),
        ),
        (
            "R48",
            "Deal schedule: "
            + ",".join(map(str, r.schedule))
            + (
                " (a length in brackets is the least number of cards of those melds; [=n]: exactly n)."
                if any(c.grouped for c in r.schedule)
                else "."
            ),
        ),
        ("R49", "Scoring table: see R40" + _bonus_words(r) + "."),
    ]
    lines.sort(key=lambda line: int(line[0][1:]))
    variant = _meld_variant_words(r)  # meld variants (issue 16): R3 and R19 replaced, others added to
    if variant:
        replaced = ("R3", "R19")
        lines = [
            (n, text if n not in variant else variant[n] if n in replaced else f"{text[:-1]}; {variant[n]}.")
            for n, text in lines
        ]
    return lines


def _bonus_words(r: RuleSet) -> str:
    """R49's scoring hooks in effect, e.g. ``; going out: -10 points``."""
    parts = [
        f"{label}: {value:+d} points"
        for label, value in (
            ("going out", r.going_out_bonus),
            ("going out with nobody else down", r.going_out_bonus_if_alone),
            ("first down in the deal", r.first_down_bonus),
            ("per wild card in one's own melds at the deal's end", r.joker_in_meld_points),
        )
        if value
    ]
    return "; " + "; ".join(parts) if parts else "; no bonuses"


_SWAP_WORDS: Final = {
    "going_down_turn": "allowed only in the turn a player lays down their contract",
    "once_down": "allowed in any turn once the player is down",
    "later_turns": "allowed in turns after the one in which the player went down",
    "off": "not allowed",
}


def _rank_word(rank: int) -> str:
    return ("joker", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")[rank]


def rules_json(r: RuleSet) -> str:
    """The options as one JSON text (stable key order)."""
    return json.dumps(r.to_dict(), sort_keys=True)


_CACHED: list[tuple[dict[str, Any], RuleSet]] = []


def cached_rules(data: dict[str, Any]) -> RuleSet:
    """``RuleSet.from_dict(data)``, remembered for the rules dicts seen last (compared by value,
    against a private copy): every view of a game carries an equal rules dict, and searching bots
    read it many times.

    >>> data = RuleSet().to_dict()
    >>> cached_rules(data) is cached_rules(dict(data)) and cached_rules(data) == RuleSet()
    True
    """
    for i, (seen, rules) in enumerate(_CACHED):
        if seen == data:
            if i:
                _CACHED.insert(0, _CACHED.pop(i))
            return rules
    rules = RuleSet.from_dict(data)
    _CACHED.insert(0, (json.loads(json.dumps(data)), rules))
    del _CACHED[16:]
    return rules

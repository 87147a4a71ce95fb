"""Positions: a public text notation for a whole game state, as FEN serves chess programs.

``game.position()`` writes it and ``Game.from_position(text)`` reads it back; the two round-trip
(``Game.from_position(t).position() == t``). A position holds everything the rules act on: the
rules, the seed (the shuffles still to come: rebuilt stocks, later deals), the table, every hand,
the stock in order and the discard pile, the melds, whose turn and which phase, and the state of
the turn (staged melds, swaps, windows). It holds no history: the game read back has no actions
and no events, and its ``version`` starts again at 0.

One line per field, ``key value...``; cards as tokens (``7H``, ``10S``, ``JK``), piles bottom
first (the stock's top card last), ``-`` for nothing:

>>> from liverpool import Game
>>> game = Game.new(players=2, seed=3)
>>> text = game.position()
>>> print("\\n".join(text.splitlines()[2:9]))
players 2
seed 3
deal 1
dealer 0
turn 1
current 1
phase draw
>>> Game.from_position(text).position() == text
True
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ..cards import DEAD_RANK, Card, full_deck, parse_card
from ..events import freeze
from ..rules import RuleSet
from .common import _MADE, _Declared, _declared, _ensure_seats, _Meld

if TYPE_CHECKING:  # pragma: no cover
    from .core import _Core

__all__ = ["POSITION_FORMAT", "read_position", "write_position"]

G = TypeVar("G", bound="_Core")

POSITION_FORMAT: Final = "liverpool-position/1"

_PHASES: Final = ("draw", "play", "liverpool_discard", "over")


def _cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(map(str, cards)) if cards else "-"


def _ints(values: list[int] | list[bool]) -> str:
    return " ".join(str(int(v)) for v in values) if values else "-"


def _opt(value: object) -> str:
    return "-" if value is None else str(value)


def write_position(game: _Core) -> str:
    """The position of ``game`` as text (see the module doc)."""
    g = game
    lines = [
        f"format {POSITION_FORMAT}",
        "rules " + json.dumps(g.rules.to_dict(), sort_keys=True, separators=(",", ":")),
        f"players {g.n}",
        f"seed {g.seed}",
        f"deal {g.deal_index + 1}",
        f"dealer {g.dealer}",
        f"turn {g.turn}",
        f"current {g.current}",
        f"phase {g.phase}",
        f"scores {_ints(g._scores)}",
        "deal_scores " + (" / ".join(_ints(s) for s in g.deal_scores) if g.deal_scores else "-"),
    ]
    if g.levels is not None:  # issue 16, progression="player": each seat's level, 1-based
        lines.append(f"levels {' '.join(str(v + 1) for v in g.levels)}")
    lines += [f"hand {p} {_cards(h)}" for p, h in enumerate(g.hands)]
    lines += [f"stock {_cards(g.stock)}", f"pile {_cards(g.discard)}"]
    lines += [f"meld {m.id} {m.owner} {m.kind} {m.start} {_cards(m.cards)}{_declared_words(m.cards)}" for m in g._melds]
    lines += [
        f"down {_ints(g.down)}",
        f"down_turn {_ints(g.down_turn)}",
        f"buys_used {_ints(g.buys_used)}",
        f"knocked {_ints(g.knocked)}",
        f"rebuilds {g.rebuilds}",
        f"discarder {_opt(g.discarder)}",
        f"fresh {int(g.fresh)}",
        f"call_open {int(g.call_open)}",
        f"buy_requests {_ints(g.buy_requests)}",
        f"passed {_ints(g.passed)}",
        f"taken {_opt(g.taken)}",
        f"must_meld {_opt(g.must_meld)}",
    ]
    lines += [f"staged {kind} {_cards(cards)}{_declared_words(cards)}" for kind, cards in g.pending]
    lines += [f"swap {m} {v} {nat} {wild}" for m, v, nat, wild in g.swaps]
    lines += [f"unswapped {m} {v}" for m, v in g.unswapped]
    lines += [f"swap_base {g.swap_base}", f"retracted {int(g.retracted)}", f"resume {_opt(g.resume)}"]
    return "\n".join(lines) + "\n"


class _Reader:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise ValueError(f"a position is a text, got {type(text).__name__}")
        self.single: dict[str, list[str]] = {}
        self.multi: dict[str, list[list[str]]] = {"hand": [], "meld": [], "staged": [], "swap": [], "unswapped": []}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            key, _, rest = line.strip().partition(" ")
            words = rest.split() if key != "rules" else [rest]
            if key in self.multi:
                self.multi[key].append(words)
            elif key in _SINGLE or key == "levels":  # levels: only with progression="player" (issue 16)
                if key in self.single:
                    raise ValueError(f"position line {number}: {key!r} given twice")
                self.single[key] = words
            else:
                raise ValueError(f"position line {number}: unknown field {key!r}")
        missing = [k for k in _SINGLE if k not in self.single]
        if missing:
            raise ValueError(f"position: missing field(s) {', '.join(missing)}")

    def words(self, key: str) -> list[str]:
        words = self.single[key]
        return [] if words == ["-"] else words

    def num(self, key: str) -> int:
        words = self.words(key)
        if len(words) != 1:
            raise ValueError(f"position: {key} must be one whole number, got {' '.join(words)!r}")
        return _int(key, words[0])

    def opt_int(self, key: str) -> int | None:
        return None if not self.words(key) else self.num(key)

    def ints(self, key: str, count: int | None = None) -> list[int]:
        values = [_int(key, w) for w in self.words(key)]
        if count is not None and len(values) != count:
            raise ValueError(f"position: {key} must hold {count} numbers, got {len(values)}")
        return values

    def card(self, key: str) -> Card | None:
        words = self.words(key)
        return None if not words else _card(key, words[0])


_SINGLE: Final = (
    "format",
    "rules",
    "players",
    "seed",
    "deal",
    "dealer",
    "turn",
    "current",
    "phase",
    "scores",
    "deal_scores",
    "stock",
    "pile",
    "down",
    "down_turn",
    "buys_used",
    "knocked",
    "rebuilds",
    "discarder",
    "fresh",
    "call_open",
    "buy_requests",
    "passed",
    "taken",
    "must_meld",
    "swap_base",
    "retracted",
    "resume",
)


def _int(key: str, word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"position: {key}: {word!r} is not a whole number") from None


def _card(key: str, word: str) -> Card:
    try:
        return parse_card(word)
    except ValueError as exc:
        raise ValueError(f"position: {key}: {exc}") from None


def _card_list(key: str, words: list[str]) -> list[Card]:
    return [] if words == ["-"] else [_card(key, w) for w in words]


def read_position(cls: type[G], text: str) -> G:
    """The game in the position ``text`` (see :meth:`Game.from_position`)."""

    r = _Reader(text)
    if r.words("format") != [POSITION_FORMAT]:
        raise ValueError(f"position: format must be {POSITION_FORMAT!r}, got {' '.join(r.words('format'))!r}")
    try:
        rules_data: Any = json.loads(r.single["rules"][0])
    except (ValueError, IndexError):
        raise ValueError("position: rules must be the JSON of RuleSet.to_dict()") from None
    if not isinstance(rules_data, dict):
        raise ValueError("position: rules must be the JSON of RuleSet.to_dict()")
    rules = RuleSet.from_dict(rules_data)
    n = r.num("players")
    rules.check_table(n)
    _ensure_seats(n)
    g = cls.__new__(cls, _MADE)  # type: ignore[call-arg]  # mypyc: __init__(_MADE)
    g.rules = rules
    g._rules_dict = freeze(rules.to_dict())  # read-only, shared by views
    g._contract_view = None
    g._pile_view = ([], [])
    g.n = n
    g.seed = r.num("seed")
    g.actions = []
    g.events = []
    g._private = []
    g._legacy = False
    g.deal_index = r.num("deal") - 1
    if not 0 <= g.deal_index < rules.max_deals:
        raise ValueError(f"position: deal must be 1-{rules.max_deals}, got {g.deal_index + 1}")
    g.levels = None
    if rules.progression == "player":  # issue 16: each seat's level, 1-based (all 1 when not given)
        g.levels = [v - 1 for v in r.ints("levels", n)] if "levels" in r.single else [0] * n
        if not all(0 <= v < len(rules.schedule) for v in g.levels):
            raise ValueError(f"position: levels must be 1-{len(rules.schedule)}, got {g.levels}")
    g.dealer = r.num("dealer")
    g.turn = r.num("turn")
    g.current = r.num("current")
    for key, seat in (("dealer", g.dealer), ("current", g.current)):
        if not 0 <= seat < n:
            raise ValueError(f"position: {key} {seat} is no seat of this table of {n}")
    phase = " ".join(r.words("phase"))
    if phase not in _PHASES:
        raise ValueError(f"position: phase must be one of {', '.join(_PHASES)}, got {phase!r}")
    g.phase = phase
    g._scores = r.ints("scores", n)
    scores_text = " ".join(r.single["deal_scores"])
    g.deal_scores = []
    if scores_text != "-":
        g.deal_scores = [[_int("deal_scores", w) for w in part.split()] for part in scores_text.split("/")]
    hands: dict[int, list[Card]] = {}
    for words in r.multi["hand"]:
        if not words:
            raise ValueError("position: a hand line needs its seat")
        seat = _int("hand", words[0])
        if not 0 <= seat < n or seat in hands:
            raise ValueError(f"position: hand {seat}: no such seat, or given twice")
        hands[seat] = _card_list(f"hand {seat}", words[1:])
    if sorted(hands) != list(range(n)):
        raise ValueError(f"position: one hand line per seat 0-{n - 1} is needed")
    g.hands = [hands[p] for p in range(n)]
    g.stock = _card_list("stock", r.single["stock"])
    g.discard = _card_list("pile", r.single["pile"])
    g._melds = []
    for i, words in enumerate(r.multi["meld"]):
        if len(words) < 5 or words[2] not in ("set", "run"):
            raise ValueError(f"position: meld line {i}: write 'meld ID OWNER set|run START CARDS...'")
        meld_id, owner, start = _int("meld", words[0]), _int("meld", words[1]), _int("meld", words[3])
        if meld_id != i or not 0 <= owner < n:
            raise ValueError(f"position: meld {meld_id}: ids run 0, 1, ... and owners are seats")
        g._melds.append(_Meld(meld_id, owner, words[2], _declared_list("meld", words[4:]), start))
    g.down = [bool(v) for v in r.ints("down", n)]
    g.down_turn = r.ints("down_turn", n)
    g.buys_used = r.ints("buys_used", n)
    g.knocked = [bool(v) for v in r.ints("knocked", n)]
    g.rebuilds = r.num("rebuilds")
    g.discarder = r.opt_int("discarder")
    g.fresh = bool(r.num("fresh"))
    g.call_open = bool(r.num("call_open"))
    g.buy_requests = r.ints("buy_requests")
    g.passed = r.ints("passed")
    g.taken = r.card("taken")
    g.must_meld = r.card("must_meld")
    g.pending = []
    for words in r.multi["staged"]:
        if len(words) < 2 or words[0] not in ("set", "run"):
            raise ValueError("position: write 'staged set|run CARDS...'")
        g.pending.append((words[0], _declared_list("staged", words[1:])))
    g.swaps = []
    for words in r.multi["swap"]:
        if len(words) != 4:
            raise ValueError("position: write 'swap MELD VALUE NATURAL WILD'")
        meld_id, value = _int("swap", words[0]), _int("swap", words[1])
        g.swaps.append((meld_id, value, _card("swap", words[2]), _card("swap", words[3])))
    g.unswapped = []
    for words in r.multi["unswapped"]:
        if len(words) != 2:
            raise ValueError("position: write 'unswapped MELD VALUE'")
        g.unswapped.append((_int("unswapped", words[0]), _int("unswapped", words[1])))
    g.swap_base = r.num("swap_base")
    g.retracted = bool(r.num("retracted"))
    g.resume = r.opt_int("resume")
    g.deal_events_start = 0
    g._legal_cache = None
    deck = full_deck(rules.packs_for(n), rules.jokers_per_pack)
    g._deck_size = len(deck)
    placed: Counter[Card] = Counter(g.stock) + Counter(g.discard)  # dead deuces counted as deuces below
    for hand in g.hands:
        placed.update(hand)
    for m in g._melds:
        placed.update(m.cards)
    for _, cards in g.pending:
        placed.update(cards)
    if any(c.rank == DEAD_RANK for c in placed):
        if not rules.dead_discarded_wild:
            raise ValueError("position: a dead deuce (e.g. 2H~) needs option dead_discarded_wild")
        live: Counter[Card] = Counter()
        for c, k in placed.items():
            live[c.live] += k
        placed = live
    if placed != Counter(deck):
        extra = sorted((placed - Counter(deck)).elements())
        gone = sorted((Counter(deck) - placed).elements())
        raise ValueError(
            "position: the cards are not this table's deck, each card once"
            + (f"; too many: {_cards(extra)}" if extra else "")
            + (f"; missing: {_cards(gone)}" if gone else "")
        )
    return g


def _declared_words(cards: list[Card]) -> str:
    """`` declared 5S`` after the cards of a run of wild cards declared to start at 5S (issue 16)."""

    declared = _declared(cards)
    return "" if declared is None else f" declared {declared}"


def _declared_list(what: str, words: list[str]) -> list[Card]:
    """The cards of a meld line, declared when it ends ``declared CARD`` (issue 16)."""
    if len(words) >= 3 and words[-2] == "declared":
        return _Declared(_card_list(what, words[:-2]), _card(what, words[-1]))
    return _card_list(what, words)

"""What a seat may know, and a game written down: views, records, positions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from ..actions import (
    action_from_dict,
)
from ..cards import Card, card_names, parse_card
from ..errors import IllegalAction
from ..events import freeze
from ..rules import RuleSet, cached_rules
from .common import (
    _MADE,
    _VIEW,
    DRAW,
    OVER,
    PLAY,
    RECORD_FORMAT,
    RECORD_FORMAT_1,
    _Declared,
    _declared,
    _ensure_seats,
    _fresh_rules,
    _Meld,
)
from .listing import _Listing


class _Views(_Listing):
    """What a seat may know, and a game written down (a layer of :class:`~liverpool.game.Game`)."""

    __slots__ = ()

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as JSON-serializable data: their own hand, everyone's hand
        size, the table, the whole discard pile and the public history; never another hand, the
        stock's order or the seed."""
        if not 0 <= player < self.n:
            raise ValueError(f"no seat {player} at this table of {self.n}")
        rules = self.rules
        # issue 16: the seat's own level's contract with progression="player"
        c = rules.schedule[self.deal_index] if self.levels is None else self.contract_of(player)
        cached = self._contract_view
        if cached is None or cached[0] is not c:
            text = {"sets": c.sets, "runs": c.runs, "cards": c.cards, "whole_hand": c.whole_hand, "text": c.describe()}
            if c.grouped:  # issue 16: lengths of its own (R48), only then (views of other games unchanged)
                text["set_lengths"], text["run_lengths"] = list(c.set_lengths), list(c.run_lengths)
            cached = self._contract_view = (c, text)
        phase = self.phase
        draw = phase == DRAW
        over = phase == OVER
        swaps = self.swaps
        unswapped = self.unswapped
        taken = self.taken
        must = self.must_meld
        melds = self._melds
        # the pile changes about once a turn, views come at every decision: its names are kept
        # while it holds the same cards (compared in C, by identity as cards are interned)
        pile = self.discard
        names = self._pile_view
        if names[0] != pile:
            names = self._pile_view = (pile.copy(), card_names(pile))
        view = _VIEW.copy()
        view["player"] = player
        view["players"] = self.n
        view["deal"] = self.deal_index + 1
        view["deals"] = rules.max_deals  # len(schedule), or the most deals with progression="player"
        view["contract"] = cached[1].copy()
        view["dealer"] = self.dealer
        view["current"] = self.current
        view["phase"] = phase
        view["turn"] = self.turn
        view["version"] = len(self.actions)
        view["hand"] = card_names(self.hands[player])
        view["hand_sizes"] = list(map(len, self.hands))
        view["down"] = self.down.copy()
        view["buys_used"] = self.buys_used.copy()
        view["scores"] = self._scores.copy()
        view["deal_scores"] = list(map(list.copy, self.deal_scores))
        view["melds"] = list(map(_Meld.to_view, melds)) if melds else []
        view["staged"] = [_staged_view(k, cards) for k, cards in self.pending] if self.pending else []
        view["discard_pile"] = names[1].copy()
        view["stock_size"] = len(self.stock)
        view["deck_size"] = self._deck_size
        view["buy_window"] = (draw or phase == PLAY) and self.fresh and rules.buying  # PLAY: R30 until_discard
        view["buy_requests"] = self.buy_requests.copy()
        view["call_window"] = draw and self.call_open
        view["taken_from_discard"] = str(taken) if taken is not None else None
        view["must_meld"] = str(must) if must is not None else None
        view["down_turn"] = self.down_turn.copy()
        view["rebuilds"] = self.rebuilds
        view["fresh_discard"] = self.fresh
        view["discarder"] = self.discarder
        view["passed"] = self.passed.copy()
        view["swaps"] = [[m, v, str(nat), str(w)] for m, v, nat, w in swaps] if swaps else []
        view["unswapped"] = [list(u) for u in unswapped] if unswapped else []
        view["swap_base"] = self.swap_base
        view["retracted"] = self.retracted
        view["resume"] = self.resume
        view["rules"] = (
            self._rules_dict
        )  # shared and read-only (frozen when the game was made), like the event records: bots know it by identity
        view["events"] = self.events[self.deal_events_start :]  # a new list of read-only records
        view["is_over"] = over
        view["winners"] = self.winners if over else []
        if self.levels is not None:  # issue 16, progression="player": every seat's level (public), 1-based
            view["levels"] = [v + 1 for v in self.levels]
        return view

    def __repr__(self) -> str:
        return (
            f"<Game {self.n} players, deal {self.deal}, {self.phase}, player {self.current} to act, "
            f"scores {self._scores}>"
        )

    def record(self) -> dict[str, Any]:
        """A JSON-serializable record (rules, seed, actions) that :meth:`from_record` replays."""
        return {
            "format": RECORD_FORMAT_1 if self._legacy else RECORD_FORMAT,
            "players": self.n,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Self:
        """Rebuild a game from :meth:`record`; an illegal action in it raises IllegalAction.

        A ``liverpool-record/1`` record (made before the rule fixes of issue 10) replays as it was
        played: a Liverpool call resumes after the caller (R34), a deal ends when the stock runs
        out at the start of a draw (R45) and a player may swap a joker out of their own run
        (R20). Its playable discards under ``layoff_same_turn=False`` or ``strict`` (R32, R36)
        follow today's rules; an action they refuse is named in the error."""
        fmt = record.get("format", RECORD_FORMAT)
        if fmt not in (RECORD_FORMAT, RECORD_FORMAT_1):
            raise ValueError(f"unknown record format {fmt!r}; this engine reads {RECORD_FORMAT} and {RECORD_FORMAT_1}")
        rules = RuleSet()
        if "rules" in record:
            data = dict(record["rules"])
            # records made before option liverpool_resume existed played the "after_caller" reading
            data.setdefault("liverpool_resume", "after_caller")
            rules = RuleSet.from_dict(data)
        game = cls.new(players=int(record["players"]), rules=rules, seed=int(record["seed"]))
        game._legacy = fmt == RECORD_FORMAT_1
        old = ""
        if game._legacy:
            old = f" (a {RECORD_FORMAT_1} record, made before the rule fixes of R20, R32-R36 and R45)"
        for i, data in enumerate(record.get("actions", [])):
            action = action_from_dict(data)
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"record action {i} ({action}): {exc}{old}", exc.code, exc.rule) from None
        return game

    @classmethod
    def from_position(cls, text: str) -> Self:
        """The game in the position ``text`` (:mod:`liverpool.positions`, written by
        :meth:`position`); a text that is no position, or whose cards are not the table's deck
        each card once, raises ValueError naming the field."""
        from .positions import read_position

        return read_position(cls, text)

    def position(self) -> str:
        """This game's position as text (:mod:`liverpool.positions`): rules, seed, table, hands,
        stock and pile in order, melds, phase and turn state; no history."""
        from .positions import write_position

        return write_position(self)

    @classmethod
    def from_view(
        cls,
        view: dict[str, Any],
        hands: dict[int, Sequence[Card]],
        stock: Sequence[Card],
        seed: int = 0,
    ) -> Self:
        """A full game state consistent with ``view`` (from :meth:`view`), the hidden cards filled
        in: ``hands`` for every other seat (of the sizes the view shows) and the ``stock`` (top
        last). For search by determinization: the bots sample the hidden cards, build the game and
        play it out. The record of such a game holds only the actions applied after it.
        """
        rules = cached_rules(view["rules"])
        n = int(view["players"])
        me = int(view["player"])
        _ensure_seats(n)
        self = cls.__new__(cls, _MADE)  # type: ignore[call-arg]  # mypyc: __init__(_MADE)
        self.rules = rules
        self._rules_dict = freeze(_fresh_rules(view["rules"]))
        self._contract_view = None
        self._pile_view = ([], [])
        self.n = n
        self.seed = seed
        self.actions = []
        self.events = []
        self._private = []
        self._legacy = False
        self._scores = list(view["scores"])
        self.deal_scores = [list(s) for s in view["deal_scores"]]
        self.dealer = int(view["dealer"])
        self.deal_index = int(view["deal"]) - 1
        levels = view.get("levels")  # issue 16, progression="player": public, 1-based
        self.levels = None if levels is None else [int(v) - 1 for v in levels]
        self._deck_size = int(view["deck_size"])
        parse = parse_card
        self.hands = [[] for _ in range(n)]
        for p in range(n):
            cards = view["hand"] if p == me else hands[p]
            self.hands[p] = [parse(c) if isinstance(c, str) else c for c in cards]
            if len(self.hands[p]) != view["hand_sizes"][p]:
                raise ValueError(f"seat {p} holds {view['hand_sizes'][p]} cards, {len(self.hands[p])} given")
        self._melds = [_Meld(m["id"], m["owner"], m["kind"], _cards_of(m, parse), m["start"]) for m in view["melds"]]
        self.down = list(view["down"])
        self.down_turn = list(view["down_turn"])
        self.buys_used = list(view["buys_used"])
        self.knocked = [size == 1 for size in view["hand_sizes"]]
        self.rebuilds = int(view["rebuilds"])
        self.turn = int(view["turn"])
        self.deal_events_start = 0
        self.discard = [parse(c) for c in view["discard_pile"]]
        self.stock = list(stock)
        if len(self.stock) != view["stock_size"]:
            raise ValueError(f"the stock holds {view['stock_size']} cards, {len(self.stock)} given")
        self.current = int(view["current"])
        self.phase = view["phase"]
        self.discarder = view["discarder"]
        self.fresh = bool(view["fresh_discard"])
        self.call_open = bool(view["call_window"])
        self.buy_requests = list(view["buy_requests"])
        self.passed = list(view["passed"])
        self.taken = parse(view["taken_from_discard"]) if view["taken_from_discard"] else None
        self.pending = [(m["kind"], _cards_of(m, parse)) for m in view["staged"]]
        self.must_meld = parse(view["must_meld"]) if view["must_meld"] else None
        self.swaps = [(int(m), int(v), parse(nat), parse(w)) for m, v, nat, w in view["swaps"]]
        self.unswapped = [(int(m), int(v)) for m, v in view["unswapped"]]
        self.swap_base = int(view.get("swap_base", 0))
        self.retracted = bool(view["retracted"])
        resume = view.get("resume")
        self.resume = int(resume) if resume is not None else None
        self._legal_cache = None
        return self


def _staged_view(kind: str, cards: list[Card]) -> dict[str, Any]:
    """A staged meld as views show it (a run of wild cards with what it was declared to stand for)."""
    declared = _declared(cards)
    if declared is None:
        return {"kind": kind, "cards": card_names(cards)}
    return {"kind": kind, "cards": card_names(cards), "declared": str(declared)}


def staged_melds(view: dict[str, Any]) -> list[tuple[str, list[Card]]]:
    """The melds a view's seat has staged this turn (its ``staged``) as the engine holds them:
    ``(kind, cards)`` pairs, a run of wild cards declared as the view says (R17), for
    :func:`~liverpool.game.staged_progress` and the other rule functions that read staged melds."""
    parse = parse_card
    return [(m["kind"], _cards_of(m, parse)) for m in view["staged"]]


def _cards_of(meld: dict[str, Any], parse: Any) -> list[Card]:
    """The cards of a meld's view, declared as the view says (issue 16)."""
    cards = [parse(c) for c in meld["cards"]]
    return _Declared(cards, parse(meld["declared"])) if "declared" in meld else cards

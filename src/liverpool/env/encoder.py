"""The observation encoder of ``liverpool_v0`` (layout in ``docs/rl.md``), apart from the
PettingZoo class so that ``make fast`` can compile it with mypyc (``setup.py``); the environment
holds one per game and the source and the compiled build encode alike (``tests_compiled``).

It reads one seat's ``game.view(seat)`` alone and keeps, between calls of a game, the parts that
change rarely (the hand's and the pile's counts, the cards taken, the melds), recomputed when the
view's part differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .layout import NAME_TYPE, SCORE_SCALE, ObsLayout, ObsScale

__all__ = ["Encoder"]

_PHASES = {"draw": 0, "play": 1, "liverpool_discard": 2, "over": 3}


class Encoder:
    """The raw observation vector of a seat's view (``encode``) and its scaled form (``scaled``),
    for a table of ``players`` of ``layout``; ``reset`` forgets what a game kept."""

    def __init__(self, players: int, layout: ObsLayout, scaling: ObsScale) -> None:
        self.n = players
        o = layout.ranges
        self._o_hand: int = o["hand"][0]
        self._o_top: int = o["pile_top"][0]
        self._o_pile: int = o["pile"][0]
        self._o_taken: int = o["taken"][0]
        self._o_must: int = o["must_meld"][0]
        self._o_taken_now: int = o["taken_now"][0]
        self._o_staged: int = o["staged"][0]
        self._o_picked: int = o["picked"][0]
        self._o_melds: int = o["melds"][0]
        self._o_melds_len: int = o["melds"][1] - o["melds"][0]
        self._rel = [[(q - me) % players for q in range(players)] for me in range(players)]
        """_rel[me][q]: seat q as seen from me (0 = me)."""
        self._o_mid = (o["hand_sizes"][0], o["contract"][1])
        """The contiguous part from ``hand_sizes`` to ``contract``: built as one list, set at once."""
        assert o["current"][0] == o["scores"][1] and o["phase"][0] == o["buy_requests"][1]
        assert o["flags"][0] == o["phase"][1] and o["deal"][0] == o["flags"][1] and o["contract"][0] == o["deal"][1]
        self._deals = layout.deals
        self._ntypes = layout.types
        self._meld_width = layout.meld_width
        self._o_levels: int = o["levels"][0] if layout.levels else -1
        self._blank = np.zeros(layout.size, np.float32)
        self._scale = scaling.scale
        self._scores = scaling.scores
        self.reset()

    def reset(self) -> None:
        """Forget what the last game kept (a new game begins)."""
        self._taken_deal = -1
        self._taken_seen = 0
        self._taken = np.zeros(self.n * self._ntypes, np.float32)
        self._hand_cache: list[tuple[list[str], np.ndarray]] = [([""], np.zeros(self._ntypes, np.float32))] * self.n
        self._owners: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self._pile_names: list[str] = []
        self._pile_counts = np.zeros(self._ntypes, np.float32)
        self._melds_block = np.zeros(self._o_melds_len, np.float32)
        """The melds part of observations, less the owner column (the same for every seat)."""
        self._meld_rows: dict[int, list[str]] = {}
        self._melds_deal = 0

    def scaled(self, raw: np.ndarray) -> np.ndarray:
        """The scaled observation of a raw one (``encode``'s): a new array."""
        out: np.ndarray = raw * self._scale
        a, b = self._scores
        out[a:b] = np.tanh(raw[a:b] / SCORE_SCALE)
        return out

    def encode(self, view: dict[str, Any], picked: Sequence[int] = ()) -> np.ndarray:
        """The observation vector of one seat's view (layout in ``docs/rl.md``). Parts that change
        rarely (the hand's and the pile's counts, the cards taken, the melds) are kept between
        calls and recomputed when the view's part differs, compared in C."""
        n = self.n
        nt = self._ntypes
        me = view["player"]
        types = NAME_TYPE
        out = self._blank.copy()
        # the hand's counts, kept per seat while the hand is the same
        hand = view["hand"]
        cached = self._hand_cache[me]
        if cached[0] != hand:
            counts = np.bincount([types[c] for c in hand], minlength=self._ntypes).astype(np.float32)
            cached = self._hand_cache[me] = (hand, counts)
        a = self._o_hand
        out[a : a + nt] = cached[1]
        pile = view["discard_pile"]
        if pile:
            out[self._o_top + types[pile[-1]]] = 1
            known = self._pile_names
            if pile != known:
                counts = self._pile_counts
                size = len(known)
                if len(pile) == size + 1 and pile[:size] == known:  # a discard
                    counts[types[pile[-1]]] += 1
                elif len(pile) == size - 1 and known[: size - 1] == pile:  # a draw from the pile
                    counts[types[known[-1]]] -= 1
                else:
                    counts[:] = np.bincount([types[c] for c in pile], minlength=self._ntypes)
                self._pile_names = pile
            a = self._o_pile
            out[a : a + nt] = self._pile_counts
        # the cards each seat took from the pile this deal, from the public events
        events = view["events"]
        deal = view["deal"]
        if deal != self._taken_deal or len(events) < self._taken_seen:
            self._taken_deal = deal
            self._taken_seen = 0
            self._taken = np.zeros(n * nt, np.float32)
        if len(events) > self._taken_seen:
            taken = self._taken
            for i in range(self._taken_seen, len(events)):
                e = events[i]
                kind = e["type"]
                # a call's card goes where the engine's events say: back to the offender when a
                # call_penalty follows (R33), else to the caller (R34), produced by the same action
                kept = kind == "call" and (i + 1 == len(events) or events[i + 1]["type"] != "call_penalty")
                if kind in ("draw_discard", "buy", "call_penalty") or kept:
                    taken[e["player"] * nt + types[e["card"]]] += 1
                elif kind == "draw_pile":
                    for c in e["cards"]:
                        taken[e["player"] * nt + types[c]] += 1
            self._taken_seen = len(events)
        # seat-relative rows: seats me..n-1 first, then 0..me-1
        a = self._o_taken
        split = (n - me) * nt
        out[a : a + split] = self._taken[me * nt :]
        if me:
            out[a + split : a + n * nt] = self._taken[: me * nt]
        card = view["must_meld"]
        if card is not None:
            out[self._o_must + types[card]] = 1
        card = view["taken_from_discard"]
        if card is not None:
            out[self._o_taken_now + types[card]] = 1
        # counts that may repeat a card (rare: a begun lay-down, picked cards)
        staged = view["staged"]
        if staged:
            base = self._o_staged
            for s in staged:
                for c in s["cards"]:
                    out[base + types[c]] += 1
        if picked:
            base = self._o_picked
            for t in picked:
                out[base + t] += 1
        # hand_sizes .. contract, one contiguous part: scalars and one-hots in one list
        rel = self._rel[me]
        hand_sizes, down, buys, scores = view["hand_sizes"], view["down"], view["buys_used"], view["scores"]
        mid: list[Any] = hand_sizes[me:] + hand_sizes[:me]
        mid += down[me:] + down[:me]
        mid += buys[me:] + buys[:me]
        mid += scores[me:] + scores[:me]
        onehots = [0] * (4 * n + 4)  # current, discarder, passed, buy_requests, phase
        onehots[rel[view["current"]]] = 1
        if view["discarder"] is not None:
            onehots[n + rel[view["discarder"]]] = 1
        for q in view["passed"]:
            onehots[2 * n + rel[q]] = 1
        for q in view["buy_requests"]:
            onehots[3 * n + rel[q]] = 1
        onehots[4 * n + _PHASES[view["phase"]]] = 1
        mid += onehots
        c = view["contract"]
        mid += (
            view["buy_window"],
            view["call_window"],
            view["fresh_discard"],
            view["retracted"],
            len(view["swaps"]),
            view["stock_size"],
            view["rebuilds"],
            view["deck_size"],
        )
        deals = [0] * self._deals
        deals[deal - 1] = 1
        mid += deals
        mid += (c["sets"], c["runs"], c["cards"], c["whole_hand"])
        a, b = self._o_mid
        out[a:b] = np.fromiter(mid, np.float32, b - a)  # faster than from the list itself
        melds = view["melds"]
        if melds:
            block = self._melds_block
            rows = self._meld_rows
            if len(melds) < len(rows) or deal != self._melds_deal:
                block[:] = 0
                rows.clear()
                self._owners.clear()
                self._melds_deal = deal
            width = self._meld_width
            for m in melds:
                ident = m["id"]
                cards = m["cards"]
                if rows.get(ident) != cards:
                    rows[ident] = cards
                    row = ident * width
                    block[row : row + width] = 0
                    block[row : row + 4] = (1, m["kind"] == "run", m["start"], len(cards))
                    for t in [types[c] for c in cards]:
                        block[row + 5 + t] += 1
            a = self._o_melds
            out[a : a + self._o_melds_len] = block
            # the owner column, seat-relative (melds are only added within a deal)
            key = (me, len(melds))
            owners = self._owners.get(key)
            if owners is None:
                owners = self._owners[key] = (
                    np.array([a + m["id"] * width + 4 for m in melds], np.intp),
                    np.array([rel[m["owner"]] + 1 for m in melds], np.float32),
                )
            out[owners[0]] = owners[1]
        if self._o_levels >= 0:  # issue 16, progression="player": each seat's level, seat-relative
            levels = view["levels"]
            a = self._o_levels
            out[a : a + n] = levels[me:] + levels[:me]
        return out

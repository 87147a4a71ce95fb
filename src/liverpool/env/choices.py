"""The index of each legal engine action of ``liverpool_v0`` and the action mask (layout in
``docs/rl.md``), apart from the PettingZoo class so that ``make fast`` can compile it with mypyc
(``setup.py``); the source and the compiled build index alike (``tests/env``, ``tests_compiled``).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ..actions import Action, Discard, DrawFromPile, LayOff, Meld, SwapJoker
from .layout import CARD_TYPE

__all__ = ["Indexer"]


class Indexer:
    """Index -> engine action of a legal listing (``choices``) and its mask (``mask``), for an
    action layout whose ranges start at the given bases (``singles``: the index of each action
    type that has one index)."""

    def __init__(
        self,
        singles: dict[type, int],
        discard: int,
        layoff: int,
        swap: int,
        pile: int,
        slots: int,
        run_slots: int,
        size: int,
        pick: int,
        commit: int,
        max_variants: int,
    ) -> None:
        self.singles = singles
        self.discard = discard
        self.layoff = layoff
        self.swap = swap
        self.pile = pile
        self.slots = slots
        self.run_slots = run_slots
        self.size = size
        self.pick = pick
        self.commit = commit
        self.max_variants = max_variants

    def choices(self, legal: list[Action], choice: dict[int, Any], melds: list[Meld]) -> None:
        """Add to ``choice`` the index of each listed action but the melds (ties: the first
        listed wins; none are known to occur), which go to ``melds`` in their order."""
        singles = self.singles
        discard = self.discard
        types = CARD_TYPE
        for a in legal:
            t = type(a)
            if t is Discard:  # the common case first
                i = discard + types[cast(Discard, a).card]
            else:
                single = singles.get(t)
                if single is not None:
                    i = single
                elif t is Meld:
                    melds.append(cast(Meld, a))
                    continue
                elif t is LayOff:
                    lay = cast(LayOff, a)
                    i = self.layoff + (types[lay.card] * self.slots + lay.meld) * 2 + int(lay.high)
                elif t is SwapJoker:
                    swap = cast(SwapJoker, a)
                    i = self.swap + swap.meld * self.run_slots + swap.index
                elif t is DrawFromPile:
                    i = self.pile + cast(DrawFromPile, a).depth
                else:
                    raise KeyError(t)
            if i not in choice:
                choice[i] = a

    def builder(self, melds: list[Meld], picked: list[int], choice: dict[int, Any]) -> None:
        """Add to ``choice`` the builder's next steps once card types are ``picked``: a pick of
        each type (in ascending order) that one of the listed ``melds`` holding the picked cards
        has more of, and a commit of each listed meld made of exactly the picked cards (in their
        order, at most ``max_variants``)."""
        want: dict[int, int] = {}
        for t in picked:
            want[t] = want.get(t, 0) + 1
        types = CARD_TYPE
        more: set[int] = set()
        exact: list[Meld] = []
        size = len(picked)
        for m in melds:
            have: dict[int, int] = {}
            for c in m.cards:
                t = types[c]
                have[t] = have.get(t, 0) + 1
            fits = True
            for t, k in want.items():
                if have.get(t, 0) < k:
                    fits = False
                    break
            if not fits:
                continue
            for t, k in have.items():
                if k > want.get(t, 0):
                    more.add(t)
            if len(m.cards) == size:
                exact.append(m)
        pick = self.pick
        for u in sorted(more):
            choice[pick + u] = ("pick", u)
        commit = self.commit
        for k, m in enumerate(exact[: self.max_variants]):
            choice[commit + k] = ("commit", m)

    def mask(self, choice: dict[int, Any]) -> np.ndarray:
        """The action mask (int8, one per index) with the indices of ``choice`` set."""
        flags = bytearray(self.size)  # set here, viewed by numpy
        for i in choice:
            flags[i] = 1
        return np.frombuffer(flags, np.int8)

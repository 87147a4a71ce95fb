"""The legal actions of the moment."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..actions import (
    Action,
    DrawFromPile,
    LayOff,
    Meld,
)
from ..cards import Card
from ..melds import (
    set_rank,
)
from ..rules import RuleSet
from ..solver import Left, RestChecker, _solve, candidate_melds, solve
from .checks import _Checks
from .common import (
    _KINDS,
    _SEATS,
    DRAW,
    LIVERPOOL_DISCARD,
    OVER,
    PLAY,
    _run_suit,
)
from .contracts import grouped_melds, staged_left


class _Witness:
    """A quick sufficient test that a candidate meld leaves the rest of a contract completable (not
    the whole hand, no card that must be used): beside the candidate, the hand still holds every meld
    of ``melds`` (a completion of the contract, sets first) but one of the candidate's kind, and
    those keep the distinct ranks (sets) or suits (runs) the rules may ask for. (Here, not in
    ``common``, so that ``make fast`` compiles it: listing asks it of every candidate meld.)"""

    __slots__ = ("options",)

    def __init__(self, hand: Sequence[Card], melds: list[list[Card]], nsets: int, rules: RuleSet) -> None:
        left: dict[Card, int] = {}  # the hand's cards (each one a key) outside the completion
        for card in hand:
            left[card] = left.get(card, 0) + 1
        for meld in melds:
            for card in meld:
                left[card] -= 1
        distinct = (rules.sets_distinct_ranks, rules.runs_distinct_suits)
        keys: list[int | str | None] = (
            [set_rank(meld, rules) if i < nsets else _run_suit(meld, rules) for i, meld in enumerate(melds)]
            if distinct[0] or distinct[1]
            else []
        )
        # per kind (0 sets, 1 runs): (cards free once that meld is left out, the other melds' keys)
        self.options: tuple[list[tuple[dict[Card, int], set[int | str | None]]], ...] = ([], [])
        for i, meld in enumerate(melds):
            kind = 0 if i < nsets else 1
            free = left.copy()
            for card in meld:
                free[card] += 1
            taken = (
                {keys[j] for j in range(len(melds)) if j != i and (j < nsets) == (kind == 0)}
                if distinct[kind]
                else set()
            )
            self.options[kind].append((free, taken))

    def __call__(self, kind: int, cards: Sequence[Card], key: int | str | None) -> bool:
        """Whether a meld of ``kind`` (0 a set, 1 a run) of ``cards`` (from the hand), of rank or suit
        ``key``, passes."""
        options = self.options[kind]
        if not options:
            return False
        need: dict[Card, int] = {}
        for card in cards:
            need[card] = need.get(card, 0) + 1
        wanted = need.items()
        for free, taken in options:
            if key in taken:
                continue
            for card, k in wanted:
                if free[card] < k:
                    break
            else:
                return True
        return False


class _Listing(_Checks):
    """The legal actions of the moment. (a layer of :class:`~liverpool.game.Game`)."""

    __slots__ = ()

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every action any player may take now (or only ``player``'s), out-of-turn buys, calls
        and passes included. Melds are listed with wild cards only filling gaps or ends (and, when
        a begun lay-down can only be finished otherwise, as the melds of one completion); apply
        also accepts any other valid arrangement.
        """
        cache = self._legal_cache
        version = len(self.actions)
        if cache is None or cache[0] != version:
            cache = (version, self._legal())
            if self.fresh and self.phase == PLAY:  # R30 buy_window "until_discard": late buys
                self._late_buys(cache[1])
            self._legal_cache = cache
        if player is None:
            return cache[1].copy()
        return [a for a in cache[1] if a.player == player]

    def _legal(self) -> list[Action]:
        out: list[Action] = []
        if self.phase == OVER:
            return out
        p = self.current
        rules = self.rules
        seats = _SEATS
        if self.phase == DRAW:
            out.append(seats[p].draw_stock)
            pile = self.discard
            top = pile[-1] if pile else None
            if top is not None and (rules.down_may_take_discard or self.may_take_discard(p)):
                out.append(seats[p].draw_discards[top])
            if rules.pile_draw:
                out.extend(
                    DrawFromPile(p, d, pile[-1 - d]) for d in range(1, len(pile)) if self._pile_problem(p, d) is None
                )
            call_open = self.call_open and top is not None
            if call_open and self._call_problem(p) is None:
                out.append(seats[p].calls[top])  # type: ignore[index]
            buy_open = self._buy_window_open()  # who may buy: _buy_problem's parts (may_buy)
            if not (buy_open or call_open):  # no window on the discard: nobody acts out of turn
                return out
            passed = self.passed
            for q in range(self.n):
                if q == p or q in passed:
                    continue
                buy = buy_open and self._buyer_problem(q) is None
                call = call_open and self._call_problem(q) is None
                if buy:
                    out.append(seats[q].buys[top])  # type: ignore[index]
                if call:
                    out.append(seats[q].calls[top])  # type: ignore[index]
                if buy or call:
                    out.append(seats[q].pass_)
            return out
        hand = self.hands[p]
        discard_of = seats[p].discards
        if self.phase == LIVERPOOL_DISCARD:
            return [discard_of[c] for c in self.discard_options(p)]
        distinct = sorted(set(hand))
        # melds toward the contract
        if not self.down[p] and not self.retracted:
            out.extend(self._legal_melds(p))
        # lay-offs
        if self._may_lay_off(p) and not (rules.refuses_last_card and self._keeps_last_card(p)):
            cards = {self.must_meld} if self.must_meld is not None else set(distinct)
            is_wild = rules.is_wild
            wilds = sorted(c for c in cards if is_wild(c.rank))
            made = seats[p].layoffs  # the seat's LayOff actions, made once (actions are values)
            for m in self._melds:
                for accepted, high in self._accepts(m):
                    if accepted is None:
                        if wilds:
                            offs = []
                            for w in wilds:
                                a = made.get((w, m.id, high))
                                if a is None:
                                    a = made[w, m.id, high] = LayOff(p, w, m.id, high)
                                offs.append(a)
                            out.extend([a for a in offs if self._swaps_stay_undoable(a)] if self.swaps else offs)
                    elif accepted in cards:
                        a = made.get((accepted, m.id, high))
                        if a is None:
                            a = made[accepted, m.id, high] = LayOff(p, accepted, m.id, high)
                        out.append(a)
        # joker swaps
        out.extend(self.swap_actions(p))
        if self.swaps and self._problem(seats[p].unswap) is None:
            out.append(seats[p].unswap)
        if self.pending:
            if rules.failed_meld_penalty and self._problem(seats[p].retract) is None:
                out.append(seats[p].retract)
            return out
        if self.must_meld is not None or self.swaps:
            return out
        distinct = self._discard_options(p, distinct)
        if distinct:
            out.extend(map(discard_of.__getitem__, distinct))
        elif self.may_end_turn(p):
            out.append(seats[p].end_turn)
        return out

    def _legal_melds(self, p: int) -> list[Action]:
        rules, contract = self.rules, self.contract
        if rules.grouped_contracts:  # issue 16 (game/contracts.py)
            left = staged_left(self, contract)
            if left is not None:  # None: this deal's contract has neither (the usual path below)
                return grouped_melds(self, p, contract, left) if isinstance(left, Left) else []
        hand = self.hands[p]
        counts = self._pending_counts()
        sets, runs, ranks, suits = counts
        left_sets, left_runs = contract.sets - sets, contract.runs - runs
        check = not rules.failed_meld_penalty or self.must_meld is not None
        must = self.must_meld
        if must is not None and self._pending_has(must):
            must = None
        exact = rules.exact_melds and not contract.whole_hand
        out: list[Action] = []
        witness: list[list[Card]] | None = None

        def completion() -> list[list[Card]] | None:
            """The best way to lay the rest of the contract from the hand, if any (the solver's
            answer to the question the greedy bot asks too, memoised)."""
            return solve(
                hand,
                left_sets,
                left_runs,
                rules,
                whole_hand=contract.whole_hand,
                must_use=must,
                used_set_ranks=ranks,
                used_run_suits=suits,
            )

        def candidates() -> Iterator[tuple[int, list[Card], int | str | None, frozenset[int], frozenset[str]]]:
            """The candidate melds of the kinds still to lay, less those the contract's distinct
            ranks and suits rule out, as (0 for a set or 1 for a run, cards, rank or suit, the
            ranks and suits of the contract's melds with it); every one is a valid meld of the
            player's cards, of the length R42 asks."""
            # Without R11's distinct ranks (R13's distinct suits) a meld's rank (suit) is asked of
            # nothing below: it is left out (None, and the contract's ranks or suits unchanged).
            if left_sets > 0:
                distinct = rules.sets_distinct_ranks
                for cards in candidate_melds(hand, "set", rules, exact=exact):
                    if not distinct:
                        yield 0, cards, None, ranks, suits
                        continue
                    rank = set_rank(cards, rules)
                    if rank not in ranks:
                        yield 0, cards, rank, ranks | {rank} if rank else ranks, suits
            if left_runs > 0:
                distinct = rules.runs_distinct_suits
                for cards in candidate_melds(hand, "run", rules, exact=exact):
                    if not distinct:
                        yield 1, cards, None, ranks, suits
                        continue
                    suit = _run_suit(cards, rules)
                    if suit not in suits:
                        yield 1, cards, suit, ranks, suits | {suit}

        # What _meld_problem checks, less what holds of every candidate: that the rest of the
        # contract can still be laid.
        if check and (must is not None or contract.whole_hand or rules.refuses_last_card):
            witness = completion()
            if witness is None:
                return []
            # the whole hand, a card that must be used, or one to keep (R38 "refuse"): the full test,
            # spared by the witness
            for is_run, cards, _, with_ranks, with_suits in candidates():
                kind = _KINDS[is_run]
                left_must = None if must is not None and must in cards else must
                after = (sets + 1 - is_run, runs + is_run, with_ranks, with_suits)
                if self._completes(hand, kind, cards, left_must, witness, after):
                    out.append(Meld(p, kind, tuple(cards) if is_run else tuple(sorted(cards))))
        else:
            # a quick existence test (no card that must be used, not the whole hand)
            checker = RestChecker(hand, rules) if check else None
            if checker is not None and not checker((), left_sets, left_runs, ranks, suits):
                return []
            # The best completion (wanted below) first: a witness that spares most existence tests.
            if check:
                witness = _solve(hand, left_sets, left_runs, rules, False, None, ranks, suits)
            fits = _Witness(hand, witness, left_sets, rules) if witness else None
            for is_run, cards, key, with_ranks, with_suits in candidates():
                if (
                    checker is None
                    or (fits is not None and fits(is_run, cards, key))
                    or checker(cards, left_sets - 1 + is_run, left_runs - is_run, with_ranks, with_suits)
                ):
                    out.append(Meld(p, _KINDS[is_run], tuple(cards) if is_run else tuple(sorted(cards))))
        if check:
            # The listing puts wild cards only in gaps, but the contract may be completable only with
            # a wild card standing where the hand holds the natural: list the melds of the best
            # completion too, so that a lay-down the hand can make is always among the actions.
            best = witness
            listed = {(a.kind, a.cards) for a in out if isinstance(a, Meld)}
            for i, cards in enumerate(best or []):
                kind = "set" if i < left_sets else "run"  # sets come first
                listed_cards = tuple(sorted(cards)) if kind == "set" else tuple(cards)
                if (kind, listed_cards) in listed:
                    continue
                # the completion itself shows that the rest of the contract can follow
                if self._meld_problem(p, kind, cards, check, best, counts) is None:
                    out.append(Meld(p, kind, listed_cards))
        if rules.run_min_naturals == 0 and left_runs > 0:  # issue 16: runs of wild cards, each declaration
            out.extend(self._wild_runs(p, check, counts))
        # a set's cards are listed in card order (one action per set: see _canonical_sets)
        return out

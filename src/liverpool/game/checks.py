"""Verification: why an action is not legal now (one validation path), and ``apply``."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..actions import (
    Action,
    Buy,
    Call,
    Discard,
    DrawDiscard,
    DrawFromPile,
    DrawStock,
    EndTurn,
    LayOff,
    Meld,
    Pass,
    Retract,
    SwapJoker,
    Unswap,
    check_action,
)
from ..cards import DEAD_RANK, SUITS, Card, format_cards
from ..errors import IllegalAction, MalformedAction, StaleAction
from ..events import FrozenDict, FrozenList
from ..melds import (
    can_extend_run,
    can_extend_set,
    is_valid_run,
    is_valid_set,
    run_starts,
    set_rank,
    value_rank,
)
from ..solver import Left, can_complete, group_rules, left_after
from .common import (
    DOWN_DRAWS_STOCK,
    DRAW,
    LIVERPOOL_DISCARD,
    OVER,
    _declared,
    _has_cards,
    _is_run,
    _remove_cards,
    _run_suit,
    _shared,
)
from .contracts import staged_left
from .moves import _Moves


class _Checks(_Moves):
    """Verification (a layer of :class:`~liverpool.game.Game`)."""

    __slots__ = ()

    def _meld_problem(
        self,
        p: int,
        kind: str,
        cards: Sequence[Card],
        check_completion: bool,
        witness: list[list[Card]] | None = None,
        counts: tuple[int, int, frozenset[int], frozenset[str]] | None = None,
        declared: Card | None = None,
    ) -> str | None:
        rules, contract = self.rules, self.contract
        if self.down[p]:
            return "you are already down this deal (R14): lay off instead"
        if self.retracted:
            return "you took back a lay-down this turn (R16); try again next turn"
        if kind not in ("set", "run"):
            return f"a meld is a 'set' or a 'run', not {kind!r} (R11, R12)"
        if declared is not None and kind != "run":
            return "only a run of wild cards declares a natural card it stands for (R17, run_min_naturals 0)"
        sets, runs, ranks, suits = counts if counts is not None else self._pending_counts()
        # issue 16: lengths per meld (R48) or a same-suit gap (R13); None for every other contract
        left = staged_left(self, contract) if rules.grouped_contracts else None
        if left is not None:  # the meld's validity but for its length, which its group judges below
            rules = group_rules(rules, kind, max(2, rules.set_min_naturals) if kind == "set" else 2)
        if kind == "set":
            if sets >= contract.sets:
                return f"this deal's contract ({contract.describe()}) has no more sets to lay (R10)"
            if not is_valid_set(cards, rules):
                return f"{format_cards(cards)} is not a valid set (R11, R18)"
            rank = set_rank(cards, rules)
            if rank == DEAD_RANK:
                return "a dead deuce fits no meld (R46, option dead_discarded_wild)"
            if rules.sets_distinct_ranks and rank in ranks:
                return "the sets of one contract must differ in rank (R11, option sets_distinct_ranks)"
        else:
            if runs >= contract.runs:
                return f"this deal's contract ({contract.describe()}) has no more runs to lay (R10)"
            wild_run = all(rules.is_wild(c.rank) for c in cards)
            if declared is not None and (rules.run_min_naturals or not wild_run or rules.is_wild(declared.rank)):
                return "only a run of wild cards declares a natural card it stands for (R17, run_min_naturals 0)"
            if wild_run and declared is None and rules.run_min_naturals == 0:
                return "a run of wild cards must declare the card its first place stands for (R17)"
            if not is_valid_run(cards, rules, declared):
                return f"{format_cards(cards)} is not a valid run in table order (R3, R12, R19)"
            suit = declared.suit if declared is not None else next(c.suit for c in cards if not rules.is_wild(c.rank))
            if rules.runs_distinct_suits and suit in suits:
                return "the runs of one contract must differ in suit (R13)"
        if left is not None:
            left = left_after(left, kind, cards, self.rules) if isinstance(left, Left) else left
            if isinstance(left, str):
                return left
            rules = self.rules
        elif rules.exact_melds and not contract.whole_hand:
            need = rules.set_min if kind == "set" else rules.run_min
            if len(cards) != need:
                return f"melds laid at going down must have exactly {need} cards (R42)"
        hand = self.hands[p]
        if not _has_cards(hand, cards):
            return f"you do not hold {format_cards(cards)}"
        if check_completion and (not rules.failed_meld_penalty or self.must_meld is not None):
            must = self.must_meld
            if must is not None and (must in cards or self._pending_has(must)):
                must = None
            if kind == "set":
                sets += 1
                ranks = ranks | {rank} if rank else ranks
            else:
                runs += 1
                suits = suits | {suit}
            if left is not None:
                rest = hand.copy()
                _remove_cards(rest, cards)
                done = can_complete(
                    rest,
                    0,
                    0,
                    rules,
                    whole_hand=contract.whole_hand,
                    must_use=must,
                    used_set_ranks=ranks,
                    used_run_suits=suits,
                    left=left,
                )
            else:
                done = self._completes(hand, kind, cards, must, witness, (sets, runs, ranks, suits))
            if not done:
                what = "every card of your hand" if contract.whole_hand else "the rest of the contract"
                extra = f" with {must} in it" if must is not None else ""
                return f"after this meld you could not lay {what}{extra} this turn (R14)"
        return None

    def _wild_runs(self, p: int, check: bool, counts: tuple[int, int, frozenset[int], frozenset[str]]) -> list[Meld]:
        """R17 with ``run_min_naturals`` 0: the runs of wild cards only that player ``p`` may lay,
        each with every declaration (suit and first place) :meth:`_meld_problem` allows; runs of
        the least length (any length up to the wild cards held in a whole-hand deal)."""
        rules = self.rules
        hand = self.hands[p]
        wilds = sorted((c for c in hand if rules.is_wild(c.rank)), key=lambda c: (-rules.points(c.rank), c.code))
        low = rules.run_min
        high = len(wilds) if self.contract.whole_hand and not rules.exact_melds else low
        out: list[Meld] = []
        seen: set[tuple[Card, ...]] = set()
        for n in range(low, min(high, len(wilds)) + 1):
            for chosen in itertools.combinations(wilds, n):
                if chosen in seen:
                    continue
                seen.add(chosen)
                for suit in SUITS:
                    for start in run_starts(n, rules):
                        rank = value_rank(start)
                        if rules.is_wild(rank):
                            continue  # the first place of a deuce: nothing natural to declare
                        declared = Card(rank, suit)
                        if self._meld_problem(p, "run", chosen, check, None, counts, declared) is None:
                            out.append(Meld(p, "run", chosen, declared))
        return out

    def _completes(
        self,
        hand: list[Card],
        kind: str,
        cards: Sequence[Card],
        must: Card | None,
        witness: list[list[Card]] | None,
        counts: tuple[int, int, frozenset[int], frozenset[str]],
    ) -> bool:
        """Whether the rest of the contract can still be laid this turn from ``hand`` less
        ``cards`` (a valid meld of ``kind`` of the hand), with ``must`` in it; ``counts``: the
        staged melds as :meth:`_pending_counts` gives them, ``cards`` included. ``witness``, a
        completion of the contract from the hand, spares the solver when it vouches for the meld."""
        rules, contract = self.rules, self.contract
        sets, runs, ranks, suits = counts
        rest = hand.copy()
        _remove_cards(rest, cards)
        if (
            witness is not None
            and not rules.refuses_last_card  # R38: the witness may meld the last card
            and self._witness_allows(witness, kind, rest, must, ranks, suits)
        ):
            return True
        return can_complete(
            rest,
            contract.sets - sets,
            contract.runs - runs,
            rules,
            whole_hand=contract.whole_hand,
            must_use=must,
            used_set_ranks=ranks,
            used_run_suits=suits,
        )

    def _witness_allows(
        self,
        witness: list[list[Card]],
        kind: str,
        rest: list[Card],
        must: Card | None,
        ranks: frozenset[int],
        suits: frozenset[str],
    ) -> bool:
        """A quick sufficient test that a new meld of ``kind`` leaves the contract completable:
        some completion ``witness`` of the hand, less one of its melds of that kind, still fits in
        ``rest`` (is exactly ``rest`` in a whole-hand deal, R15) and its other melds keep the
        distinct-rank/suit options."""
        rules = self.rules
        whole = self.contract.whole_hand
        size = sum(map(len, witness))
        have: Counter[Card] | None = None
        for i, meld in enumerate(witness):
            if whole and len(rest) != size - len(meld):
                continue  # the other melds cannot be exactly the rest
            if (kind == "set") != (set_rank(meld, rules) is not None and not _is_run(meld, rules)):
                continue
            if have is None:
                have = Counter(rest)
            others = witness[:i] + witness[i + 1 :]
            need = Counter(c for m in others for c in m)
            if any(have[c] < k for c, k in need.items()) or (whole and have != need):
                continue
            if must is not None and must not in need:
                continue
            if rules.sets_distinct_ranks and any(not _is_run(m, rules) and set_rank(m, rules) in ranks for m in others):
                continue
            if rules.runs_distinct_suits and any(_is_run(m, rules) and _run_suit(m, rules) in suits for m in others):
                continue
            return True
        return False

    def _discard_problem(self, p: int, card: Card) -> str | None:
        """Why ``p`` may not discard ``card`` now, or None. Which discards are allowed is decided by
        :meth:`discard_options` alone (R14, R20, R22, R26, R35, R36); this only says why not."""
        if card not in self.hands[p]:
            return f"you do not hold {card}"
        if card in self.discard_options(p):
            return None
        if self.pending:
            return "finish laying down your contract first, or take it back (R14)"
        if self.must_meld is not None:
            return f"you must meld {self.must_meld}, the deepest card you took from the pile (R22)"
        if self.swaps:
            return "you must play the joker you took in a swap this turn (R20)"
        if self.taken is not None and card == self.taken:
            return f"you may not discard {card}, just taken from the discard pile (R26)"
        return f"{card} fits a meld on the table; lay it off instead (R32, R36)"

    def verify(self, action: Action, version: int | None = None) -> None:
        """Raise :class:`IllegalAction` (a ValueError) with the reason, its ``code`` and ``rule``,
        when ``action`` is not legal now: :class:`MalformedAction` (naming the bad ``field``) when
        it is not a well-formed action at all, :class:`StaleAction` when ``version`` (the
        :attr:`version` the client saw) is given and is not the game's."""
        bad = check_action(action)
        if bad is not None:
            raise MalformedAction(bad[1], bad[0])
        p = action.player
        if not 0 <= p < self.n:
            raise MalformedAction(f"{type(action).name}: player must be a seat, 0 to {self.n - 1}, got {p!r}", "player")
        if version is not None and version != len(self.actions):
            raise StaleAction(f"{action} was made at version {version}; the game is at version {len(self.actions)}")
        problem = self._problem(action)
        if problem is not None:
            if problem.endswith("(stale)"):
                raise StaleAction(problem)
            raise IllegalAction(problem)

    def can_apply(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        return self._problem(action) is None

    def _problem(self, a: Action) -> str | None:
        bad = check_action(a)
        if bad is not None:
            return bad[1]
        p = a.player
        if not 0 <= p < self.n:
            return f"{type(a).name}: player must be a seat, 0 to {self.n - 1}, got {p!r}"
        if self.phase == OVER:
            return "the game is over"
        rules = self.rules
        if self.phase == DRAW:
            named = getattr(a, "card", None) if isinstance(a, DrawDiscard | Buy | Call | DrawFromPile) else None
            if named is not None:
                stale = self._stale(a, named)
                if stale is not None:
                    return stale
            if isinstance(a, Buy | Pass | Call):
                return self._out_of_turn_problem(a)
            if p != self.current:
                return f"it is seat {self.current}'s turn to draw"
            if isinstance(a, DrawStock):
                return None
            if isinstance(a, DrawDiscard):
                if not self.discard:
                    return "the discard pile is empty (R22)"
                return None if self.may_take_discard(p) else DOWN_DRAWS_STOCK
            if isinstance(a, DrawFromPile):
                return self._pile_problem(p, a.depth)
            return "draw first: from the stock or the discard pile (R22)"
        if self.phase == LIVERPOOL_DISCARD:
            if p != self.current:
                return f"seat {self.current} is discarding after calling"
            if not isinstance(a, Discard):
                return "after calling you discard one card (R34)"
            return self._discard_problem(p, a.card)
        # PLAY
        if isinstance(a, Buy | Pass | Call):
            if self.fresh and not isinstance(a, Call):  # R30 buy_window "until_discard"
                return self._late_buy_problem(a)
            return "the buy and call windows are closed once a turn begins (R30)"
        if p != self.current:
            return f"it is seat {self.current}'s turn"
        hand = self.hands[p]
        if isinstance(a, Discard):
            return self._discard_problem(p, a.card)
        if isinstance(a, Meld):
            return self._meld_problem(p, a.kind, a.cards, True, declared=a.declared)
        if isinstance(a, LayOff):
            if not self.down[p]:
                return "lay down your contract before laying off (R24)"
            if not self._may_lay_off(p):
                return "you may not lay off in the turn you go down (R43)"
            if self._keeps_last_card(p):
                return "you may not lay off your last card: a discard must remain to go out (R38, floating=refuse)"
            if a.card not in hand:
                return f"you do not hold {a.card}"
            if self.must_meld is not None and a.card != self.must_meld:
                return f"first meld {self.must_meld}, the deepest card you took from the pile (R22)"
            if not 0 <= a.meld < len(self._melds):
                return f"there is no meld {a.meld}"
            m = self._melds[a.meld]
            declared = _declared(m.cards)  # a run of wild cards names its suit (issue 16)
            ok = (
                can_extend_set(m.cards, a.card, rules)
                if m.kind == "set"
                else can_extend_run(m.cards, m.start, a.card, a.high, rules, declared.suit if declared else "")
            )
            if not ok:
                return f"{a.card} does not fit meld {a.meld} ({format_cards(m.cards)}) (R24)"
            if self.swaps and not self._swaps_stay_undoable(a):
                return (
                    f"laying {a.card} there would leave no place for a wild card you swapped this turn to go back to"
                    " (R19, R20): play it or take it back first"
                )
            return None
        if isinstance(a, SwapJoker):
            if not self._swap_allowed(p):
                return "you may not swap a joker now (R20, option joker_swap)"
            if self.must_meld is not None:
                return f"first meld {self.must_meld}, the deepest card you took from the pile (R22)"
            if not 0 <= a.meld < len(self._melds):
                return f"there is no meld {a.meld}"
            m = self._melds[a.meld]
            if m.kind != "run":
                return "a joker in a set is dead (R21)"
            if not 0 <= a.index < len(m.cards) or not rules.is_wild(m.cards[a.index].rank):
                return f"there is no joker at place {a.index} of meld {a.meld}"
            if not rules.swappable_wild(m.cards[a.index].rank):
                return f"a {m.cards[a.index]} laid in a run is never swapped out (R20, option wild_rank_swappable)"
            value = m.start + a.index
            natural = self._stands_for(m, a.index)
            if rules.is_wild(natural.rank):
                return f"that joker stands for {natural}, itself a wild card: there is no natural card to swap (R20)"
            if a.card != natural:
                return f"that joker stands for {natural}, not {a.card} (R17, R20)"
            if natural not in hand:
                return f"you do not hold {natural}"
            if not self._may_swap_from(p, m):
                return "you may only swap a joker out of another player's run (R20)"
            if (a.meld, value) in self.unswapped:
                return "you already took back a swap of that joker this turn (R20)"
            return None
        if isinstance(a, Unswap):
            if not self.swaps:
                return "you have no joker swap to undo (R20)"
            if self.pending:
                return "take back a swap before you begin to lay down, or finish laying down first (R20)"
            wild = self.swaps[-1][3]
            if wild not in hand:
                return "the joker of your last swap is no longer in your hand (R20)"
            if not self._restorable(self.swaps[-1]):
                return "the joker cannot go back: its run would hold two wild cards within four cards (R19)"
            return None
        if isinstance(a, EndTurn):
            if self.pending or self.must_meld is not None or self.swaps:
                begun = "R14" if self.pending else "R22" if self.must_meld is not None else "R20"
                return f"finish what you began this turn first ({begun})"
            if self.discard_options(p):
                return "discard a card to end your turn (R25)"
            if not self.may_end_turn(p):
                return "lay off the cards that fit the table first: a turn ends by a discard (R25, R36)"
            return None
        if isinstance(a, Retract):
            if not rules.failed_meld_penalty:
                return "nothing to take back: a lay-down is only begun when it can be completed (R16)"
            if not self.pending:
                return "you have not begun to lay down (R16)"
            if self.must_meld is not None:
                return f"you must lay down with {self.must_meld}, taken from inside the pile, this turn (R22)"
            return None
        if isinstance(a, DrawStock | DrawDiscard | DrawFromPile):
            return "you have already drawn this turn (R22)"
        if isinstance(a, Buy | Pass | Call):
            return "the buy and call windows are closed once a turn begins (R30)"
        return f"unknown action {a!r}"

    def _stale(self, a: Action, named: Card) -> str | None:
        """An action that names the card it takes (R22, R27, R33) when that card is not the one
        it would take now: made for another state of the game."""
        pile = self.discard
        if isinstance(a, DrawFromPile):
            depth = a.depth
            if 1 <= depth < len(pile) and pile[-1 - depth] is not named:
                return f"{a} names {named}, but the card {depth} places below the top is {pile[-1 - depth]} (stale)"
            return None
        if not pile:
            return f"{a} names {named}, but the discard pile is empty (stale)"
        if pile[-1] is not named:
            return f"{a} names {named}, but the top discard is {pile[-1]} (stale)"
        return None

    def _late_buy_problem(self, a: Action) -> str | None:
        """R30 ``buy_window="until_discard"``: a Buy or Pass after the current player's stock draw,
        while the discard they declined is still the top card."""
        if a.player == self.current:
            return "the buy window is for the other players (R27)" if isinstance(a, Buy) else "your turn to play (R27)"
        named = getattr(a, "card", None)
        if named is not None:
            stale = self._stale(a, named)
            if stale is not None:
                return stale
        return self._out_of_turn_problem(a)

    def _out_of_turn_problem(self, a: Action) -> str | None:
        p = a.player
        if p in self.passed:
            return "you have passed on this discard (R27)"
        if isinstance(a, Pass):
            if p == self.current:
                return "draw instead: passing is for players out of turn (R22, R27)"
            if self._buy_problem(p) is not None and self._call_problem(p) is not None:
                return "there is nothing to pass on (R27)"
            return None
        if isinstance(a, Buy):
            return self._buy_problem(p)
        return self._call_problem(p)

    def apply(self, action: Action, version: int | None = None) -> list[dict[str, Any]]:
        """Apply ``action`` or raise IllegalAction, leaving the game unchanged. An action object
        from the current :meth:`legal_actions` listing, or a discard equal to a listed one, is not
        verified again; any other action is, by :meth:`verify` (every field type-checked first).
        ``version``: the :attr:`version` the client acted on; another raises :class:`StaleAction`.
        Returns the events the action produced (public records, as :attr:`events` holds them)."""
        events = self.events  # the same list for the game's life
        start = len(events)
        cache = self._legal_cache
        if version is None and cache is not None and cache[0] == len(self.actions):
            # an action of the current listing is legal: only others are verified
            shared = _shared(action) if type(action) is Discard else action
            for listed in cache[1]:
                if listed is shared:
                    break
            else:
                self.verify(action)
                action = self._listed_spelling(action)
        else:
            self.verify(action, version)
            action = self._listed_spelling(action)
        self._do(action)
        return events[start:]

    def _listed_spelling(self, action: Action) -> Action:
        """A verified action as the listing spells it. A set has no ends, so ``high`` means nothing
        in a lay-off on a set (R24): the listing offers ``LayOff(p, card, set_id)`` (``high=True``)
        only, and a verified ``high=False`` on a set is that same move, applied and recorded as
        listed (one spelling in records, events and replays)."""
        if type(action) is LayOff and not action.high and self._melds[action.meld].kind == "set":
            return LayOff(action.player, action.card, action.meld, True)
        return action

    def events_for(self, player: int, since: int = 0) -> list[dict[str, Any]]:
        """The events from index ``since`` of :attr:`events` on, as seat ``player`` may see them:
        every public record, and for that seat's own draws from the stock the card drawn
        (``card``), for its buys and calls' penalties the cards paid (``penalty_cards``). Another
        seat's draw from the stock stays "drew a card". Read-only records; keep
        ``len(game.events)`` as the next ``since``."""
        if not 0 <= player < self.n:
            raise ValueError(f"no seat {player} at this table of {self.n}")
        out = self.events[since:]
        for index, seat, seen in self._private:
            if seat == player and index >= since:
                event = out[index - since]
                extra = {"card": str(seen)} if isinstance(seen, Card) else {"penalty_cards": FrozenList(map(str, seen))}
                out[index - since] = FrozenDict({**event, **extra})
        return out

"""The rule queries: one home per rule, asked by listing, verification, application and the bots'
playouts (lay-off targets, the card a wild card stands for, playable discards, which discards are
allowed, who may buy or call, joker swaps)."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import (
    Action,
    SwapJoker,
)
from ..cards import DEAD_RANK, SUITS, Card
from ..melds import (
    is_valid_run,
    meld_accepts,
    set_rank,
    value_rank,
)
from ..rules import RuleSet
from ..solver import can_complete, contract_left
from .common import (
    _SEATS,
    DOWN_DRAWS_STOCK,
    DRAW,
    LIVERPOOL_DISCARD,
    OVER,
    PLAY,
    _declared,
    _Meld,
    _run_suit,
)
from .contracts import staged_progress
from .core import _Core


class _Queries(_Core):
    """The rule queries (a layer of :class:`~liverpool.game.Game`)."""

    __slots__ = ()

    def _accepts(self, m: _Meld) -> list[tuple[Card | None, bool]]:
        """The cards meld ``m`` accepts as lay-offs (R24), as (card, at high end) pairs; None stands
        for any wild card. Agrees with ``can_extend_set`` / ``can_extend_run``."""
        if m.accepts is not None:
            return m.accepts
        m.accepts = self._compute_accepts(m)
        return m.accepts

    def _wild_spots(self, m: _Meld) -> list[tuple[int, int, Card]]:
        """The wild cards of run ``m`` that may be swapped, as (place, value, the natural it stands
        for) (R20): not one standing for a card of the wild rank, itself wild (a deuce with
        ``wild_rank`` 2), for which there is no natural card to swap."""
        if m.spots is not None:
            return m.spots
        rules = self.rules
        spots: list[tuple[int, int, Card]] = []
        if m.kind == "run" and (not rules.meld_variant or _run_suit(m.cards, rules)):  # an undeclared wild run: none
            for i, c in enumerate(m.cards):
                if rules.swappable_wild(c.rank):
                    natural = self._stands_for(m, i)
                    if not rules.is_wild(natural.rank):
                        spots.append((i, m.start + i, natural))
        m.spots = spots
        return spots

    def _stands_for(self, m: _Meld, index: int) -> Card:
        """R17: the natural card the wild card at ``index`` of run ``m`` stands for (by its place:
        the run's suit, the rank of its value; 14 is the ace high). The one home of this rule: the
        swaps listed, verified and offered to the bots (:meth:`swap_actions`) all ask it."""
        rules = self.rules
        rank = value_rank(m.start + index)
        if rank == rules.wild_rank and rules.dead_discarded_wild:  # R46: a dead deuce is the natural 2
            rank = DEAD_RANK
        return Card(rank, _run_suit(m.cards, rules))

    def _compute_accepts(self, m: _Meld) -> list[tuple[Card | None, bool]]:
        return layoff_targets(m.kind, m.cards, m.start, self.rules)

    def is_playable_discard(self, player: int, card: Card) -> bool:
        """R32: is ``card``, discarded by ``player``, a playable discard (callable, R33/R34, or
        refused, R36)? Only when the player is down and could have laid it off this turn (R43:
        not in the turn of going down with ``layoff_same_turn`` off)."""
        return self.down[player] and self._may_lay_off(player) and self._fits_table(card)

    def discard_options(self, player: int) -> list[Card]:
        """The cards ``player`` (the player to act) may discard now, each once, in card order:
        nothing while a lay-down is staged, a pile card must be melded or a swapped joker played
        (R14, R20, R22); never the card just taken from the pile (R26); in ``strict`` mode no
        playable discard but the last card (R35, R36). The one home of these rules: the listing,
        verification and the bots' playouts all ask it."""
        hand = self.hands[player]
        if self.phase == LIVERPOOL_DISCARD:
            taken = self.taken
            return [c for c in sorted(set(hand)) if c is not taken]
        if self.phase != PLAY or self.pending or self.must_meld is not None or self.swaps:
            return []
        return self._discard_options(player, sorted(set(hand)))

    def _discard_options(self, player: int, distinct: list[Card]) -> list[Card]:
        """:meth:`discard_options` in the play phase with nothing begun, from the hand's distinct
        cards in card order (the listing has them already)."""
        hand = self.hands[player]
        taken = self.taken
        if taken is not None and taken in distinct:  # (cards are interned: equal is identical)
            distinct = distinct.copy()
            distinct.remove(taken)
        if self.rules.playable_discard == "strict" and len(hand) > 1 and self.down[player]:
            distinct = [c for c in distinct if not self.is_playable_discard(player, c)]
        return distinct

    def may_end_turn(self, player: int) -> bool:
        """Whether ``player`` (to play, nothing begun) may end the turn without a discard: only
        when no discard is legal (R25, R26, R38), and in ``strict`` mode not while a card they may
        not discard could be laid off instead (R36: they lay it off, down to the last card)."""
        if self.pending or self.must_meld is not None or self.swaps:
            return False
        if self.discard_options(player):
            return False
        hand = self.hands[player]
        if self.rules.playable_discard == "strict" and len(hand) > 1:
            taken = self.taken
            return not any(c is not taken and self.is_playable_discard(player, c) for c in hand)
        return True

    def _keeps_last_card(self, player: int) -> bool:
        """R38 ``floating="refuse"``: is ``player`` down to the last card, which they may not lay
        off (a discard must remain to go out)? The lay-offs' home of the rule (checks, listing);
        lay-downs keep a card through the solver (``solver.contract._keeping_a_card``)."""
        return self.rules.refuses_last_card and len(self.hands[player]) <= 1

    def may_take_discard(self, player: int) -> bool:
        """R22, ``down_may_take_discard``: may ``player`` draw from the discard pile at all (the top
        card or, with ``pile_draw``, from inside it)? Off, a player who is down draws from the
        stock only. The one home of this rule: listing, checking and the bots call it."""
        return self.rules.down_may_take_discard or not self.down[player]

    def may_call(self, player: int) -> bool:
        """R33/R34: may ``player`` call the top discard now (the one home of who may call)?"""
        return self.phase == DRAW and player not in self.passed and self._call_problem(player) is None

    def may_buy(self, player: int) -> bool:
        """R27-R31, R44: may ``player`` ask to buy the top discard now (who has not passed on it)?
        The one home of who may buy: the listing, verification and the bots' playouts ask it."""
        return self.phase != OVER and player not in self.passed and self._buy_problem(player) is None

    def may_lay_off(self, player: int) -> bool:
        """R24, R43: is ``player`` down and allowed to lay off this turn?"""
        return self._may_lay_off(player)

    def _fits_table(self, card: Card) -> bool:
        """R32: could ``card`` be laid off on any meld on the table?"""
        wild = self.rules.is_wild(card.rank)
        for m in self._melds:
            for accepted, _ in self._accepts(m):
                if accepted is card or (accepted is None and wild):
                    return True
        return False

    def _may_lay_off(self, p: int) -> bool:
        return self.down[p] and (self.rules.layoff_same_turn or self.down_turn[p] != self.turn)

    def layoff_spot(self, card: Card) -> tuple[int, bool] | None:
        """The first table meld that accepts ``card`` as a lay-off (R24), as (meld id, at its high
        end), or None; by the rules :meth:`legal_actions` lists lay-offs with, without checking
        whose turn it is or whether its owner may lay off now. A fast path for search (playouts)."""
        wild = self.rules.is_wild(card.rank)
        for m in self._melds:
            for accepted, high in self._accepts(m):
                if (wild and accepted is None) or accepted == card:
                    return m.id, high
        return None

    def swap_actions(self, player: int) -> list[SwapJoker]:
        """The joker swaps (R20) ``player`` may make now: the ones :meth:`legal_actions` lists when
        it is that player's turn to play. A fast path for search (playouts)."""
        out: list[SwapJoker] = []
        if self.must_meld is None and self._swap_allowed(player):
            held = set(self.hands[player])
            unswapped = self.unswapped
            for m in self._melds:
                if not self._may_swap_from(player, m):
                    continue
                for i, value, natural in self._wild_spots(m):
                    if natural in held and (m.id, value) not in unswapped:
                        out.append(SwapJoker(player, m.id, i, natural))
        return out

    def _may_swap_from(self, player: int, m: _Meld) -> bool:
        """R20: a joker is swapped out of another player's run only, never one the player owns (a
        record of the first format replays as that engine played it). The one home of the rule:
        the listing (:meth:`swap_actions`) and the checks ask it. With ``swap_own_run`` (Moonridge)
        the player's own runs too."""
        return m.owner != player or self._legacy or self.rules.swap_own_run

    def swap_yield(self, action: SwapJoker) -> Card:
        """R20: the wild card swap ``action`` puts in the player's hand, the one at its place in the
        table meld (a joker, or a card of the wild rank with ``wild_rank_swappable``): what
        applying it gives. A fast path for search (playouts); ``action`` is one of
        :meth:`swap_actions`."""
        return self._melds[action.meld].cards[action.index]

    def table_rows(self) -> list[tuple[int, str, list[Card], int]]:
        """The melds on the table as (id, kind, cards in table order, start: a run's first value,
        1-14), the cards shared with the game (read them, never change them): the table as the
        rule functions (:func:`layoff_targets`) read it. A fast path for search (playouts); clients
        read :attr:`melds` or a view."""
        return [(m.id, m.kind, m.cards, m.start) for m in self._melds]

    def _swap_allowed(self, p: int) -> bool:
        mode = self.rules.joker_swap
        if mode == "off":
            return False
        if mode == "going_down_turn":
            if not self.down[p]:  # before the lay-down begins, so that it can use the joker
                return not self.retracted and not self.pending
            return self.down_turn[p] == self.turn and self.rules.layoff_same_turn
        if not self.down[p]:
            return False
        if mode == "later_turns":
            return self.down_turn[p] != self.turn
        return self._may_lay_off(p)  # once_down

    def _pending_counts(self) -> tuple[int, int, frozenset[int], frozenset[str]]:
        """The current player's contract progress (:func:`~liverpool.game.contracts.staged_progress`)."""
        if not self.pending:  # nothing staged (the commonest): no melds, no ranks, no suits
            return _NOTHING_STAGED
        return staged_progress(self.pending, self.rules)

    def _pending_has(self, card: Card) -> bool:
        return any(card in cards for _, cards in self.pending)

    def _restorable(self, swap: tuple[int, int, Card, Card]) -> bool:
        """May the wild card of ``swap`` (meld, place, natural, wild) go back to its place? Not when
        the run would then break R19 (with ``run_joker_check`` "always")."""
        if self.rules.run_joker_check != "always":
            return True
        meld_id, value, _, wild = swap
        m = self._melds[meld_id]
        cards = list(m.cards)
        cards[value - m.start] = wild
        return is_valid_run(cards, self.rules)

    def _buy_problem(self, p: int) -> str | None:
        """Why ``p`` may not buy the top discard now (R27-R31, R44), or None: the window's part
        (:meth:`_buy_window_open`) and the seat's (:meth:`_buyer_problem`), the seat's named first
        when the stock is what is missing."""
        if not self._buy_window_open():
            if not self.rules.buying:
                return "buying is off (R27)"
            if not self.fresh:
                return "there is no fresh discard to buy (R27, R30)"
            return self._buyer_problem(p) or "the stock is too small to pay for a buy (R28)"
        return self._buyer_problem(p)

    def _buy_window_open(self) -> bool:
        """R27, R28, R30: buying is on, the discard is fresh and the stock can pay the penalty."""
        rules = self.rules
        return rules.buying and self.fresh and self._available_stock(2) >= rules.buy_penalty + 1

    def _buyer_problem(self, p: int) -> str | None:
        """The seat's part of :meth:`_buy_problem` (R29, R31, R44), asked by the listing seat by
        seat once :meth:`_buy_window_open` holds."""
        if p == self.current:
            return "it is your turn: take the discard instead of buying it (R27)"
        if p == self.discarder:
            return "you may not buy your own discard (R27)"
        if p in self.buy_requests:
            return "you have already asked to buy this card (R27)"
        rules = self.rules
        if rules.buy_limit is not None and self.buys_used[p] >= rules.buy_limit:
            return f"you have used your {rules.buy_limit} buys this deal (R31)"
        if self.down[p] and not rules.down_may_buy:
            return "players who are down may not buy (R44)"
        return None

    def _late_buys(self, out: list[Action]) -> None:
        """R30 ``buy_window="until_discard"``: append to the play phase's listing ``out`` the buys
        (and passes) of the other players, by seat, while the discard the current player declined
        by drawing from the stock is still on top (``fresh``)."""
        seats = _SEATS
        top = self.discard[-1]
        passed = self.passed
        for q in range(self.n):
            if q != self.current and q not in passed and self._buy_problem(q) is None:
                out.append(seats[q].buys[top])
                out.append(seats[q].pass_)

    def _call_problem(self, p: int) -> str | None:
        if not self.call_open:
            return "there is no playable discard to call (R33)"
        if p == self.discarder:
            return "you may not call your own discard (R33)"
        if self.rules.playable_discard == "liverpool":
            if not self.down[p]:
                return "only players who are down may call Liverpool (R34)"
            if self.rules.discard_lock and all(c == self.discard[-1] for c in self.hands[p]):
                # R26 locks the called card and its equals: the caller would have nothing to discard
                return "you hold no other card to discard after calling (R26, R34)"
        return None

    def _pile_problem(self, p: int, depth: int) -> str | None:
        if not self.rules.pile_draw:
            return "drawing from inside the discard pile is off (R22, option pile_draw)"
        if not isinstance(depth, int) or not 1 <= depth < len(self.discard):
            return f"the discard pile has no card {depth!r} places below the top (R22)"
        deepest = self.discard[-1 - depth]
        if self.down[p]:
            if not self.may_take_discard(p):
                return DOWN_DRAWS_STOCK
            if not self._fits_table(deepest):
                return f"{deepest} fits no meld on the table, so it cannot be melded at once (R22)"
            return None
        hand = self.hands[p] + self.discard[-1 - depth :]
        c = self.contract
        left = contract_left(c, self.rules)  # issue 16: lengths per meld, same-suit gap (None: neither)
        if not can_complete(hand, c.sets, c.runs, self.rules, whole_hand=c.whole_hand, must_use=deepest, left=left):
            return f"you could not lay down your contract with {deepest} this turn (R22)"
        return None


def empty_hand_floats(rules: RuleSet, whole_hand: bool) -> bool:
    """R15, R37, R38: does a player whose hand empties by melding (laying down or laying off their
    last card) float, to draw and discard next turn, rather than go out? Yes with ``floating`` on
    ("refuse" too, though there the last card may not be melded), never in a whole-hand deal
    (``whole_hand``: the contract takes every card, R15). The one home of this rule: applying
    (``Game._after_hand_change``) and the bots' choice to keep a last card to discard ask it.

    >>> empty_hand_floats(RuleSet(), False), empty_hand_floats(RuleSet(floating=False), False)
    (True, False)
    """
    return bool(rules.floating) and not whole_hand


_NOTHING_STAGED: tuple[int, int, frozenset[int], frozenset[str]] = (0, 0, frozenset(), frozenset())


def layoff_targets(kind: str, cards: Sequence[Card], start: int, rules: RuleSet) -> list[tuple[Card | None, bool]]:
    """R24: the cards a meld on the table (``kind`` "set" or "run", its ``cards`` in table order, a
    run's first value ``start``, 1-14) accepts as lay-offs under ``rules``, as (card, at the high
    end) pairs; None stands for any wild card. Agrees with ``can_extend_set`` / ``can_extend_run``
    (R3: no run of 13 grows; R18/R19 with ``run_joker_check`` "always": no wild card where three
    places hold one; ``set_max``, ``layoff_distinct_suits``). The one home of the lay-off targets:
    the listing, playable discards (R32), :meth:`Game.layoff_spot` and the greedy bot's knowledge
    of the table (from a view) all ask it.

    >>> from liverpool.cards import parse_cards
    >>> layoff_targets("run", parse_cards("5H 6H 7H 8H"), 5, RuleSet())
    [(Card('4H'), False), (None, False), (Card('9H'), True), (None, True)]
    """
    if rules.meld_variant:  # issue 16: asked of can_extend_set / can_extend_run themselves
        declared = _declared(cards)
        return meld_accepts(kind, cards, start, rules, declared.suit if declared else "")
    wild = rules.wild_rank
    out: list[tuple[Card | None, bool]] = []
    if kind == "set":
        if rules.set_max is not None and len(cards) >= rules.set_max:
            return out
        rank = set_rank(cards, rules)
        if rank is None:  # pragma: no cover - a set always holds naturals (R18)
            return out
        taken = {c.suit for c in cards if c.rank not in (0, wild)} if rules.layoff_distinct_suits else set()
        if rank != wild:
            out.extend((Card(rank, suit), True) for suit in SUITS if suit not in taken)
        out.append((None, True))
        return out
    suit = next(c.suit for c in cards if c.rank not in (0, wild))
    if len(cards) >= 13:  # R3: an ace is never both low and high in one run
        return out
    low, high = start - 1, start + len(cards)
    check = rules.run_joker_check == "always"
    if low >= 1:
        if low != wild:
            out.append((Card(low, suit), False))
        if not check or not any(c.rank in (0, wild) for c in cards[:3]):
            out.append((None, False))
    if high <= rules.run_top:
        rank = 1 if high == 14 else high
        if rank != wild:
            out.append((Card(rank, suit), True))
        if not check or not any(c.rank in (0, wild) for c in cards[-3:]):
            out.append((None, True))
    return out

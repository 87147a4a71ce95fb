"""Applying an action known to be legal: each move's effect."""

from __future__ import annotations

from operator import attrgetter

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
)
from ..cards import CARD_NAMES, DEAD_RANK, Card
from ..events import FrozenDict
from ..melds import (
    run_start,
)
from .common import (
    LIVERPOOL_DISCARD,
    PLAY,
    _Declared,
    _declared,
    _Meld,
    _remove_cards,
)
from .queries import _Queries, empty_hand_floats

_PLAYER = attrgetter("player")


class _Moves(_Queries):
    """Applying an action known to be legal (a layer of :class:`~liverpool.game.Game`)."""

    __slots__ = ()

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (e.g. taken from :meth:`legal_actions`): the fast path
        for search. An illegal action here corrupts the game."""
        self._do(action)

    def _do(self, a: Action) -> None:
        listed = self._legal_cache
        self.actions.append(a)
        self._legal_cache = None
        p = a.player
        hand = self.hands[p]
        if isinstance(a, Discard):  # the commonest action first
            if self.buy_requests:  # R30 buy_window "until_discard": buys asked after the stock draw
                self._resolve_buys()
            thrown = a.card
            hand.remove(thrown)
            if thrown.rank == 2 and self.rules.dead_discarded_wild:  # R46: a discarded deuce is dead
                thrown = Card(DEAD_RANK, thrown.suit)
            self.discard.append(thrown)
            # the commonest records built here, as _event builds them (its key order)
            self.events.append(
                FrozenDict(
                    {
                        "player": p,
                        "card": CARD_NAMES[thrown],
                        "type": "discard",
                        "deal": self.deal_index + 1,
                        "version": len(self.actions),
                    }
                )
            )
            if not hand:
                self._end_deal(p, "went out")
                return
            self._knock(p)
            mode = self.rules.playable_discard
            callable_ = mode in ("call", "liverpool") and self.is_playable_discard(p, a.card)
            resume = self.resume
            self._next_turn((p + 1) % self.n if resume is None else resume, p, callable_)
        elif isinstance(a, Pass):  # out of turn, the commonest
            self.passed.append(p)
            version = len(self.actions)
            self.events.append(
                FrozenDict({"player": p, "type": "pass", "deal": self.deal_index + 1, "version": version})
            )
            if listed is not None and listed[0] == version - 1:
                # a pass only takes its player out of this discard's windows: the listing before
                # it less that player's actions is what _legal gives (tests/engine/test_engine_speed.py)
                # (a seat's actions are together in the listing: that slice is cut out, in C)
                actions = listed[1]
                seats = list(map(_PLAYER, actions))
                if p in seats:
                    first = seats.index(p)
                    actions = actions[:first] + actions[first + seats.count(p) :]
                self._legal_cache = (version, actions)
        elif isinstance(a, DrawStock):
            bought = self._resolve_buys()
            card = self._draw_stock()
            if card is None:  # a call's penalty card emptied a stock that cannot be rebuilt
                self._end_deal(None, "stalemate: the stock ran out")
                return
            hand.append(card)
            events = self.events
            events.append(
                FrozenDict(
                    {"player": p, "type": "draw_stock", "deal": self.deal_index + 1, "version": len(self.actions)}
                )
            )
            self._private.append((len(events) - 1, p, card))
            fresh = self.fresh
            self._begin_play()
            if fresh and not bought and self.rules.buys_after_draw:
                self.fresh = True  # R30 "until_discard": the window stays open, asked anew

        elif isinstance(a, DrawDiscard):
            card = self.discard.pop()
            hand.append(card)
            self.taken = card if self.rules.discard_lock else None
            self.events.append(
                FrozenDict(
                    {
                        "player": p,
                        "card": CARD_NAMES[card],
                        "type": "draw_discard",
                        "deal": self.deal_index + 1,
                        "version": len(self.actions),
                    }
                )
            )
            self._begin_play()
        elif isinstance(a, DrawFromPile):
            taken = self.discard[-1 - a.depth :]
            del self.discard[-1 - a.depth :]
            hand.extend(taken)
            self.must_meld = taken[0]
            self._event("draw_pile", player=p, cards=[str(c) for c in taken])
            self._begin_play()
        elif isinstance(a, Buy):
            self.buy_requests.append(p)
            self.events.append(
                FrozenDict(
                    {"player": p, "type": "buy_request", "deal": self.deal_index + 1, "version": len(self.actions)}
                )
            )
        elif isinstance(a, Call):
            self._do_call(p)
        elif isinstance(a, Meld):
            _remove_cards(hand, a.cards)
            if a.declared is None:
                self.pending.append((a.kind, list(a.cards)))
                self._event("meld", player=p, kind=a.kind, cards=[str(c) for c in a.cards])
            else:  # issue 16: a run of wild cards, declared
                self.pending.append((a.kind, _Declared(a.cards, a.declared)))
                self._event("meld", player=p, kind=a.kind, cards=[str(c) for c in a.cards], declared=str(a.declared))
            sets, runs, _, _ = self._pending_counts()
            c = self.contract
            if sets == c.sets and runs == c.runs and (not c.whole_hand or not hand):
                self._go_down(p)
        elif isinstance(a, LayOff):
            hand.remove(a.card)
            m = self._melds[a.meld]
            m.changed()
            if m.kind == "run" and not a.high:
                m.cards.insert(0, a.card)
                m.start -= 1
            else:
                m.cards.append(a.card)
            if self.must_meld is not None and a.card == self.must_meld:
                self.must_meld = None
            self._settle_swaps()
            self._event("lay_off", player=p, card=str(a.card), meld=a.meld, high=a.high)
            self._after_hand_change(p)
        elif isinstance(a, SwapJoker):
            m = self._melds[a.meld]
            m.changed()
            wild = m.cards[a.index]
            m.cards[a.index] = a.card
            binds = self.rules.swap_must_play  # R20: off, the joker may be kept: no swap stays open
            if binds and not self.swaps:  # wild cards held before the turn's first swap
                self.swap_base = sum(1 for c in hand if self.rules.is_wild(c.rank))
            hand.remove(a.card)
            hand.append(wild)
            if binds:
                self.swaps.append((a.meld, m.start + a.index, a.card, wild))
            self._event("swap", player=p, meld=a.meld, index=a.index, card=str(a.card))
        elif isinstance(a, Unswap):
            meld_id, value, natural, wild = self.swaps.pop()
            m = self._melds[meld_id]
            m.changed()
            m.cards[value - m.start] = wild
            hand.remove(wild)
            hand.append(natural)
            self.unswapped.append((meld_id, value))
            self._event("unswap", player=p, meld=meld_id, card=str(natural))
        elif isinstance(a, EndTurn):
            if self.buy_requests:  # R30 buy_window "until_discard"
                self._resolve_buys()
            self._event("end_turn", player=p)
            self._knock(p)
            self._next_turn((p + 1) % self.n, discarder=None, callable_=False, fresh=False)
        elif isinstance(a, Retract):
            for _, cards in self.pending:
                hand.extend(cards)
            self.pending = []
            self.retracted = True
            self._scores[p] += self.rules.failed_meld_penalty
            self._event("retract", player=p, penalty=self.rules.failed_meld_penalty)

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.fresh = False
        self.call_open = False
        self.buy_requests = []
        self.passed = []

    def _resolve_buys(self) -> bool:
        """R29: the current player declined the discard; the winning buyer takes it and pays.
        True when a buy was made. With ``buy_window="until_discard"`` (R30) this runs at the stock
        draw for the requests made before it, and at the end of the turn (discard, end of turn,
        float) for those made after it."""
        if not self.buy_requests or not self.fresh:
            return False
        if self.rules.buy_precedence == "first":
            buyer = self.buy_requests[0]
        else:
            buyer = min(self.buy_requests, key=lambda q: (q - self.current) % self.n)
        card = self.discard.pop()
        hand = self.hands[buyer]
        hand.append(card)
        paid = 0
        for _ in range(self.rules.buy_penalty):
            extra = self._draw_stock()
            if extra is None:  # pragma: no cover - buys are refused when the stock cannot pay
                break
            hand.append(extra)
            paid += 1
        self.buys_used[buyer] += 1
        self.knocked[buyer] = False
        self._event("buy", player=buyer, card=str(card), penalty=paid)
        if paid:
            self._private.append((len(self.events) - 1, buyer, tuple(hand[-paid:])))
        self.fresh = False
        self.buy_requests = []
        return True

    def _do_call(self, caller: int) -> None:
        offender = self.discarder
        assert offender is not None
        card = self.discard.pop()
        self._event("call", player=caller, offender=offender, card=str(card))
        self.call_open = False
        self.fresh = False
        self.buy_requests = []
        self.passed = []
        if self.rules.playable_discard == "call":
            hand = self.hands[offender]
            hand.append(card)
            paid = 0
            for _ in range(self.rules.playable_discard_penalty):
                extra = self._draw_stock()
                if extra is None:
                    break
                hand.append(extra)
                paid += 1
            self.knocked[offender] = False
            self._event("call_penalty", player=offender, card=str(card), penalty=paid)
            if paid:
                self._private.append((len(self.events) - 1, offender, tuple(hand[-paid:])))
        else:  # liverpool: the caller takes it and discards one
            self.hands[caller].append(card)
            if self.rules.liverpool_resume == "in_turn":
                self.resume = self.current  # R34: the rotation goes on from the interrupted draw
            self.current = caller
            self.phase = LIVERPOOL_DISCARD
            self.taken = card if self.rules.discard_lock else None

    def _go_down(self, p: int) -> None:
        """R14: the staged melds become the player's contract on the table."""
        for kind, cards in self.pending:
            declared = _declared(cards)
            start = run_start(cards, self.rules, declared) if kind == "run" else 0
            self._melds.append(_Meld(len(self._melds), p, kind, cards, start or 0))
        self.pending = []
        self.must_meld = None
        self.down[p] = True
        self.down_turn[p] = self.turn
        self._settle_swaps()
        self._event("down", player=p)
        self._after_hand_change(p)

    def _settle_swaps(self) -> None:
        """R20: a swapped wild card counts as played once it has left the hand: for each wild card
        fewer than the hand held before its first swap plus one per open swap, a swap is settled
        (:meth:`_settled_swap` says which)."""
        swaps = self.swaps
        if swaps:
            hand = self.hands[self.current]
            wilds = sum(1 for c in hand if self.rules.is_wild(c.rank))
            while swaps and wilds - self.swap_base < len(swaps):
                swaps.pop(self._settled_swap(hand))

    def _settled_swap(self, hand: list[Card]) -> int:
        """The open swap a wild card that left ``hand`` settles. Equal wild cards are alike, but a
        joker is not a deuce of ``wild_rank`` 2: when the hand holds fewer of one kind than its open
        swaps took, one of those is settled (it could not be taken back), else any. Of those, one
        whose wild card could no longer go back to its place (R19, a wild card laid off next to
        it) is settled first, else the first."""
        swaps = self.swaps
        gone = [i for i, s in enumerate(swaps) if hand.count(s[3]) < sum(1 for o in swaps if o[3] == s[3])]
        choices = gone or list(range(len(swaps)))
        return next((i for i in choices if not self._restorable(swaps[i])), choices[0])

    def _swaps_stay_undoable(self, a: LayOff) -> bool:
        """After lay-off ``a`` (a fitting one), may every swap still open go back (R19, R20)? A
        wild card laid off next to the place of another swap's wild card would leave that swap with
        neither a way back nor, perhaps, a place to play its card: no legal action."""
        if self.rules.run_joker_check != "always" or not self.rules.is_wild(a.card.rank):
            return True
        trial = self.copy()
        trial._do(a)
        return all(trial._restorable(swap) for swap in trial.swaps)

    def _after_hand_change(self, p: int) -> None:
        """Going out or floating once a hand is empty after melding (R15, R37, R38)."""
        if self.hands[p]:
            self._knock(p)
            return
        if not empty_hand_floats(self.rules, self.contract.whole_hand):
            self._end_deal(p, "went out")
            return
        if self.buy_requests:  # R30 buy_window "until_discard"
            self._resolve_buys()
        self._event("float", player=p)
        self._next_turn((p + 1) % self.n, discarder=None, callable_=False, fresh=False)

"""The strong bot: determinized search with greedy playouts.

For a decision that matters (take the discard or not, buy or not, which card to discard) the bot
ranks its legal actions with the greedy heuristic and keeps the best few (``width``); decisions
that do not matter (one sensible action: melding, laying off, passing on a card it has no use
for) take greedy's choice at once. Then, until its time is spent, it samples the hidden cards: the
other hands and the stock order, consistent with everything its view shows (cards an opponent took
from the discard pile, bought or was handed back by a call are placed in that opponent's hand
unless since played; a player who is not down keeps the best of its hand and the cards it drew
from the stock, as a player would; a player who is down holds nothing that fits the table), builds
the full state with :meth:`Game.from_view`, and plays every candidate out with greedy playouts on
the same sample (common random numbers) for ``horizon`` turns (8) or to the end of the deal when
that comes first (hints and reviews play to the deal's end when the end is near, a player down or
one card short; the bot's ``near`` option does too). This is the one search of the bot, the
hints and the reviews (:mod:`liverpool.bots.search`). A candidate's value is the bot's deal
points less the opponents' mean (lower is better), where a deal not over yet counts each hand at
the points such a hand scored on average in greedy games (``EXPECTED_POINTS``, by its deficit
and points; :func:`liverpool.bots.search.standing`). Where the end is far, short playouts with
this estimate chose better in the same time than whole-deal playouts (more samples, less noise;
measured with the earlier value, docs/bots.md). A hand sampled for a player who let a discard go
(drew from the stock instead) and that would have taken it is dealt again, and so is one that,
given back its player's last discard, would have discarded another card. The bot keeps greedy's
choice unless another candidate is better by more than ``margin`` standard errors of the paired
differences.

Time: ``think`` seconds per decision on average. A decision that needs no search saves its share
(up to ``carry`` × think), and a searched decision may spend up to ``burst`` × think of the saving.

The playouts read the sampled game directly (never a view: the sample holds only what the seat
may know plus guesses) and build the actions themselves, asking the engine where a card may be
laid off and which joker swaps are open (``Game.layoff_spot``, ``Game.swap_actions``: no rule is
copied here), so that a deal plays out in a few milliseconds; ``CHECK_PLAYOUTS`` makes the engine
verify every action (the tests do).

>>> from liverpool import Game
>>> from liverpool.driver import play_game
>>> from liverpool.bots.greedy import GreedyBot
>>> game = Game.new(players=3, seed=4)
>>> play_game(game, [StrongBot(seed=1, think=0.002), GreedyBot(seed=2), GreedyBot(seed=3)]).is_over
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Final

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
)
from ..cards import JOKER, Card, full_deck, parse_card, parse_tokens
from ..game import DRAW, LIVERPOOL_DISCARD, OVER, PLAY, Game
from ..game.answers import called_card_goes_to
from ..rules import RuleSet, cached_rules
from ..solver import can_complete, solve
from . import search
from .base import Bot
from .greedy import (
    EventTracker,
    Snapshot,
    analyse,
    choose,
    discard_choice,
    discard_ranking,
    note_discard,
    related,
    rules_for_view,
    tactics,
    wants_card,
)

__all__ = ["KnownCards", "StrongBot", "expected_points", "playout", "sample_hidden"]

DEFAULT_THINK: Final = 0.2
"""Seconds of search per decision by default (the ``hard`` difficulty)."""

DEFAULT_HORIZON: Final = 8
"""Turns a playout plays before the deal is valued by the expected points of the hands."""

CHECK_PLAYOUTS = False
"""Tests set this to verify every playout action with ``Game.apply`` (slower)."""


# --------------------------------------------------------------------------------------- knowledge
class KnownCards:
    """The cards each player is known to hold, from the public events of this deal: cards taken from
    the discard pile (draws, buys, pile draws), handed back by a call (R33) or taken by one (R34),
    jokers taken in a swap, and lay-downs taken back (R16), less the cards they have played since."""

    def __init__(self) -> None:
        self.first: object = None
        self.count = 0
        self.known: dict[int, list[Card]] = {}
        self.staged: dict[int, list[Card]] = {}
        self.declined: dict[int, list[Card]] = {}
        """The discards each player let go by drawing from the stock, this deal."""
        self.discarded: dict[int, Card] = {}
        """Each player's last discard this deal."""
        self.stock_draws: dict[int, int] = {}
        self.last_discard: Card | None = None

    def _reset(self) -> None:
        self.known = {}
        self.staged = {}
        self.declined = {}
        self.discarded = {}
        self.stock_draws = {}
        self.last_discard = None

    def _add(self, p: int, card: Card) -> None:
        self.known.setdefault(p, []).append(card)

    def _play(self, p: int, card: Card) -> None:
        cards = self.known.get(p)
        if cards and card in cards:
            cards.remove(card)

    def update(self, view: dict[str, Any]) -> dict[int, list[Card]]:
        events = view["events"]
        if not events:
            return self.known
        if events[0] is not self.first or len(events) < self.count:
            self.first = events[0]
            self.count = 0
            self._reset()
        parse = parse_card
        wild_rank = view["rules"].get("wild_rank")
        caller_takes = called_card_goes_to(cached_rules(view["rules"])) == "caller"  # R33, R34: the engine's
        for e in events[self.count :]:
            kind = e["type"]
            if kind == "deal":
                self._reset()
            elif kind in {"draw_discard", "buy"}:
                self._add(e["player"], parse(e["card"]))
                if kind == "draw_discard":
                    self.last_discard = None
            elif kind == "draw_pile":
                self.last_discard = None
                for c in e["cards"]:
                    self._add(e["player"], parse(c))
            elif kind == "call_penalty" or (kind == "call" and caller_takes):
                self._add(e["player"], parse(e["card"]))
            elif kind == "meld":
                cards = [parse(c) for c in e["cards"]]
                self.staged.setdefault(e["player"], []).extend(cards)
                for c in cards:
                    self._play(e["player"], c)
            elif kind == "down":
                self.staged.pop(e["player"], None)
            elif kind == "retract":
                for c in self.staged.pop(e["player"], []):
                    self._add(e["player"], c)
            elif kind in {"lay_off", "discard"}:
                self._play(e["player"], parse(e["card"]))
                if kind == "discard":
                    self.last_discard = self.discarded[e["player"]] = parse(e["card"])
            elif kind == "swap":
                self._play(e["player"], parse(e["card"]))
                if wild_rank is None:
                    self._add(e["player"], JOKER)
            elif kind == "unswap":
                self._add(e["player"], parse(e["card"]))
                if wild_rank is None:
                    self._play(e["player"], JOKER)
            elif kind == "draw_stock":
                p = e["player"]
                self.stock_draws[p] = self.stock_draws.get(p, 0) + 1
                if self.last_discard is not None:
                    self.declined.setdefault(p, []).append(self.last_discard)
                    self.last_discard = None
        self.count = len(events)
        return self.known


def unseen_pool(view: dict[str, Any], rules: RuleSet) -> list[Card]:
    """Every card this seat cannot see: the deck less its hand, the discard pile and the table."""
    deck = full_deck(rules.packs_for(view["players"]), rules.jokers_per_pack)
    counts: dict[Card, int] = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    parse = parse_card
    seen: list[str] = list(view["hand"]) + list(view["discard_pile"])
    for m in view["melds"]:
        seen.extend(m["cards"])
    for m in view["staged"]:
        seen.extend(m["cards"])
    for token in seen:
        c = parse(token).live  # a dead deuce (dead_discarded_wild) is a deuce of the deck
        counts[c] -= 1
    pool: list[Card] = []
    for c, k in counts.items():
        if k > 0:
            pool.extend([c] * k)
    return pool


_RESAMPLE_TRIES: Final = 4


def _consistent(shaped: Snapshot, declined: Card | None, thrown: Card | None) -> bool:
    """Could the (not down) player of ``shaped`` hold its hand, given that it let ``declined`` go
    and last discarded ``thrown``, when it plays as greedy does?"""
    if declined is not None and wants_card(shaped, declined):
        return False
    if thrown is None or shaped.is_wild(thrown):
        return True
    cards = shaped.hand
    shaped.hand = [*cards, thrown]
    try:
        return discard_choice(shaped, sorted(set(shaped.hand))) == thrown
    finally:
        shaped.hand = cards


def sample_hidden(
    view: dict[str, Any],
    pool: Sequence[Card],
    known: dict[int, list[Card]],
    rng: Any,
    s: Snapshot | None = None,
    draws: dict[int, int] | None = None,
    declined: dict[int, list[Card]] | None = None,
    discards: dict[int, Card] | None = None,
) -> tuple[dict[int, Sequence[Card]], list[Card]]:
    """Hands for the other seats and a stock order drawn at random from ``pool``, every known card
    placed in its holder's hand (when the pool still has it).

    With a snapshot ``s`` and ``draws`` (each player's draws from the stock this deal) the hands are
    shaped like a player's: a player who is not down is dealt its hand plus the cards it drew from
    the stock and keeps the best (by greedy's measure), as it would have; a player who is down
    holds no card that fits the table when the pool can avoid it. With ``declined`` (the discards
    each player let go by drawing from the stock) a hand that would have taken the last card its
    player declined is dealt again, and with ``discards`` (each player's last discard) so is a hand
    that, with that card back, would have discarded another (up to ``_RESAMPLE_TRIES`` times).
    """
    me = view["player"]
    sizes = view["hand_sizes"]
    rest = list(pool)
    rng.shuffle(rest)
    hands: dict[int, list[Card]] = {}
    forced: dict[int, int] = {}
    for p in range(view["players"]):
        if p == me:
            continue
        hand: list[Card] = []
        for c in known.get(p, ()):
            if len(hand) >= sizes[p]:
                break
            try:
                rest.remove(c)
            except ValueError:
                continue
            hand.append(c)
        hands[p] = hand
        forced[p] = len(hand)
    acc = s.accepts() if s is not None and s.melds else None
    returned: list[Card] = []
    for p, hand in hands.items():
        need = sizes[p] - len(hand)
        if need <= 0:
            continue
        if s is None or draws is None:
            hand.extend(rest[-need:])
            del rest[-need:]
            continue
        if view["down"][p]:
            if acc is None:
                hand.extend(rest[-need:])
                del rest[-need:]
                continue
            i = len(rest) - 1
            while need and i >= 0:
                c = rest[i]
                if not s.fits(c, acc) or i < need:
                    hand.append(c)
                    del rest[i]
                    need -= 1
                i -= 1
            continue
        extra = min(draws.get(p, 0), len(rest) - need, 2 * need)
        if extra <= 0:
            hand.extend(rest[-need:])
            del rest[-need:]
            continue
        shaped = Snapshot()
        shaped.rules = s.rules
        shaped.t = s.t
        shaped.me = p
        shaped.n = s.n
        shaped.sets, shaped.runs, shaped.whole = s.sets, s.runs, s.whole
        shaped.hand_sizes = s.hand_sizes
        shaped.down = s.down
        refused = declined.get(p) if declined else None
        last = refused[-1] if refused else None
        thrown = discards.get(p) if discards else None
        for attempt in range(_RESAMPLE_TRIES):
            seen = rest[-(need + extra) :]
            del rest[-(need + extra) :]
            free = hand[forced[p] :] + seen
            cards = hand[: forced[p]] + free
            shaped.hand = cards
            ranking = discard_ranking(shaped, sorted(set(free)), full=True)
            drop: list[Card] = []
            for _, c in ranking:
                k = min(free.count(c), extra - len(drop))
                drop.extend([c] * k)
                if len(drop) >= extra:
                    break
            for c in drop:
                cards.remove(c)
            shaped.hand = cards
            if attempt + 1 < _RESAMPLE_TRIES and not _consistent(shaped, last, thrown):
                rest[:0] = seen  # deal this hand again
                continue
            break
        hand[:] = cards
        rest[:0] = drop  # back among the unseen cards, taken last by the next hands
        returned.extend(drop)
    if returned:
        rng.shuffle(rest)
    return dict(hands), rest


# --------------------------------------------------------------------------------------- playouts
class _StuckError(Exception):
    pass


def _apply(game: Game, action: Action) -> None:
    if CHECK_PLAYOUTS:
        game.apply(action)
    else:
        game.apply_unchecked(action)


def _fallback(game: Game, seat: int) -> None:
    """Take greedy's choice among the engine's legal actions (rare corner cases)."""
    legal = game.legal_actions(seat)
    if not legal:
        raise _StuckError
    game.apply_unchecked(choose(Snapshot.from_game(game, seat), legal))


def _draw_phase(game: Game) -> None:
    rules = game.rules
    p = game.current
    n = game.n
    if game.call_open:
        for step in range(1, n):
            q = (p + step) % n
            if game.may_call(q):  # the engine's rule (R26, R33, R34)
                _apply(game, Call(q))
                return
    s = Snapshot.from_game(game, p)
    top = s.top
    may_take = game.may_take_discard(p)  # R22, down_may_take_discard
    if top is not None and game.fresh and rules.buying:
        if may_take and wants_card(s, top):
            _apply(game, DrawDiscard(p))
            return
        for step in range(1, n):
            q = (p + step) % n
            # the playouts follow the greedy policy, which never buys once down (heuristics.wants_card):
            # a choice, not the rule; whether q may buy at all is the engine's (Game.may_buy, R29-R31, R44)
            if game.down[q] or not (s.is_wild(top) or related(s, top, game.hands[q])):
                continue
            if game.may_buy(q) and wants_card(Snapshot.from_game(game, q), top, buying=True):  # the engine's rule
                _apply(game, Buy(q))
                break
        _apply(game, DrawStock(p))
        return
    if top is not None and may_take and wants_card(s, top):
        _apply(game, DrawDiscard(p))
    else:
        _apply(game, DrawStock(p))


def _discard_or_end(game: Game, s: Snapshot) -> None:
    p = s.me
    options = game.discard_options(p)  # the engine's rules (R25, R26, R32-R36)
    if not options:
        if game.may_end_turn(p):
            _apply(game, EndTurn(p))
        else:
            _fallback(game, p)
        return
    card = discard_choice(s, options)
    if game.phase == PLAY:
        note_discard(s, card)
    _apply(game, Discard(p, card))


def _go_down(game: Game, s: Snapshot) -> bool:
    """Lay the contract when the hand can (R14), swapping a joker first when that makes it possible
    (R20); True when the turn goes on."""
    p = s.me
    rules = game.rules
    d = analyse(s.t, s.hand, s.sets, s.runs, s.whole)[0]
    if d == 1 and s.melds:
        for swap in game.swap_actions(p):
            rest = list(s.hand)
            rest.remove(swap.card)
            rest.append(game.swap_yield(swap))
            if can_complete(rest, s.sets, s.runs, rules, whole_hand=s.whole, left=s.left):
                _apply(game, swap)
                d = 0
                break
    if d > 0 or not can_complete(s.hand, s.sets, s.runs, rules, whole_hand=s.whole, left=s.left):
        return True
    plan = solve(s.hand, s.sets, s.runs, rules, whole_hand=s.whole, left=s.left)
    if plan is None:  # pragma: no cover - can_complete said yes
        raise _StuckError
    for i, cards in enumerate(plan):
        _apply(game, Meld(p, "set" if i < s.sets else "run", tuple(cards)))
        if game.phase != PLAY or game.current != p:
            return False
    return True


def _play_phase(game: Game) -> None:
    p = game.current
    if game.pending or game.must_meld is not None or game.swaps:
        _fallback(game, p)
        return
    s = Snapshot.from_game(game, p)
    if not game.down[p]:
        if not _go_down(game, s):
            return
        if game.swaps:  # the swapped joker is still to be played
            _fallback(game, p)
            return
        s = Snapshot.from_game(game, p)
    if game.may_lay_off(p):
        floating = s.floats_when_empty()  # R38: keep the last card to discard
        pts = s.t.pts
        while True:
            hand = game.hands[p]
            if not hand or (floating and len(hand) <= 1):
                break
            best: tuple[float, Card, tuple[int, bool]] | None = None
            taken = game.taken
            for c in set(hand):
                spot = game.layoff_spot(c)
                if spot is None:
                    continue
                key = pts[c.rank] + (1000.0 if taken is not None and c == taken else 0.0)
                if best is None or key > best[0]:
                    best = (key, c, spot)
            if best is None:
                if len(hand) >= 2 and not game.swaps:
                    # swap a natural that fits nowhere for a joker, then lay the joker off
                    acc = s.accepts()
                    if acc[1]:
                        swap = next((a for a in game.swap_actions(p) if not s.fits(a.card, acc)), None)
                        if swap is not None:
                            _apply(game, swap)
                            s = Snapshot.from_game(game, p)
                            joker = game.hands[p][-1]
                            spot = game.layoff_spot(joker)
                            if spot is None:
                                _fallback(game, p)
                                return
                            _apply(game, LayOff(p, joker, spot[0], spot[1]))
                            if game.phase != PLAY or game.current != p:
                                return
                            s = Snapshot.from_game(game, p)
                            continue
                break
            _apply(game, LayOff(p, best[1], best[2][0], best[2][1]))
            if game.phase != PLAY or game.current != p:
                return
            s = Snapshot.from_game(game, p)
    _discard_or_end(game, s)


def playout(game: Game, max_actions: int = 2000, horizon: int | None = None) -> bool:
    """Play ``game`` with greedy playouts to the end of its current deal; False when it did not end
    within ``max_actions`` actions or, with ``horizon``, within that many turns."""
    deal = game.deal_index
    start = len(game.actions)
    last_turn = game.turn + horizon if horizon is not None else None
    while game.phase != OVER and game.deal_index == deal:
        if len(game.actions) - start > max_actions:
            return False
        if last_turn is not None and game.turn >= last_turn:
            return False
        phase = game.phase
        if phase == DRAW:
            _draw_phase(game)
        elif phase == PLAY:
            _play_phase(game)
        elif phase == LIVERPOOL_DISCARD:
            s = Snapshot.from_game(game, game.current)
            _discard_or_end(game, s)
        else:  # pragma: no cover - no other phase
            _fallback(game, game.current)
    return True


# Mean points scored at the end of the deal, from turn starts of 360 games of four greedy bots
# (liverpool preset), by the hand's points (buckets of 10: 0-9, ..., 120+) and its deficit (0-6 and
# more), or for a player who is down (EXPECTED_DOWN). Buckets below 50 are rare for a player who
# is not down: there the values are scaled down from the 50-59 bucket.
EXPECTED_POINTS: Final[tuple[tuple[float, ...], ...]] = (
    (1.9, 5.6, 9.3, 13.1, 16.8, 18.6, 20.0, 23.6, 24.6, 27.5, 32.1, 39.2, 46.4),  # 0: 0.85 x row 1
    (2.2, 6.6, 10.9, 15.3, 19.7, 21.9, 23.5, 27.8, 28.9, 32.3, 37.8, 46.1, 54.6),
    (2.9, 8.7, 14.5, 20.3, 26.1, 29.6, 32.2, 37.1, 37.9, 45.8, 54.3, 64.4, 85.9),
    (3.4, 10.0, 16.7, 23.4, 30.1, 34.2, 35.2, 39.2, 42.1, 52.7, 63.8, 83.3, 103.5),
    (3.7, 11.0, 18.3, 25.6, 33.0, 37.4, 36.6, 43.6, 54.2, 64.6, 76.7, 92.0, 102.4),
    (4.1, 12.2, 20.4, 28.6, 36.7, 43.0, 48.7, 64.3, 62.1, 75.7, 86.9, 97.2, 113.1),
    (5.1, 15.3, 25.5, 35.7, 45.9, 56.1, 66.3, 72.7, 77.1, 83.8, 93.6, 101.3, 109.5),
)
EXPECTED_DOWN: Final[tuple[float, ...]] = (2.0, 6.3, 11.6, 15.2, 17.9, 18.0, 20.0, 22.0, 24.0, 26.0, 28.0, 30.0, 32.0)


def _interpolate(row: tuple[float, ...], points: int) -> float:
    """``row`` read at ``points`` (its values stand at 5, 15, ..., 125 points; linear between, in
    proportion beyond)."""
    x = (points - 5) / 10
    if x <= 0:
        return row[0] * points / 5
    last = len(row) - 1
    if x >= last:
        return row[last] * points / (last * 10 + 5)
    i = int(x)
    f = x - i
    return row[i] * (1 - f) + row[i + 1] * f


THREAT_FACTOR: Final[tuple[tuple[float, ...], ...]] = (
    (0.88, 0.94, 0.94, 1.48),  # down
    (0.40, 0.77, 0.57, 0.88),  # deficit 0
    (0.64, 0.97, 0.82, 1.54),
    (0.72, 1.02, 1.04, 1.53),
    (0.86, 1.15, 1.21, 1.54),
    (0.95, 1.22, 1.17, 1.28),
    (0.96, 1.21, 0.99, 1.01),
    (1.01, 1.12, 1.00, 1.00),  # deficit 6 or more
)
"""What ``EXPECTED_POINTS`` (row 0 here: ``EXPECTED_DOWN``; then deficits 0 to 6) becomes by how
close the nearest other player is to going out: 0 nobody near, 1 a player not down who lacks at
most one card, 2 a player down, 3 a player down with at most two cards (measured in 400 more greedy
games)."""


def expected_points(game: Game) -> list[float]:
    """The points each player may expect to score at the end of the deal from here when everyone
    plays greedy: by its deficit (or being down) and its hand's points now (``EXPECTED_POINTS``),
    scaled by how close the nearest other player is to going out (``THREAT_FACTOR``)."""
    t = tactics(game.rules)
    pts = t.pts
    c = game.contract
    last = len(EXPECTED_POINTS) - 1
    base: list[float] = []
    rows: list[int] = []
    levels: list[int] = []
    for p in range(game.n):
        hand = game.hands[p]
        points = 0
        for card in hand:
            points += pts[card.rank]
        if game.down[p]:
            base.append(_interpolate(EXPECTED_DOWN, points))
            rows.append(0)
            levels.append(3 if len(hand) <= 2 else 2)
            continue
        if game.levels is not None:  # issue 16: each seat plays its own level's contract
            c = game.contract_of(p)
        deficit = max(0, min(analyse(t, hand, c.sets, c.runs, c.whole_hand)[0], last))
        base.append(_interpolate(EXPECTED_POINTS[deficit], points))
        rows.append(deficit + 1)
        levels.append(1 if deficit <= 1 else 0)
    out: list[float] = []
    for p in range(game.n):
        threat = max(levels[q] for q in range(game.n) if q != p)
        out.append(base[p] * THREAT_FACTOR[rows[p]][threat])
    return out


# --------------------------------------------------------------------------------------- the bot
class StrongBot(Bot):
    """Determinized search over greedy's best few actions (see the module doc).

    Options: ``think`` (seconds of search per decision on average, default 0.2), ``burst`` (the
    most one decision may spend, in units of ``think``, default 4: decisions that need no search
    save their time for those that do), ``carry`` (the most time saved, in units of ``think``,
    default 8; ``burst=1, carry=1`` makes ``think`` a hard limit per decision), ``width``
    (candidates kept, default 5), ``margin`` (standard errors by which a candidate must beat
    greedy's choice, default 0.5), ``samples`` (a fixed number of samples per decision instead of
    the time budget: the choices then depend only on the seed and the views, not on the machine's
    speed), ``race`` (stop sampling candidates whose outcome is settled, default on), ``horizon``
    (turns a playout plays before the deal is estimated, default 8; 0 plays to the deal's end),
    ``declined`` (deal again sampled hands that would have taken a card their player let go,
    default on), ``discards`` (deal again sampled hands that would not have made their player's
    last discard, default on), ``near`` (play to the deal's end when the end is near, as hints and
    reviews do; default off: the playouts stop after ``horizon`` turns wherever they are, which in
    paired games against greedy chose better for the same samples and took a third of the time,
    docs/bots.md).
    """

    name = "strong"

    def __init__(
        self,
        seed: int | None = None,
        think: float = DEFAULT_THINK,
        width: int = 5,
        margin: float = 0.5,
        samples: int | None = None,
        burst: float = 4.0,
        carry: float = 8.0,
        race: bool = True,
        horizon: int | None = DEFAULT_HORIZON,
        declined: bool = True,
        discards: bool = True,
        near: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(seed=seed, **options)
        if think < 0:
            raise ValueError(f"think must be 0 or more seconds, got {think}")
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, got {samples}")
        self.think = float(think)
        self.fixed_samples = None if samples is None else int(samples)
        if horizon is not None and horizon < 0:
            raise ValueError(f"horizon must be 0 (play to the deal's end) or more turns, got {horizon}")
        self.horizon = int(horizon) if horizon else None
        """Turns a playout plays before the deal is valued by ``EXPECTED_POINTS`` (None: to its end)."""
        self.near = bool(near)
        """Play to the deal's end when the end is near (else ``horizon`` turns wherever it is)."""
        self.use_declined = bool(declined)
        self.use_discards = bool(discards)
        """Deal again a sampled hand that would have discarded another card than its player did."""
        """Deal again a sampled hand that would have taken the last discard its player let go."""
        self.race = bool(race)
        """Drop candidates that are settled before the time is up (see ``_race``)."""
        if burst < 1 or carry < 1:
            raise ValueError(f"burst and carry must be at least 1, got {burst} and {carry}")
        self.bank_cap = float(carry)
        """Most time, in units of ``think``, that decisions without search can save for later."""
        self.burst = float(burst)
        """Most time, in units of ``think``, that one decision may spend."""
        self.bank = 0.0
        self.width = max(1, int(width))
        self.margin = float(margin)
        self.tracker = EventTracker()
        self.cards = KnownCards()
        self.samples = 0
        """Samples drawn so far (all decisions)."""

    def act(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        self.bank = min(self.bank + self.think, self.think * self.bank_cap)
        rules = rules_for_view(view)
        s = Snapshot.from_view(view, rules)
        s.collects = self.tracker.update(view)
        known = self.cards.update(view)
        if any(isinstance(a, DrawFromPile) for a in legal):
            s.discard_pile = parse_tokens(view["discard_pile"])
        cands = self.candidates(s, legal)
        if len(cands) == 1 or (self.think <= 0 and self.fixed_samples is None):
            return cands[0]
        return self.search(view, rules, s, cands, known)

    # ---------------------------------------------------------------- candidates
    def candidates(self, s: Snapshot, legal: Sequence[Action]) -> list[Action]:
        """Greedy's choice first, then the alternatives worth searching."""
        greedy = choose(s, legal)
        top = s.top
        if not isinstance(greedy, Buy | Pass | DrawStock | DrawDiscard | Discard):
            return [greedy]
        if isinstance(greedy, Buy | Pass):
            buy = next((a for a in legal if isinstance(a, Buy)), None)
            passing = next((a for a in legal if isinstance(a, Pass)), None)
            if buy is None or passing is None or top is None:
                return [greedy]
            if s.down[s.me] or not (s.is_wild(top) or related(s, top, s.hand)):
                return [greedy]
            if greedy is passing and not wants_card(s, top):
                return [greedy]  # the card would not help: nothing to weigh
            return [greedy, passing if greedy is buy else buy]
        if isinstance(greedy, DrawStock | DrawDiscard):
            other: Action | None = None
            for a in legal:
                if isinstance(a, DrawStock | DrawDiscard) and type(a) is not type(greedy):
                    other = a
            if other is None or top is None:
                return [greedy]
            if s.down[s.me]:
                return [greedy]
            if not (s.is_wild(top) or related(s, top, s.hand)):
                return [greedy]
            return [greedy, other]
        if isinstance(greedy, Discard):
            options = sorted({a.card for a in legal if isinstance(a, Discard)})
            ranking = discard_ranking(s, options, full=True)
            out: list[Action] = [greedy]
            for _, card in ranking:
                if len(out) >= self.width:
                    break
                if card != greedy.card:
                    out.append(Discard(s.me, card))
            return out
        return [greedy]

    # ---------------------------------------------------------------- search
    def search(
        self, view: dict[str, Any], rules: RuleSet, s: Snapshot, cands: list[Action], known: dict[int, list[Card]]
    ) -> Action:
        """The candidate to play: :meth:`sample_values` within the budget, then :meth:`_pick`."""
        start = time.perf_counter()
        values = self.sample_values(
            view, rules, s, cands, known, deadline=start + min(self.bank, self.think * self.burst)
        )
        self.bank = max(0.0, self.bank - (time.perf_counter() - start))
        return cands[self._pick(values)]

    def sample_values(
        self,
        view: dict[str, Any],
        rules: RuleSet,
        s: Snapshot,
        cands: list[Action],
        known: dict[int, list[Card]],
        deadline: float | None = None,
    ) -> list[list[float]]:
        """The value of each candidate on each sample (:func:`liverpool.bots.search.sample_values`,
        the one search hints and reviews use too: the seat's deal points less the others' mean,
        lower is better), until ``deadline`` (a ``time.perf_counter`` time), or for ``samples``
        samples when the bot has a fixed number; with ``race``, the candidates that are settled
        early stop being sampled."""
        fixed = self.fixed_samples
        values = search.sample_values(
            view,
            rules,
            s,
            cands,
            known,
            self.rng,
            samples=fixed,
            deadline=None if fixed is not None else (deadline if deadline is not None else time.perf_counter()),
            horizon=self.horizon,
            near=self.near,
            race_on=self.race,
            draws=self.cards.stock_draws,
            declined=self.cards.declined if self.use_declined else None,
            discards=self.cards.discarded if self.use_discards else None,
        )
        self.samples += max((len(v) for v in values), default=0)
        return values

    def _pick(self, values: list[list[float]]) -> int:
        """Greedy's choice (index 0) unless another beats it (a lower value) by ``margin`` standard
        errors of the paired difference."""
        best = 0
        best_gain = 0.0
        for i in range(1, len(values)):
            if len(values[i]) < 2:
                continue
            gain, se = search.paired(values[i], values[0])  # greedy's value less this one's
            if gain > self.margin * se and gain > best_gain:
                best, best_gain = i, gain
        return best

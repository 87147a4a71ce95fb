"""The heuristics: how useful a card is, which discard to make (and which to avoid: cards the next player
collects), and whether a card is wanted (draw, buy, R27), weighted by :class:`Tuning`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ...cards import Card
from ...solver import can_complete
from .deficit import analyse, deficit_of, deficits_without
from .knowledge import Snapshot
from .tactics import Tactics


class Tuning:
    """The heuristic's weights (one shared instance, :data:`TUNING`)."""

    useful_weight = 12.0
    """Discard score per unit of a card's usefulness (against its points)."""
    danger_weight = 0.6
    """Extra weight of points per level of danger (an opponent close to going out)."""
    buy_extra = 4
    """Most cards above the deal's hand size a buy may leave in hand."""
    buy_danger = 2
    """No buying at this danger level or above."""
    buy_far = 2
    """With more than 2 extra cards, buy only when the deficit after the buy is at most this."""


TUNING: Final = Tuning()


def usefulness(s: Snapshot, card: Card, hand: Sequence[Card]) -> float:
    """How much ``card`` helps shape a partial contract with the other cards of ``hand``: per other
    natural of ``hand`` (in hand order, the first copy of ``card`` itself skipped), 1 for a card of
    its rank in a contract with sets (0.1 for a copy of it in one of runs only) and, in a contract
    with runs, (L - d) / L for a card of its suit d < L places away (L the run length)."""
    r = card.rank
    t = s.t
    if r == 0 or r == t.wild:
        return 100.0
    sets = s.sets > 0
    runs = s.runs > 0
    row = t.use_rows.get((sets, runs, card.code))  # (_use_row's memo, read here without a call)
    if row is None:
        row = _use_row(t, sets, runs, card)
    u = 0.0
    try:
        i = hand.index(card)  # cards are interned: the first card equal to ``card`` is ``card``
    except ValueError:
        for c in hand:
            u += row[c]
        return u
    for c in hand[:i]:
        u += row[c]
    for c in hand[i + 1 :]:
        u += row[c]
    return u


def _use_row(t: Tactics, sets: bool, runs: bool, card: Card) -> list[float]:
    """What each card code adds to the :func:`usefulness` of the natural ``card`` (0.0 for none)."""
    key = (sets, runs, card.code)
    row = t.use_rows.get(key)
    if row is not None:
        return row
    wild = t.wild
    run_len = t.run_min
    r = card.rank
    suit = card.code >> 4
    high = 14 if r == 1 else r
    row = [0.0] * 80
    if r != 0 and r != wild:  # the cards of its rank
        if sets:
            for base in (16, 32, 48, 64):
                row[base + r] = 1.0
        elif 1 <= suit <= 4:
            row[(suit << 4) + r] = 0.1
    if runs and 1 <= suit <= 4:  # the other ranks of its suit
        base = suit << 4
        for cr in range(1, 16):
            if cr in (wild, r):
                continue
            d = abs(cr - r)
            if r == 1 or cr == 1:
                d = min(d, abs(high - (14 if cr == 1 else cr)))
            if d < run_len:
                row[base + cr] = (run_len - d) / run_len
    t.use_rows[key] = row
    return row


def related(s: Snapshot, card: Card, hand: Sequence[Card]) -> bool:
    """Could ``card`` join a card of ``hand`` in a set or a run of this contract?"""
    row = _related_row(s.t, bool(s.sets), bool(s.runs), card)
    return any(map(row.__getitem__, hand))


def _related_row(t: Tactics, sets: bool, runs: bool, card: Card) -> list[bool]:
    """Per card code, whether that card makes ``card`` :func:`related`: a natural of its rank in a
    contract with sets, or, in a contract with runs, a natural of its suit (and another rank) at
    most the run length less one places away (an ace at either end)."""
    key = (sets, runs, int(card))
    row = t.related_rows.get(key)
    if row is not None:
        return row
    r = card.rank
    suit = card.code >> 4
    reach = t.run_min - 1
    wild = t.wild
    row = [False] * 80
    if sets and r != 0 and r != wild:  # the cards of its rank
        for base in (16, 32, 48, 64):
            row[base + r] = True
    if runs and 1 <= suit <= 4:  # the other ranks of its suit
        base = suit << 4
        for cr in range(1, 16):
            if cr in (wild, r):
                continue
            d = abs(cr - r)
            row[base + cr] = d <= reach or (
                (cr == 1 or r == 1) and abs((14 if r == 1 else r) - (14 if cr == 1 else cr)) <= reach
            )
    t.related_rows[key] = row
    return row


def feeds(s: Snapshot, card: Card, acc: tuple[frozenset[int], bool] | None) -> float:
    """A penalty for discarding ``card`` when the next player is known to want it."""
    fit_pen, wanted = _feed_parts(s)
    return _feed_pen(s, card, acc, fit_pen, wanted)


def _feed_parts(s: Snapshot) -> tuple[float, list[Card]]:
    """What :func:`feeds` reads for every card: the penalty of a card the table accepts, and the
    cards the next player collected (none when that player is down)."""
    me = s.me
    nxt = (me + 1) % s.n
    down = s.down
    fit_pen = 0.0
    for p in range(s.n):
        if p != me and down[p]:
            fit_pen += 6.0 if p == nxt else 2.0
    wanted = s.collects.get(nxt)
    return fit_pen, wanted if wanted and not down[nxt] else []


def _feed_pen(
    s: Snapshot, card: Card, acc: tuple[frozenset[int], bool] | None, fit_pen: float, wanted: list[Card]
) -> float:
    """:func:`feeds` of ``card`` from :func:`_feed_parts`."""
    pen = fit_pen if acc is not None and s.fits(card, acc) else 0.0
    if wanted:
        rank = card.rank
        suit = card.suit
        sets = s.sets
        runs = s.runs
        for c in wanted:
            if c.rank == rank and (sets or c.suit == suit):
                pen += 5.0
            elif c.suit == suit and runs and abs(c.rank - rank) <= 2:
                pen += 3.0
    return pen


def discard_ranking(s: Snapshot, options: Sequence[Card], full: bool = True) -> list[tuple[float, Card]]:
    """The cards of ``options`` (distinct cards of the hand) scored for discarding, best first.

    With ``full`` off, the cards a best partial contract keeps are left out when others remain.
    """
    t = s.t
    hand = s.hand
    acc = s.accepts() if s.meld_view or s.melds else None  # (the view's melds read only when needed)
    pts = t.pts
    wild_of = t.wild_of  # R46: the engine's RuleSet.is_wild per rank
    out: list[tuple[float, Card]] = []
    if s.down[s.me]:
        # down: shed the highest card that fits nothing (a fitting card could be called, R32)
        fit_pen, wanted = _feed_parts(s)
        for c in options:
            key = (
                -pts[c.rank]
                + (50.0 if acc is not None and s.fits(c, acc) else 0.0)
                + _feed_pen(s, c, None, fit_pen, wanted)
            )
            if wild_of[c.rank]:
                key += 100.0
            out.append((key, c))
        out.sort()
        return out
    danger = s.danger()
    point_weight = 1.0 + danger * TUNING.danger_weight
    deficit, keep, set_ranks = analyse(t, hand, s.sets, s.runs, s.whole)
    wild = t.wild
    unused = []
    used = []
    for c in options:
        r = c.rank
        if r not in (0, wild) and not (set_ranks >> r & 1 or keep[(c.code >> 4) - 1] >> r & 1):
            unused.append(c)
        else:
            used.append(c)
    fit_pen, wanted = _feed_parts(s)
    weight = TUNING.useful_weight
    for c in unused:
        out.append(
            (usefulness(s, c, hand) * weight - pts[c.rank] * point_weight + _feed_pen(s, c, acc, fit_pen, wanted), c)
        )
    if used and (full or not unused):
        rests = deficits_without(t, hand, used, s.sets, s.runs, s.whole) if not unused else None
        for i, c in enumerate(used):
            d = rests[i] - deficit if rests is not None else 1
            score = (
                1000.0 * (1 + d)
                + usefulness(s, c, hand) * weight
                - pts[c.rank] * point_weight
                + _feed_pen(s, c, acc, fit_pen, wanted)
            )
            if wild_of[c.rank]:
                score += 500.0
            out.append((score, c))
    out.sort()
    return out


def note_discard(s: Snapshot, card: Card) -> None:
    """Remember the measure of the hand left after discarding ``card`` when it is known: a card no
    best partial contract uses leaves the deficit and the plan as they were."""
    if s.down[s.me] or s.t.wild_of[card.rank]:
        return
    t = s.t
    key = (bytes(sorted(s.hand)), s.sets, s.runs, s.whole)
    hit = t.memo.get(key)
    if hit is None:
        return
    if len(hit[1]) != 4:  # an entry without its plan: plan it
        hit = analyse(t, s.hand, s.sets, s.runs, s.whole)
    _, keep, set_ranks = hit
    r = card.rank
    if set_ranks >> r & 1 or keep[(card.code >> 4) - 1] >> r & 1:
        return
    rest = bytearray(key[0])
    rest.remove(card)
    if s.whole:  # the card was left over: one fewer to replace
        hit = (hit[0] - 1, keep, set_ranks)
    t.memo[(bytes(rest), s.sets, s.runs, s.whole)] = hit


def discard_choice(s: Snapshot, options: Sequence[Card]) -> Card:
    """The card to discard among ``options`` (distinct cards of the hand)."""
    return discard_ranking(s, options, full=False)[0][1]


def wants_card(s: Snapshot, card: Card, buying: bool = False) -> bool:
    """Does taking ``card`` help (lower the deficit; for a down player, fit the table)?"""
    if s.down[s.me]:
        if buying:
            return False
        return s.fits(card, s.accepts()) and len(s.hand) >= 1
    t = s.t
    if buying:
        # buying costs penalty cards: worth it early in the deal with a hand that is not too large
        extra = s.hand_size + 1 + s.rules.buy_penalty - s.contract_cards
        if extra > TUNING.buy_extra or s.danger() >= TUNING.buy_danger:
            return False
    wild = t.wild_of[card.rank]  # R46: the engine's RuleSet.is_wild
    if not wild and not related(s, card, s.hand):
        return False
    base = deficit_of(t, s.hand, s.sets, s.runs, s.whole)
    if base <= 0 and not buying and can_complete(s.hand, s.sets, s.runs, s.rules, whole_hand=s.whole, left=s.left):
        # already able to go down: take it only when it goes down with the contract
        return wild or can_complete(
            [*s.hand, card], s.sets, s.runs, s.rules, whole_hand=s.whole, must_use=card, left=s.left
        )
    after = deficit_of(t, [*s.hand, card], s.sets, s.runs, s.whole, base)
    if after >= base:
        return False
    if not buying:
        return True
    return not (after > TUNING.buy_far and len(s.hand) + 1 + s.rules.buy_penalty - s.contract_cards > 2)

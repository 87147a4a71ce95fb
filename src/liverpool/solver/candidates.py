"""The candidate melds of a hand (every set or run it can lay, R11-R13, R18, R19), for listing lay-downs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby, product

from ..cards import Card
from ..melds import is_valid_set
from ..rules import RuleSet
from .base import _INF, _VALUE_CARDS, CARD_OF_CODE
from .generic import _run_shapes, _set_shapes, _Shape
from .tables import _ctx, _tally


def _wild_sequences(kinds: list[tuple[Card, int]], n: int) -> list[list[Card]]:
    """Every distinct sequence of ``n`` wild cards drawn from the multiset ``kinds``."""
    out: list[list[Card]] = []
    left = [k for _, k in kinds]
    seq: list[Card] = []
    recurse: list[Callable[[], None]] = []

    def rec() -> None:
        if len(seq) == n:
            out.append(list(seq))
            return
        for i, (card, _) in enumerate(kinds):
            if left[i]:
                left[i] -= 1
                seq.append(card)
                recurse[0]()
                seq.pop()
                left[i] += 1

    recurse.append(rec)
    rec()
    recurse.clear()  # the closure reaches itself through the list alone: no reference cycle left
    return out


def candidate_melds(hand: Sequence[Card], kind: str, rules: RuleSet, *, exact: bool = False) -> list[list[Card]]:
    """Every distinct valid meld of ``kind`` ("set" or "run") that can be drawn from ``hand``.

    Sets: each multiset of naturals of one rank plus any multiset of the hand's wild cards (R11,
    R18). Runs (R3, R12, R19), in table order: wild cards stand only where the hand holds no natural
    for that place (inside the run or beyond its ends); a card of the wild rank counts as wild.
    ``exact``: only melds of the minimum length (R42). Sets come by rank, runs by suit then start.

    >>> from liverpool.cards import format_cards, parse_cards
    >>> [format_cards(m) for m in candidate_melds(parse_cards("4H 5H 6H JK 9C"), "run", RuleSet())]
    ['JK 4H 5H 6H', '4H 5H 6H JK']
    """
    if kind not in ("set", "run"):
        raise ValueError(f"kind must be 'set' or 'run', got {kind!r}")
    ctx = _ctx(rules)
    if ctx.variant:
        return _variant_candidates(hand, kind, rules, exact)
    cnt, rc, masks, wilds = _tally(ctx, hand)
    # the wild cards by kind, by falling points then code
    kinds = [(card, len(list(same))) for card, same in groupby(wilds)]
    nwild = len(wilds)
    by_code = CARD_OF_CODE
    out: list[list[Card]] = []
    if kind == "set":
        wild_sets: list[list[Card]] = []
        if len(kinds) == 1:
            card, k = kinds[0]
            wild_sets = [[card] * i for i in range(k + 1)]
        else:
            for counts in product(*(range(k + 1) for _, k in kinds)):
                wild_sets.append([card for (card, _), k in zip(kinds, counts, strict=True) for _ in range(k)])
            wild_sets.sort(key=len)
        # every such set is valid when its length is (R11, R18): its naturals are of one rank, at
        # least set_min_naturals, and of distinct suits when the rules ask for it
        low = ctx.set_min
        high = ctx.set_min if exact else (ctx.set_max if ctx.set_max is not None else _INF)
        nmin = ctx.set_naturals
        distinct_suits = ctx.set_distinct_suits
        for r in range(1, 14):
            if rc[r] < nmin:
                continue
            # the naturals taken, suit by suit (the first suit outermost), from the most cards down
            combos: list[list[Card]] = [[]]
            for code in range(16 + r, 80, 16):
                t = cnt[code]
                if t:
                    card = by_code[code]
                    combos = [prev + [card] * k for prev in combos for k in range(1 if distinct_suits else t, -1, -1)]
            for naturals in combos:
                n = len(naturals)
                if n < nmin or n > high:
                    continue
                for ws in wild_sets:
                    if low <= n + len(ws) <= high:
                        out.append(naturals + ws)
        return out
    high_ace = ctx.top == 14
    sequences: dict[int, list[list[Card]]] = {}
    for si in range(4):
        nat = masks[si + 1]
        if not nat:
            continue
        if nat & 2 and high_ace:
            nat |= 1 << 14
        windows = ctx.run_windows(nat, min(nwild, 4), exact)
        if not windows:
            continue
        value_cards = _VALUE_CARDS[si]
        for a, b, miss, k in windows:
            # a run of naturals in place and spaced wild cards in the gaps is valid (R3, R12, R19)
            if not k:
                out.append(value_cards[a : b + 1])
                continue
            seqs = sequences.get(k)
            if seqs is None:
                seqs = sequences[k] = _wild_sequences(kinds, k)
            for seq in seqs:
                fill = iter(seq)
                out.append([next(fill) if miss >> v & 1 else value_cards[v] for v in range(a, b + 1)])
    return out


def _variant_candidates(hand: Sequence[Card], kind: str, rules: RuleSet, exact: bool) -> list[list[Card]]:
    """:func:`candidate_melds` under the meld variants: the shapes of the general search
    (generic.py), each with every distinct choice of the hand's wild cards (an all-wild run, which
    must declare what it stands for, is not among them)."""
    wilds = sorted((c for c in hand if rules.is_wild(c.rank)), key=_ctx(rules).wild_key)
    kinds = [(card, len(list(same))) for card, same in groupby(wilds)]
    shapes = (_set_shapes if kind == "set" else _run_shapes_of)(rules, hand, len(wilds), exact)
    out: list[list[Card]] = []
    sequences: dict[int, list[list[Card]]] = {}
    for _, key, naturals, pattern in shapes:
        if not key and kind == "run":
            continue
        k = len(pattern) - len(naturals)
        seqs = sequences.get(k)
        if seqs is None:
            seqs = sequences[k] = _wild_sequences(kinds, k)
        for seq in seqs:
            fill = iter(seq)
            cards = [next(fill) if c is None else c for c in pattern]
            if not _has(hand, cards):
                continue
            # a set of the wild rank (wild_rank_natural_sets): a deuce filling a wild place is judged
            # as a natural deuce by the meld check (R11 distinct suits), so the filled set is asked again
            if kind == "set" and key == rules.wild_rank and not is_valid_set(cards, rules):
                continue
            out.append(cards)
    return out


def _run_shapes_of(rules: RuleSet, hand: Sequence[Card], nwild: int, exact: bool) -> list[_Shape]:
    return _run_shapes(rules, hand, nwild, exact, False)


def _has(hand: Sequence[Card], cards: list[Card]) -> bool:
    return all(hand.count(c) >= cards.count(c) for c in set(cards))

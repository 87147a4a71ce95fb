"""A hint: the best action found for a decision, and the reason in plain words.

The reason is put together from facts read off the view (the cards the hand still lacks for this
deal's contract, measured by the greedy bot's deficit; the cards that make the hand's partial
contract; melds on the table a card would fit and who is down; the cards a player has been taking
from the discard pile) and from the evaluation (the points the next best action costs and the
samples behind it). Each fact names the cards and players of this position.

>>> from liverpool import Game
>>> game = Game.new(players=3, seed=2)
>>> from liverpool.driver import next_to_act
>>> seat, legal = next_to_act(game)
>>> h = hint(game.view(seat), legal, 4)
>>> h.action in legal and bool(h.reason)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
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
    SwapJoker,
)
from ..bots.greedy import EventTracker, Snapshot, analyse, related, rules_for_view
from ..cards import Card, parse_card
from ..describe import describe_action
from ..game import layoff_targets
from ..game.answers import public_game
from .evaluate import Budget, Evaluation, evaluate

__all__ = ["Hint", "hint", "reason"]


@dataclass(frozen=True)
class Hint:
    """The suggested action, the reason in plain words, the facts the reason was made of, and the
    evaluation behind it."""

    action: Action
    reason: str
    facts: list[str]
    evaluation: Evaluation

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action.to_dict(),
            "text": str(self.action),
            "reason": self.reason,
            "facts": self.facts,
            "evaluation": self.evaluation.to_dict(),
        }
        cards = _cards_of(self.action)
        if cards:
            out["cards"] = [str(c) for c in cards]
        return out


def hint(
    view: dict[str, Any],
    legal_actions: Sequence[Action],
    budget: Budget | int | None = None,
    names: Sequence[str] | None = None,
) -> Hint:
    """The best action found for the seat of ``view`` among ``legal_actions`` (its own), with the
    reason (see the module doc). ``budget``: a :class:`Budget` or a sample count. ``names``: the
    seats' names, for the reason's words ("Bo's run"); without them a seat is "seat 2"."""
    ev = evaluate(view, legal_actions, budget)
    action = ev.best.action
    facts = _Facts(view, names)
    parts = facts.explain(action, ev)
    return Hint(action, " ".join(parts), parts, ev)


def reason(
    view: dict[str, Any],
    action: Action,
    evaluation: Evaluation,
    against: Action | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """Why ``action`` (one of ``evaluation``'s candidates) is played, in plain words; with
    ``against`` (another candidate, e.g. the move a player made) the cost is told against it
    rather than against the next best. ``names`` as for :func:`hint`."""
    return " ".join(_Facts(view, names).explain(action, evaluation, against))


def _cards_of(action: Action) -> list[Card]:
    if isinstance(action, Discard | LayOff):
        return [action.card]
    if isinstance(action, Meld):
        return list(action.cards)
    return []


def _name(c: Card) -> str:
    return c.pretty()


def _names(cards: Sequence[Card]) -> str:
    return " ".join(_name(c) for c in cards)


def _sentence(text: str) -> str:
    """``text`` as a sentence: its first letter capital (inside an opening quote too), a full stop."""
    i = 1 if text.startswith("“") else 0
    return text[:i] + text[i].upper() + text[i + 1 :] + ("" if text.endswith(".") else ".")


def _short(d: int, whole: bool = False) -> str:
    if whole:  # R15: the last deal's contract takes the whole hand
        if d <= 0:
            return "able to lay the whole hand down"
        return f"{d} card{'s' if d != 1 else ''} short of laying the whole hand down"
    if d <= 0:
        return "holding the whole contract"
    return f"{d} card{'s' if d != 1 else ''} short of the contract"


def _change(before: int, after: int, whole: bool = False) -> str:
    """A hand's way to the contract, from ``before`` cards short to ``after``."""
    if after <= 0:
        done = "it lets the whole hand go down" if whole else "it completes the contract"
        return f"{done} (you are {_short(before, whole)} without it)"
    return f"it brings you from {before} to {_short(after, whole)}"


class _Facts:
    """Facts of one view, read with the greedy bot's measures."""

    def __init__(self, view: dict[str, Any], names: Sequence[str] | None = None) -> None:
        self.view = view
        self.names = list(names) if names is not None and len(names) == int(view["players"]) else None
        self.rules = rules_for_view(view)
        self.s = Snapshot.from_view(view, self.rules)
        self.s.collects = EventTracker().update(view)
        self.me = int(view["player"])
        self.n = int(view["players"])
        self.contract = str(view["contract"]["text"])
        self.hand = list(self.s.hand)
        top = view["discard_pile"]
        self.top = self.s.top if top else None
        self.down = bool(view["down"][self.me])
        self.whole = bool(self.s.whole)

    def short(self, d: int) -> str:
        return _short(d, self.whole)

    def change(self, before: int, after: int) -> str:
        return _change(before, after, self.whole)

    def points(self, cards: Sequence[Card]) -> int:
        pts = self.s.t.pts
        return sum(pts[c.rank] for c in cards)

    # ------------------------------------------------------------ measures
    def deficit(self, hand: Sequence[Card]) -> int:
        s = self.s
        return analyse(s.t, hand, s.sets, s.runs, s.whole)[0]

    def without(self, card: Card) -> list[Card]:
        hand = list(self.hand)
        hand.remove(card)
        return hand

    def needed(self) -> list[Card]:
        """The cards of the hand that the best partial contract cannot spare (without one of them
        the hand lacks one card more)."""
        d = self.deficit(self.hand)
        return sorted({c for c in self.hand if self.deficit(self.without(c)) > d})

    def group_of(self, card: Card, needed: Sequence[Card]) -> tuple[list[Card], str] | None:
        """The cards of the contract ``card`` helps make with it, and what they make."""
        same_rank = [c for c in needed if c.rank == card.rank]
        if self.s.sets and len(same_rank) >= 2:
            return same_rank, ("a set" if len(same_rank) >= 3 else "the start of a set")
        same_suit = [c for c in needed if c.suit == card.suit and c.rank and related(self.s, card, [c])]
        if self.s.runs and len(same_suit) >= 2:
            return sorted(same_suit, key=lambda c: c.rank), "part of a run"
        return None

    def next_seat(self) -> int:
        return (self.me + 1) % self.n

    def seat(self, p: int) -> str:
        """A seat in words: its name when the names are known, else "seat 2" (seats from 0, as
        everywhere in the engine and its records)."""
        return self.names[p] if self.names is not None else f"seat {p}"

    def who(self, p: int) -> str:
        return f"the next player ({self.seat(p)})" if p == self.next_seat() else self.seat(p)

    def danger(self, card: Card) -> list[str]:
        """Why handing ``card`` to the table is dangerous: melds it fits (and who is down to lay
        it off), players who have been taking such cards."""
        out: list[str] = []
        s = self.s
        owners: list[str] = []
        wild = self.rules.is_wild(card.rank)
        for m in self.view["melds"]:
            # the engine's one home of the lay-off targets (R24), asked of each meld of the view
            cards = [parse_card(c) for c in m["cards"]]
            targets = {t for t, _ in layoff_targets(m["kind"], cards, int(m["start"]), self.rules)}
            if (None if wild else card) in targets:
                owners.append(f"{self.seat(int(m['owner']))}'s {m['kind']} {_names(cards)}")
        down = [p for p in range(self.n) if p != self.me and self.view["down"][p]]
        if owners and down:
            nxt = self.next_seat()
            if nxt in down:
                size = self.view["hand_sizes"][nxt]
                # R22: the engine's answer for that seat (Game.may_take_discard, asked of the view's game)
                take = " and can take it from the pile" if public_game(self.view).may_take_discard(nxt) else ""
                out.append(
                    f"it fits {owners[0]} on the table, and the next player ({self.seat(nxt)}) is down with {size} "
                    f"card{'s' if size != 1 else ''}{take}"
                )
            else:
                p = min(down, key=lambda q: (self.view["hand_sizes"][q], (q - self.me) % self.n))
                size = self.view["hand_sizes"][p]
                out.append(
                    f"it fits {owners[0]} on the table, and {self.seat(p)} is down with {size} "
                    f"card{'s' if size != 1 else ''}"
                )
        for step in range(1, self.n):
            p = (self.me + step) % self.n
            taken = s.collects.get(p, [])
            if taken and related(s, card, taken) and not self.view["down"][p]:
                them = "them" if len(taken[-3:]) > 1 else "it"
                out.append(
                    f"{self.who(p)} has taken {_names(taken[-3:])} from the pile this deal, and the "
                    f"{_name(card)} goes with {them}"
                )
                break
        return out

    # ------------------------------------------------------------ explanations
    def explain(self, action: Action, ev: Evaluation, against: Action | None = None) -> list[str]:
        parts = self._why(action, ev)
        parts.append(self._numbers(action, ev, against))
        return [_sentence(p) for p in parts if p]

    def _numbers(self, action: Action, ev: Evaluation, against: Action | None = None) -> str:
        if not ev.searched:
            return ""  # one sensible move: the reason above says what it achieves
        mine = ev.find(action)
        others = [c for c in ev.candidates if c.action != action]
        if against is not None and against != action:
            others = [c for c in others if c.action == against]
            label = "the move played"
        else:
            label = "the next best"
        if mine is None or not others:
            return ""
        alt = others[0]
        gap = alt.value - mine.value
        words = describe_action(alt.action, self.view, self.names)
        se = paired_se(ev, mine.action, alt.action)
        spread = f" ± {se:.1f}" if math.isfinite(se) else ""
        if (
            isinstance(action, Discard)
            and isinstance(alt.action, Discard)
            and gap <= 2.0 * se
            and self.s.t.pts[action.card.rank] > self.s.t.pts[alt.action.card.rank]
        ):
            side = "worse" if gap >= 0 else "better"
            return (
                f"“{words}” plays out as well within the samples' error ({abs(gap):.1f}{spread} points {side}, "
                f"{ev.samples} samples), and the {_name(action.card)} is the more points out of your hand"
            )
        if gap < -0.5:
            return f"“{words}” plays out about {-gap:.1f} points better ({ev.samples} samples)"
        if gap <= 0:
            return f"“{words}” plays out about as well ({ev.samples} samples): either is fine"
        return (
            f"{label}, “{words}”, is about {gap:.1f}{spread} points worse against the others this deal "
            f"({alt.samples} samples)"
        )

    def _why(self, action: Action, ev: Evaluation) -> list[str]:
        if isinstance(action, Discard):
            return self._discard(action, ev)
        if isinstance(action, DrawDiscard | DrawStock | DrawFromPile):
            return self._draw(action)
        if isinstance(action, Buy | Pass):
            return self._buy(action)
        if isinstance(action, Meld):
            return [self._meld(action)]
        if isinstance(action, LayOff):
            return [self._lay_off(action)]
        if isinstance(action, Call):
            return [f"call the {_name(self.top) if self.top else 'discard'}: it fits a meld on the table"]
        if isinstance(action, SwapJoker):
            return [self._swap(action)]
        if isinstance(action, EndTurn):
            return ["end your turn"]
        return [describe_action(action, self.view, self.names)]

    def _meld(self, action: Meld) -> str:
        cards = list(action.cards)
        left = len(self.hand) - len(cards) - sum(len(m["cards"]) for m in self.view["staged"])
        what = f"lay down {_names(cards)} as a {action.kind}"
        if self.whole:
            return f"{what}: this deal's contract takes the whole hand, and yours goes down"
        if left <= 0:
            return f"{what}: it completes {self.contract} and leaves no card in your hand"
        close = [p for p in range(self.n) if p != self.me and self.view["down"][p] and self.view["hand_sizes"][p] <= 2]
        if close:
            p = min(close, key=lambda q: (self.view["hand_sizes"][q], (q - self.me) % self.n))
            size = self.view["hand_sizes"][p]
            return (
                f"{what}: your hand makes {self.contract} now, and {self.who(p)} is down with {size} "
                f"card{'s' if size != 1 else ''}: every turn you wait you may be caught with your whole hand"
            )
        return f"{what}: your hand makes {self.contract} now, {self.points(cards)} points out of your hand"

    def after_lay_offs(self, first: LayOff) -> tuple[list[Card], list[Card]]:
        """The cards that can follow ``first`` onto the table this turn, one after another, and the
        cards left then, as the engine says (``Game.layoff_spot`` on the view's table, the hidden
        cards filled in at random: they take no part)."""
        import random

        from ..actions import LayOff as LayOffAction
        from ..bots.strong import sample_hidden, unseen_pool
        from ..game import Game

        view = self.view
        try:
            hands, stock = sample_hidden(view, unseen_pool(view, self.rules), {}, random.Random(0))
            game = Game.from_view(view, hands, stock, seed=0)
            game.apply(first)
        except (ValueError, KeyError):  # pragma: no cover - a view the sampler cannot fill
            return [], self.without(first.card)
        laid: list[Card] = []
        while game.current == self.me and game.phase == "play":
            hand = game.hand(self.me)
            if len(hand) <= (1 if self.s.floats_when_empty() else 0):
                break
            nxt = next(((c, spot) for c in hand if (spot := game.layoff_spot(c)) is not None), None)
            if nxt is None:
                break
            card, (meld, high) = nxt
            try:
                game.apply(LayOffAction(self.me, card, meld, high))
            except ValueError:  # pragma: no cover - the listing refuses it after all
                break
            laid.append(card)
        return laid, list(game.hand(self.me)) if game.current == self.me else []

    def _lay_off(self, action: LayOff) -> str:
        card = action.card
        rest = self.without(card)
        pts = self.s.t.pts[card.rank]
        head = f"lay off the {_name(card)}"
        if not rest:
            return f"{head}: you go out"
        laid, left = self.after_lay_offs(action)
        then = f" and then the {_names(laid)}" if laid else ""
        if len(left) == 1 and self.s.floats_when_empty():
            return f"lay off the {_name(card)}{then}, and discard the {_name(left[0])}: you go out this turn"
        if not left:
            return f"lay off the {_name(card)}{then}: you go out"
        gone = pts + self.points(laid)
        return (
            f"lay off the {_name(card)}{then}: {len(left)} card{'s' if len(left) != 1 else ''} left, "
            f"{gone} points fewer to be caught with"
        )

    def _swap(self, action: SwapJoker) -> str:
        owner = next((m["owner"] for m in self.view["melds"] if m["id"] == action.meld), None)
        whose = f"{self.seat(owner)}'s run" if owner is not None else "a run"
        head = f"put the {_name(action.card)} in {whose} and take its wild card"
        if self.down:
            return f"{head}: the {_name(action.card)} fits nowhere else, and the wild card can be laid off"
        wild = next((c for c in self.hand if self.s.is_wild(c)), None)
        rest = self.without(action.card)
        d = self.deficit(self.hand)
        if wild is not None:
            after = self.deficit([*rest, wild])
        else:
            from ..cards import JOKER

            after = self.deficit([*rest, JOKER])
        if after < d:
            return f"{head}: {self.change(d, after)}"
        return f"{head}: a wild card fits where the {_name(action.card)} does not ({self.short(d)} either way)"

    def _discard_down(self, action: Discard, ev: Evaluation) -> list[str]:
        """A player who is down: what the discard does for going out and for the others."""
        card = action.card
        rest = self.without(card)
        if not rest:
            return [f"discard the {_name(card)}: you go out"]
        pts = self.s.t.pts
        highest = max(pts[c.rank] for c in self.hand)
        part = f"discard the {_name(card)}: it fits no meld on the table"
        if pts[card.rank] >= highest:
            part += f", and at {pts[card.rank]} points it is the most you can throw"
        parts = [part]
        for alt in ev.candidates:
            if len(parts) >= 3:
                break
            if alt.action == action or not isinstance(alt.action, Discard):
                continue
            reasons = self.danger(alt.action.card)
            if reasons:
                parts.append(f"not the {_name(alt.action.card)}: " + "; ".join(reasons))
        return parts

    def _discard(self, action: Discard, ev: Evaluation) -> list[str]:
        if self.down:
            return self._discard_down(action, ev)
        card = action.card
        d = self.deficit(self.hand)
        after = self.deficit(self.without(card))
        parts: list[str] = []
        if after <= d:
            parts.append(
                f"discard the {_name(card)}: your best start on {self.contract} does not use it "
                f"(you are {self.short(d)})"
            )
        else:
            parts.append(f"discard the {_name(card)}, although it leaves you {self.short(after)}")
        needed = self.needed()
        kept: set[Card] = set()
        for alt in ev.candidates:
            if len(parts) >= 3:
                return parts
            if alt.action == action or not isinstance(alt.action, Discard):
                continue
            c = alt.action.card
            if c in kept:
                continue
            if c in needed:
                group = self.group_of(c, needed)
                if group is not None:
                    kept.update(group[0])
                    parts.append(f"keep the {_names(group[0])}: they make {group[1]} of this deal's {self.contract}")
                else:
                    kept.add(c)
                    short = self.short(self.deficit(self.without(c)))
                    parts.append(f"keep the {_name(c)}: without it you would be {short}")
                continue
            reasons = self.danger(c)
            if reasons:
                kept.add(c)
                parts.append(f"not the {_name(c)}: " + "; ".join(reasons))
        # what the hand must keep and what is dangerous to throw, although no candidate was (greedy
        # never ranks such cards among its discards)
        groups = [g for c in needed if (g := self.group_of(c, needed)) is not None]
        groups = [g for g in groups if not kept & set(g[0]) and card not in g[0]]
        if groups:
            cards, kind = max(groups, key=lambda g: len(g[0]))
            kept.update(cards)
            parts.append(f"keep the {_names(cards)}: they make {kind} of this deal's {self.contract}")
        for c in sorted(set(self.hand) - {card} - kept, key=lambda c: -self.s.t.pts[c.rank]):
            if self.s.is_wild(c):
                continue  # a wild card is kept anyway
            reasons = self.danger(c)
            if reasons and len(parts) < 4:
                parts.append(f"keep the {_name(c)}: " + "; ".join(reasons))
                break
        return parts

    def fits_table(self, card: Card) -> bool:
        if self.s.is_wild(card):
            return True
        return bool(self.s.melds) and self.s.fits(card, self.s.accepts())

    def _draw(self, action: Action) -> list[str]:
        top = self.top
        if top is None:
            return ["draw from the stock"]
        if isinstance(action, DrawFromPile):
            return [f"take the top {action.depth + 1} cards of the pile"]
        if self.down:
            if isinstance(action, DrawDiscard):
                return [f"take the {_name(top)}: it fits a meld on the table, one card closer to going out"]
            if self.fits_table(top):
                return [f"draw from the stock: the {_name(top)} fits the table, but a fresh card may go out as well"]
            return [f"draw from the stock: the {_name(top)} fits no meld on the table"]
        d = self.deficit(self.hand)
        with_top = self.deficit([*self.hand, top])
        if isinstance(action, DrawDiscard):
            if with_top < d:
                return [f"take the {_name(top)}: {self.change(d, with_top)}"]
            return [f"take the {_name(top)}: it fits your hand ({self.short(d)} either way, but it is a sure card)"]
        if with_top < d:
            return [f"draw from the stock: the {_name(top)} would help ({d} to {with_top} short) but costs more later"]
        return [f"draw from the stock: the {_name(top)} leaves you {self.short(d)} either way"]

    def _buy(self, action: Action) -> list[str]:
        top = self.top
        if top is None:
            return [describe_action(action, self.view, self.names)]
        extra = 1 + self.rules.buy_penalty
        points = self.points(self.hand)
        if self.down:
            if isinstance(action, Buy):
                return [f"buy the {_name(top)}: it fits the table, worth the {extra} cards it adds to your hand"]
            return [f"pass on the {_name(top)}: {extra} more cards to shed before you can go out"]
        d = self.deficit(self.hand)
        with_top = self.deficit([*self.hand, top])
        if isinstance(action, Buy):
            return [f"buy the {_name(top)}: {self.change(d, with_top)}, worth the {extra} cards it adds to your hand"]
        if d == 0:
            return [
                f"pass on the {_name(top)}: your hand already makes {self.contract}; buying would add "
                f"{extra} cards to a hand of {points} points for nothing"
            ]
        if with_top >= d:
            return [
                f"pass on the {_name(top)}: it leaves you {self.short(d)} either way, and buying adds {extra} "
                "cards to be caught with"
            ]
        gain = (
            ("let the whole hand go down" if self.whole else "complete the contract")
            if with_top <= 0
            else (f"bring you to {self.short(with_top)}")
        )
        return [
            f"pass on the {_name(top)}: it would {gain}, but {extra} more cards in a hand of {points} points "
            "cost more than it gains"
        ]


def paired_se(ev: Evaluation, a: Action, b: Action) -> float:
    """The standard error of the difference of two candidates' values."""
    if ev.find(a) is ev.best:
        return ev.loss(b)[1]
    if ev.find(b) is ev.best:
        return ev.loss(a)[1]
    return math.hypot(ev.loss(a)[1], ev.loss(b)[1])

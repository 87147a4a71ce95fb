"""Constructed positions with one clearly right decision, rated by the review and the hint.

Each position is written in the position notation (:mod:`liverpool.positions`, through
:func:`rules_helpers.position`), and each test says why its answer is right. The values are the
seat's standing (its deal points less the others' mean, docs/analysis.md); every sample count is a
cap the search may stop below once the verdict is settled, and seeds are fixed, so every test is
deterministic.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from liverpool import Action, Buy, Discard, Game, LayOff, Meld, Pass
from liverpool.analysis import Budget, Position, hint, rate
from liverpool.bots import strong
from rules_helpers import LIVERPOOL, cards, position

CAP = 64


@pytest.fixture(autouse=True)
def checked_playouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every playout action goes through ``Game.apply`` (an illegal one would raise)."""
    monkeypatch.setattr(strong, "CHECK_PLAYOUTS", True)
    yield


def decision(game: Game, seat: int, taken: Action) -> Position:
    view = game.view(seat)
    assert taken in game.legal_actions(seat), taken
    return Position(0, int(view["deal"]), int(view["turn"]), view, game.legal_actions(seat), taken)


def worse_than(verdict: str, floor: str) -> bool:
    order = ("best", "good", "inaccuracy", "mistake", "blunder")
    return verdict in order and order.index(verdict) >= order.index(floor)


def can_go_out() -> Game:
    """Deal 2 (a set and a run). Seat 0 is down, has drawn, and holds 7♥ 8♥ 9♥ K♣: laying the
    hearts off on its run 3♥-6♥ and discarding the K♣ goes out now. Seat 1, next to play, is down
    with one card and seat 2 with two, their melds taking any queen, ace, 7♣, Q♣, 3♦, 8♦ or joker;
    seat 3 is not down and holds ten cards."""
    return position(
        LIVERPOOL,
        hands=[
            "7H 8H 9H KC",
            "4S",
            "6S 10S",
            "9S 9D 4H 2D 6D KS QC JH JC 10D",
        ],
        melds=[
            (0, "set", "5C 5D 5S"),
            (0, "run", "3H 4H 5H 6H"),
            (1, "set", "QS QH QD"),
            (1, "run", "8C 9C 10C JC"),
            (2, "set", "AH AC AS"),
            (2, "run", "4D 5D 6D 7D"),
        ],
        down=[0, 1, 2],
        discard="8S",
        current=0,
        phase="play",
        deal=2,
    )


def test_not_going_out_when_one_can_is_a_mistake_or_worse() -> None:
    """Going out now scores 0 for seat 0 and catches the others with their hands. Waiting a turn
    gains nothing (the hearts fit the run as well next turn) and risks everything: seats 1 and 2
    go out as soon as they draw a card that fits the table, and then seat 0 is caught with the
    hearts and whatever it kept while they score 0."""
    game = can_go_out()
    lay_off = [a for a in game.legal_actions(0) if isinstance(a, LayOff)]
    assert [a.card for a in lay_off] == cards("7H")  # the 8♥ and 9♥ fit once the 7♥ is laid
    h = hint(game.view(0), game.legal_actions(0), Budget(samples=CAP, seed=1))
    assert isinstance(h.action, LayOff), h.action
    # the reason names what the move achieves, as the engine's table says: the hearts follow and
    # the last card's discard goes out
    assert "8♥ 9♥" in h.reason and "discard the K♣: you go out this turn" in h.reason, h.reason
    for wait in (Discard(0, cards("KC")[0]), Discard(0, cards("9H")[0])):
        d = rate(decision(game, 0, wait), Budget(samples=CAP, seed=1))
        assert isinstance(d.best, LayOff) and worse_than(d.verdict, "mistake"), (wait, d.loss, d.loss_se, d.verdict)


def holding_the_contract() -> Game:
    """Deal 1 (two sets). Seat 0 has drawn and holds two complete sets (9♣ 9♦ 9♠, K♦ K♥ K♠) and five
    loose cards; seat 1, next to play, is down with one card, its sets of queens and aces on the
    table taking any queen, ace or joker it draws."""
    return position(
        LIVERPOOL,
        hands=[
            "9C 9D 9S KD KH KS 4C 7H 2D JH 8S",
            "7C",
            "2C 3C 4H 7D 8D 10S JD 6H KC 6S",
            "2H 3H 6D 7S 8H 9H 10H JC 3S 4D",
        ],
        melds=[(1, "set", "QS QH QD"), (1, "set", "AH AC AS")],
        down=[1],
        discard="4S 5D",
        current=0,
        phase="play",
        deal=1,
    )


def test_holding_a_complete_contract_while_the_next_player_has_one_card_is_a_mistake_or_worse() -> None:
    """Laying the two sets down now leaves seat 0 with about 40 points in hand instead of 100. Seat 1
    goes out as soon as it draws a card that fits its melds (or is given one): every turn seat 0
    waits, it risks being caught with its whole hand, and it gains nothing by waiting."""
    game = holding_the_contract()
    legal = game.legal_actions(0)
    assert any(isinstance(a, Meld) for a in legal)
    h = hint(game.view(0), legal, Budget(samples=CAP, seed=2))
    assert isinstance(h.action, Meld)
    assert "next player (seat 1) is down with 1 card" in h.reason, h.reason
    d = rate(decision(game, 0, Discard(0, cards("JH")[0])), Budget(samples=CAP, seed=2))
    assert isinstance(d.best, Meld) and worse_than(d.verdict, "mistake"), (d.loss, d.loss_se, d.verdict)


def useless_buy() -> Game:
    """Deal 1 (two sets). Seat 1 discarded the K♦ and seat 2 is to draw; seat 0 holds no king and
    nothing a king helps (pairs of 4s, 7s and 9s). Nobody is down or near it."""
    return position(
        LIVERPOOL,
        hands=[
            "4C 4H 7S 7D 9C 9H 2D 3S 5H JC",
            "2C 3C 4D 8D 10S JD QH 6S 6C AS",
            "2H 3H 6D 8S 8H 10H JH QS 3D AD",
            "2S 5S 6H 7H 8C 10D JS QD KS AH",
        ],
        discard="5D KD",
        current=2,
        discarder=1,
        fresh=True,
        phase="draw",
        deal=1,
    )


def test_a_useless_buy_is_at_least_an_inaccuracy() -> None:
    """Buying the K♦ adds it and a penalty card to seat 0's hand: 10 points and a random card more to
    be caught with, two more cards to shed before going out, and no step towards the two sets."""
    game = useless_buy()
    legal = game.legal_actions(0)
    assert set(legal) == {Buy(0), Pass(0)}
    d = rate(decision(game, 0, Buy(0)), Budget(samples=CAP, seed=3))
    assert d.best == Pass(0) and worse_than(d.verdict, "inaccuracy"), (d.loss, d.loss_se, d.verdict)


def down_with_loose_cards() -> Game:
    """Deal 2. Seat 0 is down and has drawn; its three cards fit no meld on the table."""
    return position(
        LIVERPOOL,
        hands=[
            "KC 10C AD",
            "QS QD 8D 9D 7S KD KH 3D 2S 4S",
            "JH JD 4D 6S 8S 9H 3S KS QH 6D",
            "9S 7D 6H 8H JS QS 4D 3S KH JD",
        ],
        melds=[(0, "set", "5C 5D 5S"), (0, "run", "3H 4H 5H 6H")],
        down=[0],
        discard="8D",
        current=0,
        phase="play",
        deal=2,
    )


def test_a_hint_for_a_down_player_never_speaks_of_the_contract() -> None:
    """Seat 0 has laid its contract down: what it still lacks for it, or which cards make it, is no
    longer true of its hand. The reason speaks of what the discard does instead."""
    game = down_with_loose_cards()
    h = hint(game.view(0), game.legal_actions(0), Budget(samples=16, seed=4))
    assert isinstance(h.action, Discard)
    for word in ("contract", "short", "they make"):
        assert word not in h.reason, h.reason
    assert "fits no meld on the table" in h.reason


def ties() -> Game:
    """Deal 2. Seat 0 is down, has drawn, and holds 10♣ A♣, neither of which fits the table; no other
    hand holds a club, a ten or an ace, so neither discard helps anyone."""
    return position(
        LIVERPOOL,
        hands=[
            "10C AC",
            "QS QD 8D 9D 7S KD KH 3D 2S 4S",
            "JH JD 4D 6S 8S 9H 3S KS QH 6D",
            "9S 7D 6H 8H JS QS 4D 3S KH JD",
        ],
        melds=[(0, "set", "5C 5D 5S"), (0, "run", "3H 4H 5H 6H")],
        down=[0],
        discard="8D",
        current=0,
        phase="play",
        deal=2,
    )


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ties_are_broken_by_points(seed: int) -> None:
    """Whichever card seat 0 keeps, it goes out when it draws a card that fits or throws it: the two
    discards play out alike except for the card left in hand, and the ace (15 points) costs more
    than the ten (10) when someone else goes out first. The hint throws the ace on every seed."""
    game = ties()
    h = hint(game.view(0), game.legal_actions(0), Budget(samples=16, seed=seed))
    assert h.action == Discard(0, cards("AC")[0]), (h.action, h.reason)
    assert "more points out of your hand" in h.reason or "most you can throw" in h.reason

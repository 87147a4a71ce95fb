"""Driving a game with players: who is asked next, and a whole game played by bots.

Out of turn, after a discard, every other player who may buy or call is asked once (nearest
clockwise first) before the player to draw decides (with ``buy_window="until_discard"`` asked
again after a stock draw, before that player plays on); a bot answers with an action of its own seat,
``Pass`` included.

>>> from liverpool import Game
>>> from liverpool.bots import get
>>> game = Game.new(players=3, seed=5)
>>> play_game(game, [get("random", seed=i) for i in range(3)]).is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Protocol

from .actions import Action
from .game import DRAW, PLAY, Game

__all__ = ["Player", "next_to_act", "play_game"]


class Player(Protocol):
    def act(self, view: dict[str, object], legal: Sequence[Action]) -> Action: ...


_PLAYER = attrgetter("player")


def next_to_act(game: Game) -> tuple[int, list[Action]]:
    """The seat to ask now and its legal actions: in a draw phase the other players with a buy or
    call open (nearest clockwise first), then the player to draw; likewise in a play phase while
    the buy window is open after a stock draw (``buy_window="until_discard"``, R30)."""
    legal = game.legal_actions()  # a new list
    p = game.current
    phase = game.phase
    if phase != DRAW and not (game.fresh and phase == PLAY):
        # outside a draw phase only the current player acts, but for the buys of a window that
        # stays open after a stock draw (R30, buy_window "until_discard"): those are asked first
        return p, legal
    # A draw phase's listing holds the player to draw's actions first, then each other seat's
    # together (in seat order): the nearest seat's actions are one slice of it, found in C.
    seats = list(map(_PLAYER, legal))
    if seats[-1] != p:
        n = game.players
        for step in range(1, n):
            q = (p + step) % n
            if q in seats:
                start = seats.index(q)
                return q, legal[start : start + seats.count(q)]
    return p, legal  # no other seat has an action


def play_game(
    game: Game,
    players: Sequence[Player],
    on_action: Callable[[Game, Action], None] | None = None,
    max_actions: int = 1_000_000,
) -> Game:
    """Play ``game`` to its end, each seat's decisions made by ``players[seat]`` from its view."""
    if len(players) != game.players:
        raise ValueError(f"{len(players)} players for a table of {game.players}")
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat, legal = next_to_act(game)
        action = players[seat].act(game.view(seat), legal)
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    raise RuntimeError(f"game not over after {max_actions} actions")

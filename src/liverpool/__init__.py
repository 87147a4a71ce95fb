"""Liverpool Rummy and Contract Rummy: a rules engine with every house rule.

>>> from liverpool import Game, RuleSet
>>> game = Game.new(players=3, rules=RuleSet.preset("liverpool"), seed=1)
>>> game.deal, game.is_over
(1, False)
"""

from .actions import (
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
    action_from_dict,
    parse_action,
)
from .cards import JOKER, Card, format_cards, parse_card, parse_cards
from .errors import IllegalAction, MalformedAction, StaleAction
from .game import Game, TableMeld
from .rules import Contract, RuleSet

__all__ = [
    "JOKER",
    "Action",
    "Buy",
    "Call",
    "Card",
    "Contract",
    "Discard",
    "DrawDiscard",
    "DrawFromPile",
    "DrawStock",
    "EndTurn",
    "Game",
    "IllegalAction",
    "LayOff",
    "MalformedAction",
    "Meld",
    "Pass",
    "Retract",
    "RuleSet",
    "StaleAction",
    "SwapJoker",
    "TableMeld",
    "Unswap",
    "action_from_dict",
    "format_cards",
    "parse_action",
    "parse_card",
    "parse_cards",
]

__version__ = "0.1.0"

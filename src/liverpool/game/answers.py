"""What a seat's client would otherwise work out for itself, answered by the engine from the seat's
view alone: may it buy now and until when (R27-R31, R44), may a seat take the discard (R22),
which of its cards would be a playable discard (R32-R36), who takes a called card (R33, R34), and
the suggested lay-down (R10, R14, R48); and, for a client's own conveniences, does a card fit the
seat's contract (the server's "pass unless it fits"), would a joker swap let the seat go down (the
terminal's swap list, R20) and who would take a discard if it were called (the terminal's warning,
R32-R34). The browser (through the server's messages), the terminal,
the hints and the bots ask these instead of deciding the rules themselves.

The answers come from the engine's own rule functions (:class:`~liverpool.game.Game`'s
``may_buy``, ``may_take_discard``, ``is_playable_discard``...), asked of the game rebuilt from the
view (:meth:`~liverpool.game.Game.from_view`) with the cards the seat cannot see stood in for by
jokers: none of these rules reads a hidden card, so the seat's answers hold exactly, and nothing
beyond the view can leak into them. None of this is on the engine's hot paths: a client asks when
it shows a view.

>>> from liverpool.game import Game
>>> game = Game.new(players=3, seed=4)
>>> later = (game.current + 1) % 3  # not the player to draw nor the upcard's: may buy the upcard
>>> a = seat_answers(game.view(later))
>>> a["buy"]["may"], a["buy"]["until"]["seat"] == game.current, a["buy"]["until"]["event"]
(True, True, 'draw')
>>> a["take_discard"], a["playable_discards"], a["called_card_goes_to"], a["lay_down"]
([True, True, True], [], 'offender', None)

Tests: ``tests/engine/test_answers.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..actions import Meld, SwapJoker
from ..cards import JOKER, Card, card_names
from ..errors import IllegalAction
from ..rules import RuleSet
from ..solver import Left, cards_missing, contract_melds, solve
from .common import DRAW, PLAY
from .contracts import staged_left, staged_progress

if TYPE_CHECKING:
    from . import Game

__all__ = [
    "buy_answer",
    "called_card_goes_to",
    "card_fits",
    "discard_called",
    "lay_down_plan",
    "plan_melds",
    "playable_discards",
    "public_game",
    "seat_answers",
    "suggest_lay_down",
    "swap_lets_go_down",
]


def called_card_goes_to(rules: RuleSet) -> str | None:
    """R33, R34: who takes a called playable discard: ``"offender"`` (``playable_discard="call"``:
    the discarder takes it back with a penalty card), ``"caller"`` (``"liverpool"``: the first down
    player to call takes it and discards), or None (no call: "strict" refuses such a discard, "off"
    allows it).

    >>> called_card_goes_to(RuleSet()), called_card_goes_to(RuleSet(playable_discard="liverpool"))
    ('offender', 'caller')
    """
    return {"call": "offender", "liverpool": "caller"}.get(rules.playable_discard)


def plan_melds(
    player: int,
    hand: Sequence[Card],
    sets: int,
    runs: int,
    whole_hand: bool,
    rules: RuleSet,
    staged: Sequence[tuple[str, Sequence[Card]]],
    must_meld: Card | None,
    left: Left | None,
) -> list[Meld] | None:
    """The solver's best way to lay the rest of a contract of ``sets`` sets and ``runs`` runs
    (``whole_hand``: R15) from ``hand``, as Meld actions of ``player`` (a set's cards in card
    order, a run's in run order): less the melds ``staged`` this turn as the engine counts them
    (sets, runs, their ranks and suits: :func:`~liverpool.game.contracts.staged_progress`; R10,
    R14, R17), with ``must_meld``, the pile card to meld, unless a staged meld holds it (R22), and
    ``left``, the groups left of a contract with lengths of its own (R48,
    :func:`~liverpool.game.contracts.staged_left`). None when the hand holds none. From plain
    data, so that a bot reading its view asks it as :func:`lay_down_plan` does of a game: the
    one home of the plan (the greedy bot's melds, the RL environment's ``lay_down_best``, the
    suggestion)."""
    done_sets, done_runs, ranks, suits = staged_progress(staged, rules)
    must = must_meld
    if must is not None and any(must in cs for _, cs in staged):
        must = None
    try:
        best = solve(
            hand,
            sets - done_sets,
            runs - done_runs,
            rules,
            whole_hand=whole_hand,
            must_use=must,
            used_set_ranks=ranks,
            used_run_suits=suits,
            left=left,
        )
    except ValueError:
        return None
    if not best:
        return None
    left_sets = sets - done_sets if left is None else len(left.sets)
    return [
        Meld(player, "set", tuple(sorted(cs))) if i < left_sets else Meld(player, "run", tuple(cs))
        for i, cs in enumerate(best)
    ]


def lay_down_plan(game: Game, player: int) -> list[Meld] | None:
    """:func:`plan_melds` of ``player``'s contract (their level's with ``progression="player"``)
    in ``game``: the whole contract when nothing is staged, else what the melds staged this turn
    leave (``game/contracts.py``); None when the staged melds fit no group of the contract or the
    hand holds no plan. Not checked by the engine here: :func:`suggest_lay_down` checks it; the RL
    environment's ``lay_down_best`` macro offers it when its first meld is listed."""
    contract = game.contract_of(player)
    left = staged_left(game, contract)
    if isinstance(left, str):
        return None
    staged = game.staged()
    return plan_melds(
        player,
        game.hands[player],
        contract.sets,
        contract.runs,
        contract.whole_hand,
        game.rules,
        staged,
        game.must_meld,
        left,
    )


def suggest_lay_down(game: Game, player: int) -> list[Meld] | None:
    """:func:`lay_down_plan` of ``player``'s whole contract, each meld checked by the engine in
    turn on a copy (R10, R14, R42, R48 and every meld option; a meld it refuses is replaced by the
    listed meld of the same cards); None when the hand holds no lay-down, when ``player`` is down
    already, has begun one or it is not their turn to play. The one home of the suggestion: the
    terminal's [f], the browser's "Suggest lay-down" (through :func:`seat_answers`) ask it.

    (``tests/engine/test_answers.py`` checks it under every preset.)
    """
    if game.down[player] or game.current != player or game.phase != PLAY or game.pending:
        return None
    plan = lay_down_plan(game, player)
    if plan is None:
        return None
    trial = game.copy()
    out: list[Meld] = []
    for meld in plan:
        try:
            trial.apply(meld)
        except IllegalAction:
            key = sorted(meld.cards)
            listed = [
                a
                for a in trial.legal_actions(player)
                if isinstance(a, Meld) and a.kind == meld.kind and sorted(a.cards) == key
            ]
            if not listed:
                return None
            meld = listed[0]
            trial.apply(meld)
        out.append(meld)
    return out


def public_game(view: dict[str, Any]) -> Game:
    """The game of ``view`` with every card its seat cannot see (other hands, the stock) stood in
    for by a joker: what the rule answers below are asked of. No rule they ask reads a hidden card.
    Not for play: its hidden cards are not the game's."""
    from . import Game

    me = int(view["player"])
    sizes = view["hand_sizes"]
    hidden: dict[int, Sequence[Card]] = {p: [JOKER] * int(sizes[p]) for p in range(int(view["players"])) if p != me}
    return Game.from_view(view, hidden, [JOKER] * int(view["stock_size"]))


def buy_answer(game: Game, player: int) -> dict[str, Any] | None:
    """R27-R31, R44: None when no buy window is open; else ``may`` (may ``player`` ask to buy the
    top discard now), ``why_not`` (the engine's reason when not) and ``until``: the ``seat`` whose
    ``event``, "draw" or "discard" as ``buy_window`` says (R30), closes the window."""
    if not (game.phase == DRAW or game.phase == PLAY) or not game._buy_window_open():
        return None
    problem = None if game.may_buy(player) else game._buy_problem(player) or "you have passed on this discard (R27)"
    event = "discard" if game.rules.buys_after_draw else "draw"
    return {"may": problem is None, "why_not": problem, "until": {"seat": game.current, "event": event}}


def playable_discards(game: Game, player: int) -> list[Card]:
    """R32-R36: the cards of ``player``'s hand that, discarded now, would be playable discards,
    called (R33, R34) or refused (R36); never the last card (R35); none under "off"."""
    hand = game.hands[player]
    if game.rules.playable_discard == "off" or len(hand) <= 1 or not game.down[player]:
        return []
    return [c for c in sorted(set(hand)) if game.is_playable_discard(player, c)]


def seat_answers(view: dict[str, Any]) -> dict[str, Any]:
    """The rule answers for the seat of ``view`` (``view["player"]``), as JSON-serializable data,
    asked of :func:`public_game`: ``buy`` (:func:`buy_answer`), ``take_discard`` (for every seat,
    may it draw from the discard pile at all: R22, ``down_may_take_discard``),
    ``playable_discards`` (:func:`playable_discards`), ``called_card_goes_to``
    (:func:`called_card_goes_to`) and ``lay_down`` (:func:`suggest_lay_down` as ``{"kind",
    "cards"}`` melds, in the seat's own turn to play only; else None).
    """
    me = int(view["player"])
    game = public_game(view)
    buy = buy_answer(game, me) if view["buy_window"] else None
    melds = suggest_lay_down(game, me)
    return {
        "buy": buy,
        "take_discard": [game.may_take_discard(p) for p in range(game.n)],
        "playable_discards": card_names(playable_discards(game, me)),
        "called_card_goes_to": called_card_goes_to(game.rules),
        "lay_down": None if melds is None else [{"kind": m.kind, "cards": card_names(m.cards)} for m in melds],
    }


def discard_called(game: Game, player: int, card: Card) -> str | None:
    """R32-R34: who would take ``card`` if ``player`` discarded it now and it were called: as
    :func:`called_card_goes_to` says when it is one of :func:`playable_discards` (``"offender"``:
    ``player`` takes it back with a penalty card; ``"caller"``: a down player who calls it), else
    None (not a playable discard, or no call under this ``playable_discard``). The terminal's
    "Careful: ... press x again" warning asks it."""
    goes = called_card_goes_to(game.rules)
    if goes is None or card not in playable_discards(game, player):
        return None
    return goes


def card_fits(game: Game, player: int, card: Card) -> bool:
    """Does ``card`` help ``player``'s contract? True for a wild card (R46); for a player who is down,
    when it goes on a meld of the table (:meth:`~liverpool.game.Game.layoff_spot`, R24); else when
    it lowers the cards the hand misses for the player's contract
    (:func:`liverpool.solver.cards_missing`, R10, R48). The server's "pass unless it fits" buy
    choice (``server/pacing.py``) asks it, of the seat's :func:`public_game`."""
    if game.rules.is_wild(card.rank):
        return True
    if game.down[player]:
        return game.layoff_spot(card) is not None
    hand = game.hands[player]
    contract = game.contract_of(player)
    return cards_missing([*hand, card], contract, game.rules) < cards_missing(hand, contract, game.rules)


def swap_lets_go_down(game: Game, player: int, swap: SwapJoker) -> bool:
    """R20: is ``swap`` worth offering ``player``? True when they are down already, when a swapped
    joker need not be played this turn (``swap_must_play`` off), or when the hand after the swap
    (its card given, the meld's wild card taken) lays their contract (:func:`contract_melds`, as
    :func:`suggest_lay_down` asks it); False when the wild card could only be handed back. A swap
    the engine would refuse is not judged here (True: listing and checking decide). The terminal's
    swap list asks it."""
    rules = game.rules
    if game.down[player] or not rules.swap_must_play:
        return True
    meld = next((m for m in game.melds if m.id == swap.meld), None)
    hand = list(game.hands[player])
    if meld is None or not 0 <= swap.index < len(meld.cards) or swap.card not in hand:
        return True
    hand.remove(swap.card)
    hand.append(meld.cards[swap.index])
    return contract_melds(hand, game.contract_of(player), rules) is not None

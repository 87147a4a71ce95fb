"""``liverpool_v0``: Liverpool Rummy / Contract Rummy as a PettingZoo AEC environment.

>>> from liverpool.env import liverpool_v0
>>> env = liverpool_v0.env(players=3, rules="contract")
>>> env.reset(seed=1)
>>> obs, reward, term, trunc, info = env.last()
>>> obs["observation"].shape == env.observation_space(env.agent_selection)["observation"].shape
True
>>> int(obs["action_mask"].sum()) >= 1
True

The environment is a client of the engine: the legal actions are ``game.legal_actions()`` (through
:func:`liverpool.driver.next_to_act`, which also decides who is asked next, out-of-turn buys,
calls and passes included); each legal engine action has one index (``docs/rl.md``), and an index
maps back to the engine action listed for it. The observation of a seat is built from
``game.view(seat)`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

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
from ..cards import format_cards
from ..driver import next_to_act
from ..game import Game
from ..game.answers import lay_down_plan
from ..rules import RuleSet
from .choices import Indexer
from .encoder import Encoder
from .layout import CARD_TYPE, TYPE_NAME, layouts_for, obs_scale

__all__ = ["LiverpoolAEC", "env", "raw_env"]

_BEST = "best"
_CLEAR = "clear"


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The environment wrapped as PettingZoo's classic games are (order enforcing)."""
    return _OrderEnforcing(raw_env(**kwargs))


class _OrderEnforcingIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the wrapped environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection  # type: ignore[no-any-return]


class _OrderEnforcingIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, whose hot calls (``last``,
    ``step``, ``observe``, ``agent_iter``) reach the wrapped environment directly instead of
    through the wrapper's ``__getattr__`` for every attribute."""

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | np.integer[Any] | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper prints: the environment's name

    def agent_iter(self, max_iter: int = 2**63) -> _OrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)


def _rules_of(rules: str | RuleSet) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return RuleSet.preset(rules)
    raise TypeError(f"rules must be a preset name or a RuleSet, got {rules!r}")


class LiverpoolAEC(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The AEC environment. Arguments: ``players`` (as the rules allow: 2-8 under the presets, up
    to 16 with ``max_players``; the spaces' shapes follow), ``rules`` (a preset
    name or a :class:`RuleSet`), ``render_mode`` (None, "human" or "ansi"), ``reward`` ("score":
    minus each deal's points at its end; "placement": only at the game's end, see ``docs/rl.md``),
    ``observation`` ("scaled", the default: every value scaled by the rules' bounds, scores through
    tanh, so that values are mostly within [0, 1] and the Box's bounds are exact; "raw": counts,
    points and sizes as they are, with their rule-derived bounds).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "liverpool_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: str | RuleSet = "liverpool",
        render_mode: str | None = None,
        reward: str = "score",
        observation: str = "scaled",
    ) -> None:
        super().__init__()
        self.rules = _rules_of(rules)
        self.rules.check_table(players)
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        if reward not in ("score", "placement"):
            raise ValueError(f"reward must be 'score' or 'placement', got {reward!r}")
        if observation not in ("scaled", "raw"):
            raise ValueError(f"observation must be 'scaled' or 'raw', got {observation!r}")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.observation_mode = observation
        self.n = players
        self.action_layout, self.obs_layout = layouts_for(players, self.rules)
        alay, olay = self.action_layout, self.obs_layout
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        self.obs_scale = scaling = obs_scale(olay, self.rules)
        self._scaled = observation == "scaled"
        low, high = (scaling.low, scaling.high) if self._scaled else (scaling.raw_low, scaling.raw_high)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(alay.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(alay.size) for a in self.possible_agents}
        # index bases, looked up once
        r = alay.ranges
        self._i_pile = r["draw_pile"][0] - 1  # + depth
        self._i_discard = r["discard"][0]
        self._i_pick = r["meld_pick"][0]
        self._i_commit = r["meld_commit"][0]
        self._i_layoff = r["lay_off"][0]
        self._i_swap = r["swap"][0]
        self._slots = alay.meld_slots
        self._run_slots = alay.run_slots
        self._singles: dict[type, int] = {
            DrawStock: r["draw_stock"][0],
            DrawDiscard: r["draw_discard"][0],
            Buy: r["buy"][0],
            Pass: r["pass"][0],
            Call: r["call"][0],
            Unswap: r["unswap"][0],
            EndTurn: r["end_turn"][0],
            Retract: r["retract"][0],
        }
        self._indexer = Indexer(
            self._singles,
            self._i_discard,
            self._i_layoff,
            self._i_swap,
            self._i_pile,
            self._slots,
            self._run_slots,
            alay.size,
            self._i_pick,
            self._i_commit,
            alay.max_variants,
        )
        """The index of each legal engine action and the mask (``choices.py``, compiled in ``make fast``)."""
        self._n_actions = alay.size
        self._i_best = r["lay_down_best"][0]
        self._i_clear = r["meld_clear"][0]
        self._ntypes = olay.types
        self._encoder = Encoder(players, olay, scaling)
        """The observation encoder (``encoder.py``, compiled in ``make fast``)."""
        self.game: Game | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.game = Game.new(players=self.n, rules=self.rules, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scored = [0] * self.n
        self._deal = self.game.deal
        self._picked: list[int] = []
        self._closed = False
        self._rewarded = False
        self._encoder.reset()
        self._obs_cache: dict[int, tuple[int, int, np.ndarray]] = {}
        self._stamp = 0  # bumped by every env step (builder steps change no game version)
        self._seat = -1
        self._legal: list[Action] = []
        self._choice: dict[int, Any] = {}
        self.macro_fallbacks = 0
        """Times ``lay_down_best`` found the solver's first meld unlisted and laid the first listed
        meld instead (tests check it stays 0)."""
        self._mask = np.zeros(self.action_layout.size, np.int8)
        self._no_mask = np.zeros(self.action_layout.size, np.int8)
        self._next()

    # ------------------------------------------------------------------ actions
    def action_index(self, action: Action) -> int:
        """The index of an engine action (a :class:`Meld` has none: melds are laid through
        ``lay_down_best`` or ``meld_pick``/``meld_commit``)."""
        single = self._singles.get(type(action))
        if single is not None:
            return single
        if isinstance(action, Discard):
            return self._i_discard + CARD_TYPE[action.card]
        if isinstance(action, LayOff):
            if not 0 <= action.meld < self._slots:
                raise ValueError(f"meld id {action.meld} outside the {self._slots} meld slots")
            return self._i_layoff + (CARD_TYPE[action.card] * self._slots + action.meld) * 2 + action.high
        if isinstance(action, SwapJoker):
            if not 0 <= action.meld < self._slots or not 0 <= action.index < self._run_slots:
                raise ValueError(f"swap {action} outside the meld/run slots")
            return self._i_swap + action.meld * self._run_slots + action.index
        if isinstance(action, DrawFromPile):
            return self._i_pile + action.depth
        raise ValueError(f"no single index for {action}")

    def legal_engine_actions(self) -> dict[int, Any]:
        """Index -> what it does now for the seat to act: an engine action, or the builder's
        ("pick", type) / ("commit", Meld) / "clear" / the "best" macro (a list of Melds)."""
        return dict(self._choice)

    def _next(self) -> None:
        """Find who acts and the mask of their legal actions."""
        game = self.game
        assert game is not None
        self._stamp += 1
        if game.is_over:
            self._seat = -1
            self._legal = []
            self._choice = {}
            self._mask = self._no_mask
            return
        seat, legal = next_to_act(game)
        self._seat = seat
        self._legal = legal
        choice: dict[int, Any] = {}
        melds: list[Meld] = []
        picked = self._picked
        if not picked:
            self._indexer.choices(legal, choice, melds)
        else:
            melds = [a for a in legal if isinstance(a, Meld)]
            choice[self._i_clear] = _CLEAR
        if melds:
            self._meld_choices(seat, melds, choice)
        self._choice = choice
        self._mask = self._indexer.mask(choice)
        self.agent_selection = self.possible_agents[seat]

    def _meld_choices(self, seat: int, melds: list[Meld], choice: dict[int, Any]) -> None:
        """The builder (pick card types, then commit one of the listed melds made of exactly the
        picked cards) and the ``lay_down_best`` macro."""
        picked = self._picked
        pick = self._i_pick
        if not picked:
            if not self._closed:
                for t in {CARD_TYPE[c] for m in melds for c in m.cards}:
                    choice[pick + t] = ("pick", t)
            # The engine lists the melds of the solver's best completion whenever it lists melds
            # that are sure to complete (no R16 penalty): the macro is then open, worked out when
            # taken. With the penalty, a listed meld may not complete: the solver is asked now.
            if not self.rules.failed_meld_penalty:
                choice[self._i_best] = (_BEST, None)
            else:
                best = self._best_completion(seat, melds)
                if best is not None:
                    choice[self._i_best] = (_BEST, best)
            return
        self._indexer.builder(melds, picked, choice)

    def _best_completion(self, seat: int, melds: list[Meld]) -> list[Meld] | None:
        """The solver's best way to lay the rest of the contract (the engine's
        :func:`~liverpool.game.answers.lay_down_plan`), if its first meld is listed."""
        assert self.game is not None
        plan = lay_down_plan(self.game, seat)
        return plan if plan is not None and plan[0] in melds else None

    # ------------------------------------------------------------------ step
    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        idx = int(action)
        what = self._choice.get(idx)
        if what is None:
            legal = sorted(self._choice)
            raise ValueError(
                f"illegal action {idx} ({self.describe_action(idx)}) for {agent}; legal indices: {legal[:40]}"
                + (" ..." if len(legal) > 40 else "")
            )
        game = self.game
        assert game is not None
        self._cumulative_rewards[agent] = 0.0
        if isinstance(what, Action):
            self._apply([what])
        elif what == _CLEAR:
            self._picked = []
            self._closed = True  # no picks again before an engine action: no endless pick/clear loop
            self._settle(False)
        elif what[0] == "pick":
            self._picked.append(what[1])
            self._settle(False)
        elif what[0] == "commit":
            self._apply([what[1]])
        else:  # the macro: the solver's best completion, meld by meld
            plan = what[1]
            if plan is None:
                melds = [a for a in self._legal if isinstance(a, Meld)]
                plan = self._best_completion(self._seat, melds)
                if plan is None:  # not known to happen: the engine lists the best completion's melds
                    self.macro_fallbacks += 1
                    plan = melds[:1]
            self._apply(plan)
        if self.render_mode == "human":
            self.render()

    def apply_engine_action(self, action: Action) -> None:
        """Apply one engine action of the seat to act (as a bot chose it); the game verifies it."""
        if self.game is None or self.game.is_over:
            raise ValueError("the game is over (or not started): reset first")
        if action.player != self._seat:
            raise ValueError(f"{action} is not from seat {self._seat}, the seat to act")
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._apply([action])

    def _apply(self, actions: Sequence[Action]) -> None:
        game = self.game
        assert game is not None
        game.apply(actions[0])
        for a in actions[1:]:
            if game.is_over or not game.can_apply(a):
                break
            game.apply(a)
        self._picked = []
        self._closed = False
        self._settle(True)

    def _settle(self, played: bool) -> None:
        """Rewards of the step just taken, the end of the game, the next seat to act."""
        game = self.game
        assert game is not None
        if not (played and (game.deal != self._deal or game.is_over)):
            # the common case: no reward, the game goes on
            if self._rewarded:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = False
            self._next()
            return
        self._rewarded = True
        rewards = dict.fromkeys(self.agents, 0.0)
        self._deal = game.deal
        totals = game.scores
        if self.reward_mode == "score":
            for p, agent in enumerate(self.possible_agents):
                rewards[agent] = float(self._scored[p] - totals[p])
            self._scored = list(totals)
        elif game.is_over:
            n = self.n
            for p, agent in enumerate(self.possible_agents):
                better = sum(1 for q in range(n) if totals[q] < totals[p])
                worse = sum(1 for q in range(n) if totals[q] > totals[p])
                rewards[agent] = (worse - better) / (n - 1) if n > 1 else 0.0
        self.rewards = rewards
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            for agent in self.agents:
                self.infos[agent] = {"scores": game.scores, "winners": game.winners}
            self._next()
            self._accumulate_rewards()
            return
        self._next()
        self._accumulate_rewards()

    # ------------------------------------------------------------------ observations
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self._agent_index[agent]
        game = self.game
        assert game is not None
        cached = self._obs_cache.get(p)
        if cached is not None and cached[0] == self._stamp:
            obs = cached[2]
        else:
            obs = self.encode(game.view(p), self._picked if p == self._seat else ())
            self._obs_cache[p] = (self._stamp, 0, obs)
        mask = self._mask if p == self._seat else self._no_mask
        return {"observation": self._encoder.scaled(obs) if self._scaled else obs.copy(), "action_mask": mask.copy()}

    def scaled(self, raw: np.ndarray) -> np.ndarray:
        """The scaled observation of a raw one (``encode``'s): a new array."""
        return self._encoder.scaled(raw)

    def encode(self, view: dict[str, Any], picked: Sequence[int] = ()) -> np.ndarray:
        """The observation vector of one seat's view (layout in ``docs/rl.md``): the encoder's
        (:class:`~liverpool.env.encoder.Encoder`), which keeps the parts that change rarely
        between calls of a game."""
        return self._encoder.encode(view, picked)

    # ------------------------------------------------------------------ text
    def describe_action(self, index: int) -> str:
        """What an index means in this layout (whether or not it is legal now)."""
        if not 0 <= index < self.action_layout.size:
            return "out of range"
        for name, (a, b) in self.action_layout.ranges.items():
            if a <= index < b:
                k = index - a
                if name == "draw_pile":
                    return f"draw_pile depth {k + 1}"
                if name in ("discard", "meld_pick"):
                    return f"{name} {TYPE_NAME[k]}"
                if name == "meld_commit":
                    return f"meld_commit variant {k}"
                if name == "lay_off":
                    t, rest = divmod(k, self._slots * 2)
                    meld, high = divmod(rest, 2)
                    return f"lay_off {TYPE_NAME[t]} on meld {meld} {'high' if high else 'low'}"
                if name == "swap":
                    meld, place = divmod(k, self._run_slots)
                    return f"swap meld {meld} place {place}"
                return name
        return "out of range"

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        seat = self._seat if self._seat >= 0 else 0
        view = game.view(seat)
        lines = [
            f"deal {view['deal']}/{view['deals']} ({view['contract']['text']}), phase {view['phase']}, "
            f"seat {seat} to act, scores {view['scores']}",
            f"pile top: {view['discard_pile'][-1] if view['discard_pile'] else '-'}  stock: {view['stock_size']}",
            f"hand sizes: {view['hand_sizes']}  down: {view['down']}",
        ]
        lines += [f"meld {m['id']} (seat {m['owner']} {m['kind']}): {' '.join(m['cards'])}" for m in view["melds"]]
        if not game.is_over:
            lines.append(f"seat {seat} hand: {format_cards(game.hand(seat))}")
            lines.append("legal: " + ", ".join(f"{i}={self.describe_action(i)}" for i in sorted(self._choice)[:20]))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


raw_env = LiverpoolAEC

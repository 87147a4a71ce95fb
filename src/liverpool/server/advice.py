"""Bot moves, hints, reviews and replays for the server, computed in worker processes so the
event loop is never blocked (``loop.run_in_executor`` on a :class:`Workers` pool).

The functions run in the worker: they take and return plain data (a record, a view, actions)
and are deterministic for a given budget (the sample count and the seed), so a review read from
the store equals a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from ..actions import Action, action_from_dict
from ..analysis import Budget, explain, hint, review
from ..bots import Bot, EasyBot, GreedyBot, RandomBot
from ..describe import worded
from ..game import Game
from ..rules import RuleSet
from .names import seat_name

__all__ = [
    "Workers",
    "bot_act",
    "hint_answer",
    "json_bytes",
    "plays_in_process",
    "rebuild_game",
    "record_bytes",
    "record_of",
    "replay_bytes",
    "review_answer",
]

T = TypeVar("T")


def review_answer(record: dict[str, Any], seat: int, samples: int, seed: int, jobs: int = 1) -> dict[str, Any]:
    """``review(record, seat, Budget(samples, seed)).to_dict()`` and, by the record's action index,
    the reasons the best action was better at the three costliest decisions. ``jobs``: processes
    the review is split over (the result does not depend on it)."""
    rev = review(record, seat, Budget(samples=samples, seed=seed), jobs=jobs)
    out = rev.to_dict()
    out["reasons"] = {str(i): text for i, text in explain(record, rev.costliest()).items()}
    return out


def hint_answer(
    view: dict[str, Any], legal: Sequence[Action], samples: int, seed: int, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The hint for the seat of ``view`` among ``legal`` (its own legal list): the index of the
    suggested action in ``legal``, the reason (naming the seats by ``names``, the table's), and the
    cards it plays (to highlight)."""
    found = hint(view, legal, Budget(samples=samples, seed=seed), names=names)
    data = found.to_dict()
    return {"index": list(legal).index(found.action), "text": found.reason, "cards": data.get("cards", [])}


QUICK_BOTS: tuple[type[Bot], ...] = (RandomBot, GreedyBot, EasyBot)
"""Bots whose decisions take well under a millisecond (``easy``, ``medium``, ``random``): sending
one to a worker process would cost more than the move (a round trip of 1 to 10 ms on a busy
2-core machine) and they hold the interpreter lock for no longer than the loop's own steps, so
they play in a thread. Every other bot (``hard``, which thinks for seconds; any bot of a plugin)
plays in a worker process."""


def plays_in_process(bot: Bot) -> bool:
    """True when ``bot``'s moves are made in a worker process (see :data:`QUICK_BOTS`).

    >>> from liverpool.bots import get
    >>> plays_in_process(get("medium")), plays_in_process(get("hard"))
    (False, True)
    """
    return type(bot) not in QUICK_BOTS


def bot_act(bot: Bot, view: dict[str, Any], legal: Sequence[Action]) -> tuple[Action, Bot]:
    """``bot.act(view, legal)`` in a worker: the action and the bot after it (its random state
    moved on), which the table keeps for the seat's next move, so the moves are those the bot
    would make in the server's own process."""
    return bot.act(view, legal), bot


def record_of(
    table_id: str, row: dict[str, Any], seat_rows: Sequence[dict[str, Any]], actions: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The full record of a finished game from the store's rows: the engine's record, names,
    final scores, every public event and each deal's hands as dealt (the game replayed)."""
    game = Game.new(players=row["players"], rules=RuleSet.from_dict(row["rules"]), seed=row["seed"])
    deals = [{"deal": game.deal, "hands": [[str(c) for c in game.hand(p)] for p in range(game.players)]}]
    for data in actions:
        game.apply(action_from_dict(data))
        if not game.is_over and game.deal != deals[-1]["deal"]:
            deals.append({"deal": game.deal, "hands": [[str(c) for c in game.hand(p)] for p in range(game.players)]})
    record = game.record()
    names = [seat_name(s["seat"], s["name"], s["kind"], s["bot"]) for s in seat_rows]
    return record | {
        "table_id": table_id,
        "names": names,
        "seats": [
            {"seat": s["seat"], "name": names[i], "kind": s["kind"], "bot": s["bot"]} for i, s in enumerate(seat_rows)
        ],
        "scores": game.scores,
        "winners": game.winners,
        "deals": deals,
        "events": worded(game.events),  # each with its words, as the states send them
    }


def rebuild_game(record: dict[str, Any]) -> Game:
    """``Game.from_record(record)`` (in a worker: the game replayed there, sent back pickled,
    which costs the loop a tenth of the replay)."""
    return Game.from_record(record)


def json_bytes(data: Any) -> bytes:
    """JSON as the server's responses encode it (Starlette's ``JSONResponse.render``)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def record_bytes(
    table_id: str, row: dict[str, Any], seat_rows: Sequence[dict[str, Any]], actions: Sequence[dict[str, Any]]
) -> bytes:
    """The JSON of ``GET /api/tables/{id}/record`` (in a worker: rebuilt and encoded there)."""
    return json_bytes(record_of(table_id, row, seat_rows, actions))


def replay_bytes(
    table_id: str, row: dict[str, Any], seat_rows: Sequence[dict[str, Any]], actions: Sequence[dict[str, Any]]
) -> bytes:
    """The JSON of ``GET /api/tables/{id}/replay``: the game as frames (``replay_frames``)."""
    from ..web.replay import replay_frames

    return json_bytes({"frames": replay_frames(record_of(table_id, row, seat_rows, actions))})


def _ready() -> bool:
    return True


PARENT_POLL = 1.0  # seconds between a worker's looks at its parent
CLOSE_GRACE = 1.0  # seconds a worker of a closed pool has to end its job before it is terminated


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile: a worker process started now (``spawn``) inherits
    the blocked signal, so a Ctrl-C while it starts stays pending until its initializer ignores it
    (:func:`_watch_parent`); a Ctrl-C for this process is delivered once it is unblocked."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _watch_parent(parent: int) -> None:
    """A worker's initializer: SIGINT ignored (Ctrl-C goes to the whole process group: the server
    stops its workers itself, so a worker neither dies in the middle of a job nor prints a
    traceback), then unblocked (it was blocked while the worker started: :func:`_sigint_blocked`);
    and a daemon thread that ends the worker (and the processes it started, e.g. a review's own
    pool) once the server that started it is gone, even by ``kill -9``: a pool's workers otherwise
    wait on their job queue for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        for child in multiprocessing.active_children():
            child.kill()
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class Workers:
    """A lazily started process pool of ``size`` workers (``spawn``: no fork of a process that
    runs threads). ``size`` 0 runs the jobs in a thread of this process instead (off the event
    loop, but sharing its interpreter)."""

    def __init__(self, size: int, name: str) -> None:
        self.size = size
        self.name = name
        self._pool: Executor | None = None

    def _executor(self) -> Executor | None:
        if self.size <= 0:
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; the event loop goes on meanwhile. A pool whose worker died
        is dropped (the job fails; the next one starts a new pool)."""
        pool = self._executor()
        try:
            with _sigint_blocked():  # (a worker process may start now)
                running = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            return await running
        except BrokenExecutor:
            if self._pool is pool and pool is not None:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def warm(self) -> None:
        """Start a worker now (a process takes a second or more to start and import the
        analysis), so the first job need not wait for it."""
        pool = self._executor()
        if pool is not None:
            with _sigint_blocked():
                pool.submit(_ready)

    def close(self) -> None:
        """Stop the pool without waiting for a running job: the workers ignore SIGINT (Ctrl-C is
        the server's to handle), and concurrent.futures would otherwise join them at interpreter
        exit, holding a stopped server until a long job (a review, a hard bot's move) ends. A
        worker gets :data:`CLOSE_GRACE` seconds to finish, then is terminated, then killed."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + CLOSE_GRACE
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join(CLOSE_GRACE)
            if process.is_alive():
                process.kill()
                process.join(CLOSE_GRACE)

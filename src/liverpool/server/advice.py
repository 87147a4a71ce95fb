"""Hints and reviews for the server, computed in worker processes so the event loop is never
blocked (``loop.run_in_executor`` on a :class:`Workers` pool).

The functions run in the worker: they take and return plain data (a record, a view, actions)
and are deterministic for a given budget (the sample count and the seed), so a review read from
the store equals a fresh one.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from ..actions import Action
from ..analysis import Budget, explain, hint, review

__all__ = ["Workers", "hint_answer", "review_answer"]

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


def _ready() -> bool:
    return True


PARENT_POLL = 1.0  # seconds between a worker's looks at its parent


def _watch_parent(parent: int) -> None:
    """A worker's initializer: a daemon thread that ends the worker (and the processes it started,
    e.g. a review's own pool) once the server that started it is gone, even by ``kill -9``:
    a pool's workers otherwise wait on their job queue for ever."""

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
        """``fn(*args)`` in a worker; the event loop goes on meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self._executor(), fn, *args)

    def warm(self) -> None:
        """Start a worker now (a process takes a second or more to start and import the
        analysis), so the first job need not wait for it."""
        pool = self._executor()
        if pool is not None:
            pool.submit(_ready)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

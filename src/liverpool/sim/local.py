"""The local backend: games played in this process (one job) or in a pool of processes."""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager

from .games import GameResult, GameSpec, play_one

__all__ = ["local_results"]


def _context() -> multiprocessing.context.BaseContext:
    # fork on Linux: workers start at once, inherit bots registered at run time, and need no
    # ``if __name__ == "__main__"`` guard; they are forked before the progress bar's thread starts
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()  # pragma: no cover - spawn elsewhere


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group: the workers leave it to the parent,
    # which stops them (no traceback from each worker)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def local_results(specs: Sequence[GameSpec], jobs: int) -> Iterator[Iterator[GameResult]]:
    """Start playing ``specs`` in ``jobs`` processes; yields an iterator of their results as each
    game ends (in any order). With one job, games are played in this process as it is iterated.
    When the caller stops early (Ctrl-C, an error), the workers are terminated at once."""
    if jobs <= 1 or len(specs) <= 1:
        yield (play_one(spec) for spec in specs)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(specs)), mp_context=_context(), initializer=_ignore_sigint)
    try:
        futures = [pool.submit(play_one, spec) for spec in specs]
        yield (future.result() for future in as_completed(futures))
    except BaseException:
        # a game in progress is not waited for: its worker is stopped (the pool keeps its
        # processes in ``_processes``; without it, shutdown still cancels the games not begun)
        workers = dict(getattr(pool, "_processes", None) or {})
        for process in workers.values():
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)

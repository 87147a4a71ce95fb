"""The local backend: games played in this process (one job) or in a pool of processes."""

from __future__ import annotations

import multiprocessing
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


@contextmanager
def local_results(specs: Sequence[GameSpec], jobs: int) -> Iterator[Iterator[GameResult]]:
    """Start playing ``specs`` in ``jobs`` processes; yields an iterator of their results as each
    game ends (in any order). With one job, games are played in this process as it is iterated."""
    if jobs <= 1 or len(specs) <= 1:
        yield (play_one(spec) for spec in specs)
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(specs)), mp_context=_context())
    try:
        futures = [pool.submit(play_one, spec) for spec in specs]
        yield (future.result() for future in as_completed(futures))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)

"""Play a list of games on a backend, with an optional rich progress bar; results in game order."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from .games import GameResult, GameSpec

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["BACKENDS", "Interrupted", "Stopped", "record_path", "run_games", "write_record"]

BACKENDS = ("local", "ray")


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while games were played: ``results`` holds the games finished so far (in spec order)
    of ``total``; callers may attach a ``summary`` of them (e.g. a tournament's statistics)."""

    def __init__(self, results: list[GameResult], total: int) -> None:
        super().__init__(f"interrupted after {len(results)} of {total} games")
        self.results = results
        self.total = total
        self.summary: object | None = None


class Stopped(RuntimeError):
    """The run had to stop (a game raised, Ray lost a batch beyond its retries or its cluster):
    ``results`` holds the games finished so far (in spec order) of ``total``, ``__cause__`` the
    error; callers may attach a ``summary`` of them, as for :class:`Interrupted`."""

    def __init__(self, results: list[GameResult], total: int, cause: BaseException) -> None:
        super().__init__(f"stopped after {len(results)} of {total} games: {type(cause).__name__}: {cause}")
        self.results = results
        self.total = total
        self.summary: object | None = None


def record_path(directory: str | os.PathLike[str], index: int) -> Path:
    """Where ``--records`` keeps game ``index``: ``DIR/game-000123.json``."""
    return Path(directory) / f"game-{index:06d}.json"


def write_record(directory: str | os.PathLike[str], result: GameResult) -> Path:
    """Write ``result``'s record file (:meth:`GameResult.record_file`) into ``directory`` at once,
    atomically (a file is whole or absent, even when the run stops)."""
    path = record_path(directory, result.index)
    partial = path.with_suffix(".json.part")
    partial.write_text(json.dumps(result.record_file(), separators=(",", ":")) + "\n")
    partial.replace(path)
    return path


def _backend(
    specs: Sequence[GameSpec], jobs: int, backend: str, address: str | None
) -> AbstractContextManager[Iterator[GameResult]]:
    if backend == "ray":
        from .ray_backend import ray_results

        return ray_results(specs, address=address, jobs=jobs)
    from .local import local_results

    return local_results(specs, jobs)


def run_games(
    specs: Sequence[GameSpec],
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
    console: Console | None = None,
    description: str = "Playing",
    records: str | os.PathLike[str] | None = None,
) -> list[GameResult]:
    """Play every game of ``specs`` and return their results ordered by spec (the order in which
    they finish never shows). ``progress`` draws a bar with the time left on ``console``.

    ``records``: a directory where each game's record file is written as the game comes back
    (:func:`write_record`; the specs must keep their records, ``GameSpec.keep_record``); the
    results returned hold no record then, so a long run keeps little in memory.

    Ctrl-C raises :class:`Interrupted`, any other failure :class:`Stopped`: both carry the games
    finished so far (whose records are written)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    slot = {spec.index: i for i, spec in enumerate(specs)}
    if len(slot) != len(specs):
        raise ValueError("game indexes must be distinct")
    results: list[GameResult | None] = [None] * len(specs)
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
    try:
        _collect(specs, jobs, backend, address, progress, console, description, slot, results, records)
    except KeyboardInterrupt:
        raise Interrupted([r for r in results if r is not None], len(specs)) from None
    except Exception as exc:
        done = [r for r in results if r is not None]
        if not done:
            raise  # nothing finished: the error alone (Ray not reached, the first game failing)
        raise Stopped(done, len(specs), exc) from exc
    missing = [specs[i].index for i, r in enumerate(results) if r is None]
    if missing:  # pragma: no cover - a backend that lost games
        raise RuntimeError(f"games {missing[:5]} returned no result")
    return [r for r in results if r is not None]


def _collect(
    specs: Sequence[GameSpec],
    jobs: int,
    backend: str,
    address: str | None,
    progress: bool,
    console: Console | None,
    description: str,
    slot: dict[int, int],
    results: list[GameResult | None],
    records: str | os.PathLike[str] | None,
) -> None:
    def keep(result: GameResult) -> None:
        if records is not None:
            write_record(records, result)
            result = dataclasses.replace(result, record=None)
        results[slot[result.index]] = result

    # the backend starts (processes forked, Ray connected, games submitted) before the bar's thread
    with _backend(specs, jobs, backend, address) as finished:
        if progress and specs:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("games •"),
                TimeElapsedColumn(),
                TextColumn("elapsed •"),
                TimeRemainingColumn(),
                TextColumn("left"),
            )
            with Progress(*columns, console=console, transient=True) as bar:
                task = bar.add_task(description, total=len(specs))
                for result in finished:
                    keep(result)
                    bar.advance(task)
        else:
            for result in finished:
                keep(result)

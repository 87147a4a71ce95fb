"""The Ray backend: the same games as Ray tasks, on a cluster (``address``) or a local Ray.

Games go out in batches (one task plays several games, so a task's overhead is shared), with a
bounded number of batches in flight. A task lost with its worker or node (a killed process, a node
that left the cluster) is retried by Ray up to :data:`TASK_RETRIES` times: games are deterministic
(seeded), so a retried batch gives the same results. A game that raises is not retried (it would
raise again). Results are yielded as each batch ends, so the runner keeps every finished game even
when the run must stop. While Ray runs, this process's standard output (file descriptor 1, which the
Ray processes started here inherit) goes to standard error, so that Ray's messages never mix with
``--json`` on stdout. See ``docs/simulate.md``.

Ray is an optional extra, imported only here and only when this backend runs.
"""

from __future__ import annotations

import importlib
import logging
import math
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from .games import GameResult, GameSpec, play_one

__all__ = [
    "MAX_BATCH",
    "OBJECT_STORE_BYTES",
    "TASK_RETRIES",
    "RayBackendError",
    "RayUnavailableError",
    "batches",
    "import_ray",
    "play_batch",
    "ray_results",
    "stdout_to_stderr",
]

OBJECT_STORE_BYTES = 100 * 1024 * 1024
"""Object store of a local Ray started here: game specs and results are a few kilobytes."""

TASK_RETRIES = 5
"""Times Ray runs a batch again whose worker died (a system failure, never a game's own error)."""

MAX_BATCH = 25
"""Most games in one task: a lost worker costs at most this many games' work again."""

_BATCHES_PER_CPU = 4
_IN_FLIGHT_PER_CPU = 2
_POLL_SECONDS = 0.25


class RayUnavailableError(ImportError):
    """Ray is not installed."""


class RayBackendError(RuntimeError):
    """Ray could not be started or reached, or lost a batch beyond its retries."""


def import_ray() -> Any:
    """The ``ray`` module, or RayUnavailableError saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise RayUnavailableError(
            f"the ray backend needs Ray, an optional extra: pip install 'liverpool-rummy[ray]' ({exc})"
        ) from exc


def play_batch(specs: Sequence[GameSpec]) -> list[GameResult]:
    """Play the games of one batch, in order (a Ray task)."""
    return [play_one(spec) for spec in specs]


def batches(specs: Sequence[GameSpec], cpus: int, size: int | None = None) -> list[list[GameSpec]]:
    """``specs`` cut into batches of ``size`` games (by default about four batches per CPU, at most
    :data:`MAX_BATCH` games each), in order.

    >>> [len(b) for b in batches(list(range(10)), cpus=1)]  # type: ignore[arg-type]
    [3, 3, 3, 1]
    """
    if size is None:
        size = max(1, min(MAX_BATCH, math.ceil(len(specs) / (max(1, cpus) * _BATCHES_PER_CPU))))
    if size < 1:
        raise ValueError(f"batch size must be at least 1, got {size}")
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast when nothing listens at a ``host:port`` address (Ray itself retries for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not (port.isascii() and port.isdigit()):
        return  # "auto", "ray://..." and the like: leave them to Ray
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RayBackendError(f"no Ray cluster answers at {address}: {exc}") from exc


def _init(ray: Any, address: str | None, jobs: int) -> bool:
    """Connect to Ray unless already connected; True when this call connected (and must shut down)."""
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING, "log_to_driver": False}
    if address:
        import liverpool

        _check_reachable(address)
        # ship this package to the cluster's workers, which may not have it installed
        options["runtime_env"] = {"py_modules": [liverpool]}
        options["address"] = address
    else:
        options["address"] = "local"  # a new Ray, never one found running (use --address auto for that)
        options["object_store_memory"] = OBJECT_STORE_BYTES
        if jobs > 1:
            options["num_cpus"] = jobs
    try:
        ray.init(**options)
    except Exception as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray"
        raise RayBackendError(f"could not start or reach {where}: {type(exc).__name__}: {exc}") from exc
    return True


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send file descriptor 1 to standard error for the duration (the processes started meanwhile
    keep it so), then restore it; Python's ``sys.stdout`` is flushed on both sides."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        saved = os.dup(fd)
    except (OSError, ValueError):  # pragma: no cover - no real stdout (embedded)
        yield
        return
    with suppress(Exception):
        sys.stdout.flush()
    os.dup2(sys.__stderr__.fileno() if sys.__stderr__ is not None else 2, fd)
    try:
        yield
    finally:
        with suppress(Exception):
            sys.stdout.flush()
        os.dup2(saved, fd)
        os.close(saved)


def _cpus(ray: Any, jobs: int) -> int:
    try:
        return max(1, int(ray.cluster_resources().get("CPU", jobs)))
    except Exception:  # pragma: no cover - an old Ray without cluster_resources
        return max(1, jobs)


def _gather(ray: Any, task: Any, work: list[list[GameSpec]], in_flight: int) -> Iterator[GameResult]:
    """Submit the batches ``in_flight`` at a time; yield each batch's results as it ends."""
    from ray.exceptions import RayTaskError

    queue = list(reversed(work))
    pending: dict[Any, list[GameSpec]] = {}
    try:
        while queue or pending:
            while queue and len(pending) < in_flight:
                batch = queue.pop()
                pending[task.remote(batch)] = batch
            done, _ = ray.wait(list(pending), num_returns=1, timeout=_POLL_SECONDS)
            for ref in done:
                batch = pending.pop(ref)
                try:
                    results = ray.get(ref)
                except RayTaskError as exc:
                    cause: BaseException = exc.as_instanceof_cause()  # type: ignore[no-untyped-call]
                    raise cause from None  # a game's own error, as the local backend raises it
                except Exception as exc:
                    first, last = batch[0].index, batch[-1].index
                    raise RayBackendError(
                        f"Ray lost the batch of games {first}-{last} beyond {TASK_RETRIES} retries: "
                        f"{type(exc).__name__}: {exc}"
                    ) from exc
                yield from results
    finally:
        for ref in pending:
            with suppress(Exception):
                ray.cancel(ref)


@contextmanager
def ray_results(
    specs: Sequence[GameSpec], address: str | None = None, jobs: int = 1, batch_size: int | None = None
) -> Iterator[Iterator[GameResult]]:
    """Play ``specs`` as batches of Ray tasks; yields an iterator of their results as each batch
    ends (in any order).

    Uses the Ray this process is already connected to; otherwise connects to ``address`` or starts
    a local Ray (``jobs`` CPUs when above 1, else all) and shuts it down afterwards.
    """
    ray = import_ray()
    with stdout_to_stderr():
        started = _init(ray, address, jobs)
        try:
            cpus = _cpus(ray, jobs)
            task = ray.remote(num_cpus=1, max_retries=TASK_RETRIES, retry_exceptions=False)(play_batch)
            yield _gather(ray, task, batches(specs, cpus, batch_size), cpus * _IN_FLIGHT_PER_CPU)
        finally:
            if started:
                ray.shutdown()

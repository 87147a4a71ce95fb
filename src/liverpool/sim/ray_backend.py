"""The Ray backend: the same games as Ray tasks, on a cluster (``address``) or a local Ray.

Ray is an optional extra, imported only here and only when this backend runs.
"""

from __future__ import annotations

import importlib
import logging
import socket
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from .games import GameResult, GameSpec, play_one

__all__ = ["OBJECT_STORE_BYTES", "RayBackendError", "RayUnavailableError", "import_ray", "ray_results"]

OBJECT_STORE_BYTES = 100 * 1024 * 1024
"""Object store of a local Ray started here: game specs and results are a few kilobytes."""

_POLL_SECONDS = 0.25


class RayUnavailableError(ImportError):
    """Ray is not installed."""


class RayBackendError(RuntimeError):
    """Ray could not be started or reached."""


def import_ray() -> Any:
    """The ``ray`` module, or RayUnavailableError saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise RayUnavailableError(
            f"the ray backend needs Ray, an optional extra: pip install 'liverpool-rummy[ray]' ({exc})"
        ) from exc


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


def _gather(ray: Any, pending: list[Any]) -> Iterator[GameResult]:
    while pending:
        done, pending = ray.wait(pending, num_returns=len(pending), timeout=_POLL_SECONDS)
        yield from ray.get(done)


@contextmanager
def ray_results(specs: Sequence[GameSpec], address: str | None = None, jobs: int = 1) -> Iterator[Iterator[GameResult]]:
    """Submit ``specs`` as Ray tasks; yields an iterator of their results as each game ends (in
    any order).

    Uses the Ray this process is already connected to; otherwise connects to ``address`` or starts
    a local Ray (``jobs`` CPUs when above 1, else all) and shuts it down afterwards.
    """
    ray = import_ray()
    started = _init(ray, address, jobs)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(play_one)
        pending = [task.remote(spec) for spec in specs]
        try:
            yield _gather(ray, pending)
        except BaseException:
            for ref in pending:
                with suppress(Exception):
                    ray.cancel(ref)
            raise
    finally:
        if started:
            ray.shutdown()

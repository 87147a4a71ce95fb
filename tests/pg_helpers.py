"""Where the server suite's stores live (light: the root conftest imports it for every run).

``DATABASES["url"]``, while set, makes a test folder's store URL (the PostgreSQL runs: a database
of the session's throwaway cluster, ``liverpool.server.pgcluster.Cluster``, per folder); unset:
SQLite in the folder. ``make test`` installs Debian's ``postgresql`` when missing; without it
``Cluster()`` raises and the session fixture FAILS (never skips)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

__all__ = ["DATABASES"]

DATABASES: dict[str, Callable[[Path], str]] = {}

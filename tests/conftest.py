"""The test folders (rules/, properties/, bots/, sim/, engine/, project/) import the shared helpers
as top-level modules (``from helpers import ...``, ``from rules_helpers import ...``): this folder is
put first on ``sys.path`` for them.

The server suite (tests/server) runs against both stores: SQLite (a file in the test's folder) and
PostgreSQL (a database per test on a throwaway cluster started once for the session,
tests/pg_helpers.py; it FAILS, never skips, when PostgreSQL is not installed). On PostgreSQL the
in-process app is one worker of a shared store (``server_helpers.server_settings``: ``shared``), as
``liverpool serve --workers N`` runs each of its workers. A test about SQLite
itself (its file, WAL, lock, migrations on it) is marked ``sqlite_only``, one about PostgreSQL
itself ``postgresql_only``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from pg_helpers import DATABASES  # noqa: E402 - after the path above

if TYPE_CHECKING:
    from liverpool.server.pgcluster import Cluster

SERVER_TESTS = Path(HERE) / "server"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: a test of the SQLite store itself (not run on PostgreSQL)")
    config.addinivalue_line("markers", "postgresql_only: a test of the PostgreSQL store itself (run once, on it)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "store_kind" in metafunc.fixturenames and SERVER_TESTS in metafunc.definition.path.parents:
        kinds = ["sqlite", "postgresql"]
        if metafunc.definition.get_closest_marker("sqlite_only"):
            kinds = ["sqlite"]
        elif metafunc.definition.get_closest_marker("postgresql_only"):
            kinds = ["postgresql"]
        metafunc.parametrize("store_kind", kinds, indirect=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the session; FAILS (never skips) when PostgreSQL is not installed."""
    from liverpool.server.pgcluster import Cluster

    try:
        cluster = Cluster()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(autouse=True)
def store_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """``sqlite`` or ``postgresql``: where ``server_settings`` puts this test's store."""
    kind = str(getattr(request, "param", "sqlite"))
    if kind == "postgresql":
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        made: dict[Path, str] = {}

        def url(folder: Path) -> str:
            if folder not in made:
                made[folder] = cluster.database()
            return made[folder]

        DATABASES["url"] = url
    try:
        yield kind
    finally:
        DATABASES.pop("url", None)

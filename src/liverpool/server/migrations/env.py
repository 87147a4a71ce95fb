"""Alembic environment: runs on the connection the store passes in ``config.attributes``, or on
the URL of ``sqlalchemy.url`` (a synchronous driver) when run by the ``alembic`` command."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from liverpool.server.store import metadata


def _run(connection: sa.Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = sa.create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///liverpool.db")
    with engine.begin() as conn:
        _run(conn)


try:
    context.config  # noqa: B018 - only set inside an Alembic run
except (NameError, AttributeError):  # imported outside one (e.g. by pytest's doctest collection): nothing to do
    pass
else:
    main()

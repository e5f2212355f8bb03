"""Alembic environment: runs on the connection handed over by ``db.migrate.upgrade``."""

from __future__ import annotations

from alembic import context

from db.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - offline use is not supported
    raise RuntimeError("run migrations through db.migrate.upgrade()")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()

"""Apply Alembic migrations from code, so ``tourbot run`` creates or upgrades its database.

A database already at :data:`HEAD` (every start but the first after an upgrade) is
recognised by one query, and Alembic is not imported at all: it, its templates and the
migration scripts would stay in the running bot's memory for nothing (15 MB measured,
which no purge of ``sys.modules`` gives back). So the bot migrates in a child process
(:func:`upgrade_apart`, ``python -m db.migrate``); tests migrate in place (:func:`upgrade`).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
# The newest revision; tests/test_migrations.py fails when it is not Alembic's head.
HEAD = "0019_retention"


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


async def revision(engine: AsyncEngine) -> str | None:
    """The database's revision; None for a database Alembic has not touched yet."""
    try:
        async with engine.connect() as conn:
            found = await conn.scalar(text("SELECT version_num FROM alembic_version"))
    except DBAPIError:  # no such table
        return None
    return str(found) if found is not None else None


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the schema to the newest revision (no-op when it is already there)."""
    if await revision(engine) == HEAD:
        return

    def _run(connection: Connection) -> None:
        from alembic import command

        command.upgrade(alembic_config(connection), "head")

    async with engine.begin() as conn:
        await conn.run_sync(_run)


# The child's database, in its environment (a command line is what ps shows everyone).
URL_VARIABLE = "TOURBOT_MIGRATE_URL"


async def upgrade_apart(engine: AsyncEngine) -> None:
    """:func:`upgrade`, run by a child process when there is anything to do (an
    in-memory database, which only this process sees, is upgraded in place)."""
    if await revision(engine) == HEAD:
        return
    if engine.url.database in (None, "", ":memory:"):
        await upgrade(engine)
        return
    url = engine.url.render_as_string(hide_password=False)
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "db.migrate", env={**os.environ, URL_VARIABLE: url}
    )
    if await child.wait() != 0:
        raise RuntimeError(f"migrating the database failed (exit code {child.returncode})")


async def upgrade_url(url: str) -> None:
    """:func:`upgrade` of the database at ``url``, on an engine of its own."""
    from db.session import make_engine

    engine = make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


if __name__ == "__main__":
    asyncio.run(upgrade_url(os.environ[URL_VARIABLE]))

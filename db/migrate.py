"""Apply Alembic migrations from code, so ``tourbot run`` creates or upgrades its database.

A database already at :data:`HEAD` (every start but the first after an upgrade) is
recognised by one query, and Alembic is not imported at all: it, its templates and the
migration scripts would stay in the running bot's memory (about 8 MB) for nothing.
"""

from __future__ import annotations

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
HEAD = "0013_live_due"


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

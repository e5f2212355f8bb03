"""Apply Alembic migrations from code, so ``tourbot run`` creates or upgrades its database."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the schema to the newest revision (no-op when it is already there)."""

    def _run(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), "head")

    async with engine.begin() as conn:
        await conn.run_sync(_run)

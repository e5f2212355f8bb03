"""What every scale-out process does the same way: PostgreSQL only, one migration at a
time, and a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import signal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from db.migrate import upgrade_apart

MIGRATION_LOCK = 7_300  # advisory lock: several processes starting at once migrate in turn


async def migrate_once(engine: AsyncEngine) -> None:
    """Upgrade the schema while holding an advisory lock, so concurrent starts queue."""
    async with engine.connect() as conn:
        locks = await conn.execution_options(isolation_level="AUTOCOMMIT")
        await locks.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
        try:
            await upgrade_apart(engine)
        finally:
            await locks.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})


async def wait_for_signal() -> None:
    """Return on SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()

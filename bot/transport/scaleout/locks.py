"""Advisory locks held on a connection of their own, and known to be lost with it.

Who sends to which chats (``bot.transport.scaleout.budget``), which workers of a host
work (``bot.transport.scaleout.slots``) and which scheduler leads
(``bot.transport.scaleout.scheduler``) are PostgreSQL session advisory locks. The server
keeps such a lock exactly as long as the session that took it, and frees it the moment
that session ends: its process died, or the database ended the connection (a restart,
a failover, ``pg_terminate_backend``). So a holder may act on its locks only while their
connection lives, and must take them again on a new one once it is gone.

The driver learns that the server ended a connection as soon as the socket closes
(asyncpg's ``is_closed``), without a round trip: :meth:`Locks.alive` is asked before
every act a lock guards (a message sent, a timer fired). Any doubt about the connection
(a statement failed) ends it at the socket (:meth:`Locks.drop`), so the server frees
every lock it held, rather than giving it back to a pool with its locks still taken.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

TRY_LOCK = text("SELECT pg_try_advisory_lock(:ns, :key)")
# Pooled connections tried before giving up (more than a pool holds: after a failover
# every idle one is dead, and the pool learns it one checkout at a time).
STALE_TRIES = 64
NAME = text("SELECT set_config('application_name', :name, false)")


async def try_lock(conn: AsyncConnection, ns: int, key: int) -> bool:
    """Take advisory lock (``ns``, ``key``) for ``conn``'s session unless another holds
    it: held while the connection lives."""
    return bool(await conn.scalar(TRY_LOCK, {"ns": ns, "key": key}))


def _closed(driver: Any) -> bool:
    """Whether the driver saw its socket close (scale-out is PostgreSQL's, on asyncpg)."""
    return isinstance(driver, asyncpg.Connection) and driver.is_closed()


class Locks:
    """One connection (autocommit) and the session locks taken on it.

    ``role`` names the connection in ``pg_stat_activity`` (``tourbot-<role>-<pid>``), so an
    operator sees which process holds which lock."""

    def __init__(self, engine: AsyncEngine, role: str = "") -> None:
        self.engine = engine
        self.role = role
        self._conn: AsyncConnection | None = None
        self._driver: Any = None

    async def open(self) -> AsyncConnection:
        """The connection if it lives; else a new one (the old one's locks are gone: a
        holder that cares asks :meth:`alive` first)."""
        if not self.alive():
            await self.drop()
            for _ in range(STALE_TRIES):
                conn = await self.engine.connect()
                try:
                    conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                    driver = (await conn.get_raw_connection()).driver_connection
                    if _closed(driver):  # a pooled connection the server ended meanwhile
                        await conn.invalidate()
                        await conn.close()
                        continue
                    if self.role:
                        await conn.execute(NAME, {"name": f"tourbot-{self.role}-{os.getpid()}"})
                except BaseException:
                    await conn.close()
                    raise
                self._conn, self._driver = conn, driver
                break
            else:
                raise ConnectionError("every pooled connection had been ended by the server")
        assert self._conn is not None
        return self._conn

    @property
    def conn(self) -> AsyncConnection:
        assert self._conn is not None, "open() first"
        return self._conn

    def alive(self) -> bool:
        """Whether the connection is open, so every lock taken on it is still held (no
        round trip: the driver saw no end of the socket)."""
        if self._conn is None or self._conn.invalidated or self._conn.closed:
            return False
        return not _closed(self._driver)

    async def drop(self) -> None:
        """End the connection at its socket: the server ends its session and frees every
        lock it held (a connection given back to the pool would keep them)."""
        conn, self._conn, self._driver = self._conn, None, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()

    async def release(self) -> None:
        """Give every lock back and close the connection (a clean stop)."""
        if self._conn is None:
            return
        try:
            await self._conn.execute(text("SELECT pg_advisory_unlock_all()"))
            await self._conn.close()
            self._conn = self._driver = None
        except Exception:
            await self.drop()

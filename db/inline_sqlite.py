"""SQLite run on the event loop's own thread, waiting for a busy database without blocking.

aiosqlite runs every statement on a worker thread: each one is a queue put, a thread
switch, a ``call_soon_threadsafe`` and a wake-up of the loop, and the GIL handed back and
forth. A sign-up makes a dozen statements, so that hop cost more than the statements
themselves (measured in memory: 32 ms per ``/join`` with the hop, 14 ms without). An
SQLite statement of this bot takes microseconds (a page of an index, WAL appends), so
here it runs inline, on the loop.

The one thing a worker thread did well is wait: a statement that finds the database
locked by another connection sleeps in SQLite's busy handler. Inline, that sleep would
stop the loop, and with it the very task holding the lock (the sender's connection
waiting for the handler's transaction, both in this process): so SQLite's own busy
timeout is 0 here, and a busy statement is retried after an asynchronous sleep, which
lets the holder finish, for up to :data:`BUSY_TIMEOUT` seconds in all (the same
patience as the ``busy_timeout`` pragma of the threaded driver). A statement refused as
busy has done nothing, so running it again is safe.

Nor does a statement run inline ever let the loop go on by itself: a transaction that
reads a whole event of two thousand players (the first ``/standings`` after the
results) would keep every other chat waiting until it is done, 0.1 s and more. So once
a connection that holds no write lock has kept the loop for :data:`SLICE` seconds since
it was checked out or last gave way, its next statement first gives the loop one turn
(a lone update's few statements never do: that turn would let the poller and the
sender cut in ahead of its reply). (Python's sqlite3 begins a transaction at
the first write, so one that lets another chat's commit in between reads no stale
snapshot.) One that holds the lock keeps the loop: whoever ran in between would only
find the database busy and wait for it (the sender's marks did, a millisecond and more
each, through a burst of reports).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import aiosqlite

BUSY_TIMEOUT = 10.0
FIRST_WAIT = 0.001
LONGEST_WAIT = 0.05
SLICE = 0.005  # seconds of statements in a row before another task gets a turn


def is_busy(exc: BaseException) -> bool:
    """SQLite said the database is locked (directly, or wrapped by SQLAlchemy)."""
    exc = getattr(exc, "orig", None) or exc
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(exc)


class _RunNow:
    """Stands in for aiosqlite's queue to the worker thread: what is put runs at once.
    (SQLAlchemy's adapter puts its isolation-level change there directly, and
    ``stop`` puts the close.)"""

    @staticmethod
    def put_nowait(item: tuple[asyncio.Future[Any] | None, Callable[[], Any]]) -> None:
        future, function = item
        try:
            result = function()
        except BaseException as exc:
            if future is not None and not future.done():
                future.set_exception(exc)
            return
        if future is not None and not future.done():
            future.set_result(result)


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection without its thread (see the module's docstring)."""

    def __init__(self, database: str) -> None:
        super().__init__(lambda: self._open(database), iter_chunk_size=64)
        self._tx = _RunNow()  # type: ignore[assignment]
        self._turn = time.monotonic()  # when this connection last let the loop go on

    @staticmethod
    def _open(database: str) -> sqlite3.Connection:
        # timeout=0: never sleep in SQLite's busy handler, on the loop (see above).
        # check_same_thread=False: a pool may close it from a finalizer's thread.
        return sqlite3.connect(database, timeout=0, check_same_thread=False)

    def checked_out(self) -> None:
        """A new holder (a transaction, a sender's pass) starts its slice of the loop."""
        self._turn = time.monotonic()

    def __await__(self) -> Any:
        return self._connect().__await__()  # no worker thread to start

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        if time.monotonic() - self._turn > SLICE and not self._connection.in_transaction:
            await asyncio.sleep(0)
            self._turn = time.monotonic()
        give_up = time.monotonic() + BUSY_TIMEOUT
        wait = FIRST_WAIT
        while True:
            try:
                return fn(*args, **kwargs)
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() + wait > give_up:
                    raise
            await asyncio.sleep(wait)
            self._turn = time.monotonic()
            wait = min(LONGEST_WAIT, 2 * wait)


def inline_creator(database: str) -> Callable[[], Any]:
    """SQLAlchemy's ``async_creator`` for an SQLite file."""

    async def connect() -> InlineConnection:
        connection = InlineConnection(database)
        await connection._connect()
        return connection

    return connect

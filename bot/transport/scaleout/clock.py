"""One clock for every scale-out process: the database's.

Deadlines are set by one worker, fired by the scheduler leader and judged by another
worker, each on a machine of its own. A worker whose clock ran behind would find a timer
the leader fired not yet due and put it back, and the leader (which fires each timer
once) would never fire it again. So every process reads the database's clock: it
measures its offset from PostgreSQL's ``clock_timestamp()`` at start and then now and
again (:data:`SYNC_EVERY`), and reads ``now`` locally with no round trip. And a moment
the leader has declared come (a timer it fired) is never in the future on a worker:
:meth:`DatabaseClock.reached` keeps the clock at or past it, whatever the offset's error.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

SYNC_EVERY = 60.0  # seconds between two measures of the offset
NOW = text("SELECT clock_timestamp()")


def host_clock() -> datetime:
    return datetime.now(UTC)


class DatabaseClock:
    """``now`` on the database's clock, read from this host's clock and an offset."""

    def __init__(self, host: Callable[[], datetime] = host_clock) -> None:
        self.host = host
        self.offset = timedelta(0)
        self.floor = datetime.min.replace(tzinfo=UTC)  # the latest moment known to have come

    def __call__(self) -> datetime:
        return max(self.host() + self.offset, self.floor)

    async def sync(self, conn: AsyncConnection) -> None:
        """Measure the offset: one round trip, its midpoint taken as the database's read."""
        before = self.host()
        database: datetime = (await conn.execute(NOW)).scalar_one()
        after = self.host()
        self.offset = database - (before + (after - before) / 2)

    def reached(self, moment: datetime) -> None:
        """``moment`` has come (the leader fired a timer due then): never read earlier."""
        self.floor = max(self.floor, moment)

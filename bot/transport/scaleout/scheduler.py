"""``tourbot scheduler``: exactly one process runs the round timers.

Every scheduler process tries for one PostgreSQL advisory lock, on a connection of its
own; the holder leads. PostgreSQL releases the lock when that connection ends, so when
the leader dies a standby (trying every :data:`STANDBY_POLL` seconds) leads within
seconds. The leader rebuilds its timers from the database (the same
``bot.transport.scheduler.Timers``), hears about new ones from workers, rescans every
:data:`RESCAN` seconds in case a notice was lost, and on firing does not run the work
itself: it publishes the timer into its chat's shard, so the work is ordered with that
chat's updates and done by a worker.

A timer is fired at most once in effect: its message id is the same on every firing (a
new leader firing it again inside the duplicate window is dropped by JetStream), and the
worker records it as fired in the ruling's transaction (``Core.system``; a later
duplicate is skipped, and a fired timer is no longer among the rounds' timers). And the
leader fires only while the lock's connection lives (``bot.transport.scaleout.locks``):
once the database has ended it, the leader fires nothing more, and at its next rescan
stands by and tries for the lock again like any standby.

The leader runs on the database's clock (``bot.transport.scaleout.clock``), and each fired timer
carries the leader's ``now``: the worker that runs it takes that moment as come, so a
worker whose own clock is behind never finds it early and puts it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from sqlalchemy.ext.asyncio import AsyncConnection, async_sessionmaker

from bot.application.core import Core
from bot.application.types import Timer
from bot.config import Settings
from bot.transport.scaleout.bus import MSG_ID, Bus, connect, timer_from, timer_json, timer_key
from bot.transport.scaleout.clock import DatabaseClock, host_clock
from bot.transport.scaleout.locks import NAME, Locks, try_lock
from bot.transport.scaleout.process import migrate_once, wait_for_signal
from bot.transport.scheduler import Timers, pending_timers
from db.repo import Repo
from db.session import make_engine, make_sessionmaker

log = logging.getLogger(__name__)
LEADER_LOCKS = 7_302  # advisory-lock namespace; the id is the NATS prefix's CRC
STANDBY_POLL = 1.0  # seconds between a standby's attempts to lead
RESCAN = 3.0  # seconds between the leader's rereads of the rounds' timers
PUBLISH_RETRY = 1.0


@dataclass
class TimerHost:
    """What ``Timers`` uses of a ``Core``: the database, the clock, the settings (how long
    to keep what it prunes) and the hook new timers arrive by. The scheduler needs no
    transport or handlers, so it passes this. (Seam: re-wire here when the timer code
    changes.)"""

    sessionmaker: async_sessionmaker[Any]
    clock: Callable[[], datetime]
    on_timer: Callable[[Timer], None] = field(default=lambda timer: None)
    settings: Settings = field(default_factory=Settings)


class PublishingTimers(Timers):
    """Timers whose firing publishes into the chat's shard instead of running the work."""

    def __init__(
        self, host: TimerHost, js: JetStreamContext, bus: Bus, leads: Callable[[], bool]
    ) -> None:
        super().__init__(cast(Core, host))
        self.js = js
        self.bus = bus
        self.leads = leads  # whether the lead's lock is still held
        self.fired: set[str] = set()  # a round left open after its deadline is not re-fired

    def add(self, timer: Timer) -> None:
        if timer_key(timer) not in self.fired:
            super().add(timer)

    async def rescan(self) -> None:
        for timer in await pending_timers(self.core):
            self.add(timer)

    async def fire(self, timer: Timer) -> None:
        async with self.core.sessionmaker() as session:
            t = await Repo(session).tournament(timer.tournament_id)
            if t is None:
                return
            chat_id, thread_id = t.chat_id, t.thread_id
        now = max(self.core.clock(), timer.at).isoformat()  # it is due: the leader says so
        fired = {**timer_json(timer), "chat_id": chat_id, "thread_id": thread_id, "now": now}
        payload = {"timer": fired}
        while True:  # NATS may be restarting: the timer must not be lost
            if not self.leads():  # the next leader fires it (it is not recorded as fired)
                log.info("not firing %s: no longer leading", timer_key(timer))
                return
            try:
                await self.js.publish(
                    self.bus.chat_subject(chat_id),
                    json.dumps(payload).encode(),
                    headers={MSG_ID: timer_key(timer)},
                )
            except Exception:
                log.warning("could not publish %s; retrying", timer_key(timer), exc_info=True)
                await asyncio.sleep(PUBLISH_RETRY)
            else:
                self.fired.add(timer_key(timer))
                log.info("fired %s", timer_key(timer))
                return


class Scheduler:
    def __init__(self, settings: Settings, host: Callable[[], datetime] = host_clock) -> None:
        self.settings = settings
        self.clock = DatabaseClock(host)
        self.bus = Bus.of(settings)
        self.lock_id = zlib.crc32(settings.nats_prefix.encode()) - 2**31

    async def run_forever(self) -> None:
        self.engine = make_engine(self.settings.database_url)
        await migrate_once(self.engine)
        self.sessionmaker = make_sessionmaker(self.engine)
        self.nc = await connect(self.settings, "tourbot-scheduler")
        self.js = self.nc.jetstream()
        await self.bus.ensure(self.js)
        work = asyncio.create_task(self._elect_forever())
        try:
            await wait_for_signal()
        finally:
            work.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await work
            with contextlib.suppress(Exception):
                await self.nc.close()
            await self.engine.dispose()

    async def _elect_forever(self) -> None:
        locks = Locks(self.engine)  # a standby keeps its connection between its tries
        try:
            while True:
                try:
                    conn = await locks.open()
                    if await self._try_lead(conn):
                        await self._lead(locks)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.warning("lost the database; standing by", exc_info=True)
                    await locks.drop()  # the lead, if held, goes with the session
                await asyncio.sleep(STANDBY_POLL)
        finally:
            await locks.drop()

    async def _try_lead(self, conn: AsyncConnection) -> bool:
        got = await try_lock(conn, LEADER_LOCKS, self.lock_id)
        if got:  # visible in pg_stat_activity: who leads
            await conn.execute(NAME, {"name": f"tourbot-scheduler-{os.getpid()}"})
        return got

    async def _lead(self, locks: Locks) -> None:
        """Run the timers while the lock's connection lives."""
        log.info("leading the timers (pid %s)", os.getpid())
        host = TimerHost(self.sessionmaker, self.clock, settings=self.settings)
        timers = PublishingTimers(host, self.js, self.bus, locks.alive)

        async def heard(msg: Msg) -> None:
            timers.add(timer_from(json.loads(msg.data)))

        sub = await self.nc.subscribe(self.bus.timers_subject, cb=heard)
        await self.clock.sync(locks.conn)
        await timers.start()
        try:
            while True:
                await asyncio.sleep(RESCAN)
                await self.clock.sync(locks.conn)  # and the lock's connection still lives
                await timers.rescan()
        finally:
            timers.stop()
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
            log.info("no longer leading")

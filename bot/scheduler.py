"""Round timers on APScheduler 3, rebuilt from our own tables at every start.

The moments live in the ``rounds`` table (``deadline``, ``checkin_until``), not in a job
store: at start-up every open round gets its jobs again, and one whose time passed while
the bot was down runs at once. ``misfire_grace_time=None`` stops APScheduler from
silently skipping a late job (its default grace is one second).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.core import Core
from bot.handlers import TIMERS
from bot.types import Timer
from db.repo import Repo

log = logging.getLogger(__name__)


class Timers:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.scheduler = AsyncIOScheduler(
            job_defaults={"misfire_grace_time": None, "coalesce": True}
        )
        core.on_timer = self.add

    async def start(self) -> None:
        """Timers that came due while the bot was down run now, one after another in the
        order they were due (a check-in cut-off before the deadline after it), before
        any new update is read; the others are scheduled."""
        async with self.core.sessionmaker() as session:
            pending = [Timer(*timer) for timer in await Repo(session).round_timers()]
        now = self.core.clock()
        for timer in pending:  # sorted by moment
            if timer.at <= now:
                await self.fire(timer)
        self.scheduler.start()
        for timer in pending:
            if timer.at > now:
                self.add(timer)

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def add(self, timer: Timer) -> None:
        """(Re)schedule one timer of a round; a past one fires immediately.

        The delay is measured on the core's clock (the one deadlines are judged by) and
        handed to APScheduler as a moment on its own clock."""
        delay = max(timer.at - self.core.clock(), timedelta(0))
        run_at = datetime.now(UTC) + delay
        self.scheduler.add_job(
            self.fire,
            DateTrigger(run_date=run_at),
            args=(timer,),
            id=f"{timer.kind}:{timer.tournament_id}:{timer.round}",
            replace_existing=True,
        )

    async def fire(self, timer: Timer) -> None:
        async with self.core.sessionmaker() as session:
            t = await Repo(session).tournament(timer.tournament_id)
            if t is None:
                return
            chat_id, thread_id = t.chat_id, t.thread_id
        work, arg = TIMERS[timer.kind], f"{timer.tournament_id}:{timer.round}"
        try:
            await self.core.system(chat_id, thread_id, work, arg, timer)
        except Exception:
            log.exception("%s of tournament %s round %s failed", *timer[:3])

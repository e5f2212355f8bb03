"""Timers on APScheduler 3, planned from our own tables at every start.

The moments live in the database (``bot.application.timers`` derives the timers from them), never in
a job store. At start-up every timer not yet recorded as fired is planned again: the ones
whose moment passed while the bot was down run at once, one after another in the order
they were due (a reminder before its deadline, a deadline before a later one), and the
rest are scheduled. Each run records its timer in ``fired_timers`` in the transaction of
its work, so a restart neither repeats a reminder nor loses one.
``misfire_grace_time=None`` stops APScheduler from silently skipping a late job (its
default grace is one second).

The same scheduler prunes what the database keeps only for a while (``db.retention``):
at start and every :data:`PRUNE_EVERY` after. In scale-out only the leading scheduler
runs timers, so only it prunes.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.application.core import Core
from bot.application.routes import TIMERS
from bot.application.timers import tournament_timers
from bot.application.types import Timer
from db.repo import Repo
from db.retention import Pruned, prune

log = logging.getLogger(__name__)
PRUNE_EVERY = timedelta(hours=1)


async def pending_timers(core: Core) -> list[Timer]:
    """Every planned timer of the active tournaments that has not fired, in due order.
    Only the tournaments that wait for a moment are read (the leader of scale-out
    rescans every few seconds)."""
    async with core.sessionmaker() as session:
        repo = Repo(session)
        planned = [timer for t in await repo.timed_tournaments() for timer in tournament_timers(t)]
        fired = await repo.fired_timers({timer.tournament_id for timer in planned})
    return sorted(
        (t for t in planned if (*t[:3], t.at.replace(microsecond=0)) not in fired),
        key=lambda t: t.at,
    )


class Timers:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.scheduler = AsyncIOScheduler(
            job_defaults={"misfire_grace_time": None, "coalesce": True}
        )
        core.on_timer = self.add

    async def start(self) -> None:
        """Timers that came due while the bot was down run now, one after another in the
        order they were due (a reminder before its deadline, a check-in cut-off before
        the deadline after it), before any new update is read; the others are scheduled."""
        pending = await pending_timers(self.core)
        now = self.core.clock()
        for timer in pending:
            if timer.at <= now:
                await self.fire(timer)
        self.scheduler.start()
        self.scheduler.add_job(
            self.prune,
            IntervalTrigger(seconds=PRUNE_EVERY.total_seconds()),
            id="prune",
            next_run_time=datetime.now(UTC),
            replace_existing=True,
        )
        for timer in pending:
            if timer.at > now:
                self.add(timer)

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def add(self, timer: Timer) -> None:
        """(Re)schedule one timer; a past one fires immediately.

        The delay is measured on the core's clock (the one deadlines are judged by) and
        handed to APScheduler as a moment on its own clock."""
        delay = max(timer.at - self.core.clock(), timedelta(0))
        run_at = datetime.now(UTC) + delay
        self.scheduler.add_job(
            self.fire,
            DateTrigger(run_date=run_at),
            args=(timer,),
            id=timer.key,
            replace_existing=True,
        )

    async def prune(self) -> Pruned | None:
        """Delete the sent messages and handled update ids older than ``RETENTION_DAYS``
        (``db.retention``); what went, or None when the database was away (the next
        run tries again)."""
        before = self.core.clock() - timedelta(days=self.core.settings.retention_days)
        try:
            pruned = await prune(self.core.sessionmaker.kw["bind"], before)
        except Exception:
            log.exception("pruning failed; tried again in %s", PRUNE_EVERY)
            return None
        if any(pruned):
            log.info("pruned %s outbox rows, %s update ids", pruned.outbox, pruned.updates)
        return pruned

    async def fire(self, timer: Timer) -> None:
        """Run one timer once (``Core.system`` checks the fired-timer record, and puts
        back a job that wakes before its moment on the core's clock)."""
        async with self.core.sessionmaker() as session:
            t = await Repo(session).tournament(timer.tournament_id)
            if t is None:
                return
            chat_id, thread_id = t.chat_id, t.thread_id
        try:
            await self.core.system(chat_id, thread_id, TIMERS[timer.kind], timer.arg, timer)
        except Exception:
            log.exception("timer %s failed", timer.key)

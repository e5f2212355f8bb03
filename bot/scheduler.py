"""Deadlines on APScheduler 3, rebuilt from our own tables at every start.

The deadlines live in the ``rounds`` table, not in a job store: at start-up every open
round with a deadline gets a job again, and one whose time passed while the bot was
down runs at once. ``misfire_grace_time=None`` stops APScheduler from silently
skipping a late job (its default grace is one second).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from bot.core import Core
from bot.handlers import DEADLINE
from db.repo import Repo

log = logging.getLogger(__name__)


class Deadlines:
    def __init__(self, core: Core) -> None:
        self.core = core
        self.scheduler = AsyncIOScheduler(
            job_defaults={"misfire_grace_time": None, "coalesce": True}
        )
        core.on_deadline = self.add

    async def start(self) -> None:
        self.scheduler.start()
        async with self.core.sessionmaker() as session:
            pending = await Repo(session).rounds_with_deadlines()
        for tournament_id, number, deadline in pending:
            self.add(tournament_id, number, deadline)

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def add(self, tournament_id: int, number: int, deadline: datetime) -> None:
        """(Re)schedule one round's deadline; a past one fires immediately.

        The delay is measured on the core's clock (the one deadlines are judged by) and
        handed to APScheduler as a moment on its own clock."""
        delay = max(deadline - self.core.clock(), timedelta(0))
        run_at = datetime.now(UTC) + delay
        self.scheduler.add_job(
            self.fire,
            DateTrigger(run_date=run_at),
            args=(tournament_id, number),
            id=f"deadline:{tournament_id}:{number}",
            replace_existing=True,
        )

    async def fire(self, tournament_id: int, number: int) -> None:
        async with self.core.sessionmaker() as session:
            t = await Repo(session).tournament(tournament_id)
            if t is None:
                return
            chat_id, thread_id = t.chat_id, t.thread_id
        try:
            await self.core.system(chat_id, thread_id, DEADLINE, f"{tournament_id}:{number}")
        except Exception:
            log.exception("deadline of tournament %s round %s failed", tournament_id, number)

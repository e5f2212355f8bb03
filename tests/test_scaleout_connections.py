"""The scale-out locks when PostgreSQL ends their connections (a restart, a failover,
``pg_terminate_backend``): a sender, a slot and the scheduler's lead act only while the
connection holding their lock lives, and take it again on a new one.

Each test ends a connection of its own with ``pg_terminate_backend``, as an operator (or
a failover) would, in a database of its own (``tests.test_scaleout_units.pg``)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker

from bot.application.types import Delivered, Outgoing, Timer
from bot.transport.outbox import Sender
from bot.transport.scaleout.budget import PARTS, SharedSender
from bot.transport.scaleout.bus import Bus
from bot.transport.scaleout.locks import Locks
from bot.transport.scaleout.scheduler import PublishingTimers, TimerHost
from bot.transport.scaleout.slots import Slot
from db.models import OutboxMessage
from db.repo import Repo
from db.session import make_sessionmaker
from db.status import OutboxStatus
from tests.test_scaleout_units import Recording, pg, queue, quiet_signup

__all__ = ["pg"]  # the fixture


async def end(engine: AsyncEngine, victim: AsyncConnection) -> None:
    """End the session of ``victim`` from the server's side, and wait until its driver
    has seen the socket close."""
    pid = await victim.scalar(text("SELECT pg_backend_pid()"))
    driver = (await victim.get_raw_connection()).driver_connection
    async with engine.connect() as conn:
        assert await conn.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    for _ in range(100):
        if driver.is_closed():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the driver never saw its connection end")


async def statuses(sessionmaker: async_sessionmaker[Any]) -> list[tuple[str, str]]:
    async with sessionmaker() as session:
        rows = await session.execute(
            select(OutboxMessage.text, OutboxMessage.status).order_by(OutboxMessage.id)
        )
        return [(body, status) for body, status in rows.all()]


async def test_a_sender_whose_connection_is_ended_sends_nothing_until_it_holds_a_part_again(
    pg: AsyncEngine,
) -> None:
    """Its parts were free the moment its session ended, and another worker took them:
    the first sender must not go on sending to them (two senders for one chat)."""
    sessionmaker = make_sessionmaker(pg)
    first, second = Recording(), Recording()
    one = SharedSender(sessionmaker, first, 1000, 1000, hand_over=0)  # type: ignore[arg-type]
    two = SharedSender(sessionmaker, second, 1000, 1000, hand_over=0)  # type: ignore[arg-type]
    try:
        await one.open()
        await queue(sessionmaker, (-7, "before", False))
        await one.flush_once()
        assert one.parts == set(range(PARTS)) and first.sent == ["before"]
        await end(pg, one.locks.conn)
        await two.flush_once()  # a worker started after the drop takes every part
        assert two.parts == set(range(PARTS))
        await queue(sessionmaker, (-7, "after", False))
        await one.flush_once()  # connects again, finds every part taken
        assert one.parts == set() and first.sent == ["before"]
        await two.flush_once()
        assert second.sent == ["after"]
        await two.close()  # that worker stops: the first takes its parts again
        await queue(sessionmaker, (-7, "later", False))
        one._claimed_at = 0.0  # its next try for them, without waiting CLAIM_EVERY
        await one.flush_once()
        assert one.parts == set(range(PARTS)) and first.sent == ["before", "later"]
    finally:
        await one.close()
        await two.close()


class EndsOnSend(Recording):
    """Telegram accepts the message ``fatal``, and meanwhile the database ends the
    sender's connection: its mark cannot be written on it."""

    def __init__(self, engine: AsyncEngine, fatal: str) -> None:
        super().__init__()
        self.engine = engine
        self.fatal = fatal
        self.sender: Sender | None = None

    async def send(self, message: Outgoing) -> Delivered:
        sent = await super().send(message)
        if message.text == self.fatal and self.sender is not None:
            await end(self.engine, self.sender.conn)
        return sent


@pytest.mark.parametrize("fatal", ["reply", "👍"])
async def test_what_was_sent_as_the_connection_died_is_marked_and_never_sent_again(
    pg: AsyncEngine, fatal: str
) -> None:
    """A reply is claimed before it is sent, a reaction is not (its mark waits for the end
    of the pass): either way the mark the dead connection did not take is written on
    the next one, and the worker that took the part meanwhile sends neither again."""
    sessionmaker = make_sessionmaker(pg)
    first = EndsOnSend(pg, fatal)
    second = Recording()
    one = SharedSender(sessionmaker, first, 1000, 1000, hand_over=0)  # type: ignore[arg-type]
    two = SharedSender(sessionmaker, second, 1000, 1000, hand_over=0.5)  # type: ignore[arg-type]
    first.sender = one
    await queue(sessionmaker, (-7, "reply", False))
    async with sessionmaker() as session, session.begin():
        Repo(session).enqueue(chat_id=-7, kind="react", text="👍", edit_message_id=9)
    try:
        assert await one.flush_once() == 0.0  # lost: it connects again at once
        assert first.sent[-1] == fatal and one.parts == set()
        await two.flush_once()  # takes every part at once, the first having none
        assert two.parts == set(range(PARTS))
        await one.flush_once()  # connects again: its marks first
        assert (fatal, OutboxStatus.SENT) in await statuses(sessionmaker)
        await asyncio.sleep(0.5)  # the hand-over is over
        await two.flush_once()
        await two.flush_once()
        sent = first.sent + second.sent
        assert sorted(sent) == sorted(["reply", "👍"])  # each once, by one sender or other
        assert {status for _, status in await statuses(sessionmaker)} == {OutboxStatus.SENT}
    finally:
        await one.close()
        await two.close()


async def test_the_one_process_sender_marks_on_its_next_connection_what_it_sent_meanwhile(
    pg: AsyncEngine,
) -> None:
    """``tourbot run`` on PostgreSQL: the database restarts just as Telegram accepts a
    reply. The pass fails; the next one writes the mark first, and sends it no more."""
    sessionmaker = make_sessionmaker(pg)
    sent = EndsOnSend(pg, "reply")
    sender = Sender(sessionmaker, sent, 1000, exclusive=True)  # type: ignore[arg-type]
    sent.sender = sender
    await queue(sessionmaker, (-7, "reply", False), (-7, "next", False))
    with pytest.raises(DBAPIError):
        await sender.flush_once()
    await sender.flush_once()
    assert sent.sent == ["reply", "next"]
    assert await statuses(sessionmaker) == [
        ("reply", OutboxStatus.SENT),
        ("next", OutboxStatus.SENT),
    ]


async def test_a_slot_lost_with_its_connection_is_taken_again_unless_a_standby_took_it(
    pg: AsyncEngine,
) -> None:
    working, standby = Slot(pg, "t", 1, host="a"), Slot(pg, "t", 1, host="a")
    try:
        assert await working.take() and not await standby.take()
        await end(pg, working._locks.conn)
        assert await working.keep()  # nobody took it meanwhile: held again
        assert not await standby.take()
        await end(pg, working._locks.conn)
        assert await standby.take()  # the standby was quicker
        assert not await working.keep()  # so this worker stands by
        assert working.held is None
    finally:
        await working.release()
        await standby.release()


class Published:
    def __init__(self) -> None:
        self.subjects: list[str] = []

    async def publish(self, subject: str, payload: bytes, **_: Any) -> None:
        self.subjects.append(subject)


async def test_a_leader_whose_lock_connection_was_ended_fires_nothing(pg: AsyncEngine) -> None:
    """A standby may lead by now: the timer is left to it (it is not recorded as fired,
    so the new leader's rescan finds it)."""
    sessionmaker = make_sessionmaker(pg)
    due = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)
    async with sessionmaker() as session, session.begin():
        t = quiet_signup(-4, signup_until=due)
        session.add(t)
    locks = Locks(pg)
    await locks.open()
    js = Published()
    bus = Bus("t", 4)
    timers = PublishingTimers(TimerHost(sessionmaker, lambda: due), js, bus, locks.alive)  # type: ignore[arg-type]
    timer = Timer("signup", t.id, 0, due)
    try:
        await timers.fire(timer)
        assert len(js.subjects) == 1
        await end(pg, locks.conn)
        timers.fired.clear()
        await timers.fire(timer)
        assert len(js.subjects) == 1
    finally:
        await locks.drop()

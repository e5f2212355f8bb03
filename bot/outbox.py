"""The one outgoing queue both backends share.

Replies are outbox rows committed with the change that caused them. This sender
delivers them in order per chat, at most ``per_minute`` messages a minute to one chat
(Telegram allows about 20 in a group), sends only the newest of several queued edits
of one message, waits out 429s for exactly as long as Telegram
says, and backs off on 5xx and network errors.

Each row is claimed before it is sent (status ``sending`` with a short lease, one
statement) and marked sent by one statement as soon as Telegram answers, so no second
sender takes it while it is in flight. Telegram has no idempotency key: when the process
dies after Telegram accepted a message and before the mark commits (the window
``Sender.window`` measures), the lease runs out and that one message goes out again.
The sender sends one message at a time, so a crash can repeat at most one message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict, deque
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, and_, or_, update
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.types import Outgoing, PermanentError, RetryAfter, TransientError, Transport
from db.models import OutboxMessage
from db.repo import Repo
from db.status import OutboxStatus

log = logging.getLogger(__name__)
WINDOW = 60.0
MAX_BACKOFF = 30.0
# How long a claimed row stays its sender's. Longer than a send takes; short, because a
# row claimed by a process that then died waits this long before it is sent again.
LEASE = timedelta(seconds=10)


class Sender:
    def __init__(
        self, sessionmaker: async_sessionmaker[Any], transport: Transport, per_minute: int = 20
    ) -> None:
        self.sessionmaker = sessionmaker
        self.transport = transport
        self.per_minute = per_minute
        self._sent_at: dict[int, deque[float]] = defaultdict(deque)
        self._blocked_until: dict[int, float] = {}
        self._failures: dict[int, int] = defaultdict(int)  # outbox id -> transient failures
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # Seconds from Telegram's answer to the committed mark, for the latest messages.
        self.window: deque[float] = deque(maxlen=1000)

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="outbox-sender")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _ready_at(self, chat_id: int, now: float) -> float:
        """When the next message to this chat may go, given the window and any 429."""
        sent = self._sent_at[chat_id]
        while sent and now - sent[0] >= WINDOW:
            sent.popleft()
        ready = self._blocked_until.get(chat_id, 0.0)
        if len(sent) >= self.per_minute:
            ready = max(ready, sent[0] + WINDOW)
        return ready

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            wait = await self.flush_once()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def flush_once(self) -> float:
        """Send what may be sent now; return how long to sleep before trying again."""
        rows = await self._queued()
        next_try = 3600.0
        held: set[int] = set()  # chats whose earlier message is waiting: keep their order
        latest_edit = {(r.chat_id, r.edit_message_id): r.id for r in rows if r.kind == "edit"}
        for row in rows:
            if row.chat_id in held:
                continue
            if row.status == OutboxStatus.SENDING:  # another sender's, or a dead one's
                left = (row.lease_until or datetime.min.replace(tzinfo=UTC)) - _utcnow()
                if left > timedelta(0):
                    held.add(row.chat_id)
                    next_try = min(next_try, left.total_seconds())
                    continue
            if row.kind == "edit" and latest_edit[(row.chat_id, row.edit_message_id)] != row.id:
                await self._mark(row.id, OutboxStatus.SUPERSEDED, None)  # a later edit shows more
                continue
            now = time.monotonic()
            ready = self._ready_at(row.chat_id, now)
            if ready > now:
                held.add(row.chat_id)
                next_try = min(next_try, ready - now)
                continue
            delay = await self._deliver(row)
            if delay:
                held.add(row.chat_id)
                next_try = min(next_try, delay)
        return next_try

    async def _queued(self) -> list[OutboxMessage]:
        """The queued rows this sender delivers, oldest first."""
        async with self.sessionmaker() as session:
            return await Repo(session).queued()

    async def _deliver(self, row: OutboxMessage) -> float:
        """Try one message; return 0 when done with it, else seconds to wait."""
        out = Outgoing(
            chat_id=row.chat_id,
            kind=row.kind,
            text=row.text,
            thread_id=row.thread_id,
            buttons=[[(label, data) for label, data in r] for r in row.buttons]
            if row.buttons
            else None,
            file=row.file,
            filename=row.filename,
            edit_message_id=row.edit_message_id,
        )
        if not await self._claim(row.id):
            return 0.0  # another sender took it
        try:
            message_id = await self.transport.send(out)
        except RetryAfter as exc:
            await self._mark(row.id, OutboxStatus.QUEUED, None)
            self._blocked_until[row.chat_id] = time.monotonic() + exc.seconds
            log.warning("429 for chat %s: waiting %ss", row.chat_id, exc.seconds)
            return exc.seconds
        except TransientError:
            await self._mark(row.id, OutboxStatus.QUEUED, None)
            self._failures[row.id] += 1
            backoff = min(MAX_BACKOFF, 0.5 * 2.0 ** self._failures[row.id])
            self._blocked_until[row.chat_id] = time.monotonic() + backoff
            log.warning("transient error sending outbox %s; retry in %.1fs", row.id, backoff)
            return backoff
        except PermanentError:
            log.exception("Telegram refused outbox message %s", row.id)
            await self._mark(row.id, OutboxStatus.FAILED, None)
            return 0.0
        answered = time.monotonic()
        await self._mark(row.id, OutboxStatus.SENT, message_id)
        self.window.append(time.monotonic() - answered)
        self._sent_at[row.chat_id].append(answered)
        self._failures.pop(row.id, None)
        return 0.0

    async def _claim(self, row_id: int) -> bool:
        """Take a row for sending, unless a live sender holds it."""
        now = _utcnow()
        free = or_(
            OutboxMessage.status == OutboxStatus.QUEUED,
            and_(OutboxMessage.status == OutboxStatus.SENDING, OutboxMessage.lease_until < now),
        )
        async with self.sessionmaker() as session, session.begin():
            result = await session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id == row_id, free)
                .values(status=OutboxStatus.SENDING, lease_until=now + LEASE)
            )
        return isinstance(result, CursorResult) and result.rowcount > 0

    async def _mark(self, row_id: int, status: str, message_id: int | None) -> None:
        """One UPDATE (no read first): it runs once for every message sent, and keeps
        the window in which a crash repeats a message short."""
        async with self.sessionmaker() as session, session.begin():
            await session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id == row_id)
                .values(status=status, message_id=message_id, lease_until=None)
            )


def _utcnow() -> datetime:
    return datetime.now(UTC)

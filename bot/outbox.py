"""The one outgoing queue both backends share.

Replies are outbox rows committed with the change that caused them. This sender
delivers them in order per chat, at most ``per_minute`` messages a minute to one chat
(Telegram allows about 20 in a group), sends only the newest of several queued edits
of one message, waits out 429s for exactly as long as Telegram
says, backs off on 5xx and network errors, and marks each row sent as soon as Telegram
accepts it, so a message is delivered once even across retries and restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict, deque
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.types import Outgoing, PermanentError, RetryAfter, TransientError, Transport
from db.models import OutboxMessage
from db.repo import Repo
from db.status import OutboxStatus

log = logging.getLogger(__name__)
WINDOW = 60.0
MAX_BACKOFF = 30.0


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
        async with self.sessionmaker() as session:
            rows = await Repo(session).queued()
        next_try = 3600.0
        held: set[int] = set()  # chats whose earlier message is waiting: keep their order
        latest_edit = {(r.chat_id, r.edit_message_id): r.id for r in rows if r.kind == "edit"}
        for row in rows:
            if row.chat_id in held:
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
        try:
            message_id = await self.transport.send(out)
        except RetryAfter as exc:
            self._blocked_until[row.chat_id] = time.monotonic() + exc.seconds
            log.warning("429 for chat %s: waiting %ss", row.chat_id, exc.seconds)
            return exc.seconds
        except TransientError:
            self._failures[row.id] += 1
            backoff = min(MAX_BACKOFF, 0.5 * 2.0 ** self._failures[row.id])
            self._blocked_until[row.chat_id] = time.monotonic() + backoff
            log.warning("transient error sending outbox %s; retry in %.1fs", row.id, backoff)
            return backoff
        except PermanentError:
            log.exception("Telegram refused outbox message %s", row.id)
            await self._mark(row.id, OutboxStatus.FAILED, None)
            return 0.0
        self._sent_at[row.chat_id].append(time.monotonic())
        self._failures.pop(row.id, None)
        await self._mark(row.id, OutboxStatus.SENT, message_id)
        return 0.0

    async def _mark(self, row_id: int, status: str, message_id: int | None) -> None:
        async with self.sessionmaker() as session, session.begin():
            row = await session.get(OutboxMessage, row_id)
            if row is not None:
                row.status, row.message_id = status, message_id

"""The one outgoing queue both backends share.

Replies are outbox rows committed with the change that caused them. This sender
delivers them at most ``per_minute`` messages a minute to one chat (Telegram allows about
20 in a group), waits out 429s for exactly as long as Telegram says, and backs off on 5xx
and network errors.

Where senders share the outbox (scale-out workers), each row is claimed before it is
sent (status ``sending`` with a short lease, one statement), so no second sender takes
it while it is in flight; the one sender of ``tourbot run`` (``exclusive``) has nobody to
keep it from. Either marks it sent by one statement as soon as Telegram answers.
Telegram has no idempotency key: when the process dies after Telegram accepted a
message and before the mark commits (the window ``Sender.window`` measures), that one
message goes out again after the restart (once a claim's lease has run out).
The sender sends one message at a time, so a crash can repeat at most one message.
A mark the database did not take (its connection was lost) is kept and written first
thing on the next connection, before anything is read: the database coming back within
the lease, nothing is sent twice.

Reactions and edits are the exception, and the bulk of a busy group's traffic (every
typed /join is a 👍 and a count edit): sent twice they show the same, so they are sent
without a claim and the pass marks them sent together, in one statement at its end,
with the edits it found superseded.

A busy group stays quiet and answers fast (docs/performance.md#a-quiet-group):

* Replies to one person (a refusal, a report's receipt) go before broadcasts (an
  announcement, a count or standings edit): two lanes per chat, each in order.
* But a chat reads of the event's states in the order they happened: a reply never
  overtakes a broadcast *message* of its chat queued before it (an announcement such as
  "round 2 is over"; a /standings answer about round 3 comes after it). It may overtake
  the broadcast *edits* queued before it: they change messages already shown, the newest
  wins, and they are most of a busy group's traffic. Each announcement thus closes a
  stage of the chat's queue (:func:`stages`); a pass sends stage by stage.
* Broadcasts may use only part of the minute (all but :data:`RESERVE_SHARE`), so a reply
  always finds room even while sign-ups pour in; an announcement a reply waits behind
  may use the reserve too.
* Of several queued edits of one message only the newest is sent, and a broadcast edit
  waits ``edit_gap`` seconds (3 by default) after the previous one, so presses in between merge.
* An edit may name its message by tag (the sign-up message, the live standings) before
  that message is sent; it waits for it. Reactions are not messages and do not count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, defaultdict, deque
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, Row
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker

from bot.application.types import Outgoing, PermanentError, RetryAfter, TransientError, Transport
from db import outbox
from db.outbox import CLAIM, MARK, QUEUED_BATCH, QUEUED_PER_LANE
from db.status import OutboxStatus

log = logging.getLogger(__name__)


def unchanged(exc: PermanentError) -> bool:
    """Telegram refuses an edit that changes nothing ("message is not modified", in both
    libraries' wording); the message then already says what the edit would, so the row is
    done, not failed (two refreshes of the same standings may meet in one pass)."""
    return "message is not modified" in str(exc).lower()


WINDOW = 60.0
MAX_BACKOFF = 30.0
RESERVE_SHARE = 0.25  # of each chat's minute kept for replies to one person
# How long a claimed row stays its sender's. Longer than a send takes; short, because a
# row claimed by a process that then died waits this long before it is sent again.
LEASE = timedelta(seconds=10)
# How long ``Sender.stop`` lets the message in flight finish before cancelling it.
STOP_GRACE = 5.0

# An outbox row as the sender reads it (``db.outbox``): a plain row, read by name.
Queued = Row[Any]


def is_edit(row: Queued) -> bool:
    """``edit`` (text), ``edit_caption`` and ``edit_media`` (a photo's picture)."""
    return str(row.kind).startswith("edit")


def is_idempotent(row: Queued) -> bool:
    """Sent a second time, it changes nothing the chat sees: a reaction, an edit."""
    return row.kind == "react" or is_edit(row)


def is_announcement(row: Queued) -> bool:
    """A broadcast that is a new message in the chat (not an edit): a reply queued after
    it must not go before it."""
    return bool(row.broadcast) and not is_idempotent(row)


def stages(rows: list[Queued]) -> dict[int, int]:
    """Each row's stage in its chat's queue (``rows`` oldest first): how many of the
    chat's announcements were queued before it (an announcement ends its stage). A pass
    goes through the stages in order, each one's replies before its broadcasts. A
    reaction (a 👍 on a /join) says nothing of a state and waits for nothing: stage 0."""
    stage: dict[int, int] = {}
    announced: Counter[int] = Counter()
    for row in rows:
        stage[row.id] = 0 if row.kind == "react" else announced[row.chat_id]
        if is_announcement(row):
            announced[row.chat_id] += 1
    return stage


def unseen_way(rows: list[Queued]) -> set[int]:
    """The replies a pass must hold because it cannot see what was queued before them.

    A pass reads at most :data:`QUEUED_PER_LANE` rows of a lane: when it read that many
    of a chat's broadcasts, an announcement may wait behind the last one read, so the
    replies queued after that one wait for a pass that sees the whole way."""
    broadcasts = Counter(r.chat_id for r in rows if r.broadcast)
    last_read = {r.chat_id: r.id for r in rows if r.broadcast}  # rows come oldest first
    return {
        r.id
        for r in rows
        if not r.broadcast
        and r.kind != "react"
        and broadcasts[r.chat_id] >= QUEUED_PER_LANE
        and r.id > last_read[r.chat_id]
    }


class Sender:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[Any],
        transport: Transport,
        per_minute: int = 20,
        edit_gap: float = 3.0,
        exclusive: bool = False,
        engine: AsyncEngine | None = None,
    ) -> None:
        # Its statements run on bare connections (see ``db.outbox``): of ``engine``
        # (``db.session.sender_engine``), or of the sessions' engine.
        self.engine: AsyncEngine = engine or sessionmaker.kw["bind"]
        self.exclusive = exclusive  # the only sender of this outbox: it claims nothing
        self.transport = transport
        self.per_minute = per_minute
        self.edit_gap = edit_gap  # seconds between two broadcast edits of one message
        self._sent_at: dict[int, deque[float]] = defaultdict(deque)
        self._blocked_until: dict[int, float] = {}
        self._failures: dict[int, int] = defaultdict(int)  # outbox id -> transient failures
        # (outbox id, status, message id): the marks a pass writes at its end, see above.
        self._unmarked: list[tuple[int, str, int | None]] = []
        # Rows sent whose mark a lost connection did not write: written first next time.
        self._owed: list[tuple[int, str, int | None]] = []
        self._edited_at: dict[tuple[int, object], float] = {}  # (chat, target) -> last edit
        self._wake = asyncio.Event()
        self._conn: AsyncConnection | None = None  # during a pass
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        # Seconds from Telegram's answer to the committed mark, for the latest messages.
        self.window: deque[float] = deque(maxlen=1000)

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._loop(), name="outbox-sender")

    async def stop(self) -> None:
        """Let the message in flight finish, then stop. Cancelled between Telegram's
        answer and the committed mark, its row would stay claimed: the next start would
        wait out the lease with that lane held (broadcasts overtaking the replies behind
        it), then send the message a second time."""
        if self._task is None:
            return
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout=STOP_GRACE)
        except TimeoutError:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _ready_at(self, chat_id: int, now: float, broadcast: bool) -> float:
        """When the next message to this chat may go, given the window and any 429; a
        broadcast leaves the reserve of the minute to replies."""
        sent = self._sent_at[chat_id]
        while sent and now - sent[0] >= WINDOW:
            sent.popleft()
        ready = self._blocked_until.get(chat_id, 0.0)
        limit = self.per_minute
        if broadcast:
            limit = max(1, limit - int(limit * RESERVE_SHARE))
        if len(sent) >= limit:
            ready = max(ready, sent[len(sent) - limit] + WINDOW)
        return ready

    async def _loop(self) -> None:
        failures = 0
        while not self._stopping:
            self._wake.clear()
            try:
                wait = await self.flush_once()
                failures = 0
            except Exception:  # the database is away (restarting, locked): rows wait
                failures += 1
                wait = min(MAX_BACKOFF, 0.5 * 2**failures)
                log.exception("outbox pass failed; next in %.1fs", wait)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    @staticmethod
    def _target(row: Queued) -> object:
        """What an edit changes: the message (by tag or id) and which part (the text or
        caption; the picture), so a caption edit never drops a newer picture."""
        message = ("tag", row.edit_tag) if row.edit_tag else row.edit_message_id
        return (message, row.kind)

    async def flush_once(self) -> float:
        """Send what may be sent now; return how long to sleep before trying again."""
        async with self.engine.connect() as conn:  # checked out once a pass
            # Every statement of a pass stands alone (a read, or one mark that commits
            # on its own), so the connection autocommits: no BEGIN and COMMIT round
            # trips around each (on PostgreSQL they were most of a pass).
            self._conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            try:
                await self._write_owed()
                return await self._pass()
            finally:
                self._conn = None

    @property
    def conn(self) -> AsyncConnection:
        """The pass's connection."""
        assert self._conn is not None, "only within a pass"
        return self._conn

    async def _pass(self) -> float:
        rows = await self._queued()
        # A full pass may have left rows out (of the batch, or of a lane past its share):
        # once it sends something, look again at once.
        next_try = 3600.0
        lanes = Counter((r.chat_id, bool(r.broadcast)) for r in rows)
        full = len(rows) >= QUEUED_BATCH or any(n >= QUEUED_PER_LANE for n in lanes.values())
        held: set[tuple[int, bool]] = set()  # lanes whose earlier message is waiting
        latest_edit = {(r.chat_id, self._target(r)): r.id for r in rows if is_edit(r)}
        superseded = {  # a later edit of the same message shows more
            r.id
            for r in rows
            if is_edit(r)
            and r.status == OutboxStatus.QUEUED
            and latest_edit[(r.chat_id, self._target(r))] != r.id
        }
        self._unmarked = [(row_id, OutboxStatus.SUPERSEDED, None) for row_id in superseded]
        stage, unseen = stages(rows), unseen_way(rows)
        # Announcements a reply waits behind: they may use the replies' reserve.
        last_reply = {r.chat_id: r.id for r in rows if not r.broadcast and r.kind != "react"}
        ahead = {r.id for r in rows if is_announcement(r) and r.id < last_reply.get(r.chat_id, 0)}
        try:
            for row in self._order(rows, stage):
                if self._stopping:
                    break
                if row.id in superseded:
                    continue
                if row.id in unseen:
                    held.add((row.chat_id, False))
                wait = await self._consider(row, held, full, reserve=row.id in ahead)
                if wait is not None:
                    next_try = min(next_try, wait)
                if is_announcement(row) and (row.chat_id, True) in held:
                    held.add((row.chat_id, False))  # the replies after it wait for it
        finally:
            await self._mark_unmarked()
        return next_try

    def _order(self, rows: list[Queued], stage: dict[int, int]) -> list[Queued]:
        """The order a pass goes through its rows in: stage by stage, each stage's
        replies before its broadcasts, oldest first."""
        return sorted(rows, key=lambda r: (stage[r.id], bool(r.broadcast), r.id))

    async def _consider(
        self, row: Queued, held: set[tuple[int, bool]], full: bool, reserve: bool = False
    ) -> float | None:
        """Send ``row`` if its lane, its chat's minute and its message allow; else hold
        its lane. How long to wait before the next pass, if this row sets it. ``reserve``:
        a broadcast that may use the replies' part of the minute."""
        lane = (row.chat_id, bool(row.broadcast))
        if lane in held:
            return None
        if row.status == OutboxStatus.SENDING:  # another sender's, or a dead one's
            left = (row.lease_until or datetime.min.replace(tzinfo=UTC)) - _utcnow()
            if left > timedelta(0):
                held.add(lane)
                return left.total_seconds()
        target = (row.chat_id, self._target(row))
        now = time.monotonic()
        ready = self._blocked_until.get(row.chat_id, 0.0)
        if row.kind != "react":
            ready = max(ready, self._ready_at(row.chat_id, now, lane[1] and not reserve))
        if is_edit(row) and row.broadcast and target in self._edited_at:
            ready = max(ready, self._edited_at[target] + self.edit_gap)
        if ready > now:
            held.add(lane)
            return ready - now
        edit_id = row.edit_message_id
        if row.edit_tag:
            edit_id, waiting = await outbox.tagged(self.conn, row.chat_id, row.edit_tag)
            if edit_id is None:
                if waiting:  # the message is still queued: edit it once it is sent
                    held.add(lane)
                    return 1.0
                await self._mark(row.id, OutboxStatus.FAILED, None)
                return None
        delay = await self._deliver(row, edit_id)
        if delay:
            held.add(lane)
            return delay
        if is_edit(row):
            self._edited_at[target] = time.monotonic()
        return 0.0 if full else None

    async def _queued(self) -> list[Queued]:
        """The queued rows this sender delivers, oldest first."""
        return list(await outbox.queued(self.conn))

    async def _deliver(self, row: Queued, edit_id: int | None) -> float:
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
            edit_message_id=edit_id,
        )
        idempotent = is_idempotent(row)
        claimed = not idempotent and not self.exclusive
        if claimed and not await self._claim(row.id):
            return 0.0  # another sender took it
        try:
            message_id = await self.transport.send(out)
        except RetryAfter as exc:
            if claimed:  # give it back
                await self._mark(row.id, OutboxStatus.QUEUED, None)
            self._blocked_until[row.chat_id] = time.monotonic() + exc.seconds
            log.warning("429 for chat %s: waiting %ss", row.chat_id, exc.seconds)
            return float(exc.seconds)
        except TransientError:
            if claimed:
                await self._mark(row.id, OutboxStatus.QUEUED, None)
            self._failures[row.id] += 1
            backoff = float(min(MAX_BACKOFF, 0.5 * 2 ** self._failures[row.id]))
            self._blocked_until[row.chat_id] = time.monotonic() + backoff
            log.warning("transient error sending outbox %s; retry in %.1fs", row.id, backoff)
            return backoff
        except PermanentError as exc:
            if not (edit_id and unchanged(exc)):
                log.exception("Telegram refused outbox message %s", row.id)
                await self._mark(row.id, OutboxStatus.FAILED, None)
                return 0.0
            message_id = edit_id  # the message already shows this edit: nothing to do
        answered = time.monotonic()
        if row.kind != "react":
            self._sent_at[row.chat_id].append(answered)
        self._failures.pop(row.id, None)
        if idempotent:
            self._unmarked.append((row.id, OutboxStatus.SENT, message_id))
        else:
            await self._mark_sent(row.id, message_id)
            self.window.append(time.monotonic() - answered)
        if row.pin:
            await self._pin(row.chat_id, message_id)
        return 0.0

    async def _pin(self, chat_id: int, message_id: int) -> None:
        """Pin a message just sent; the handler already checked the right, so a refusal
        here (the right taken away meanwhile) is only logged."""
        try:
            await self.transport.pin(chat_id, message_id)
        except Exception:
            log.warning("could not pin message %s in chat %s", message_id, chat_id, exc_info=True)

    async def _claim(self, row_id: int) -> bool:
        """Take a row for sending, unless a live sender holds it."""
        now = _utcnow()
        result = await self.conn.execute(
            CLAIM, {"row_id": row_id, "now": now, "until": now + LEASE}
        )
        return isinstance(result, CursorResult) and result.rowcount > 0

    async def _mark_unmarked(self) -> None:
        """Mark the reactions and edits this pass sent, and the edits it superseded, in
        one statement (executemany)."""
        if self._unmarked:
            marks, self._unmarked = self._unmarked, []
            try:
                await outbox.mark(self.conn, marks)
            except Exception:
                self._owed += [mark for mark in marks if mark[1] == OutboxStatus.SENT]
                raise

    async def _mark_sent(self, row_id: int, message_id: int | None) -> None:
        """Mark a message sent; a mark the database did not take is owed (see above)."""
        try:
            await self._mark(row_id, OutboxStatus.SENT, message_id)
        except Exception:
            self._owed.append((row_id, OutboxStatus.SENT, message_id))
            raise

    async def _write_owed(self) -> None:
        """The marks of rows sent while the last connection was being lost, before any
        row is read: otherwise the next pass, or the next holder of the chat, would send
        them again. Only "sent" is owed: a row given back or refused is simply tried
        again, and marking it later could undo another sender's mark."""
        if self._owed:
            owed, self._owed = self._owed, []
            try:
                await outbox.mark(self.conn, owed)
            except Exception:
                self._owed = owed + self._owed
                raise

    async def _mark(self, row_id: int, status: str, message_id: int | None) -> None:
        """One UPDATE (no read first): it runs once for every message sent, and keeps
        the window in which a crash repeats a message short."""
        await self.conn.execute(
            MARK, {"row_id": row_id, "new_status": status, "sent_id": message_id}
        )


def _utcnow() -> datetime:
    return datetime.now(UTC)

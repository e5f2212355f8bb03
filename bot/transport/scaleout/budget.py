"""The outbox senders of the workers: Telegram's limits together, each message once and
in order, fair between groups, with no database round trip per message.

Chats are split into :data:`PARTS` parts by ``chat_id mod PARTS``. A sender delivers only
the parts whose advisory locks it holds (on a connection of its own, so a killed
worker's parts are free at once); every :data:`CLAIM_EVERY` seconds it tries for the
parts nobody holds. A worker runs :data:`LANES` senders, each trying for its own parts
(``part mod LANES``), so one worker sends to several chats at once, and a second worker's
senders take over whatever a dead one held.

- **A part is sent to only while its lock is sure** (``bot.transport.scaleout.locks``):
  every statement of a pass runs on the locks' connection, so a row is claimed only while
  they are held, and before each message the sender checks that connection still lives.
  Lost (the database ended it), the sender stops at once, forgets its parts, connects
  again, writes the marks the lost connection did not take and tries for its parts like
  any other. A message is claimed before it is sent, so a new holder waits for a claim
  whose mark is owed; a reaction or an edit is not, so a sender that takes a part sends
  none of them for :data:`HAND_OVER` seconds: a previous holder whose connection was
  ended under it, still alive, writes down meanwhile those it had sent.

- **Each chat has one sender at a time**: its replies go out once and in order, and its
  window of ``RATE_PER_CHAT_MINUTE`` (≈20 a minute in a group) is kept in that sender's
  memory exactly as one process keeps it (replies to a person first, with a reserve of
  the minute for them). At the end of each pass the sender writes down the windows it
  used (``send_budget``: messages in the last minute, Telegram's last 429), one statement;
  a sender that takes a part over starts from them, so a hand-over never lets a burst
  through.
- **The bot's ``RATE_PER_SECOND`` (≈30) is shared by parts**: a worker whose lanes hold k
  of the parts sends at most k/PARTS of it (less :data:`MARGIN`), spaced evenly
  (:class:`Pace`). The shares add up to the bot's rate however the parts are spread over
  workers, and nothing is asked of the database to keep it.
- **Fair between groups**: a pass takes turns between chats (every chat's next message
  before any chat's one after it), replies to a person before broadcasts, so no group
  waits for another's backlog.
- **Counted as Telegram counts**: new messages and edits take a share of both rates; a
  reaction is not a message and takes none. Reactions go at the end of a pass, after
  the messages it could send: a group's first reply never waits for every 👍 of every
  other group.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import bindparam, func, text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from bot.application.types import Transport
from bot.transport.outbox import WINDOW, Queued, Sender, is_idempotent
from bot.transport.scaleout.locks import Locks
from db.outbox import OUTBOX, queued, waiting

log = logging.getLogger(__name__)

OUTBOX_LOCKS = 7_301  # advisory-lock namespace for "sending to part k of the chats"
PARTS = 16  # chats are split for sending by chat_id mod PARTS
LANES = 4  # senders in one worker, each sending to its own parts
CLAIM_EVERY = 2.0  # seconds between tries for the parts no live worker holds
# Seconds between taking a part and sending its reactions and edits: longer than a
# previous holder that lost its connection mid-pass takes to notice, connect again and
# write its marks.
HAND_OVER = 1.0
# Seconds between looks at the outbox when nothing woke the sender: a worker that
# commits a reply for a part another worker's sender holds tells it over NATS
# (``bot.transport.scaleout.worker``); this catches a notice lost meanwhile and the
# replies an update commits into other chats (a private message).
POLL_EVERY = 1.0
# Seconds from one pass's start to the next's: a busy sender's wakes (one a commit, its
# own worker's or another's) are taken together, a pass for many commits rather than one
# each; a lone reply on a quiet bot finds the last pass long over and goes at once.
PASS_GAP = 0.2
PASS_SPAN = 1.0  # seconds a pass waits for the bot's pace before it reads the outbox anew
MARGIN = 0.9  # of the bot's rate used: Telegram sees our evenly spaced sends with jitter

REMEMBER = text(
    "INSERT INTO send_budget (key, tokens, at, blocked_until)"
    " VALUES (:key, :tokens, :at, :blocked_until) ON CONFLICT (key) DO UPDATE"
    " SET tokens = excluded.tokens, at = excluded.at, blocked_until = excluded.blocked_until"
)
# The parts of ``:parts`` whose locks this connection got (one round trip for all).
TRY_PARTS = text(
    "SELECT part FROM unnest(CAST(:parts AS int[])) AS part WHERE pg_try_advisory_lock(:ns, part)"
)
# ``db.outbox.queued`` for the parts a sender holds (``:parts``).
QUEUED_IN_PARTS = waiting(
    func.mod(func.abs(OUTBOX.c.chat_id), PARTS).in_(bindparam("parts", expanding=True))
)
RECALL = text(
    "SELECT key, tokens, at, blocked_until FROM send_budget"
    " WHERE key LIKE 'chat:%' AND (at > :since OR blocked_until > :now)"
)


def part_of(chat_id: int) -> int:
    return abs(chat_id) % PARTS


class Pace:
    """One worker's share of the bot's messages a second, spaced evenly: the next
    message may go ``1 / rate`` after the previous one. Its lanes share it; kept in
    memory, the shares of all workers add up to the bot's rate."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second * MARGIN
        self.parts: set[int] = set()  # held by this worker's lanes
        self._next = 0.0  # monotonic moment the next message may go

    @property
    def share(self) -> float:
        return len(self.parts) / PARTS

    def delay(self) -> float:
        """Seconds until the next message may go (1 h while no part is held)."""
        if not self.parts:
            return 3600.0
        return max(0.0, self._next - time.monotonic())

    def take(self) -> float:
        """Book the next moment a message may go; the seconds until it (lanes that ask
        at once get successive moments)."""
        now = time.monotonic()
        at = max(now, self._next)
        self._next = at + 1.0 / (self.per_second * self.share)
        return at - now


class LocksLost(Exception):
    """The connection holding a sender's send locks is gone: it may no longer send."""


class SharedSender(Sender):
    """The outbox sender of one lane of one worker among many (PostgreSQL only)."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[Any],
        transport: Transport,
        per_second: float,
        per_chat_minute: int,
        engine: AsyncEngine | None = None,
        lane: int = 0,
        lanes: int = 1,
        pace: Pace | None = None,
        hand_over: float = HAND_OVER,
    ) -> None:
        super().__init__(sessionmaker, transport, per_chat_minute, engine=engine)
        self.hand_over = hand_over
        self.pace = pace or Pace(per_second)  # the worker's, shared by its lanes
        self.mine = {part for part in range(PARTS) if part % lanes == lane}
        self.parts: set[int] = set()
        self.locks = Locks(self.engine, "worker")  # the parts', and every pass's statements
        self._handed_at: dict[int, float] = {}  # part -> when its hand-over is over
        self._claimed_at = 0.0
        self._pass_began = 0.0
        self._touched: set[int] = set()  # chats whose window this pass changed
        # Told of the parts this lane took (its worker listens for their notices).
        self.on_claim: Callable[[set[int]], Awaitable[None]] | None = None

    async def open(self) -> None:
        await self.locks.open()

    async def close(self) -> None:
        await self.stop()
        await self.locks.release()
        self._forget_parts()

    def _forget_parts(self) -> None:
        self.pace.parts -= self.parts
        self.parts.clear()
        self._claimed_at = 0.0  # try for them again at once

    async def _lose_parts(self) -> None:
        """The locks' connection is gone or in doubt: end it (the server frees whatever
        it still held) and send to none of the parts until they are taken again."""
        if self.parts:
            log.warning("send locks of parts %s lost with their connection", sorted(self.parts))
        await self.locks.drop()
        self._forget_parts()

    async def _claim_parts(self) -> None:
        """Take the send locks of this lane's parts no live sender holds, and the
        windows their last sender wrote down."""
        self._claimed_at = time.monotonic()
        rows = await self.locks.conn.execute(
            TRY_PARTS, {"ns": OUTBOX_LOCKS, "parts": sorted(self.mine - self.parts)}
        )
        new = {int(part) for (part,) in rows.all()}
        if new:
            await self._recall(new)
            self.parts |= new
            self.pace.parts |= new
            self._handed_at.update(dict.fromkeys(new, time.monotonic() + self.hand_over))
            if self.on_claim is not None:
                await self.on_claim(new)

    async def _recall(self, parts: set[int]) -> None:
        """Start each chat of ``parts`` from the window its last sender wrote down: as
        many messages as it sent in the last minute, counted as sent at its last one."""
        wall, mono = time.time(), time.monotonic()
        rows = await self.locks.conn.execute(RECALL, {"since": wall - WINDOW, "now": wall})
        for key, tokens, at, blocked_until in rows.all():
            chat = int(key.split(":", 1)[1])
            if part_of(chat) not in parts:
                continue
            if at > wall - WINDOW:
                self._sent_at[chat] = deque([mono - (wall - at)] * int(tokens))
            if blocked_until > wall:
                self._blocked_until[chat] = mono + (blocked_until - wall)

    def holds(self, chat_id: int) -> bool:
        """Whether this sender sends to ``chat_id`` (holds its part)."""
        return part_of(chat_id) in self.parts

    async def flush_once(self) -> float:
        if not self.locks.alive():
            await self._lose_parts()
        self._conn = await self.locks.open()  # the database away: the loop backs off
        try:
            return await self._flush()
        except BaseException as exc:
            lost = not self.locks.alive()
            await self._lose_parts()
            if lost and isinstance(exc, Exception):  # not a stop: connect again at once
                why = type(exc).__name__
                log.warning("the send locks' connection was lost (%s); connecting again", why)
                return 0.0
            raise
        finally:
            self._conn = None

    async def _flush(self) -> float:
        await self._write_owed()
        if self.parts != self.mine and time.monotonic() - self._claimed_at >= CLAIM_EVERY:
            await self._claim_parts()
        if not self.parts:  # nothing to send: only try for the parts again, in a while
            return CLAIM_EVERY
        if (early := self._pass_began + PASS_GAP - time.monotonic()) > 0:
            await asyncio.sleep(early)
        # A reply of another worker's may have been committed with its notice lost.
        return min(await self._pass(), POLL_EVERY)

    async def _pass(self) -> float:
        self._pass_began = time.monotonic()
        try:
            return await super()._pass()
        finally:
            await self._remember()

    async def _remember(self) -> None:
        """Write down the windows of the chats this pass sent to (one statement)."""
        if not self._touched:
            return
        chats, self._touched = self._touched, set()
        wall, mono = time.time(), time.monotonic()
        await self.conn.execute(
            REMEMBER,
            [
                {
                    "key": f"chat:{chat}",
                    "tokens": sum(1 for at in self._sent_at[chat] if mono - at < WINDOW),
                    "at": wall,
                    "blocked_until": wall + max(0.0, self._blocked_until.get(chat, 0.0) - mono),
                }
                for chat in sorted(chats)
            ],
        )

    async def _queued(self) -> list[Queued]:
        """``db.outbox.queued`` for this sender's parts: waiting rows and claimed ones (a
        dead worker's claim is sent again once its lease runs out)."""
        return list(await queued(self.conn, QUEUED_IN_PARTS, {"parts": sorted(self.parts)}))

    def _order(self, rows: list[Queued], stage: dict[int, int]) -> list[Queued]:
        """As one process orders them, but taking turns between chats: within each
        stage's replies (and then its broadcasts), every chat's first row, then every
        chat's second, and so on; reactions last. A chat's own messages keep their order."""
        turn: dict[int, int] = {}
        seen: Counter[tuple[int, int, bool]] = Counter()
        for row in rows:  # oldest first
            lane = (row.chat_id, stage[row.id], bool(row.broadcast))
            turn[row.id] = seen[lane]
            seen[lane] += 1
        return sorted(
            rows,
            key=lambda r: (r.kind == "react", stage[r.id], bool(r.broadcast), turn[r.id], r.id),
        )

    async def _deliver(self, row: Queued, edit_id: int | None) -> float:
        handing_over = self._handed_at.get(part_of(row.chat_id), 0.0) - time.monotonic()
        if handing_over > 0 and is_idempotent(row):  # sent without a claim: see above
            return handing_over
        if row.kind != "react":  # a reaction is not a message: no share of the bot's rate
            wait = self.pace.delay()
            if wait > 0 and time.monotonic() + wait - self._pass_began > PASS_SPAN:
                return wait  # read the outbox again first: replies may have come meanwhile
            if wait := self.pace.take():
                await asyncio.sleep(wait)
            self._touched.add(row.chat_id)
        if not self.locks.alive():  # another sender may hold the part by now
            raise LocksLost(f"part {part_of(row.chat_id)}")
        return await super()._deliver(row, edit_id)

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

A picture or a file is uploaded once: marked sent, its row keeps the ``file_id``
Telegram answered with and drops its bytes, and a row queued with the same picture (a
cached /standings answer; ``db.outbox.known_files`` swaps the bytes for the id as it is
queued, or the sender as it sends one queued before the first went) goes by that id.

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

When Telegram says no (``bot.transport.refusals`` reads what it means), nothing is lost
without a word (docs/operations.md#refusals):

* A photo the chat refuses goes as its caption, in text (the standings and the seating
  are said in words under their pictures); a file waits until media are allowed again,
  and a picture edit edits the caption. A reaction refused is said in words: the
  acknowledgements of a pass go as one message, within the chat's minute.
* An edit of a message that was deleted (or never went out) posts it anew, pinned again
  where it was, and the next edits edit that one.
* What the chat refuses until something changes (no right to send text, a closed topic)
  is kept and tried again (``bot.transport.holds``); the organisers are told once
  (``on_refused``). A person who blocked the bot is not written to again
  (``on_refused`` marks them); a private message with a fallback (a referee call) is
  said in the group instead.
* A group that became a supergroup: what waits for it goes to the new id.
* A photo or a file that fails for longer than :data:`MEDIA_PATIENCE` stops holding up
  the text behind it: a photo goes as its text, a file is tried again on its own.
* A 5xx, a network error or a proxy's HTML page is tried again with backoff, for that
  chat only; a revoked token pauses sending until Telegram takes it again. A 5xx that
  came after Telegram had delivered the message cannot be told from one before: the
  message goes once more (one repeat per such answer; there is no idempotency key).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, Row
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker

from bot.application.types import (
    Delivered,
    Outgoing,
    PermanentError,
    RetryAfter,
    TransientError,
    Transport,
    Unauthorized,
)
from bot.transport import refusals
from bot.transport.holds import MEDIA, Holds
from bot.transport.refusals import Reason, Scope
from db import outbox, retention
from db.outbox import (
    CLAIM,
    FAIL_CHAT,
    GIVE_BACK,
    MARK,
    MARK_AS,
    QUEUED_BATCH,
    QUEUED_PER_LANE,
    READDRESS,
    REDIRECT,
    Mark,
    Tagged,
)
from db.status import OutboxStatus

log = logging.getLogger(__name__)

WINDOW = 60.0
MAX_BACKOFF = 30.0
RESERVE_SHARE = 0.25  # of each chat's minute kept for replies to one person
# How long a claimed row stays its sender's. Longer than a send takes; short, because a
# row claimed by a process that then died waits this long before it is sent again.
LEASE = timedelta(seconds=10)
# How long ``Sender.stop`` lets the message in flight finish before cancelling it.
STOP_GRACE = 5.0
# Seconds a failing photo or file may hold up the messages behind it: then a photo goes
# as its text, a file is tried again on its own. Tried every MEDIA_RETRY seconds till then.
MEDIA_PATIENCE = 8.0
MEDIA_RETRY = 2.0
REACTIONS_OFF = 600.0  # seconds a chat that refused a reaction gets words instead, unasked
PIN_TRIES = 3  # pins rate-limited (or failing) this often: the organisers pin it themselves
MAX_PAUSE = 300.0  # the longest wait for Telegram to take the bot's token again
# A refusal's consequences: the message itself, then what it falls back to (a photo's
# text, a caption edit), then the fallback of that (a text refused: held).
MAX_STEPS = 3
Refused = Callable[[int, int | None, str], Awaitable[None]]

# An outbox row as the sender reads it (``db.outbox``): a plain row, read by name.
Queued = Row[Any]


def is_edit(row: Queued) -> bool:
    """``edit`` (text), ``edit_caption`` and ``edit_media`` (a photo's picture)."""
    return str(row.kind).startswith("edit")


def is_idempotent(row: Queued) -> bool:
    """Sent a second time, it changes nothing the chat sees: a reaction, an edit (and
    the no-op that says the bot's rights changed)."""
    return row.kind in ("react", "resume") or is_edit(row)


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


@dataclass
class PendingPin:
    """A pin Telegram rate-limited (or failed): tried again at ``at`` (monotonic)."""

    chat_id: int
    message_id: int
    at: float
    tries: int


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
        # The marks a pass writes at its end, see above.
        self._unmarked: list[Mark] = []
        # Rows sent whose mark a lost connection did not write: written first next time.
        self._owed: list[Mark] = []
        self._edited_at: dict[tuple[int, object], float] = {}  # (chat, target) -> last edit
        self._holds = Holds()  # what chats refuse until something changes there
        self._failing_since: dict[int, float] = {}  # photo or file row -> its first failure
        self._aside: dict[int, float] = {}  # a failing file -> its next try (its lane goes on)
        self._loose: set[int] = set()  # rows whose wait holds up no row behind them
        self._no_reactions: dict[int, float] = {}  # chat -> until when its 👍 go in words
        self._moved: dict[int, int] = {}  # a group that became a supergroup -> its new id
        self._merged: dict[int, list[int]] = {}  # a reaction said in words -> others with it
        self._tagged: dict[int, Tagged] = {}  # an edit by tag -> its message, for _deliver
        self._done: set[int] = set()  # rows this pass finished along with another
        self._rows: list[Queued] = []  # this pass's rows
        self._pins: list[PendingPin] = []
        self._paused_until = 0.0  # the token is refused: nothing is sent until then
        self._pauses = 0
        self._wake = asyncio.Event()
        self._conn: AsyncConnection | None = None  # during a pass
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._notices: set[asyncio.Task[None]] = set()
        # What this sender told of that holds nothing back (a pin, reactions): told again
        # after it worked once more.
        self._told: set[tuple[int, Reason]] = set()
        # Told (chat id, topic, reason) when Telegram refuses something in a chat until it
        # changes, or a person is gone (``Core.delivery_refused``); and (chat id, reason)
        # when it works again. None: nobody is told.
        self.on_refused: Refused | None = None
        self.on_resumed: Callable[[int, str], Awaitable[None]] | None = None
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
        queued = await self._queued()
        rows = [r for r in queued if r.kind != "resume"]
        resumed = [r for r in queued if r.kind == "resume"]
        for row in resumed:  # the bot's rights changed there: try what is held at once
            self._holds.try_now(row.chat_id)
            self._no_reactions.pop(row.chat_id, None)
        await self._due_pins()
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
        self._unmarked = [Mark(row_id, OutboxStatus.SUPERSEDED) for row_id in superseded]
        self._unmarked += [Mark(row.id, OutboxStatus.SENT) for row in resumed]
        self._rows, self._done, self._moved, self._tagged = rows, set(superseded), {}, {}
        paused = self._paused_until - time.monotonic()
        if paused > 0:  # the token is refused: nothing goes until Telegram takes it again
            await self._mark_unmarked()
            return paused
        stage, unseen = stages(rows), unseen_way(rows)
        # Announcements a reply waits behind: they may use the replies' reserve.
        last_reply = {r.chat_id: r.id for r in rows if not r.broadcast and r.kind != "react"}
        ahead = {r.id for r in rows if is_announcement(r) and r.id < last_reply.get(r.chat_id, 0)}
        try:
            for row in self._order(rows, stage):
                if self._stopping:
                    break
                if row.id in self._done:
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
        return min(next_try, self._next_pin())

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
        if lane in held or row.chat_id in self._moved:
            return None
        if row.status == OutboxStatus.SENDING:  # another sender's, or a dead one's
            left = (row.lease_until or datetime.min.replace(tzinfo=UTC)) - _utcnow()
            if left > timedelta(0):
                held.add(lane)
                return left.total_seconds()
        target = (row.chat_id, self._target(row))
        now = time.monotonic()
        withheld = self._withheld(row, now)
        if withheld is not None:
            wait, whole_lane = withheld
            if whole_lane:
                held.add(lane)
            return wait
        ready = self._blocked_until.get(row.chat_id, 0.0)
        if row.kind != "react":
            ready = max(ready, self._ready_at(row.chat_id, now, lane[1] and not reserve))
        if is_edit(row) and row.broadcast and target in self._edited_at:
            ready = max(ready, self._edited_at[target] + self.edit_gap)
        if ready > now:
            held.add(lane)
            return ready - now
        edit_id, found = row.edit_message_id, None
        if row.edit_tag:
            found = await outbox.tagged(self.conn, row.chat_id, row.edit_tag)
            if found.message_id is None and found.waiting:  # edit it once it is sent
                held.add(lane)
                return 1.0
            # None: it never went out, so it is posted now; or it went out so long ago
            # that its row is gone, and the id its owner kept (``retention``) is edited.
            edit_id = found.message_id or row.edit_message_id
            if found.message_id is None and not found.waiting:
                kept = await retention.kept_message(self.conn, row.edit_tag)
                edit_id = edit_id or kept.message_id
                found = found._replace(pin=kept.pin)
        if found is not None:
            self._tagged[row.id] = found
        delay = await self._deliver(row, edit_id)
        if delay:
            if row.id not in self._loose:
                held.add(lane)
            return delay
        if is_edit(row):
            self._edited_at[target] = time.monotonic()
        return 0.0 if full else None

    def _withheld(self, row: Queued, now: float) -> tuple[float, bool] | None:
        """How long ``row`` must wait for what its chat refuses (a hold, a file set
        aside), and whether the rows after it in its lane wait too."""
        hold = self._holds.withheld(row, now)
        if hold is not None:
            if not hold.holds_lane:
                self._loose.add(row.id)
            return hold.until - now, hold.holds_lane
        aside = self._aside.get(row.id, 0.0)
        if aside > now:
            return aside - now, False
        return None

    async def _queued(self) -> list[Queued]:
        """The queued rows this sender delivers, oldest first."""
        return list(await outbox.queued(self.conn))

    def _outgoing(self, row: Queued, edit_id: int | None, found: Tagged | None) -> Outgoing:
        """The row as Telegram is asked for it. An edit of a picture whose message went
        out as text (the chat refused the photo) edits that text."""
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
            file_id=row.file_id,
            edit_message_id=edit_id,
            broadcast=bool(row.broadcast),
            tag=row.tag,
            pin=bool(row.pin),
        )
        if (
            found is not None
            and found.kind == "text"
            and row.kind in ("edit_caption", "edit_media")
        ):
            out.kind, out.file, out.file_id, out.filename = "edit", None, None, None
        return out

    async def _first_step(
        self, row: Queued, edit_id: int | None, found: Tagged | None
    ) -> Outgoing | float:
        """What to ask Telegram for first, or how long the row waits (0: it is done).
        A reaction in a chat that refuses them is said in words; a photo in a chat that
        refuses media is its text; an edit of a tagged message that never went out
        posts it."""
        now = time.monotonic()
        if row.kind == "react" and self._no_reactions.get(row.chat_id, 0.0) > now:
            return await self._in_words(row)
        if row.kind == "photo" and self._holds.refuses(row.chat_id, Reason.NO_MEDIA, now):
            return await self._as_text(row)
        if row.edit_tag and found is not None and edit_id is None:
            return self._reposted(row, pin=False)
        out = self._outgoing(row, edit_id, found)
        if out.file and row.file_digest:  # queued again before Telegram had it the first time
            out.file_id = await outbox.known_file(self.conn, row.file_digest)
            out.file = out.file if out.file_id is None else None
        return out

    async def _deliver(self, row: Queued, edit_id: int | None) -> float:
        """Try one message (and what it falls back to); return 0 when done with it, else
        seconds to wait."""
        found = self._tagged.pop(row.id, None)  # its tagged message, as _consider found it
        step = await self._first_step(row, edit_id, found)
        if not isinstance(step, Outgoing):
            return step
        claimed = not is_idempotent(row) and not self.exclusive
        if claimed and not await self._claim(row.id):
            return 0.0  # another sender took it
        wait = 0.0
        for _ in range(MAX_STEPS):
            try:
                sent = await self._send(step)
            except RetryAfter as exc:
                self._blocked_until[row.chat_id] = time.monotonic() + exc.seconds
                log.warning("429 for chat %s: waiting %ss", row.chat_id, exc.seconds)
                wait = float(exc.seconds)
                break
            except Unauthorized:
                wait = self._pause()
                break
            except TransientError:
                after = self._after_failure(row, step)
                if isinstance(after, Outgoing):
                    step = after
                    continue
                wait = after
                break
            except PermanentError as exc:
                after = await self._refused(row, step, exc, found)
                if isinstance(after, Outgoing):
                    step = after
                    continue
                wait = after
                break
            else:
                await self._delivered(row, step, sent)
                return 0.0
        else:  # fell back as far as it goes, and failed each time: later
            wait = MEDIA_RETRY
        self._merged.pop(row.id, None)
        if claimed and wait > 0:  # kept: give it back
            await self.conn.execute(GIVE_BACK, {"row_id": row.id})
        return wait

    async def _send(self, out: Outgoing) -> Delivered:
        """Telegram's answer to ``out``, its errors as ``bot.transport.refusals`` reads
        them. Anything else an adapter lets through (a library raising what it never
        did) counts as transient, for this chat alone: a pass never fails for it."""
        try:
            return await self.transport.send(out)
        except (RetryAfter, TransientError, PermanentError):
            raise
        except Exception as exc:
            log.exception("unexpected error sending to chat %s", out.chat_id)
            raise TransientError(str(exc)) from exc

    def _pause(self) -> float:
        """Telegram refuses the token: nothing is sent (nor given up) until it takes it."""
        self._pauses += 1
        wait = float(min(MAX_PAUSE, 5.0 * 2 ** (self._pauses - 1)))
        self._paused_until = time.monotonic() + wait
        log.error("Telegram refuses the bot's token (401): sending paused for %.0fs", wait)
        return wait

    def _after_failure(self, row: Queued, out: Outgoing) -> Outgoing | float:
        """A transient failure: what to try now, or how long to wait. A text's chat waits
        with backoff; a photo or file fails alone, and after :data:`MEDIA_PATIENCE` no
        longer holds up what follows it (a photo goes as its text)."""
        now = time.monotonic()
        self._failures[row.id] += 1
        backoff = float(min(MAX_BACKOFF, 0.5 * 2 ** self._failures[row.id]))
        if out.kind not in MEDIA:
            self._blocked_until[row.chat_id] = now + backoff
            log.warning("transient error sending outbox %s; retry in %.1fs", row.id, backoff)
            return backoff
        since = self._failing_since.setdefault(row.id, now)
        if now - since < MEDIA_PATIENCE:
            log.warning("transient error sending picture %s; retry in %.1fs", row.id, MEDIA_RETRY)
            return min(MEDIA_RETRY, backoff)
        instead = self._text_instead(row, out)
        if instead is not None:
            log.warning("picture %s still failing: sent as text", row.id)
            return instead
        self._aside[row.id] = now + backoff  # a file: tried again on its own
        self._loose.add(row.id)
        log.warning("file %s still failing: retry in %.1fs, the chat goes on", row.id, backoff)
        return backoff

    def _text_instead(self, row: Queued, out: Outgoing) -> Outgoing | None:
        """The words of a picture: a photo's caption as a text message (with its buttons,
        tag and pin), a picture edit as a caption edit; None for a file (no words)."""
        if out.kind == "edit_media":
            return replace(out, kind="edit_caption", file=None, file_id=None, filename=None)
        if out.kind != "photo" or not out.text:
            return None
        return replace(out, kind="text", file=None, file_id=None, filename=None)

    async def _as_text(self, row: Queued) -> Outgoing | float:
        """A photo the chat refuses, as its text; one without words (its text went on
        its own, before it) is done."""
        instead = self._text_instead(row, self._outgoing(row, None, None))
        if instead is not None:
            return instead
        await self._fail(row.id)
        return 0.0

    def _reposted(self, row: Queued, pin: bool) -> Outgoing:
        """An edit of a tagged message that is gone (deleted, or never sent), as a new
        message with the tag: the next edits edit it. A picture edit posts the picture,
        a caption edit its words (the old picture is not kept)."""
        photo = row.kind == "edit_media" and bool(row.file or row.file_id)
        return Outgoing(
            row.chat_id,
            "photo" if photo else "text",
            row.text,
            row.thread_id,
            [[(label, data) for label, data in r] for r in row.buttons] if row.buttons else None,
            file=row.file if photo else None,
            file_id=row.file_id if photo else None,
            filename=row.filename if photo else None,
            broadcast=bool(row.broadcast),
            tag=row.edit_tag,
            pin=pin,
        )

    async def _refused(
        self, row: Queued, out: Outgoing, exc: PermanentError, found: Tagged | None
    ) -> Outgoing | float:
        """Telegram refused ``out`` for good: what to try instead, or how long the row
        waits (0: it is done, marked)."""
        reason, scope = refusals.reason_of(exc), refusals.scope_of(exc, out.chat_id)
        chat = out.chat_id
        if reason is Reason.UNCHANGED and out.edit_message_id:
            await self._delivered(row, out, Delivered(out.edit_message_id))  # shown already
            return 0.0
        if reason is Reason.MIGRATED and exc.migrate_to:
            self._moved[chat] = exc.migrate_to
            await self.conn.execute(READDRESS, {"chat_id": chat, "new_id": exc.migrate_to})
            log.warning("chat %s became %s: its messages go there", chat, exc.migrate_to)
            return 0.01  # given back, under the new id: the next pass sends it
        if scope is Scope.USER:
            gone = reason if refusals.SCOPE[reason] is Scope.USER else Reason.NOT_STARTED
            self._notify(chat, None, gone)
            return await self._instead(row)
        if reason is Reason.MESSAGE_GONE and row.edit_tag and is_edit(row):
            log.info("tagged message of outbox %s is gone: posted again", row.id)
            return self._reposted(row, pin=found is not None and found.pin)
        if reason is Reason.REACTION and row.kind == "react":
            self._no_reactions[chat] = time.monotonic() + REACTIONS_OFF
            self._notify(chat, None, Reason.REACTION)
            return await self._in_words(row)
        if reason is Reason.NO_MEDIA:
            self._hold(chat, Reason.NO_MEDIA, None)
            instead = self._text_instead(row, out)
            if instead is not None:
                return instead
            if out.kind == "document":  # kept, while the text goes on
                self._loose.add(row.id)
                return self._held_for(row)
            await self._fail(row.id)  # a picture without words
            return 0.0
        if reason in (Reason.NO_TEXT, Reason.TOPIC_CLOSED):
            self._hold(chat, reason, out.thread_id)
            return self._held_for(row)
        if reason is Reason.REMOVED:
            log.warning("the bot is no longer in chat %s: its messages are dropped", chat)
            await self.conn.execute(FAIL_CHAT, {"chat_id": chat})
            return 0.0
        if reason is Reason.INVALID and out.file_id and not out.file:
            log.warning("Telegram no longer knows the file of outbox %s: its words go", row.id)
            instead = self._text_instead(row, out)  # its bytes are gone (retention)
            if instead is not None:
                return instead
        if reason is Reason.MESSAGE_GONE:
            log.info("the message outbox %s is about is gone", row.id)
        else:
            log.error("Telegram refused outbox message %s: %s", row.id, exc)
        await self._fail(row.id)
        return 0.0

    def _held_for(self, row: Queued) -> float:
        """Seconds until ``row``, just refused, is tried again."""
        now = time.monotonic()
        hold = self._holds.withheld(row, now)
        return hold.until - now if hold is not None else 0.01

    def _hold(self, chat_id: int, reason: Reason, thread_id: int | None) -> None:
        if self._holds.hold(chat_id, reason, thread_id, time.monotonic()):
            log.warning("chat %s refuses the bot (%s): its messages are kept", chat_id, reason)
            self._notify(chat_id, thread_id, reason)

    async def _instead(self, row: Queued) -> float:
        """A private message to someone gone: said in its fallback chat, once for all
        the messages of its ``once`` (a referee call that reached no organiser is
        called in the group); else dropped."""
        fallback = row.fallback or {}
        to_chat = fallback.get("chat_id")
        once = fallback.get("once")
        if to_chat is None:
            await self._fail(row.id)
            return 0.0
        if once is not None:
            said = await outbox.tagged(self.conn, int(to_chat), str(once))
            if said.message_id is not None or said.waiting:
                await self._fail(row.id)
                return 0.0
        await self.conn.execute(
            REDIRECT,
            {
                "row_id": row.id,
                "to_chat": int(to_chat),
                "to_thread": fallback.get("thread_id"),
                "to_text": str(fallback.get("text") or row.text),
                "to_tag": once,
            },
        )
        return 0.0

    async def _in_words(self, row: Queued) -> Outgoing | float:
        """The chat refuses reactions: the words of this pass's reactions in it, one
        message within its minute (replying to the message when there is one). A
        reaction without words is done."""
        chat = row.chat_id
        said = [
            r
            for r in self._rows
            if r.chat_id == chat and r.kind == "react" and r.id not in self._done
        ]
        words = [r for r in said if (r.fallback or {}).get("text")]
        if row not in words:
            await self._fail(row.id)
            return 0.0
        now = time.monotonic()
        ready = self._ready_at(chat, now, broadcast=False)
        if ready > now:
            return ready - now
        self._merged[row.id] = [r.id for r in words if r.id != row.id]
        return Outgoing(
            chat,
            "text",
            "\n".join(str(r.fallback["text"]) for r in words)[:4096],
            row.thread_id,
            reply_to=row.edit_message_id if len(words) == 1 else None,
        )

    async def _delivered(self, row: Queued, out: Outgoing, sent: Delivered) -> None:
        """Telegram took ``out`` for ``row``: mark it (as what it went as, if it fell
        back), count it, lift what its chat no longer refuses, pin it."""
        answered = time.monotonic()
        message_id = sent.message_id
        done = Mark(row.id, OutboxStatus.SENT, message_id, sent.file_id)
        if out.kind == row.kind and out.tag == row.tag:
            if is_idempotent(row):
                self._unmarked.append(done)
            else:
                await self._mark_sent(done)
                self.window.append(time.monotonic() - answered)
        else:
            try:
                await self.conn.execute(
                    MARK_AS,
                    {
                        "row_id": row.id,
                        "sent_id": message_id,
                        "sent_kind": out.kind,
                        "sent_tag": out.tag,
                        "sent_pin": out.pin,
                        "sent_file": sent.file_id,
                    },
                )
            except Exception:  # owed as sent, like any mark a lost connection did not write
                self._owed.append(done)
                raise
            self.window.append(time.monotonic() - answered)
        for other in self._merged.pop(row.id, []):  # reactions said in the same words
            self._unmarked.append(Mark(other, OutboxStatus.SENT, message_id))
            self._done.add(other)
        if out.kind != "react":
            self._sent_at[row.chat_id].append(answered)
        self._forget(row.id)
        self._pauses = 0
        lifted = self._holds.lift(out.chat_id, out)
        if out.kind == "react":
            lifted.append(Reason.REACTION)
        for reason in lifted:
            log.info("chat %s takes the bot's messages again (%s)", out.chat_id, reason)
            self._resumed(out.chat_id, reason)
        if out.pin:
            await self._pin(out.chat_id, message_id)

    def _forget(self, row_id: int) -> None:
        """A row is done with: what this sender kept about its tries goes."""
        self._failures.pop(row_id, None)
        self._failing_since.pop(row_id, None)
        self._aside.pop(row_id, None)
        self._loose.discard(row_id)

    def _notify(self, chat_id: int, thread_id: int | None, reason: Reason) -> None:
        """Tell the core (it tells the organisers once, marks a person gone)."""
        self._told.add((chat_id, reason))
        if self.on_refused is not None:
            self._spawn(self.on_refused(chat_id, thread_id, str(reason)))

    def _resumed(self, chat_id: int, reason: Reason) -> None:
        """What the chat refused works again (the core forgets it was told), if this
        sender had told of it."""
        if (chat_id, reason) not in self._told:
            return
        self._told.discard((chat_id, reason))
        if self.on_resumed is not None:
            self._spawn(self.on_resumed(chat_id, str(reason)))

    def _spawn(self, work: Awaitable[None]) -> None:
        """Run the core's work beside the pass: its transaction must not hold up the
        other chats' messages."""

        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("telling the core of a refusal failed")

        task = asyncio.create_task(run())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def _pin(self, chat_id: int, message_id: int, tries: int = 1) -> None:
        """Pin a message just sent. Refused (the right was taken away after the draw's
        check), the organisers are told; rate-limited, it is pinned later, and after
        :data:`PIN_TRIES` tries they are asked to pin it themselves."""
        try:
            await self.transport.pin(chat_id, message_id)
            for reason in (Reason.NO_PIN, Reason.PIN_FAILED):
                self._resumed(chat_id, reason)
        except RetryAfter as exc:
            self._pin_later(chat_id, message_id, tries, float(exc.seconds))
        except PermanentError as exc:
            if refusals.reason_of(exc) is not Reason.MESSAGE_GONE:  # else: deleted meanwhile
                log.warning("could not pin message %s in chat %s: %s", message_id, chat_id, exc)
                self._notify(chat_id, None, Reason.NO_PIN)
        except Exception:
            log.warning("could not pin message %s in chat %s", message_id, chat_id, exc_info=True)
            self._pin_later(chat_id, message_id, tries, MAX_BACKOFF)

    def _pin_later(self, chat_id: int, message_id: int, tries: int, after: float) -> None:
        if tries >= PIN_TRIES:
            self._notify(chat_id, None, Reason.PIN_FAILED)
            return
        at = time.monotonic() + after
        self._pins.append(PendingPin(chat_id, message_id, at, tries + 1))

    async def _due_pins(self) -> None:
        """Pin what is due again."""
        now = time.monotonic()
        due = [pin for pin in self._pins if pin.at <= now]
        self._pins = [pin for pin in self._pins if pin.at > now]
        for pin in due:
            await self._pin(pin.chat_id, pin.message_id, pin.tries)

    def _next_pin(self) -> float:
        """Seconds until the next pin to try again is due (an hour if none)."""
        now = time.monotonic()
        return min((max(0.0, pin.at - now) for pin in self._pins), default=3600.0)

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
                self._owed += [mark for mark in marks if mark.status == OutboxStatus.SENT]
                raise

    async def _mark_sent(self, done: Mark) -> None:
        """Mark a message sent: one UPDATE (no read first), so the window in which a
        crash repeats a message stays short. A mark the database did not take is owed
        (see above)."""
        try:
            await self.conn.execute(MARK, outbox.mark_params(done))
        except Exception:
            self._owed.append(done)
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

    async def _fail(self, row_id: int) -> None:
        """Give a row up: it is done with, never sent."""
        self._forget(row_id)
        await self.conn.execute(MARK, outbox.mark_params(Mark(row_id, OutboxStatus.FAILED)))


def _utcnow() -> datetime:
    return datetime.now(UTC)

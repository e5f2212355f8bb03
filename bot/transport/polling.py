"""Long polling that confirms an update only after it has been handled.

Both libraries' own pollers ask for the next batch (which tells Telegram to forget the
last one) while the previous batch may still be in flight, so a crash there would drop
updates. Here the offset never moves past an update that ``handle`` has not committed;
after a crash Telegram sends it again and the core's processed-update table skips it
if it had in fact been committed.

Fetching does not wait for handling, though: one slow update (the first /standings
picture after the results takes most of a second) must not hold back another chat's
reply that arrives while it runs. So the poller keeps fetching while updates are in
flight and hands each new update to its chat's queue: chats run concurrently, each
chat's updates one after another in their order. What has queued up for a chat by the
time its previous updates are done is handed over together (``Core.handle_many`` runs
a burst in one transaction). Because the offset stays at the
lowest unfinished update, Telegram re-sends the ones still in flight with every fetch;
those, and the ones already finished above the offset, are recognised by id and not
handled twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from bot.application.types import Incoming

log = logging.getLogger(__name__)
# getUpdates from an offset; the predicate names updates already in hand, which need
# not be decoded again (see ``decode_batch``).
Fetch = Callable[[int | None, Callable[[int], bool]], Awaitable[list[tuple[int, Incoming | None]]]]
# Handle one chat's updates, in order (raising if any of them could not be handled).
Handle = Callable[[list[Incoming]], Awaitable[None]]
MAX_BACKOFF = 30.0
# Of one chat's queued updates, at most this many are handed over at once: a burst
# shares a transaction, and the first of them is not answered much later than alone.
MAX_TOGETHER = 50
# Updates taken on at once; beyond this the poller waits for some to finish, and what
# it has not taken stays with Telegram (backpressure instead of an unbounded queue).
MAX_IN_FLIGHT = 200
# While updates are in flight a fetch returns at once (Telegram re-sends the unconfirmed
# ones, up to 100, each decoded again), so the poller fetches at most this often until
# all of them are done: the delay a new update can see, against the cost of re-fetching.
# Waking on every finished update instead re-fetched a hundred updates per update handled
# in a burst, and starved the handlers.
REFETCH_WAIT = 0.1


def decode_batch(
    raw: list[dict[str, Any]],
    decode: Callable[[dict[str, Any]], Incoming | None],
    in_hand: Callable[[int], bool],
) -> list[tuple[int, Incoming | None]]:
    """Turn each raw update into an :class:`Incoming` on its own.

    The libraries decode a whole getUpdates answer at once, so one update they cannot
    read (a field of a newer Bot API, a malformed value) would fail the batch and be
    fetched again forever. Here it is skipped with a warning, and polling goes on.

    Updates ``in_hand`` (re-sent while they are handled: up to a hundred with every
    fetch of a burst) are not decoded again; the poller skips them by id."""
    batch: list[tuple[int, Incoming | None]] = []
    for update in raw:
        update_id = update.get("update_id") if isinstance(update, dict) else None
        if not isinstance(update_id, int):
            log.warning("skipping an update without an id: %.200r", update)
            continue
        if in_hand(update_id):
            batch.append((update_id, None))
            continue
        try:
            batch.append((update_id, decode(update)))
        except Exception:
            log.warning("skipping update %s: cannot decode it", update_id, exc_info=True)
            batch.append((update_id, None))
    return batch


async def poll_forever(fetch: Fetch, handle: Handle) -> None:
    await Poller(fetch, handle).run()


class Poller:
    """The bookkeeping behind :func:`poll_forever`.

    ``unfinished`` holds every update taken on and not yet committed, whether queued,
    running, or dropped after a failure (then Telegram re-sends it and it is taken on
    again); the offset stays at its lowest id. ``active`` is the part queued or
    running, skipped when re-sent. ``finished`` remembers committed ids still at or
    above the offset, which Telegram re-sends too."""

    def __init__(
        self,
        fetch: Fetch,
        handle: Handle,
        max_in_flight: int = MAX_IN_FLIGHT,
        refetch_wait: float = REFETCH_WAIT,
    ) -> None:
        self.fetch = fetch
        self.handle = handle
        self.max_in_flight = max_in_flight
        self.refetch_wait = refetch_wait
        self.next_id: int | None = None  # one past the highest update taken on
        self.unfinished: set[int] = set()
        self.active: set[int] = set()
        self.finished: set[int] = set()
        self.queues: dict[int, deque[Incoming]] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.idle = asyncio.Event()  # set when nothing is in flight any more
        self.failed = False  # a handler failed since the last back-off
        self.handle_failures = 0  # in a row: the back-off grows while the database is down

    @property
    def offset(self) -> int | None:
        """What getUpdates may confirm: nothing at or above an unfinished update."""
        return min(self.unfinished) if self.unfinished else self.next_id

    async def run(self) -> None:
        failures = 0
        try:
            while True:
                if self.failed:
                    self.failed = False
                    await self._backoff(self.handle_failures, "handling an update failed")
                while len(self.active) >= self.max_in_flight:
                    await self._wait_idle(self.refetch_wait)
                try:
                    batch = await self.fetch(self.offset, self.in_hand)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    failures += 1
                    await self._backoff(failures, "polling failed", exc_info=True)
                    continue
                failures = 0
                self.take(batch)
                if self.active:
                    await self._wait_idle(self.refetch_wait)
        finally:
            await self._cancel_tasks()

    def in_hand(self, update_id: int) -> bool:
        """Whether :meth:`take` would skip this update by its id alone."""
        if update_id in self.active or update_id in self.finished:
            return True
        seen = self.next_id is not None and update_id < self.next_id
        return seen and update_id not in self.unfinished

    def take(self, batch: list[tuple[int, Incoming | None]]) -> None:
        """Queue the updates of ``batch`` not already in hand."""
        for update_id, incoming in batch:
            if self.in_hand(update_id):  # in flight, or finished (and maybe forgotten)
                continue
            if len(self.active) >= self.max_in_flight:
                break  # the rest stays with Telegram and comes again
            self.next_id = max(self.next_id or 0, update_id + 1)
            if incoming is None:  # undecodable or of no interest: done at once
                self._finish(update_id)
                continue
            self.unfinished.add(update_id)
            self.active.add(update_id)
            self.queues.setdefault(incoming.chat_id, deque()).append(incoming)
            if incoming.chat_id not in self.tasks:
                self.tasks[incoming.chat_id] = asyncio.create_task(
                    self._drain(incoming.chat_id), name=f"chat {incoming.chat_id}"
                )
        self._prune()

    async def _drain(self, chat_id: int) -> None:
        """Handle one chat's queue in order, what has queued up at a time. On a failure
        the rest of the queue is dropped with it, so that nothing of this chat runs
        ahead of the failed update: all of them stay unfinished and come again, in
        order, with the next fetches (those committed before the failure are then
        recognised and skipped)."""
        queue = self.queues[chat_id]
        try:
            while queue:
                batch = list(itertools.islice(queue, MAX_TOGETHER))
                try:
                    await self.handle(batch)
                except Exception:
                    ids = [i.update_id for i in batch]
                    log.exception("handling updates %s…%s failed", ids[0], ids[-1])
                    self.failed = True
                    self.handle_failures += 1
                    self.active.difference_update(i.update_id for i in queue)
                    queue.clear()
                    self._note_idle()
                    return
                self.handle_failures = 0
                for incoming in batch:
                    queue.popleft()
                    self.active.discard(incoming.update_id)
                    self._finish(incoming.update_id)
        finally:
            del self.queues[chat_id]
            del self.tasks[chat_id]

    def _finish(self, update_id: int) -> None:
        self.unfinished.discard(update_id)
        self.finished.add(update_id)
        self._prune()
        self._note_idle()

    def _note_idle(self) -> None:
        if not self.active:
            self.idle.set()

    def _prune(self) -> None:
        """Forget finished ids below the offset: Telegram will not send them again."""
        offset = self.offset
        if offset is not None:
            self.finished = {i for i in self.finished if i >= offset}

    async def _wait_idle(self, timeout: float) -> None:
        """Until nothing is in flight (then the next fetch long-polls), or ``timeout``."""
        if self.active:
            self.idle.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.idle.wait(), timeout)

    async def _backoff(self, failures: int, what: str, exc_info: bool = False) -> None:
        delay = min(MAX_BACKOFF, 0.5 * 2**failures)
        log.error("%s; retrying in %.1fs", what, delay, exc_info=exc_info)
        await asyncio.sleep(delay)

    async def _cancel_tasks(self) -> None:
        """On stop, what is still running is cancelled (its transaction rolls back) and
        comes again after the restart, as it is not confirmed."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

"""The update queue behind ``getUpdates`` long polling, and a wake-up signal.

Semantics follow the Bot API manual, "getUpdates": an update stays queued until a later
call's ``offset`` is greater than its id; a negative ``offset`` keeps only the last
``-offset`` updates; ``timeout`` waits for the first new update; ``allowed_updates``
sticks until changed, an empty list meaning the default set.
"""

from __future__ import annotations

import asyncio
import itertools
import time

from playground.botapi.records import JSON
from playground.botapi.wire import ApiError

# getUpdates' default when allowed_updates is empty or never given (Bot API manual).
DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "callback_query",
        "inline_query",
        "chosen_inline_result",
        "my_chat_member",
        "chat_join_request",
        "poll",
        "poll_answer",
        "shipping_query",
        "pre_checkout_query",
    }
)
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot "
    "instance is running"
)


class Signal:
    """Wakes every coroutine waiting on it; ``notify`` is synchronous for sync helpers."""

    def __init__(self) -> None:
        self._waiters: set[asyncio.Future[None]] = set()

    def notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait(self, timeout: float) -> None:
        """Return when notified or after ``timeout`` seconds, whichever comes first."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, max(timeout, 0.0))
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)


class UpdateQueue:
    """Queued updates with monotonically increasing ids, served by long polls."""

    def __init__(self, first_id: int = 1001) -> None:
        self._updates: list[JSON] = []
        self._ids = itertools.count(first_id)
        self._delivered_upto = first_id - 1
        self.last_id = first_id - 1
        self._allowed = DEFAULT_UPDATE_TYPES
        self._generation = 0
        self._signal = Signal()
        self._stopping = False

    def push(self, kind: str, payload: JSON) -> int:
        update_id = self.last_id = next(self._ids)
        self._updates.append({"update_id": update_id, kind: payload})
        self._signal.notify()
        return update_id

    def resume_after(self, last_id: int) -> None:
        """Number new updates after ``last_id``: a bot keeps its offset across restarts."""
        self._ids = itertools.count(last_id + 1)
        self._delivered_upto = self.last_id = last_id

    @property
    def undelivered(self) -> bool:
        """Whether some queued update was never handed to a getUpdates call."""
        return any(u["update_id"] > self._delivered_upto for u in self._updates)

    def __len__(self) -> int:
        return len(self._updates)

    def drop_all(self) -> None:
        self._updates.clear()

    def take_all(self) -> list[JSON]:
        taken, self._updates = self._updates, []
        return taken

    def stop(self) -> None:
        """Make pending and future polls return at once."""
        self._stopping = True
        self._signal.notify()

    async def poll(
        self, offset: int | None, limit: int, timeout: float, allowed: list[str] | None
    ) -> list[JSON]:
        """One getUpdates call. A newer call ends a waiting older one with 409 Conflict,
        as Telegram does when two bot instances poll."""
        if allowed is not None:
            self._allowed = frozenset(allowed) or DEFAULT_UPDATE_TYPES
        if offset is not None and offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset is not None and offset < 0:
            self._updates = self._updates[offset:]
        self._generation += 1
        generation = self._generation
        self._signal.notify()
        deadline = time.monotonic() + timeout
        while True:
            self._updates = [u for u in self._updates if _kind(u) in self._allowed]
            remaining = deadline - time.monotonic()
            if self._updates or remaining <= 0 or self._stopping:
                break
            await self._signal.wait(remaining)
            if generation != self._generation:
                raise ApiError(409, CONFLICT)
        batch = self._updates[: min(max(limit, 1), 100)]
        if batch:
            self._delivered_upto = max(self._delivered_upto, batch[-1]["update_id"])
        return batch


def _kind(update: JSON) -> str:
    return next(key for key in update if key != "update_id")

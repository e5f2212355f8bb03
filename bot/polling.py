"""Long polling that confirms an update only after it has been handled.

Both libraries' own pollers ask for the next batch (which tells Telegram to forget the
last one) while the previous batch may still be in flight, so a crash there would drop
updates. Here the offset moves past an update only once ``handle`` has committed it;
after a crash Telegram sends it again and the core's processed-update table skips it
if it had in fact been committed.

Within a batch, different chats are handled concurrently and each chat's updates one
after another in their order; the offset moves once the whole batch is handled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.types import Incoming

log = logging.getLogger(__name__)
Fetch = Callable[[int | None], Awaitable[list[tuple[int, Incoming | None]]]]
MAX_BACKOFF = 30.0


def decode_batch(
    raw: list[dict[str, Any]], decode: Callable[[dict[str, Any]], Incoming | None]
) -> list[tuple[int, Incoming | None]]:
    """Turn each raw update into an :class:`Incoming` on its own.

    The libraries decode a whole getUpdates answer at once, so one update they cannot
    read (a field of a newer Bot API, a malformed value) would fail the batch and be
    fetched again forever. Here it is skipped with a warning, and polling goes on."""
    batch: list[tuple[int, Incoming | None]] = []
    for update in raw:
        update_id = update.get("update_id") if isinstance(update, dict) else None
        if not isinstance(update_id, int):
            log.warning("skipping an update without an id: %.200r", update)
            continue
        try:
            batch.append((update_id, decode(update)))
        except Exception:
            log.warning("skipping update %s: cannot decode it", update_id, exc_info=True)
            batch.append((update_id, None))
    return batch


async def poll_forever(fetch: Fetch, handle: Callable[[Incoming], Awaitable[None]]) -> None:
    offset: int | None = None
    failures = 0
    while True:
        try:
            batch = await fetch(offset)
            await handle_batch([incoming for _, incoming in batch if incoming], handle)
            if batch:
                offset = batch[-1][0] + 1
            failures = 0
        except asyncio.CancelledError:
            raise
        except Exception:
            failures += 1
            delay = min(MAX_BACKOFF, 0.5 * 2**failures)
            log.exception("polling failed; retrying in %.1fs", delay)
            await asyncio.sleep(delay)


async def handle_batch(
    batch: list[Incoming], handle: Callable[[Incoming], Awaitable[None]]
) -> None:
    """Handle ``batch``: chats in parallel, one chat's updates in order. If one fails,
    the others still finish, then the failure is raised (the batch comes again, and
    what was committed is skipped)."""
    chats: dict[int, list[Incoming]] = {}
    for incoming in batch:
        chats.setdefault(incoming.chat_id, []).append(incoming)

    async def in_order(updates: list[Incoming]) -> None:
        for incoming in updates:
            await handle(incoming)

    results = await asyncio.gather(*map(in_order, chats.values()), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result

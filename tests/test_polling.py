"""``tourbot run``: polling keeps fetching while updates are handled, runs chats
concurrently and each chat in order, and never confirms an update not yet handled."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import pytest

import bot.transport.polling
from bot.application.types import Incoming, Sender
from bot.transport.polling import Handle, Poller


def update(update_id: int, chat: int) -> Incoming:
    return Incoming(update_id, chat, "supergroup", Sender(1, "u"), text="/players")


def each(handle: Callable[[Incoming], Awaitable[None]]) -> Handle:
    """A poller's handler for a chat's queued updates that runs them one by one."""

    async def run(incs: list[Incoming]) -> None:
        for inc in incs:
            await handle(inc)

    return run


class FakeTelegram:
    """getUpdates as Telegram answers it: everything from ``offset`` on, at once if
    there is any, else after the first new update (or a short long-poll timeout)."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, Incoming | None]] = []
        self.offsets: list[tuple[int | None, frozenset[int]]] = []  # offset, ids done then
        self.arrived = asyncio.Event()
        self.done: set[int] = set()

    def send(self, incoming: Incoming) -> None:
        self.queue.append((incoming.update_id, incoming))
        self.arrived.set()

    async def fetch(
        self, offset: int | None, in_hand: Callable[[int], bool]
    ) -> list[tuple[int, Incoming | None]]:
        self.offsets.append((offset, frozenset(self.done)))
        if offset is not None:
            self.queue = [(i, inc) for i, inc in self.queue if i >= offset]
        if not self.queue:
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), 0.2)
        return list(self.queue)

    def confirmed_only_done(self) -> None:
        """No fetch confirmed (offset past) an update that was not handled by then."""
        for offset, done in self.offsets:
            assert all(i in done for i in range(1, offset or 1)), (offset, sorted(done))


async def run(poller: Poller, body: asyncio.Future[None] | asyncio.Task[None]) -> None:
    task = asyncio.create_task(poller.run())
    try:
        await asyncio.wait_for(body, 5)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_slow_chat_does_not_delay_another_chats_later_update() -> None:
    tg = FakeTelegram()
    handled: list[int] = []
    answered: dict[int, float] = {}
    loop = asyncio.get_running_loop()

    async def handle(inc: Incoming) -> None:
        if inc.chat_id == -1:
            await asyncio.sleep(0.6)  # the first /standings picture
        handled.append(inc.update_id)
        tg.done.add(inc.update_id)
        answered[inc.update_id] = loop.time()

    async def scenario() -> None:
        tg.send(update(1, -1))
        await asyncio.sleep(0.05)  # /help in another chat, a separate getUpdates
        sent = loop.time()
        tg.send(update(2, -2))
        while len(handled) < 2:
            await asyncio.sleep(0.01)
        assert answered[2] - sent < 0.3, "chat -2 waited for chat -1"
        assert handled == [2, 1]
        await asyncio.sleep(0.1)  # further fetches re-send nothing to handle

    poller = Poller(tg.fetch, each(handle))
    await run(poller, asyncio.ensure_future(scenario()))
    assert handled == [2, 1]  # each once, though 2 was re-sent while 1 ran
    tg.confirmed_only_done()
    assert tg.offsets[-1][0] == 3  # everything confirmed in the end


async def test_each_chat_runs_in_order_one_at_a_time() -> None:
    tg = FakeTelegram()
    starts: list[int] = []
    running: set[int] = set()

    async def handle(inc: Incoming) -> None:
        assert inc.chat_id not in running, "two updates of one chat at once"
        running.add(inc.chat_id)
        starts.append(inc.update_id)
        await asyncio.sleep(0.1)
        running.discard(inc.chat_id)
        tg.done.add(inc.update_id)

    async def scenario() -> None:
        for i, chat in enumerate([-1, -2, -1, -3, -1], start=1):
            tg.send(update(i, chat))
            await asyncio.sleep(0.02)
        while len(tg.done) < 5:
            await asyncio.sleep(0.01)

    started = asyncio.get_running_loop().time()
    await run(Poller(tg.fetch, each(handle)), asyncio.ensure_future(scenario()))
    assert [i for i in starts if i in (1, 3, 5)] == [1, 3, 5]
    assert asyncio.get_running_loop().time() - started < 0.1 * 5  # three in a row, not five
    tg.confirmed_only_done()


async def test_a_failed_update_is_retried_before_its_chats_later_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.transport.polling, "MAX_BACKOFF", 0.01)
    tg = FakeTelegram()
    calls: list[int] = []

    async def handle(inc: Incoming) -> None:
        calls.append(inc.update_id)
        if calls.count(1) == 1 and inc.update_id == 1:
            await asyncio.sleep(0.05)  # let 2 and 3 queue up behind it
            raise ConnectionError("database down")
        tg.done.add(inc.update_id)

    async def scenario() -> None:
        tg.send(update(1, -1))
        await asyncio.sleep(0.01)
        tg.send(update(2, -2))
        tg.send(update(3, -1))
        while len(tg.done) < 3:
            await asyncio.sleep(0.01)

    await run(Poller(tg.fetch, each(handle)), asyncio.ensure_future(scenario()))
    assert calls.count(1) == 2 and calls.count(3) == 1 and calls.count(2) == 1
    assert calls.index(3) > len(calls) - 1 - calls[::-1].index(1)  # 3 after 1's retry
    tg.confirmed_only_done()


async def test_in_flight_updates_are_bounded_and_undecodable_ones_skipped() -> None:
    tg = FakeTelegram()
    release = asyncio.Event()
    started: list[int] = []

    async def handle(inc: Incoming) -> None:
        started.append(inc.update_id)
        await release.wait()
        tg.done.add(inc.update_id)

    async def scenario() -> None:
        tg.queue.append((1, None))  # could not be decoded: skipped, confirmed
        tg.done.add(1)
        for i, chat in [(2, -1), (3, -2), (4, -3)]:
            tg.send(update(i, chat))
        await asyncio.sleep(0.2)
        assert started == [2, 3]  # the third waits with Telegram
        release.set()
        while len(tg.done) < 4:
            await asyncio.sleep(0.01)

    await run(Poller(tg.fetch, each(handle), max_in_flight=2), asyncio.ensure_future(scenario()))
    assert started == [2, 3, 4]
    tg.confirmed_only_done()

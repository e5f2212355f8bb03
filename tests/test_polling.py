"""``tourbot run``: a polled batch runs chats concurrently, each chat in order."""

from __future__ import annotations

import asyncio

import pytest

from bot.polling import handle_batch
from bot.types import Incoming, Sender


def update(update_id: int, chat: int) -> Incoming:
    return Incoming(update_id, chat, "supergroup", Sender(1, "u"), text="/players")


async def test_chats_run_concurrently_and_each_chat_in_order() -> None:
    log: list[tuple[str, int]] = []
    running: set[int] = set()

    async def handle(inc: Incoming) -> None:
        assert inc.chat_id not in running, "two updates of one chat at once"
        running.add(inc.chat_id)
        log.append(("start", inc.update_id))
        await asyncio.sleep(0.05)
        log.append(("end", inc.update_id))
        running.discard(inc.chat_id)

    batch = [update(1, -1), update(2, -2), update(3, -1), update(4, -3), update(5, -1)]
    started = asyncio.get_running_loop().time()
    await handle_batch(batch, handle)
    elapsed = asyncio.get_running_loop().time() - started

    starts = [i for kind, i in log if kind == "start"]
    assert [i for i in starts if i in (1, 3, 5)] == [1, 3, 5]  # chat -1 in its order
    assert log.index(("start", 2)) < log.index(("end", 1))  # chat -2 did not wait for -1
    assert elapsed < 0.05 * 5  # three in a row, not five


async def test_a_failing_chat_lets_the_others_finish_then_raises() -> None:
    done: list[int] = []

    async def handle(inc: Incoming) -> None:
        if inc.update_id == 1:
            raise ConnectionError("database down")
        await asyncio.sleep(0.01)
        done.append(inc.update_id)

    with pytest.raises(ConnectionError):
        await handle_batch([update(1, -1), update(2, -2), update(3, -1)], handle)
    assert done == [2]  # chat -1 stopped at its failure; chat -2 finished

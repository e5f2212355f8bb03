"""The demo button: a short Big Two event played in a new group, at a pace one can follow.

It acts only as the users would, through the same Bot API updates the page sends, and
reads back only what the bot posted: the organiser creates the event, four players press
Join, the organiser draws, opens the round, reports the table and asks for the standings.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from functools import partial

from playground import cast
from playground.botapi import BotAPIServer

PAUSE = 1.2  # seconds between steps, long enough to read
ANSWER_WAIT = 20.0  # seconds to wait for the bot's answer to one step
PLAYERS = [cast.FIRST_PLAYER + i for i in range(4)]
STEPS = ["/draw", "/round", "/report 1 A0 B5 C8 D12", "/standings"]


async def play(server: BotAPIServer, chat: int, changed: Callable[[], None]) -> None:
    """Run the script in ``chat``; each step waits until the bot has answered the last."""

    async def act(step: Callable[[], object]) -> None:
        before = progress(server, chat)
        step()
        changed()
        deadline = asyncio.get_running_loop().time() + ANSWER_WAIT
        while progress(server, chat) == before and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        with contextlib.suppress(TimeoutError):  # trailing messages of the same answer
            await server.wait_idle(quiet=0.3, timeout=ANSWER_WAIT)
        await asyncio.sleep(PAUSE)

    await act(partial(server.user_says, chat, cast.ORGANISER, "/new bigtwo knockout 演示赛 Demo"))
    signup = next((m for m in reversed(server.outbox(chat)) if m.buttons), None)
    if signup is None:
        return  # the bot refused; its answer is on the page
    join = signup.buttons[0]["callback_data"]
    for uid in PLAYERS:
        await act(partial(server.user_presses, chat, uid, signup.message_id, join))
    for text in STEPS:
        await act(partial(server.user_says, chat, cast.ORGANISER, text))


def progress(server: BotAPIServer, chat: int) -> int:
    """How much the bot has done in ``chat``: one for each message sent and each edit."""
    return sum(1 + len(m.edits) for m in server.outbox(chat))

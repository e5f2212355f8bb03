"""The demo button: a short Big Two event played in a new group, at a pace one can follow.

It acts only as the users would, through the same Bot API updates the page sends, and
reads back only what the bot posted: the organiser creates the event, four players press
Join, the organiser draws, opens the round, reports the table and asks for the standings.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from playground import cast
from playground.botapi import BotAPIServer, SentMessage

PAUSE = 1.2  # seconds between steps, long enough to read
PLAYERS = [cast.FIRST_PLAYER + i for i in range(4)]
STEPS = ["/draw", "/round", "/report 1 A0 B5 C8 D12", "/standings"]


async def play(server: BotAPIServer, chat: int, changed: Callable[[], None]) -> None:
    """Run the script in ``chat``; each step waits until the bot has answered the last."""

    async def act(uid: int, text: str) -> None:
        server.user_says(chat, uid, text)
        changed()
        await settle(server)

    await act(cast.ORGANISER, "/new bigtwo knockout 演示赛 Demo")
    signup = latest_with_buttons(server, chat)
    for uid in PLAYERS:
        if signup is not None:
            server.user_presses(chat, uid, signup.message_id, signup.buttons[0]["callback_data"])
            changed()
            await settle(server)
    for text in STEPS:
        await act(cast.ORGANISER, text)


async def settle(server: BotAPIServer) -> None:
    """Let the bot answer, then pause so a person can follow."""
    with contextlib.suppress(TimeoutError):  # a slow answer still shows when it comes
        await server.wait_idle(quiet=0.3, timeout=15)
    await asyncio.sleep(PAUSE)


def latest_with_buttons(server: BotAPIServer, chat: int) -> SentMessage | None:
    return next((m for m in reversed(server.outbox(chat)) if m.buttons), None)

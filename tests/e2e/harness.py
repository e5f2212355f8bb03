"""Runs the real bot (aiogram or PTB) against the local Bot API server, in-process.

The clock is real time plus an offset the test may move forward, so a deadline can pass
while the bot is stopped and must fire when it starts again.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from bot.app import App
from bot.config import Settings
from db.migrate import upgrade_url
from playground.botapi import BotAPIServer, SentMessage

TOKEN = "123456:TEST"


@dataclass
class Clock:
    offset: timedelta = field(default_factory=timedelta)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


class Harness:
    def __init__(self, server: BotAPIServer, backend: str, database_url: str) -> None:
        self.server = server
        self.clock = Clock()
        self.settings = Settings(
            bot_token=TOKEN,
            bot_api_url=server.url,
            backend=backend,
            database_url=database_url,
            per_chat_per_minute=100_000,
            edit_gap=0.3,  # edits still merge, without seconds of waiting in every test
            poll_timeout=1,
        )
        self.app: App | None = None

    async def start(self) -> None:
        # Migrated here, in place: the bot would start a migrating child process for a
        # fresh database, a second per test (``db.migrate.upgrade_apart``).
        await upgrade_url(self.settings.database_url)
        self.app = App(self.settings, clock=self.clock)
        await self.app.start()

    async def stop(self) -> None:
        if self.app is not None:
            await self.app.stop()
            self.app = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    def with_settings(self, **changes: object) -> None:
        self.settings = replace(self.settings, **changes)  # type: ignore[arg-type]

    async def says(
        self, chat: int, uid: int, text: str, expect: str, timeout: float = 15
    ) -> SentMessage:
        """User ``uid`` sends ``text``; return the bot's next output containing ``expect``."""
        self.server.user_says(chat, uid, text)
        return await self.server.wait_for(expect, timeout=timeout)

    async def joins(self, chat: int, uid: int, timeout: float = 15) -> None:
        """User ``uid`` types /join; wait for the bot's 👍 on that message (typed sign-ups
        are acknowledged quietly, the sign-up message's count is edited)."""
        message = self.server.user_says(chat, uid, "/join")
        await self.reacted(chat, message["message_id"], timeout)

    async def reacted(self, chat: int, message_id: int, timeout: float = 15) -> list[str]:
        """The bot's reaction on a message, once it has set one."""
        deadline = time.monotonic() + timeout
        while (chat, message_id) not in self.server.reactions:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no reaction on message {message_id} in chat {chat}")
            await asyncio.sleep(0.02)
        return self.server.reactions[(chat, message_id)]

    async def presses(
        self, chat: int, uid: int, message: SentMessage, data: str, expect: str
    ) -> SentMessage:
        self.server.user_presses(chat, uid, message.message_id, data)
        return await self.server.wait_for(expect, timeout=15)


TABLE_LINE = re.compile(r"^(?:第(\d+)桌：|Table (\d+): )(.+)$")


def tables_of(text: str, ids: dict[str, int]) -> dict[int, list[int]]:
    """Read a draw or round message back (zh or en): '第1桌：A 甲 · B 乙' or
    'Table 1: A x · B y' lines → user ids per table, in seat order (``ids``: name → id)."""
    tables: dict[int, list[int]] = {}
    for line in text.splitlines():
        m = TABLE_LINE.match(line)
        if m:
            number = int(m.group(1) or m.group(2))
            tables[number] = [ids[seat.split(" ", 1)[1]] for seat in m.group(3).split(" · ")]
    return tables


def byes_of(text: str, ids: dict[str, int]) -> list[int]:
    """The '轮空：甲, 乙' line of a draw or round message, as user ids."""
    line = next((x for x in text.splitlines() if x.startswith("轮空：")), "轮空：")
    return [ids[n] for n in line.removeprefix("轮空：").split(", ") if n]

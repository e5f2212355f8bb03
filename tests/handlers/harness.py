"""The end-to-end tests' ``Harness`` surface, in memory: an e2e test body runs unchanged
on :class:`tests.handlers.memory.Chats` (no HTTP, no Telegram library).

``bot.says``/``bot.server.wait_for`` keep the Bot API server's cursor (the next output
after the last one matched; ``playground.botapi.outbox.Outbox`` itself). A "restart"
runs the timers that came due on the moved clock, as ``bot.transport.scheduler.Timers.start``
does; nothing runs between updates, so a test that waits for a timer without a restart
belongs to the end-to-end suite.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.application.core import Core
from bot.application.types import Delivered, Incoming, Outgoing
from bot.application.types import Sender as User
from bot.transport.adapters.plain import markup
from bot.transport.scheduler import Timers, pending_timers
from playground.botapi.outbox import Outbox, Predicate
from playground.botapi.records import CallbackAnswer, Edit, SentMessage
from tests.e2e.harness import tables_of
from tests.handlers.memory import Chats, MemoryTransport, open_chats


class RecordingTransport(MemoryTransport):
    """Also logs each send and edit as the Bot API server would, for its cursor."""

    def __init__(self, log: Outbox) -> None:
        super().__init__()
        self.log = log
        self.answered: dict[str, CallbackAnswer] = {}

    async def answer_callback(self, callback_id: str, text: str, alert: bool = False) -> None:
        await super().answer_callback(callback_id, text, alert)
        self.answered[callback_id] = CallbackAnswer(callback_id, text or None, alert, None)

    async def send(self, message: Outgoing) -> Delivered:
        delivered = await super().send(message)
        mid = delivered.message_id
        if message.kind == "react":
            return delivered
        if message.kind.startswith("edit"):  # text, caption or picture
            sent = self.log.get(message.chat_id, mid)
            assert sent is not None
            sent.reply_markup = markup(message.buttons)
            if sent.text is None:  # a picture's or a file's caption
                sent.caption = message.text
                if message.kind == "edit_media":
                    sent.photo = self.messages[mid].file
            else:
                sent.text = message.text
            sent.edits.append(Edit("edit", sent.text, sent.caption, sent.reply_markup))
            self.log.output(sent)
            return delivered
        text = message.text if message.kind == "text" else None
        self.log.add(
            SentMessage(
                method={"text": "sendMessage", "photo": "sendPhoto"}.get(
                    message.kind, "sendDocument"
                ),
                chat_id=message.chat_id,
                message_id=mid,
                text=text,
                caption=None if message.kind == "text" else message.text,
                reply_markup=markup(message.buttons),
                photo=self.messages[mid].file if message.kind == "photo" else None,
                document=self.messages[mid].file if message.kind == "document" else None,
                filename=message.filename,
                thread_id=message.thread_id,
            )
        )
        return delivered


@dataclass
class Clock:
    """``bot.clock.offset`` as in the e2e harness, moving the chats' clock."""

    chats: Chats
    start: datetime
    _offset: timedelta = field(default_factory=timedelta)

    @property
    def offset(self) -> timedelta:
        return self._offset

    @offset.setter
    def offset(self, value: timedelta) -> None:
        self._offset = value
        self.chats.now = self.start + value


class MemoryServer:
    """What e2e tests ask of ``BotAPIServer``: users, chats, sends, presses, the cursor."""

    def __init__(self, chats: Chats, transport: RecordingTransport) -> None:
        self.chats = chats
        self._transport = transport
        self._log = transport.log
        self._updates = itertools.count(1)
        self._pending: list[Incoming] = []

    def add_user(
        self,
        uid: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "zh",
    ) -> None:
        name = f"{first_name} {last_name}" if last_name else first_name
        self.chats.users[uid] = User(uid, name, username, language_code)

    def add_chat(
        self,
        chat_id: int,
        title: str | None = None,
        admins: list[int] | None = None,
        is_forum: bool = False,
        **_: Any,
    ) -> None:
        self.chats.admins(chat_id, *(admins or []))
        if is_forum:
            self.chats.forums.add(chat_id)

    def seat_group(
        self, chat_id: int, admin: int, names: list[str], first: int, title: str = "棋牌群"
    ) -> dict[str, int]:
        """The scene most tests start from: an organiser, their group, and one player a
        name, with ids from ``first``; the names' ids come back."""
        self.add_user(admin, "组织者")
        self.add_chat(chat_id, title, admins=[admin])
        ids = {name: first + i for i, name in enumerate(names)}
        for name, uid in ids.items():
            self.add_user(uid, name)
        return ids

    def _next(self) -> int:
        return next(self._updates) + 10_000_000  # apart from Chats' own numbering

    def user_says(
        self,
        chat_id: int,
        uid: int,
        text: str,
        thread_id: int | None = None,
        sender_chat_id: int | None = None,
    ) -> dict[str, int]:
        """Queue a message; it is handled by the next wait (as the bot would poll it)."""
        sender = self.chats.users[uid]
        message_id = self._transport.user_message_id()
        self._pending.append(
            Incoming(
                self._next(),
                chat_id,
                "supergroup",
                sender,
                thread_id,
                text=text,
                sender_chat_id=sender_chat_id,
                message_id=message_id,
                is_forum=chat_id in self.chats.forums,
            )
        )
        return {"message_id": message_id}

    def user_presses(self, chat_id: int, uid: int, message_id: int, data: str) -> str:
        update = self._next()
        self._pending.append(
            Incoming(
                update,
                chat_id,
                "supergroup",
                self.chats.users[uid],
                message_id=message_id,
                callback_id=f"cb{update}",
                callback_data=data,
                is_forum=chat_id in self.chats.forums,
            )
        )
        return f"cb{update}"

    async def wait_idle(self) -> None:
        """Handle every queued update, in order, and deliver the replies."""
        while self._pending:
            await self.chats.core.handle(self._pending.pop(0))
            await self.chats.deliver()

    async def wait_for(self, expect: Predicate | str, timeout: float = 0) -> SentMessage:
        """Once the queue is handled: the next output containing ``expect``, or fail."""
        await self.wait_idle()
        return await self._log.wait_for(expect, timeout=0)

    @property
    def reactions(self) -> dict[tuple[int, int], list[str]]:
        return self._transport.reactions

    @property
    def answered_callbacks(self) -> dict[str, CallbackAnswer]:
        return self._transport.answered

    async def wait_for_callback_answer(self, query_id: str, timeout: float = 0) -> CallbackAnswer:
        await self.wait_idle()
        return self._transport.answered[query_id]

    def outbox(self, chat_id: int | None = None) -> list[SentMessage]:
        return self._log.messages(chat_id)


class MemoryHarness:
    """``tests.e2e.harness.Harness`` for a test body, on the in-memory core."""

    def __init__(self, chats: Chats) -> None:
        transport = RecordingTransport(Outbox())
        chats.transport = chats.core.transport = transport
        chats.now = datetime.now(UTC)  # the e2e clock: real time, moved by ``clock.offset``
        self.chats = chats
        self.server = MemoryServer(chats, transport)
        self.clock = Clock(chats, chats.now)
        self.app = self  # ``bot.app.engine`` and ``bot.app.core`` as in the e2e harness
        self.engine: AsyncEngine = chats.engine
        self.core: Core = chats.core

    async def says(
        self, chat: int, uid: int, text: str, expect: str, timeout: float = 0
    ) -> SentMessage:
        self.server.user_says(chat, uid, text)
        return await self.server.wait_for(expect)

    async def joins(self, chat: int, uid: int, timeout: float = 0) -> None:
        """User ``uid`` types /join; the bot's 👍 on that message is there once handled."""
        message = self.server.user_says(chat, uid, "/join")
        await self.reacted(chat, message["message_id"])

    async def reacted(self, chat: int, message_id: int, timeout: float = 0) -> list[str]:
        await self.server.wait_idle()
        return self.server.reactions[(chat, message_id)]

    async def presses(
        self, chat: int, uid: int, message: SentMessage, data: str, expect: str
    ) -> SentMessage:
        self.server.user_presses(chat, uid, message.message_id, data)
        return await self.server.wait_for(expect)

    async def stop(self) -> None:
        """A stopped bot reads nothing; the database stays."""

    async def start(self) -> None:
        """Timers that came due while "stopped" run now, in order (``Timers.start``)."""
        pending = await pending_timers(self.core)
        timers = Timers(self.core)
        self.core.on_timer = lambda timer: None  # nothing runs between updates
        for timer in pending:
            if timer.at <= self.core.clock():
                await timers.fire(timer)
        await self.chats.deliver()

    async def restart(self) -> None:
        await self.stop()
        await self.start()


async def drawn(
    bot: MemoryHarness,
    chat: int,
    admin: int,
    new: str,
    names: list[str],
    sets: tuple[str, ...] = (),
) -> tuple[dict[str, int], dict[int, list[int]]]:
    """The scene of a whole event's test: ``admin`` organises ``chat`` (in Chinese), sends
    ``/new <new>`` and the ``/set`` lines ``sets``; ``names`` (ids from 301) sign up by
    /join; round 1 is drawn. The players' ids by name, and round 1's tables."""
    ids = bot.server.seat_group(chat, admin, names, 301)
    await bot.says(chat, admin, f"/new {new}", "SHA-256")
    for line in sets:
        await bot.says(chat, admin, f"/set {line}", line.split()[-1])
    for uid in ids.values():
        await bot.joins(chat, uid)
    return ids, tables_of((await bot.says(chat, admin, "/draw", "第 1 轮抽签")).body, ids)


async def memory_harness(template: Path, tmp_path: Path) -> MemoryHarness:
    return MemoryHarness(await open_chats(template, tmp_path))

"""Drive :class:`bot.application.core.Core` in memory: the same pipeline as production (one
transaction per update, the audit log, the outbox and its ``Sender``) with a transport
that keeps what it would have sent; after each update the sender sends what is queued,
unpaced (pacing and retries are ``tests/test_outbox.py``'s business). No HTTP and no
Telegram library, so a handler-level test runs in milliseconds; the end-to-end suite
keeps one test per backend per area.
"""

from __future__ import annotations

import itertools
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.application.core import Core
from bot.application.types import Delivered, Incoming, Outgoing, PermanentError
from bot.application.types import Sender as User
from bot.config import Settings
from bot.language.i18n import Catalogue
from bot.transport.outbox import Sender
from db.session import make_engine, make_sessionmaker

CATALOGUE = Catalogue()  # loaded once for the whole run


@dataclass
class Sent:
    """A message as the chat would show it, with its later edits applied."""

    message_id: int
    chat_id: int
    kind: str
    text: str
    buttons: list[list[tuple[str, str]]] | None
    file: bytes | None = None
    edits: int = 0

    def button(self, label: str) -> str:
        """The callback data of the button labelled ``label`` (or ``"<label> <name>"``)."""
        for row in self.buttons or []:
            for text, data in row:
                if text == label or text.startswith(label + " "):
                    return data
        raise KeyError(f"no button {label!r} in {self.buttons}")


@dataclass
class MemoryTransport:
    """What the core needs from Telegram, kept in lists."""

    admins: dict[int, set[int]] = field(default_factory=dict)
    bot_username: str = "tourbot_bot"
    messages: dict[int, Sent] = field(default_factory=dict)
    toasts: list[tuple[str, bool]] = field(default_factory=list)
    menus: dict[str | None, list[tuple[str, str]]] = field(default_factory=dict)
    reactions: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    pinned: set[tuple[int, int]] = field(default_factory=set)
    # Pictures and files Telegram holds, by the file id it gave them; and how many
    # were uploaded (sent as bytes) rather than by id.
    files: dict[str, bytes] = field(default_factory=dict)
    uploads: int = 0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def send(self, message: Outgoing) -> Delivered:
        if message.kind == "react":  # on a user's message, which Telegram numbers alike
            target = message.edit_message_id or 0
            self.reactions[(message.chat_id, target)] = [message.text]
            return Delivered(target)
        file_id = self._file(message)
        if message.kind.startswith("edit"):  # text, caption or picture
            assert message.edit_message_id is not None
            if message.edit_message_id not in self.messages:  # an admin deleted it
                raise PermanentError("Bad Request: message to edit not found")
            old = self.messages[message.edit_message_id]
            old.text, old.buttons, old.edits = message.text, message.buttons, old.edits + 1
            if message.kind == "edit_media":
                old.file = self.files[file_id or ""]
            return Delivered(old.message_id, file_id)
        mid = next(self._ids)
        self.messages[mid] = Sent(
            mid,
            message.chat_id,
            message.kind,
            message.text,
            message.buttons,
            self.files[file_id] if file_id else None,
        )
        return Delivered(mid, file_id)

    def _file(self, message: Outgoing) -> str | None:
        """The file id of the message's picture or file: a new one for bytes uploaded,
        the one given for a file Telegram holds (refused, as Telegram does, if unknown)."""
        if message.kind not in ("photo", "document", "edit_media"):
            return None
        if message.file:
            self.uploads += 1
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = message.file
            return file_id
        if message.file_id not in self.files:
            raise PermanentError("Bad Request: wrong file identifier/HTTP URL specified")
        return message.file_id

    def user_message_id(self) -> int:
        """An id for a user's message: one numbering with the bot's, as in a chat."""
        return next(self._ids)

    async def answer_callback(self, callback_id: str, text: str, alert: bool = False) -> None:
        self.toasts.append((text, alert))

    async def pin(self, chat_id: int, message_id: int) -> None:
        self.pinned.add((chat_id, message_id))

    async def can_pin(self, chat_id: int) -> bool:
        return True

    async def chat_admins(self, chat_id: int) -> set[int]:
        return self.admins.get(chat_id, set())

    async def set_commands(self, commands: list[tuple[str, str]], language: str | None) -> None:
        self.menus[language] = commands


class Chats:
    """A bot in memory: users say things in groups and press buttons; read the replies."""

    def __init__(self, engine: AsyncEngine, start: datetime) -> None:
        self.engine = engine
        self.now = start
        self.transport = MemoryTransport()
        self.sessionmaker = make_sessionmaker(engine)
        settings = Settings(database_url=str(engine.url))
        self.core = Core(settings, self.sessionmaker, CATALOGUE, self.transport, lambda: self.now)
        self.users: dict[int, User] = {}
        self.forums: set[int] = set()  # chats with topics (``Incoming.is_forum``)
        self._updates = itertools.count(1)

    def user(self, uid: int, name: str, username: str | None = None, lang: str = "zh") -> None:
        self.users[uid] = User(uid, name, username, lang)

    def admins(self, chat: int, *uids: int) -> None:
        self.transport.admins[chat] = set(uids)

    async def drawn_event(self, chat: int, admin: int, players: tuple[int, ...]) -> None:
        """A Big Two event in ``chat`` (English), organised by ``admin``, with ``players``
        (named ``P<id>``) signed up and round 1 drawn."""
        self.user(admin, "Org", lang="en")
        for uid in players:
            self.user(uid, f"P{uid}", lang="en")
        self.admins(chat, admin)
        await self.says(chat, admin, "/new bigtwo Cup")
        for uid in players:
            await self.says(chat, uid, "/join")
        await self.says(chat, admin, "/draw")

    def later(self, **delta: float) -> None:
        self.now += timedelta(**delta)

    async def _handle(self, *incs: Incoming) -> list[Sent]:
        """Hand the updates to the core as polling does (together), deliver the replies;
        the messages sent or edited."""
        before = {mid: m.edits for mid, m in self.transport.messages.items()}
        await self.core.handle_many(list(incs))
        await self.deliver()
        return [
            m
            for mid, m in self.transport.messages.items()
            if mid not in before or m.edits != before[mid]
        ]

    async def deliver(self) -> None:
        """Send every queued reply through the production ``Sender`` (its order, its
        superseded edits), with no rate limit to wait for."""
        # A new sender each time: its pacing (the per-minute window, the gap between
        # edits of one message) counts real seconds, which an in-memory test does not wait.
        await Sender(self.sessionmaker, self.transport, per_minute=10**9).flush_once()

    async def says(self, chat: int, uid: int, text: str, thread: int | None = None) -> str:
        """``uid`` sends ``text`` in ``chat``; the bot's replies (and edits), joined."""
        return "\n".join(m.text for m in await self.sent_after(chat, uid, text, thread))

    async def sent_after(
        self, chat: int, uid: int, text: str, thread: int | None = None, as_chat: int | None = None
    ) -> list[Sent]:
        """Like :meth:`says`, the messages themselves; ``as_chat`` sends it on behalf of a
        chat (the group itself: an anonymous admin; a channel)."""
        update = next(self._updates)
        inc = Incoming(
            update,
            chat,
            "supergroup",
            self.users[uid],
            thread,
            text=text,
            sender_chat_id=as_chat,
            message_id=self.transport.user_message_id(),
            is_forum=chat in self.forums,
        )
        return await self._handle(inc)

    async def burst(self, chat: int, said: list[tuple[int, str]]) -> list[Sent]:
        """Messages that reached the bot together (one getUpdates); the messages sent
        or edited after them."""
        incs = [
            Incoming(
                next(self._updates),
                chat,
                "supergroup",
                self.users[uid],
                text=text,
                message_id=self.transport.user_message_id(),
            )
            for uid, text in said
        ]
        return await self._handle(*incs)

    async def presses(self, chat: int, uid: int, message: Sent, label: str) -> str:
        """``uid`` taps a button; the toast, then the messages sent or edited."""
        update = next(self._updates)
        inc = Incoming(
            update,
            chat,
            "supergroup",
            self.users[uid],
            message_id=message.message_id,
            callback_id=f"cb{update}",
            callback_data=message.button(label),
        )
        toasts = len(self.transport.toasts)
        sent = await self._handle(inc)
        toast = [t for t, _ in self.transport.toasts[toasts:]]
        return "\n".join([*toast, *(m.text for m in sent)])

    def last(self, chat: int) -> Sent:
        return next(m for m in reversed(self.transport.messages.values()) if m.chat_id == chat)


async def open_chats(template: Path, tmp_path: Path, **kwargs: Any) -> Chats:
    """A bot on a fresh copy of an already migrated database."""
    path = tmp_path / "memory.db"
    shutil.copyfile(template, path)
    engine = make_engine(f"sqlite+aiosqlite:///{path}")

    @event.listens_for(engine.sync_engine, "connect")
    def _no_fsync(dbapi_conn: Any, _record: Any) -> None:
        """A throw-away database need not survive a power cut: skip the fsyncs."""
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA synchronous=OFF")
        cur.close()

    return Chats(engine, kwargs.get("start", datetime(2026, 11, 2, 1, 0, tzinfo=UTC)))

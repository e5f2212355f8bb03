"""The outgoing queue's per-chat rate limit, without Telegram: a fake transport records sends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.outbox import Sender
from bot.types import Outgoing
from db.migrate import upgrade
from db.models import OutboxMessage
from db.repo import Repo
from db.session import make_engine, make_sessionmaker

CHAT = -100777
OTHER = -100888


class RecordingTransport:
    bot_username = "tourbot_bot"

    def __init__(self) -> None:
        self.sent: list[Outgoing] = []

    async def send(self, message: Outgoing) -> int:
        self.sent.append(message)
        return len(self.sent)

    async def answer_callback(self, callback_id: str, text: str, alert: bool = False) -> None:
        raise AssertionError("the sender never answers callbacks")

    async def chat_admins(self, chat_id: int) -> set[int]:
        raise AssertionError("the sender never asks for admins")


@pytest_asyncio.fixture
async def sessionmaker(tmp_path: Path) -> AsyncIterator[async_sessionmaker[Any]]:
    """A migrated SQLite database of our own, as the sender sees it."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'outbox.db'}")
    try:
        await upgrade(engine)
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


async def test_sender_sends_at_most_per_minute_to_one_chat(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for i in range(5):
            repo.enqueue(chat_id=CHAT, kind="text", text=f"message {i}")
        repo.enqueue(chat_id=OTHER, kind="text", text="elsewhere")

    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=3)
    wait = await sender.flush_once()

    to_chat = [m.text for m in transport.sent if m.chat_id == CHAT]
    assert to_chat == ["message 0", "message 1", "message 2"]  # three, in order
    assert [m.text for m in transport.sent if m.chat_id == OTHER] == ["elsewhere"]
    assert 0 < wait <= 60

    async with sessionmaker() as session:
        rows = list(await session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    assert [(r.text, r.status) for r in rows if r.chat_id == CHAT] == [
        ("message 0", "sent"),
        ("message 1", "sent"),
        ("message 2", "sent"),
        ("message 3", "queued"),
        ("message 4", "queued"),
    ]
    assert [r.message_id for r in rows if r.status == "sent"] == [1, 2, 3, 4]

    # Still inside the minute: another pass sends nothing more to that chat.
    assert await sender.flush_once() > 0
    assert len(transport.sent) == 4


async def test_queued_edits_of_one_message_collapse_to_the_newest(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for count in range(1, 6):  # five Join presses before the sender got to run
            repo.enqueue(chat_id=CHAT, kind="edit", text=f"{count} joined", edit_message_id=7)
        repo.enqueue(chat_id=CHAT, kind="edit", text="other message", edit_message_id=8)

    transport = RecordingTransport()
    await Sender(sessionmaker, transport, per_minute=20).flush_once()

    assert [(m.edit_message_id, m.text) for m in transport.sent] == [
        (7, "5 joined"),
        (8, "other message"),
    ]
    async with sessionmaker() as session:
        statuses = [r.status for r in await session.scalars(select(OutboxMessage))]
    assert statuses.count("superseded") == 4 and statuses.count("sent") == 2

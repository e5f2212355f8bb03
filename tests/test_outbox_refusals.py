"""The outgoing queue when Telegram says no, without Telegram: a fake transport refuses as
Telegram does (``bot.transport.refusals`` reads it), and the sender keeps, falls back,
tells and resumes (docs/operations.md#refusals). End to end: tests/e2e/test_refusals.py."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

import bot.transport.holds as holds
from bot.application.handlers.delivery import GONE, TOLD
from bot.application.types import Delivered, Outgoing, PermanentError, Unauthorized
from bot.transport.holds import Holds
from bot.transport.outbox import Sender
from bot.transport.refusals import SCOPE, Reason, Scope
from db.models import OutboxMessage
from db.repo import Repo
from tests.test_outbox import RecordingTransport

CHAT, OTHER, USER = -100777, -100888, 4242


def queue(repo: Repo, **fields: Any) -> None:
    """Every column named, as the core queues them (rows of one shape keep their order)."""
    repo.enqueue(
        **{"edit_message_id": None, "broadcast": False, "fallback": None, "thread_id": None}
        | fields
    )


class Refusing(RecordingTransport):
    """Refuses what ``refuse`` says, by (chat, kind), with Telegram's description."""

    def __init__(self) -> None:
        super().__init__()
        self.refuse: dict[tuple[int, str], Exception] = {}

    async def send(self, message: Outgoing) -> Delivered:
        refusal = self.refuse.get((message.chat_id, message.kind))
        if refusal is not None:
            raise refusal
        return await super().send(message)


class Told:
    """The sender's ``on_refused`` and ``on_resumed``, recorded."""

    def __init__(self, sender: Sender) -> None:
        self.refused: list[tuple[int, int | None, str]] = []
        self.resumed: list[tuple[int, str]] = []
        sender.on_refused, sender.on_resumed = self._refused, self._resumed

    async def _refused(self, chat: int, thread: int | None, reason: str) -> None:
        self.refused.append((chat, thread, reason))

    async def _resumed(self, chat: int, reason: str) -> None:
        self.resumed.append((chat, reason))


async def flush(sender: Sender) -> float:
    wait = await sender.flush_once()
    for task in list(sender._notices):  # what it told, done
        await task
    return wait


async def statuses(sessionmaker: async_sessionmaker[Any]) -> dict[str, str]:
    async with sessionmaker() as session:
        return {r.text: r.status for r in await session.scalars(select(OutboxMessage))}


async def test_what_a_chat_refuses_is_kept_told_once_and_sent_when_it_works_again(
    sessionmaker: async_sessionmaker[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        queue(repo, chat_id=CHAT, kind="text", text="round 1 drawn", broadcast=True)
        queue(repo, chat_id=CHAT, kind="text", text="you are at table 2")
        queue(repo, chat_id=OTHER, kind="text", text="elsewhere")
    transport = Refusing()
    locked = PermanentError("Bad Request: not enough rights to send text messages to the chat")
    transport.refuse[(CHAT, "text")] = locked
    sender = Sender(sessionmaker, transport, per_minute=20)
    told = Told(sender)
    wait = await flush(sender)
    assert [m.text for m in transport.sent] == ["elsewhere"]  # the other chat goes on
    assert 0 < wait <= holds.FIRST_TRY
    await flush(sender)  # not due again yet: nothing asked of Telegram
    assert told.refused == [(CHAT, None, "no-text")]  # told once
    assert (await statuses(sessionmaker))["round 1 drawn"] == "queued"

    monkeypatch.setattr(holds, "FIRST_TRY", 0.0)  # the time has come: tried again
    sender._holds = Holds()
    await flush(sender)
    assert told.refused == [(CHAT, None, "no-text")] * 2  # a new sender's first refusal
    del transport.refuse[(CHAT, "text")]  # the group is open again
    await flush(sender)
    in_order = ["elsewhere", "round 1 drawn", "you are at table 2"]  # the announcement first
    assert [m.text for m in transport.sent] == in_order
    assert told.resumed == [(CHAT, "no-text")]
    assert set((await statuses(sessionmaker)).values()) == {"sent"}


async def test_a_change_of_the_bots_rights_tries_what_was_refused_at_once(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        queue(Repo(session), chat_id=CHAT, kind="text", text="round 1 drawn")
    transport = Refusing()
    transport.refuse[(CHAT, "text")] = PermanentError("Bad Request: CHAT_WRITE_FORBIDDEN")
    sender = Sender(sessionmaker, transport, per_minute=20)
    assert await flush(sender) > 1
    del transport.refuse[(CHAT, "text")]
    async with sessionmaker() as session, session.begin():  # my_chat_member: promoted
        queue(Repo(session), chat_id=CHAT, kind="resume", text="")
    await flush(sender)
    await flush(sender)
    assert [m.text for m in transport.sent] == ["round 1 drawn"]
    assert set((await statuses(sessionmaker)).values()) == {"sent"}


async def test_a_photo_the_chat_refuses_is_its_words_and_a_file_waits_aside(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        queue(repo, chat_id=CHAT, kind="document", text="the CSV", file=b"a,b", filename="x.csv")
        queue(repo, chat_id=CHAT, kind="text", text="your report is in")
        buttons = [[("🙋", "ref:1:1:")]]
        queue(repo, chat_id=CHAT, kind="photo", text="Table 1: A …", file=b"png", buttons=buttons)
        queue(repo, chat_id=CHAT, kind="photo", text="", file=b"png")  # its words went before
    transport = Refusing()
    media = PermanentError("Bad Request: not enough rights to send photos to the chat")
    transport.refuse[(CHAT, "photo")] = transport.refuse[(CHAT, "document")] = media
    sender = Sender(sessionmaker, transport, per_minute=20)
    told = Told(sender)
    await flush(sender)
    await flush(sender)
    sent = [(m.kind, m.text, m.buttons) for m in transport.sent]
    assert sent == [("text", "your report is in", None), ("text", "Table 1: A …", buttons)]
    assert await statuses(sessionmaker) == {
        "the CSV": "queued",  # kept until media are allowed
        "your report is in": "sent",
        "Table 1: A …": "sent",
        "": "failed",
    }
    assert told.refused == [(CHAT, None, "no-media")]


async def test_reactions_a_group_refuses_are_said_in_one_message(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for i, name in enumerate(["A", "B", "C"], 1):
            words = {"text": f"{name} signed up ({i})"}
            queue(repo, chat_id=CHAT, kind="react", text="👍", edit_message_id=i, fallback=words)
    transport = Refusing()
    transport.refuse[(CHAT, "react")] = PermanentError("Bad Request: REACTION_INVALID")
    sender = Sender(sessionmaker, transport, per_minute=20)
    told = Told(sender)
    await flush(sender)
    assert [m.text for m in transport.sent] == ["A signed up (1)\nB signed up (2)\nC signed up (3)"]
    assert set((await statuses(sessionmaker)).values()) == {"sent"}
    assert told.refused == [(CHAT, None, "reaction")]


async def test_a_private_message_to_someone_gone_is_said_in_the_group_once(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    in_group = {"chat_id": CHAT, "thread_id": None, "text": "table 2 calls", "once": "ref:9"}
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for user in (USER, USER + 1):
            queue(repo, chat_id=user, kind="text", text="table 2 calls", fallback=in_group)
    transport = Refusing()
    for user in (USER, USER + 1):
        transport.refuse[(user, "text")] = PermanentError("Forbidden: bot was blocked by the user")
    sender = Sender(sessionmaker, transport, per_minute=20)
    told = Told(sender)
    await flush(sender)
    await flush(sender)
    assert [(m.chat_id, m.text) for m in transport.sent] == [(CHAT, "table 2 calls")]
    assert told.refused == [(USER, None, "blocked"), (USER + 1, None, "blocked")]


async def test_one_chats_surprise_never_fails_the_pass_and_a_refused_token_gives_nothing_up(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        queue(repo, chat_id=CHAT, kind="text", text="help")
        queue(repo, chat_id=OTHER, kind="text", text="other help")
    transport = Refusing()
    transport.refuse[(CHAT, "text")] = ValueError("a library raised what it never did")
    sender = Sender(sessionmaker, transport, per_minute=20)
    await flush(sender)
    assert [m.text for m in transport.sent] == ["other help"]

    transport.refuse[(CHAT, "text")] = Unauthorized("Unauthorized")
    sender._blocked_until.clear()
    assert await flush(sender) >= 5.0  # paused: nothing is sent until Telegram takes it
    assert (await statuses(sessionmaker))["help"] == "queued"


def test_a_hold_tries_again_at_twice_the_gap_up_to_a_minute() -> None:
    chat = Holds()
    assert chat.hold(CHAT, Reason.NO_TEXT, None, 0.0)
    gaps = []
    for _ in range(6):
        assert not chat.hold(CHAT, Reason.NO_TEXT, None, 0.0)
        gaps.append(chat._by_chat[CHAT][(Reason.NO_TEXT, None)].until)
    assert gaps == [10.0, 20.0, 40.0, 60.0, 60.0, 60.0]


def test_every_refusal_about_a_chat_or_a_person_is_told_or_marked() -> None:
    about_chat = {r for r, scope in SCOPE.items() if scope is Scope.CHAT}
    assert about_chat - TOLD == {Reason.REMOVED}  # nobody left to tell there
    assert {r for r, scope in SCOPE.items() if scope is Scope.USER} == GONE


async def test_a_picture_whose_file_id_telegram_no_longer_knows_goes_as_its_words(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """A picture sent by the file id an earlier sending gave (its bytes were dropped):
    should Telegram no longer know it (another bot's token), its caption still goes."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        queue(repo, chat_id=CHAT, kind="photo", text="Standings: 1. Ann", file_id="AgAC-gone")
        queue(repo, chat_id=CHAT, kind="document", text="", file_id="BQAC-gone", filename="x.csv")
    transport = Refusing()
    unknown = PermanentError("Bad Request: wrong file identifier/HTTP URL specified")
    transport.refuse[(CHAT, "photo")] = transport.refuse[(CHAT, "document")] = unknown
    await flush(Sender(sessionmaker, transport, per_minute=20))
    assert [(m.kind, m.text) for m in transport.sent] == [("text", "Standings: 1. Ann")]
    assert await statuses(sessionmaker) == {"Standings: 1. Ann": "sent", "": "failed"}

"""The outgoing queue's per-chat rate limit, without Telegram: a fake transport records sends."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from bot.application.types import Delivered, Outgoing, PermanentError
from bot.transport.outbox import Sender
from db import outbox
from db.migrate import upgrade
from db.models import OutboxMessage
from db.outbox import OUTBOX, QUEUED, QUEUED_BATCH, QUEUED_PER_LANE, TAGGED
from db.repo import Repo
from db.session import make_engine, sender_engine
from tests.cluster import TEST_DATABASE_URL, needs_postgres, scratch_database

CHAT = -100777
OTHER = -100888


def enqueue(repo: Repo, **fields: Any) -> None:
    """Queue a row as the core does, every column named: rows of one shape keep their
    order (``Repo`` inserts each shape of row together)."""
    repo.enqueue(**{"edit_message_id": None, "broadcast": False, **fields})


class RecordingTransport:
    bot_username = "tourbot_bot"

    def __init__(self) -> None:
        self.sent: list[Outgoing] = []
        self.pinned: list[int] = []

    async def send(self, message: Outgoing) -> Delivered:
        self.sent.append(message)
        return Delivered(len(self.sent))

    async def answer_callback(self, callback_id: str, text: str, alert: bool = False) -> None:
        raise AssertionError("the sender never answers callbacks")

    async def chat_admins(self, chat_id: int) -> set[int]:
        raise AssertionError("the sender never asks for admins")

    async def pin(self, chat_id: int, message_id: int) -> None:
        self.pinned.append(message_id)

    async def can_pin(self, chat_id: int) -> bool:
        raise AssertionError("the sender never asks for rights")


class AnsweringLateTransport(RecordingTransport):
    """Telegram takes its time to answer the first message: a stop can come meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.in_flight = asyncio.Event()
        self.answer = asyncio.Event()

    async def send(self, message: Outgoing) -> Delivered:
        self.in_flight.set()
        await self.answer.wait()
        return await super().send(message)


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


class UnchangedEditTransport(RecordingTransport):
    """Telegram refuses an edit that would change nothing, as it does for real."""

    async def send(self, message: Outgoing) -> Delivered:
        if message.kind.startswith("edit") and message.text == "same":
            raise PermanentError("Bad Request: message is not modified: specified new content…")
        if message.kind.startswith("edit"):
            raise PermanentError("Bad Request: message to edit not found")
        if "<b>" in message.text:
            raise PermanentError("Bad Request: can't parse entities: unclosed tag")
        return await super().send(message)


async def test_an_edit_that_changes_nothing_is_done_and_a_refused_one_failed(
    sessionmaker: async_sessionmaker[Any], caplog: pytest.LogCaptureFixture
) -> None:
    """An edit of a message that is gone has nothing left to change (a tagged one is
    posted again: tests/test_refusals_outbox.py); a message Telegram can never take is a
    bug, logged as one."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        enqueue(repo, chat_id=CHAT, kind="edit", text="same", edit_message_id=7)
        enqueue(repo, chat_id=OTHER, kind="edit", text="gone", edit_message_id=8)
        enqueue(repo, chat_id=OTHER, kind="text", text="<b>bold")

    await Sender(sessionmaker, UnchangedEditTransport(), per_minute=20).flush_once()

    async with sessionmaker() as session:
        rows = {r.text: r for r in await session.scalars(select(OutboxMessage))}
    assert (rows["same"].status, rows["same"].message_id) == ("sent", 7)
    assert rows["gone"].status == rows["<b>bold"].status == "failed"
    refused = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert refused == [
        f"Telegram refused outbox message {rows['<b>bold'].id}: "
        "Bad Request: can't parse entities: unclosed tag"
    ]


async def test_replies_to_one_person_overtake_broadcast_edits_and_keep_a_reserve(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for i in range(20):  # edits of messages already shown (counts, live standings)
            enqueue(
                repo, chat_id=CHAT, kind="edit", text=f"edit {i}", edit_message_id=i, broadcast=True
            )
        enqueue(repo, chat_id=CHAT, kind="text", text="your report is refused")

    transport = RecordingTransport()
    await Sender(sessionmaker, transport, per_minute=20).flush_once()

    texts = [m.text for m in transport.sent]
    assert texts[0] == "your report is refused"
    assert len(texts) == 15  # broadcasts stop there: a quarter of the minute is for replies

    async with sessionmaker() as session, session.begin():
        Repo(session).enqueue(chat_id=CHAT, kind="text", text="a late refusal")
    sender = Sender(sessionmaker, transport, per_minute=20)
    sender._sent_at[CHAT].extend([time.monotonic()] * 16)  # this minute's sends so far
    await sender.flush_once()
    assert transport.sent[-1].text == "a late refusal"  # the reserve is there for it


async def test_a_reply_never_overtakes_an_announcement_of_its_chat_queued_before_it(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """A /standings answer saying round 3 is under way arrived before "round 2 is over"
    and "round 3 begins": replies went first, announcements of an earlier state too."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        enqueue(
            repo, chat_id=CHAT, kind="edit", text="live: 3 of 4", edit_message_id=5, broadcast=True
        )
        enqueue(repo, chat_id=CHAT, kind="text", text="round 2 is over", broadcast=True)
        enqueue(repo, chat_id=CHAT, kind="text", text="round 3 begins", broadcast=True)
        enqueue(repo, chat_id=OTHER, kind="text", text="elsewhere: your table is 2")
        enqueue(repo, chat_id=CHAT, kind="text", text="standings: round 3 under way")
        enqueue(
            repo, chat_id=CHAT, kind="edit", text="live: round 3", edit_message_id=6, broadcast=True
        )

    transport = RecordingTransport()
    await Sender(sessionmaker, transport, per_minute=20).flush_once()
    assert [m.text for m in transport.sent if m.chat_id == CHAT] == [
        "live: 3 of 4",
        "round 2 is over",
        "round 3 begins",
        "standings: round 3 under way",  # after the states it speaks of, in one pass
        "live: round 3",
    ]
    assert [m.text for m in transport.sent if m.chat_id == OTHER] == [
        "elsewhere: your table is 2"  # another chat's reply waits for nothing here
    ]


async def test_an_announcement_a_reply_waits_for_may_use_the_replies_reserve(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """Broadcasts have used their share of the minute: the announcement a reply waits
    behind goes out of the replies' reserve, and the reply right after it; a broadcast
    with no reply behind it still waits for the next minute."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        enqueue(repo, chat_id=CHAT, kind="text", text="round 2 is over", broadcast=True)
        enqueue(repo, chat_id=CHAT, kind="text", text="you are at table 3")
        enqueue(repo, chat_id=CHAT, kind="text", text="reminder: 5 minutes", broadcast=True)
    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=20)
    sender._sent_at[CHAT].extend([time.monotonic()] * 15)  # the broadcasts' share is used
    wait = await sender.flush_once()
    assert [m.text for m in transport.sent] == ["round 2 is over", "you are at table 3"]
    assert 0 < wait <= 60


async def test_a_reply_waits_for_an_announcement_beyond_the_passes_share_of_its_lane(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """A pass reads only QUEUED_PER_LANE of a lane: an announcement behind a lane full of
    edits is unseen, and a reply queued after it must not take that for a free way."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for message_id in range(QUEUED_PER_LANE):  # one edit each of many messages
            enqueue(
                repo, chat_id=CHAT, kind="edit", text="", edit_message_id=message_id, broadcast=True
            )
        enqueue(repo, chat_id=CHAT, kind="text", text="round 2 is over", broadcast=True)
        enqueue(repo, chat_id=CHAT, kind="text", text="standings: round 3 under way")

    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=10**6)
    while await sender.flush_once() == 0:
        pass
    texts = [m.text for m in transport.sent if m.text]
    assert texts == ["round 2 is over", "standings: round 3 under way"]
    assert len(transport.sent) == QUEUED_PER_LANE + 2


async def test_an_edit_by_tag_waits_for_its_message_then_edits_it(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        repo.enqueue(chat_id=CHAT, kind="text", text="sign up here", tag="signup:1", broadcast=True)
        for count in (1, 2, 3):
            repo.enqueue(
                chat_id=CHAT,
                kind="edit",
                text=f"{count} joined",
                edit_tag="signup:1",
                broadcast=True,
            )
        repo.enqueue(chat_id=CHAT, kind="react", text="👍", edit_message_id=42)

    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=20)
    await sender.flush_once()
    await sender.flush_once()
    assert [(m.kind, m.text, m.edit_message_id) for m in transport.sent] == [
        ("react", "👍", 42),  # a reply to one person: first
        ("text", "sign up here", None),
        ("edit", "3 joined", 2),  # the message got id 2; the older edits merged away
    ]


async def test_broadcast_edits_of_one_message_are_spaced_so_presses_merge(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=20)
    for count in (1, 2):
        async with sessionmaker() as session, session.begin():
            Repo(session).enqueue(
                chat_id=CHAT,
                kind="edit",
                text=f"{count} joined",
                edit_message_id=7,
                broadcast=True,
            )
        wait = await sender.flush_once()
    assert [m.text for m in transport.sent] == ["1 joined"]  # the second waits its turn
    assert 0 < wait <= 3


async def test_a_stop_lets_the_message_in_flight_finish_so_a_restart_keeps_replies_first(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """A restart used to cancel the sender between Telegram's answer and the mark: the row
    stayed claimed, so the next start held that chat's replies for the lease while the
    broadcasts behind them went first, then sent the message a second time."""
    async with sessionmaker() as session, session.begin():
        Repo(session).enqueue(chat_id=CHAT, kind="text", text="table 2 was ruled a forfeit")
    transport = AnsweringLateTransport()
    sender = Sender(sessionmaker, transport, per_minute=20)
    sender.start()
    await asyncio.wait_for(transport.in_flight.wait(), timeout=5)
    stopping = asyncio.create_task(sender.stop())
    await asyncio.sleep(0.05)  # the stop has begun; Telegram answers only now
    transport.answer.set()
    await asyncio.wait_for(stopping, timeout=5)
    async with sessionmaker() as session:
        rows = list(await session.scalars(select(OutboxMessage)))
    assert [(r.status, r.message_id) for r in rows] == [("sent", 1)]

    async with sessionmaker() as session, session.begin():  # what comes in after the restart
        repo = Repo(session)
        repo.enqueue(chat_id=CHAT, kind="text", text="table 1 confirmed")
        repo.enqueue(chat_id=CHAT, kind="text", text="round 1 is over", broadcast=True)
    await Sender(sessionmaker, transport, per_minute=20).flush_once()
    assert [m.text for m in transport.sent] == [
        "table 2 was ruled a forfeit",  # once
        "table 1 confirmed",  # the reply first, as before the restart
        "round 1 is over",
    ]


async def test_a_chat_waiting_out_its_minute_hides_no_other_chat_and_a_full_pass_goes_on(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """One busy chat's long queue (held by its rate limit) must not keep a later chat's
    reply out of the sender's pass, and a pass that filled its batch looks again at once
    instead of sleeping until the next wake (100 groups on PostgreSQL stalled so)."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for i in range(QUEUED_BATCH + 50):
            repo.enqueue(chat_id=CHAT, kind="text", text=f"busy {i}")
        for chat in range(QUEUED_BATCH + 50):
            repo.enqueue(chat_id=-200_000 - chat, kind="text", text="hello")

    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=3)
    passes = 0
    while await sender.flush_once() == 0:
        passes += 1
    sent = [m.text for m in transport.sent]
    assert sent.count("hello") == QUEUED_BATCH + 50  # every other chat, without a wake
    assert [t for t in sent if t.startswith("busy")] == ["busy 0", "busy 1", "busy 2"]
    assert passes >= 1


async def test_a_burst_longer_than_a_lane_share_is_sent_without_another_wake(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """A burst of typed /join in one chat queues a 👍 for each: more than one lane's
    share of a pass (QUEUED_PER_LANE). The pass that took a full share must look again
    at once: it slept until the next update woke it, and with the burst over, the last
    👍s waited an hour (found by the throughput benchmark with 400 joins at once)."""
    burst = 3 * QUEUED_PER_LANE + 7
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for message_id in range(1, burst + 1):
            repo.enqueue(chat_id=CHAT, kind="react", text="👍", edit_message_id=message_id)

    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport, per_minute=20)
    while await sender.flush_once() == 0:
        pass
    assert [m.edit_message_id for m in transport.sent] == list(range(1, burst + 1))
    async with sessionmaker() as session:
        statuses = {r.status for r in await session.scalars(select(OutboxMessage))}
    assert statuses == {"sent"}


async def test_replies_kept_for_a_rolled_back_change_are_never_written(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """The repository keeps write-only rows (replies, audit rows) until the commit; a
    transaction that rolls back must take them with it, even if the session goes on."""
    async with sessionmaker() as session:
        repo = Repo(session)
        async with session.begin():
            repo.enqueue(chat_id=CHAT, kind="text", text="refused change")
            await session.rollback()
        async with session.begin():
            repo.enqueue(chat_id=CHAT, kind="text", text="the refusal")
    async with sessionmaker() as session:
        texts = [r.text for r in await session.scalars(select(OutboxMessage))]
    assert texts == ["the refusal"]


async def test_a_pass_the_database_failed_is_tried_again_and_the_reply_goes_out(
    sessionmaker: async_sessionmaker[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass that meets a database error (a dropped connection, a locked file) used to
    end the sender's task: nothing was sent again until a restart."""
    real = outbox.queued
    failures = []

    async def failing_once(conn: Any, *args: Any) -> Any:
        if not failures:
            failures.append(1)
            raise OperationalError("SELECT …", {}, Exception("connection was closed"))
        return await real(conn, *args)

    monkeypatch.setattr(outbox, "queued", failing_once)
    async with sessionmaker() as session, session.begin():
        Repo(session).enqueue(chat_id=CHAT, kind="text", text="still here")
    transport = RecordingTransport()
    sender = Sender(sessionmaker, transport)
    sender.start()
    try:
        for _ in range(300):
            if transport.sent:
                break
            await asyncio.sleep(0.01)
    finally:
        await sender.stop()
    assert failures and [m.text for m in transport.sent] == ["still here"]


def _sql(statement: Any, engine: AsyncEngine) -> str:
    return str(statement.compile(engine.sync_engine, compile_kwargs={"literal_binds": True}))


async def test_a_pass_reads_the_waiting_rows_and_the_tagged_ones_by_their_partial_indexes(
    sessionmaker: async_sessionmaker[Any],
) -> None:
    """The query names the waiting statuses as the index does: with the values as
    parameters SQLite could not tell the partial index holds every row it wants."""
    engine: AsyncEngine = sessionmaker.kw["bind"]
    async with engine.connect() as conn:
        plans = [
            " ".join(str(row[-1]) for row in await conn.execute(text(f"EXPLAIN QUERY PLAN {sql}")))
            for sql in (_sql(QUEUED, engine), _sql(TAGGED.params(chat_id=CHAT, tag="t"), engine))
        ]
    assert "ix_outbox_waiting" in plans[0]
    assert "ix_outbox_tagged" in plans[1]


@needs_postgres
async def test_on_postgresql_the_sender_skips_the_dead_versions_of_rows_it_sent() -> None:
    """After a burst, ``ix_outbox_waiting`` still points at every row's dead version
    until a vacuum. The sender's engine never plans a bitmap scan (which fetches them
    all again each pass): its index scan marks them dead, and the next pass skips them.
    Autovacuum is kept off the table: a worker analysing it holds a snapshot that keeps
    those versions visible, so nothing could mark them dead (it failed so once in CI)."""
    async with scratch_database(TEST_DATABASE_URL, "outbox") as url:
        engine = make_engine(url)
        sender = sender_engine(engine)
        try:
            await upgrade(engine)
            async with engine.begin() as conn:
                await conn.execute(text("ALTER TABLE outbox SET (autovacuum_enabled = false)"))
                burst = [{"chat_id": CHAT - i % 40, "kind": "react"} for i in range(3000)]
                await conn.execute(OUTBOX.insert(), burst)
                ids = sorted((await conn.execute(select(OUTBOX.c.id))).scalars())
                await outbox.mark(conn, [outbox.Mark(i, "sent", 1) for i in ids[:-1]])
                await conn.execute(text("ANALYZE outbox"))
            async with sender.connect() as conn:
                explain = text("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + _sql(QUEUED, sender))
                plans = [(await conn.execute(explain)).scalar_one()[0] for _ in range(2)]
                assert [row.id for row in await outbox.queued(conn)] == ids[-1:]
        finally:
            await sender.dispose()
            await engine.dispose()
    assert "Bitmap" not in json.dumps(plans)
    assert plans[1]["Plan"]["Shared Hit Blocks"] < plans[0]["Plan"]["Shared Hit Blocks"] / 5

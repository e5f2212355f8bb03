"""Scale-out pieces that need no servers: commands, shards, timer ids, chats of updates."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from benchmarks.scaleout import busiest
from bot.app import make_runner
from bot.application.core import Core
from bot.application.routes import TIMERS
from bot.application.types import Delivered, Outgoing, RetryAfter, Timer
from bot.cli import main
from bot.config import Settings
from bot.language.i18n import Catalogue
from bot.transport.scaleout.budget import PARTS, Pace, SharedSender
from bot.transport.scaleout.bus import shard_of, timer_json
from bot.transport.scaleout.cli import problem
from bot.transport.scaleout.clock import DatabaseClock
from bot.transport.scaleout.gateway import SECRET_HEADER, Gateway, chat_of
from bot.transport.scaleout.scheduler import TimerHost
from bot.transport.scaleout.slots import Slot
from bot.transport.scaleout.worker import Worker
from bot.transport.scheduler import pending_timers
from db.migrate import upgrade
from db.models import AuditEntry, Round, TableRow, Tournament
from db.repo import Repo
from db.session import make_engine, make_sessionmaker
from db.status import EventStatus, RoundStatus
from tests.cluster import TEST_DATABASE_URL, require_services, scratch_database


@pytest.mark.parametrize("command", ["gateway", "worker", "scheduler"])
def test_each_scale_out_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert f"usage: tourbot {command}" in capsys.readouterr().out


def test_playground_keeps_its_options_beside_the_scale_out_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[tuple[int, bool]] = []

    def playground(settings: Settings, port: int, fresh: bool) -> int:
        started.append((port, fresh))
        return 0

    monkeypatch.setattr("playground.run.main", playground)
    assert main(["playground", "--port", "8123", "--fresh"]) == 0
    assert main(["playground"]) == 0
    assert started == [(8123, True), (8000, False)]
    with pytest.raises(SystemExit):
        main(["gateway", "--port", "8123"])  # the playground's options are its own


def test_scale_out_refuses_to_start_without_what_it_needs() -> None:
    sqlite = Settings(bot_token="1:x")
    assert "PostgreSQL" in (problem("worker", sqlite) or "")
    assert "PostgreSQL" in (problem("scheduler", sqlite) or "")
    assert "WEBHOOK_SECRET" in (problem("gateway", sqlite) or "")
    ready = Settings(bot_token="1:x", webhook_url="https://x/hook", webhook_secret="s")
    assert problem("gateway", ready) is None


def test_a_chat_always_has_the_same_shard() -> None:
    """CRC-32, not Python's salted hash: every process and every run agrees."""
    assert [shard_of(c, 16) for c in (-1001234567890, 42, 0, -100777)] == [5, 8, 1, 3]
    assert len({shard_of(-1000000 - i, 16) for i in range(200)}) == 16


def test_the_chat_of_each_kind_of_update() -> None:
    assert chat_of({"update_id": 1, "message": {"chat": {"id": -5}}}) == -5
    press = {"update_id": 2, "callback_query": {"id": "q", "message": {"chat": {"id": -6}}}}
    assert chat_of(press) == -6
    assert chat_of({"update_id": 3, "my_chat_member": {"chat": {"id": -7}}}) == -7
    assert chat_of({"update_id": 4, "inline_query": {"id": "q"}}) == 0


class Stored:
    """JetStream as the gateway sees it: what it stored, by subject."""

    def __init__(self) -> None:
        self.subjects: list[str] = []

    async def publish(self, subject: str, payload: bytes, **_: Any) -> None:
        self.subjects.append(subject)


MESSAGE = {
    "message_id": 3,
    "date": 1_700_000_000,
    "chat": {"id": -5, "type": "group", "title": "g"},
    "from": {"id": 7, "is_bot": False, "first_name": "Ann"},
    "text": "/help",
}
NO_UPDATES = [
    b'{"update_id": 1e999}',  # infinity
    b'{"update_id": NaN}',
    b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser goes
    b'{"update_id": 1, "message": ' * 40 + b"1" + b"}" * 40,  # deeper than any update
    b'{"update_id": 18446744073709551616}',  # past 64 bits
    b'{"update_id": "5"}',
    b'{"update_id": 5.0}',
    b'{"update_id": true}',
    b'{"update_id": -1}',
    b"[5]",
    b"\xff\xfe",
    b"",
    json.dumps({"update_id": 5, "message": "hi"}).encode(),  # every field is an object
    json.dumps({"update_id": 5, "message": [MESSAGE]}).encode(),
    json.dumps({"update_id": 5, "message": {**MESSAGE, "chat": {"id": 2**70}}}).encode(),
    json.dumps({"update_id": 5, "callback_query": {"id": 1.5e308 * 10}}).encode(),
]


async def test_the_gateway_answers_400_to_any_body_that_is_no_update_and_logs_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Huge numbers, deep nesting, wrong types: refused as any malformed body is (a
    500 and a traceback each before), and nothing stored for a worker to fail on."""
    settings = Settings(bot_token="1:x", webhook_url="https://x/hook", webhook_secret="s")
    gateway = Gateway(settings)
    stored = Stored()
    gateway.js = stored  # type: ignore[assignment]
    headers = {SECRET_HEADER: "s"}
    async with TestClient(TestServer(gateway.app())) as client:
        for body in NO_UPDATES:
            answer = await client.post("/hook", data=body, headers=headers)
            assert answer.status == 400, body[:60]
        update = json.dumps({"update_id": 5, "message": MESSAGE}).encode()
        assert (await client.post("/hook", data=update, headers=headers)).status == 200
    assert stored.subjects == [gateway.bus.chat_subject(-5)]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


@pytest.mark.parametrize("backend", ["aiogram", "ptb"])
async def test_an_update_the_library_cannot_read_is_skipped_not_redelivered(
    backend: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The gateway checks an update's shape, the worker's library its fields: raising
    would have it redelivered 20 times over 8 minutes, its shard's chats behind it."""
    settings = Settings(bot_token="1:x", backend=backend)
    worker = Worker(settings)
    worker.runner = make_runner(settings)
    await worker._dispatch({"update_id": 9, "message": {**MESSAGE, "date": "yesterday"}})
    assert "skipping update 9: cannot decode it" in caplog.text


@pytest_asyncio.fixture
async def pg() -> AsyncIterator[AsyncEngine]:
    """A migrated database of this test's own (no other run touches its rows or locks).
    Skipped without PostgreSQL; in CI a failure."""
    require_services(nats=False)
    async with scratch_database(TEST_DATABASE_URL, "units") as url:
        engine = make_engine(url)
        try:
            await upgrade(engine)
            yield engine
        finally:
            await engine.dispose()


class Recording:
    """A transport that records what it sends (and when), and says 429 for ``slow``."""

    bot_username = "tourbot_bot"

    def __init__(self, slow: int = 0) -> None:
        self.sent: list[str] = []
        self.at: list[float] = []
        self.slow = slow

    async def send(self, message: Outgoing) -> Delivered:
        if message.chat_id == self.slow:
            raise RetryAfter(30)
        self.sent.append(message.text or "")
        self.at.append(time.monotonic())
        return Delivered(len(self.sent))


async def queue(sessionmaker: async_sessionmaker[Any], *rows: tuple[int, str, bool]) -> None:
    """Queue (chat, text, broadcast) rows in this order."""
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        for chat, body, broadcast in rows:
            repo.enqueue(chat_id=chat, kind="text", text=body, broadcast=broadcast)


async def test_a_chats_window_and_its_429_survive_a_hand_over(pg: AsyncEngine) -> None:
    """What one worker sent to a chat in the last minute holds the worker that takes the
    chat over: a hand-over never lets a burst through."""
    sessionmaker = make_sessionmaker(pg)
    first = Recording(slow=-8)
    one = SharedSender(sessionmaker, first, 1000, 3)  # type: ignore[arg-type]
    await one.open()
    await queue(sessionmaker, *((-7, f"m{i}", False) for i in range(4)), (-8, "held", False))
    await one.flush_once()
    assert first.sent == ["m0", "m1", "m2"]  # the chat's 3 a minute, then Telegram's 429
    await one.close()  # the worker dies: its parts are free
    second = Recording()
    two = SharedSender(sessionmaker, second, 1000, 3)  # type: ignore[arg-type]
    await two.open()
    try:
        await queue(sessionmaker, (-9, "other", False))
        wait = await two.flush_once()
        assert two.parts == set(range(PARTS))
        assert second.sent == ["other"]  # m3 waits out the minute, "held" the 429
        assert wait > 0
    finally:
        await two.close()


async def test_a_host_has_as_many_working_slots_as_it_says_and_a_freed_one_is_taken(
    pg: AsyncEngine,
) -> None:
    """Two slots on host "a": a third worker there stands by, one on host "b" works, and
    a slot given back (a worker died: its connection closed) goes to the standby."""
    first, second, third = (Slot(pg, "t", 2, host="a") for _ in range(3))
    elsewhere, other_deployment = Slot(pg, "t", 2, host="b"), Slot(pg, "u", 2, host="a")
    try:
        assert [await slot.take() for slot in (first, second, third)] == [True, True, False]
        assert {first.held, second.held} == {0, 1}
        assert await elsewhere.take() and await other_deployment.take()
        await first.release()
        assert await third.take() and third.held == 0
    finally:
        for slot in (first, second, third, elsewhere, other_deployment):
            await slot.release()


async def test_the_bots_rate_is_shared_by_parts_and_paced(pg: AsyncEngine) -> None:
    """20 a second for the bot (18 with the margin): two lanes of one worker hold half
    the parts each and share its pace; messages go 1/18 s apart, and a pass reads the
    outbox anew after a second."""
    sessionmaker = make_sessionmaker(pg)
    await queue(sessionmaker, *((-100 - i, f"m{i}", False) for i in range(40)))
    sent = Recording()
    pace = Pace(20)
    lanes = [
        SharedSender(sessionmaker, sent, 20, 1000, lane=k, lanes=2, pace=pace)  # type: ignore[arg-type]
        for k in (0, 1)
    ]
    for lane in lanes:
        await lane.open()
    try:
        for lane in lanes:
            await lane._claim_parts()
        assert lanes[0].parts.isdisjoint(lanes[1].parts) and pace.share == 1.0
        await asyncio.gather(*(lane.flush_once() for lane in lanes))
        assert 14 <= len(sent.sent) <= 22  # 18 a second for about a second
        # Booked 1/18 s apart: a lane woken late sends close to the next one's moment,
        # but no second holds more than 18 (+1 for such a wake).
        gaps = [b - a for a, b in zip(sent.at, sent.at[1:], strict=False)]
        assert sum(gaps) / len(gaps) >= 0.9 / 18
        assert busiest(sent.at, 1.0) <= 19
    finally:
        for lane in lanes:
            await lane.close()


async def test_a_pass_takes_turns_between_groups_and_replies_come_first(pg: AsyncEngine) -> None:
    """No group waits for another group's whole backlog; an announcement queued first
    waits behind the replies to a person; a 👍 waits for the messages."""
    sessionmaker = make_sessionmaker(pg)
    await queue(
        sessionmaker,
        (-4, "news", True),
        *((-1, f"a{i}", False) for i in range(3)),
        *((-2, f"b{i}", False) for i in range(3)),
        (-3, "c0", False),
    )
    async with sessionmaker() as session, session.begin():
        Repo(session).enqueue(chat_id=-5, kind="react", text="👍", edit_message_id=9)
    sent = Recording()
    sender = SharedSender(sessionmaker, sent, 1000, 1000, hand_over=0)  # type: ignore[arg-type]
    await sender.open()
    try:
        await sender.flush_once()
    finally:
        await sender.close()
    assert sent.sent == ["a0", "b0", "c0", "a1", "b1", "a2", "b2", "news", "👍"]


async def test_a_dead_workers_claimed_reply_goes_out_once_from_the_part_holder(
    pg: AsyncEngine,
) -> None:
    sessionmaker = make_sessionmaker(pg)
    now = datetime.now(UTC)
    async with sessionmaker() as session, session.begin():
        repo = Repo(session)
        # Claimed by a worker that died: its lease has run out. Then one still leased.
        expired, leased = now - timedelta(seconds=1), now + timedelta(minutes=5)
        repo.enqueue(chat_id=-7, kind="text", text="orphan", status="sending", lease_until=expired)
        repo.enqueue(chat_id=-7, kind="text", text="next")
        repo.enqueue(chat_id=-9, kind="text", text="held", status="sending", lease_until=leased)
    first, second = Recording(), Recording()
    senders = [SharedSender(sessionmaker, t, 1000, 1000) for t in (first, second)]  # type: ignore[arg-type]
    for sender in senders:
        await sender.open()
    try:
        for sender in senders:
            await sender.flush_once()
        assert senders[0].parts == set(range(PARTS)) and senders[1].parts == set()
        assert first.sent == ["orphan", "next"] and second.sent == []
    finally:
        for sender in senders:
            await sender.close()


def quiet_signup(chat_id: int, **columns: Any) -> Tournament:
    return Tournament(
        chat_id=chat_id,
        game="bigtwo",
        format="swiss",
        title="Cup",
        seed="s",
        creator_id=1,
        **columns,
    )


async def test_the_leaders_rescan_reads_only_the_tournaments_that_wait_for_a_moment(
    pg: AsyncEngine,
) -> None:
    sessionmaker = make_sessionmaker(pg)
    now = datetime.now(UTC).replace(microsecond=0)
    async with sessionmaker() as session, session.begin():
        session.add_all(quiet_signup(-100 - i) for i in range(50))  # wait for nothing
        closing = quiet_signup(-1, signup_until=now + timedelta(hours=1))
        running = quiet_signup(-2, status=EventStatus.RUNNING)
        drawn = quiet_signup(-3, status=EventStatus.RUNNING)  # a round not yet open
        session.add_all([closing, running, drawn])
        await session.flush()
        open_round = Round(tournament_id=running.id, number=1, status=RoundStatus.OPEN,
                           deadline=now + timedelta(hours=2))  # fmt: skip
        session.add(open_round)
        await session.flush()
        session.add(TableRow(round_id=open_round.id, number=1, seats=[11, 12, 13, 14]))
        session.add(Round(tournament_id=drawn.id, number=1, deadline=now + timedelta(hours=3)))
    async with sessionmaker() as session:
        read = await Repo(session).timed_tournaments()
    assert sorted(t.id for t in read) == [closing.id, running.id]
    host = TimerHost(sessionmaker, lambda: now)
    assert await pending_timers(cast(Core, host)) == [
        Timer("signup", closing.id, 0, now + timedelta(hours=1)),
        Timer("deadline", running.id, 1, now + timedelta(hours=2)),
    ]


async def test_a_worker_reads_the_databases_clock_not_its_own(pg: AsyncEngine) -> None:
    clock = DatabaseClock(lambda: datetime.now(UTC) - timedelta(hours=1))  # an hour behind
    async with pg.connect() as conn:
        await clock.sync(conn)
        database = (await conn.execute(text("SELECT clock_timestamp()"))).scalar_one()
    assert abs(clock() - database) < timedelta(seconds=2)
    later = database + timedelta(minutes=5)
    clock.reached(later)  # the leader fired a timer due then: it has come, here too
    assert clock() >= later


async def test_a_timer_the_leader_fired_runs_on_a_worker_whose_clock_is_behind(
    pg: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the database's clock the worker would find it early and put it back, and
    the leader, which fires each timer once, would never fire it again."""
    sessionmaker = make_sessionmaker(pg)
    due = datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)
    async with sessionmaker() as session, session.begin():
        t = quiet_signup(-4, signup_until=due)
        session.add(t)
    timer = Timer("signup", t.id, 0, due)
    settings = Settings(bot_token="1:x", database_url=str(pg.url))
    worker = Worker(settings, host=lambda: datetime.now(UTC) - timedelta(minutes=10))
    worker.core = Core(settings, sessionmaker, Catalogue(), Recording(), worker.clock)  # type: ignore[arg-type]

    async def no_senders_here(chat_id: int) -> None:
        return None

    monkeypatch.setattr(worker, "_wake_sender", no_senders_here)
    put_back: list[Timer] = []
    worker.core.on_timer = put_back.append
    # The core alone, on this worker's clock, would put it back:
    await worker.core.system(-4, None, TIMERS["signup"], timer.arg, timer)
    assert put_back == [timer]
    leader_now = datetime.now(UTC)
    fired = {**timer_json(timer), "chat_id": -4, "thread_id": 0, "now": leader_now.isoformat()}
    await worker._dispatch({"timer": fired})
    assert put_back == [timer]  # not again
    async with sessionmaker() as session:
        repo = Repo(session)
        assert await repo.timer_fired(*timer)
        closed = await session.scalar(
            select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "signup-closed")
        )
    assert closed == 1  # too few players to draw: sign-up closed, the organiser told why

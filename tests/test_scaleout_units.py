"""Scale-out pieces that need no servers: commands, shards, timer ids, chats of updates."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest

from bot.cli import main
from bot.config import Settings
from bot.scaleout.budget import Budget
from bot.scaleout.bus import shard_of, timer_update_id
from bot.scaleout.cli import problem
from bot.scaleout.gateway import chat_of
from bot.types import Timer
from db.migrate import upgrade
from db.session import make_engine, make_sessionmaker
from tests.cluster import reset_database


@pytest.mark.parametrize("command", ["gateway", "worker", "scheduler"])
def test_each_scale_out_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert f"usage: tourbot {command}" in capsys.readouterr().out


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


def test_a_timer_firing_has_one_negative_id() -> None:
    at = datetime(2026, 12, 20, 10, tzinfo=UTC)
    first = timer_update_id(Timer("deadline", 3, 1, at))
    assert first < 0 and first == timer_update_id(Timer("deadline", 3, 1, at))
    assert first != timer_update_id(Timer("deadline", 3, 2, at))
    assert first != timer_update_id(Timer("noshow", 3, 1, at))


PG_URL = os.environ.get("TEST_DATABASE_URL", "")


@pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set: PostgreSQL tests skipped")
async def test_the_shared_budget_lets_a_chat_burst_then_paces_it_and_honours_429() -> None:
    await reset_database(PG_URL)
    engine = make_engine(PG_URL)
    await upgrade(engine)
    try:
        # Two workers' budgets over one database: what one takes, the other cannot.
        one, two = (Budget(make_sessionmaker(engine), 1000, 3) for _ in range(2))
        assert [await w.take(-7) for w in (one, two, one)] == [0.0, 0.0, 0.0]
        wait = await two.take(-7)  # the chat's 3 a minute are spent
        assert 19 < wait <= 20
        assert await one.take(-8) == 0.0  # another chat is not held up
        await one.block(-8, 30)  # Telegram: retry after 30 s
        assert 29 < await two.take(-8) <= 30
    finally:
        await engine.dispose()


@pytest.mark.skipif(not PG_URL, reason="TEST_DATABASE_URL is not set: PostgreSQL tests skipped")
async def test_the_bot_wide_budget_holds_every_chat() -> None:
    await reset_database(PG_URL)
    engine = make_engine(PG_URL)
    await upgrade(engine)
    try:
        budget = Budget(make_sessionmaker(engine), 2, 1000)
        assert [await budget.take(chat) for chat in (-1, -2)] == [0.0, 0.0]
        assert 0 < await budget.take(-3) <= 0.5  # 2 a second for the whole bot
    finally:
        await engine.dispose()

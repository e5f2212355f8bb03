"""Scale-out pieces that need no servers: commands, shards, timer ids, chats of updates."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.cli import main
from bot.config import Settings
from bot.scaleout.bus import shard_of, timer_update_id
from bot.scaleout.cli import problem
from bot.scaleout.gateway import chat_of
from bot.types import Timer


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

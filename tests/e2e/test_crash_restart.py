"""SIGKILL in the middle of a burst of sign-ups, then a restart: every sign-up that was
acknowledged stays, every update is handled once, and every reply goes out once.

On aiogram; ``test_kill_restart.py`` kills PTB, so each backend meets a
SIGKILL mid-burst once (the outbox and the processed-update marks are the core's)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from playground.botapi import BotAPIServer
from tests.e2e.harness import TOKEN

GROUP = -100777
ADMIN = 1
PLAYERS = list(range(201, 213))


async def until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def start_bot(server: BotAPIServer, backend: str, db: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "BOT_TOKEN": TOKEN,
        "BOT_API_URL": server.url,
        "BOT_BACKEND": backend,
        "DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "POLL_TIMEOUT": "1",
        "RATE_PER_CHAT_MINUTE": "100000",
    }
    return subprocess.Popen([sys.executable, "-m", "bot"], env=env, cwd=Path(__file__).parents[2])


@pytest.mark.parametrize("backend", ["aiogram"])
async def test_sigkill_mid_burst_loses_nothing_and_repeats_nothing(
    botapi: BotAPIServer, backend: str, tmp_path: Path
) -> None:
    server = botapi
    server.add_user(ADMIN, "Org", language_code="en")
    for uid in PLAYERS:
        server.add_user(uid, f"P{uid}", language_code="en")
    server.add_chat(GROUP, "crash test", admins=[ADMIN])
    db = tmp_path / "bot.db"

    proc = start_bot(server, backend, db)
    try:
        server.user_says(GROUP, ADMIN, "/new bigtwo Crash Cup")
        await server.wait_for("Crash Cup", timeout=60)
        joins = [server.user_says(GROUP, uid, "/join")["message_id"] for uid in PLAYERS]
        # Killed at the first 👍, while the rest is in flight (the count edits merge, so
        # "1 signed up" may never be shown).
        await until(lambda: any(server.reactions.get((GROUP, m)) for m in joins), 30)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc = start_bot(server, backend, db)
        await until(lambda: all(server.reactions.get((GROUP, m)) for m in joins), 60)
        signup = next(m for m in server.outbox(GROUP) if "SHA-256" in m.body)
        await until(lambda: f"{len(PLAYERS)} signed up" in signup.body, 30)  # edited in place
        await server.wait_idle(quiet=2.0, timeout=30)
        server.user_says(GROUP, ADMIN, "/players")
        listing = await server.wait_for(f"{len(PLAYERS)} players:", timeout=30)
        await asyncio.sleep(1.0)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)

    assert all(f"P{uid}" in listing.body for uid in PLAYERS)
    bodies = [m.body for m in server.outbox(GROUP)]
    # Each update handled once: every typed /join got its 👍, none "already joined", and
    # the sign-up message was edited in place rather than answered twelve times.
    assert all(server.reactions.get((GROUP, m)) == ["👍"] for m in joins)
    assert not any("already joined" in b for b in bodies)
    assert not any("has joined" in b for b in bodies)
    assert sum("Crash Cup" in m.body and "SHA-256" in m.body for m in server.outbox(GROUP)) == 1

"""Issue 10: SIGKILL the bot process at random moments of a burst of sign-ups, and once
exactly in the window between Telegram accepting a reply and the bot marking it sent;
count the replies lost, doubled (one reply delivered twice) and repeated (an update
handled twice), and print them.

The README states what may still repeat: a reply Telegram accepted just before the kill,
at most one per kill (the sender has one message in flight at a time). Nothing is lost
and no update is handled twice. ``KILLS=20`` runs more random kills (nightly).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.botapi import BotAPIServer
from tests.e2e.test_crash_restart import start_bot

GROUP = -100778
ADMIN = 1
KILLS = int(os.environ.get("KILLS", "2"))
JOINED = re.compile(r"has joined \((\d+) players?\)")  # "(1 player)", "(2 players)"


class Bot:
    """The bot as a process the test may kill at any moment."""

    def __init__(self, server: BotAPIServer, backend: str, db: Path) -> None:
        self.server, self.backend, self.db = server, backend, db
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = start_bot(self.server, self.backend, self.db)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=20)


def kill_after_accepting(server: BotAPIServer, bot: Bot, nth_join: int) -> None:
    """Make the server SIGKILL the bot right after it has accepted (stored) the
    ``nth_join``-th "has joined" message from now on, before the bot reads the answer."""
    name, send = server._methods["sendmessage"]
    seen = 0

    async def accept_then_kill(params: Any, files: Any) -> Any:
        nonlocal seen
        result = await send(params, files)
        if JOINED.search(str(params.get("text", ""))):
            seen += 1
            if seen == nth_join:
                bot.kill()
        return result

    server._methods["sendmessage"] = (name, accept_then_kill)


def count(server: BotAPIServer, players: int) -> dict[str, int]:
    bodies = [m.body for m in server.outbox(GROUP)]
    joined = Counter(int(m.group(1)) for b in bodies if (m := JOINED.search(b)))
    return {
        "lost": sum(1 for n in range(1, players + 1) if n not in joined),
        "doubled": sum(c - 1 for c in joined.values()),
        "repeated": sum("already joined" in b for b in bodies),
    }


async def burst(server: BotAPIServer, bot: Bot, players: list[int], kills: list[float]) -> None:
    """Everyone sends /join; the bot is killed after each delay in ``kills`` and started
    again; then wait until every sign-up has been answered."""
    for uid in players:
        server.user_says(GROUP, uid, "/join")
    for delay in kills:
        await asyncio.sleep(delay)
        bot.kill()
        bot.start()
    await server.wait_for(f"({len(players)} players)", timeout=90)
    await server.wait_idle(quiet=2.0, timeout=60)


@pytest.mark.parametrize("backend", ["aiogram", "ptb"])
async def test_kills_lose_nothing_and_repeat_at_most_the_reply_in_flight(
    botapi: BotAPIServer, backend: str, tmp_path: Path
) -> None:
    server = botapi
    rng = random.Random(f"kill-{backend}")
    players = list(range(201, 221))
    server.add_user(ADMIN, "Org", language_code="en")
    for uid in players:
        server.add_user(uid, f"P{uid}", language_code="en")
    server.add_chat(GROUP, "kill test", admins=[ADMIN])
    bot = Bot(server, backend, tmp_path / "bot.db")
    bot.start()
    try:
        server.user_says(GROUP, ADMIN, "/new bigtwo Kill Cup")
        await server.wait_for("Kill Cup", timeout=60)
        first, second = players[:10], players[10:]
        await burst(server, bot, first, [rng.uniform(0.2, 1.5) for _ in range(KILLS)])
        random_kills = count(server, len(first))

        kill_after_accepting(server, bot, nth_join=3)
        for uid in second:
            server.user_says(GROUP, uid, "/join")
        for _ in range(600):  # until the server has killed it
            if bot.proc is None or bot.proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        bot.start()
        await server.wait_for(f"({len(players)} players)", timeout=90)
        await server.wait_idle(quiet=2.0, timeout=60)
        total = count(server, len(players))
    finally:
        bot.stop()
    in_window = {k: total[k] - random_kills[k] for k in total}
    print(
        f"kill-and-restart ({backend}): {KILLS} random kills: {random_kills}; "
        f"1 kill between Telegram's answer and the mark: {in_window}"
    )
    assert random_kills["lost"] == 0 and random_kills["repeated"] == 0
    assert random_kills["doubled"] <= KILLS  # at most the reply in flight, per kill
    assert in_window == {"lost": 0, "doubled": 1, "repeated": 0}  # exactly that one

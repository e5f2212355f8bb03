"""SIGKILL the bot process at random moments of a burst of sign-ups, and once
exactly in the window between Telegram accepting a reply and the bot marking it sent;
count the replies lost, doubled (one reply delivered twice) and repeated (an update
handled twice), and print them. A typed /join is answered quietly: its reply is
the 👍 reaction on the user's message, and the sign-up message's count is edited.

The README states what may still repeat: a message Telegram accepted just before the
kill, at most one per kill (the sender has one message in flight at a time); reactions and
edits, which repeat invisibly, are marked sent together after each pass of the sender, so
those of the pass in flight may be sent again. Nothing is lost and no update is handled
twice. ``KILLS=20`` runs more random kills (nightly).

On PTB; ``test_crash_restart.py`` kills aiogram, so each backend meets a
SIGKILL mid-burst once (the outbox and the processed-update marks are the core's).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from playground.botapi import BotAPIServer
from tests.e2e.test_crash_restart import start_bot

GROUP = -100778
ADMIN = 1
KILLS = int(os.environ.get("KILLS", "2"))
COUNT = "{n} signed up so far"


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
    ``nth_join``-th sign-up reaction from now on, before the bot reads the answer."""
    name, react = server._methods["setmessagereaction"]
    seen = 0

    async def accept_then_kill(params: Any, files: Any) -> Any:
        nonlocal seen
        result = await react(params, files)
        seen += 1
        if seen == nth_join:
            bot.kill()
        return result

    server._methods["setmessagereaction"] = (name, accept_then_kill)


def count(server: BotAPIServer, joins: list[int]) -> dict[str, int]:
    """``joins``: the ids of the /join messages, each to be answered by one reaction."""
    acks = Counter(
        c.params.get("message_id")
        for c in server.calls_to("setMessageReaction")
        if c.status == 200 and int(c.params.get("chat_id", 0)) == GROUP
    )
    return {
        "lost": sum(1 for j in joins if not acks[j]),
        "doubled": sum(acks[j] - 1 for j in joins if acks[j]),
        "repeated": sum("already joined" in m.body for m in server.outbox(GROUP)),
    }


async def burst(
    server: BotAPIServer, bot: Bot, players: list[int], kills: list[float], total: int
) -> list[int]:
    """Everyone sends /join; the bot is killed after each delay in ``kills`` and started
    again; then wait until the sign-up count reads ``total``. Returns the /join messages."""
    joins = [int(server.user_says(GROUP, uid, "/join")["message_id"]) for uid in players]
    for delay in kills:
        await asyncio.sleep(delay)
        bot.kill()
        bot.start()
    await answered(server, joins, total)
    return joins


async def answered(server: BotAPIServer, joins: list[int], total: int) -> None:
    """Wait until the count reads ``total`` and every /join has its reaction (one held by
    a killed sender goes once its lease runs out), then for the bot to go quiet."""
    await server.wait_for(COUNT.format(n=total), timeout=90)
    for _ in range(900):
        if not count(server, joins)["lost"]:
            break
        await asyncio.sleep(0.1)
    await server.wait_idle(quiet=2.0, timeout=60)


@pytest.mark.parametrize("backend", ["ptb"])
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
        kills = [rng.uniform(0.2, 1.5) for _ in range(KILLS)]
        joins = await burst(server, bot, first, kills, len(first))
        random_kills = count(server, joins)

        kill_after_accepting(server, bot, nth_join=3)
        joins += [int(server.user_says(GROUP, uid, "/join")["message_id"]) for uid in second]
        for _ in range(600):  # until the server has killed it
            if bot.proc is None or bot.proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        bot.start()
        await answered(server, joins, len(players))
        total = count(server, joins)
    finally:
        bot.stop()
    in_window = {k: total[k] - random_kills[k] for k in total}
    print(
        f"kill-and-restart ({backend}): {KILLS} random kills: {random_kills}; "
        f"1 kill between Telegram's answer and the mark: {in_window}"
    )
    assert random_kills["lost"] == 0 and random_kills["repeated"] == 0
    assert random_kills["doubled"] <= KILLS * len(first)  # at most a pass's, per kill
    # The kill came after the third reaction of a pass: those three, unmarked, come
    # again (a reaction set twice is one reaction); nothing else.
    assert in_window["lost"] == 0 and in_window["repeated"] == 0
    assert 1 <= in_window["doubled"] <= 3

"""Issue 16: the SQL a /join, a /report and a /confirm cost does not grow with the event.

Each is sent in a small event (8 players) and a larger one (40), and every statement the
bot runs for it is counted: those of its transaction must be equal in both. Reloading
the whole tournament on every update (select-in loads of every player, round, table and
report) would make them differ. The delivery of its replies (the sender's passes, on
their own autocommit connection) is counted apart: how many passes it takes depends on
timing (the 👍 and the count edit in one pass or two), not on the event, so it is
bounded instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness, tables_of

ADMIN = 1


# Statements of the sender's passes, whatever the update: at most this many.
DELIVERY_BOUND = 12


@contextmanager
def counting(bot: Harness) -> Iterator[list[str]]:
    """The statements of the updates' transactions; the sender's (on its autocommit
    connection, see ``bot.outbox``) are checked against :data:`DELIVERY_BOUND`."""
    assert bot.app is not None
    statements: list[str] = []
    delivery: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        autocommit = conn.get_execution_options().get("isolation_level") == "AUTOCOMMIT"
        (delivery if autocommit else statements).append(statement)

    engines = {bot.app.engine.sync_engine, bot.app.sender.engine.sync_engine}
    for sync_engine in engines:
        event.listen(sync_engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        for sync_engine in engines:
            event.remove(sync_engine, "before_cursor_execute", record)
    assert 0 < len(delivery) <= DELIVERY_BOUND, delivery


async def costs(bot: Harness, chat: int, size: int) -> dict[str, int]:
    """Statements of the last /join, then a /report and its /confirm at table 1."""
    server: BotAPIServer = bot.server
    players = [chat * -1000 + i for i in range(size)]
    names = {f"P{uid}": uid for uid in players}
    server.add_chat(chat, "speed", admins=[ADMIN])
    for uid in players:
        server.add_user(uid, f"P{uid}")
    await bot.says(chat, ADMIN, "/new bigtwo", "SHA-256")
    for uid in players[:-1]:
        await bot.joins(chat, uid)  # a typed /join is answered by a 👍 (issue 12)
    found: dict[str, int] = {}
    await server.wait_idle(quiet=0.3)
    with counting(bot) as statements:
        await bot.joins(chat, players[-1])
        await server.wait_for(f"已报名 {size} 人")  # and the sign-up message's count
        await server.wait_idle(quiet=0.3)
    found["join"] = len(statements)
    drawn = await bot.says(chat, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(chat, ADMIN, "/round", "第 1 轮开始")
    seats = tables_of(drawn.body, names)[1]
    await server.wait_idle(quiet=0.3)
    with counting(bot) as statements:
        await bot.says(chat, seats[0], "/report 1 A5 B8 C0 D12", "请同桌另一位选手确认")
        await server.wait_idle(quiet=0.3)
    found["report"] = len(statements)
    with counting(bot) as statements:
        await bot.says(chat, seats[1], "/confirm", "结果确认")
        await server.wait_idle(quiet=0.3)
    found["confirm"] = len(statements)
    return found


async def test_join_report_and_confirm_cost_the_same_statements_in_any_event_size(
    bot: Harness,
) -> None:
    bot.server.add_user(ADMIN, "组织者")
    small = await costs(bot, -100801, 8)
    large = await costs(bot, -100802, 40)
    assert small == large, (small, large)
    # A confirmed result also updates the live standings (issue 12), which reads the
    # whole event: a few select-in statements more, as many for 8 players as for 40.
    assert small["join"] <= 20 and small["report"] <= 20 and small["confirm"] <= 30, small

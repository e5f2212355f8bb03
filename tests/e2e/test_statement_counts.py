"""The SQL a /join, a /report and a /confirm cost does not grow with the event.

Each is sent in a small event (16 players, four tables) and a larger one (64), and
every statement the bot runs for it is counted: those of its transaction must be equal
in both. Reloading the whole tournament on every update (select-in loads of every
player, round, table and report) would make them differ. The delivery of its replies
(the sender's passes, on their own autocommit connection) is counted apart: how many
passes it takes depends on timing (the 👍 and the count edit in one pass or two), not
on the event, so it is bounded instead.

On SQLite the reads are also weighed: each is run again on a connection of its own,
counting the virtual-machine steps SQLite takes for it. An equal number of statements
can still hide a search of every table of the round (a player's table found in each
table's JSON list of seats, the round's pending tables counted); a lookup by an index
takes the same steps in both events.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event

from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness, tables_of

ADMIN = 1


# How far the clock is put back so that a result comes within the live standings' gap.
LATER = timedelta(minutes=10)
STEPS = ("report steps", "confirm steps")
SLACK = 8  # steps
# Statements of the sender's passes, whatever the update: at most this many.
DELIVERY_BOUND = 12


Statement = tuple[str, Any]  # as the driver got it: SQL and parameters


@contextmanager
def counting(bot: Harness) -> Iterator[list[Statement]]:
    """The statements of the updates' transactions; the sender's (on its autocommit
    connection, see ``bot.transport.outbox``) are checked against :data:`DELIVERY_BOUND`."""
    assert bot.app is not None
    statements: list[Statement] = []
    delivery: list[Statement] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
        autocommit = conn.get_execution_options().get("isolation_level") == "AUTOCOMMIT"
        (delivery if autocommit else statements).append((statement, parameters))

    engines = {bot.app.engine.sync_engine, bot.app.sender.engine.sync_engine}
    for sync_engine in engines:
        event.listen(sync_engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        for sync_engine in engines:
            event.remove(sync_engine, "before_cursor_execute", record)
    assert 0 < len(delivery) <= DELIVERY_BOUND, delivery


def steps(bot: Harness, statements: list[Statement]) -> list[int]:
    """SQLite's virtual-machine steps for each read among ``statements``, run again now
    on a read-only connection (none on PostgreSQL)."""
    assert bot.app is not None
    url = bot.app.engine.url
    if url.get_backend_name() != "sqlite":
        return []
    conn = sqlite3.connect(f"file:{url.database}?mode=ro", uri=True)
    taken = 0

    def step() -> int:
        nonlocal taken
        taken += 1
        return 0  # go on

    conn.set_progress_handler(step, 1)
    each = []
    try:
        for sql, parameters in statements:
            if sql.lstrip().upper().startswith("SELECT"):
                taken = 0
                conn.execute(sql, parameters).fetchall()
                each.append(taken)
    finally:
        conn.close()
    return each


async def costs(bot: Harness, chat: int, size: int) -> dict[str, Any]:
    """Statements of the last /join, then of a /report and its /confirm at table 1, the
    first result (it posts the live standings); then SQLite's steps for the reads of a
    /report and a bare /confirm at the last table (the player's table found by the bot),
    a result among others, whose live standings wait for the burst's refresh."""
    server: BotAPIServer = bot.server
    players = [chat * -1000 + i for i in range(size)]
    names = {f"P{uid}": uid for uid in players}
    server.add_chat(chat, "speed", admins=[ADMIN])
    for uid in players:
        server.add_user(uid, f"P{uid}")
    await bot.says(chat, ADMIN, "/new bigtwo", "SHA-256")
    for uid in players[:-1]:
        await bot.joins(chat, uid)  # a typed /join is answered by a 👍
    found: dict[str, Any] = {}
    await server.wait_idle(quiet=0.3)
    with counting(bot) as statements:
        await bot.joins(chat, players[-1])
        await server.wait_for(f"已报名 {size} 人")  # and the sign-up message's count
        await server.wait_idle(quiet=0.3)
    found["join"] = len(statements)
    drawn = await bot.says(chat, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(chat, ADMIN, "/round", "第 1 轮开始")
    tables = tables_of(drawn.body, names)
    await server.wait_idle(quiet=0.3)
    for table, name in ((1, ""), (len(tables), " steps")):
        if name:  # the refresh of the first result is a moment ago (the burst's case)
            bot.clock.offset -= LATER
        with counting(bot) as statements:
            await bot.says(chat, tables[table][0], f"/report {table} A5 B8 C0 D12", "请同桌")
            await server.wait_idle(quiet=0.3)
        found["report" + name] = steps(bot, statements) if name else len(statements)
        with counting(bot) as statements:
            await bot.says(chat, tables[table][1], "/confirm", "结果确认")
            await server.wait_idle(quiet=0.3)
        found["confirm" + name] = steps(bot, statements) if name else len(statements)
    bot.clock.offset += LATER
    return found


async def test_join_report_and_confirm_cost_the_same_statements_in_any_event_size(
    bot: Harness,
) -> None:
    bot.server.add_user(ADMIN, "组织者")
    small = await costs(bot, -100801, 16)
    large = await costs(bot, -100802, 64)
    weighed = {key: zip(small.pop(key), large.pop(key), strict=True) for key in STEPS}
    assert small == large, (small, large)
    # An index lookup ends a little sooner or later (at the round's last pending table,
    # or at one of many): a few steps either way. A search of each table's seats, or a
    # count of the pending tables, takes more with each of the 12 tables more.
    for key, pairs in weighed.items():
        for read, (few, many) in enumerate(pairs):
            assert many <= few + SLACK, (key, read, few, many)
    # A confirmed result also updates the live standings, which reads the
    # whole event: a few select-in statements more, as many for 16 players as for 64.
    assert small["join"] <= 20 and small["report"] <= 20 and small["confirm"] <= 30, small

"""An outage across a check-in cut-off and a deadline ends in the ruling the bot
would have made had it been up, and a deadline that fired is never announced again."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from sqlalchemy import select, text

from db.models import AuditEntry
from tests.e2e.harness import Harness, tables_of

GROUP = -1010020
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_timers_missed_in_an_outage_run_in_order_once(bot: Harness) -> None:
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 901 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 停电赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set noshow 15", "已设置 noshow = 15")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    t1, t2 = tables_of(drawn.body, ids)[1], tables_of(drawn.body, ids)[2]
    await bot.says(GROUP, ADMIN, "/round 1小时后", "第 1 轮开始")
    for uid in t1:
        await bot.says(GROUP, uid, "/here", "已签到")
    await bot.says(GROUP, t2[0], "/here", "已签到")  # three of table 2 never come
    await bot.says(GROUP, t1[0], "/report 1 A5 B8 C0 D12", "/confirm")
    await bot.says(GROUP, t1[1], "/dispute 1 数错了", "有异议")  # keeps the round open

    # Down across the cut-off (15 minutes) and the deadline (an hour).
    await server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(hours=2)
    await bot.start()
    checkin = await server.wait_for("签到截止", timeout=20)
    deadline = await server.wait_for("轮截止。", timeout=20)
    assert checkin.message_id < deadline.message_id  # the cut-off ruled first
    assert "第 2 桌" in checkin.body and "全员到齐" not in checkin.body

    # Restarts while the disputed table keeps the round open: nothing fires again.
    for _ in range(2):
        await server.wait_idle()
        await bot.restart()
    await server.wait_idle(quiet=1.0)
    said = [m.body for m in server.outbox(GROUP)]
    assert sum("签到截止" in b for b in said) == 1
    assert sum("轮截止。" in b for b in said) == 1
    assert bot.app is not None
    async with bot.app.core.sessionmaker() as session:
        actions = list(await session.scalars(select(AuditEntry.action)))
    assert actions.count("deadline") == 1 and actions.count("noshow") == 1

    # Table 2's seat A came: a bye, not a forfeit; the three who did not, forfeit.
    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    table2 = {r["seat"]: r["status"] for r in rows if r["round"] == "1" and r["table"] == "2"}
    assert table2 == {"A": "bye", "B": "forfeit", "C": "forfeit", "D": "forfeit"}


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"], indirect=True)
async def test_connections_the_database_dropped_lose_no_update_and_no_reply(
    bot: Harness,
) -> None:
    """The engine does not ping a connection before each use (three round trips a
    checkout on PostgreSQL). So after the server drops every connection (a restart, an
    idle timeout), the next update meets a dead one: it is not consumed, it is handled
    again on a fresh connection, and the sender keeps sending."""
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    for uid in (901, 902, 903):
        server.add_user(uid, NAMES[uid - 901], language_code="zh")
    server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo 断线赛", "SHA-256")
    await bot.joins(GROUP, 901)
    await server.wait_idle()

    assert bot.app is not None
    async with bot.app.engine.connect() as conn:
        dropped = await conn.scalar(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    assert dropped  # the bot's pooled connections

    await bot.joins(GROUP, 902)
    await bot.joins(GROUP, 903)
    listed = await bot.says(GROUP, 901, "/players", "报名 3 人")
    assert all(name in listed.body for name in NAMES[:3])
    async with bot.app.core.sessionmaker() as session:
        joins = list(
            await session.scalars(select(AuditEntry.action).where(AuditEntry.action == "join"))
        )
    assert len(joins) == 3  # each sign-up once

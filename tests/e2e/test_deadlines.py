"""End to end: reminders before a deadline, /deadline moving it, and the notice
that names every forfeiting player; timers rebuilt from the database across restarts so
that no reminder is sent twice and none is lost.

Time is driven like the other timer tests: the bot is stopped, the harness clock moved
forward, and the bot started again. Moved past a timer's moment, the timer runs in the
start-up catch-up (what fell due while the bot was down, in the order it was due); moved
to a few seconds before it, the timer is planned at start-up and must fire on time while
the bot runs.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from bot.application.timers import LAST_CALL
from db.models import Round, TableRow
from playground.botapi import SentMessage
from tests.e2e.harness import Harness, tables_of

GROUP = -105000
ADMIN = 1
NAMES = [
    "张飞",
    "关羽",
    "刘备",
    "赵云",
    "马超",
    "黄忠",
    "曹操",
    "孙权",
    "周瑜",
    "吕布",
    "貂蝉",
    "孔明",
]


def setup(bot: Harness) -> tuple[dict[str, int], dict[int, str]]:
    """Twelve players; every other one has a @username (the others can only be named)."""
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 701 + i for i, name in enumerate(NAMES)}
    usernames = {uid: f"p{uid}" for i, uid in enumerate(ids.values()) if i % 2 == 0}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, username=usernames.get(uid), language_code="zh")
    bot.server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    return ids, usernames


async def at_minute(bot: Harness, minutes: int, expect: str | None = None) -> None:
    """Stop the bot, move the clock to ``minutes`` after the test began, start again;
    wait for the output containing ``expect``, or for the bot to fall quiet."""
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(minutes=minutes)
    await bot.start()
    if expect is not None:
        await bot.server.wait_for(expect, timeout=20)
    await bot.server.wait_idle(quiet=1.0)


async def just_before(bot: Harness, moment: datetime, expect: str) -> SentMessage:
    """Stop the bot, set the clock a few seconds before ``moment``, start again: the timer
    is not due at start-up, so only the running scheduler can send ``expect``; it must
    come on time, never early."""
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset += moment - timedelta(seconds=4) - bot.clock()
    await bot.start()
    sent = await bot.server.wait_for(expect, timeout=20)
    assert bot.clock() >= moment, "fired early"
    await bot.server.wait_idle(quiet=1.0)
    return sent


async def open_round_deadline(bot: Harness) -> datetime:
    """The open round's deadline as stored (to the second, unlike the echo)."""
    assert bot.app is not None
    async with bot.app.core.sessionmaker() as session:
        deadline: datetime | None = await session.scalar(
            select(Round.deadline).where(Round.status == "open")
        )
    assert deadline is not None
    return deadline


def reminders(bot: Harness) -> list[str]:
    return [m.body for m in bot.server.outbox(GROUP) if m.body.startswith("⏰ 提醒")]


def minutes_left(reminder: str) -> int:
    """The reminder's "还有 N 分钟" (the test's own steps take real seconds too)."""
    found = re.search(r"还有 (\d+) 分钟截止", reminder)
    assert found is not None, reminder
    return int(found.group(1))


async def test_reminders_mention_only_unfinished_tables_and_the_deadline_names_forfeits(
    bot: Harness,
) -> None:
    server = bot.server
    ids, usernames = setup(bot)
    name = {v: k for k, v in ids.items()}
    for uid in ids.values():  # they all open a private chat with the bot
        await bot.says(uid, uid, "/start", "可用命令")
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 截止赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    t1, t2, t3 = (tables_of(drawn.body, ids)[n] for n in (1, 2, 3))

    # A round of 15 minutes: too short for the 24 h and 1 h reminders, so the
    # "10 minutes before the end" call comes at minute 5.
    await bot.says(GROUP, ADMIN, "/round 15分钟后", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 total A+9 B-3 C-3 D-3", "结果确认")
    pending = await bot.says(GROUP, t2[0], "/report 2 total A+6 B-2 C-2 D-2", "第 2 桌上报")
    # The deadline is kept to the minute: a /round late in a minute leaves 14 and some.
    assert "若无人提出异议，此结果将于截止时间" in pending.body
    assert re.search(r"还有 1[45] 分钟", pending.body), pending.body

    # Minute 6: the reminder fell due while the bot was down; it goes out at start-up.
    await at_minute(bot, 6, "⏰ 提醒")
    [group] = reminders(bot)
    assert 7 <= minutes_left(group) <= 9  # the 10-minute call, sent late at start-up
    lines = group.splitlines()
    line2 = next(x for x in lines if x.startswith("第 2 桌（待确认）"))
    line3 = next(x for x in lines if x.startswith("第 3 桌（未上报）"))
    for line, seats in ((line2, t2), (line3, t3)):
        for uid in seats:
            assert name[uid] in line
            assert (f"@p{uid}" in line) == (uid in usernames)
    for uid in t1:  # the settled table is left alone
        assert name[uid] not in group
    # Private reminders: table 3 gets a report button, table 2 is asked to confirm,
    # table 1 hears nothing.
    for uid in t3:
        [note] = [m for m in server.outbox(uid) if "⏰" in m.body]
        assert "第 3 桌还没有上报" in note.body and note.button("上报结果")
    for uid in t2:
        [note] = [m for m in server.outbox(uid) if "⏰" in m.body]
        assert "等你确认" in note.body and not note.buttons
    for uid in t1:
        assert not [m for m in server.outbox(uid) if "⏰" in m.body]

    # The button opens the guided report in the group, for seat A of table 3.
    note = next(m for m in server.outbox(t3[0]) if "⏰" in m.body)
    press = server.user_presses(t3[0], t3[0], note.message_id, note.button("上报")["callback_data"])
    assert "群里" in ((await server.wait_for_callback_answer(press)).text or "")
    flow = await server.wait_for("📝 第 3 桌")
    assert flow.chat_id == GROUP and flow.buttons

    # A restart between the reminder and the deadline sends no reminder twice.
    await at_minute(bot, 7)
    assert len(reminders(bot)) == 1

    # The organiser moves the deadline 30 minutes on; a new last call comes for it, this
    # time from the running scheduler, on time: 10 minutes before the new deadline.
    moved = await bot.says(GROUP, ADMIN, "/deadline 30分钟后", "截止时间改为")
    assert "还有 30 分钟" in moved.body
    await bot.says(GROUP, t2[0], "/deadline 1小时后", "只有组织者")
    deadline = await open_round_deadline(bot)
    await just_before(bot, deadline - LAST_CALL, "⏰ 提醒")
    last_call = reminders(bot)[-1]
    assert len(reminders(bot)) == 2 and minutes_left(last_call) == 10
    assert "第 2 桌（待确认）" in last_call and "第 3 桌（未上报）" in last_call
    assert not any(name[u] in last_call for u in t1)

    # A restart between that reminder and the deadline: nothing repeated, nothing lost.
    await server.wait_idle()
    await bot.stop()
    bot.clock.offset += timedelta(minutes=5)  # half-way from the reminder to the deadline
    await bot.start()
    await server.wait_idle(quiet=1.0)
    assert len(reminders(bot)) == 2

    # The deadline comes while the bot runs: table 2's report stands, table 3 forfeits,
    # and the notice names them all. The round's first deadline (minute 15) never fired.
    settled = (await just_before(bot, deadline, "第 1 轮截止。")).body
    accepted = settled.split("按已报结果确认：", 1)[1].splitlines()[0]
    forfeits = settled.split("整桌弃权：", 1)[1].splitlines()[0]
    assert accepted.startswith("第 2 桌") and all(name[u] in accepted for u in t2)
    assert forfeits.startswith("第 3 桌") and all(name[u] in forfeits for u in t3)
    assert all(f"@{usernames[u]}" in accepted for u in t2 if u in usernames)
    assert all(f"@{usernames[u]}" in forfeits for u in t3 if u in usernames)
    await bot.restart()
    await server.wait_idle(quiet=1.0)
    assert sum("第 1 轮截止。" in m.body for m in server.outbox(GROUP)) == 1
    assert len(reminders(bot)) == 2  # none repeated after all these restarts, none lost
    for uid in t2 + t3:  # nor in private
        assert len([m for m in server.outbox(uid) if "⏰" in m.body]) == 2
    for uid in t1:
        assert not [m for m in server.outbox(uid) if "⏰" in m.body]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_table_extension_undo_and_signup_deadline(bot: Harness) -> None:
    """One table gets more time and keeps playing past the round's deadline; /undo takes
    a move back; a sign-up deadline draws by itself, or says why it cannot."""
    server = bot.server
    ids, _ = setup(bot)
    # /tz in any case, by city or offset; Etc/GMT+8 (which is UTC-8) is explained
    await bot.says(GROUP, ADMIN, "/tz new york", "America/New_York")
    await bot.says(GROUP, ADMIN, "/tz +8", "UTC+8 (Etc/GMT-8)")
    refused = await bot.says(GROUP, ADMIN, "/tz Etc/GMT+8", "UTC-8")
    assert "/tz -8" in refused.body
    await bot.says(GROUP, ADMIN, "/tz asia/SHANGHAI", "Asia/Shanghai")
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 报名赛", "SHA-256")
    refused = await bot.says(GROUP, ADMIN, "/deadline signup 昨天", "已经过去")
    assert "已过" in refused.body
    await bot.says(GROUP, ADMIN, "/deadline signup 下周五", "报名将于")
    await bot.says(GROUP, ADMIN, "/undo", "已撤销：上一次设定报名截止时间")
    await bot.says(GROUP, ADMIN, "/deadline signup 10分钟后", "报名将于")
    await bot.joins(GROUP, ids[NAMES[0]])
    await at_minute(bot, 11, "无法自动抽签")  # one player is no tournament
    assert any("无法自动抽签" in m.body for m in server.outbox(GROUP))

    for uid in list(ids.values())[1:8]:
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/deadline signup 20分钟后", "报名将于")
    await at_minute(bot, 32, "第 1 轮抽签")
    drawn = next(m.body for m in server.outbox(GROUP) if "第 1 轮抽签" in m.body)
    t2 = tables_of(drawn, ids)[2]

    await bot.says(GROUP, ADMIN, "/set remind soon", "remind 不能设为 soon")
    await bot.says(GROUP, ADMIN, "/set remind 1h", "已设置 remind = 1h")
    await bot.says(GROUP, ADMIN, "/round 2小时后", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/deadline 2 3小时后", "第 2 桌截止时间延长到")
    await bot.says(GROUP, ADMIN, "/deadline 1 2/3", "可能是 2月3日，也可能是 3月2日")
    await bot.says(GROUP, ADMIN, "/deadline 9 明天", "第 1 轮没有第 9 桌")
    await bot.says(GROUP, ADMIN, "/deadline 3 天内", "第 1 轮截止时间改为")  # not table 3
    await bot.says(GROUP, ADMIN, "/undo", "已撤销：上一次修改本轮截止时间")
    await bot.says(GROUP, ADMIN, "/deadline 4小时后", "截止时间改为")
    await bot.says(GROUP, ADMIN, "/undo", "已撤销：上一次修改本轮截止时间")
    await bare_hour_is_asked_about(bot, t2[0])
    mine = await bot.says(GROUP, t2[0], "/table", "第 2 桌")
    assert re.search(r"还有 (3 小时|2 小时 5\d 分钟)", mine.body)  # its own deadline, not 2 h

    # The round's deadline settles table 1 only; table 2 plays on until its own.
    await at_minute(bot, 32 + 121, "第 1 轮截止。")
    settled = next(m.body for m in server.outbox(GROUP) if "第 1 轮截止。" in m.body)
    assert "第 1 桌" in settled.split("整桌弃权：", 1)[1].splitlines()[0]
    assert any("第 2 桌已延长" in m.body for m in server.outbox(GROUP))
    assert not any(name in settled for name in (NAMES[i] for i in range(8)) if ids[name] in t2)
    await bot.says(GROUP, ADMIN, "/report 2 total A+9 B-3 C-3 D-3", "结果确认")
    await server.wait_for("结束", timeout=20)


async def bare_hour_is_asked_about(bot: Harness, player: int) -> None:
    """``8点`` is 08:00 or 20:00 (both ahead, whatever the hour): not guessed but asked,
    one button per reading echoing weekday, date, time and zone. A player's press is
    refused; the organiser's sets the round's deadline like a typed one, audited (so
    /undo takes it back), and the question loses its buttons."""
    server = bot.server
    before = await open_round_deadline(bot)
    asked = await bot.says(GROUP, ADMIN, "/deadline 8点", "是哪个时间")
    assert len(asked.buttons) == 2 and asked.body.count("(Asia/Shanghai)") == 2
    assert re.search(r"\d+月\d+日 周. 08:00", asked.body)
    evening = asked.button("20:00")["callback_data"]
    refused = server.user_presses(GROUP, player, asked.message_id, evening)
    assert "只有组织者" in ((await server.wait_for_callback_answer(refused)).text or "")
    assert await open_round_deadline(bot) == before
    moved = await bot.presses(GROUP, ADMIN, asked, evening, "截止时间改为")
    deadline = await open_round_deadline(bot)
    assert deadline.astimezone(ZoneInfo("Asia/Shanghai")).strftime("%H:%M") == "20:00"
    assert f"{deadline.astimezone(ZoneInfo('Asia/Shanghai')):%-m月%-d日}" in moved.body
    await server.wait_idle()
    [question] = [m for m in server.outbox(GROUP) if m.message_id == asked.message_id]
    assert not question.buttons and "20:00" in question.body
    await bot.says(GROUP, ADMIN, "/undo", "已撤销：上一次修改本轮截止时间")
    assert await open_round_deadline(bot) == before


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_round_with_a_bare_hour_asks_and_opens_on_the_press(bot: Harness) -> None:
    """``/round 9点`` (09:00 or 21:00, both ahead whatever the hour) opens nothing until the
    organiser presses a reading; then the round opens with that deadline."""
    ids, _ = setup(bot)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 问时赛", "SHA-256")
    for uid in list(ids.values())[:4]:
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    asked = await bot.says(GROUP, ADMIN, "/round 9点", "是哪个时间")
    assert len(asked.buttons) == 2
    assert not any("第 1 轮开始" in m.body for m in bot.server.outbox(GROUP))
    evening = asked.button("21:00")["callback_data"]
    opened = await bot.presses(GROUP, ADMIN, asked, evening, "第 1 轮开始")
    assert "21:00 (Asia/Shanghai)" in opened.body
    deadline = await open_round_deadline(bot)
    assert deadline.astimezone(ZoneInfo("Asia/Shanghai")).strftime("%H:%M") == "21:00"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_a_table_deadline_brought_forward_settles_that_table_alone(bot: Harness) -> None:
    """``/deadline 2 1分钟后`` with the round's two hours off: brought forward, not
    extended; when it passes only table 2 is settled and named, and the other table plays
    on to the round's deadline (it was not extended). A written date with its year and a
    two-digit hour is 24-hour: /round opens at once, nothing asked."""
    ids, _ = setup(bot)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 提前赛", "SHA-256")
    for uid in list(ids.values())[:8]:
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    at = bot.clock().astimezone(ZoneInfo("Asia/Shanghai")) + timedelta(days=3)
    opened = await bot.says(GROUP, ADMIN, f"/round {at:%Y-%m-%d} 11:09", "第 1 轮开始")
    assert f"{at:%-m月%-d日} 周{'一二三四五六日'[at.weekday()]} 11:09" in opened.body
    assert not any("是哪个时间" in m.body for m in bot.server.outbox(GROUP))
    await bot.says(GROUP, ADMIN, "/deadline 2小时后", "截止时间改为")
    moved = await bot.says(GROUP, ADMIN, "/deadline 2 1分钟后", "第 2 桌截止时间")
    assert "提前到" in moved.body and "延长" not in moved.body
    deadline = await open_round_deadline(bot)
    assert bot.app is not None
    async with bot.app.core.sessionmaker() as session:
        own = await session.scalar(select(TableRow.deadline).where(TableRow.number == 2))
    assert own is not None and own < deadline
    settled = await just_before(bot, own, "⏰ 第 2 桌截止。")
    forfeited = settled.body.split("整桌弃权：", 1)[1].splitlines()[0]
    assert forfeited.startswith("第 2 桌") and "第 1 桌" not in forfeited
    assert "第 1 桌照常进行" in settled.body
    group = [m.body for m in bot.server.outbox(GROUP)]
    assert not any("⏰ 第 1 轮截止。" in body or "已延长" in body for body in group)
    assert await open_round_deadline(bot) == deadline  # the round's own is untouched

"""One table's own deadline (``/deadline <table> <when>``; docs/rules/deadlines.md#table-deadline):
moved later it is extended, moved earlier it is brought forward, and when it passes only
that table is settled and named; the round and the other tables go on as they were."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -108600
ADMIN = 1


async def drawn(bot: MemoryHarness) -> dict[int, tuple[int, ...]]:
    """Eight players, two tables of 锄大地, round 1 open for two hours."""
    ids = bot.server.seat_group(GROUP, ADMIN, [f"选手{i}" for i in range(1, 9)], first=601)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 提前赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    message = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round 2小时后", "第 1 轮开始")
    return {n: tuple(seats) for n, seats in tables_of(message.body, ids).items()}


async def said_at_minute(bot: MemoryHarness, minutes: int) -> str:
    """The clock moved to ``minutes`` after the round opened, the timers due run: what
    the group was told."""
    before = len(bot.server.outbox(GROUP))
    bot.clock.offset = timedelta(minutes=minutes)
    await bot.restart()
    return "\n".join(m.body for m in bot.server.outbox(GROUP)[before:])


async def test_a_table_deadline_is_extended_or_brought_forward_as_it_moves(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    await drawn(bot)
    earlier = await bot.says(GROUP, ADMIN, "/deadline 2 1小时后", "第 2 桌截止时间提前到")
    assert "延长" not in earlier.body
    later = await bot.says(GROUP, ADMIN, "/deadline 2 90分钟后", "第 2 桌截止时间延长到")
    assert "提前" not in later.body
    past_round = await bot.says(GROUP, ADMIN, "/deadline 1 3小时后", "第 1 桌截止时间延长到")
    assert "提前" not in past_round.body
    await bot.says(GROUP, ADMIN, "/undo", "已撤销：上一次修改单桌截止时间")
    await bot.says(GROUP, ADMIN, "/lang en", "English")
    await bot.says(GROUP, ADMIN, "/deadline 2 10 minutes from now", "brought forward to")


async def test_a_table_deadline_before_the_rounds_settles_that_table_only(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    tables = await drawn(bot)
    await bot.says(GROUP, ADMIN, "/deadline 2 1分钟后", "提前到")
    said = await said_at_minute(bot, 2)
    assert "⏰ 第 2 桌截止。" in said
    assert "第 1 轮截止" not in said and "已延长" not in said  # neither is true
    forfeited = said.split("整桌弃权：", 1)[1].splitlines()[0]
    assert forfeited.startswith("第 2 桌") and "第 1 桌" not in forfeited
    assert "第 1 桌照常进行" in said  # the others keep the round's deadline
    mine = await bot.says(GROUP, tables[1][0], "/table", "第 1 桌")
    assert "还有 1 小时 5" in mine.body  # the round's deadline, untouched

    # The round's own deadline settles table 1, and says so.
    said = await said_at_minute(bot, 121)
    assert "⏰ 第 1 轮截止。" in said and "第 2 桌" not in said.split("待组织者裁定", 1)[0]


async def test_a_round_held_for_a_ruling_says_what_a_forfeit_will_do(
    memory_bot: MemoryHarness,
) -> None:
    """Both tables miss the deadline of a round that decides the event: it waits for the
    organiser. After a /fix of one table the other is still held, and the bot says that
    confirming its forfeit ends the event (it does), not that the event will not end."""
    bot = memory_bot
    await drawn(bot)
    held = await said_at_minute(bot, 121)
    assert "第 1 轮第 1、2 桌整桌弃权" in held and "这一轮结束比赛就结束" in held
    await bot.says(GROUP, ADMIN, "/fix 1 total A+9 B-3 C-3 D-3", "组织者更正第 1 桌")
    still = await bot.server.wait_for("第 1 轮第 2 桌整桌弃权")
    assert "这一轮结束比赛就结束" in still.body and "不会因此结束" not in still.body
    assert "第 2 桌整桌弃权" in still.body and "1、2" not in still.body  # table 1 has one now
    await bot.says(GROUP, ADMIN, "/forfeit 2", "结束！冠军")

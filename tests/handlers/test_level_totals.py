"""A climbing game's ``total`` through the bot (掼蛋, 升级): one side's levels, or refused
with what a total means there; a refused report stores nothing."""

from __future__ import annotations

from tests.handlers.harness import MemoryHarness, drawn

GROUP = -39200
ADMIN = 1
NAMES = ["王芳", "李娜", "张伟", "刘洋", "陈静", "杨磊", "赵敏", "黄勇"]


async def test_a_guandan_total_that_is_no_sides_climb_is_refused_and_not_stored(
    memory_bot: MemoryHarness,
) -> None:
    """A zero-sum total (the habit of the other card games) was confirmed as a draw, every
    seat 1 match point; now it is refused in Chinese, the table still waits, and a side's
    climb is confirmed as its win (2/1/0)."""
    bot = memory_bot
    ids, tables = await drawn(bot, GROUP, ADMIN, "guandan swiss 掼蛋积分赛", NAMES)
    name = {uid: who for who, uid in ids.items()}
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    refused = await bot.says(GROUP, ADMIN, "/report 1 total A+2 B-2 C+2 D-2", "搭档两人相同")
    assert "total A+2 B0 C+2 D0" in refused.body
    waiting = await bot.says(GROUP, ADMIN, "/standings all", lambda m: m.body.startswith("📊"))
    for uid in tables[1]:
        assert f"{name[uid]} — 等待第1桌结果" in waiting.body, waiting.body
    confirmed = await bot.says(GROUP, ADMIN, "/report 1 total A+2 B0 C+2 D0", "结果确认")
    a, b, c, d = (name[uid] for uid in tables[1])
    for who, points in ((a, "+2"), (b, "+0"), (c, "+2"), (d, "+0")):
        assert f"{who} {points}" in confirmed.body, confirmed.body

"""A cancelled event does not stand, so its games rate nobody (docs/rules/ratings.md#cancelled):
/rating and /me forget them the moment the organiser cancels, while a finished event of
the same group still counts."""

from __future__ import annotations

import pytest

from bot.application.handlers import ratings
from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -109500
ADMIN = 1
IDS = {"甲": 701, "乙": 702, "丙": 703, "丁": 704}


def setup(bot: MemoryHarness) -> None:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "棋友群", admins=[ADMIN])
    for name, uid in IDS.items():
        bot.server.add_user(uid, name, language_code="zh")


async def play_one_round(bot: MemoryHarness, title: str, players: list[int]) -> None:
    """A 象棋 knockout of ``players`` whose first round the organiser reports 2–0."""
    await bot.says(GROUP, ADMIN, f"/new xiangqi bracket {title}", "SHA-256")
    for uid in players:
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    for number in tables_of(opened.body, IDS):
        await bot.says(GROUP, ADMIN, f"/report {number} 1-0; 1-0", f"第 {number} 桌结果确认")


async def test_a_cancelled_events_games_leave_the_ratings(memory_bot: MemoryHarness) -> None:
    bot = memory_bot
    setup(bot)
    await play_one_round(bot, "取消的比赛", [IDS["甲"], IDS["乙"], IDS["丙"], IDS["丁"]])
    before = await bot.says(GROUP, ADMIN, "/rating xiangqi", "定级中")
    assert all(name in before.body for name in IDS)

    await bot.says(GROUP, ADMIN, "/cancel yes", "已取消")
    await bot.says(GROUP, ADMIN, "/rating xiangqi", "暂无等级分")
    mine = await bot.says(GROUP, IDS["甲"], "/me", "取消的比赛")  # the event is history
    assert "等级分" not in mine.body.split("取消的比赛", 1)[1]

    # A later event that stands is rated on its own games only: two each, not four.
    await play_one_round(bot, "正式比赛", [IDS["甲"], IDS["乙"]])
    await bot.server.wait_for("结束！冠军")
    after = await bot.says(GROUP, ADMIN, "/rating xiangqi", "定级中")
    assert "甲（2 局）" in after.body and "乙（2 局）" in after.body
    assert "丙" not in after.body and "丁" not in after.body


async def test_me_lists_the_last_events_and_counts_the_earlier(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A year of weekly events is no message to scroll, nor a cost that grows: /me shows a
    player's last ``ME_EVENTS`` events and says how many came before."""
    monkeypatch.setattr(ratings, "ME_EVENTS", 2)
    bot = memory_bot
    setup(bot)
    for title in ("第一场", "第二场", "第三场"):
        await play_one_round(bot, title, [IDS["甲"], IDS["乙"]])
        await bot.server.wait_for(lambda m, title=title: "结束！冠军" in m.body and title in m.body)
    mine = (await bot.says(GROUP, IDS["甲"], "/me", "战绩")).body
    assert "更早的 1 场比赛未列出" in mine and "第一场" not in mine
    assert "第二场" in mine and "第三场" in mine and "象棋 等级分" in mine

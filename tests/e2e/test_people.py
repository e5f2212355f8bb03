"""People come and go over HTTP, through a real Telegram library (docs/rules/people.md):
a cap with its waiting list, a drop confirmed with a button press, a late entry."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness, tables_of

GROUP = -106000
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_cap_waiting_list_a_pressed_drop_and_a_late_entry(bot: Harness) -> None:
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 801 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "象棋群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new xiangqi swiss 象棋积分赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set cap 4", "报名上限：4 人")
    for name in NAMES[:4]:
        await bot.joins(GROUP, ids[name])
    await bot.says(GROUP, ids["戊"], "/join", "候补第 1 位")
    await bot.says(GROUP, ids["己"], "/join", "候补第 2 位")
    await bot.says(GROUP, ids["丁"], "/leave", "候补递补：戊")
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    first = tables_of(drawn.body, ids)[1][0]
    name = next(n for n, u in ids.items() if u == first)
    asked = await bot.says(GROUP, first, "/drop", "确定吗")
    assert asked.reply_markup is not None
    data = asked.reply_markup["inline_keyboard"][0][0]["callback_data"]
    dropped = await bot.presses(GROUP, first, asked, data, "退出比赛")
    assert f"{name} 退出比赛（第 1 轮后）" in dropped.body
    listed = await bot.says(GROUP, ids["甲"], "/players", "候补名单")
    assert f"{name} · 第1轮后退出" in listed.body
    await bot.says(GROUP, ids["己"], "/join", "己 迟到入场，将参加第 2 轮抽签")

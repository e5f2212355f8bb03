"""Same-department players never share a table when it is possible (/dept). Eight Big
Two players from four departments of two, Swiss rounds at two tables of four: every table
of every round holds one player of each department.
"""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness, tables_of

GROUP = -106000
OTHER_GROUP = -106001
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]
DEPARTMENTS = ["财务部", "财务部", "人事部", "人事部", "法务部", "法务部", "后勤部", "后勤部"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_swiss_rounds_seat_colleagues_of_one_department_apart(bot: Harness) -> None:
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 801 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        server.add_user(uid, name, username=f"p{uid}", language_code="zh")
    server.add_chat(GROUP, "瑞士群", admins=[ADMIN])
    server.add_chat(OTHER_GROUP, "淘汰群", admins=[ADMIN])

    await bot.says(OTHER_GROUP, ADMIN, "/new bigtwo knockout", "SHA-256")
    await bot.joins(OTHER_GROUP, ids["甲"])
    await bot.says(OTHER_GROUP, ids["甲"], "/dept 财务部", "只有瑞士移位")

    await bot.says(GROUP, ADMIN, "/new bigtwo swiss 部门联谊赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set rounds 3", "已设置")
    await bot.says(GROUP, ids["甲"], "/dept 财务部", "你还没有报名")  # nothing stored
    for name in NAMES:
        await bot.joins(GROUP, ids[name])
    # Six name their own department; the organiser names the last two.
    for name, dept in list(zip(NAMES, DEPARTMENTS, strict=True))[:6]:
        await bot.says(GROUP, ids[name], f"/dept {dept}", f"{name} 的部门：{dept}")
    await bot.says(GROUP, ids["甲"], "/dept @p807 后勤部", "只有组织者")
    await bot.says(GROUP, ADMIN, "/dept @p807 后勤部", "庚 的部门：后勤部")
    await bot.says(GROUP, ADMIN, "/dept 辛 后勤部", "辛 的部门：后勤部")
    await bot.says(GROUP, ids["乙"], "/dept -", "已清除 乙 的部门")
    await bot.says(GROUP, ids["乙"], "/dept 财务部", "乙 的部门：财务部")
    listing = await bot.says(GROUP, ids["甲"], "/players", "报名 8 人：")
    assert "甲（财务部）" in listing.body and "辛（后勤部）" in listing.body

    dept = {ids[n]: d for n, d in zip(NAMES, DEPARTMENTS, strict=True)}
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ids["甲"], "/dept 人事部", "部门不能再改")
    opened = drawn
    for number in (1, 2, 3):
        if number > 1:
            opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        else:
            await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
        tables = tables_of(opened.body, ids)
        assert len(tables) == 2
        for seats in tables.values():
            assert sorted(dept[u] for u in seats) == sorted(set(DEPARTMENTS)), number
        for table in tables:
            await bot.says(GROUP, ADMIN, f"/report {table} total A+3 B-1 C-1 D-1", "结果确认")
        await server.wait_for(lambda m: "轮结束" in m.body or "冠军" in m.body, timeout=20)

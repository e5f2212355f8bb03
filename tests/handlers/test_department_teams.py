"""Seed 000's team event by unit (每个单位派送3名选手): colleagues of one department are
their department's team, called by its name from the draw to the champion
(docs/rules/teams.md#departments)."""

from __future__ import annotations

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -108300
ADMIN = 1
DEPARTMENTS = {
    "财务部": ("甲", "乙", "丙"),
    "人事部": ("丁", "戊", "己"),
    "法务部": ("庚", "辛", "壬"),
}


async def test_departments_are_the_teams_of_a_team_event(memory_bot: MemoryHarness) -> None:
    names = [n for members in DEPARTMENTS.values() for n in members]
    ids = memory_bot.server.seat_group(GROUP, ADMIN, names, first=601)
    await memory_bot.says(GROUP, ADMIN, "/new doudizhu teams 部门团体赛", "SHA-256")
    for department, members in DEPARTMENTS.items():
        for name in members:
            await memory_bot.joins(GROUP, ids[name])
            await memory_bot.says(GROUP, ids[name], f"/dept {department}", department)
    drawn = await memory_bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    for department, members in DEPARTMENTS.items():
        assert f"{department}：{', '.join(members)}" in drawn.body
    colleagues = {ids[n]: d for d, members in DEPARTMENTS.items() for n in members}
    for number in (1, 2, 3):
        opened = await memory_bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        for table, seats in tables_of(opened.body, ids).items():
            assert len({colleagues[u] for u in seats}) == 3  # teammates never share a table
            # The 财务部 player is the landlord and wins: their department leads.
            landlord = "ABC"[[colleagues[u] for u in seats].index("财务部")]
            await memory_bot.says(GROUP, seats[0], f"/report {table} {landlord} bid3 win", "请同桌")
            await memory_bot.says(GROUP, seats[1], "/confirm", "结果确认")
    ended = (await memory_bot.server.wait_for("冠军")).body
    assert "财务部（甲, 乙, 丙）" in ended.split("冠军", 1)[1].splitlines()[0]
    team_table = ended.split("团体名次：", 1)[1].splitlines()
    assert team_table[1].startswith("1. 财务部（甲, 乙, 丙）")
    assert "第 1 队" not in ended

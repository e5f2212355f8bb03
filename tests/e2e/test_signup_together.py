"""Teams of 3 formed by lot or signed up together, pairs that sign up together or are drawn
(docs/rules/teams.md#teams-by-lot, docs/rules/pairs.md#pairs-by-lot). ``/join @a @b`` names
teammates; a team stands once each member has named the others, and the draw deals everyone else by
lot around it.
"""

from __future__ import annotations

import pytest

from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import TournamentState
from tests.e2e.harness import Harness, tables_of

GROUP = -105000
OTHER_GROUP = -105001
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬"]
HANDLES = ["jia", "yi", "bing", "ding", "wu", "ji", "geng", "xin", "ren"]


def setup(bot: Harness, count: int) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 701 + i for i, name in enumerate(NAMES[:count])}
    for (name, uid), handle in zip(ids.items(), HANDLES, strict=False):
        bot.server.add_user(uid, name, username=handle, language_code="zh")
    bot.server.add_chat(GROUP, "团体群", admins=[ADMIN])
    bot.server.add_chat(OTHER_GROUP, "锄大地群", admins=[ADMIN])
    return ids


def team_of(text: str, header: str) -> list[list[str]]:
    """The '第 1 队：甲, 乙, 丙' lines under ``header`` → the names of each team."""
    lines = text.split(header, 1)[1].strip().splitlines()
    teams = []
    for line in lines:
        if "：" not in line or not line.startswith("第 "):
            break
        teams.append(line.split("：", 1)[1].split(", "))
    return teams


@pytest.mark.parametrize(
    ("database_url", "backend"), [("postgres", "aiogram")], indirect=["database_url"]
)
async def test_a_team_signed_up_together_stays_together_and_the_lot_makes_the_rest(
    bot: Harness,
) -> None:
    ids = setup(bot, 9)
    await bot.says(GROUP, ADMIN, "/new doudizhu teams 团体斗地主", "SHA-256")
    await bot.joins(GROUP, ids["甲"])
    await bot.joins(GROUP, ids["乙"])
    # Naming a partner who has not joined still signs the sender up, and
    # says how to team up once the partner is in.
    alone = await bot.says(GROUP, ids["戊"], "/join @geng", "@geng 还没有报名")
    assert "戊 报名成功（共 3 人）" in alone.body and "/join @wu" in alone.body
    listing = await bot.says(GROUP, ids["甲"], "/players", "报名 3 人：")
    assert "戊" in listing.body and "一起报名" not in listing.body

    # 丙 asks for 甲 and 乙; 甲 agrees; the team stands only when 乙 agrees too.
    waiting = await bot.says(GROUP, ids["丙"], "/join @jia @yi", "想和")
    assert "报名成功（共 4 人）" in waiting.body and "甲, 乙 一队" in waiting.body
    assert "/join @bing" in waiting.body
    await bot.says(GROUP, ids["甲"], "/join @yi @bing", "想和 乙 一队")
    formed = await bot.says(GROUP, ids["乙"], "/join 甲 @bing", "一起报名成功")
    assert "甲, 乙, 丙" in formed.body
    await bot.says(GROUP, ids["丁"], "/join @ding", "不能和自己组队")
    await bot.says(GROUP, ids["丁"], "/join @jia @yi @bing", "最多写 2 位队友")
    await bot.says(GROUP, ids["丁"], "/join @nobody", "@nobody 还没有报名")  # 丁 is in
    listing = await bot.says(GROUP, ids["丁"], "/players", "报名 5 人：")
    assert team_of(listing.body, "一起报名：") == [["甲", "乙", "丙"]]

    for name in NAMES[5:]:
        await bot.joins(GROUP, ids[name])
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    teams = team_of(drawn.body, "各队：")
    assert teams[0] == ["甲", "乙", "丙"] and all(len(t) == 3 for t in teams)

    # The lot over the other six is the engine's, from the revealed seed.
    verify = await bot.says(GROUP, ADMIN, "/verify", "种子：")
    seed = verify.body.split("种子：", 1)[1].splitlines()[0].strip()
    given = dict.fromkeys((ids["甲"], ids["乙"], ids["丙"]), ids["甲"])
    state = TournamentState(players=tuple(ids.values()), seed=seed, teams=given)
    engine_teams = Teams(find_game("doudizhu")()).groups(state)
    name = {v: k for k, v in ids.items()}
    for number, members in enumerate(teams, 1):
        assert {engine_teams[ids[n]] for n in members} == {number}
    for seats in tables_of(drawn.body, ids).values():  # teammates sit apart
        assert len({engine_teams[u] for u in seats}) == len(seats), [name[u] for u in seats]
    after = await bot.says(GROUP, ids["丁"], "/players", "报名 9 人：")
    assert team_of(after.body, "各队：") == teams
    await bot.says(GROUP, ids["丁"], "/join @jia", "报名已截止")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_a_pair_signed_up_together_sits_opposite_and_only_team_events_take_partners(
    bot: Harness,
) -> None:
    ids = setup(bot, 8)
    await bot.says(OTHER_GROUP, ADMIN, "/new bigtwo 周五锄大地", "SHA-256")
    await bot.joins(OTHER_GROUP, ids["乙"])
    await bot.says(OTHER_GROUP, ids["甲"], "/join @yi", "不分队")

    await bot.says(GROUP, ADMIN, "/new guandan pairs 掼蛋双人赛", "SHA-256")
    await bot.joins(GROUP, ids["甲"])
    await bot.joins(GROUP, ids["乙"])
    await bot.says(GROUP, ids["丙"], "/join @jia @yi", "只能写一位搭档")
    await bot.says(GROUP, ids["甲"], "/join @yi", "想和 乙 一组")
    await bot.says(GROUP, ids["乙"], "/leave", "已退出")  # 甲's request waits for 乙's return
    await bot.joins(GROUP, ids["乙"])
    await bot.says(GROUP, ids["乙"], "/join @jia", "一起报名成功")
    for name in NAMES[2:8]:
        await bot.joins(GROUP, ids[name])
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    pairs = team_of(drawn.body, "各组：")
    assert pairs[0] == ["甲", "乙"] and len(pairs) == 4
    seats = next(s for s in tables_of(drawn.body, ids).values() if ids["甲"] in s)
    assert abs(seats.index(ids["甲"]) - seats.index(ids["乙"])) == 2  # A&C or B&D

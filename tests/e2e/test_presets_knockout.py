"""The 分桌淘汰 preset with the literal leftover rule (docs/rules/knockout.md#leftovers): nine Big
Two players, ``/set leftover bye`` (剩余选手不够4人则轮空), so round 1 is two tables of four and one
bye; table 1 ties for its single advancing place and the card flip decides; the three who go on play
the final.

The test reads the revealed seed from /verify and recomputes the draw and the flip with the
engine, as any player checking them would.
"""

from __future__ import annotations

import pytest

from engine.draw import flip_order
from engine.formats.knockout import Knockout
from engine.games import find_game
from engine.model import RoundPlan, TournamentState
from tests.e2e.harness import Harness, byes_of, tables_of

GROUP = -101000
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬"]


def setup(bot: Harness) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 501 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(GROUP, "锄大地群", admins=[ADMIN])
    return ids


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_knockout_gives_the_leftover_a_bye_and_flips_a_tie_for_the_advancing_place(
    bot: Harness,
) -> None:
    ids = setup(bot)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地淘汰赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set leftover bye", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    verify = await bot.says(GROUP, ADMIN, "/verify", "种子：")
    seed = verify.body.split("种子：", 1)[1].splitlines()[0].strip()

    # Nine players, no short table: two tables of four and one bye, exactly the engine's draw.
    tables, byes = tables_of(drawn.body, ids), byes_of(drawn.body, ids)
    assert len(tables) == 2 and all(len(s) == 4 for s in tables.values()) and len(byes) == 1
    knockout = Knockout(find_game("bigtwo")(), {"leftover": "bye"})
    plan = knockout.plan(TournamentState(players=tuple(ids.values()), seed=seed))
    assert isinstance(plan, RoundPlan)
    assert [list(t.players) for t in plan.tables] == [tables[1], tables[2]]
    assert list(plan.byes) == byes

    # Table 1: seats A and B tie on +5 for the one advancing place; table 2's A wins clearly.
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 total A+5 B+5 C-5 D-5", "结果确认")
    await bot.says(GROUP, ADMIN, "/report 2 total A+9 B-3 C-3 D-3", "结果确认")
    complete = await bot.server.wait_for("第 1 轮结束", timeout=20)
    tied = tables[1][:2]
    flip = flip_order(tied, seed, "round1-table1-flip")
    winner, loser = sorted(tied, key=lambda p: -flip[p])
    going_on = complete.body.split("晋级：", 1)[1].splitlines()[0]
    assert name[winner] in going_on and name[loser] not in going_on
    assert name[tables[2][0]] in going_on and name[byes[0]] in going_on

    # The final: the flip's winner, table 2's winner and the bye, at a table of three.
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    assert "ℹ️ 晋级名额同分，已翻牌决定。" in final.body  # the plan's note, told to the chat
    seats = tables_of(final.body, ids)[1]
    assert sorted(seats) == sorted([winner, tables[2][0], byes[0]])
    await bot.says(GROUP, ADMIN, "/report 1 total A+6 B-3 C-3", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert name[seats[0]] in done.body.split("冠军：")[1].splitlines()[0]

    # In the standings the final's B and C tie on everything but the standings flip (翻牌),
    # and third place is above the round-1 players on the round reached (决赛 / 第1轮出局); the
    # flip's loser of table 1 is below its winner although their table scores were equal.
    standings = await bot.says(GROUP, ADMIN, "/standings", "积分")
    lines = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    places = [ln.split(" ")[1] for ln in lines]
    flip = flip_order(list(ids.values()), seed, "standings-flip")
    second, third = sorted(seats[1:], key=lambda p: -flip[p])
    assert places[:3] == [name[seats[0]], name[second], name[third]]
    assert lines[1].endswith("（翻牌分出先后）") and " — 决赛 · " in lines[2]
    assert all(" — 第1轮出局 · " in ln for ln in lines[3:])
    assert places.index(name[winner]) < places.index(name[loser])

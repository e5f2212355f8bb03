"""The elimination presets end to end: 单败淘汰, 小组循环 and 积分晋级, each from /new
through sign-up, the draw, every round (reports, a bye, a table forfeited when the deadline
passes while the bot is down) to the final ranking, with a tie the chain breaks.

One backend per preset keeps the file short; both adapters share the core under test.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.e2e.harness import Harness, byes_of, tables_of

GROUP = -100700
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚"]


def setup(bot: Harness, count: int) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {}
    for i, name in enumerate(NAMES[:count]):
        bot.server.add_user(201 + i, name, language_code="zh")
        ids[name] = 201 + i
    bot.server.add_chat(GROUP, "比赛群", admins=[ADMIN])
    return ids


async def sign_up(bot: Harness, ids: dict[str, int], new: str) -> None:
    await bot.says(GROUP, ADMIN, new, "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)


async def deadline_passes(bot: Harness, days: int) -> str:
    """Stop the bot, move the clock past the deadline, start again: the table forfeits."""
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(days=days)
    await bot.start()
    settled = await bot.server.wait_for("截止", timeout=20)
    return settled.body


async def report_all(bot: Harness, tables: dict[int, list[int]], result: str) -> None:
    for number in tables:
        await bot.says(GROUP, ADMIN, f"/report {number} {result}", "结果确认")


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_bracket_runs_with_a_bye_a_forfeit_and_a_drawn_final_replayed(
    bot: Harness,
) -> None:
    ids = setup(bot, 5)
    name = {v: k for k, v in ids.items()}
    await sign_up(bot, ids, "/new xiangqi bracket 象棋淘汰赛")
    # Stage lengths (a level match replayed in an extra round), not the two-player games'
    # default (a level match plays on at its table: tests/handlers/test_series.py).
    await bot.says(GROUP, ADMIN, "/set series stages", "已设置 series = stages")
    await bot.says(GROUP, 201, "/bracket", "还没有抽签")  # nothing drawn yet
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables, byes = tables_of(drawn.body, ids), byes_of(drawn.body, ids)
    assert len(tables) == 2 and len(byes) == 1  # 5 players: two matches and a bye by lot
    await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")

    # Table 1: a three-game match reported by seat A and confirmed by seat B.
    a, b = tables[1]
    await bot.says(GROUP, a, "/report 1 1-0; 0-1; 1-0", "请同桌另一位选手确认")
    await bot.says(GROUP, b, "/confirm", "结果确认")
    # Table 2 never reports: at the deadline both players forfeit.
    settled = await deadline_passes(bot, 40)
    assert "2" in settled.split("整桌弃权：")[1].splitlines()[0]
    complete = await bot.server.wait_for("第 1 轮结束", timeout=20)
    assert name[a] in complete.body and name[byes[0]] in complete.body

    # The final of two is drawn level: it is played again before anyone is champion.
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    pair = tables_of(final.body, ids)[1]
    assert sorted(pair) == sorted([a, byes[0]])
    await bot.says(GROUP, ADMIN, "/report 1 0.5-0.5; 0.5-0.5", "第 2 轮结束")
    replay = await bot.says(GROUP, ADMIN, "/round", "第 3 轮开始")
    assert sorted(tables_of(replay.body, ids)[1]) == sorted(pair)
    await bot.says(GROUP, ADMIN, "/report 1 0-1", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    champion = tables_of(replay.body, ids)[1][1]
    assert name[champion] in done.body.split("冠军：")[1].splitlines()[0]

    picture = await bot.says(GROUP, 201, "/bracket", "对阵图")
    assert picture.photo is not None and picture.photo.startswith(b"\x89PNG")
    standings = await bot.says(GROUP, 201, "/standings", "积分")
    # Each line shows how far it got (冠军 / 决赛 / 第1轮出局) and the score of its last match;
    # the three out in round 1 (a match lost, two forfeited) share third: nothing ranks
    # players out in one round apart, and no tie-break is named (docs/rules/bracket.md#ranking).
    lines = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    stages = [ln.split(" — ")[1].split(" · ")[0] for ln in lines]
    assert stages == ["冠军", "亚军"] + ["第1轮出局"] * 3
    assert "🏁 最终名次" in standings.body
    assert all(ln.startswith("3=. ") and "分出先后" not in ln for ln in lines[2:]), lines


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_groups_run_round_robin_crossover_and_final(bot: Harness) -> None:
    ids = setup(bot, 5)
    await sign_up(bot, ids, "/new xiangqi 小组循环 象棋小组赛")
    await bot.says(GROUP, ADMIN, "/set series stages", "已设置 series = stages")  # stage lengths
    await bot.says(GROUP, ADMIN, "/bracket", "还没有抽签")
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    assert "轮空" in drawn.body  # a group of three: one player rests each round
    await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    first = tables_of(drawn.body, ids)
    *played, last = sorted(first)
    await report_all(bot, {n: first[n] for n in played}, "1-0")
    settled = await deadline_passes(bot, 40)  # the last table forfeits
    assert str(last) in settled.split("整桌弃权：")[1].splitlines()[0]
    await bot.server.wait_for("第 1 轮结束", timeout=20)

    # Rounds 2–3 finish the group of three; round 4 is the crossover A1–B2, B1–A2, where
    # table 1's series ends level (1–1) and is replayed in round 5; round 6 is the final.
    drawn_pair: list[int] = []
    for round_number in range(2, 7):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {round_number} 轮开始")
        tables = tables_of(opened.body, ids)
        if round_number == 2:  # before the playoffs there is no bracket yet
            await bot.says(GROUP, 201, "/bracket", "小组赛结束后")
        if round_number == 4:
            assert len(tables) == 2
            drawn_pair = tables.pop(1)
            await bot.says(GROUP, ADMIN, "/report 1 1-0; 0-1", "结果确认")
        if round_number == 5:
            assert list(tables.values()) == [drawn_pair]
        if round_number < 4:  # the group stage is one game a match (一局定胜负)
            await bot.says(GROUP, ADMIN, f"/report {min(tables)} 1-0; 0-1", "最多 1 局")
            await report_all(bot, tables, "1-0")
        else:
            if round_number == 4:  # the playoffs are best of 5 (五局三胜): 3-0 ends it
                series = "1-0; 1-0; 1-0; 0-1"
                refused = await bot.says(GROUP, ADMIN, f"/report 2 {series}", "局制")
                assert "前 3 局已分出胜负" in refused.body
            await report_all(bot, tables, "1-0; 0-1; 1-0")
        after = await bot.server.wait_for(
            lambda m: "轮结束" in m.body or "结束！冠军" in m.body, timeout=20
        )
        assert ("冠军" in after.body) == (round_number == 6)
    picture = await bot.says(GROUP, 201, "/bracket", "对阵图")
    assert picture.photo is not None
    standings = await bot.says(GROUP, 201, "/standings", "积分")
    places = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    stages = [ln.split(" — ")[1].split(" · ")[0] for ln in places]
    assert stages == ["冠军", "亚军", "复赛第1轮出局", "复赛第1轮出局", "小组赛出局（小组第3名）"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_stages_run_from_base_thirty_with_a_lucky_loser_and_a_tie_to_the_previous_stage(
    bot: Harness,
) -> None:
    ids = setup(bot, 7)
    await sign_up(bot, ids, "/new doudizhu stages 斗地主积分赛")
    await bot.says(GROUP, ADMIN, "/set hands 2", "hands")
    await bot.says(GROUP, 201, "/bracket", "没有对阵图")
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables, byes = tables_of(drawn.body, ids), byes_of(drawn.body, ids)
    assert len(tables) == 2 and len(byes) == 1  # 7 players, tables of 3: one bye
    await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    winner = tables[1][0]
    await bot.says(GROUP, ADMIN, "/report 1 total A+4 B-2 C-2", "结果确认")
    await deadline_passes(bot, 40)  # table 2 forfeits as a whole
    await bot.server.wait_for("第 1 轮结束", timeout=20)

    # Only the winner and the bye are left: the best loser of table 1 fills the final.
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    seats = tables_of(final.body, ids)[1]
    assert winner in seats and byes[0] in seats and len(seats) == 3
    scores = {winner: "+2", byes[0]: "+2"}
    report = " ".join(f"{'ABC'[i]}{scores.get(u, '-4')}" for i, u in enumerate(seats))
    await bot.says(GROUP, ADMIN, f"/report 1 total {report}", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    name = {v: k for k, v in ids.items()}
    assert name[winner] in done.body.split("冠军：")[1].splitlines()[0]
    standings = await bot.says(GROUP, 201, "/standings", "积分")
    assert "上一阶段积分" in standings.body  # 32 each: stage 1's 34 beat the bye's 0
    assert "32" in standings.body

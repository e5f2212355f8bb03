"""Whole events played through the real bot stack to the champion, each checked line by
line against its rules (docs/rules/), with earlier defects as regression tests.

* 锄大地, 分桌淘汰: a tie at the top of the final is played off (加时赛), not flipped
  (docs/rules/knockout.md#final-ties); mid-round the standings say the round is in
  progress and hand out no medals; every ranking line shows how far it got and a figure
  that agrees with its place.
* 象棋, > 9 players (裁减制, 抽签轮空, 最后3人循环; docs/rules/bracket.md): a level match
  plays its next game at its table (docs/rules/two-player.md) and the round ends once it
  is decided; the last three's all-equal result goes to 胜场 → 胜局 → 翻牌, never to an
  earlier round's score.
* 斗地主 9 players, 小组循环 at tables of 3 (docs/rules/groups.md#tables-of-three-or-four):
  everyone plays every round, groups are shown, /rules promises only what happens, no
  best-of, /bracket after the end does not say the groups are still on.
* 斗地主 团体: the champion is the top team, in the announcement and the picture's table.
* A whole table forfeited at the deadline does not end the event by itself.

One backend and SQLite each: the adapters and databases are covered elsewhere.
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from itertools import pairwise

import pytest

from engine.draw import flip_order
from tests.e2e.harness import Harness, byes_of, tables_of

GROUP = -100800
ADMIN = 1
NAMES = [
    "张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏", "黄勇",
    "周杰", "吴昊", "徐丽", "孙强", "马超", "朱琳", "胡军", "郭峰",
]  # fmt: skip
RANK_LINE = re.compile(r"^(\d+)\. (\S+) — (.+)$")

pytestmark = [
    pytest.mark.parametrize("database_url", ["sqlite"], indirect=True),
    pytest.mark.parametrize("backend", ["aiogram"]),
]


def setup(bot: Harness, count: int) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 301 + i for i, name in enumerate(NAMES[:count])}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(GROUP, "比赛群", admins=[ADMIN])
    return ids


async def start(bot: Harness, ids: dict[str, int], new: str, knobs: tuple[str, ...] = ()) -> str:
    """Create, sign everyone up, draw; the draw message and the revealed seed."""
    await bot.says(GROUP, ADMIN, new, "SHA-256")
    for knob in knobs:
        await bot.says(GROUP, ADMIN, f"/set {knob}", knob.split()[0])
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    return drawn.body


async def seed_of(bot: Harness) -> str:
    verify = await bot.says(GROUP, ADMIN, "/verify", "种子：")
    return verify.body.split("种子：", 1)[1].splitlines()[0].strip()


def ranking(text: str) -> list[tuple[int, str, str, str]]:
    """'1. 甲 — 冠军 · 最后一桌得分 10（加赛分出先后）' lines → (rank, name, stage, rest)."""
    out = []
    for line in text.splitlines():
        m = RANK_LINE.match(line)
        if m:
            stage, _, rest = m.group(3).partition(" · ")
            out.append((int(m.group(1)), m.group(2), stage, rest))
    return out


def figure(rest: str) -> Decimal:
    """The number a ranking line shows (the figure that ranked it)."""
    found = re.search(r"(-?\d+(?:\.\d+)?)", rest)
    assert found, rest
    return Decimal(found.group(1))


def agree(lines: list[tuple[int, str, str, str]]) -> None:
    """Inside one stage reached, a lower place never shows a larger figure."""
    for (_, _, stage, rest), (_, _, below, lower) in pairwise(lines):
        if stage == below and rest and lower:
            assert figure(lower) <= figure(rest), (stage, rest, lower)


async def deadline_passes(bot: Harness, days: int) -> str:
    """Stop the bot, move the clock past the deadline, start again: tables forfeit."""
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(days=days)
    await bot.start()
    return (await bot.server.wait_for("截止", timeout=20)).body


async def test_seed_001_big_two_final_tie_is_played_off_and_the_ranking_agrees(
    bot: Harness,
) -> None:
    ids = setup(bot, 16)
    name = {v: k for k, v in ids.items()}
    drawn = await start(bot, ids, "/new bigtwo 锄大地决赛")
    tables = tables_of(drawn, ids)
    assert sorted(len(s) for s in tables.values()) == [4, 4, 4, 4]
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    for number in (1, 2):  # seat A finishes first at every table (最高分者胜出)
        await bot.says(GROUP, ADMIN, f"/report {number} A0 B3 C5 D7", "结果确认")

    # Mid-round, no medals: the round is named as in progress, nobody is champion.
    mid = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert "第 1 轮进行中" in mid.body and "🏁" not in mid.body and "冠军" not in mid.body
    assert "第2轮" not in mid.body  # nobody is in a round that has not begun
    assert "弃权" not in mid.body
    for number in (3, 4):
        await bot.says(GROUP, ADMIN, f"/report {number} A0 B3 C5 D7", "结果确认")
    await bot.server.wait_for("第 1 轮结束", timeout=20)
    between = await bot.says(GROUP, ADMIN, "/standings", "轮积分")  # before the next /round
    assert "第 1 轮已结束" in between.body and "进行中" not in between.body
    assert between.body.count("第1轮晋级") == 4  # the four table winners, bound for the final

    # docs/rules/knockout.md#final-ties: the final's A and B tie at +10: no champion, an extra game.
    final = tables_of((await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")).body, ids)[1]
    assert sorted(final) == sorted(seats[0] for seats in tables.values())
    # The issue's own steps: seat A reports both hands, a tablemate confirms.
    await bot.says(GROUP, final[0], "/report 1 A0 B5 C5 D5; A5 B0 C5 D5", "请同桌另一位选手确认")
    ended = await bot.says(GROUP, final[2], "/confirm", "第 2 轮结束")
    assert "冠军" not in ended.body and "还需加赛" in ended.body and "晋级：" not in ended.body
    extra = await bot.says(GROUP, ADMIN, "/round", "第 3 轮开始")
    assert "加赛" in extra.body
    seats = tables_of(extra.body, ids)[1]
    assert sorted(seats) == sorted(final)  # the whole final table plays it
    winner, runner_up = final[1], final[0]  # the final's B wins the extra game
    cards = {winner: 0, runner_up: 6}
    report = " ".join(f"{'ABCD'[i]}{cards.get(u, 3)}" for i, u in enumerate(seats))
    await bot.says(GROUP, ADMIN, f"/report 1 {report}", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert done.body.split("冠军：")[1].splitlines()[0].strip() == name[winner]

    # The rule book's ranking: the final's four (the play-off decided 1st and 2nd),
    # then round 1's players, each line's figure in agreement with its place.
    lines = ranking(done.body)
    assert [n for _, n, _, _ in lines[:2]] == [name[winner], name[runner_up]]
    assert "加赛分出先后" in lines[0][3]
    assert [s for _, _, s, _ in lines] == ["冠军", "亚军"] + ["决赛"] * 2 + ["第1轮出局"] * 6
    agree(lines)
    standings = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert "🏁 最终名次" in standings.body
    assert ranking(standings.body) == lines  # the same ranking as the announcement
    # And so do the pinned live standings, edited a last time: 冠军 on top, not 决赛.
    await bot.server.wait_idle(quiet=1.0)
    pinned = [m for m in bot.server.outbox(GROUP) if m.pinned]
    assert len(pinned) == 1 and "最终名次" in pinned[0].body
    assert ranking(pinned[0].body) == lines


async def test_seed_004_bracket_plays_a_level_series_on_and_the_last_three_by_their_chain(
    bot: Harness,
) -> None:
    ids = setup(bot, 11)
    name = {v: k for k, v in ids.items()}
    drawn = await start(bot, ids, "/new xiangqi bracket 象棋裁减赛")
    seed = await seed_of(bot)
    tables, byes = tables_of(drawn, ids), byes_of(drawn, ids)
    assert len(tables) == 5 and len(byes) == 1  # 11: five matches and a bye by lot
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")

    # Table 1's match is level after the two slow games: the table is asked for its third
    # game while the others, won by A, are confirmed; the round ends once it is decided.
    await bot.says(GROUP, ADMIN, "/report 1 1-0; 0-1", "结果确认")
    asked = await bot.server.wait_for("请下第 3 盘", timeout=20)
    assert all(name[p] in asked.body for p in tables[1]) and "1–1" in asked.body
    for number in sorted(tables)[1:]:
        await bot.says(GROUP, ADMIN, f"/report {number} 1-0; 1-0", "结果确认")
    during = await bot.says(GROUP, ADMIN, "/bracket", "对阵图")
    assert "第 1 轮进行中" in during.body and "🏁" not in during.body
    assert "战平，等第 3 盘" in during.body
    await bot.says(GROUP, ADMIN, "/report 1 1-0", "1-0; 0-1; 1-0")
    await bot.server.wait_for("第 1 轮结束", timeout=20)

    # Six left: three matches; their winners (by different scores) are the last three.
    third = tables_of((await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")).body, ids)
    winners = {ids[name[tables[1][0]]]} | {s[0] for n, s in tables.items() if n != 1}
    assert {p for s in third.values() for p in s} == winners | set(byes)
    results = ["1-0; 1-0", "1-0; 0.5-0.5", "1-0; 0-1; 1-0"]
    for number, result in zip(sorted(third), results, strict=True):
        await bot.says(GROUP, ADMIN, f"/report {number} {result}", "结果确认")
    await bot.server.wait_for("第 2 轮结束", timeout=20)
    last3 = [third[n][0] for n in sorted(third)]

    # The round robin: each beats one and loses to one by the same score, all equal.
    for number in (3, 4, 5):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        assert "循环" in opened.body
        await bot.says(
            GROUP, ADMIN, "/report 1 1-0; 1-0" if number != 4 else "/report 1 0-1; 0-1", "结果确认"
        )
    done = await bot.server.wait_for("结束！冠军", timeout=20)

    # 若胜负关系相似，采用查胜负场次的方法 → equal: the flip, not round 3's scores.
    flip = flip_order(list(ids.values()), seed, "standings-flip")
    by_flip = sorted(last3, key=lambda p: -flip[p])
    lines = ranking(done.body)
    assert [n for _, n, _, _ in lines[:3]] == [name[p] for p in by_flip]
    assert all(stage == "最后三人循环赛" for _, _, stage, _ in lines[:3])
    assert "翻牌分出先后" in lines[0][3] and "翻牌分出先后" in lines[1][3]
    assert done.body.split("冠军：")[1].splitlines()[0].strip() == name[by_flip[0]]
    agree(lines)
    tree = await bot.says(GROUP, ADMIN, "/bracket", "对阵图")
    assert "🏁 最终名次" in tree.body and ranking(tree.body) == lines


async def test_doudizhu_groups_of_nine_seat_everyone_show_groups_and_play_what_rules_say(
    bot: Harness,
) -> None:
    ids = setup(bot, 9)
    name = {v: k for k, v in ids.items()}
    drawn = await start(bot, ids, "/new doudizhu 斗地主小组赛")  # the default: 小组循环
    # Three full tables, nobody sits out, and everyone is told their group.
    assert sorted(len(s) for s in tables_of(drawn, ids).values()) == [3, 3, 3]
    assert not byes_of(drawn, ids) and "分组：" in drawn
    groups = [ln for ln in drawn.splitlines() if re.match(r"^[A-H] 组：", ln)]
    # One group of nine: groups of three would sit at one table every round, and a group of
    # three beside one of six would too (docs/rules/groups.md#tables-of-three-or-four).
    assert sorted(len(g.split("：")[1].split(", ")) for g in groups) == [9]
    rules = await bot.says(GROUP, ADMIN, "/rules", "赛制")
    assert (
        "整桌" in rules.body and "A组第一对B组第二" not in rules.body and "局制" not in rules.body
    )

    number, final = 0, [0]
    while True:  # every round seats all nine until the final table
        number += 1
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        tables = tables_of(opened.body, ids)
        assert "局制" not in opened.body and "七局四胜" not in opened.body
        if len(tables) == 1:
            final = tables[1]
            break
        assert sorted(p for s in tables.values() for p in s) == sorted(ids.values())
        for n in tables:
            await bot.says(GROUP, ADMIN, f"/report {n} total A+4 B-2 C-2", "结果确认")
        await bot.server.wait_for(f"第 {number} 轮结束", timeout=20)
    assert number >= 3 and len(final) == 3  # the announced final table is played
    await bot.says(GROUP, ADMIN, "/report 1 total A-2 B+4 C-2", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert done.body.split("冠军：")[1].splitlines()[0].strip() == name[final[1]]
    lines = ranking(done.body)
    assert [s for _, _, s, _ in lines[:3]] == ["冠军", "亚军", "决赛"]
    assert all(s.startswith("小组赛出局（小组第") for _, _, s, _ in lines[3:])
    agree(lines)
    after = await bot.says(GROUP, ADMIN, "/bracket", "standings")
    assert "没有对阵图" in after.body and "小组赛结束后" not in after.body


async def test_seed_000_team_event_crowns_the_top_team_in_text_and_picture(bot: Harness) -> None:
    ids = setup(bot, 9)
    drawn = await start(bot, ids, "/new doudizhu teams 团体斗地主", ("rounds 1",))
    tables = tables_of(drawn, ids)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    # Seat A wins +4 at every table: three individual winners, but the team table decides.
    for n in tables:
        await bot.says(GROUP, ADMIN, f"/report {n} total A+4 B-2 C-2", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    champion = done.body.split("冠军：")[1].splitlines()[0].strip()
    team_table = done.body.split("团体名次：", 1)[1].strip().splitlines()
    top = re.match(r"^1\. 第 (\d+) 队（(.+)）", team_table[0])
    assert top, team_table
    assert champion == f"第 {top.group(1)} 队（{top.group(2)}）"
    standings = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert standings.photo is not None and "团体名次：\n" + team_table[0] in standings.body


async def test_a_whole_table_forfeit_does_not_end_the_event_until_the_organiser_rules(
    bot: Harness,
) -> None:
    ids = setup(bot, 8)
    name = {v: k for k, v in ids.items()}
    drawn = await start(bot, ids, "/new bigtwo 锄大地")
    tables = tables_of(drawn, ids)
    await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 A0 B3 C5 D7", "结果确认")
    settled = await deadline_passes(bot, 40)  # table 2 never reports: it forfeits whole
    assert "2" in settled.split("整桌弃权：")[1].splitlines()[0]
    held = await bot.server.wait_for("组织者决定", timeout=20)
    assert "第 2 桌整桌弃权" in held.body
    standings = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert "🏁" not in standings.body and "冠军" not in standings.body
    await bot.says(GROUP, ADMIN, "/round", "还没有结束")  # the round stays open
    await bot.says(GROUP, ADMIN, "/forfeit 2", "判弃权")  # the organiser's ruling
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert name[tables[1][0]] in done.body.split("冠军：")[1].splitlines()[0]


async def test_seed_002_final_of_four_pairs_over_two_rounds_crowns_a_pair(bot: Harness) -> None:
    """docs/rules/pairs.md#final: 总决赛的4组中以抽签形式决定竞争对手，连续2轮的角逐之后，
    将产生冠、亚、季军及第四名 — four pairs, two rounds drawn by cards, four places each
    shared by a pair."""
    ids = setup(bot, 8)
    name = {v: k for k, v in ids.items()}
    drawn = await start(bot, ids, "/new guandan pairs 掼蛋总决赛")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    first = tables_of(drawn, ids)
    assert len(first) == 2  # all four pairs are the final at once
    champions = set(first[1][0::2])  # table 1's A&C win both rounds
    await bot.says(GROUP, ADMIN, "/report 1 A C", "结果确认")
    await bot.says(GROUP, ADMIN, "/report 2 B D", "结果确认")
    await bot.server.wait_for("第 1 轮结束", timeout=20)
    second = tables_of((await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")).body, ids)
    losers = set(first[1][1::2]) | set(first[2][0::2])  # round 1's losing pairs
    for number, seats in second.items():  # P wins again; at the other table a loser wins
        winners = champions if champions <= set(seats) else losers
        report = "A C" if set(seats[0::2]) <= winners else "B D"
        await bot.says(GROUP, ADMIN, f"/report {number} {report}", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    crowned = done.body.split("冠军：")[1].splitlines()[0].strip().split(", ")
    assert set(crowned) == {name[p] for p in champions}  # the pair, both named
    lines = ranking(done.body)
    assert [r for r, _, _, _ in lines] == [1, 1, 2, 2, 3, 3, 4, 4]  # 冠、亚、季军及第四名
    assert {n for r, n, _, _ in lines if r == 1} == set(crowned)
    assert [stage for _, _, stage, _ in lines] == ["冠军"] * 2 + ["亚军"] * 2 + ["决赛"] * 4
    agree(lines)
    standings = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert ranking(standings.body) == lines

"""Walkovers and substitutes over HTTP, through a real Telegram library
(docs/rules/people.md#walkover, #sub): a partner who drops with the match unplayed loses
the table for the pair at once, and the check-in's cut-off, passing while the bot is down,
spares the opponents who never checked in; a dropped player's place takes a substitute,
who carries it to the title and reads so in /me."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.e2e.harness import Harness, tables_of

GROUP = -107000
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬"]
BOTH = pytest.mark.parametrize(
    ("database_url", "backend"),
    [("sqlite", "aiogram"), ("postgres", "ptb")],
    indirect=["database_url"],
)


async def pairs_open(bot: Harness, noshow: str) -> tuple[dict[str, int], dict[int, list[int]]]:
    """A 掼蛋 pairs knockout of eight (the two winning pairs play a one-round final),
    round 1 open; the players' ids and the tables."""
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 901 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "掼蛋群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new guandan pairs 掼蛋赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set final 2", "已设置")
    await bot.says(GROUP, ADMIN, "/set final_rounds 1", "已设置")
    await bot.says(GROUP, ADMIN, f"/set noshow {noshow}", "已设置")
    for name in NAMES[:8]:
        await bot.joins(GROUP, ids[name])
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    return ids, tables_of(opened.body, ids)


@BOTH
async def test_a_partner_who_drops_loses_the_table_and_the_cut_off_spares_the_opponents(
    bot: Harness,
) -> None:
    ids, tables = await pairs_open(bot, "10")
    name = {uid: n for n, uid in ids.items()}
    await bot.server.wait_for("第 1 轮签到")
    for uid in tables[1]:
        await bot.says(GROUP, uid, "/here", "已签到")
    a, b, c, d = (name[u] for u in tables[2])
    dropped = await bot.says(GROUP, ids[a], "/drop yes", "退出比赛")
    assert f"第 2 桌记 {a} 弃权：{a}, {c} 这一组输掉这一桌，{b}, {d} 不战而胜。" in dropped.body
    # The cut-off passes while the bot is down: B and D never checked in, and nothing
    # waits for them any more, so nobody is ruled absent.
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(minutes=11)
    await bot.start()
    assert "全员到齐" in (await bot.server.wait_for("签到截止", timeout=20)).body
    await bot.says(GROUP, ADMIN, "/report 1 A C", "第 1 轮结束")
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    assert {ids[b], ids[d]} <= set(tables_of(final.body, ids)[1])


@BOTH
async def test_a_dropped_players_place_takes_a_substitute_who_reads_the_title_in_me(
    bot: Harness,
) -> None:
    ids, tables = await pairs_open(bot, "off")
    name = {uid: n for n, uid in ids.items()}
    for number in tables:
        said = await bot.says(GROUP, ADMIN, f"/report {number} A C", f"第 {number} 桌结果确认")
    assert "第 1 轮结束" in said.body or await bot.server.wait_for("第 1 轮结束")
    out, sub = name[tables[1][0]], "壬"
    await bot.says(GROUP, ids[sub], "/join", "候补第 1 位")
    dropped = await bot.says(GROUP, ids[out], "/drop", "退出比赛")
    assert f"组织者可用 /sub 让替补顶替 {out} 的位置" in dropped.body
    await bot.says(GROUP, ADMIN, f"/sub {out} {sub}", f"{sub} 替换 {out} 上场")
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    seats = tables_of(final.body, ids)[1]
    mine = "ABCD"[seats.index(ids[sub])]
    partner = "ABCD"[(seats.index(ids[sub]) + 2) % 4]
    await bot.says(GROUP, ADMIN, f"/report 1 {mine} {partner}", "结束！冠军")
    me = await bot.says(GROUP, ids[sub], "/me", "战绩")
    assert f"第 1 名 / 8 人（第 2 轮起替补 {out}）" in me.body
    me = await bot.says(GROUP, ids[out], "/me", "战绩")
    assert f"第 1 名 / 8 人（第 1 轮后由 {sub} 替补）" in me.body

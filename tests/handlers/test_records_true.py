"""Records say what happened, no more: /export of a match still being played, /me of
running events, the buttons of a report already confirmed."""

from __future__ import annotations

import csv
import io

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -107500
ADMIN = 1


def csv_rows(document: bytes | None) -> list[dict[str, str]]:
    assert document is not None
    return list(csv.DictReader(io.StringIO(document.decode("utf-8"))))


async def test_export_of_a_match_after_its_first_game_says_it_is_still_playing(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids = bot.server.seat_group(GROUP, ADMIN, ["甲", "乙", "丙", "丁"], 301)
    await bot.says(GROUP, ADMIN, "/new xiangqi bracket 象棋", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    tables = tables_of((await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")).body, ids)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    a, b = tables[1]
    await bot.says(GROUP, a, "/report 1 1-0", "请同桌另一位选手确认")
    await bot.says(GROUP, b, "/confirm", "第 2 盘")  # the match plays on: 1–0 after game one
    exported = await bot.says(GROUP, ADMIN, "/export", "成绩表 (CSV)")
    table_one = [r for r in csv_rows(exported.document) if r["table"] == "1"]
    assert [(r["score"], r["status"]) for r in table_one] == [("0", "playing")] * 2
    table_two = [r for r in csv_rows(exported.document) if r["table"] == "2"]
    assert {r["status"] for r in table_two} == {"pending"}


async def test_me_marks_a_running_event_as_for_now_and_a_cancelled_one_as_cancelled(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids = bot.server.seat_group(GROUP, ADMIN, [f"选手{i}" for i in range(1, 9)], 301)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 春季赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    tables = tables_of((await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")).body, ids)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    winner, mate = tables[1][2], tables[1][1]  # C0 wins the table
    await bot.says(GROUP, tables[1][0], "/report 1 A5 B8 C0 D12", "确认")
    await bot.says(GROUP, mate, "/confirm", "第 1 桌结果确认")
    mine = await bot.says(GROUP, winner, "/me", "战绩")
    assert "春季赛（锄大地）：进行中，目前：第1轮晋级" in mine.body
    waiting = await bot.says(GROUP, tables[2][0], "/me", "战绩")
    assert "春季赛（锄大地）：进行中，目前：等待第2桌结果" in waiting.body
    await bot.says(GROUP, ADMIN, "/cancel yes", "取消")
    mine = await bot.says(GROUP, winner, "/me", "战绩")
    assert "春季赛（锄大地）：已取消" in mine.body

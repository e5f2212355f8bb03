"""The event as a whole, as an organiser meets it: /cancel (asked, pressed, or ``yes``),
/set format before the draw, a misspelt format in /new, and /new while an event runs."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -108000
ADMIN = 1


def add_players(bot: MemoryHarness, count: int) -> dict[str, int]:
    names = [f"选手{i + 1}" for i in range(count)]
    return bot.server.seat_group(GROUP, ADMIN, names, first=401)


async def test_cancel_asks_keeps_the_record_frees_the_chat_and_silences_its_timers(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids = add_players(bot, 4)
    await bot.says(GROUP, ADMIN, "/new xiangqi bracket 象棋赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    a, b = tables_of(drawn.body, ids)[1]
    await bot.says(GROUP, a, "/report 1 1-0; 1-0", "请同桌另一位选手确认")
    await bot.says(GROUP, b, "/confirm", "结果确认")

    refused = await bot.says(GROUP, ADMIN, "/new gomoku 五子棋赛", "已有一个进行中的比赛")
    assert "/cancel" in refused.body
    await bot.says(GROUP, a, "/cancel", "只有组织者")
    await bot.says(GROUP, ADMIN, "/cancel now", "/cancel yes")  # not a confirmation
    ask = await bot.says(GROUP, ADMIN, "/cancel", "确定取消「象棋赛」吗")
    assert ask.reply_markup is not None
    [[cancel_button, keep_button]] = ask.reply_markup["inline_keyboard"]
    await bot.presses(GROUP, ADMIN, ask, keep_button["callback_data"], "没有取消")
    await bot.says(GROUP, a, "/table", "第 1 桌")  # still running
    bot.server.user_presses(GROUP, a, ask.message_id, cancel_button["callback_data"])
    await bot.server.wait_idle()
    await bot.says(GROUP, a, "/table", "第 1 桌")  # a player's press changed nothing
    await bot.presses(GROUP, ADMIN, ask, cancel_button["callback_data"], "「象棋赛」已取消")

    # Kept for the record: /export and /standings read it; results no longer change.
    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    assert {r["status"] for r in rows if r["table"] == "1"} == {"confirmed"}
    standing = await bot.says(GROUP, a, "/standings", "比赛已取消")
    assert standing.body.count("比赛已取消") == 1
    await bot.says(GROUP, ADMIN, "/fix 2 1-0; 1-0", "已取消，结果不能再改")
    await bot.says(GROUP, a, "/report 2 1-0; 1-0", "没有进行中的比赛")

    # The round's deadline and reminders pass: nothing is said about a cancelled event.
    before = len(bot.server.outbox(GROUP))
    bot.clock.offset = timedelta(days=400)
    await bot.restart()
    assert bot.server.outbox(GROUP)[before:] == []

    # The chat is free: a new event starts, and an old question's button does nothing.
    await bot.says(GROUP, ADMIN, "/new gomoku 五子棋赛", "SHA-256")
    query = bot.server.user_presses(GROUP, ADMIN, ask.message_id, cancel_button["callback_data"])
    assert "不再有效" in ((await bot.server.wait_for_callback_answer(query)).text or "")
    await bot.says(GROUP, ADMIN, "/cancel yes", "「五子棋赛」已取消")
    await bot.says(GROUP, a, "/players", "没有进行中的比赛")


async def test_set_format_before_the_draw_resets_its_knobs_and_is_refused_after(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids = add_players(bot, 4)
    await bot.says(GROUP, ADMIN, "/new bigtwo 锄大地", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set advance 2", "advance")
    await bot.says(GROUP, ADMIN, "/set format bracket", "一对一对阵")  # 4 seats a table
    await bot.says(GROUP, ADMIN, "/set format swis", "是不是 swiss")
    done = await bot.says(GROUP, ADMIN, "/set format 瑞士移位", "赛制改为瑞士移位")
    assert "rounds=5" in done.body  # the new format's knobs, at their defaults
    rules = await bot.says(GROUP, ids["选手1"], "/rules", "瑞士移位")
    assert "分桌淘汰" not in rules.body
    await bot.says(GROUP, ADMIN, "/undo", "已撤销")
    await bot.says(GROUP, ids["选手1"], "/rules", "分桌淘汰")
    await bot.says(GROUP, ADMIN, "/set format swiss", "赛制改为瑞士移位")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    refused = await bot.says(GROUP, ADMIN, "/set format knockout", "已经抽签，不能再改赛制")
    assert "/cancel" in refused.body


async def test_a_misspelt_format_in_new_is_refused_with_the_closest_one(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    add_players(bot, 0)
    refused = await bot.says(GROUP, ADMIN, "/new bigtwo knockuot 拼错赛制", "是不是 knockout")
    assert "SHA-256" not in refused.body
    await bot.says(GROUP, ADMIN, "/players", "没有进行中的比赛")  # nothing was stored
    made = await bot.says(GROUP, ADMIN, "/new bigtwo Spring 春季赛", "SHA-256")
    assert "Spring 春季赛" in made.body and "分桌淘汰" in made.body


async def test_the_draw_picks_the_format_by_size_when_none_was_named(
    memory_bot: MemoryHarness,
) -> None:
    """Two-player games: nine or fewer play groups A/B, more play a knockout."""
    bot = memory_bot
    ids = add_players(bot, 10)
    made = await bot.says(GROUP, ADMIN, "/new xiangqi 象棋赛", "SHA-256")
    assert "9 人及以下小组循环，多于 9 人单败淘汰" in made.body
    for uid in list(ids.values())[:7]:
        await bot.joins(GROUP, uid)
    said = await bot.says(GROUP, ADMIN, "/draw", "共 7 人（不超过 9 人）：按小组循环进行")
    drawn = await bot.says(GROUP, ADMIN, "/players", "分组")
    assert said.message_id < drawn.message_id
    await bot.says(GROUP, ADMIN, "/cancel yes", "已取消")

    await bot.says(GROUP, ADMIN, "/new xiangqi 象棋赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "共 10 人（多于 9 人）：按单败淘汰进行")
    rules = await bot.says(GROUP, ADMIN, "/rules", "单败淘汰")
    assert "按人数定" not in rules.body

    await bot.says(GROUP, ADMIN, "/cancel yes", "已取消")
    await bot.says(GROUP, ADMIN, "/new xiangqi groups 象棋小组赛", "SHA-256")  # named: kept
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    assert "按人数" not in drawn.body and "共 10 人" not in drawn.body

"""Records say what happened, no more: /export of a match still being played, /me of
running events, the buttons of a report already confirmed."""

from __future__ import annotations

import csv
import io

from tests.handlers.harness import MemoryHarness, drawn

GROUP = -107500
ADMIN = 1
NAMES = [f"选手{i}" for i in range(1, 9)]


def csv_rows(document: bytes | None) -> list[dict[str, str]]:
    assert document is not None
    return list(csv.DictReader(io.StringIO(document.decode("utf-8"))))


async def test_export_of_a_match_after_its_first_game_says_it_is_still_playing(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    _, tables = await drawn(bot, GROUP, ADMIN, "xiangqi bracket 象棋", ["甲", "乙", "丙", "丁"])
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
    _, tables = await drawn(bot, GROUP, ADMIN, "bigtwo knockout 春季赛", NAMES)
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


async def test_a_settled_report_loses_its_buttons_and_a_late_press_says_what_became_of_it(
    memory_bot: MemoryHarness,
) -> None:
    """Two tables of 锄大地 in a one-round event: table 1's report is confirmed by a
    typed /confirm, table 2's disputed and then corrected. Each report's own message
    then says so instead of offering Confirm and Dispute; a press on them after the
    event ended answers by the report, not 'no event running here'."""
    bot = memory_bot
    _, tables = await drawn(bot, GROUP, ADMIN, "bigtwo swiss 锄大地", NAMES, ("rounds 1",))
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    one = await bot.says(GROUP, tables[1][0], "/report 1 A5 B8 C0 D12", "请同桌另一位选手确认")
    two = await bot.says(GROUP, tables[2][0], "/report 2 A1 B2 C0 D3", "请同桌另一位选手确认")
    confirm_one, dispute_two = (
        one.button("确认")["callback_data"],
        two.button("异议")["callback_data"],
    )
    assert one.buttons and two.buttons
    await bot.says(GROUP, tables[1][1], "/confirm 1", "第 1 桌结果确认")
    await bot.server.wait_idle()
    assert not one.buttons and "已确认" in one.body.splitlines()[0]
    assert "第 1 桌上报" in one.body and "A5 B8 C0 D12" in one.body
    pressed = bot.server.user_presses(GROUP, tables[2][1], two.message_id, dispute_two)
    assert (await bot.server.wait_for_callback_answer(pressed)).text == "已提出异议"
    assert not two.buttons and "提出异议" in two.body.splitlines()[0]
    await bot.says(GROUP, ADMIN, "/fix 2 A1 B2 C0 D4", "组织者更正第 2 桌")
    await bot.server.wait_for("结束！冠军")
    assert "组织者已更正" in two.body.splitlines()[0]
    # Presses on buttons a client still shows, after the end: what became of each report.
    late = bot.server.user_presses(GROUP, tables[1][1], one.message_id, confirm_one)
    answer = (await bot.server.wait_for_callback_answer(late)).text or ""
    assert "第 1 桌的结果已确认" in answer and "没有进行中的比赛" not in answer
    late = bot.server.user_presses(GROUP, tables[2][1], two.message_id, dispute_two)
    answer = (await bot.server.wait_for_callback_answer(late)).text or ""
    assert "已被更正或撤回" in answer


async def test_a_corrected_report_the_organiser_filed_names_the_organiser_not_an_id(
    memory_bot: MemoryHarness,
) -> None:
    """The organiser (in no seat) reports a table and then corrects it with /fix: the
    report's own message, rewritten to say it was corrected, named its reporter by the
    raw Telegram id 「第 1 桌上报（1）」; it says 组织者."""
    bot = memory_bot
    await drawn(bot, GROUP, ADMIN, "bigtwo swiss 锄大地", NAMES, ("rounds 1",))
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 A5 B8 C0 D12", "第 1 桌结果确认")
    await bot.says(GROUP, ADMIN, "/fix 1 A5 B8 C0 D11", "组织者更正第 1 桌")
    said = await bot.server.wait_for("组织者已更正")
    assert "第 1 桌上报（组织者）" in said.body and f"（{ADMIN}）" not in said.body, said.body

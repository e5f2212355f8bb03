"""A whole slice: a 16-player Big Two table knockout, from /new to the winner.

Round 1 has four tables: one confirmed with the button, one disputed and fixed by the
organiser, one reported by the organiser, and one that never reports and forfeits when
the deadline passes while the bot is down. Round 2 is the final of the three survivors.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness, tables_of

GROUP = -100500
ADMIN = 1
NAMES = [
    "张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏", "黄勇",
    "周杰", "吴昊", "徐丽", "孙强", "马超", "朱琳", "胡军", "郭峰",
]  # fmt: skip
PLAYERS = list(range(101, 117))


def setup_group(server: BotAPIServer) -> None:
    server.add_user(ADMIN, "组织者", language_code="zh")
    for uid, name in zip(PLAYERS, NAMES, strict=True):
        server.add_user(uid, name, username=f"p{uid}", language_code="zh")
    server.add_user(999, "路人", language_code="zh")
    server.add_chat(GROUP, "锄大地群", admins=[ADMIN])


@pytest.mark.parametrize(
    ("database_url", "backend"),
    [("postgres", "aiogram"), ("sqlite", "ptb")],
    indirect=["database_url"],
)
async def test_big_two_knockout_runs_from_signup_to_winner(bot: Harness) -> None:
    server = bot.server
    setup_group(server)
    ids = dict(zip(NAMES, PLAYERS, strict=True))

    # Non-admins are refused politely; the admin creates the event with a Join button.
    await bot.says(GROUP, 101, "/new bigtwo 周五锄大地", "只有组织者")
    created = await bot.says(GROUP, ADMIN, "/new bigtwo 周五锄大地", "周五锄大地")
    assert "锄大地" in created.body and "SHA-256" in created.body
    commitment = created.body.rsplit("：", 1)[1].strip()
    assert len(commitment) == 64

    # Sixteen sign-ups: half by command, half by the button; a double join is harmless.
    for uid in PLAYERS[:8]:
        await bot.joins(GROUP, uid)
    await server.wait_idle()
    posted = len(server.outbox(GROUP))
    for uid in PLAYERS[8:]:  # presses answer with a toast and update the sign-up message
        press = server.user_presses(
            GROUP, uid, created.message_id, created.buttons[0]["callback_data"]
        )
        await server.wait_for_callback_answer(press)
    await server.wait_for(lambda m: m is created and "已报名 16 人" in m.body)  # edits merge
    await server.wait_idle()
    assert len(server.outbox(GROUP)) == posted  # no new messages: no flood
    assert created.buttons  # edited in place, button kept
    await bot.says(GROUP, 101, "/join", "已经报过名")
    answers = list(server.answered_callbacks.values())
    assert len(answers) == 8 and all("报名成功" in (a.text or "") for a in answers)
    assert not any(a.show_alert for a in answers)  # success flashes; refusals pop up
    await bot.joins(GROUP, 999)  # typed: a 👍, and the count edited in place
    await bot.server.wait_for(
        lambda m: m.message_id == created.message_id and "已报名 17 人" in m.body
    )
    await bot.says(GROUP, 999, "/leave", "共 16 人")
    listing = await bot.says(GROUP, 101, "/players", "报名 16 人：")
    assert all(name in listing.body for name in NAMES)

    # The draw: one message, four tables of four, seats A–D.
    await bot.says(GROUP, 101, "/draw", "只有组织者")
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables = tables_of(drawn.body, ids)
    assert sorted(tables) == [1, 2, 3, 4]
    assert sorted(u for seats in tables.values() for u in seats) == PLAYERS
    verify = await bot.says(GROUP, 101, "/verify", "种子")
    assert commitment in verify.body

    opened = await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    assert "12月20日" in opened.body and "18:00" in opened.body

    # Table 1: the captain reports two hands; a tablemate confirms with the button.
    t1 = tables[1]
    await bot.says(GROUP, t1[1], "/report 1 A5 B8 C0 D12", "由 A 座")  # not the captain
    await bot.says(GROUP, tables[2][0], "/report 1 A5 B8 C0 D12", "不在第 1 桌")  # elsewhere
    await bot.says(GROUP, 999, "/report 1 A5 B8 C0 D12", "你还没有报名")  # not a player
    pending = await bot.says(GROUP, t1[0], "/report 1 A5 B8 C0 D12", "请同桌另一位选手确认")
    assert "+37" in pending.body and "-87" in pending.body  # docs/rules/bigtwo.md#settlement
    await bot.says(GROUP, t1[0], "/report 1 A0 B8 C5 D12", "已有一份结果等待确认")
    await bot.says(GROUP, t1[0], "/confirm", "不能确认自己")
    refused = server.user_presses(
        GROUP, 999, pending.message_id, pending.buttons[0]["callback_data"]
    )
    alert = await server.wait_for_callback_answer(refused)
    assert alert.show_alert and "不在第 1 桌" in (alert.text or "")
    await bot.presses(GROUP, t1[2], pending, pending.buttons[0]["callback_data"], "结果确认")
    await bot.says(GROUP, t1[2], "/report 1 A5 B8 C0 D12", "/fix")  # already confirmed

    # Table 2: invalid reports are refused with the reason; a valid one is disputed and fixed.
    t2 = tables[2]
    await bot.says(GROUP, t2[0], "/report 2 A0 B0 C5 D7", "两个座位")
    await bot.says(GROUP, t2[0], "/report 2 A14 B0 C5 D7", "13")
    await bot.says(GROUP, t2[0], "/report 2 A3 B0 C5 E7", "E")
    await bot.says(GROUP, t2[0], "/report 9 A3 B0 C5 D7", "没有第 9 桌")
    await bot.says(GROUP, t2[0], "/report 2 A3 B0 C5 D7\nA0 B2 C9 D4", "请同桌另一位选手确认")
    await bot.says(GROUP, t2[1], "/dispute 2 第二局C是8张", "有异议")
    await bot.says(GROUP, 101, "/fix 2 total A+1 B-1 C0 D0", "只有组织者")
    await bot.says(GROUP, ADMIN, "/fix 2 total A+10 B+20 C-20 D-10", "更正第 2 桌")

    # Table 3: the organiser's own report needs no confirmation.
    t3 = tables[3]
    await bot.says(GROUP, ADMIN, "/report 3 total A+1 B-2 C+2 D-1", "结果确认")
    await bot.says(GROUP, ADMIN, "/report 3 total A+1 B-2 C+2 D-1", "已确认")

    mine = await bot.says(GROUP, t3[2], "/table", "第 3 桌 C 座")
    assert "12月20日" in mine.body

    # Table 4 never reports. The bot goes down; the deadline passes; it comes back.
    await server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(days=40)
    await bot.start()
    settled = await server.wait_for("截止", timeout=20)
    assert "4" in settled.body.split("整桌弃权：")[1].splitlines()[0]
    complete = await server.wait_for("第 1 轮结束", timeout=20)
    winners = [ids_name for ids_name in NAMES if ids_name in complete.body.split("晋级：")[1]]
    expected = {
        NAMES[PLAYERS.index(t1[2])],
        NAMES[PLAYERS.index(t2[1])],
        NAMES[PLAYERS.index(t3[2])],
    }
    assert set(winners) == expected
    await server.wait_idle()
    assert sum("⏰" in m.body for m in server.outbox(GROUP)) == 1  # told once

    # Round 2: the final of three (a short Big Two table).
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    final_seats = tables_of(final.body, ids)[1]
    assert sorted(final_seats) == sorted(ids[n] for n in expected)
    await bot.says(GROUP, final_seats[0], "/report 1 A0 B3 C10", "请同桌另一位选手确认")
    await bot.says(GROUP, final_seats[1], "/confirm", "结果确认")
    done = await server.wait_for("结束！冠军", timeout=20)
    assert NAMES[PLAYERS.index(final_seats[0])] in done.body.split("冠军：")[1].splitlines()[0]
    # The pinned live standings say the ranking is final, not that more updates will come.
    await server.wait_idle()
    live = [m for m in server.outbox(GROUP) if m.body.startswith("📌")]
    assert len(live) == 1 and "最终名次" in live[0].body and "实时积分" not in live[0].body

    # Standings picture and the CSV export.
    picture = await bot.says(GROUP, 101, "/standings", "积分")
    assert picture.photo is not None and picture.photo.startswith(b"\x89PNG")
    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    assert list(rows[0]) == [
        "round",
        "table",
        "seat",
        "user_id",
        "name",
        "score",
        "penalty",
        "status",
    ]
    assert len([r for r in rows if r["round"] == "1"]) == 16
    t1_a = next(r for r in rows if r["round"] == "1" and r["table"] == "1" and r["seat"] == "A")
    assert (t1_a["score"], t1_a["status"]) == ("37", "confirmed")
    assert {r["status"] for r in rows if r["table"] == "4"} == {"forfeit"}

"""The no-show rule (docs/rules/deadlines.md#no-show), end to end: with ``/set noshow N`` a round
opens a check-in, and N minutes later every player of an unreported table who has not checked in
forfeits the game (迟到15分钟以弃权论; 余下选手轮空参加下轮抽签). The cut-off passes while the bot
is down, so it must be rebuilt from the database and rule exactly once.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from tests.e2e.harness import Harness, tables_of

GROUP = -104000
ADMIN = 1
STRANGER = 999
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]


def setup(bot: Harness, names: list[str]) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_user(STRANGER, "路人", language_code="zh")
    ids = {name: 601 + i for i, name in enumerate(names)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    return ids


async def cut_off_passes(bot: Harness, minutes: int) -> str:
    """Stop the bot, move the clock past the check-in cut-off, start again: it rules."""
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(minutes=minutes)
    await bot.start()
    return (await bot.server.wait_for("签到截止", timeout=20)).body


@pytest.mark.parametrize(
    ("database_url", "backend"),
    # PTB too: its stop once cancelled the sender between Telegram's answer and the mark,
    # so after the restart the reply lane waited out a lease while broadcasts went first.
    [("sqlite", "aiogram"), ("postgres", "ptb")],
    indirect=["database_url"],
)
async def test_players_who_do_not_check_in_forfeit_and_their_tablemates_go_on(
    bot: Harness,
) -> None:
    server = bot.server
    ids = setup(bot, NAMES)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 签到赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set noshow soon", "noshow 不能设为 soon")
    await bot.says(GROUP, ADMIN, "/set noshow 15", "已设置 noshow = 15")
    rules = await bot.says(GROUP, STRANGER, "/rules", "迟到：")
    assert "开赛 15 分钟内未签到" in rules.body
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    t1, t2 = tables_of(drawn.body, ids)[1], tables_of(drawn.body, ids)[2]

    await bot.says(GROUP, t1[0], "/here", "没有进行中")  # no round open yet
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    checkin = await server.wait_for("第 1 轮签到")
    assert "已到 0/8" in checkin.body

    # Table 1 all come: two press the button, one sends /here, the referee checks in one.
    posted = len(server.outbox(GROUP))
    for uid in t1[:2]:
        press = server.user_presses(
            GROUP, uid, checkin.message_id, checkin.button("到场")["callback_data"]
        )
        answer = await server.wait_for_callback_answer(press)
        assert "已签到（第 1 桌" in (answer.text or "") and not answer.show_alert
    again = server.user_presses(
        GROUP, t1[0], checkin.message_id, checkin.button("到场")["callback_data"]
    )
    assert "已经签到过了" in ((await server.wait_for_callback_answer(again)).text or "")
    await server.wait_for(lambda m: m is checkin and "已到 2/8" in m.body)  # edits merge
    await server.wait_idle()
    assert len(server.outbox(GROUP)) == posted  # presses edit the count, they do not post
    assert checkin.buttons
    await bot.says(GROUP, t1[2], "/here", "已签到（第 1 桌 C 座）")
    await bot.says(GROUP, t1[2], f"/here {name[t1[3]]}", "只有组织者")
    await bot.says(GROUP, ADMIN, f"/here {name[t1[3]]}", f"{name[t1[3]]} 已签到")
    await bot.says(GROUP, STRANGER, "/here", "还没有报名")

    # Table 2: A and B come; C and D never check in.
    await bot.says(GROUP, t2[0], "/here", "已签到（第 2 桌 A 座）")
    await bot.says(GROUP, t2[1], "/here", "已签到（第 2 桌 B 座）")
    mine = await bot.says(GROUP, t2[2], "/table", "第 2 桌 C 座")
    assert "还没签到" in mine.body
    mine = await bot.says(GROUP, t2[0], "/table", "第 2 桌 A 座")
    assert "已到 ✅" in mine.body

    # The cut-off passes while the bot is down: C and D of table 2 forfeit; table 1 had
    # everyone and is untouched.
    ruled = await cut_off_passes(bot, 16)
    absent = ruled.split("第 2 桌：", 1)[1].splitlines()[0]
    assert absent == f"{name[t2[2]]}, {name[t2[3]]}"
    assert "第 1 桌" not in ruled
    await bot.says(GROUP, t2[2], "/here", "已截止")  # too late now
    await bot.says(GROUP, t2[0], "/report 2 total A+1 B+1 C-1 D-1", "已判弃权")
    await bot.restart()  # the ruling is stored: a restart does not rule again
    await server.wait_idle()
    assert sum("签到截止" in m.body for m in server.outbox(GROUP)) == 1

    # Table 1 reports; its winner and table 2's two who came go on to a final of three.
    await bot.says(GROUP, ADMIN, "/report 1 total A+9 B-3 C-3 D-3", "结果确认")
    complete = await server.wait_for("第 1 轮结束", timeout=20)
    going_on = complete.body.split("晋级：", 1)[1].splitlines()[0]
    assert {n for n in NAMES if n in going_on} == {name[t1[0]], name[t2[0]], name[t2[1]]}
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    assert sorted(tables_of(final.body, ids)[1]) == sorted([t1[0], t2[0], t2[1]])
    assert "已到 0/3" in (await server.wait_for("第 2 轮签到")).body


async def play_round(bot: Harness, ids: dict[str, int], number: int, absent: int) -> None:
    """Open round ``number``; everyone checks in but ``absent``; full tables report."""
    opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
    for table, seats in tables_of(opened.body, ids).items():
        for uid in seats:
            if uid != absent:
                await bot.says(GROUP, uid, "/here", "已签到")
        if absent not in seats:
            await bot.says(GROUP, ADMIN, f"/report {table} 1-0", "结果确认")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_two_no_shows_remove_a_player_and_undo_takes_a_ruling_back(bot: Harness) -> None:
    """docs/rules/penalties.md#forfeits: 弃权 2 局者取消全部比赛成绩. The check-in is switched
    on after the draw (a policy that may change mid-event); one player never checks in."""
    server = bot.server
    ids = setup(bot, NAMES[:4])
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new xiangqi swiss 象棋积分赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set rounds 4", "已设置")
    await bot.says(GROUP, ADMIN, "/set series bo1", "已设置")  # one game a match
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/set rounds 5", "规则不能再改")
    await bot.says(GROUP, ADMIN, "/set noshow 10", "已设置 noshow = 10")
    late = tables_of(drawn.body, ids)[1][0]  # seat A of table 1 never checks in

    # Round 1: ruled a no-show, then the organiser takes the ruling back and reports the
    # game they did play (the latecomer won), so it is not a forfeit after all.
    await play_round(bot, ids, 1, late)
    ruled = await cut_off_passes(bot, 11)
    assert ruled.split("第 1 桌：", 1)[1].splitlines()[0] == name[late]
    await server.wait_for("第 1 轮结束", timeout=20)
    await bot.says(GROUP, ADMIN, "/undo", "已撤销：上一次迟到弃权判定")
    await bot.says(GROUP, ADMIN, "/report 1 1-0", "结果确认")
    await server.wait_for("第 1 轮结束", timeout=20)

    # Rounds 2 and 3: two real no-shows. The second removes the player.
    for number, minutes in ((2, 22), (3, 33)):
        await play_round(bot, ids, number, late)
        ruled = await cut_off_passes(bot, minutes)
        assert name[late] in ruled
        await server.wait_for(f"第 {number} 轮结束", timeout=20)

    # Round 4 seats only the three others, and the removed player's round-1 win is struck.
    final = await bot.says(GROUP, ADMIN, "/round", "第 4 轮开始")
    assert name[late] not in final.body
    export = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert export.document is not None
    rows = list(csv.DictReader(io.StringIO(export.document.decode("utf-8"))))
    first = next(r for r in rows if r["round"] == "1" and r["user_id"] == str(late))
    assert (first["score"], first["status"]) == ("0", "dq")  # their win, struck
    round2 = {r["user_id"]: r["status"] for r in rows if r["round"] == "2"}
    assert round2.pop(str(late)) == "dq"  # removed: every row of theirs says so
    assert sorted(round2.values()) == ["bye", "confirmed", "confirmed"]  # their opponent


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_noshow_on_takes_the_games_seed_figure_and_bad_values_are_refused(
    bot: Harness,
) -> None:
    """掼蛋 gives 10 minutes (迟到10分钟按弃权处理), the other games 15
    (docs/rules/deadlines.md#no-show)."""
    setup(bot, NAMES[:1])
    await bot.says(GROUP, ADMIN, "/new guandan pairs 掼蛋赛", "SHA-256")
    rules = await bot.says(GROUP, STRANGER, "/rules", "迟到：")
    assert "不签到" in rules.body and "开赛 10 分钟未到" in rules.body
    await bot.says(GROUP, ADMIN, "/set noshow on", "已设置 noshow = on")
    rules = await bot.says(GROUP, STRANGER, "/rules", "迟到：")
    assert "开赛 10 分钟内未签到" in rules.body
    await bot.says(GROUP, ADMIN, "/set noshow -5", "noshow 至少为 0")
    await bot.says(GROUP, ADMIN, "/set noshow off", "已设置 noshow = off")
    rules = await bot.says(GROUP, STRANGER, "/rules", "迟到：")
    assert "迟到：不签到" in rules.body
    await bot.says(GROUP, STRANGER, "/set noshow 15", "只有组织者")

"""End to end: one pinned live-standings message edited after every confirmed
result (or unpinned, said once, without the right); typed sign-ups acknowledged with a
reaction; /standings without any CJK font still answers with the ranking."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

import bot.presentation.pictures as pictures
from charts import fonts
from playground.botapi import SentMessage
from tests.e2e.harness import Harness, tables_of

GROUP = -101200
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸", "子", "丑"]
RESULTS = ["total A+9 B-3 C-3 D-3", "total A+7 B+1 C-4 D-4", "total A+5 B-1 C-2 D-2"]
GAINS = [9, 7, 5]  # what seat A of each table scores


async def signed_up_and_drawn(bot: Harness, **chat: object) -> tuple[dict[str, int], str]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 601 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(GROUP, "锄大地群", admins=[ADMIN], **chat)  # type: ignore[arg-type]
    created = await bot.says(GROUP, ADMIN, "/new bigtwo swiss 周五积分赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.server.wait_for(lambda m: m is created and "已报名 12 人" in m.body)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    return ids, drawn.body


def is_live(m: SentMessage) -> bool:
    return "实时积分" in m.body


async def test_the_pinned_standings_are_edited_after_each_confirmed_result(bot: Harness) -> None:
    ids, drawn = await signed_up_and_drawn(bot)
    await bot.server.wait_idle()
    assert not [m for m in bot.server.outbox(GROUP) if "置顶" in m.body]  # the right is there
    tables = tables_of(drawn, ids)
    name = {v: k for k, v in ids.items()}
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    assert opened.photo is not None  # the seating sheet, captioned with the tables

    live: SentMessage | None = None
    for number, result in enumerate(RESULTS, 1):
        if number == 3:  # a minute later: the picture is redrawn too
            bot.clock.offset += timedelta(minutes=2)
            first_picture = live.photo if live else None
        await bot.says(GROUP, ADMIN, f"/report {number} {result}", "结果确认")
        line = f"{name[tables[number][0]]} — 积分 {GAINS[number - 1]}"  # that table's winner
        update = await bot.server.wait_for(lambda m, w=line: is_live(m) and w in m.body)
        live = live or update
        assert update is live  # every later result edits the same message
        assert len(live.edits) == number - 1
    assert live is not None and live.pinned  # posted once, pinned, then edited
    assert live.photo is not None and live.photo != first_picture
    # The ranking (the caption) after every result; the picture at most once a minute.
    assert [e.method for e in live.edits] == ["editMessageCaption", "editMessageMedia"]
    assert sum(is_live(m) for m in bot.server.outbox(GROUP)) == 1
    first = next(ln for ln in live.body.splitlines() if ln.startswith("1. "))
    assert name[tables[1][0]] in first  # +9, the best of the three winners


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_without_the_pin_right_the_bot_says_so_once_and_goes_on(bot: Harness) -> None:
    await signed_up_and_drawn(bot, bot_rights=("can_delete_messages",))
    await bot.server.wait_for("置顶消息的权限")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    for number, result in enumerate(RESULTS[:2], 1):
        await bot.says(GROUP, ADMIN, f"/report {number} {result}", "结果确认")
    live = await bot.server.wait_for(lambda m: is_live(m) and bool(m.edits))
    assert not live.pinned
    assert sum("置顶消息的权限" in m.body for m in bot.server.outbox(GROUP)) == 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_standings_without_any_cjk_font_send_the_ranking_never_the_apology(
    bot: Harness, monkeypatch: pytest.MonkeyPatch, packaged_font_only: Path
) -> None:
    """No system font at all (see ``packaged_font_only``): the font that ships with the
    package draws the picture; without even that one, the text ranking is the answer.
    (Drawn on a thread of this process, where the fonts are patched, instead of the
    drawing process.)"""
    monkeypatch.setattr(pictures, "_drawer", ThreadPoolExecutor(max_workers=1))
    await signed_up_and_drawn(bot)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, f"/report 1 {RESULTS[0]}", "结果确认")

    with monkeypatch.context() as patch:
        patch.setattr(fonts, "PACKAGED_FONT", None)
        fonts.reset()
        text = await bot.says(GROUP, 601, "/standings", "轮积分")
    assert text.photo is None and "1. " in text.body
    assert not [m for m in bot.server.outbox(GROUP) if "抱歉" in m.body]

    fonts.reset()  # the text was not kept: asked again, the picture is drawn
    packaged = await bot.says(GROUP, 601, "/standings", "轮积分")
    assert packaged.photo is not None

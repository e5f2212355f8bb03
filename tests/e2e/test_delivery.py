"""Delivery and chat plumbing end to end: retries after 429/5xx deliver a reply once,
commands for other bots are ignored, anonymous admins organise, a chat's language holds
for every reply, simultaneous reports keep one result, and a group upgrade keeps the event.
"""

from __future__ import annotations

import csv
import io
import re
import time

from playground.botapi import BotAPIServer, SentMessage
from tests.e2e.harness import Harness, tables_of

GROUP = -100600
OTHER_GROUP = -100601
ADMIN = 1
STRANGER = 999
PLAYERS = [201, 202, 203, 204]
ZH_NAMES = ["张伟", "王芳", "李娜", "刘洋"]
EN_NAMES = ["Alice", "Bob", "Carol", "Dave"]
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def setup(
    server: BotAPIServer,
    names: list[str],
    *chats: int,
    chat_type: str = "supergroup",
    players: list[int] = PLAYERS,
) -> None:
    server.add_user(ADMIN, "Organiser", language_code="zh")
    for uid, name in zip(players, names, strict=True):
        server.add_user(uid, name, language_code="zh")
    server.add_user(STRANGER, "Stranger", language_code="zh")
    for chat in chats:
        server.add_chat(chat, "Cards", type=chat_type, admins=[ADMIN])


def bodies(server: BotAPIServer, chat: int) -> list[str]:
    return [m.body for m in server.outbox(chat)]


async def signed_up(
    bot: Harness, chat: int, title: str, players: list[int] = PLAYERS
) -> SentMessage:
    created = await bot.says(chat, ADMIN, f"/new bigtwo {title}", title)
    for uid in players:
        await bot.joins(chat, uid)
    return created


# --- 1, 2: retries deliver once ------------------------------------------------------------
async def test_reply_is_delivered_once_after_429(bot: Harness) -> None:
    server = bot.server
    setup(server, ZH_NAMES, GROUP)
    server.fail_next("sendMessage", status=429, retry_after=1)
    started = time.monotonic()
    created = await bot.says(GROUP, ADMIN, "/new bigtwo Friday", "🏆 Friday", timeout=15)
    assert time.monotonic() - started >= 0.9  # waited out retry_after, did not hammer
    await server.wait_idle()

    assert [m.body for m in server.outbox(GROUP)] == [created.body]
    sends = server.calls_to("sendMessage")
    assert [c.status for c in sends] == [429, 200]
    assert sends[0].params["text"] == sends[1].params["text"] == created.text


async def test_reply_is_delivered_once_after_500(bot: Harness) -> None:
    server = bot.server
    setup(server, ZH_NAMES, GROUP)
    server.fail_next("sendMessage", status=500, times=2)
    created = await bot.says(GROUP, ADMIN, "/new bigtwo Friday", "🏆 Friday", timeout=15)
    await server.wait_idle()

    assert [m.body for m in server.outbox(GROUP)] == [created.body]
    sends = server.calls_to("sendMessage")
    assert [c.status for c in sends] == [500, 500, 200]
    assert {c.params["text"] for c in sends} == {created.text}


# --- 3: commands addressed to another bot --------------------------------------------------
async def test_commands_for_another_bot_are_ignored(bot: Harness) -> None:
    server = bot.server
    setup(server, ZH_NAMES, GROUP)
    server.user_says(GROUP, ADMIN, "/new@other_bot bigtwo Friday")
    await server.wait_idle()
    assert server.outbox(GROUP) == []

    helped = await bot.says(GROUP, ADMIN, "/help@tourbot_bot", "/new")
    await bot.says(GROUP, STRANGER, "/players", "没有进行中的比赛")  # /new@other_bot made none
    await server.wait_idle()
    assert len(server.outbox(GROUP)) == 2
    assert "你是组织者" in helped.body


# --- 4: anonymous admins -------------------------------------------------------------------
async def test_anonymous_admin_is_an_organiser(bot: Harness) -> None:
    server = bot.server
    setup(server, ZH_NAMES, GROUP)
    await bot.says(GROUP, STRANGER, "/new bigtwo Friday", "只有组织者")  # the control
    server.user_says(GROUP, STRANGER, "/new bigtwo Friday", sender_chat_id=GROUP)
    created = await server.wait_for("🏆 Friday", timeout=15)
    assert created.buttons  # the Join button
    await bot.joins(GROUP, 201)
    listing = await bot.says(GROUP, 201, "/players", "报名 1 人：")
    assert "Friday" in listing.body


# --- 5: one language per chat --------------------------------------------------------------
async def test_english_chat_gets_english_replies_only(bot: Harness) -> None:
    server = bot.server
    setup(server, EN_NAMES, GROUP, OTHER_GROUP)

    # GROUP speaks English although every user's client is Chinese.
    await bot.says(GROUP, ADMIN, "/lang en", "English")
    await bot.says(GROUP, STRANGER, "/new bigtwo Friday", "Only organisers")
    await signed_up(bot, GROUP, "Friday")
    await bot.says(GROUP, PLAYERS[0], "/join", "already joined")
    await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")
    await bot.says(GROUP, ADMIN, "/report 9 A3 B0 C5 D7", "has no table 9")
    await bot.says(GROUP, ADMIN, "/report 1 A0 B0 C5 D7", "Two seats")

    # OTHER_GROUP keeps the default language: the same impossible hand, refused in Chinese.
    await signed_up(bot, OTHER_GROUP, "Saturday")
    await bot.says(OTHER_GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(OTHER_GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(OTHER_GROUP, ADMIN, "/report 1 A0 B0 C5 D7", "两个座位")

    await server.wait_idle()
    english = bodies(server, GROUP)
    assert len(english) >= 8  # typed sign-ups get reactions, not messages
    assert [b for b in english if CJK.search(b)] == []
    assert all(CJK.search(b) for b in bodies(server, OTHER_GROUP))


# --- 6: two reports at once ----------------------------------------------------------------
async def test_two_captains_reporting_at_once_keep_one_report(bot: Harness) -> None:
    server = bot.server
    names = [*ZH_NAMES, "陈静", "杨磊", "赵敏", "黄勇"]
    players = [*PLAYERS, 205, 206, 207, 208]  # two tables: table 1 alone ends nothing
    setup(server, names, GROUP, players=players)
    ids = dict(zip(names, players, strict=True))
    await signed_up(bot, GROUP, "周五", players)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    captain = tables_of(opened.body, ids)[1][0]
    await server.wait_idle()
    before = len(server.outbox(GROUP))

    server.user_says(GROUP, ADMIN, "/report 1 A5 B8 C0 D12")
    server.user_says(GROUP, captain, "/report 1 A0 B8 C5 D12")
    await server.wait_idle(quiet=1.0)
    replies = bodies(server, GROUP)[before:]
    accepted = [b for b in replies if "结果确认" in b or "请同桌另一位选手确认" in b]
    refused = [b for b in replies if "已确认；" in b or "已有一份结果等待确认" in b]
    assert len(accepted) == 1, replies
    assert len(refused) == 1, replies
    organiser_won = "结果确认" in accepted[0]
    assert ("A5 B8 C0 D12" if organiser_won else "A0 B8 C5 D12") in accepted[0]

    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    table1 = [r for r in rows if r["round"] == "1" and r["table"] == "1"]
    assert len(table1) == 4
    if organiser_won:
        assert {r["status"] for r in table1} == {"confirmed"}
        assert next(r for r in table1 if r["seat"] == "A")["score"] == "37"
    else:
        assert {r["status"] for r in table1} == {"pending"}


# --- 7: group → supergroup -----------------------------------------------------------------
async def test_group_migration_keeps_the_tournament(bot: Harness) -> None:
    server = bot.server
    new_id = -1009000600
    setup(server, ZH_NAMES, GROUP, chat_type="group")
    await signed_up(bot, GROUP, "周五")
    await server.wait_idle()

    server.migrate_chat(GROUP, new_id)
    await server.wait_idle(quiet=1.0)
    listing = await bot.says(new_id, STRANGER, "/players", "报名 4 人：")  # not the count edit
    assert all(name in listing.body for name in ZH_NAMES)
    assert listing.chat_id == new_id
    # The organiser carries on in the new chat: the draw works there.
    drawn = await bot.says(new_id, ADMIN, "/draw", "第 1 轮抽签")
    assert drawn.chat_id == new_id

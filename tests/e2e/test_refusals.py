"""End to end: when real Telegram says no, the bot does what an organiser would expect and
loses nothing without a word (docs/operations.md#refusals). One test for each way
Telegram refuses, on both backends, checking what the organiser and the players see."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta

import pytest

import bot.application.core as core
import bot.transport.holds as holds
import bot.transport.outbox as outbox
from playground.botapi import BotAPIServer, SentMessage
from tests.e2e.harness import Harness, tables_of
from tests.e2e.test_deadlines import at_minute
from tests.e2e.test_live_standings import GAINS, RESULTS, is_live, signed_up_and_drawn
from tests.e2e.test_live_standings import GROUP as LIVE_GROUP

GROUP = -104000
OTHER = -104001
ADMIN = 1
NAMES = ["张伟", "王芳", "李娜", "刘洋"]
PLAYERS = [401, 402, 403, 404]
IDS = dict(zip(NAMES, PLAYERS, strict=True))


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a chat refuses is tried again within a second, not after five."""
    monkeypatch.setattr(holds, "FIRST_TRY", 0.5)
    monkeypatch.setattr(holds, "LAST_TRY", 1.0)


def setup(server: BotAPIServer, *chats: int, **chat: object) -> None:
    server.add_user(ADMIN, "组织者", language_code="zh")
    for name, uid in IDS.items():
        server.add_user(uid, name, language_code="zh")
    for chat_id in chats:
        server.add_chat(chat_id, "锄大地群", admins=[ADMIN], **chat)  # type: ignore[arg-type]


async def started(bot: Harness, uid: int) -> None:
    """``uid`` opens a private chat with the bot."""
    await bot.says(uid, uid, "/start", "可用命令")


async def signed_up(bot: Harness, chat: int = GROUP, title: str = "周五") -> SentMessage:
    created = await bot.says(chat, ADMIN, f"/new bigtwo {title}", title)
    for uid in PLAYERS:
        await bot.joins(chat, uid)
    await bot.server.wait_for(lambda m: m.message_id == created.message_id and "4 人" in m.body)
    return created


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.05)


def dms(server: BotAPIServer, uid: int, words: str) -> list[str]:
    return [m.body for m in server.outbox(uid) if words in m.body]


# --- a group where members may not send media, the bot no admin ----------------------------
async def test_in_a_group_that_refuses_media_the_pictures_are_read_as_text(bot: Harness) -> None:
    server = bot.server
    setup(server, GROUP, bot_is_admin=False)
    server.restrict_chat(GROUP, media=False)
    await started(bot, ADMIN)
    await signed_up(bot)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    assert opened.photo is None and opened.method == "sendMessage"  # the seating, as text
    assert tables_of(opened.body, IDS)[1]  # the table and its seats are there
    assert opened.button("叫裁判")  # the referee button came along
    server.user_says(GROUP, PLAYERS[0], "/standings")
    standings = await server.wait_for(lambda m: m.chat_id == GROUP and "轮积分" in m.body)
    assert standings.photo is None and all(name in standings.body for name in NAMES)
    await server.wait_idle()
    told = dms(server, ADMIN, "不允许我在「周五」所在的群发图片")
    assert len(told) == 1 and "允许成员发送媒体" in told[0]  # once, with the way out
    assert not [m for m in server.outbox(GROUP) if m.photo is not None]


# --- a group locked during /draw -----------------------------------------------------------
async def test_what_a_locked_group_refuses_is_sent_once_it_opens_again(
    bot: Harness, quick_retries: None
) -> None:
    server = bot.server
    setup(server, GROUP, bot_is_admin=False)
    await started(bot, ADMIN)
    await signed_up(bot)
    server.restrict_chat(GROUP, text=False)
    server.user_says(GROUP, ADMIN, "/draw")
    told = await server.wait_for(lambda m: m.chat_id == ADMIN and "不允许我在" in m.body)
    assert "发消息" in told.body and "管理员" in told.body
    await asyncio.sleep(1.5)  # tried again meanwhile, and refused again
    assert not [m for m in server.outbox(GROUP) if "第 1 轮抽签" in m.body]  # held, not lost
    server.restrict_chat(GROUP, text=True)  # the lock is lifted: no update says so
    drawn = await server.wait_for("第 1 轮抽签", timeout=15)
    assert drawn.chat_id == GROUP and tables_of(drawn.body, IDS)[1]
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    assert opened.chat_id == GROUP
    assert len(dms(server, ADMIN, "不允许我在")) == 1  # told once


# --- an admin deletes the pinned live standings --------------------------------------------
async def test_deleted_live_standings_are_posted_and_pinned_again(bot: Harness) -> None:
    ids, drawn = await signed_up_and_drawn(bot)
    tables, name = tables_of(drawn, ids), {v: k for k, v in ids.items()}
    await bot.says(LIVE_GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(LIVE_GROUP, ADMIN, f"/report 1 {RESULTS[0]}", "结果确认")
    live = await bot.server.wait_for(is_live)
    await until(lambda: live.pinned)  # a pin is no output: wait_for would sit out its timeout
    for number in (2, 3):  # deleted after each result: posted and pinned again each time
        bot.server.delete_message(LIVE_GROUP, live.message_id)
        await bot.says(LIVE_GROUP, ADMIN, f"/report {number} {RESULTS[number - 1]}", "结果确认")
        winner = f"{name[tables[number][0]]} — 积分 {GAINS[number - 1]}"
        again = await bot.server.wait_for(lambda m, w=winner: is_live(m) and w in m.body)
        await until(lambda m=again: m.pinned)  # pinned right after it is posted
        assert again is not live and not again.deleted
        live = again
    assert len([m for m in bot.server.outbox(LIVE_GROUP) if is_live(m) and not m.deleted]) == 1


# --- the first live-standings post refused: a closed topic ---------------------------------
def live_post(m: SentMessage) -> bool:
    return m.body.startswith("📌")


async def test_a_closed_topic_holds_the_live_standings_and_sends_them_when_reopened(
    bot: Harness, quick_retries: None
) -> None:
    server, topic = bot.server, 7
    setup(server, GROUP, is_forum=True, bot_is_admin=False)
    more = {"陈静": 405, "杨磊": 406, "赵敏": 407, "黄勇": 408}  # two tables
    for name, uid in more.items():
        server.add_user(uid, name, language_code="zh")
    ids = {**IDS, **more}
    await started(bot, ADMIN)

    async def says(uid: int, text: str, expect: str) -> SentMessage:
        server.user_says(GROUP, uid, text, thread_id=topic)
        return await server.wait_for(expect)

    assert (await says(ADMIN, "/new bigtwo 话题赛", "话题赛")).thread_id == topic
    for uid in ids.values():
        message = server.user_says(GROUP, uid, "/join", thread_id=topic)
        await bot.reacted(GROUP, message["message_id"])
    drawn = await says(ADMIN, "/draw", "第 1 轮抽签")
    tables = tables_of(drawn.body, ids)
    await says(ADMIN, "/round", "第 1 轮开始")
    server.close_topic(GROUP, topic)
    server.user_says(GROUP, ADMIN, "/report 1 A5 B8 C0 D12", thread_id=topic)
    told = await server.wait_for(lambda m: m.chat_id == ADMIN and "话题已关闭" in m.body)
    assert "重新打开话题" in told.body
    server.user_says(GROUP, ADMIN, "/report 2 A0 B8 C5 D12", thread_id=topic)
    await asyncio.sleep(1.5)
    assert not [m for m in server.outbox(GROUP) if live_post(m)]  # held, nothing given up
    server.close_topic(GROUP, topic, closed=False)
    name = {v: k for k, v in ids.items()}
    both = (name[tables[1][2]], name[tables[2][0]])  # each table's winner (C0, A0)
    live = await server.wait_for(lambda m: live_post(m) and all(w in m.body for w in both))
    assert live.thread_id == topic
    assert len([m for m in server.outbox(GROUP) if live_post(m)]) == 1
    assert len(dms(server, ADMIN, "话题已关闭")) == 1


# --- a button on an old message: InaccessibleMessage ---------------------------------------
async def test_join_on_yesterdays_sign_up_message_signs_the_player_up(bot: Harness) -> None:
    server = bot.server
    setup(server, GROUP)
    created = await bot.says(GROUP, ADMIN, "/new bigtwo 周五", "周五")
    data = created.button("报名")["callback_data"]
    press = server.user_presses(GROUP, PLAYERS[0], created.message_id, data, inaccessible=True)
    answer = await server.wait_for_callback_answer(press)
    assert "张伟 报名成功" in (answer.text or "")
    await server.wait_for(lambda m: m is created and "已报名 1 人" in m.body)
    listing = await bot.says(GROUP, PLAYERS[1], "/players", "报名 1 人")
    assert "张伟" in listing.body


# --- a proxy's HTML 502 page ---------------------------------------------------------------
async def test_an_html_502_for_one_group_keeps_no_other_group_waiting(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tried again after 1 s, not 1, 2 and 4: still three times what answering the other
    # group takes, so a chat-wide (not per-chat) backoff would still put it first
    monkeypatch.setattr(outbox, "MAX_BACKOFF", 1.0)
    server = bot.server
    setup(server, GROUP, OTHER)
    server.fail_next("sendMessage", status=502, html=True, times=3, chat_id=GROUP)
    server.user_says(GROUP, ADMIN, "/help")
    await asyncio.sleep(0.3)  # the first try has failed
    server.user_says(OTHER, ADMIN, "/help")
    first = await server.wait_for("/new", timeout=20)
    assert first.chat_id == OTHER  # the other group's help is not behind the failing one
    late = await server.wait_for("/new", timeout=20)
    assert late.chat_id == GROUP  # and the failing one got through, once
    assert len([m for m in server.outbox(GROUP) if "/new" in m.body]) == 1


# --- sendPhoto failing for a long time -----------------------------------------------------
async def test_a_failing_photo_holds_up_the_text_behind_it_only_briefly(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox, "MEDIA_PATIENCE", 2.0)
    server = bot.server
    setup(server, GROUP)
    await signed_up(bot)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await server.wait_idle()
    server.fail_next("sendPhoto", status=500, times=10_000)  # sendPhoto is down
    server.user_says(GROUP, PLAYERS[0], "/standings")
    await asyncio.sleep(0.5)
    asked = time.monotonic()
    server.user_says(GROUP, PLAYERS[1], "/table")
    standings = await server.wait_for(lambda m: "轮积分" in m.body, timeout=20)
    table = await server.wait_for("你在第 1 桌", timeout=20)
    assert time.monotonic() - asked < 12  # not the whole outage
    assert standings.photo is None  # the ranking went as text meanwhile, first
    assert table.chat_id == standings.chat_id == GROUP
    server.clear_failures()


# --- a 5xx after Telegram had delivered ----------------------------------------------------
async def test_an_answer_lost_after_delivery_repeats_the_message_at_most_once(
    bot: Harness,
) -> None:
    server = bot.server
    setup(server, GROUP)
    server.fail_next("sendMessage", status=502, delivered=True)
    server.user_says(GROUP, ADMIN, "/help")
    await server.wait_for("/new")
    await server.wait_idle(quiet=2.0)
    helps = [m for m in server.outbox(GROUP) if "/new" in m.body]
    assert len(helps) == 2  # the known limit (docs/operations.md#refusals): one repeat


# --- the referee is called, the only reachable organiser blocked the bot -------------------
async def test_a_referee_call_says_whom_it_reached_and_nobody_is_never_called_reached(
    bot: Harness,
) -> None:
    server = bot.server
    setup(server, GROUP)
    second = 2
    server.add_user(second, "副组织者", language_code="zh")
    server._world.chats[GROUP].admins.append(second)
    await started(bot, ADMIN)
    await started(bot, second)
    await signed_up(bot)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    caller = tables_of(opened.body, IDS)[1][0]
    data = opened.button("叫裁判")["callback_data"]

    server.block_bot(ADMIN)  # Telegram tells the bot (my_chat_member)
    server._world.blocked.add(second)  # … and this one it never heard of
    await server.wait_idle()
    press = server.user_presses(GROUP, caller, opened.message_id, data)
    answer = await server.wait_for_callback_answer(press)
    assert answer.text == "第 1 桌的呼叫已通知：副组织者。"  # the one thought reachable
    called = await server.wait_for(lambda m: m.chat_id == GROUP and "叫裁判" in m.body)
    assert "未能私信通知到组织者" in called.body  # refused: called in the group instead

    bot.clock.offset += timedelta(minutes=6)
    press = server.user_presses(GROUP, caller, opened.message_id, data)
    answer = await server.wait_for_callback_answer(press)
    assert "没有组织者能私信收到通知" in (answer.text or "")  # nobody reached, and it says so
    await server.wait_for(lambda m: m.chat_id == GROUP and "叫裁判" in m.body)


# --- users who blocked the bot or deleted their account -----------------------------------
async def test_people_who_blocked_the_bot_are_not_written_to_again_and_organisers_see_it(
    bot: Harness,
) -> None:
    server = bot.server
    setup(server, GROUP)
    for uid in (ADMIN, *PLAYERS):
        await started(bot, uid)
    await signed_up(bot)
    await bot.says(GROUP, ADMIN, "/set remind 1h,10m", "remind")  # two reminders
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round 90分钟后", "第 1 轮开始")
    blocked, deleted = PLAYERS[0], PLAYERS[1]
    server.block_bot(blocked)
    server.deactivate_user(deleted)  # no update says so
    await server.wait_idle()
    before = len(server.calls)

    await at_minute(bot, 31, "⏰ 提醒")  # one hour before the end
    assert dms(server, PLAYERS[2], "⏰")  # the others are reminded privately
    await at_minute(bot, 81, "⏰ 提醒")  # ten minutes before the end
    to = [int(c.params["chat_id"]) for c in server.calls[before:] if c.method == "sendMessage"]
    assert blocked not in to  # never tried: Telegram had said so
    assert to.count(deleted) == 1  # refused once, then left alone
    assert len(dms(server, PLAYERS[2], "⏰")) == 2

    listing = await bot.says(GROUP, ADMIN, "/players", "无法私信")
    assert "张伟（已屏蔽机器人）" in listing.body and "王芳（已注销账号）" in listing.body
    await bot.says(GROUP, PLAYERS[3], "/players", "报名 4 人")
    await server.wait_idle()
    assert len([m for m in server.outbox(GROUP) if "无法私信" in m.body]) == 1  # organisers only


# --- reactions turned off in the group -----------------------------------------------------
async def test_where_reactions_are_off_a_typed_join_is_acknowledged_in_words(
    bot: Harness,
) -> None:
    server = bot.server
    setup(server, GROUP)
    server.restrict_chat(GROUP, reactions=False)
    created = await bot.says(GROUP, ADMIN, "/new bigtwo 周五", "周五")
    server.user_says(GROUP, PLAYERS[0], "/join")
    said = await server.wait_for("报名成功")
    assert "张伟 报名成功（共 1 人）" in said.body
    for uid in PLAYERS[1:]:
        server.user_says(GROUP, uid, "/join")
    await server.wait_for(lambda m: m is created and "已报名 4 人" in m.body)
    await server.wait_idle()
    acks = [m.body for m in server.outbox(GROUP) if "报名成功" in m.body]
    assert all(any(f"{name} 报名成功" in ack for ack in acks) for name in NAMES)
    assert len(acks) <= len(NAMES)  # a burst's acknowledgements share messages
    assert server.reactions == {}


# --- a group upgraded to a supergroup ------------------------------------------------------
async def test_messages_caught_by_a_supergroup_upgrade_are_readdressed(bot: Harness) -> None:
    server = bot.server
    new_id = -1009000104
    setup(server, GROUP, type="group")
    await signed_up(bot)
    server.user_says(GROUP, PLAYERS[0], "/players")
    server.migrate_chat(GROUP, new_id)
    listing = await server.wait_for("报名 4 人：")
    assert listing.chat_id == new_id  # sent to the old id, refused, sent to the new one
    fifth = 405
    server.add_user(fifth, "陈静", language_code="zh")
    await bot.joins(new_id, fifth)
    count = await server.wait_for(lambda m: m.chat_id == new_id and "已报名 5 人" in m.body)
    assert count.button("报名")  # the sign-up message, with its button, posted again there
    assert count is not listing and listing.body.startswith("周五 · 报名 4 人：")  # untouched


# --- pin refused or rate-limited -----------------------------------------------------------
async def test_a_refused_pin_is_told_and_a_rate_limited_one_pinned_later(bot: Harness) -> None:
    server = bot.server
    setup(server, GROUP)
    await started(bot, ADMIN)
    await signed_up(bot)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    server.set_bot_admin(GROUP, True, rights=("can_delete_messages",))  # no pinning now
    await bot.says(GROUP, ADMIN, "/report 1 A5 B8 C0 D12", "结果确认")
    live = await server.wait_for(lambda m: m.chat_id == GROUP and live_post(m))
    told = await server.wait_for(lambda m: m.chat_id == ADMIN and "置顶" in m.body)
    assert "置顶消息" in told.body and not live.pinned

    other = OTHER
    server.add_chat(other, "另一群", admins=[ADMIN])
    server.fail_next("pinChatMessage", status=429, retry_after=1)
    await signed_up(bot, other, "周六")
    await bot.says(other, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(other, ADMIN, "/round", "第 1 轮开始")
    await bot.says(other, ADMIN, "/report 1 A5 B8 C0 D12", "结果确认")
    pinned = await server.wait_for(lambda m: m.chat_id == other and live_post(m))
    await until(lambda: pinned.pinned)  # after Telegram's wait
    assert [c.status for c in server.calls_to("pinChatMessage")][-2:] == [429, 200]


# --- token revoked, getChatAdministrators failing ------------------------------------------
async def test_a_refused_token_and_an_unknown_admin_list_give_nothing_up(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox, "MAX_PAUSE", 1.0)  # the token's pause: 1 s, not the first 5
    server = bot.server
    setup(server, GROUP)
    server.fail_next("getChatAdministrators", status=500)
    refused = await bot.says(GROUP, ADMIN, "/new bigtwo 周五", "稍后再试")
    assert "只有组织者" not in refused.body  # not taken for an ordinary member
    await bot.says(GROUP, ADMIN, "/new bigtwo 周五", "周五")

    server.fail_next("sendMessage", status=401, description="Unauthorized", chat_id=GROUP)
    server.user_says(GROUP, ADMIN, "/players")
    listing = await server.wait_for("还没有人报名", timeout=20)  # once Telegram took it again
    assert listing.chat_id == GROUP
    assert [c.status for c in server.calls_to("sendMessage")][-2:] == [401, 200]


@pytest.mark.parametrize("backend", ["aiogram"])
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_stale_admin_list_serves_while_telegram_cannot_say(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(core, "ADMIN_CACHE_SECONDS", 0.0)  # asked again every time
    server = bot.server
    setup(server, GROUP)
    await signed_up(bot)
    server.fail_next("getChatAdministrators", status=502, html=True, times=5)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")  # the last list Telegram gave

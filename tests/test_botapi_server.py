"""The local Bot API server against the real aiogram and python-telegram-bot clients.

If these pass, both transport adapters can run end to end against ``playground/botapi``
without any patching of the libraries.
"""

from __future__ import annotations

import asyncio
import struct
import time
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
import telegram
from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.filters import Command
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    WebAppInfo,
)
from telegram.error import BadRequest, ChatMigrated, NetworkError, RetryAfter
from telegram.ext import ApplicationBuilder, CommandHandler, ContextTypes

from playground.botapi import BotAPIServer
from tests.conftest import BOTAPI_TOKEN

GROUP = -1001234567890
FORUM = -1009876543210
ALICE, BOB, CAROL = 1001, 1002, 1003


def png(width: int, height: int) -> bytes:
    """A valid grey PNG of the given size, so photo dimensions can be checked."""
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def world(botapi: BotAPIServer) -> BotAPIServer:
    botapi.add_user(ALICE, "Alice", username="alice")
    botapi.add_user(BOB, "Bob", last_name="Li", language_code="en")
    botapi.add_user(CAROL, "Carol")
    botapi.add_chat(GROUP, title="锄大地 Cup", admins=[ALICE, BOB], members=[CAROL])
    botapi.add_chat(FORUM, title="Club", admins=[ALICE], is_forum=True)
    return botapi


@pytest_asyncio.fixture
async def aio_bot(world: BotAPIServer) -> AsyncIterator[Bot]:
    bot = Bot(BOTAPI_TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(world.url)))
    try:
        yield bot
    finally:
        await bot.session.close()


@pytest_asyncio.fixture
async def ptb_bot(world: BotAPIServer) -> AsyncIterator[telegram.Bot]:
    async with telegram.Bot(
        BOTAPI_TOKEN, base_url=world.url + "/bot", base_file_url=world.url + "/file/bot"
    ) as bot:
        yield bot


async def raw_call(server: BotAPIServer, method: str, **kwargs: Any) -> tuple[int, Any]:
    """A hand-made request (JSON body, query string...) for encodings neither client uses."""
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            kwargs.pop("http_method", "POST"), f"{server.url}/bot{BOTAPI_TOKEN}/{method}", **kwargs
        ) as response,
    ):
        return response.status, await response.json()


# ---------------------------------------------------------------- aiogram


async def test_mini_app_buttons_are_for_private_chats_and_https_as_telegram_says(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    """A ``web_app`` button only in a private chat, at an HTTPS address (a local one let
    through for tests); a link button anywhere."""
    app = InlineKeyboardButton(text="Report", web_app=WebAppInfo(url="https://tour.example/app"))
    link = InlineKeyboardButton(text="Console", url="https://t.me/tourbot_bot/console?startapp=c1")
    world.add_user(ALICE, "Alice")
    world.user_says(ALICE, ALICE, "/start")
    private = await aio_bot.send_message(
        ALICE, "form", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[app, link]])
    )
    assert private.reply_markup is not None
    assert await aio_bot.send_message(
        GROUP, "console", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[link]])
    )
    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await aio_bot.send_message(
            GROUP, "form", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[app]])
        )
    plain = InlineKeyboardButton(text="Report", web_app=WebAppInfo(url="http://tour.example/app"))
    with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):
        await aio_bot.send_message(
            ALICE, "form", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[plain]])
        )


async def test_aiogram_get_me_returns_the_configured_bot(aio_bot: Bot) -> None:
    me = await aio_bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "tourbot_bot", True)


async def test_aiogram_send_message_is_recorded_with_keyboard(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="报名 Join", callback_data="join:1")]]
    )
    message = await aio_bot.send_message(GROUP, "报名开始", reply_markup=keyboard)
    assert message.chat.title == "锄大地 Cup"
    assert message.from_user is not None and message.from_user.id == 123456
    assert message.reply_markup is not None
    assert message.reply_markup.model_dump() == keyboard.model_dump()
    [sent] = world.outbox(GROUP)
    assert (sent.method, sent.text, sent.message_id) == (
        "sendMessage",
        "报名开始",
        message.message_id,
    )
    assert sent.button("Join")["callback_data"] == "join:1"


async def test_aiogram_photo_upload_keeps_bytes_and_real_dimensions(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    image = png(320, 200)
    message = await aio_bot.send_photo(
        GROUP, BufferedInputFile(image, "standings.png"), caption="积分榜"
    )
    assert message.photo is not None
    assert (message.photo[-1].width, message.photo[-1].height) == (320, 200)
    assert message.caption == "积分榜"
    [sent] = world.outbox()
    assert sent.photo == image and sent.body == "积分榜"


async def test_aiogram_document_upload_and_download_round_trip(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    csv = b"round,table,seat,user_id\n1,1,A,1001\n"
    message = await aio_bot.send_document(GROUP, BufferedInputFile(csv, "export.csv"))
    assert message.document is not None and message.document.file_name == "export.csv"
    [sent] = world.outbox()
    assert (sent.document, sent.filename) == (csv, "export.csv")
    downloaded = await aio_bot.download(message.document.file_id)
    assert downloaded is not None and downloaded.read() == csv


async def test_aiogram_receives_user_command_with_entity(aio_bot: Bot, world: BotAPIServer) -> None:
    world.user_says(GROUP, CAROL, "/join@tourbot_bot now")
    [update] = await aio_bot.get_updates(timeout=1)
    assert update.message is not None and update.message.from_user is not None
    assert update.message.from_user.first_name == "Carol"
    assert update.message.text == "/join@tourbot_bot now"
    assert update.message.entities is not None
    assert (update.message.entities[0].type, update.message.entities[0].length) == (
        "bot_command",
        len("/join@tourbot_bot"),
    )


async def test_offset_confirms_earlier_updates_and_limit_caps_batch(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    for text in ("/join", "/players", "/rules"):
        world.user_says(GROUP, ALICE, text)
    first = await aio_bot.get_updates(limit=2)
    assert [u.message.text for u in first if u.message] == ["/join", "/players"]
    assert first[0].update_id < first[1].update_id
    again = await aio_bot.get_updates(offset=first[-1].update_id + 1)
    assert [u.message.text for u in again if u.message] == ["/rules"]
    assert await aio_bot.get_updates(offset=again[-1].update_id + 1) == []


async def test_message_ids_increase_per_chat(world: BotAPIServer) -> None:
    ids = [world.user_says(GROUP, ALICE, f"/n{i}")["message_id"] for i in range(3)]
    other = world.user_says(FORUM, ALICE, "/x")["message_id"]
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert other == 1


async def test_allowed_updates_filters_out_other_kinds(aio_bot: Bot, world: BotAPIServer) -> None:
    sent = await aio_bot.send_message(
        GROUP,
        "pick",
        reply_markup=InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="A", callback_data="a")]]
        ),
    )
    world.user_says(GROUP, ALICE, "/join")
    world.user_presses(GROUP, ALICE, sent.message_id, "a")
    updates = await aio_bot.get_updates(allowed_updates=["callback_query"])
    assert [u.callback_query is not None for u in updates] == [True]


async def test_aiogram_button_press_delivers_callback_and_records_answer(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="确认", callback_data="confirm:7")]]
    )
    sent = await aio_bot.send_message(GROUP, "Table 7 reported", reply_markup=keyboard)
    query_id = world.user_presses(GROUP, BOB, sent.message_id, "confirm:7")
    [update] = await aio_bot.get_updates()
    query = update.callback_query
    assert query is not None and query.id == query_id and query.data == "confirm:7"
    assert query.message is not None and query.message.message_id == sent.message_id
    await aio_bot.answer_callback_query(query_id, text="已确认")
    answer = await world.wait_for_callback_answer(query_id, timeout=1)
    assert (answer.text, answer.show_alert) == ("已确认", False)
    with pytest.raises(TelegramBadRequest, match="query ID is invalid"):
        await aio_bot.answer_callback_query(query_id, text="twice")


async def test_pressing_a_button_the_message_lacks_is_refused(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    sent = await aio_bot.send_message(GROUP, "no keyboard")
    with pytest.raises(ValueError, match="no button"):
        world.user_presses(GROUP, ALICE, sent.message_id, "join")


async def test_edits_update_the_sent_message_and_keep_history(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Join", callback_data="join")]]
    )
    sent = await aio_bot.send_message(GROUP, "Players: 0", reply_markup=keyboard)
    await aio_bot.edit_message_text(
        "Players: 1", chat_id=GROUP, message_id=sent.message_id, reply_markup=keyboard
    )
    await aio_bot.edit_message_reply_markup(chat_id=GROUP, message_id=sent.message_id)
    [record] = world.outbox()
    assert record.text == "Players: 1" and record.reply_markup is None
    assert [(e.method, e.text) for e in record.edits] == [
        ("editMessageText", "Players: 1"),
        ("editMessageReplyMarkup", "Players: 1"),
    ]
    assert record.edits[0].reply_markup == keyboard.model_dump(exclude_none=True)


async def test_edit_without_change_is_refused_as_not_modified(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    sent = await aio_bot.send_message(GROUP, "same")
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await aio_bot.edit_message_text("same", chat_id=GROUP, message_id=sent.message_id)


async def test_text_limit_is_4096_and_caption_limit_1024(aio_bot: Bot) -> None:
    await aio_bot.send_message(GROUP, "字" * 4096)
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await aio_bot.send_message(GROUP, "x" * 4097)
    with pytest.raises(TelegramBadRequest, match="caption is too long"):
        await aio_bot.send_photo(GROUP, BufferedInputFile(png(2, 2), "p.png"), caption="c" * 1025)


async def test_unknown_chat_is_chat_not_found(aio_bot: Bot, world: BotAPIServer) -> None:
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await aio_bot.send_message(-100555, "hello")
    assert world.calls[-1].status == 400 and world.outbox() == []


async def test_private_chat_needs_the_user_to_start_it(aio_bot: Bot, world: BotAPIServer) -> None:
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await aio_bot.send_message(BOB, "your table")
    world.user_says(BOB, BOB, "/start")
    message = await aio_bot.send_message(BOB, "your table")
    assert message.chat.type == "private" and message.chat.first_name == "Bob"


async def test_html_parse_mode_is_checked_and_stripped(aio_bot: Bot, world: BotAPIServer) -> None:
    await aio_bot.send_message(GROUP, "<b>Alice</b> &lt;3 &amp; Bob", parse_mode="HTML")
    assert world.outbox()[-1].text == "Alice <3 & Bob"
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await aio_bot.send_message(GROUP, "score < 3", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="Unsupported start tag"):
        await aio_bot.send_message(GROUP, "a<br>b", parse_mode="HTML")


async def test_photo_must_be_an_image_and_can_be_resent_by_file_id(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await aio_bot.send_photo(GROUP, BufferedInputFile(b"not a png", "x.png"))
    first = await aio_bot.send_photo(GROUP, BufferedInputFile(png(10, 20), "p.png"))
    assert first.photo is not None
    again = await aio_bot.send_photo(FORUM, first.photo[-1].file_id)
    assert again.photo is not None and again.photo[-1].height == 20
    assert world.outbox(FORUM)[0].photo == png(10, 20)


async def test_reply_to_the_bot_reaches_a_privacy_mode_bot(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    world.add_chat(-100778, title="Quiet", admins=[ALICE], bot_is_admin=False)
    question = await aio_bot.send_message(-100778, "Which table?")
    world.user_says(-100778, BOB, "3", reply_to=question.message_id)
    [update] = await aio_bot.get_updates()
    assert update.message is not None and update.message.reply_to_message is not None
    assert update.message.reply_to_message.message_id == question.message_id


async def test_long_callback_data_is_refused(aio_bot: Bot) -> None:
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="x", callback_data="d" * 65)]]
    )
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await aio_bot.send_message(GROUP, "too long", reply_markup=keyboard)


async def test_chat_member_status_follows_admin_list(aio_bot: Bot, world: BotAPIServer) -> None:
    world.add_user(4004, "Dan")
    statuses = [await aio_bot.get_chat_member(GROUP, uid) for uid in (ALICE, BOB, CAROL, 4004)]
    assert [type(m) for m in statuses] == [
        ChatMemberOwner,
        ChatMemberAdministrator,
        ChatMemberMember,
        ChatMemberLeft,
    ]
    me = await aio_bot.get_chat_member(GROUP, 123456)
    assert isinstance(me, ChatMemberAdministrator) and me.can_pin_messages


async def test_commands_webhook_pin_and_get_chat(aio_bot: Bot, world: BotAPIServer) -> None:
    await aio_bot.set_my_commands([BotCommand(command="join", description="报名")])
    assert world.my_commands[("default", "")] == [{"command": "join", "description": "报名"}]
    assert [c.command for c in await aio_bot.get_my_commands()] == ["join"]
    world.user_says(GROUP, ALICE, "/join")
    assert await aio_bot.delete_webhook(drop_pending_updates=True)
    assert await aio_bot.get_updates() == []
    sent = await aio_bot.send_message(GROUP, "Round 1")
    assert await aio_bot.pin_chat_message(GROUP, sent.message_id)
    assert world.outbox()[-1].pinned
    chat = await aio_bot.get_chat(FORUM)
    assert (chat.title, chat.is_forum) == ("Club", True)


async def test_forum_topic_message_round_trip(aio_bot: Bot, world: BotAPIServer) -> None:
    said = world.user_says(FORUM, ALICE, "/new bigtwo", thread_id=42)
    assert (said["message_thread_id"], said["is_topic_message"]) == (42, True)
    [update] = await aio_bot.get_updates()
    assert update.message is not None and update.message.message_thread_id == 42
    reply = await aio_bot.send_message(FORUM, "created", message_thread_id=42)
    assert reply.is_topic_message and reply.message_thread_id == 42
    assert world.outbox()[-1].thread_id == 42
    with pytest.raises(TelegramBadRequest, match="thread not found"):
        await aio_bot.send_message(FORUM, "lost", message_thread_id=99)


async def test_anonymous_admin_message_hides_the_user(aio_bot: Bot, world: BotAPIServer) -> None:
    world.user_says(GROUP, ALICE, "/draw", sender_chat_id=GROUP)
    [update] = await aio_bot.get_updates()
    message = update.message
    assert message is not None and message.from_user is not None
    assert message.from_user.username == "GroupAnonymousBot"
    assert message.sender_chat is not None and message.sender_chat.id == GROUP


async def test_privacy_mode_hides_plain_text_from_non_admin_bot(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    world.add_chat(-100777, title="Quiet", admins=[ALICE], bot_is_admin=False)
    world.user_says(-100777, ALICE, "A5 B8 C0 D12")
    world.user_says(-100777, ALICE, "/join@other_bot")
    world.user_says(-100777, ALICE, "/join")
    assert [u.message.text for u in await aio_bot.get_updates() if u.message] == ["/join"]


async def test_migration_queues_service_messages_and_redirects_sends(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    world.add_chat(-4001, title="Old group", type="group", admins=[ALICE])
    world.migrate_chat(-4001, -1004001)
    updates = await aio_bot.get_updates()
    assert [u.message.migrate_to_chat_id for u in updates if u.message] == [-1004001, None]
    assert updates[1].message is not None
    assert updates[1].message.migrate_from_chat_id == -4001
    with pytest.raises(TelegramMigrateToChat) as failure:
        await aio_bot.send_message(-4001, "hi")
    assert failure.value.migrate_to_chat_id == -1004001
    message = await aio_bot.send_message(-1004001, "hi")
    assert message.chat.type == "supergroup"


async def test_429_then_success(aio_bot: Bot, world: BotAPIServer) -> None:
    world.fail_next("sendMessage", status=429, retry_after=3)
    with pytest.raises(TelegramRetryAfter) as failure:
        await aio_bot.send_message(GROUP, "hello")
    assert failure.value.retry_after == 3
    await aio_bot.send_message(GROUP, "hello")
    assert [c.status for c in world.calls_to("sendMessage")] == [429, 200]
    assert [m.text for m in world.outbox()] == ["hello"]


async def test_500_then_success(aio_bot: Bot, world: BotAPIServer) -> None:
    world.fail_next("sendmessage", status=500, times=2)
    for _ in range(2):
        with pytest.raises(TelegramServerError, match="Internal Server Error"):
            await aio_bot.send_message(GROUP, "hello")
    assert (await aio_bot.send_message(GROUP, "hello")).text == "hello"


async def test_newer_long_poll_ends_older_one_with_conflict(aio_bot: Bot) -> None:
    older = asyncio.create_task(aio_bot.get_updates(timeout=5))
    await asyncio.sleep(0.1)
    newer = asyncio.create_task(aio_bot.get_updates(timeout=0))
    with pytest.raises(TelegramConflictError):
        await asyncio.wait_for(older, 2)
    assert await newer == []


# ---------------------------------------------------------------- python-telegram-bot


async def test_ptb_sends_text_photo_and_document(
    ptb_bot: telegram.Bot, world: BotAPIServer
) -> None:
    markup = telegram.InlineKeyboardMarkup(
        [[telegram.InlineKeyboardButton("Go", callback_data="go")]]
    )
    text = await ptb_bot.send_message(GROUP, "开始", reply_markup=markup)
    assert text.chat.title == "锄大地 Cup" and text.reply_markup == markup
    image = png(64, 48)
    photo = await ptb_bot.send_photo(GROUP, image, caption="table sheet", filename="t.png")
    assert (photo.photo[-1].width, photo.photo[-1].height) == (64, 48)
    document = await ptb_bot.send_document(GROUP, b"a,b\n", filename="export.csv")
    assert document.document is not None and document.document.file_name == "export.csv"
    sent = world.outbox(GROUP)
    assert [m.method for m in sent] == ["sendMessage", "sendPhoto", "sendDocument"]
    assert sent[0].button("Go")["callback_data"] == "go"
    assert (sent[1].photo, sent[1].caption) == (image, "table sheet")
    assert (sent[2].document, sent[2].filename) == (b"a,b\n", "export.csv")
    file = await ptb_bot.get_file(document.document.file_id)
    assert bytes(await file.download_as_bytearray()) == b"a,b\n"


async def test_ptb_receives_messages_callbacks_and_topics(
    ptb_bot: telegram.Bot, world: BotAPIServer
) -> None:
    markup = telegram.InlineKeyboardMarkup(
        [[telegram.InlineKeyboardButton("OK", callback_data="ok")]]
    )
    sent = await ptb_bot.send_message(GROUP, "confirm?", reply_markup=markup)
    world.user_says(FORUM, BOB, "/report 3 A5 B8 C0 D12", thread_id=7)
    query_id = world.user_presses(GROUP, ALICE, sent.message_id, "ok")
    message_update, callback_update = await ptb_bot.get_updates(timeout=1)
    message = message_update.message
    assert message is not None and message.is_topic_message and message.message_thread_id == 7
    assert message.parse_entities(["bot_command"]) != {}
    assert message.text == "/report 3 A5 B8 C0 D12"
    assert callback_update.callback_query is not None
    assert callback_update.callback_query.data == "ok"
    await callback_update.callback_query.answer("thanks", show_alert=True)
    assert world.answered_callbacks[query_id].show_alert is True


async def test_ptb_chat_administrators_and_member(ptb_bot: telegram.Bot) -> None:
    admins = await ptb_bot.get_chat_administrators(GROUP)
    assert [(a.user.id, a.status) for a in admins] == [
        (ALICE, "creator"),
        (BOB, "administrator"),
        (123456, "administrator"),
    ]
    member = await ptb_bot.get_chat_member(GROUP, CAROL)
    assert member.status == "member"


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_ptb_sees_flood_control_server_errors_and_limits(
    ptb_bot: telegram.Bot, world: BotAPIServer
) -> None:
    world.fail_next("sendMessage", status=429, retry_after=2)
    with pytest.raises(RetryAfter, match="Retry in 2"):
        await ptb_bot.send_message(GROUP, "x")
    world.fail_next("sendMessage", status=500)
    with pytest.raises(NetworkError, match="Internal Server Error"):
        await ptb_bot.send_message(GROUP, "x")
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await ptb_bot.send_message(GROUP, "x" * 4097)
    assert (await ptb_bot.send_message(GROUP, "x")).text == "x"


async def test_ptb_sees_chat_migration(ptb_bot: telegram.Bot, world: BotAPIServer) -> None:
    world.add_chat(-5001, type="group", admins=[ALICE])
    world.migrate_chat(-5001, -1005001)
    with pytest.raises(ChatMigrated) as failure:
        await ptb_bot.send_message(-5001, "hi")
    assert failure.value.new_chat_id == -1005001


async def test_ptb_long_poll_wakes_when_a_user_writes(
    ptb_bot: telegram.Bot, world: BotAPIServer
) -> None:
    poll = asyncio.create_task(ptb_bot.get_updates(timeout=10))
    await asyncio.sleep(0.2)
    assert not poll.done()
    started = time.monotonic()
    world.user_says(GROUP, CAROL, "/join")
    [update] = await asyncio.wait_for(poll, 2)
    assert time.monotonic() - started < 1
    assert update.message is not None and update.message.text == "/join"


# ---------------------------------------------------------------- protocol & test helpers


async def test_aiogram_long_poll_wakes_when_a_user_writes(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    poll = asyncio.create_task(aio_bot.get_updates(timeout=10))
    await asyncio.sleep(0.2)
    assert not poll.done()
    world.user_says(GROUP, ALICE, "/players")
    [update] = await asyncio.wait_for(poll, 2)
    assert update.message is not None and update.message.text == "/players"


async def test_long_poll_times_out_empty(world: BotAPIServer) -> None:
    started = time.monotonic()
    status, body = await raw_call(world, "getUpdates", json={"timeout": 0.3})
    assert (status, body) == (200, {"ok": True, "result": []})
    assert time.monotonic() - started >= 0.3


async def test_json_body_and_query_string_are_accepted(world: BotAPIServer) -> None:
    markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    status, body = await raw_call(
        world, "SENDMESSAGE", json={"chat_id": GROUP, "text": "json", "reply_markup": markup}
    )
    assert status == 200 and body["result"]["reply_markup"] == markup
    status, body = await raw_call(
        world, "sendMessage", http_method="GET", params={"chat_id": str(GROUP), "text": "query"}
    )
    assert status == 200 and body["result"]["text"] == "query"
    assert [c.method for c in world.calls] == ["sendMessage", "sendMessage"]
    assert world.calls[0].params["chat_id"] == GROUP


async def test_unknown_method_is_404_and_recorded(world: BotAPIServer) -> None:
    status, body = await raw_call(world, "sendDice", data={"chat_id": str(GROUP)})
    assert (status, body) == (404, {"ok": False, "error_code": 404, "description": "Not Found"})
    assert world.unknown_methods == ["sendDice"]


async def test_wrong_token_is_unauthorized(world: BotAPIServer) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{world.url}/bot999:NOPE/getMe") as response,
    ):
        assert response.status == 401
        assert (await response.json())["description"] == "Unauthorized"


async def test_wait_for_scans_after_cursor_and_sees_edits(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    first = await aio_bot.send_message(GROUP, "Round 1 open")
    await aio_bot.send_message(GROUP, "Table 1: Alice, Bob")
    assert (await world.wait_for("Table 1")).text == "Table 1: Alice, Bob"
    with pytest.raises(TimeoutError, match="no bot output matched"):
        await world.wait_for("Round 1", timeout=0.1)
    await aio_bot.edit_message_text("Round 1 closed", chat_id=GROUP, message_id=first.message_id)
    edited = await world.wait_for(lambda m: m.message_id == first.message_id)
    assert edited.text == "Round 1 closed"


async def test_wait_for_waits_for_a_later_send(aio_bot: Bot, world: BotAPIServer) -> None:
    async def later() -> None:
        await asyncio.sleep(0.2)
        await aio_bot.send_message(GROUP, "done")

    task = asyncio.create_task(later())
    assert (await world.wait_for("done", timeout=2)).text == "done"
    await task


async def test_wait_idle_waits_for_pending_updates_and_quiet(
    aio_bot: Bot, world: BotAPIServer
) -> None:
    world.user_says(GROUP, ALICE, "/join")
    with pytest.raises(TimeoutError, match="pending updates: True"):
        await world.wait_idle(quiet=0.05, timeout=0.2)
    await aio_bot.get_updates()
    started = time.monotonic()
    await world.wait_idle(quiet=0.2, timeout=2)
    assert time.monotonic() - started >= 0.15


# ---------------------------------------------------------------- full polling loops


async def test_aiogram_dispatcher_polls_and_replies(world: BotAPIServer) -> None:
    bot = Bot(BOTAPI_TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(world.url)))
    dispatcher = Dispatcher()

    @dispatcher.message(Command("join"))
    async def join(message: Message) -> None:
        await message.reply("joined")

    polling = asyncio.create_task(
        dispatcher.start_polling(bot, handle_signals=False, polling_timeout=1)
    )
    said = world.user_says(GROUP, CAROL, "/join", thread_id=None)
    reply = await world.wait_for("joined", timeout=5)
    assert reply.reply_to_message_id == said["message_id"]
    await dispatcher.stop_polling()
    await asyncio.wait_for(polling, 5)


async def test_ptb_application_polls_and_replies(world: BotAPIServer) -> None:
    application = (
        ApplicationBuilder()
        .token(BOTAPI_TOKEN)
        .base_url(world.url + "/bot")
        .base_file_url(world.url + "/file/bot")
        .build()
    )

    async def join(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("joined")

    application.add_handler(CommandHandler("join", join))
    await application.initialize()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0, timeout=1)
    await application.start()
    try:
        world.user_says(FORUM, BOB, "/join@tourbot_bot", thread_id=3)
        reply = await world.wait_for("joined", timeout=5)
        assert (reply.chat_id, reply.thread_id) == (FORUM, 3)
    finally:
        await application.updater.stop()
        await application.stop()
        await application.shutdown()


async def test_server_listens_with_nagle_off_and_a_deep_backlog(botapi: BotAPIServer) -> None:
    """Load tests must measure the bot, not the server: sockets accepted from the
    listener inherit TCP_NODELAY (an answer is two writes; with Nagle the second waits
    ~40 ms for the client's delayed ACK), and thousands of connections may queue."""
    import socket

    from playground.botapi.server import LISTEN_BACKLOG

    (listener,) = botapi.listening_sockets()
    assert listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    assert LISTEN_BACKLOG >= 1024

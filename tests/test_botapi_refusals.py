"""The local Bot API server says no as Telegram does, and both adapters read it alike.

Each behaviour of ``playground/botapi`` that refuses (a user who blocked the bot, a group
that restricts what a bot that is no admin may send, a deleted message, a closed topic,
a press answered too late, an old message's press, a proxy's HTML page, an answer lost
after delivery, a revoked token) is met through the real aiogram and PTB clients, by the
bot's own adapters: what the library raises becomes the same reading of
``bot.transport.refusals`` on both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
import pytest_asyncio

from bot.app import make_runner
from bot.application.types import (
    Incoming,
    Outgoing,
    PermanentError,
    RetryAfter,
    TransientError,
    Unauthorized,
)
from bot.config import Settings
from bot.transport import refusals
from bot.transport.refusals import Reason, Scope
from playground.botapi import BotAPIServer
from tests.conftest import BOTAPI_TOKEN
from tests.test_botapi_server import png

GROUP = -1001234567890
FORUM = -1009876543210
ADMIN, ALICE, BOB = 1001, 1002, 1003

pytestmark = pytest.mark.parametrize("backend", ["aiogram", "ptb"])


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_760_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest_asyncio.fixture
async def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture
async def server(clock: Clock) -> AsyncIterator[BotAPIServer]:
    server = BotAPIServer(token=BOTAPI_TOKEN, clock=clock)
    await server.start()
    server.add_user(ADMIN, "Org")
    server.add_user(ALICE, "Alice")
    server.add_user(BOB, "Bob")
    server.add_chat(GROUP, "Cards", admins=[ADMIN], bot_is_admin=False)
    server.add_chat(FORUM, "Club", admins=[ADMIN], is_forum=True, bot_is_admin=False)
    try:
        yield server
    finally:
        await server.stop()


@pytest_asyncio.fixture
async def runner(server: BotAPIServer, backend: str) -> AsyncIterator[Any]:
    """The bot's adapter for ``backend``, on the real library, prepared as at start-up."""
    runner = make_runner(
        Settings(bot_token=BOTAPI_TOKEN, bot_api_url=server.url, backend=backend, poll_timeout=0)
    )
    await runner.prepare()
    try:
        yield runner
    finally:
        await runner.stop()


async def refusal(runner: Any, out: Outgoing) -> PermanentError:
    with pytest.raises(PermanentError) as refused:
        await runner.transport.send(out)
    return refused.value


async def updates(runner: Any) -> list[Incoming]:
    """The updates queued so far, read as polling reads them."""
    batch = await runner.fetch(None, lambda update_id: False)
    if batch:  # confirmed, as polling confirms them
        await runner.fetch(batch[-1][0] + 1, lambda update_id: False)
    return [incoming for _, incoming in batch if incoming is not None]


async def sign_up_message(runner: Any, server: BotAPIServer) -> int:
    """A message with a Join button in the group (the bot made an admin there)."""
    server.set_bot_admin(GROUP, True)
    join = Outgoing(GROUP, "text", "sign up", buttons=[[("Join", "join:1")]])
    return (await runner.transport.send(join)).message_id


def text(chat: int, words: str = "hello", thread_id: int | None = None) -> Outgoing:
    return Outgoing(chat, "text", words, thread_id)


async def test_a_user_who_blocked_the_bot_is_gone_and_the_bot_hears_of_it(
    runner: Any, server: BotAPIServer
) -> None:
    server.user_says(ALICE, ALICE, "/start")
    server.block_bot(ALICE)
    refused = await refusal(runner, text(ALICE))
    assert "bot was blocked by the user" in str(refused)
    assert refusals.reason_of(refused) is Reason.BLOCKED
    assert refusals.scope_of(refused, ALICE) is Scope.USER
    *_, blocked = await updates(runner)  # my_chat_member: the bot is "kicked" by the user
    assert (blocked.chat_id, blocked.bot_status, blocked.chat_type) == (ALICE, "kicked", "private")

    server.block_bot(ALICE, blocked=False)
    assert (await runner.transport.send(text(ALICE))).message_id > 0
    *_, unblocked = await updates(runner)
    assert unblocked.bot_status == "member"


async def test_a_deleted_account_is_gone(runner: Any, server: BotAPIServer) -> None:
    server.user_says(BOB, BOB, "/start")
    server.deactivate_user(BOB)
    refused = await refusal(runner, text(BOB))
    assert "user is deactivated" in str(refused)
    assert refusals.reason_of(refused) is Reason.DEACTIVATED


async def test_a_user_who_never_started_the_bot_cannot_be_written_to(
    runner: Any, server: BotAPIServer
) -> None:
    refused = await refusal(runner, text(BOB))
    assert refusals.reason_of(refused) is Reason.NOT_STARTED
    assert refusals.scope_of(refused, BOB) is Scope.USER


async def test_a_group_that_lets_members_send_no_text_refuses_a_bot_that_is_no_admin(
    runner: Any, server: BotAPIServer
) -> None:
    server.restrict_chat(GROUP, text=False)
    refused = await refusal(runner, text(GROUP))
    assert "not enough rights to send text messages to the chat" in str(refused).lower()
    assert refusals.reason_of(refused) is Reason.NO_TEXT
    assert refusals.scope_of(refused, GROUP) is Scope.CHAT
    assert server.outbox(GROUP) == []

    server.set_bot_admin(GROUP, True)  # an admin is not held to the members' rights
    assert (await runner.transport.send(text(GROUP))).message_id > 0
    *_, promoted = await updates(runner)
    assert (promoted.chat_id, promoted.bot_status) == (GROUP, "administrator")


async def test_a_group_that_restricts_media_refuses_photos_and_files_but_not_text(
    runner: Any, server: BotAPIServer
) -> None:
    server.restrict_chat(GROUP, media=False)
    photo = Outgoing(GROUP, "photo", "standings", file=png(4, 4), filename="s.png")
    refused = await refusal(runner, photo)
    assert "not enough rights to send photos to the chat" in str(refused).lower()
    assert refusals.reason_of(refused) is Reason.NO_MEDIA
    document = Outgoing(GROUP, "document", "csv", file=b"a,b\n", filename="x.csv")
    assert refusals.reason_of(await refusal(runner, document)) is Reason.NO_MEDIA
    assert (await runner.transport.send(text(GROUP, "standings"))).message_id > 0
    assert [m.body for m in server.outbox(GROUP)] == ["standings"]


async def test_a_group_that_allows_no_reactions_refuses_them(
    runner: Any, server: BotAPIServer
) -> None:
    said = server.user_says(GROUP, ALICE, "/join")
    server.restrict_chat(GROUP, reactions=False)
    react = Outgoing(GROUP, "react", "👍", edit_message_id=said["message_id"])
    refused = await refusal(runner, react)
    assert "REACTION_INVALID" in str(refused).upper()  # PTB: "Reaction_invalid"
    assert refusals.reason_of(refused) is Reason.REACTION
    assert server.reactions == {}


async def test_an_edit_or_pin_of_a_deleted_message_finds_nothing(
    runner: Any, server: BotAPIServer
) -> None:
    server.set_bot_admin(GROUP, True)
    message_id = (await runner.transport.send(text(GROUP, "live standings"))).message_id
    server.delete_message(GROUP, message_id)
    edit = Outgoing(GROUP, "edit", "live standings, updated", edit_message_id=message_id)
    refused = await refusal(runner, edit)
    assert "message to edit not found" in str(refused).lower()
    assert refusals.reason_of(refused) is Reason.MESSAGE_GONE
    with pytest.raises(PermanentError) as pin:
        await runner.transport.pin(GROUP, message_id)
    assert refusals.reason_of(pin.value) is Reason.MESSAGE_GONE


async def test_a_closed_topic_refuses_a_bot_that_is_no_admin(
    runner: Any, server: BotAPIServer
) -> None:
    server.user_says(FORUM, ALICE, "/new bigtwo", thread_id=7)
    server.close_topic(FORUM, 7)
    refused = await refusal(runner, text(FORUM, thread_id=7))
    assert "TOPIC_CLOSED" in str(refused).upper()
    assert refusals.reason_of(refused) is Reason.TOPIC_CLOSED
    assert (
        await runner.transport.send(text(FORUM))
    ).message_id > 0  # the rest of the group is open
    server.close_topic(FORUM, 7, closed=False)
    assert (await runner.transport.send(text(FORUM, thread_id=7))).message_id > 0


async def test_a_press_answered_after_fifteen_seconds_is_too_old(
    runner: Any, server: BotAPIServer, clock: Clock
) -> None:
    message_id = await sign_up_message(runner, server)
    late = server.user_presses(GROUP, ALICE, message_id, "join:1")
    in_time = server.user_presses(GROUP, BOB, message_id, "join:1")
    clock.now += 14
    await runner.transport.answer_callback(in_time, "✅")
    clock.now += 2
    with pytest.raises(PermanentError) as refused:
        await runner.transport.answer_callback(late, "✅")
    assert "query is too old" in str(refused.value).lower()
    assert refusals.reason_of(refused.value) is Reason.EXPIRED
    assert list(server.answered_callbacks) == [in_time]


async def test_a_press_on_an_old_message_carries_an_inaccessible_message_and_is_read(
    runner: Any, server: BotAPIServer, clock: Clock
) -> None:
    message_id = await sign_up_message(runner, server)
    await updates(runner)
    clock.now += 2 * 86400  # two days later
    query_id = server.user_presses(GROUP, ALICE, message_id, "join:1")
    (pressed,) = await updates(runner)
    assert (pressed.chat_id, pressed.message_id, pressed.callback_id) == (
        GROUP,
        message_id,
        query_id,
    )
    assert (pressed.callback_data, pressed.sender.id, pressed.thread_id) == ("join:1", ALICE, None)
    raw = server.calls_to("getUpdates")[-1]
    assert raw.status == 200
    await runner.transport.answer_callback(query_id, "✅")  # a fresh press: in time


async def test_a_proxys_html_error_page_is_transient(runner: Any, server: BotAPIServer) -> None:
    server.set_bot_admin(GROUP, True)
    server.fail_next("sendMessage", status=502, html=True)
    with pytest.raises(TransientError):
        await runner.transport.send(text(GROUP))
    server.fail_next("sendPhoto", status=502, html=True)
    with pytest.raises(TransientError):
        await runner.transport.send(Outgoing(GROUP, "photo", "", file=png(4, 4), filename="p.png"))
    assert server.outbox(GROUP) == []
    assert (await runner.transport.send(text(GROUP))).message_id > 0


async def test_an_answer_lost_after_delivery_looks_like_a_failure(
    runner: Any, server: BotAPIServer
) -> None:
    server.set_bot_admin(GROUP, True)
    server.fail_next("sendMessage", status=502, delivered=True)
    with pytest.raises(TransientError):
        await runner.transport.send(text(GROUP, "round 1 is open"))
    assert [m.body for m in server.outbox(GROUP)] == ["round 1 is open"]  # it went out


async def test_a_revoked_token_is_unauthorized_not_a_refusal(
    runner: Any, server: BotAPIServer
) -> None:
    server.set_bot_admin(GROUP, True)
    server.token = "123456:REVOKED"
    with pytest.raises(Unauthorized):
        await runner.transport.send(text(GROUP))
    with pytest.raises(Unauthorized):
        await runner.transport.send(Outgoing(GROUP, "photo", "", file=png(4, 4), filename="p.png"))
    with pytest.raises(Unauthorized):
        await runner.transport.chat_admins(GROUP)


async def test_flood_control_and_a_migrated_group_are_read_alike(
    runner: Any, server: BotAPIServer
) -> None:
    server.set_bot_admin(GROUP, True)
    server.fail_next("sendMessage", status=429, retry_after=3)
    with pytest.raises(RetryAfter) as flood:
        await runner.transport.send(text(GROUP))
    assert flood.value.seconds == 3
    server.migrate_chat(GROUP, -1005550001)
    moved = await refusal(runner, text(GROUP))
    assert (refusals.reason_of(moved), moved.migrate_to) == (Reason.MIGRATED, -1005550001)


@pytest.mark.parametrize(
    ("description", "reason"),
    [
        ("Bad Request: not enough rights to send text messages to the chat", Reason.NO_TEXT),
        ("Not enough rights to send photos to the chat", Reason.NO_MEDIA),  # PTB's spelling
        ("Bad Request: not enough rights to send documents to the chat", Reason.NO_MEDIA),
        ("Bad Request: CHAT_WRITE_FORBIDDEN", Reason.NO_TEXT),
        ("Bad Request: have no rights to send a message", Reason.NO_TEXT),
        ("Bad Request: TOPIC_CLOSED", Reason.TOPIC_CLOSED),
        ("Bad Request: not enough rights to manage pinned messages in the chat", Reason.NO_PIN),
        ("Forbidden: bot was kicked from the supergroup chat", Reason.REMOVED),
        ("Forbidden: bot is not a member of the supergroup chat", Reason.REMOVED),
        ("Bad Request: message can't be edited", Reason.MESSAGE_GONE),
        ("Message is not modified: specified new message content …", Reason.UNCHANGED),
        ("Bad Request: can't parse entities: unclosed tag", Reason.INVALID),
    ],
)
def test_descriptions_in_both_libraries_spellings_are_read(
    backend: str, description: str, reason: Reason
) -> None:
    """aiogram keeps "Bad Request: …"; PTB drops it and capitalises what is left."""
    spelt = description if backend == "aiogram" else description.removeprefix("Bad Request: ")
    said = refusals.error(400, spelt)
    assert isinstance(said, PermanentError) and refusals.reason_of(said) is reason


async def test_a_picture_or_a_file_goes_again_by_the_file_id_its_first_sending_gave(
    runner: Any, server: BotAPIServer
) -> None:
    """As Telegram does: the id answered for a photo or a document sends it again without
    its bytes (a document under its name); an id it never gave, or a photo's id as a
    document, is refused, and the refusal read as one of a message."""
    server.set_bot_admin(GROUP, True)
    picture, table = png(4, 4), b"round,table\n1,1\n"
    photo = await runner.transport.send(
        Outgoing(GROUP, "photo", "1", file=picture, filename="s.png")
    )
    csv = await runner.transport.send(
        Outgoing(GROUP, "document", "2", file=table, filename="event.csv")
    )
    assert photo.file_id and csv.file_id and photo.file_id != csv.file_id

    again = await runner.transport.send(Outgoing(GROUP, "photo", "3", file_id=photo.file_id))
    csv_again = await runner.transport.send(Outgoing(GROUP, "document", "4", file_id=csv.file_id))

    assert again.file_id == photo.file_id and csv_again.file_id == csv.file_id
    sent = {m.body: m for m in server.outbox(GROUP)}
    assert sent["3"].photo == picture
    assert (sent["4"].document, sent["4"].filename) == (table, "event.csv")
    edited = Outgoing(GROUP, "edit_media", "7", edit_message_id=again.message_id)
    newer = await runner.transport.send(replace(edited, file=png(5, 5), filename="t.png"))
    assert await runner.transport.send(replace(edited, file_id=photo.file_id)) == again
    assert newer.file_id not in (None, photo.file_id) and sent["3"].photo == picture
    for wrong in (
        Outgoing(GROUP, "photo", "5", file_id="AgACAgIAAxkBAAnever"),
        Outgoing(GROUP, "document", "6", file_id=photo.file_id),
    ):
        refused = await refusal(runner, wrong)
        assert refusals.reason_of(refused) is Reason.INVALID

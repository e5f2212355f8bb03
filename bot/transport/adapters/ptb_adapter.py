"""python-telegram-bot 22 adapter: the same translation as the aiogram one."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    ChatMemberAdministrator,
    ChatMemberOwner,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    TelegramError,
)
from telegram.error import RetryAfter as PTBRetryAfter
from telegram.warnings import PTBUserWarning

from bot.application.types import (
    Buttons,
    Delivered,
    Incoming,
    Outgoing,
    PermanentError,
    StartupError,
)
from bot.config import Settings
from bot.transport import refusals
from bot.transport.adapters.convert import (
    callback_incoming,
    delivered,
    member_incoming,
    message_incoming,
)
from bot.transport.adapters.plain import markup, message_id_of, plain_call
from bot.transport.polling import decode_batch, poll_forever

# getUpdates goes through do_api_request so that the answer stays plain JSON and each
# update is decoded alone (bot.transport.polling.decode_batch), and so do the plain messages
# (bot.transport.adapters.plain); PTB warns that it has typed calls for them, on every call.
warnings.filterwarnings(
    "ignore", r"Please use 'Bot\.\w+' instead of 'Bot\.do_api_request", PTBUserWarning
)

# chat_member must be asked for by name: an admin's promotion or demotion drops the
# chat's cached admins (docs/operations.md#outages).
UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]


def _markup(buttons: Buttons | None) -> InlineKeyboardMarkup | None:
    keyboard = markup(buttons)
    return InlineKeyboardMarkup.de_json(keyboard, None) if keyboard else None


def update_incoming(update: Update) -> Incoming | None:
    if update.message is not None:
        return message_incoming(update.update_id, update.message)
    query = update.callback_query
    if query is not None and query.message is not None:  # an InaccessibleMessage too
        return callback_incoming(update.update_id, query, isinstance(query.message, Message))
    if update.my_chat_member is not None:
        return member_incoming(update.update_id, update.my_chat_member, mine=True)
    if update.chat_member is not None:
        return member_incoming(update.update_id, update.chat_member)
    return None


def _seconds(value: int | float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


# The HTTP status behind each of PTB's errors. PTB calls a 5xx (and a proxy's HTML page)
# a NetworkError, as it does a lost connection; an answer that is no JSON at all is a
# bare TelegramError ("Invalid server response"): both transient.
STATUS: tuple[tuple[type[TelegramError], int], ...] = (
    (Forbidden, 403),
    (InvalidToken, 401),  # 401, and 404 for a malformed token
    (BadRequest, 400),  # before NetworkError, of which it is a kind
    (Conflict, 409),
)


@contextlib.asynccontextmanager
async def said_no() -> AsyncIterator[None]:
    """PTB's errors as Telegram gave them, read by ``bot.transport.refusals``."""
    try:
        yield
    except PTBRetryAfter as exc:
        raise refusals.error(429, exc.message, retry_after=_seconds(exc.retry_after)) from exc
    except ChatMigrated as exc:
        raise refusals.error(400, exc.message, migrate_to=exc.new_chat_id) from exc
    except EndPointNotFound as exc:  # a plain call's 401 or 404, once the bot is started
        cause = exc.__cause__
        token = isinstance(cause, InvalidToken) and "nauthorized" in str(cause)
        raise refusals.error(401 if token else 404, exc.message) from exc
    except TelegramError as exc:
        said = next((status for kind, status in STATUS if isinstance(exc, kind)), None)
        raise refusals.error(said, exc.message) from exc


def _file(m: Outgoing) -> bytes | str:
    """The picture or file: by the id Telegram gave it when it has one, else uploaded."""
    if m.file_id and not m.file:
        return m.file_id
    return m.file or b""


class PTBTransport:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.bot_username = ""

    async def send(self, m: Outgoing) -> Delivered:
        async with said_no():
            call = plain_call(m)
            if call is not None:
                return message_id_of(await self.bot.do_api_request(*call), m)
            return await self._typed(m)

    async def _typed(self, m: Outgoing) -> Delivered:
        """Pictures, files and caption edits, through PTB's typed calls."""
        markup = _markup(m.buttons)
        if m.kind in ("photo", "document"):
            send = self.bot.send_photo if m.kind == "photo" else self.bot.send_document
            msg = await send(
                m.chat_id,
                _file(m),
                caption=m.text or None,
                message_thread_id=m.thread_id,
                reply_markup=markup,
                filename=m.filename,
            )
        elif m.kind == "edit_caption":
            edited = await self.bot.edit_message_caption(
                chat_id=m.chat_id,
                message_id=m.edit_message_id,
                caption=m.text,
                reply_markup=markup,
            )
            if isinstance(edited, Message):
                return delivered(edited)
            return Delivered(m.edit_message_id or 0)
        elif m.kind == "edit_media":
            edited = await self.bot.edit_message_media(
                InputMediaPhoto(_file(m), caption=m.text or None, filename=m.filename),
                chat_id=m.chat_id,
                message_id=m.edit_message_id,
                reply_markup=markup,
            )
            if isinstance(edited, Message):
                return delivered(edited)
            return Delivered(m.edit_message_id or 0)
        else:
            raise PermanentError(f"no way to send a message of kind {m.kind!r}")
        return delivered(msg)

    async def answer_callback(self, callback_id: str, text: str, alert: bool = False) -> None:
        async with said_no():
            await self.bot.answer_callback_query(callback_id, text=text or None, show_alert=alert)

    async def chat_admins(self, chat_id: int) -> set[int]:
        async with said_no():
            admins = await self.bot.get_chat_administrators(chat_id)
        return {member.user.id for member in admins}

    async def pin(self, chat_id: int, message_id: int) -> None:
        async with said_no():
            await self.bot.pin_chat_message(chat_id, message_id, disable_notification=True)

    async def can_pin(self, chat_id: int) -> bool:
        if chat_id > 0:  # a private chat
            return True
        async with said_no():
            member = await self.bot.get_chat_member(chat_id, self.bot.id)
        if isinstance(member, ChatMemberOwner):
            return True
        return isinstance(member, ChatMemberAdministrator) and bool(member.can_pin_messages)

    async def set_commands(self, commands: list[tuple[str, str]], language: str | None) -> None:
        await self.bot.set_my_commands(
            [BotCommand(name, text) for name, text in commands], language_code=language
        )


class PTBRunner:
    """Long polling with PTB's ``Bot``; see ``bot.transport.polling`` for why not its Updater."""

    def __init__(self, settings: Settings) -> None:
        base = settings.bot_api_url
        self.bot = Bot(settings.bot_token, base_url=f"{base}/bot", base_file_url=f"{base}/file/bot")
        self.transport = PTBTransport(self.bot)
        self.settings = settings

    async def prepare(self) -> None:
        try:
            await self.bot.initialize()
        except InvalidToken as exc:
            raise StartupError("token", str(exc)) from exc
        except NetworkError as exc:
            raise StartupError("unreachable", str(exc)) from exc
        self.transport.bot_username = self.bot.username or ""

    async def fetch(
        self, offset: int | None, in_hand: Callable[[int], bool]
    ) -> list[tuple[int, Incoming | None]]:
        raw = await self.bot.do_api_request(
            "getUpdates",
            {"offset": offset, "timeout": self.settings.poll_timeout, "allowed_updates": UPDATES},
            read_timeout=self.settings.poll_timeout + 10,
        )
        return decode_batch(raw, self._decode, in_hand)

    def _decode(self, raw: dict[str, Any]) -> Incoming | None:
        update = Update.de_json(raw, self.bot)
        return update_incoming(update) if update is not None else None

    def incoming(self, raw: dict[str, Any]) -> Incoming | None:
        """A webhook's raw update (scale-out workers), read as polling would read it."""
        return update_incoming(Update.de_json(raw, self.bot))

    async def poll(self, handle: Callable[[list[Incoming]], Awaitable[None]]) -> None:
        await poll_forever(self.fetch, handle)

    async def stop(self) -> None:
        await self.bot.shutdown()

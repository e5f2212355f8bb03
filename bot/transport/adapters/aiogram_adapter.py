"""aiogram 3 adapter: its updates become :class:`Incoming`, our messages its calls."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from http import HTTPStatus
from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramConflictError,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import TelegramMethod
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    ChatMemberAdministrator,
    ChatMemberOwner,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from aiohttp import ClientError, ClientTimeout

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

# chat_member must be asked for by name: an admin's promotion or demotion drops the
# chat's cached admins (docs/operations.md#outages).
UPDATES = ["message", "callback_query", "my_chat_member", "chat_member"]
JSON_BODY = {"Content-Type": "application/json"}
# The HTTP status behind each of aiogram's errors (it keeps Telegram's description as is).
STATUS = {
    TelegramBadRequest: 400,
    TelegramUnauthorizedError: 401,
    TelegramForbiddenError: 403,
    TelegramNotFound: 404,
    TelegramConflictError: 409,
    TelegramEntityTooLarge: 413,
    TelegramServerError: 500,
}


@contextlib.asynccontextmanager
async def said_no() -> AsyncIterator[None]:
    """aiogram's errors as Telegram gave them, read by ``bot.transport.refusals``: a
    proxy's HTML page (``ClientDecodeError``), a lost connection and a timeout are
    transient like a 5xx."""
    try:
        yield
    except TelegramRetryAfter as exc:
        raise refusals.error(429, exc.message, retry_after=exc.retry_after) from exc
    except TelegramMigrateToChat as exc:
        raise refusals.error(400, exc.message, migrate_to=exc.migrate_to_chat_id) from exc
    except TelegramAPIError as exc:
        raise refusals.error(STATUS.get(type(exc)), exc.message) from exc
    except (TimeoutError, ClientError, ClientDecodeError) as exc:
        raise refusals.error(None, str(exc)) from exc


def _markup(buttons: Buttons | None) -> InlineKeyboardMarkup | None:
    keyboard = markup(buttons)
    return InlineKeyboardMarkup.model_validate(keyboard) if keyboard else None


def _file(m: Outgoing, name: str) -> BufferedInputFile | str:
    """The picture or file: by the id Telegram gave it when it has one, else uploaded."""
    if m.file_id and not m.file:
        return m.file_id
    return BufferedInputFile(m.file or b"", m.filename or name)


class AiogramTransport:
    def __init__(self, bot: Bot, session: AiohttpSession) -> None:
        self.bot = bot
        self.session = session  # the bot's, for plain calls
        self.bot_username = ""

    async def send(self, m: Outgoing) -> Delivered:
        async with said_no():
            call = plain_call(m)
            if call is not None:
                return message_id_of(await self.plain(*call), m)
            return await self._typed(m)

    async def plain(self, method: str, params: dict[str, Any], timeout: float | None = None) -> Any:
        """One call as a JSON body on aiogram's own HTTP session, its answer left as JSON
        (``bot.transport.adapters.plain``). A refusal is read by aiogram's ``check_response``, so
        the errors are a typed call's; an answer that is ``ok`` is only decoded (read
        into aiogram's response model, it cost a fifth of sending a message)."""
        session = self.session
        http = await session.create_session()
        async with http.post(
            session.api.api_url(token=self.bot.token, method=method),
            data=session.json_dumps(params),
            headers=JSON_BODY,
            timeout=ClientTimeout(total=timeout or session.timeout),
        ) as response:
            content = await response.text()
        if response.status == HTTPStatus.OK:
            with contextlib.suppress(ValueError):
                answer = session.json_loads(content)
                if isinstance(answer, dict) and answer.get("ok") is True:
                    return answer.get("result")
        return session.check_response(self.bot, PlainCall(), response.status, content).result

    async def _typed(self, m: Outgoing) -> Delivered:
        """Pictures, files and caption edits, through aiogram's typed calls."""
        markup = _markup(m.buttons)
        if m.kind in ("photo", "document"):
            photo = m.kind == "photo"
            send = self.bot.send_photo if photo else self.bot.send_document
            msg = await send(
                m.chat_id,
                _file(m, "picture.png" if photo else "file"),
                caption=m.text or None,
                message_thread_id=m.thread_id,
                reply_markup=markup,
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
                InputMediaPhoto(media=_file(m, "picture.png"), caption=m.text or None),
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
            [BotCommand(command=name, description=text) for name, text in commands],
            language_code=language,
        )


class PlainCall(TelegramMethod[Any]):
    """What aiogram's ``check_response`` needs to read a plain call's answer: keep the
    result as JSON. (Its errors name no method; their description says what went wrong.)"""

    __returning__ = Any
    __api_method__ = "plain"


class AiogramRunner:
    """Long polling with aiogram's client; see ``bot.transport.polling`` for why not its
    Dispatcher."""

    def __init__(self, settings: Settings) -> None:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.bot_api_url))
        self.bot = Bot(settings.bot_token, session=session)
        self.transport = AiogramTransport(self.bot, session)
        self.settings = settings

    async def prepare(self) -> None:
        try:
            me = await self.bot.get_me()
        except TelegramUnauthorizedError as exc:
            raise StartupError("token", str(exc)) from exc
        except (TelegramNetworkError, TelegramServerError) as exc:
            raise StartupError("unreachable", str(exc)) from exc
        self.transport.bot_username = me.username or ""

    async def fetch(
        self, offset: int | None, in_hand: Callable[[int], bool]
    ) -> list[tuple[int, Incoming | None]]:
        timeout = self.settings.poll_timeout
        params: dict[str, Any] = {"timeout": timeout, "allowed_updates": UPDATES}
        if offset is not None:
            params["offset"] = offset
        raw = await self.transport.plain("getUpdates", params, timeout=timeout + 10)
        return decode_batch(raw, self._decode, in_hand)

    def _decode(self, raw: dict[str, Any]) -> Incoming | None:
        return update_incoming(Update.model_validate(raw, context={"bot": self.bot}))

    def incoming(self, raw: dict[str, Any]) -> Incoming | None:
        """A webhook's raw update (scale-out workers), read as polling would read it."""
        return update_incoming(Update.model_validate(raw, context={"bot": self.bot}))

    async def poll(self, handle: Callable[[list[Incoming]], Awaitable[None]]) -> None:
        await poll_forever(self.fetch, handle)

    async def stop(self) -> None:
        await self.bot.session.close()


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

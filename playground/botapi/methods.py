"""The Bot API methods the fake server answers, one coroutine per method.

Each takes the decoded parameters and uploaded files and returns the ``result`` to send,
or raises :class:`~playground.botapi.wire.ApiError` with Telegram's own description. Limits
and refusals follow the Bot API manual (https://core.telegram.org/bots/api).
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from playground.botapi.outbox import Outbox
from playground.botapi.records import JSON, CallbackAnswer, Edit, SentMessage, Upload
from playground.botapi.updates import UpdateQueue
from playground.botapi.wire import (
    LOCAL_OR_HTTPS,
    bad_request,
    check_reply_markup,
    image_size,
    utf16_len,
    visible_text,
)
from playground.botapi.world import Chat, World, without_reply

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_ANSWER_LIMIT = 200
# Seconds Telegram waits for a button press to be answered; later answers are refused.
CALLBACK_ANSWER_WINDOW = 15.0
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
_UNSET: Any = object()

Handler = Callable[[JSON, dict[str, Upload]], Awaitable[Any]]


@dataclass(frozen=True)
class StoredFile:
    """An uploaded file, served again by ``getFile`` and ``/file/bot<token>/<path>``, and
    sent again by its ``file_id`` as what it was uploaded as (``kind``: photo, document),
    a document under the name it was uploaded with."""

    file_id: str
    unique_id: str
    path: str
    data: bytes
    kind: str = "document"
    name: str = ""


class BotMethods:
    """Telegram's side of every supported method except ``getUpdates`` (see the server)."""

    def __init__(self, world: World, updates: UpdateQueue, outbox: Outbox) -> None:
        self.world = world
        self.updates = updates
        self.outbox = outbox
        self.files: dict[str, StoredFile] = {}
        self.open_callbacks: dict[str, float] = {}  # query id -> when it was pressed
        self.answered_callbacks: dict[str, CallbackAnswer] = {}
        # (chat id, message id) -> the bot's reaction emoji on that message
        self.reactions: dict[tuple[int, int], list[str]] = {}
        self.my_commands: dict[tuple[str, str], list[JSON]] = {}
        self.webhook: JSON = {}  # what setWebhook set: url, secret_token, allowed_updates
        self._file_numbers = itertools.count(1)

    def table(self) -> dict[str, Handler]:
        """Handlers by Telegram's spelling of the method name."""
        return {
            "getMe": self._get_me,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "sendMessage": self._send_message,
            "sendPhoto": self._send_photo,
            "sendDocument": self._send_document,
            "sendChatAction": self._send_chat_action,
            "editMessageText": self._edit_message_text,
            "editMessageCaption": self._edit_message_caption,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "editMessageMedia": self._edit_message_media,
            "deleteMessage": self._delete_message,
            "pinChatMessage": self._pin_chat_message,
            "setMessageReaction": self._set_message_reaction,
            "answerCallbackQuery": self._answer_callback_query,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "getFile": self._get_file,
        }

    async def _get_me(self, params: JSON, files: dict[str, Upload]) -> JSON:
        return {
            **self.world.bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.world.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _set_webhook(self, params: JSON, files: dict[str, Upload]) -> bool:
        url = str(params.get("url") or "")
        if url and not url.startswith(LOCAL_OR_HTTPS):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = dict(params) if url else {}
        return True

    async def _delete_webhook(self, params: JSON, files: dict[str, Upload]) -> bool:
        self.webhook = {}
        if params.get("drop_pending_updates"):
            self.updates.drop_all()
        return True

    async def _get_webhook_info(self, params: JSON, files: dict[str, Upload]) -> JSON:
        return {
            "url": self.webhook.get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self.updates),
        }

    async def _set_my_commands(self, params: JSON, files: dict[str, Upload]) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise bad_request("commands is empty")
        for command in commands:
            name = str(command.get("command", "")) if isinstance(command, dict) else ""
            if not (1 <= len(name) <= 32 and name.replace("_", "").isalnum() and name.islower()):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.my_commands[self._commands_key(params)] = commands
        return True

    async def _get_my_commands(self, params: JSON, files: dict[str, Upload]) -> list[JSON]:
        return self.my_commands.get(self._commands_key(params), [])

    @staticmethod
    def _commands_key(params: JSON) -> tuple[str, str]:
        """``("default", "")``, ``("all_group_chats", "zh")``, ``("chat:-100123", "en")``…"""
        scope = params.get("scope") or {"type": "default"}
        key = str(scope.get("type", "default"))
        if "chat_id" in scope:
            key += f":{scope['chat_id']}"
        return key, str(params.get("language_code") or "")

    async def _send_message(self, params: JSON, files: dict[str, Upload]) -> JSON:
        chat = self.world.target_chat(params.get("chat_id"))
        raw, text = self._text(params)
        message, sent = self._bot_message(chat, "sendMessage", params, "can_send_messages")
        message["text"] = text
        sent.text, sent.sent_text = text, raw
        return self._publish(chat, message, sent)

    async def _send_photo(self, params: JSON, files: dict[str, Upload]) -> JSON:
        chat = self.world.target_chat(params.get("chat_id"))
        caption = self._caption(params)
        stored, _ = self._input_file(params, files, "photo")
        message, sent = self._bot_message(chat, "sendPhoto", params, "can_send_photos")
        message["photo"] = photo_sizes(stored)
        sent.photo = stored.data
        self._set_caption(message, sent, caption, params)
        return self._publish(chat, message, sent)

    async def _edit_message_media(self, params: JSON, files: dict[str, Upload]) -> JSON:
        """A photo message's picture (and caption) replaced; other media are not supported."""
        message, sent = self._editable(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise bad_request("media type is not supported by the test server")
        if "photo" not in message:
            raise bad_request("there is no media in the message to edit")
        self.world.check_send(self.world.chats[sent.chat_id], "can_send_photos", None)
        stored, _ = self._input_file({"photo": media.get("media")}, files, "photo")
        message["photo"] = photo_sizes(stored)
        sent.photo = stored.data
        caption = media.get("caption")
        if caption is not None and utf16_len(str(caption)) > CAPTION_LIMIT:
            raise bad_request("message caption is too long")
        markup = params.get("reply_markup")
        if markup is not None:
            check_reply_markup(markup, private=sent.chat_id > 0)
        inline = markup if markup and "inline_keyboard" in markup else None
        for key, value in (("caption", caption), ("reply_markup", inline)):
            if value is None:
                message.pop(key, None)
            else:
                message[key] = value
        message["edit_date"] = int(self.world.clock())
        sent.caption, sent.reply_markup = caption, inline
        sent.edits.append(Edit("editMessageMedia", sent.text, caption, inline))
        self.outbox.output(sent)
        return message

    async def _send_document(self, params: JSON, files: dict[str, Upload]) -> JSON:
        chat = self.world.target_chat(params.get("chat_id"))
        caption = self._caption(params)
        stored, upload = self._input_file(params, files, "document")
        filename = (
            (upload.filename if upload else None) or stored.name or stored.path.rsplit("/")[-1]
        )
        message, sent = self._bot_message(chat, "sendDocument", params, "can_send_documents")
        message["document"] = {
            "file_id": stored.file_id,
            "file_unique_id": stored.unique_id,
            "file_name": filename,
            "mime_type": (upload.content_type if upload else None) or "application/octet-stream",
            "file_size": len(stored.data),
        }
        sent.document, sent.filename = stored.data, filename
        self._set_caption(message, sent, caption, params)
        return self._publish(chat, message, sent)

    async def _send_chat_action(self, params: JSON, files: dict[str, Upload]) -> bool:
        self.world.target_chat(params.get("chat_id"))
        return True

    def _bot_message(
        self, chat: Chat, method: str, params: JSON, right: str
    ) -> tuple[JSON, SentMessage]:
        """Validate what every send shares (markup, topic, the member ``right`` it needs,
        reply), then allocate an id."""
        markup = params.get("reply_markup")
        if markup is not None:
            check_reply_markup(markup, private=chat.type == "private")
        thread_id = params.get("message_thread_id")
        if thread_id is not None and chat.is_forum and thread_id not in chat.topics:
            raise bad_request("message thread not found")
        self.world.check_send(chat, right, thread_id)
        reply_to = self._reply_target(chat, params)
        message = self.world.new_message(chat, thread_id)
        message["from"] = self.world.bot_user()
        if reply_to is not None:
            message["reply_to_message"] = without_reply(chat.messages[reply_to])
        if markup and "inline_keyboard" in markup:
            message["reply_markup"] = markup
        sent = SentMessage(
            method=method,
            chat_id=chat.id,
            message_id=message["message_id"],
            reply_markup=markup,
            thread_id=thread_id,
            parse_mode=params.get("parse_mode"),
            reply_to_message_id=reply_to,
        )
        return message, sent

    def _publish(self, chat: Chat, message: JSON, sent: SentMessage) -> JSON:
        chat.messages[sent.message_id] = message
        self.outbox.add(sent)
        return message

    def _reply_target(self, chat: Chat, params: JSON) -> int | None:
        reply = params.get("reply_parameters") or {}
        target = reply.get("message_id", params.get("reply_to_message_id"))
        if target is None or int(target) in chat.messages:
            return None if target is None else int(target)
        if reply.get("allow_sending_without_reply") or params.get("allow_sending_without_reply"):
            return None
        raise bad_request("message to be replied not found")

    @staticmethod
    def _text(params: JSON) -> tuple[str, str]:
        """The text as sent and as users read it, within Telegram's 1-4096 characters."""
        raw = str(params.get("text") or "")
        text = visible_text(raw, params.get("parse_mode"))
        if not text.strip():
            raise bad_request("message text is empty")
        if utf16_len(text) > TEXT_LIMIT:
            raise bad_request("message is too long")
        return raw, text

    def _caption(self, params: JSON) -> str | None:
        caption = params.get("caption")
        if caption is None:
            return None
        text = visible_text(str(caption), params.get("parse_mode"))
        if utf16_len(text) > CAPTION_LIMIT:
            raise bad_request("message caption is too long")
        return text

    @staticmethod
    def _set_caption(message: JSON, sent: SentMessage, caption: str | None, params: JSON) -> None:
        if caption:
            message["caption"] = caption
            sent.caption = caption
            sent.sent_text = str(params.get("caption"))

    def _input_file(
        self, params: JSON, files: dict[str, Upload], name: str
    ) -> tuple[StoredFile, Upload | None]:
        """Find the file: ``attach://part`` (aiogram), a part named ``name`` (PTB) or a file_id."""
        value = params.get(name)
        upload: Upload | None = None
        if isinstance(value, str) and value.startswith("attach://"):
            upload = files.get(value.removeprefix("attach://"))
        elif value is None:
            upload = files.get(name)
        elif isinstance(value, str):  # a file id (Telegram's own files; no URLs here)
            return self._by_id(value, name), None
        if upload is None:
            raise bad_request(f"there is no {name} in the request")
        if not upload.data:
            raise bad_request("file must be non-empty")
        number = next(self._file_numbers)
        filename = upload.filename or ""
        suffix = filename.rpartition(".")[2] if "." in filename else "bin"
        stored = StoredFile(
            file_id=f"BQACAgI{number:08d}{name}",
            unique_id=f"AgAD{number:06d}",
            path=f"{name}s/file_{number}.{suffix}",
            data=upload.data,
            kind=name,
            name=filename,
        )
        self.files[stored.file_id] = stored
        return stored, upload

    def _by_id(self, file_id: str, kind: str) -> StoredFile:
        """A file sent again by its id, as Telegram takes one: an id it gave, for a
        file of the same kind (a photo's id does not send a document)."""
        stored = self._stored(file_id)
        if stored is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        if stored.kind != kind:
            raise bad_request(f"can't use file of type {stored.kind.title()} as {kind.title()}")
        return stored

    def _stored(self, file_id: str) -> StoredFile | None:
        """An uploaded file by id; a photo's thumbnail id (``…_s``) serves the full file."""
        return self.files.get(file_id.removesuffix("_s"))

    async def _get_file(self, params: JSON, files: dict[str, Upload]) -> JSON:
        stored = self._stored(str(params.get("file_id", "")))
        if stored is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.unique_id,
            "file_size": len(stored.data),
            "file_path": stored.path,
        }

    async def _edit_message_text(self, params: JSON, files: dict[str, Upload]) -> JSON:
        message, sent = self._editable(params)
        if "text" not in message:
            raise bad_request("there is no text in the message to edit")
        raw, text = self._text(params)
        return self._apply_edit("editMessageText", message, sent, params, text=text, raw=raw)

    async def _edit_message_caption(self, params: JSON, files: dict[str, Upload]) -> JSON:
        message, sent = self._editable(params)
        if "text" in message:
            raise bad_request("there is no caption in the message to edit")
        caption = self._caption(params)
        return self._apply_edit("editMessageCaption", message, sent, params, caption=caption)

    async def _edit_message_reply_markup(self, params: JSON, files: dict[str, Upload]) -> JSON:
        message, sent = self._editable(params)
        return self._apply_edit("editMessageReplyMarkup", message, sent, params)

    def _editable(self, params: JSON) -> tuple[JSON, SentMessage]:
        if "inline_message_id" in params:
            raise bad_request("inline messages are not supported by the test server")
        chat = self.world.target_chat(params.get("chat_id"))
        message_id = params.get("message_id")
        message = chat.messages.get(message_id) if isinstance(message_id, int) else None
        if message is None:
            raise bad_request("message to edit not found")
        sent = self.outbox.get(chat.id, message["message_id"])
        if sent is None:
            raise bad_request("message can't be edited")
        return message, sent

    def _apply_edit(
        self,
        method: str,
        message: JSON,
        sent: SentMessage,
        params: JSON,
        *,
        text: str = _UNSET,
        raw: str = _UNSET,
        caption: str | None = _UNSET,
    ) -> JSON:
        """Apply one edit; like Telegram, an edit without ``reply_markup`` drops the keyboard."""
        markup = params.get("reply_markup")
        if markup is not None:
            check_reply_markup(markup, private=sent.chat_id > 0)
        inline = markup if markup and "inline_keyboard" in markup else None
        new_text = message.get("text") if text is _UNSET else text
        new_caption = message.get("caption") if caption is _UNSET else caption
        if (new_text, new_caption, inline) == (
            message.get("text"),
            message.get("caption"),
            message.get("reply_markup"),
        ):
            raise bad_request(NOT_MODIFIED)
        for key, value in (("text", new_text), ("caption", new_caption), ("reply_markup", inline)):
            if value is None:
                message.pop(key, None)
            else:
                message[key] = value
        message["edit_date"] = int(self.world.clock())
        sent.text, sent.caption, sent.reply_markup = new_text, new_caption, inline
        if raw is not _UNSET:
            sent.sent_text, sent.parse_mode = raw, params.get("parse_mode")
        sent.edits.append(Edit(method, new_text, new_caption, inline))
        self.outbox.output(sent)
        return message

    async def _delete_message(self, params: JSON, files: dict[str, Upload]) -> bool:
        chat = self.world.target_chat(params.get("chat_id"))
        message_id = params.get("message_id")
        if not isinstance(message_id, int) or message_id not in chat.messages:
            raise bad_request("message to delete not found")
        sent = self.outbox.get(chat.id, message_id)
        if sent is None and chat.type != "private" and not chat.bot_is_admin:
            raise bad_request("message can't be deleted")
        del chat.messages[message_id]
        if sent is not None:
            sent.deleted = True
        return True

    async def _pin_chat_message(self, params: JSON, files: dict[str, Upload]) -> bool:
        chat = self.world.target_chat(params.get("chat_id"))
        if not self.world.bot_may(chat, "can_pin_messages"):
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message_id = params.get("message_id")
        if not isinstance(message_id, int) or message_id not in chat.messages:
            raise bad_request("message to pin not found")
        sent = self.outbox.get(chat.id, message_id)
        if sent is not None:
            sent.pinned = True
        return True

    async def _set_message_reaction(self, params: JSON, files: dict[str, Upload]) -> bool:
        """A reaction on any message of the chat (a user's too); an empty list clears."""
        chat = self.world.target_chat(params.get("chat_id"))
        message_id = params.get("message_id")
        if not isinstance(message_id, int) or message_id not in chat.messages:
            raise bad_request("message to react not found")
        reaction = params.get("reaction") or []
        if not isinstance(reaction, list) or any(
            not isinstance(r, dict) or r.get("type") != "emoji" or not r.get("emoji")
            for r in reaction
        ):
            raise bad_request("REACTION_INVALID")
        if reaction and not chat.reactions:  # the group allows no reactions at all
            raise bad_request("REACTION_INVALID")
        emoji = [str(r["emoji"]) for r in reaction]
        self.reactions[(chat.id, message_id)] = emoji
        return True

    async def _answer_callback_query(self, params: JSON, files: dict[str, Upload]) -> bool:
        query_id = str(params.get("callback_query_id", ""))
        pressed = self.open_callbacks.get(query_id)
        if pressed is None or self.world.clock() - pressed > CALLBACK_ANSWER_WINDOW:
            raise bad_request(QUERY_TOO_OLD)
        text = params.get("text")
        if text is not None and utf16_len(str(text)) > CALLBACK_ANSWER_LIMIT:
            raise bad_request("MESSAGE_TOO_LONG")
        del self.open_callbacks[query_id]
        self.answered_callbacks[query_id] = CallbackAnswer(
            callback_query_id=query_id,
            text=text,
            show_alert=bool(params.get("show_alert", False)),
            url=params.get("url"),
        )
        return True

    async def _get_chat(self, params: JSON, files: dict[str, Upload]) -> JSON:
        chat = self.world.target_chat(params.get("chat_id"))
        return {
            **self.world.chat_json(chat),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    async def _get_chat_member(self, params: JSON, files: dict[str, Upload]) -> JSON:
        chat = self.world.target_chat(params.get("chat_id"))
        user_id = params.get("user_id")
        if not isinstance(user_id, int):
            raise bad_request("invalid user_id specified")
        known = user_id == self.world.bot_id or user_id in self.world.users
        if not known and user_id not in chat.admins:
            raise bad_request("PARTICIPANT_ID_INVALID")
        return self.world.member(chat, user_id)

    async def _get_chat_administrators(self, params: JSON, files: dict[str, Upload]) -> list[JSON]:
        chat = self.world.target_chat(params.get("chat_id"))
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        ids = list(chat.admins) + ([self.world.bot_id] if chat.bot_is_admin else [])
        return [self.world.member(chat, uid) for uid in ids]


def photo_sizes(stored: StoredFile) -> list[JSON]:
    """The PhotoSize list of an uploaded picture: a thumbnail and the full size."""
    width, height = image_size(stored.data)
    scale = min(1.0, 90 / max(width, height, 1))
    return [
        {
            "file_id": f"{stored.file_id}_s",
            "file_unique_id": f"{stored.unique_id}s",
            "width": max(1, round(width * scale)),
            "height": max(1, round(height * scale)),
            "file_size": min(len(stored.data), 2048),
        },
        {
            "file_id": stored.file_id,
            "file_unique_id": stored.unique_id,
            "width": width,
            "height": height,
            "file_size": len(stored.data),
        },
    ]

"""Bot API objects → :class:`Incoming`, for both libraries.

aiogram and python-telegram-bot mirror the Bot API's field names (``chat.id``,
``from_user``, ``message_thread_id``, ``is_topic_message``, ``sender_chat``, …), so one
translation serves both adapters. A press on a button of an old message carries an
``InaccessibleMessage`` (its chat and id, date 0, nothing else) in both; the adapter says
which it is (their classes differ), and it is acted on as any press is, only its topic
unknown.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from bot.application.types import Delivered, Incoming, Sender


def sender_of(user: Any, sender_chat: Any = None) -> Sender:
    """The person behind an update; a message sent as a chat has no user (id 0)."""
    if user is None:
        return Sender(0, (sender_chat.title or "") if sender_chat is not None else "")
    return Sender(user.id, user.full_name, user.username, user.language_code)


def _thread(message: Any) -> int | None:
    """Reply into a forum topic only for a real topic message (not a plain reply thread)."""
    return message.message_thread_id if message.is_topic_message else None


def message_incoming(update_id: int, message: Any) -> Incoming:
    return Incoming(
        update_id=update_id,
        chat_id=message.chat.id,
        chat_type=message.chat.type,
        sender=sender_of(message.from_user, message.sender_chat),
        thread_id=_thread(message),
        sender_chat_id=message.sender_chat.id if message.sender_chat else None,
        text=message.text or message.caption or "",
        message_id=message.message_id,
        migrate_to_chat_id=message.migrate_to_chat_id,
        is_forum=bool(message.chat.is_forum),
    )


def member_incoming(update_id: int, updated: Any, mine: bool = False) -> Incoming:
    """A ``chat_member`` update (who is an admin may have changed) or, ``mine``, a
    ``my_chat_member`` one: the bot's own status changed (promoted, restricted, blocked
    by the user of a private chat)."""
    return Incoming(
        update_id=update_id,
        chat_id=updated.chat.id,
        chat_type=updated.chat.type,
        sender=sender_of(updated.from_user),
        admins_changed=True,
        bot_status=_status(updated.new_chat_member.status) if mine else None,
    )


def _status(status: Any) -> str:
    """``member``, ``kicked``…: both libraries' status enums hold Telegram's word."""
    return str(status.value) if isinstance(status, Enum) else str(status)


def callback_incoming(update_id: int, query: Any, accessible: bool) -> Incoming:
    """A button press on a message; an inaccessible one (an old message) has no topic."""
    message = query.message
    return Incoming(
        update_id=update_id,
        chat_id=message.chat.id,
        chat_type=message.chat.type,
        sender=sender_of(query.from_user),
        thread_id=_thread(message) if accessible else None,
        message_id=message.message_id,
        callback_id=query.id,
        callback_data=query.data or "",
        is_forum=bool(message.chat.is_forum),
    )


def delivered(message: Any) -> Delivered:
    """A sent (or edited) message's id and, when it shows a picture or a file, the
    ``file_id`` that sends it again (a photo's largest size: the one uploaded)."""
    if message.photo:
        return Delivered(message.message_id, message.photo[-1].file_id)
    if message.document is not None:
        return Delivered(message.message_id, message.document.file_id)
    return Delivered(message.message_id)

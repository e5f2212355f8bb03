"""Who and where: the users, chats and stored messages of the fake Telegram.

Everything here builds or resolves Telegram objects (User, Chat, Message, ChatMember) in
the shapes the real API returns, so both client libraries deserialize them unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.botapi.records import JSON
from playground.botapi.wire import ApiError, bad_request

# Who Telegram shows as the sender of an anonymous admin's / a channel's message.
ANONYMOUS_ADMIN: JSON = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
CHANNEL_BOT: JSON = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}
ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
    "can_send_welcome_messages",
)
# What a group lets its members send (Telegram's ChatPermissions, the part the bot uses).
# A bot that is not an administrator is held to them, as any member is.
MEMBER_RIGHTS = ("can_send_messages", "can_send_photos", "can_send_documents")
# Telegram's refusal for each of them (a 400, to a bot that is no admin).
NOT_ENOUGH_RIGHTS = {
    "can_send_messages": "not enough rights to send text messages to the chat",
    "can_send_photos": "not enough rights to send photos to the chat",
    "can_send_documents": "not enough rights to send documents to the chat",
}
BLOCKED = "Forbidden: bot was blocked by the user"
DEACTIVATED = "Forbidden: user is deactivated"


@dataclass
class Chat:
    """One chat; message ids are per chat and shared by users' and the bot's messages."""

    id: int
    type: str
    title: str | None
    admins: list[int]
    is_forum: bool
    bot_is_admin: bool
    username: str | None = None
    # The bot's administrator rights (names from ADMIN_RIGHTS); all of them by default.
    bot_rights: frozenset[str] = frozenset(ADMIN_RIGHTS)
    members: set[int] = field(default_factory=set)
    topics: set[int] = field(default_factory=set)
    messages: dict[int, JSON] = field(default_factory=dict)
    last_message_id: int = 0
    migrated_to: int | None = None
    # What members may send (names from MEMBER_RIGHTS): all of it unless restricted.
    member_rights: frozenset[str] = frozenset(MEMBER_RIGHTS)
    reactions: bool = True  # False: the group allows no reactions (REACTION_INVALID)
    closed_topics: set[int] = field(default_factory=set)  # forum topics an admin closed

    def next_message_id(self) -> int:
        self.last_message_id += 1
        return self.last_message_id


@dataclass
class World:
    """Users and chats, plus the bot's own identity."""

    bot_id: int
    bot_username: str
    bot_first_name: str
    privacy_mode: bool
    clock: Callable[[], float]
    users: dict[int, JSON] = field(default_factory=dict)
    chats: dict[int, Chat] = field(default_factory=dict)
    blocked: set[int] = field(default_factory=set)  # users who blocked the bot
    deactivated: set[int] = field(default_factory=set)  # users who deleted their account

    def bot_user(self) -> JSON:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    def user(self, uid: int) -> JSON:
        """The User object; unknown ids get the placeholder first name ``User<uid>``."""
        if uid == self.bot_id:
            return self.bot_user()
        return self.users.setdefault(uid, {"id": uid, "is_bot": False, "first_name": f"User{uid}"})

    def test_chat(self, chat_id: int, uid: int) -> Chat:
        """A chat for the test-side helpers; ``chat_id == uid`` opens the private chat."""
        if chat_id not in self.chats and chat_id == uid:
            self.chats[uid] = Chat(uid, "private", None, [], False, False, members={uid})
        if chat_id not in self.chats:
            raise KeyError(f"chat {chat_id} does not exist; call add_chat first")
        return self.chats[chat_id]

    def target_chat(self, raw_id: Any) -> Chat:
        """The chat a bot request addresses, refused the way Telegram refuses it."""
        if raw_id is None or raw_id == "":
            raise bad_request("chat_id is empty")
        chat = self._find_chat(raw_id)
        if chat is None:
            numeric = str(raw_id).lstrip("-").isdigit()
            if numeric and int(raw_id) in self.users:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type == "private" and chat.id in self.deactivated:
            raise ApiError(403, DEACTIVATED)
        if chat.type == "private" and chat.id in self.blocked:
            raise ApiError(403, BLOCKED)
        return chat

    def check_send(self, chat: Chat, right: str, thread_id: Any) -> None:
        """Refuse a new message the way Telegram refuses one from a bot that is no admin:
        in a closed forum topic, or of a kind the group does not let members send."""
        if chat.type == "private" or chat.bot_is_admin:
            return
        if thread_id in chat.closed_topics:
            raise bad_request("TOPIC_CLOSED")
        if right not in chat.member_rights:
            raise bad_request(NOT_ENOUGH_RIGHTS[right])

    def _find_chat(self, raw_id: Any) -> Chat | None:
        if isinstance(raw_id, str) and raw_id.startswith("@"):
            wanted = raw_id[1:].lower()
            named = (c for c in self.chats.values() if (c.username or "").lower() == wanted)
            return next(named, None)
        try:
            return self.chats.get(int(raw_id))
        except (TypeError, ValueError):
            return None

    def chat_json(self, chat: Chat) -> JSON:
        """The Chat object; ``is_forum`` appears only when true, as Telegram sends it."""
        if chat.type == "private":
            user = self.user(chat.id)
            keys = ("first_name", "last_name", "username")
            return {"id": chat.id, "type": "private", **{k: user[k] for k in keys if k in user}}
        data: JSON = {"id": chat.id, "type": chat.type, "title": chat.title}
        if chat.username:
            data["username"] = chat.username
        if chat.is_forum:
            data["is_forum"] = True
        return data

    def new_message(self, chat: Chat, thread_id: int | None) -> JSON:
        """A Message skeleton with the chat's next id; a forum thread id marks a topic."""
        message: JSON = {
            "message_id": chat.next_message_id(),
            "date": int(self.clock()),
            "chat": self.chat_json(chat),
        }
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            if chat.is_forum:
                message["is_topic_message"] = True
                chat.topics.add(thread_id)
        return message

    def bot_may(self, chat: Chat, right: str) -> bool:
        """Whether the bot holds an administrator ``right`` there (any in a private chat)."""
        return chat.type == "private" or (chat.bot_is_admin and right in chat.bot_rights)

    def member(self, chat: Chat, uid: int) -> JSON:
        """ChatMember by role: ``admins[0]`` creator, other admins, members, else left."""
        user = self.user(uid)
        group = chat.type != "private"
        if group and chat.admins and uid == chat.admins[0]:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if group and (uid in chat.admins or (uid == self.bot_id and chat.bot_is_admin)):
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                **{right: uid != self.bot_id or right in chat.bot_rights for right in ADMIN_RIGHTS},
                "can_promote_members": uid != self.bot_id,
                "can_manage_topics": chat.is_forum,
            }
        if uid == self.bot_id or uid in chat.members:
            return {"status": "member", "user": user}
        return {"status": "left", "user": user}

    def bot_sees(self, chat: Chat, message: JSON) -> bool:
        """Privacy mode (Bot API FAQ): a non-admin group bot gets commands, replies, mentions.

        A command addressed to another bot (``/join@other_bot``) is not delivered.
        """
        if chat.type == "private" or not self.privacy_mode or chat.bot_is_admin:
            return True
        text = str(message.get("text", ""))
        if text.startswith("/"):
            addressee = text.split(maxsplit=1)[0].partition("@")[2]
            return addressee.lower() in ("", self.bot_username.lower())
        replied = message.get("reply_to_message", {})
        return (
            replied.get("from", {}).get("id") == self.bot_id
            or f"@{self.bot_username}".lower() in text.lower()
        )


def without_reply(message: JSON) -> JSON:
    """Telegram nests ``reply_to_message`` one level only."""
    return {k: v for k, v in message.items() if k != "reply_to_message"}

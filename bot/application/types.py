"""What crosses between the transport adapters and the framework-free core.

Adapters turn a library's update into an :class:`Incoming`, and deliver
:class:`Outgoing` messages through :class:`Transport`; nothing else about aiogram or
python-telegram-bot reaches the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol

# Telegram's stand-in user for anonymous group admins.
GROUP_ANONYMOUS_BOT = 1087968824
# The stand-in user of every message sent on behalf of a channel (with ``sender_chat``).
CHANNEL_BOT = 136817688

Buttons = list[list[tuple[str, str]]]  # rows of (label, callback data, or a link: below)
# A button's second half names a link instead of callback data when it starts with one
# of these (no callback route is named so): a URL to open, or a Mini App to launch,
# which Telegram allows in private chats only (docs/operations.md#mini-app).
LINK, WEB_APP = "link:", "webapp:"


def link_button(label: str, url: str) -> tuple[str, str]:
    return label, LINK + url


def web_app_button(label: str, url: str) -> tuple[str, str]:
    return label, WEB_APP + url


def button_kind(data: str) -> tuple[str, str]:
    """What a button does: ``("url", …)``, ``("web_app", …)`` or ``("callback", data)``."""
    if data.startswith(LINK):
        return "url", data.removeprefix(LINK)
    if data.startswith(WEB_APP):
        return "web_app", data.removeprefix(WEB_APP)
    return "callback", data


@dataclass(frozen=True)
class Sender:
    id: int
    name: str
    username: str | None = None
    language_code: str | None = None


@dataclass(frozen=True)
class Incoming:
    """One update, reduced to what the use-cases need."""

    update_id: int
    chat_id: int
    chat_type: str
    sender: Sender
    thread_id: int | None = None  # set only for messages inside a forum topic
    sender_chat_id: int | None = None
    text: str = ""
    message_id: int | None = None
    callback_id: str | None = None
    callback_data: str | None = None
    migrate_to_chat_id: int | None = None
    admins_changed: bool = False  # a chat_member update: someone's rights may have changed
    is_forum: bool = False  # a supergroup with topics: each topic may run an event
    # A my_chat_member update: the bot's own status in the chat now (``member``,
    # ``administrator``, ``restricted``, ``kicked`` when a user blocked it, ``left``…).
    bot_status: str | None = None

    @property
    def is_callback(self) -> bool:
        return self.callback_id is not None


@dataclass
class Outgoing:
    """A message to deliver: text, photo (with caption) or document, an edit, or a
    reaction (``react``: ``text`` is the emoji, ``edit_message_id`` the message).

    ``broadcast`` messages (announcements, count and standings edits) give way to replies
    to one person in the outgoing queue. ``tag`` names a message so that later edits can
    find it (``edit_tag``) before anyone knows its id; ``pin`` pins it once sent.
    ``fallback`` is what is said instead when Telegram refuses this message for good
    (``bot.transport.refusals``): for a reaction, a short text (``{"text": …}``); for a
    private message, the same in another chat (``chat_id``, ``thread_id``), once for
    all the messages of the same ``once``. A photo falls back to its caption as text.
    ``reply_to``: a text answering that message (a reaction's fallback). ``resume``
    (no content) tells the sender the bot's rights in the chat changed. ``file_id``: a
    picture or file Telegram has already (``Delivered.file_id``), sent instead of
    ``file``'s bytes."""

    chat_id: int
    kind: str = "text"  # text, photo, document, edit, edit_caption, edit_media, react, resume
    text: str = ""
    thread_id: int | None = None
    buttons: Buttons | None = None
    file: bytes | None = None
    filename: str | None = None
    edit_message_id: int | None = None
    broadcast: bool = False
    tag: str | None = None
    edit_tag: str | None = None
    pin: bool = False
    fallback: dict[str, Any] | None = None
    reply_to: int | None = None
    file_id: str | None = None


class Delivered(NamedTuple):
    """Telegram took a message: its id, and for a photo or a file the ``file_id`` that
    sends the same picture again without its bytes."""

    message_id: int
    file_id: str | None = None


class Timer(NamedTuple):
    """Work a tournament waits for: ``kind`` names the handler (``deadline``, ``remind``,
    ``noshow``, ``signup``); ``round`` is 0 for the sign-up deadline."""

    kind: str
    tournament_id: int
    round: int
    at: datetime

    @property
    def key(self) -> str:
        """Names this timer among all others; the fired-timer record is keyed by it."""
        return f"{self.kind}:{self.tournament_id}:{self.round}:{int(self.at.timestamp())}"

    @property
    def arg(self) -> str:
        """What the handler receives: ``"<tournament>:<round>:<epoch seconds>"``."""
        return f"{self.tournament_id}:{self.round}:{int(self.at.timestamp())}"


class RetryAfter(Exception):
    """Telegram said 429: wait ``seconds`` and send the same message again."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class TransientError(Exception):
    """A 5xx, a network failure or an answer that is not Telegram's (a proxy's HTML
    page): retry later with backoff."""


class Unauthorized(TransientError):
    """Telegram refuses the token (401: revoked, or a new one issued). Nothing can be
    sent until it is put right, and nothing queued is given up meanwhile."""


class PermanentError(Exception):
    """Telegram refused the message (400/403): sending it again as it is cannot help.

    ``reason`` says what the refusal means (``bot.transport.refusals.Reason``: read from
    the description when not given); ``migrate_to`` is the new id of a group that became
    a supergroup."""

    def __init__(
        self, description: str, reason: str | None = None, migrate_to: int | None = None
    ) -> None:
        super().__init__(description)
        self.reason = reason
        self.migrate_to = migrate_to


class StartupError(Exception):
    """The Bot API cannot be used at start: ``reason`` is ``token`` (Telegram refused it)
    or ``unreachable`` (no answer from ``BOT_API_URL``). Said in one line, not a trace."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


class Transport(Protocol):
    """What the core needs from a Bot API client library."""

    bot_username: str

    async def send(self, message: Outgoing) -> Delivered:
        """Deliver ``message``; return its message id and, for a picture or a file, its
        file id (raises the errors above)."""

    async def answer_callback(self, callback_id: str, text: str, alert: bool = False) -> None:
        """Stop the button's spinner, optionally showing ``text``."""

    async def pin(self, chat_id: int, message_id: int) -> None:
        """Pin a message quietly (raises PermanentError without the right)."""

    async def can_pin(self, chat_id: int) -> bool:
        """Whether the bot may pin messages in the chat."""

    async def chat_admins(self, chat_id: int) -> set[int]:
        """User ids of the chat's administrators."""

    async def set_commands(self, commands: list[tuple[str, str]], language: str | None) -> None:
        """Publish the command menu (``language`` None: for every other language)."""

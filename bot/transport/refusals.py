"""What Telegram's answers mean: every error the Bot API gives, read in one place.

Both adapters hand their library's exception over as Telegram sent it (HTTP status, the
description, ``retry_after``, ``migrate_to_chat_id``): :func:`error` turns it into what
the rest of the bot acts on. aiogram keeps Telegram's description as it came; PTB drops a
leading "Bad Request: " and capitalises what is left, so descriptions are matched without
case, by a fragment that both spellings contain. The outbox (``bot.transport.outbox``)
then does what a person would (docs/operations.md#refusals):

* **transient** (:class:`TransientError`, :class:`RetryAfter`): a 5xx, a network error, a
  proxy's HTML page instead of JSON, 429 flood control, a revoked token
  (:class:`Unauthorized`): the same message again later; nothing is given up.
* **refused for this message** (:data:`Scope.MESSAGE`): fall back. An edit whose message
  was deleted posts it again; a refused reaction becomes a short text; an edit that
  changes nothing is done.
* **refused for this chat until something changes** (:data:`Scope.CHAT`): the bot lacks a
  right (to send text, media, to pin), the topic is closed. Its messages are kept and
  sent once it works again (a photo goes as its text meanwhile); the organisers are told
  once.
* **the user is gone** (:data:`Scope.USER`): blocked the bot, deleted the account, never
  started it. Nobody writes to them privately again until they do.
* **the chat moved** (:data:`Reason.MIGRATED`): a group that became a supergroup; its
  messages are sent to the new id.
"""

from __future__ import annotations

from enum import StrEnum

from bot.application.types import PermanentError, RetryAfter, TransientError, Unauthorized


class Scope(StrEnum):
    """What a permanent refusal is about, and so what is done about it."""

    MESSAGE = "message"  # this message: fall back, or it is done
    CHAT = "chat"  # the bot's rights in the chat (or topic): hold, tell, resume
    USER = "user"  # the person at the other end of a private chat is gone
    MOVED = "moved"  # the chat has a new id


class Reason(StrEnum):
    """What Telegram's refusal means, named for what it calls for. The values are the
    catalogue's keys (``delivery.<reason>``) and what is stored for a user gone."""

    UNCHANGED = "unchanged"  # an edit that changes nothing: the message shows it already
    MESSAGE_GONE = "message-gone"  # deleted (or too old to edit): post it again
    REACTION = "reaction"  # the group allows no such reaction: say it in words
    EXPIRED = "expired"  # a button press answered after Telegram stopped waiting
    INVALID = "invalid"  # a request Telegram will never take (a bug): logged, dropped
    NO_TEXT = "no-text"  # may not send messages at all (a locked group, not an admin)
    NO_MEDIA = "no-media"  # may not send photos or files
    TOPIC_CLOSED = "topic-closed"  # a forum topic an admin closed
    NO_PIN = "no-pin"  # may not pin messages
    PIN_FAILED = "pin-failed"  # pinning was rate-limited again and again
    REMOVED = "removed"  # the bot is no longer in the group (kicked, group deleted)
    BLOCKED = "blocked"  # the user blocked the bot
    DEACTIVATED = "deactivated"  # the user deleted their account
    NOT_STARTED = "not-started"  # never opened a private chat with the bot (or a bot)
    MIGRATED = "migrated"  # a group upgraded to a supergroup: the new id is given


SCOPE = {
    Reason.UNCHANGED: Scope.MESSAGE,
    Reason.MESSAGE_GONE: Scope.MESSAGE,
    Reason.REACTION: Scope.MESSAGE,
    Reason.EXPIRED: Scope.MESSAGE,
    Reason.INVALID: Scope.MESSAGE,
    Reason.NO_TEXT: Scope.CHAT,
    Reason.NO_MEDIA: Scope.CHAT,
    Reason.TOPIC_CLOSED: Scope.CHAT,
    Reason.NO_PIN: Scope.CHAT,
    Reason.PIN_FAILED: Scope.CHAT,
    Reason.REMOVED: Scope.CHAT,
    Reason.BLOCKED: Scope.USER,
    Reason.DEACTIVATED: Scope.USER,
    Reason.NOT_STARTED: Scope.USER,
    Reason.MIGRATED: Scope.MOVED,
}

# Fragments of Telegram's descriptions (lower case, first match wins), from the Bot API's
# answers as bots meet them (its "Bad Request: …"/"Forbidden: …" texts and the MTProto
# error names it passes on). The more specific comes first: "not enough rights to send
# text messages" before any other "not enough rights to send".
DESCRIPTIONS: tuple[tuple[str, Reason], ...] = (
    ("message is not modified", Reason.UNCHANGED),
    ("message to edit not found", Reason.MESSAGE_GONE),
    ("message can't be edited", Reason.MESSAGE_GONE),
    ("message to react not found", Reason.MESSAGE_GONE),
    ("message to pin not found", Reason.MESSAGE_GONE),
    ("message_id_invalid", Reason.MESSAGE_GONE),
    ("reaction_invalid", Reason.REACTION),
    ("reactions_too_many", Reason.REACTION),
    ("reaction_empty", Reason.REACTION),
    ("query is too old", Reason.EXPIRED),
    ("query_id_invalid", Reason.EXPIRED),
    ("not enough rights to send text messages", Reason.NO_TEXT),
    ("have no rights to send a message", Reason.NO_TEXT),
    ("chat_write_forbidden", Reason.NO_TEXT),
    ("chat_send_plain_forbidden", Reason.NO_TEXT),
    ("chat_restricted", Reason.NO_TEXT),
    ("need administrator rights in the channel chat", Reason.NO_TEXT),
    ("not enough rights to send", Reason.NO_MEDIA),  # photos, documents (text is above)
    ("chat_send_photos_forbidden", Reason.NO_MEDIA),
    ("chat_send_docs_forbidden", Reason.NO_MEDIA),
    ("chat_send_media_forbidden", Reason.NO_MEDIA),
    ("topic_closed", Reason.TOPIC_CLOSED),
    ("not enough rights to manage pinned messages", Reason.NO_PIN),
    ("not enough rights to pin", Reason.NO_PIN),
    ("bot was kicked", Reason.REMOVED),
    ("bot is not a member", Reason.REMOVED),
    ("group chat was deleted", Reason.REMOVED),
    ("group is deactivated", Reason.REMOVED),
    ("chat not found", Reason.REMOVED),
    ("bot was blocked by the user", Reason.BLOCKED),
    ("user is deactivated", Reason.DEACTIVATED),
    ("bot can't initiate conversation", Reason.NOT_STARTED),
    ("bot can't send messages to bots", Reason.NOT_STARTED),
    ("peer_id_invalid", Reason.NOT_STARTED),
)


def read(description: str) -> Reason:
    """The reason a refusal's description gives (:data:`Reason.INVALID` when unknown)."""
    lowered = description.lower()
    return next((reason for part, reason in DESCRIPTIONS if part in lowered), Reason.INVALID)


def error(
    status: int | None,
    description: str,
    retry_after: float | None = None,
    migrate_to: int | None = None,
) -> Exception:
    """What the bot raises for Telegram's answer: ``status`` is the HTTP status (None:
    no answer from Telegram at all, or one that is not Telegram's), ``description`` its
    text, ``retry_after`` and ``migrate_to`` its ``parameters``."""
    if retry_after is not None:
        return RetryAfter(retry_after)
    if migrate_to is not None:
        return PermanentError(description, Reason.MIGRATED, migrate_to)
    if status == 401:
        return Unauthorized(description)
    if status in (400, 403):
        return PermanentError(description, read(description))
    if status in (404, 413):  # no such method, a file over the limit: never taken
        return PermanentError(description, Reason.INVALID)
    return TransientError(description)  # 5xx, 409, no answer, an HTML page


def reason_of(exc: PermanentError) -> Reason:
    """The reason of a refusal: as the adapter read it, else from its description."""
    return Reason(exc.reason) if exc.reason else read(str(exc))


def scope_of(exc: PermanentError, chat_id: int) -> Scope:
    """What the refusal is about. In a private chat (a positive id) anything that is
    about the chat is about the person: they blocked the bot, or never started it."""
    scope = SCOPE[reason_of(exc)]
    return Scope.USER if scope is Scope.CHAT and chat_id > 0 else scope

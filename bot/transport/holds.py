"""What Telegram refuses in a chat until something changes there, as the outbox keeps it.

A group that lets members send no text (a lock during the draw, a bot that is no admin),
or no media, or a forum topic an admin closed: the messages it refuses are kept queued
and tried again, the first after :data:`FIRST_TRY` seconds, then at twice the gap each
time up to :data:`LAST_TRY` (Telegram sends no update when a group's permissions change:
the bot learns by trying). A ``my_chat_member`` update (the bot promoted, its rights
changed) has them tried at once. What a hold withholds:

* no text: every message of the chat (a reaction is no message);
* a closed topic: the messages of that topic;
* no media: the files; a photo is sent as its text instead (``bot.transport.outbox``),
  and an announcement never waits for a picture that cannot come.

Kept in the sender's memory: after a restart the first message tried is refused again
and the hold comes back (the organisers, told once, are not told again: that is kept in
the database, ``db.models.DeliveryNotice``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.application.types import Outgoing
from bot.transport.refusals import Reason

FIRST_TRY = 5.0  # seconds until a refused message is tried again
LAST_TRY = 60.0  # the longest gap between two tries
HOLDING = (Reason.NO_TEXT, Reason.NO_MEDIA, Reason.TOPIC_CLOSED)  # the reasons that hold
MEDIA = ("photo", "document", "edit_media")


@dataclass
class Hold:
    """One thing refused in one chat (``thread_id``: the closed topic) and when to try
    again (monotonic seconds); ``tries`` so far."""

    reason: Reason
    thread_id: int | None
    until: float
    tries: int = 1

    def withholds(self, row: Any) -> bool:
        """Whether ``row`` (an outbox row) waits for this hold."""
        if row.kind in ("react", "resume"):
            return False
        if self.reason is Reason.NO_MEDIA:
            return bool(row.kind == "document")
        if self.reason is Reason.TOPIC_CLOSED:
            return bool(row.thread_id == self.thread_id)
        return True

    def lifted_by(self, out: Outgoing) -> bool:
        """Whether ``out``, just delivered, shows that what was refused works again."""
        if self.reason is Reason.NO_MEDIA:
            return out.kind in MEDIA
        new_message = out.kind in ("text", "photo", "document")
        if self.reason is Reason.TOPIC_CLOSED:
            return new_message and out.thread_id == self.thread_id
        return new_message

    @property
    def holds_lane(self) -> bool:
        """Whether the rows after a withheld one wait too: they would be refused as well,
        except behind a file that cannot be sent (a later reply may go)."""
        return self.reason is not Reason.NO_MEDIA


class Holds:
    """The sender's holds, by chat."""

    def __init__(self) -> None:
        self._by_chat: dict[int, dict[tuple[Reason, int | None], Hold]] = {}

    def hold(self, chat_id: int, reason: Reason, thread_id: int | None, now: float) -> bool:
        """Hold what ``reason`` refuses in the chat; try again later. Whether it is new
        (a refusal of a message tried again after a hold is not)."""
        held = self._by_chat.setdefault(chat_id, {})
        key = (reason, thread_id if reason is Reason.TOPIC_CLOSED else None)
        known = held.get(key)
        if known is None:
            held[key] = Hold(key[0], key[1], now + FIRST_TRY)
            return True
        known.tries += 1
        known.until = now + float(min(LAST_TRY, FIRST_TRY * 2 ** (known.tries - 1)))
        return False

    def withheld(self, row: Any, now: float) -> Hold | None:
        """The hold ``row`` waits for now, if any. Once a hold's time has come, the next
        row it withholds is tried: it says whether the chat still refuses."""
        for hold in self._by_chat.get(row.chat_id, {}).values():
            if hold.withholds(row) and hold.until > now:
                return hold
        return None

    def refuses(self, chat_id: int, reason: Reason, now: float) -> bool:
        """Whether the chat is known to refuse ``reason`` now (a photo then goes as its
        text without asking Telegram first; once the time has come, it asks again)."""
        hold = self._by_chat.get(chat_id, {}).get((reason, None))
        return hold is not None and hold.until > now

    def lift(self, chat_id: int, out: Outgoing) -> list[Reason]:
        """``out`` went through: the holds it shows to be over go; their reasons."""
        held = self._by_chat.get(chat_id)
        if not held:
            return []
        over = [key for key, hold in held.items() if hold.lifted_by(out)]
        for key in over:
            del held[key]
        if not held:
            del self._by_chat[chat_id]
        return [reason for reason, _ in over]

    def try_now(self, chat_id: int) -> None:
        """The bot's rights in the chat changed: try what it holds at once."""
        for hold in self._by_chat.get(chat_id, {}).values():
            hold.until = 0.0

"""What the fake Bot API server remembers, in the shapes tests assert on.

These are plain dataclasses on purpose: a test reads ``sent.text`` or
``server.calls[-1].params`` directly instead of digging through Telegram JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Upload:
    """One file part of a multipart request, exactly as the client sent it."""

    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class Call:
    """One HTTP request to ``/bot<token>/<method>``.

    ``method`` is Telegram's spelling (``sendMessage``) for known methods and the
    requested spelling for unknown ones; ``params`` are already decoded (ints, bools and
    JSON fields such as ``reply_markup`` parsed), whatever encoding the client used.
    ``status`` and ``description`` say how the server answered, so a test can assert the
    bot never hit a ``400``.
    """

    method: str
    params: JSON
    files: dict[str, Upload] = field(default_factory=dict)
    status: int = 200
    description: str | None = None


@dataclass(frozen=True)
class Edit:
    """The state of a bot message right after one edit (``editMessageText`` etc.)."""

    method: str
    text: str | None
    caption: str | None
    reply_markup: JSON | None


@dataclass(frozen=True)
class CallbackAnswer:
    """The bot's ``answerCallbackQuery`` for one button press."""

    callback_query_id: str
    text: str | None
    show_alert: bool
    url: str | None


@dataclass
class SentMessage:
    """A message the bot sent, kept current as the bot edits it.

    ``text`` is what users read: for ``parse_mode=HTML`` the tags are stripped and
    entities decoded (``sent_text`` keeps the raw string). ``reply_markup`` is the parsed
    markup as sent, of any kind (inline keyboard, reply keyboard, force reply).
    ``edits`` lists the state after each edit, oldest first.
    """

    method: str
    chat_id: int
    message_id: int
    text: str | None = None
    caption: str | None = None
    reply_markup: JSON | None = None
    photo: bytes | None = None
    document: bytes | None = None
    filename: str | None = None
    thread_id: int | None = None
    parse_mode: str | None = None
    sent_text: str | None = None
    reply_to_message_id: int | None = None
    edits: list[Edit] = field(default_factory=list)
    deleted: bool = False
    pinned: bool = False

    @property
    def body(self) -> str:
        """The text users read: the message text, or the caption of a photo/document."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def buttons(self) -> list[JSON]:
        """Inline keyboard buttons, row by row flattened; empty without an inline keyboard."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [button for row in rows for button in row]

    def button(self, label: str) -> JSON:
        """The first inline button whose text contains ``label``.

        Raises ``KeyError`` listing the buttons that do exist, so a failing test says
        what the user would have seen instead.
        """
        for candidate in self.buttons:
            if label in candidate.get("text", ""):
                return candidate
        shown = [b.get("text") for b in self.buttons]
        raise KeyError(f"no button containing {label!r}; buttons: {shown}")

"""How Telegram's Bot API reads requests and checks content, reimplemented for tests.

Kept apart from the server so each rule can be read on its own. Sources: the Bot API
manual (https://core.telegram.org/bots/api): "Making requests" (four encodings, all
values strings except in JSON bodies), "Formatting options" (HTML subset, limits) and
"InlineKeyboardButton" (``callback_data`` 1-64 bytes).
"""

from __future__ import annotations

import html
import json
import re
import struct
from typing import Any

from aiohttp import web

from playground.botapi.records import JSON, Upload

# Fields whose value is a JSON-serialised object when sent as form data.
JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "allowed_updates",
        "commands",
        "scope",
        "entities",
        "caption_entities",
        "reply_parameters",
        "link_preview_options",
        "media",
        "reaction",
    }
)
INT_FIELDS = frozenset(
    {
        "message_id",
        "offset",
        "limit",
        "timeout",
        "message_thread_id",
        "reply_to_message_id",
        "user_id",
        "cache_time",
    }
)
BOOL_FIELDS = frozenset(
    {
        "disable_notification",
        "show_alert",
        "drop_pending_updates",
        "protect_content",
        "allow_sending_without_reply",
        "disable_web_page_preview",
        "disable_content_type_detection",
        "has_spoiler",
    }
)

HTML_TAGS = frozenset(
    {
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "a",
        "code",
        "pre",
        "span",
        "tg-spoiler",
        "tg-emoji",
        "blockquote",
    }
)
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>")
_ENTITY = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|lt|gt|amp|quot);")
_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")
CALLBACK_DATA_MAX_BYTES = 64


class ApiError(Exception):
    """A refusal the server sends as ``{"ok": false, ...}`` with HTTP status ``status``."""

    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def bad_request(reason: str) -> ApiError:
    """Telegram's 400, whose description always starts with ``Bad Request: ``."""
    return ApiError(400, f"Bad Request: {reason}")


async def read_request(request: web.Request) -> tuple[JSON, dict[str, Upload]]:
    """Collect parameters from the query string and a JSON, urlencoded or multipart body.

    aiogram posts form data (multipart once a file is attached), python-telegram-bot
    posts urlencoded or multipart; both send every value as a string, so values are
    decoded by field name afterwards (see :func:`decode_params`).
    """
    raw: JSON = dict(request.query)
    files: dict[str, Upload] = {}
    if request.can_read_body:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError as exc:
                raise bad_request("can't parse JSON encoded request body") from exc
            if not isinstance(body, dict):
                raise bad_request("JSON body must be an object")
            raw.update(body)
        else:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = Upload(value.filename, value.content_type, value.file.read())
                else:
                    raw[key] = value
    return decode_params(raw), files


def decode_params(raw: JSON) -> JSON:
    """Turn string-encoded values back into ints, bools and objects, by field name."""
    params: JSON = {}
    for key, value in raw.items():
        if isinstance(value, str) and key in JSON_FIELDS:
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise bad_request(f"can't parse {key} JSON object") from exc
        elif isinstance(value, str) and key in INT_FIELDS:
            try:
                value = int(value)
            except ValueError as exc:
                raise bad_request(f"invalid {key} specified") from exc
        elif isinstance(value, str) and key in BOOL_FIELDS:
            if value.lower() not in ("true", "false", "1", "0"):
                raise bad_request(f"invalid {key} specified")
            value = value.lower() in ("true", "1")
        params[key] = value
    return params


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's limits and entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def visible_text(text: str, parse_mode: str | None) -> str:
    """The text users read after Telegram parses ``parse_mode``.

    Only HTML is parsed (strictly: unknown tags, bare ``<`` and unbalanced tags are
    refused, as Telegram does). Markdown modes are passed through unparsed.
    """
    if parse_mode is None or parse_mode.lower() != "html":
        return text
    try:
        return _strip_html(text)
    except ValueError as exc:
        raise bad_request(f"can't parse entities: {exc}") from exc


def _strip_html(source: str) -> str:
    out: list[str] = []
    open_tags: list[str] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "<":
            match = _TAG.match(source, i)
            offset = len(source[:i].encode("utf-8"))
            if match is None:
                raise ValueError(f'Unsupported start tag "" at byte offset {offset}')
            closing, name = match.group(1) == "/", match.group(2).lower()
            if name not in HTML_TAGS:
                raise ValueError(f'Unsupported start tag "{name}" at byte offset {offset}')
            if closing:
                if not open_tags or open_tags[-1] != name:
                    raise ValueError(
                        f'Unmatched end tag at byte offset {offset}, expected "</{name}>"'
                    )
                open_tags.pop()
            else:
                open_tags.append(name)
            i = match.end()
        elif char == "&" and (entity := _ENTITY.match(source, i)) is not None:
            out.append(html.unescape(entity.group(0)))
            i = entity.end()
        else:
            out.append(char)
            i += 1
    if open_tags:
        raise ValueError(f'Can\'t find end tag corresponding to start tag "{open_tags[-1]}"')
    return "".join(out)


def command_entities(text: str) -> list[JSON]:
    """``bot_command`` entities, as Telegram attaches them to every user message.

    python-telegram-bot's ``CommandHandler`` only fires on a message whose first entity
    is a ``bot_command`` at offset 0, so user messages without them would never reach it.
    """
    return [
        {
            "type": "bot_command",
            "offset": utf16_len(text[: m.start()]),
            "length": utf16_len(m.group(0)),
        }
        for m in _COMMAND.finditer(text)
    ]


LOCAL_OR_HTTPS = ("https://", "http://127.0.0.1", "http://localhost")


def check_reply_markup(markup: Any, private: bool) -> None:
    """Refuse markups Telegram refuses: malformed keyboards, over-long ``callback_data``,
    a link that is no URL, a Mini App button outside a private chat or not on HTTPS (a
    local address is let through, as for a webhook)."""
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise bad_request("can't parse inline keyboard button: Text is empty")
        actions = [k for k in button if k != "text"]
        if len(actions) != 1:
            raise bad_request(
                "can't parse inline keyboard button: Text buttons are unallowed in the "
                "inline keyboard"
            )
        data = button.get("callback_data")
        if data is not None and not 1 <= len(str(data).encode()) <= CALLBACK_DATA_MAX_BYTES:
            raise bad_request("BUTTON_DATA_INVALID")
        url = button.get("url")
        if url is not None and not str(url).startswith(("https://", "http://", "tg://")):
            raise bad_request("BUTTON_URL_INVALID")
        web_app = button.get("web_app")
        if web_app is not None:
            if not private:
                raise bad_request("BUTTON_TYPE_INVALID")
            target = web_app.get("url") if isinstance(web_app, dict) else None
            if not isinstance(target, str) or not target.startswith(LOCAL_OR_HTTPS):
                raise bad_request("BUTTON_URL_INVALID")


def image_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG or JPEG; Telegram refuses other bytes as a photo."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    raise bad_request("IMAGE_PROCESS_FAILED")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            break
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return int(width), int(height)
        i += 2 + length
    raise bad_request("IMAGE_PROCESS_FAILED")

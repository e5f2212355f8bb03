"""The Mini App's launch payloads and links (docs/operations.md#mini-app).

A payload says what to open: ``c<event>`` the organiser's console, ``r<event>`` a
player's form, or a score slip's payload (``bot.application.slip_links``) that one
table's form. Telegram carries it as ``startapp`` of a link into the Mini App, at most
64 characters of ``A-Z a-z 0-9 _ -``. It is no key: who may see or do what is decided
by the user's role in the event's chat, as for a typed command.

In a group a Mini App opens from a link (a ``web_app`` button is for private chats
only): ``https://t.me/<bot>/<app>?startapp=<payload>`` for the Mini App BotFather made
under the short name ``MINIAPP_NAME``, or ``https://t.me/<bot>?startapp=<payload>`` for
the bot's main Mini App (``MINIAPP_NAME=main``). In a private chat a ``web_app`` button
opens the page itself, the payload in its query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.application.base36 import b36
from bot.application.slip_links import SlipRef, read_payload
from bot.config import Settings
from db.models import Tournament

CONSOLE, FORM = "c", "r"
MAIN = "main"  # MINIAPP_NAME for the bot's main Mini App
MAX_EVENT = 2**31 - 1  # the tournaments' id column is a 32-bit integer
_PAYLOAD = re.compile(r"^([cr])([0-9a-z]{1,7})$")


@dataclass(frozen=True)
class Opened:
    """What a payload asks to open: ``kind`` (console or form) of ``tournament``, and the
    slip it came from, if any (checked against the event's slip secret)."""

    kind: str
    tournament: int
    slip: SlipRef | None = None


def payload(kind: str, t: Tournament) -> str:
    return f"{kind}{b36(t.id)}"


def read(text: str) -> Opened | None:
    """The claim of a payload, or None when it is none of ours."""
    match = _PAYLOAD.match(text)
    if match is not None:
        tournament = int(match.group(2), 36)
        return Opened(match.group(1), tournament) if 0 < tournament <= MAX_EVENT else None
    slip = read_payload(text)
    if slip is None or not 0 < slip.tournament <= MAX_EVENT:
        return None
    return Opened(FORM, slip.tournament, slip)


def enabled(settings: Settings) -> bool:
    """Whether the chat may offer the Mini App: it is served (a public URL) and BotFather
    knows it (``MINIAPP_NAME``)."""
    return bool(settings.public_url and settings.miniapp_name)


def chat_link(settings: Settings, bot: str, text: str) -> str | None:
    """The link that opens the Mini App on ``text`` from any chat; None when not set up."""
    if not enabled(settings) or not bot:
        return None
    name = settings.miniapp_name
    path = bot if name == MAIN else f"{bot}/{name}"
    return f"https://t.me/{path}?startapp={text}"


def page_url(settings: Settings, text: str) -> str | None:
    """The page itself on ``text``, for a ``web_app`` button in a private chat."""
    return f"{settings.public_url}/app?startapp={text}" if enabled(settings) else None

"""Numbers read from what users send: ASCII digits only, with bounds.

``str.isdigit`` accepts "²" and "٣", ``int`` accepts "1_0" and " 7 ", and a 20-digit id
does not fit a database integer. Every number a button or a command carries goes
through here, so a hostile or garbled one gets a refusal instead of an exception.
"""

from __future__ import annotations

import re

from bot.language.errors import UserError

# Row ids and Telegram ids fit in 15 digits; a 64-bit column holds 18 safely.
MAX_ID_DIGITS = 15
_ID = re.compile(rf"[0-9]{{1,{MAX_ID_DIGITS}}}")


def id_or_none(text: str) -> int | None:
    """A row id carried by a button (``confirm:17``), or None when it is not one."""
    return int(text) if _ID.fullmatch(text) else None


def bounded(text: str, key: str, low: int, high: int, **params: object) -> int:
    """A whole number from ``low`` to ``high``; else the refusal ``key`` that says so."""
    if not re.fullmatch(r"[0-9]{1,9}", text) or not low <= int(text) <= high:
        raise UserError(key, value=text, low=low, high=high, **params)
    return int(text)


# The words that answer an "are you sure?" in the command itself (`/cancel yes`, `/drop x yes`).
YES_WORDS = ("yes", "y", "是", "确认", "确定")

"""Numbers written in base 36 (``0-9a-z``): ids in button data and links kept short.

Telegram keeps 64 bytes of a button's data and 64 characters of a deep-link payload, and
``int(text, 36)`` reads them back, so one spelling serves every such code.
"""

from __future__ import annotations

import string

DIGITS = string.digits + string.ascii_lowercase


def b36(n: int) -> str:
    """``n`` in base 36, with a leading ``-`` when negative (a group's chat id)."""
    out, value = "", abs(n)
    while True:
        value, rest = divmod(value, 36)
        out = DIGITS[rest] + out
        if not value:
            return ("-" if n < 0 else "") + out

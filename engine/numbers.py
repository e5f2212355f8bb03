"""How a Decimal reads everywhere: ``37``, ``-7``, ``36.5``, never ``37.0``, ``-0`` or
``1E+2``. Stored scores, messages, charts and the export all go through these, so one
number is written the same way wherever it appears."""

from __future__ import annotations

from decimal import Decimal


def tidy(value: Decimal) -> Decimal:
    """The same number with no trailing zeros and no exponent (``2 × 0.5`` → ``1``)."""
    if value == 0:
        return Decimal(0)  # also turns -0 into 0
    return value.quantize(Decimal(1)) if value == value.to_integral() else value.normalize()


def plain(value: Decimal) -> str:
    """``37``, ``-7``, ``0.5``."""
    return f"{tidy(value):f}"


def signed(value: Decimal) -> str:
    """``+37``, ``-7``, ``+0.5``, ``+0``: a score change, with its sign."""
    text = plain(value)
    return text if text.startswith("-") else f"+{text}"

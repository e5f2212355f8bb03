"""Shared plumbing for every chart: a fonts-ready figure, PNG bytes, and label text.

Charts are built on ``matplotlib.figure.Figure`` directly, never ``pyplot``: pyplot keeps
global figure state, which leaks memory in a long-running bot and is not thread-safe
when renders run in an executor.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Mapping, Sequence
from decimal import Decimal

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from charts.fonts import setup_fonts
from engine.numbers import plain

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Every picture is 1080 px wide (WIDTH_IN at DPI): sharp on a phone, which shows it at
# about 360 px, so 15 pt text (30 px) is still 10 px there.
DPI = 144
WIDTH_PX = 1080
WIDTH_IN = WIDTH_PX / DPI
# Telegram refuses photos whose width + height exceeds 10000 px; stay well inside.
MAX_SIDE_PX = 4000


def new_figure(width_in: float, height_in: float) -> Figure:
    """A white figure with CJK-capable fonts, shrunk if it would exceed ``MAX_SIDE_PX``."""
    setup_fonts()
    scale = min(1.0, MAX_SIDE_PX / (max(width_in, height_in) * DPI))
    return Figure(figsize=(width_in * scale, height_in * scale), dpi=DPI, facecolor="white")


def to_png(fig: Figure) -> bytes:
    """Render ``fig`` to PNG bytes: no transparency, and zlib's fastest level (flat
    colours and text compress well at any level; the default took a quarter of a
    standings picture's time to save a few kilobytes)."""
    buffer = io.BytesIO()
    fig.savefig(
        buffer, format="png", dpi=fig.dpi, facecolor="white", pil_kwargs={"compress_level": 1}
    )
    return buffer.getvalue()


def place(ax: Axes, patch: Patch) -> None:
    """Add a shape to axes whose limits the chart has fixed: ``add_patch`` would
    recompute the data limits through the transforms for every shape (a third of the
    time of building a 32-row sheet)."""
    ax.add_artist(patch)


def require_labels(labels: Mapping[str, str], keys: Sequence[str]) -> None:
    """Fail early, naming the missing keys, rather than half-draw a chart in two languages."""
    missing = [key for key in keys if key not in labels]
    if missing:
        raise KeyError(f"chart labels missing: {', '.join(missing)}")


def display_width(text: str) -> int:
    """Columns ``text`` takes: wide (CJK) characters count 2, others 1."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def shorten(text: str, max_width: int) -> str:
    """Cut ``text`` to ``max_width`` display columns, ending in "…" when cut.

    Names are free text from Telegram profiles; one 60-character name must not squeeze
    every other bar out of the picture.
    """
    if display_width(text) <= max_width:
        return text
    out: list[str] = []
    used = 1  # room for the ellipsis
    for ch in text:
        used += display_width(ch)
        if used > max_width:
            break
        out.append(ch)
    return "".join(out) + "…"


def fmt_value(value: Decimal | float) -> str:
    """Points as people write them: ``37``, ``-7``, ``36.5`` (no ``.0``, no exponent)."""
    return plain(value if isinstance(value, Decimal) else Decimal(str(value)))

"""A table picture sized for a phone: the shape of every standings, group, seating and
podium picture.

Organisers share these in a group chat, where Telegram shows a photo about 360 px wide
on a phone; the picture is drawn 1080 px wide, so the smallest text (15 pt at 144 dpi,
30 px) is still 10 px there. The card is opaque and light with dark text and mid-tone
accents, so it reads the same in Telegram's light and dark themes. A long table is cut
into pages of :data:`ROWS_PER_PAGE` rows, each a picture of its own with the title
repeated and "1/3" in the corner.

A :class:`Sheet` is plain data (title, column headings, rows), so the bot decides what a
format's standings look like and this module only draws; functions here are pure
(data in, PNG bytes out) so they can run in a worker thread.
"""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from charts.canvas import DPI, WIDTH_IN, display_width, new_figure, place, shorten, to_png
from charts.data import PODIUM, ROWS_PER_PAGE, Row, Sheet

PAD = 0.3  # inches, left and right margin
TITLE_H = 0.9
HEAD_H = 0.5
ROW_H = 0.46
SUB_H = 0.3  # extra height of a row with a second line
CELL_PAD = 0.12  # inches of a cell its text leaves free
FOOT_H = 0.45
TEXT_PT = 15.0
SUB_PT = 12.0
TITLE_PT = 22.0

INK = "#1d2330"
MUTED = "#6b7280"
CARD = "#fbfaf7"
HEAD = "#2f3e56"
ZEBRA = "#eef1f5"
SECTION = "#dfe6f0"
MARKS = {
    "gold": "#f3d36b",
    "silver": "#d5dae1",
    "bronze": "#e8b98e",
    "advance": "#cfe9d4",  # goes on (groups, a knockout table)
    "out": CARD,
    "section": SECTION,
    "": CARD,
}


def sheet_pngs(sheet: Sheet, rows_per_page: int = ROWS_PER_PAGE) -> list[bytes]:
    """The sheet as one PNG per page."""
    return [to_png(fig) for fig in sheet_figures(sheet, rows_per_page)]


def sheet_figures(sheet: Sheet, rows_per_page: int = ROWS_PER_PAGE) -> list[Figure]:
    """One figure per page (tests read their text without decoding pixels)."""
    pages = [sheet.rows[i : i + rows_per_page] for i in range(0, len(sheet.rows), rows_per_page)]
    pages = pages or [()]
    return [_page(sheet, rows, i, len(pages)) for i, rows in enumerate(pages)]


def _page(sheet: Sheet, rows: Sequence[Row], index: int, count: int) -> Figure:
    body = sum(ROW_H + (SUB_H if r.sub else 0) for r in rows)
    legend = FOOT_H if sheet.legend else 0
    height = TITLE_H + HEAD_H + body + FOOT_H + legend + 0.2
    fig = new_figure(WIDTH_IN, height)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, WIDTH_IN)
    ax.set_ylim(height, 0)
    ax.axis("off")
    place(ax, Rectangle((0, 0), WIDTH_IN, height, facecolor=CARD, edgecolor="none"))
    ax.text(PAD, 0.42, sheet.title, fontsize=TITLE_PT, color=INK, va="center", weight="bold")
    if sheet.subtitle:
        ax.text(PAD, 0.76, sheet.subtitle, fontsize=SUB_PT, color=MUTED, va="center")
    if count > 1:
        ax.text(
            WIDTH_IN - PAD,
            0.42,
            f"{index + 1}/{count}",
            fontsize=SUB_PT,
            color=MUTED,
            ha="right",
            va="center",
        )
    edges = _edges(sheet)
    y = TITLE_H
    place(ax, Rectangle((0, y), WIDTH_IN, HEAD_H, facecolor=HEAD, edgecolor="none"))
    for col, heading in enumerate(sheet.columns):
        _cell(ax, edges, col, sheet.aligns[col], y + HEAD_H / 2, heading, SUB_PT, "white")
    y += HEAD_H
    for i, row in enumerate(rows):
        h = ROW_H + (SUB_H if row.sub else 0)
        fill = MARKS[row.mark] if row.mark else (ZEBRA if i % 2 else CARD)
        place(ax, Rectangle((0, y), WIDTH_IN, h, facecolor=fill, edgecolor="none"))
        colour = MUTED if row.mark == "out" else INK
        if row.mark == "section":
            text = shorten(row.cells[0], _columns(WIDTH_IN - 2 * PAD, TEXT_PT))
            ax.text(PAD, y + h / 2, text, fontsize=TEXT_PT, color=INK, va="center", weight="bold")
        else:
            for col, text in enumerate(row.cells):
                _cell(ax, edges, col, sheet.aligns[col], y + ROW_H / 2, text, TEXT_PT, colour)
            if row.sub:
                left = edges[1] if len(edges) > 2 else edges[0]
                width = WIDTH_IN - PAD - left
                sub = shorten(row.sub, _columns(width, SUB_PT))
                ax.text(
                    left + 0.06,
                    y + ROW_H + SUB_H / 2 - 0.04,
                    sub,
                    fontsize=SUB_PT,
                    color=MUTED,
                    va="center",
                )
        y += h
    if sheet.legend:
        x = PAD
        for mark, meaning in sheet.legend:
            place(ax, Rectangle((x, y + 0.13), 0.3, 0.22, facecolor=MARKS[mark], edgecolor=MUTED))
            ax.text(x + 0.4, y + 0.24, meaning, fontsize=SUB_PT, color=INK, va="center")
            x += 0.6 + 0.1 * len(meaning) * 1.6
        y += FOOT_H
    if sheet.footer:
        footer = shorten(sheet.footer, _columns(WIDTH_IN - 2 * PAD, SUB_PT))
        ax.text(PAD, y + FOOT_H / 2, footer, fontsize=SUB_PT, color=MUTED, va="center")
    return fig


def _edges(sheet: Sheet) -> list[float]:
    """Left edge of each column (and the right edge of the last), in inches: the declared
    widths, except that room a column's longest text leaves unused goes to a column whose
    longest text would be cut (「小组赛出局（小组第3名）」 beside short names), as far as
    it reaches. Every page of the sheet gets the same columns."""
    usable = WIDTH_IN - 2 * PAD
    widths = [usable * w / sum(sheet.widths) for w in sheet.widths]
    cells = [row.cells for row in sheet.rows if row.mark != "section"]
    need = [
        # one column more than the text: the cut (``_columns``) rounds down
        (max((display_width(c[col]) for c in cells if col < len(c)), default=0) + 1)
        * _column(TEXT_PT)
        + CELL_PAD
        for col in range(len(widths))
    ]
    spare = {col: w - n for col, (w, n) in enumerate(zip(widths, need, strict=True)) if w > n}
    short = {col: n - w for col, (w, n) in enumerate(zip(widths, need, strict=True)) if n > w}
    lent = min(sum(spare.values()), sum(short.values()))
    for given, change in ((spare, -lent), (short, lent)):
        for col, room in given.items():
            widths[col] += change * room / sum(given.values())
    edges = [PAD]
    for w in widths:
        edges.append(edges[-1] + w)
    return edges


def _column(pt: float) -> float:
    """The width of one display column (half a CJK character) at ``pt``, in inches."""
    return pt / 72 * 0.66


def _columns(width_in: float, pt: float) -> int:
    """Display columns (a CJK character is 2) that fit ``width_in`` at ``pt``."""
    return max(2, int(width_in / _column(pt)))


def _cell(
    ax: Axes,
    edges: Sequence[float],
    col: int,
    align: str,
    y: float,
    text: str,
    pt: float,
    colour: str,
) -> None:
    left, right = edges[col], edges[col + 1]
    text = shorten(text, _columns(right - left - CELL_PAD, pt))
    x = {"l": left + 0.06, "r": right - 0.06, "c": (left + right) / 2}[align]
    ha = {"l": "left", "r": "right", "c": "center"}[align]
    ax.text(x, y, text, fontsize=pt, color=colour, ha=ha, va="center")


__all__ = ["DPI", "PODIUM", "ROWS_PER_PAGE", "Row", "Sheet", "sheet_figures", "sheet_pngs"]

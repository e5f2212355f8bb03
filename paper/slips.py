"""The printed round: seating sheet, a table card and a score slip per table, on A4.

Paper still runs these events: players sit by a card with their table's number, write
each hand on a slip, and the referee pins the seating sheet on the wall. The slip's QR
code opens the bot's report form for that very table, so what was written on paper
reaches the chat in a few taps. Everything here is laid out from plain data (no
database, no Telegram); names are drawn in the packaged CJK font, embedded as a subset.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from paper.qr import qr_png

FONT = "cjk"
MARGIN = 15.0  # mm
QR_SIZE = 42.0  # mm: scans from a phone held at arm's length over the table


@dataclass(frozen=True)
class Words:
    """The printed labels, in the chat's language."""

    seating: str  # "Round 2 seating"
    tables: str  # the seating sheet's first column header
    slip: str  # "Score slip"
    scan: str  # under the QR code
    hand: str  # the first column's header
    total: str
    signature: str  # the signature row's label
    deadline: str  # "Results due: …" (already formatted)


@dataclass(frozen=True)
class PrintedTable:
    """One table: its seats as ``(letter, name)``, the blanks a hand needs (one per
    column header) and the deep link its slip's QR code holds."""

    number: int
    label: str  # "Table 3", in the chat's language
    seats: Sequence[tuple[str, str]]
    columns: Sequence[str]
    link: str


@dataclass(frozen=True)
class PrintedRound:
    title: str
    round: int
    words: Words
    tables: Sequence[PrintedTable]
    instructions: str  # how to fill in a hand, in the game's terms
    hands: int = 8  # blank rows on a slip


def _pdf(font: Path) -> FPDF:
    pdf = FPDF(format="A4")
    pdf.set_margins(MARGIN, MARGIN)
    pdf.set_auto_page_break(True, MARGIN)
    pdf.add_font(FONT, fname=str(font))  # first face of a .ttc collection
    pdf.add_font(FONT, style="B", fname=str(font))  # table headings: one weight only
    pdf.set_font(FONT, size=11)
    return pdf


def _heading(pdf: FPDF, text: str, size: float = 18) -> None:
    pdf.set_font(FONT, size=size)
    pdf.multi_cell(0, size * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, size=11)


def seating_sheet(pdf: FPDF, printed: PrintedRound) -> None:
    """Every table with its seats, for the wall."""
    pdf.add_page()
    _heading(pdf, f"{printed.title} · {printed.words.seating}")
    pdf.cell(0, 8, printed.words.deadline, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    widest = max(printed.tables, key=lambda row: len(row.seats), default=None)
    letters = [letter for letter, _ in widest.seats] if widest is not None else []
    seats = len(letters)
    widths = (20, *([(pdf.epw - 20) / max(seats, 1)] * seats))
    pdf.set_font(FONT, size=12)
    with pdf.table(col_widths=widths, line_height=8, text_align="LEFT") as grid:
        header = grid.row()
        header.cell(printed.words.tables)
        for letter in letters:
            header.cell(letter)
        for row in printed.tables:
            line = grid.row()
            line.cell(str(row.number))
            for _, name in row.seats:
                line.cell(name)
            for _ in range(seats - len(row.seats)):
                line.cell("")
    pdf.set_font(FONT, size=11)


def table_card(pdf: FPDF, printed: PrintedRound, row: PrintedTable) -> None:
    """A card to stand on the table: the number large enough to read across the hall."""
    pdf.add_page()
    _heading(pdf, f"{printed.title} · {printed.words.seating}", size=14)
    pdf.set_font(FONT, size=220)
    pdf.set_y(45)
    pdf.cell(0, 95, str(row.number), align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, size=28)
    pdf.cell(0, 16, row.label, align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(8)
    pdf.set_font(FONT, size=22)
    for letter, name in row.seats:
        pdf.cell(0, 14, f"{letter}  {name}", align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, size=11)


def score_slip(pdf: FPDF, printed: PrintedRound, row: PrintedTable) -> None:
    """The slip: who sits where, a blank per column per hand, signatures, the QR code."""
    pdf.add_page()
    words = printed.words
    top = pdf.get_y()
    pdf.image(io.BytesIO(qr_png(row.link)), x=pdf.w - MARGIN - QR_SIZE, y=top, w=QR_SIZE, h=QR_SIZE)
    pdf.set_font(FONT, size=8)
    pdf.set_xy(pdf.w - MARGIN - QR_SIZE, top + QR_SIZE)
    pdf.multi_cell(QR_SIZE, 3.5, words.scan, align="C")
    text_width = pdf.epw - QR_SIZE - 5
    pdf.set_xy(MARGIN, top)
    pdf.set_font(FONT, size=16)
    pdf.multi_cell(text_width, 8, f"{printed.title}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, size=20)
    heading = f"{words.slip} · {row.label}"
    pdf.multi_cell(text_width, 10, heading, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, size=11)
    pdf.multi_cell(text_width, 6, words.deadline, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    for letter, name in row.seats:
        pdf.cell(text_width, 7, f"{letter}  {name}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_y(max(pdf.get_y(), top + QR_SIZE + 12) + 3)
    pdf.set_font(FONT, size=9)
    pdf.multi_cell(0, 4.5, printed.instructions, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    first = 14.0
    widths = (first, *([(pdf.epw - first) / max(len(row.columns), 1)] * len(row.columns)))
    with pdf.table(col_widths=widths, line_height=5, text_align="CENTER") as grid:
        header = grid.row()
        header.cell(words.hand)
        for column in row.columns:
            header.cell(column)
        pdf.set_font(FONT, size=11)
        for hand in range(1, printed.hands + 1):
            line = grid.row()
            line.cell(f"{hand}\n ")  # two lines tall: room to write
            for _ in row.columns:
                line.cell("")
        total = grid.row()
        total.cell(f"{words.total}\n ")
        for _ in row.columns:
            total.cell("")
    pdf.ln(6)
    pdf.cell(0, 7, words.signature, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    width = pdf.epw / max(len(row.seats), 1)
    for letter, _ in row.seats:
        pdf.cell(width, 12, f"{letter} ________________", border=0)
    pdf.ln(12)


def print_round(printed: PrintedRound, font: Path) -> bytes:
    """The whole PDF: the seating sheet, then a card and a slip for each table."""
    pdf = _pdf(font)
    pdf.set_title(f"{printed.title} · {printed.words.seating}")
    seating_sheet(pdf, printed)
    for row in printed.tables:
        table_card(pdf, printed, row)
        score_slip(pdf, printed, row)
    return bytes(pdf.output())

"""What the pictures show, as plain data: no matplotlib here.

The bot builds these (a standings sheet, the podium, the bracket's matches) on every
confirmed result, and the process starts without importing matplotlib (tens of
megabytes, a second); only the drawing modules beside this one import it, on the first
picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROWS_PER_PAGE = 32  # a sheet longer than this is drawn as several pictures
PODIUM = ("gold", "silver", "bronze")  # the marks of the first three rows
# The bracket's words: "round" is a header template with {n}; "final", "champion", "bye",
# and "third-match", the heading of the match for third place.
BRACKET_LABEL_KEYS = ("round", "final", "champion", "bye", "third-match")


@dataclass(frozen=True)
class Row:
    """One line; ``sub`` is a smaller second line (a team's members); ``mark`` tints it."""

    cells: tuple[str, ...]
    mark: str = ""  # a key of charts.sheet.MARKS; "section" draws cells[0] across the width
    sub: str = ""


@dataclass(frozen=True)
class Sheet:
    """What to draw: title, a line under it, column headings and their share of the
    width, alignments (``l``, ``r`` or ``c`` per column), rows and a footer line."""

    title: str
    subtitle: str
    columns: tuple[str, ...]
    widths: tuple[float, ...]
    aligns: str
    rows: tuple[Row, ...]
    footer: str = ""
    legend: tuple[tuple[str, str], ...] = field(default=())  # (mark, meaning) pairs


@dataclass(frozen=True)
class Place:
    """One step of the podium: its word (冠军), the name (a player, a team, a pair) and,
    for teams, the members."""

    label: str
    name: str
    members: str = ""


@dataclass(frozen=True)
class Podium:
    title: str
    line: str  # game and date
    places: tuple[Place, ...]
    footer: str = ""


@dataclass(frozen=True)
class Match:
    """Two names (``""`` for a bye or an empty slot), the winner's name (``""`` while
    undecided), the score of each side (``""`` when there is none), and ``feeds``: the
    indexes of the previous round's matches whose winners play here (empty: the usual
    convention, matches ``2i`` and ``2i + 1``)."""

    first: str
    second: str
    winner: str = ""
    first_score: str = ""
    second_score: str = ""
    feeds: tuple[int, ...] = ()

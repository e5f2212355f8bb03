"""The standings picture sent with ``/standings`` (SPEC.md, group commands).

A horizontal bar per player, best at the top: "rank. name" on the left, the points as a
bar with its value written at the bar's end, eliminated players greyed. Point games
(Big Two 锄大地, Dou Dizhu 斗地主) go negative, so bars grow left or right from zero.
A 200-player office tournament would make an unreadable strip, so past ``MAX_ROWS``
only the top rows are drawn and a last line says how many more there are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from matplotlib.figure import Figure

from charts.canvas import fmt_value, new_figure, require_labels, shorten, to_png

MAX_ROWS = 50
NAME_WIDTH = 18  # display columns kept of a name
ROW_HEIGHT_IN = 0.32
WIDTH_IN = 8.0
ALIVE_COLOUR = "#3572c6"
PODIUM_COLOURS = ("#d4a017", "#9ea7b3", "#b87333")  # gold, silver, bronze for ranks 1-3
OUT_COLOUR = "#c8c8c8"
OUT_TEXT = "#8a8a8a"

# Words drawn on the chart, supplied by the caller in the chat's language.
# "points": x-axis title; "more": template with {n}, e.g. "… and {n} more" / "…… 另有 {n} 人".
LABEL_KEYS = ("points", "more")


@dataclass(frozen=True)
class StandingRow:
    """One player line as the chart needs it (the bot maps engine Standings onto it)."""

    rank: int
    name: str
    points: Decimal | float
    alive: bool
    note: str = ""  # short text after the value, e.g. "DQ" or "-1 penalty"


def _bar_colour(row: StandingRow, podium: bool = True) -> str:
    if not row.alive:
        return OUT_COLOUR
    if podium and 1 <= row.rank <= len(PODIUM_COLOURS):
        return PODIUM_COLOURS[row.rank - 1]
    return ALIVE_COLOUR


def standings_png(
    rows: Sequence[StandingRow], title: str, labels: Mapping[str, str], podium: bool = True
) -> bytes:
    """Draw ``rows`` in the order given (the caller sorts) and return PNG bytes; medal
    colours only with ``podium`` (the event is over: no medals mid-round)."""
    return to_png(standings_figure(rows, title, labels, podium))


def standings_figure(
    rows: Sequence[StandingRow], title: str, labels: Mapping[str, str], podium: bool = True
) -> Figure:
    """The chart as a figure, so tests can read what it draws without decoding pixels."""
    require_labels(labels, LABEL_KEYS)
    shown = list(rows[:MAX_ROWS])
    hidden = len(rows) - len(shown)
    lines = len(shown) + (1 if hidden else 0)
    fig = new_figure(WIDTH_IN, 1.3 + ROW_HEIGHT_IN * max(lines, 3))
    ax = fig.add_subplot()

    values = [float(row.points) for row in shown]
    positions = list(range(len(shown)))
    ax.barh(positions, values, height=0.7, color=[_bar_colour(r, podium) for r in shown], zorder=2)

    low, high = min([0.0, *values]), max([0.0, *values])
    span = (high - low) or 1.0
    pad = span * 0.03
    for pos, row, value in zip(positions, shown, values, strict=True):
        text = fmt_value(row.points) + (f"  {row.note}" if row.note else "")
        ax.text(
            value + (pad if value >= 0 else -pad),
            pos,
            text,
            va="center",
            ha="left" if value >= 0 else "right",
            fontsize=9,
            color="#222222" if row.alive else OUT_TEXT,
        )

    ax.set_yticks(positions, [f"{row.rank}. {shorten(row.name, NAME_WIDTH)}" for row in shown])
    for tick, row in zip(ax.get_yticklabels(), shown, strict=True):
        tick.set_color("#222222" if row.alive else OUT_TEXT)
    if hidden:
        ax.text(
            0.0,
            len(shown) + 0.2,
            labels["more"].format(n=hidden),
            transform=ax.get_yaxis_transform(),
            ha="right",
            va="center",
            fontsize=9,
            color=OUT_TEXT,
        )
    # Room on both sides for value labels; rows top-down with rank 1 first.
    ax.set_xlim(low - span * 0.22 if low < 0 else 0, high + span * 0.22 if high > 0 else pad)
    ax.set_ylim(lines - 0.4, -0.6)
    ax.axvline(0, color="#444444", linewidth=0.8, zorder=3)
    ax.grid(axis="x", color="#e6e6e6", zorder=0)
    ax.set_axisbelow(True)
    ax.tick_params(axis="y", length=0, labelsize=9)
    ax.tick_params(axis="x", labelsize=8)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel(labels["points"])
    ax.set_title(title, fontsize=13, loc="left")
    fig.tight_layout()
    return fig

"""Pictures of ratings and seasons (docs/rules/ratings.md): a leaderboard and one player's history.

The leaderboard (``/rating``, ``/season``) is a bar per player, best at the top, value at
the bar's end and a mark for provisional ratings; the history (``/me``) is the player's
rating after each event, one line per game. Both are 1080 px wide for a phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from charts.canvas import DPI, fmt_value, new_figure, shorten, to_png

WIDTH_IN = 1080 / DPI
MAX_ROWS = 30
MOST_TICKS = 6  # events named under a history's axis
ROW_HEIGHT_IN = 0.34
BAR = "#3572c6"
PODIUM = ("#d4a017", "#9ea7b3", "#b87333")
FAINT = "#9aa5b1"


@dataclass(frozen=True)
class BoardRow:
    """One leaderboard line: place, name, figure, and a short note (e.g. provisional)."""

    rank: int
    name: str
    value: Decimal | int
    note: str = ""


def board_png(rows: Sequence[BoardRow], title: str) -> bytes:
    """Bars from the lowest shown figure, so 1500-based ratings still differ visibly."""
    shown = list(rows[:MAX_ROWS])
    fig = new_figure(WIDTH_IN, 1.2 + ROW_HEIGHT_IN * max(len(shown), 3))
    ax = fig.add_subplot()
    values = [float(r.value) for r in shown]
    lowest = min(values, default=0.0)
    floor = min(0.0, lowest) if lowest < 200 else lowest - 100  # ratings sit near 1500
    colours = [PODIUM[r.rank - 1] if r.rank <= len(PODIUM) else BAR for r in shown]
    ax.barh(range(len(shown)), [v - floor for v in values], left=floor, color=colours, zorder=2)
    high = max([floor + 1, *values])
    for pos, row in enumerate(shown):
        ax.text(
            float(row.value) + (high - floor) * 0.01,
            pos,
            fmt_value(row.value) + (f"  {row.note}" if row.note else ""),
            va="center",
            fontsize=10,
            color="#222222" if not row.note else FAINT,
        )
    ax.set_yticks(range(len(shown)), [f"{r.rank}. {shorten(r.name, 18)}" for r in shown])
    ax.set_xlim(floor, high + (high - floor) * 0.25)
    ax.set_ylim(len(shown) - 0.4, -0.6)
    _tidy(ax, title)
    fig.tight_layout()
    return to_png(fig)


def history_png(series: Sequence[tuple[str, Sequence[tuple[str, int]]]], title: str) -> bytes:
    """One line per game: (game name, [(event label, rating after it), …]). Each line
    names its last figure (the rating now) and at most :data:`MOST_TICKS` events are
    named under the axis, the latest always: thirty event names side by side at phone
    width ran into each other, and laying out a label per point made the picture of
    thirty events cost three times the picture of one (/me after a year of events)."""
    fig: Figure = new_figure(WIDTH_IN, 5.0)
    ax = fig.add_subplot()
    for name, points in series:
        xs = list(range(1, len(points) + 1))
        ax.plot(xs, [v for _, v in points], marker="o", label=name, zorder=2)
        last = points[-1][1]
        ax.annotate(
            str(last), (xs[-1], last), textcoords="offset points", xytext=(0, 6), ha="center"
        )
    longest = max(series, key=lambda s: len(s[1]))[1] if series else []
    ticks = named_ticks(len(longest))
    ax.set_xticks(ticks, [shorten(longest[x - 1][0], 10) for x in ticks], fontsize=8)
    if len(series) > 1:
        ax.legend(loc="best", fontsize=9)
    _tidy(ax, title)
    fig.tight_layout()
    return to_png(fig)


def named_ticks(points: int) -> list[int]:
    """The points (1 to ``points``) a history names under its axis: evenly apart, at
    most :data:`MOST_TICKS`, counted back from the latest so it is always among them."""
    step = -(-points // MOST_TICKS)  # rounded up
    return sorted(range(points, 0, -step))


def _tidy(ax: Axes, title: str) -> None:
    ax.grid(axis="x", color="#e6e6e6", zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_title(title, fontsize=14, loc="left")

"""Cumulative points per round, one line per player: who is climbing, who is falling.

Only the first ``TOP_N`` players are drawn; a hundred lines would be noise. "First"
means the caller's order, which is the standings order: tie-breaks and eliminations
decide who leads, not the latest total alone. Players knocked out early simply have
shorter series, so their line stops at the round they left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from charts.canvas import new_figure, require_labels, shorten, to_png

TOP_N = 10
NAME_WIDTH = 16
# "round": x-axis title; "points": y-axis title.
LABEL_KEYS = ("round", "points")


def _leaders(series: Mapping[str, Sequence[float]]) -> list[tuple[str, Sequence[float]]]:
    """The first ``TOP_N`` non-empty series, in the caller's (standings) order."""
    return [(name, points) for name, points in series.items() if points][:TOP_N]


def progression_png(
    series: Mapping[str, Sequence[float]], title: str, labels: Mapping[str, str]
) -> bytes:
    """``series`` maps a player's name to cumulative points after rounds 1, 2, …

    Pass it in standings order (a ``dict`` keeps insertion order); the legend follows it.
    """
    return to_png(progression_figure(series, title, labels))


def progression_figure(
    series: Mapping[str, Sequence[float]], title: str, labels: Mapping[str, str]
) -> Figure:
    """The chart as a figure, so tests can read what it draws without decoding pixels."""
    require_labels(labels, LABEL_KEYS)
    leaders = _leaders(series)
    fig = new_figure(9.0, 5.5)
    ax = fig.add_subplot()
    for index, (name, points) in enumerate(leaders):
        rounds = range(1, len(points) + 1)
        ax.plot(
            rounds,
            [float(p) for p in points],
            marker="o",
            markersize=4,
            linewidth=2,
            color=f"C{index}",
            label=shorten(name, NAME_WIDTH),
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(labels["round"])
    ax.set_ylabel(labels["points"])
    ax.set_title(title, fontsize=13, loc="left")
    ax.axhline(0, color="#888888", linewidth=0.8)
    ax.grid(color="#e6e6e6")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if leaders:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    fig.tight_layout()
    return fig

"""Cumulative points per round, one line per player: who is climbing, who is falling.

Sent with ``/standings`` once two rounds are played. Everyone is drawn as a thin grey
line so the field's spread shows; the first ``TOP_N`` (the caller's order, which is the
standings order: tie-breaks and eliminations decide who leads, not the latest total
alone) are coloured and named at the line's end, where the eye ends up, rather than in a
legend that a phone shrinks to nothing. Players knocked out early simply have shorter
series, so their line stops at the round they left. Pure: data in, PNG bytes out.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from charts.canvas import WIDTH_IN, new_figure, require_labels, shorten, to_png
from charts.sheet import CARD, INK, MUTED

TOP_N = 8
NAME_WIDTH = 12
# Distinct on a light card and for common colour blindness (Okabe–Ito, darkened).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f6a00", "#000000")
# "round": x-axis title; "points": y-axis title.
LABEL_KEYS = ("round", "points")


def _leaders(series: Mapping[str, Sequence[float]]) -> list[tuple[str, Sequence[float]]]:
    """The first ``TOP_N`` non-empty series, in the caller's (standings) order."""
    return [(name, points) for name, points in series.items() if points][:TOP_N]


def _span(series: Mapping[str, Sequence[float]]) -> float:
    values = [float(v) for points in series.values() for v in points] or [0.0]
    return (max(values) - min(values)) or 1.0


def _spread(ys: Sequence[float], gap: float) -> list[float]:
    """Label heights near ``ys`` but at least ``gap`` apart, so names never overprint."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    out = list(ys)
    for prev, cur in itertools.pairwise(order):
        out[cur] = max(out[cur], out[prev] + gap)
    return out


def progression_png(
    series: Mapping[str, Sequence[float]], title: str, labels: Mapping[str, str]
) -> bytes:
    """``series`` maps a player's name to cumulative points after rounds 1, 2, …

    Pass it in standings order (a ``dict`` keeps insertion order).
    """
    return to_png(progression_figure(series, title, labels))


def progression_figure(
    series: Mapping[str, Sequence[float]], title: str, labels: Mapping[str, str]
) -> Figure:
    """The chart as a figure, so tests can read what it draws without decoding pixels."""
    require_labels(labels, LABEL_KEYS)
    leaders = _leaders(series)
    fig = new_figure(WIDTH_IN, WIDTH_IN * 0.9)
    fig.set_facecolor(CARD)
    ax = fig.add_subplot()
    ax.set_facecolor(CARD)
    for name, points in series.items():
        if points and name not in dict(leaders):
            ax.plot(range(1, len(points) + 1), points, color="#c9ced6", linewidth=1.2, zorder=1)
    rounds = max((len(p) for p in series.values()), default=1)
    ends = _spread([float(points[-1]) for _, points in leaders], _span(series) * 0.06)
    for index, (name, points) in enumerate(leaders):
        colour = COLOURS[index % len(COLOURS)]
        xs = range(1, len(points) + 1)
        ax.plot(
            xs,
            [float(p) for p in points],
            marker="o",
            markersize=6,
            linewidth=3,
            color=colour,
            zorder=3,
        )
        ax.annotate(
            f"{index + 1}. {shorten(name, NAME_WIDTH)}",
            (len(points), float(points[-1])),
            xytext=(len(points) + 0.15, ends[index]),
            textcoords="data",
            va="center",
            fontsize=13,
            color=colour,
        )
    ax.set_xlim(0.8, rounds + 0.2 + max(1.2, rounds * 0.45))
    ax.set_xticks(range(1, rounds + 1))
    ax.set_xlabel(labels["round"], fontsize=14, color=INK)
    ax.set_ylabel(labels["points"], fontsize=14, color=INK)
    ax.set_title(title, fontsize=20, loc="left", color=INK, pad=14)
    ax.axhline(0, color=MUTED, linewidth=0.8)
    ax.grid(color="#e3e6ea")
    ax.tick_params(labelsize=13, colors=INK)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig

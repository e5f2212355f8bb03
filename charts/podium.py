"""The podium picture posted when an event ends: the one organisers share with the
whole company group (title, game and date, 冠军 / 亚军 / 季军, teams with their members).

A square card, 1080 × 1080 px, three medal rows under the title. Pure: data in, PNG out.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from charts.canvas import WIDTH_IN, new_figure, place, shorten, to_png
from charts.data import PODIUM, Podium
from charts.sheet import CARD, HEAD, INK, MARKS, MUTED

NAME_WIDTH = 26  # display columns of a winner's name
SUB_WIDTH = 52


def podium_png(podium: Podium) -> bytes:
    return to_png(podium_figure(podium))


def podium_figure(podium: Podium) -> Figure:
    """The card as a figure (tests read its text)."""
    size = WIDTH_IN
    fig = new_figure(size, size)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, size)
    ax.set_ylim(size, 0)
    ax.axis("off")
    place(ax, Rectangle((0, 0), size, size, facecolor=CARD, edgecolor="none"))
    place(ax, Rectangle((0, 0), size, 1.7, facecolor=HEAD, edgecolor="none"))
    ax.text(
        size / 2,
        0.7,
        shorten(podium.title, 30),
        fontsize=28,
        color="white",
        ha="center",
        va="center",
    )
    ax.text(size / 2, 1.3, podium.line, fontsize=15, color="#e5e9f0", ha="center", va="center")
    y = 2.2
    for i, spot in enumerate(podium.places[: len(PODIUM)]):
        h = 1.55
        place(
            ax,
            Rectangle(
                (0.35, y), size - 0.7, h - 0.15, facecolor=MARKS[PODIUM[i]], edgecolor="none"
            ),
        )
        place(ax, Circle((1.05, y + (h - 0.15) / 2), 0.42, facecolor="white", edgecolor=INK))
        ax.text(
            1.05, y + (h - 0.15) / 2, str(i + 1), fontsize=24, color=INK, ha="center", va="center"
        )
        ax.text(1.75, y + 0.38, spot.label, fontsize=15, color=MUTED, va="center")
        ax.text(1.75, y + 0.85, shorten(spot.name, NAME_WIDTH), fontsize=24, color=INK, va="center")
        if spot.members:
            ax.text(
                1.75,
                y + 1.2,
                shorten(spot.members, SUB_WIDTH),
                fontsize=13,
                color=INK,
                va="center",
            )
        y += h + 0.1
    if podium.footer:
        ax.text(
            size / 2, size - 0.35, podium.footer, fontsize=12, color=MUTED, ha="center", va="center"
        )
    return fig

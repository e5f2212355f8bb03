"""A single-elimination bracket picture for ``/bracket`` (单败淘汰, seed 004).

Rounds run left to right; each match is two stacked name boxes, the winner's box tinted
and the loser's name greyed. An empty name in a decided match is a bye (the other player
went through without playing) and is written as the word for "bye"; in an undecided
match it is a slot still waiting for a winner and stays blank. Match ``i`` of a round
feeds match ``i // 2`` of the next, the usual bracket convention, and is drawn halfway
between its two feeders so the connector lines read like a tree. If the last round is
a single decided match, a champion box closes the picture.

Geometry is worked out in inches (the axes fill the figure one-to-one), so boxes and
9-point text keep their proportions whatever the field size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from charts.canvas import new_figure, require_labels, shorten, to_png

Match = tuple[str, str, str]  # name1, name2, winner name or "" while undecided

BOX_W = 1.9
BOX_H = 0.24
COL_GAP = 0.55
SLOT = 0.66  # vertical room per first-round match
TOP = 0.95  # title and round headers
MARGIN = 0.25
NAME_WIDTH = 20
FONT_PT = 9.0
WIN_FILL = "#dbeedb"
LINE = "#777777"
TEXT = "#222222"
LOST_TEXT = "#9a9a9a"
# "round": header template with {n}; "final", "champion", "bye": single words.
LABEL_KEYS = ("round", "final", "champion", "bye")


def _centres(rounds: Sequence[Sequence[Match]]) -> list[list[float]]:
    """Vertical centre of every match: first round evenly spaced, later rounds between feeders."""
    centres: list[list[float]] = []
    for r, matches in enumerate(rounds):
        row: list[float] = []
        for i in range(len(matches)):
            feeders = centres[r - 1][2 * i : 2 * i + 2] if r else []
            if feeders:
                row.append(sum(feeders) / len(feeders))
            else:
                row.append(TOP + SLOT * (2**r) * (i + 0.5))
        centres.append(row)
    return centres


def _header(r: int, rounds: Sequence[Sequence[Match]], labels: Mapping[str, str]) -> str:
    if r == len(rounds) - 1 and len(rounds[r]) == 1:
        return labels["final"]
    return labels["round"].format(n=r + 1)


def _name_box(
    ax: Axes, x: float, y: float, name: str, match: Match, labels: Mapping[str, str], pt: float
) -> None:
    """One name box with its top-left corner at (x, y)."""
    winner = match[2]
    won = bool(winner) and name == winner
    lost = bool(winner) and name != winner
    ax.add_patch(
        Rectangle(
            (x, y), BOX_W, BOX_H, facecolor=WIN_FILL if won else "white", edgecolor=LINE, lw=0.8
        )
    )
    ax.text(
        x + 0.08,
        y + BOX_H / 2,
        shorten(name, NAME_WIDTH) if name else (labels["bye"] if winner else ""),
        va="center",
        ha="left",
        fontsize=pt,
        color=LOST_TEXT if lost or not name else TEXT,
    )


def bracket_png(rounds: Sequence[Sequence[Match]], title: str, labels: Mapping[str, str]) -> bytes:
    """Draw the bracket; ``rounds[0]`` is the first round, each a list of matches."""
    return to_png(bracket_figure(rounds, title, labels))


def bracket_figure(
    rounds: Sequence[Sequence[Match]], title: str, labels: Mapping[str, str]
) -> Figure:
    """The bracket as a figure, so tests can read what it draws without decoding pixels."""
    require_labels(labels, LABEL_KEYS)
    centres = _centres(rounds)
    final = rounds[-1] if rounds else []
    champion = final[0][2] if len(final) == 1 else ""
    columns = len(rounds) + (1 if champion else 0)
    width = 2 * MARGIN + columns * BOX_W + max(columns - 1, 0) * COL_GAP
    height = TOP + SLOT * max((len(rounds[0]) if rounds else 0), 1) + MARGIN
    fig = new_figure(width, height)
    pt = FONT_PT * fig.get_figheight() / height  # keep text in scale if the figure shrank
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    ax.text(MARGIN, 0.3, title, fontsize=pt * 13 / 9, va="center", ha="left", color=TEXT)

    step = BOX_W + COL_GAP
    for r, matches in enumerate(rounds):
        x = MARGIN + r * step
        ax.text(x + BOX_W / 2, TOP - 0.2, _header(r, rounds, labels), ha="center", fontsize=pt)
        for i, match in enumerate(matches):
            c = centres[r][i]
            _name_box(ax, x, c - BOX_H, match[0], match, labels, pt)
            _name_box(ax, x, c, match[1], match, labels, pt)
            if r + 1 < len(rounds) and i // 2 < len(rounds[r + 1]):
                target = centres[r + 1][i // 2]
                mid = x + BOX_W + COL_GAP / 2
                ax.plot(
                    [x + BOX_W, mid, mid, x + step],
                    [c, c, target, target],
                    color=LINE,
                    lw=0.8,
                )
    if champion:
        x = MARGIN + len(rounds) * step
        c = centres[-1][0]
        ax.text(x + BOX_W / 2, c - BOX_H - 0.1, labels["champion"], ha="center", fontsize=pt)
        ax.add_patch(
            Rectangle((x, c - BOX_H / 2), BOX_W, BOX_H, facecolor="#f6e7a8", edgecolor=LINE)
        )
        ax.text(x + 0.08, c, shorten(champion, NAME_WIDTH), va="center", fontsize=pt, color=TEXT)
        ax.plot([x - COL_GAP, x], [c, c], color=LINE, lw=0.8)
    return fig

"""The single-elimination bracket for ``/bracket`` (单败淘汰: docs/rules/bracket.md), for a phone.

Rounds run left to right; each match is two stacked name boxes with the score at the
right of each, the winner's box tinted and the loser's name greyed. An empty name in a
decided match is a bye (written as the word for "bye"); in an undecided match it is a
slot still waiting for a winner and stays blank. Match ``i`` of a round feeds match
``i // 2`` of the next, and is drawn halfway between its two feeders so the connector
lines read like a tree. When the last round is decided, a champion box closes it.

Every page is 1080 px wide. A page holds at most :data:`COLUMNS` rounds and
:data:`MATCHES_PER_PAGE` matches of its first round, so a 64-player bracket is three
pages (rounds 1–3 for each half of the draw, then rounds 4–6 and the champion) instead of
one blurred strip. The match for third place (knob ``third``), where there is one, stands
under the final on the last page. Pure: data in, PNG bytes out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from charts.canvas import WIDTH_IN, new_figure, place, require_labels, shorten, to_png
from charts.data import BRACKET_LABEL_KEYS, Match
from charts.sheet import CARD, INK, MARKS, MUTED

COLUMNS = 3  # rounds per page
MATCHES_PER_PAGE = 16  # first-round matches per page
MARGIN = 0.25
GAP = 0.3  # between columns, room for the connectors
BOX_H = 0.32
SLOT = 0.8  # vertical room per match of the page's first round
TOP = 1.25  # title and round headers
FONT_PT = 13.0
THIRD_H = 1.1  # the match for third place: its header and its two boxes
WIN_FILL = "#d7ecd9"
LINE = "#8a93a0"
LABEL_KEYS = BRACKET_LABEL_KEYS


@dataclass(frozen=True)
class Page:
    """Rounds ``start`` to ``stop - 1``; ``rows[k]`` are the indexes of round
    ``start + k``'s matches on this page, top to bottom."""

    start: int
    stop: int
    rows: tuple[tuple[int, ...], ...]


def _feeds(rounds: Sequence[Sequence[Match]], r: int, i: int) -> tuple[int, ...]:
    """The matches of round ``r - 1`` that feed match ``i`` of round ``r``."""
    if r == 0:
        return ()
    if any(m.feeds for m in rounds[r]):
        return rounds[r][i].feeds
    return tuple(j for j in (2 * i, 2 * i + 1) if j < len(rounds[r - 1]))


def _subtree(rounds: Sequence[Sequence[Match]], r: int, i: int, start: int) -> list[list[int]]:
    """Match ``i`` of round ``r`` and its feeders back to round ``start``: one list per
    round from ``start`` to ``r``, top to bottom."""
    if r == start:
        return [[i]]
    levels: list[list[int]] = [[] for _ in range(r - start)]
    for f in _feeds(rounds, r, i):
        for k, part in enumerate(_subtree(rounds, r - 1, f, start)):
            levels[k] += part
    return [*levels, [i]]


def pages(rounds: Sequence[Sequence[Match]]) -> list[Page]:
    """How the bracket is cut: blocks of ``COLUMNS`` rounds; in a block, the subtrees of
    its last round's matches, as many per page as fit ``MATCHES_PER_PAGE`` first-round
    matches. Matches are ordered from the final back, so feeders sit next to each other
    and the connectors never cross, wherever the lot put a bye."""
    order: list[list[int]] = [[] for _ in rounds]
    if rounds:
        order[-1] = list(range(len(rounds[-1])))
    for r in range(len(rounds) - 1, 0, -1):
        seq: list[int] = []
        for i in order[r]:
            seq += [f for f in _feeds(rounds, r, i) if f not in seq]
        order[r - 1] = seq + [j for j in range(len(rounds[r - 1])) if j not in seq]
    out: list[Page] = []
    for start in range(0, len(rounds), COLUMNS):
        stop = min(start + COLUMNS, len(rounds))
        current: list[list[int]] = [[] for _ in range(stop - start)]
        for root in order[stop - 1]:
            tree = _subtree(rounds, stop - 1, root, start)
            if current[0] and len(current[0]) + len(tree[0]) > MATCHES_PER_PAGE:
                out.append(Page(start, stop, tuple(tuple(x) for x in current)))
                current = [[] for _ in range(stop - start)]
            for k, part in enumerate(tree):
                current[k] += part
        out.append(Page(start, stop, tuple(tuple(x) for x in current)))
    return out


def bracket_pngs(
    rounds: Sequence[Sequence[Match]],
    title: str,
    labels: Mapping[str, str],
    third: Match | None = None,
) -> list[bytes]:
    """Draw the bracket; ``rounds[0]`` is the first round. One PNG per page."""
    return [to_png(fig) for fig in bracket_figures(rounds, title, labels, third)]


def bracket_figures(
    rounds: Sequence[Sequence[Match]],
    title: str,
    labels: Mapping[str, str],
    third: Match | None = None,
) -> list[Figure]:
    """The pages as figures, so tests can read what they draw without decoding pixels."""
    require_labels(labels, LABEL_KEYS)
    cut = pages(rounds)
    return [
        _page(rounds, page, i, len(cut), title, labels, third if i == len(cut) - 1 else None)
        for i, page in enumerate(cut)
    ]


def champion_of(rounds: Sequence[Sequence[Match]]) -> str:
    final = rounds[-1] if rounds else []
    return final[0].winner if len(final) == 1 else ""


def _page(
    rounds: Sequence[Sequence[Match]],
    page: Page,
    index: int,
    count: int,
    title: str,
    labels: Mapping[str, str],
    third: Match | None,
) -> Figure:
    champion = champion_of(rounds) if page.stop == len(rounds) else ""
    columns = page.stop - page.start + (1 if champion else 0)
    box_w = (WIDTH_IN - 2 * MARGIN - (columns - 1) * GAP) / columns
    name_width = max(6, int(box_w / (FONT_PT / 72 * 0.66)) - 4)
    height = TOP + SLOT * max(len(page.rows[0]), 1) + MARGIN + (THIRD_H if third else 0)
    fig = new_figure(WIDTH_IN, height)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, WIDTH_IN)
    ax.set_ylim(height, 0)
    ax.axis("off")
    place(ax, Rectangle((0, 0), WIDTH_IN, height, facecolor=CARD, edgecolor="none"))
    ax.text(MARGIN, 0.4, title, fontsize=20, va="center", ha="left", color=INK)
    if count > 1:
        ax.text(
            WIDTH_IN - MARGIN,
            0.4,
            f"{index + 1}/{count}",
            fontsize=12,
            color=MUTED,
            ha="right",
            va="center",
        )
    centre: dict[tuple[int, int], float] = {}
    step = box_w + GAP
    for k, indexes in enumerate(page.rows):
        r = page.start + k
        x = MARGIN + k * step
        final = r == len(rounds) - 1 and len(rounds[r]) == 1
        header = labels["final"] if final else labels["round"].format(n=r + 1)
        ax.text(x + box_w / 2, TOP - 0.25, header, ha="center", fontsize=FONT_PT, color=MUTED)
        for slot, i in enumerate(indexes):
            feeders = [centre[(r - 1, f)] for f in _feeds(rounds, r, i) if (r - 1, f) in centre]
            c = sum(feeders) / len(feeders) if k and feeders else TOP + SLOT * (slot + 0.5)
            centre[(r, i)] = c
            match = rounds[r][i]
            _box(ax, x, c - BOX_H, box_w, match.first, match.first_score, match, labels, name_width)
            _box(ax, x, c, box_w, match.second, match.second_score, match, labels, name_width)
            mid = x - GAP / 2
            for f in feeders:
                ax.plot([x - GAP, mid, mid, x], [f, f, c, c], color=LINE, lw=1.0)
    if champion:
        x = MARGIN + (columns - 1) * step
        c = centre.get((len(rounds) - 1, 0), TOP + SLOT / 2)
        ax.text(
            x + box_w / 2,
            c - BOX_H - 0.12,
            labels["champion"],
            ha="center",
            fontsize=FONT_PT,
            color=INK,
        )
        place(
            ax, Rectangle((x, c - BOX_H / 2), box_w, BOX_H, facecolor=MARKS["gold"], edgecolor=LINE)
        )
        ax.text(
            x + 0.08,
            c,
            shorten(champion, name_width + 4),
            va="center",
            fontsize=FONT_PT,
            color=INK,
        )
        ax.plot([x - GAP, x], [c, c], color=LINE, lw=1.0)
    if third is not None:  # under the final's column, at the foot of the page
        x, y = MARGIN + (page.stop - page.start - 1) * step, height - MARGIN - 2 * BOX_H
        header = labels["third-match"]
        ax.text(x + box_w / 2, y - 0.2, header, ha="center", fontsize=FONT_PT, color=MUTED)
        _box(ax, x, y, box_w, third.first, third.first_score, third, labels, name_width)
        _box(ax, x, y + BOX_H, box_w, third.second, third.second_score, third, labels, name_width)
    return fig


def _box(
    ax: Axes,
    x: float,
    y: float,
    width: float,
    name: str,
    score: str,
    match: Match,
    labels: Mapping[str, str],
    name_width: int,
) -> None:
    """One name box with its top-left corner at (x, y), the score at its right end."""
    won = bool(match.winner) and name == match.winner
    lost = bool(match.winner) and name != match.winner
    place(
        ax,
        Rectangle(
            (x, y), width, BOX_H, facecolor=WIN_FILL if won else "white", edgecolor=LINE, lw=0.8
        ),
    )
    colour = MUTED if lost or not name else INK
    text = shorten(name, name_width) if name else (labels["bye"] if match.winner else "")
    ax.text(x + 0.07, y + BOX_H / 2, text, va="center", ha="left", fontsize=FONT_PT, color=colour)
    if score:
        ax.text(
            x + width - 0.07,
            y + BOX_H / 2,
            score,
            va="center",
            ha="right",
            fontsize=FONT_PT,
            color=colour,
        )

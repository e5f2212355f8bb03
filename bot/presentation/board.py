"""The standings' read model (``engine.board``) for a stored event, and its words.

Every surface that says where players stand (/standings, its picture, the pinned live
standings, /bracket, /standings all, /me and the end announcement) takes a
:class:`~engine.board.Board` from here and prints it with :func:`ranking_lines` or
:func:`stage_words`, so none of them can say something another contradicts.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.tournament import format_of, names, part_of, places_of, state_of
from bot.language.i18n import show
from db.models import Tournament
from db.status import EventStatus
from engine.board import Board, Entry, Status, board
from engine.formats.groups import LETTERS
from engine.model import TournamentState


def board_of(t: Tournament, state: TournamentState | None = None) -> Board:
    """The board of ``t`` now (``state``: its engine state, when the caller has it)."""
    over = t.status == EventStatus.FINISHED
    return board(format_of(t), state_of(t) if state is None else state, over)


def place_text(ctx: Ctx, e: Entry) -> str:
    """``3``, or ``3=`` while the place is shared (not decided yet)."""
    return ctx.t("board.shared", place=e.place) if e.shared else str(e.place)


def stage_words(ctx: Ctx, e: Entry) -> str:
    """How far the line got, in words (决赛 / 第2轮出局 / 等待第3桌结果 …); "" if none."""
    if not e.stage or not ctx.t.has(f"stage.{e.stage}"):
        return ""
    return ctx.t(f"stage.{e.stage}", round=e.stage_round)


def ranking_lines(ctx: Ctx, t: Tournament, b: Board, limit: int = 10) -> str:
    """The top of a ranking: each place with how far it got and the figure that ordered
    it there, never a figure of another kind that could contradict the place; then the
    tie-break that separated it from the next line, once applied (加赛, 对手分, a flip
    drawn…), never a flip still to be drawn. While the groups play, a table per group
    (A 组 then B 组, as the picture), each place in its group, the heading saying so."""
    who = names(t)
    lines = []
    group = 0
    shown = top_of(b, limit)
    for e in shown:
        if b.by_group and e.group != group:
            group = e.group
            lines.append(ctx.t("board.group", letter=LETTERS[group - 1]))
        # under its group's heading, the place says the group place: words only to wait
        plain = b.by_group and e.stage in ("group", "group-tied")
        details = [words] if not plain and (words := stage_words(ctx, e)) else []
        if e.figure is not None and ctx.t.has(f"tiebreak.{e.figure_code}"):
            details.append(f"{ctx.t(f'tiebreak.{e.figure_code}')} {show(e.figure)}")
        name = who.get(e.player, str(e.player))
        rank = place_text(ctx, e)
        line = (
            ctx.t("outcome.line", rank=rank, name=name, details=" · ".join(details))
            if details
            else ctx.t("outcome.plain", rank=rank, name=name)
        )
        labels = [ctx.t(f"tiebreak.{c}") for c in e.decided if ctx.t.has(f"tiebreak.{c}")]
        if labels:
            line = ctx.t("outcome.decided", line=line, label=" / ".join(labels))
        lines.append(line)
    if len(b.entries) > len(shown):
        lines.append(ctx.t("standings.more-all", count=len(b.entries) - len(shown)))
    return "\n".join(lines)


def top_of(b: Board, limit: int) -> list[Entry]:
    """The first ``limit`` lines; while the groups play, the top of every group (as many
    of each, and at least the two places that go on), not the first group alone."""
    if not b.by_group or limit >= len(b.entries):
        return list(b.entries[:limit])
    groups = len({e.group for e in b.entries}) or 1
    each = max(2, -(-limit // groups))
    seen: dict[int, int] = {}
    out = []
    for e in b.entries:
        seen[e.group] = seen.get(e.group, 0) + 1
        if seen[e.group] <= each:
            out.append(e)
    return out


def my_standing(ctx: Ctx, t: Tournament, user: int) -> str:
    """/me's line for one event: the final place once it is over; while it runs, where
    the player stands now (the board's words, as the standings say it) marked as for
    now, never read as a result; a cancelled event has neither. A line that changed
    hands (/sub) is the substitute's and the replaced player's both, each told their
    part of it (docs/rules/people.md#sub)."""
    if t.status == EventStatus.CANCELLED:
        return ctx.t("me.cancelled")
    b = Event.of(ctx, t).board()
    mine = b.of(places_of(t).get(user, user))
    if b.over:
        place = mine.place if mine is not None else "—"
        where = ctx.t("me.place", place=place, of=len(b.entries))
    else:
        words = stage_words(ctx, mine) if mine is not None else ""
        where = ctx.t("me.for-now", words=words) if words else ctx.t("me.playing")
    return with_part(ctx, t, user, where)


def with_part(ctx: Ctx, t: Tournament, user: int, where: str) -> str:
    """/me's ``where`` for one event, with the part of a line that changed hands (/sub)
    the player played, when they did (its players loaded)."""
    part = part_of(t, user)
    if part is None:
        return where
    who = {p.user_id: p.name for p in t.players}
    came, left = who.get(part.replaced or 0, ""), who.get(part.by or 0, "")
    key = "through" if came and left else "in" if came else "out"
    said = ctx.t(f"me.sub-{key}", first=part.first, last=part.last, out=came, sub=left)
    return ctx.t("me.part", where=where, part=said)


def out_of_it(e: Entry) -> bool:
    """A line a picture greys out: lost, or removed."""
    return e.status in (Status.OUT, Status.REMOVED)

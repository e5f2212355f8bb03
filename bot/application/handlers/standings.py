"""Standings: /standings (the format's picture, the points by round, the text ranking)
and /export (CSV)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import event_status, group_lines, team_table_lines
from bot.application.handlers.match_lines import match_lines
from bot.application.handlers.whole_ranking import ALL_WORDS, whole_ranking
from bot.application.service import results
from bot.application.tournament import latest_round, names
from bot.application.versioned import pictures
from bot.language.errors import UserError
from bot.language.i18n import show
from bot.presentation.board import ranking_lines
from bot.presentation.csv_cells import safe_cell
from bot.presentation.pictures import (
    apart,
    drawn,
    first_page,
    off_loop,
    progression_series,
    send_pictures,
    standings_sheet,
)
from charts.data import Sheet
from charts.jobs import progression_png, sheet_pngs
from db.models import Tournament
from db.status import EventStatus, ExportStatus, PlayerStatus, TableState
from engine.board import Board, board
from engine.model import SEAT_LETTERS, TournamentState

EXPORT_HEADER = ["round", "table", "seat", "user_id", "name", "score", "penalty", "status"]


async def standings(ctx: Ctx, args: str) -> None:
    """The standings picture shaped by the format, the progression chart once two rounds
    are played where the ranking is the running total (a knockout ranks by the stage
    reached and the last table: running totals would draw its third below its fourth),
    and the text ranking as the caption (alone when nothing can be drawn).
    The text is the final ranking once the event is over (what the announcement said),
    before that the standings with the round in progress named. They are drawn
    once per tournament version and language; asked again before the next change, they
    are sent from the cache without loading the event."""
    if args.strip().lower() in ALL_WORDS:
        await whole_ranking(ctx)
        return
    event = await Event.load(ctx, finished=True, whole=False)
    t = event.t
    key = pictures.key(t, "standings", ctx.t.lang)
    kept = pictures.get(key)
    if kept is None:
        await event.whole()
        if not t.rounds:
            raise UserError("refuse.not-drawn")
        state, over = await off_loop(lambda: event.state), t.status == EventStatus.FINISHED
        # the final ranking only once the event is over: a round held for the organiser's
        # ruling (a whole table forfeited) crowns nobody yet (docs/rules/deadlines.md#late)
        b = await apart(board, event.fmt, state, over)
        r = latest_round(t)
        caption = (
            ctx.t("standings.caption", title=t.title, round=r.number if r else 0)
            + "\n"
            + event_status(ctx, t)
            + "\n"
            + ranking_lines(ctx, t, b)
            + team_table_lines(ctx, event)
            + group_lines(ctx, event)
            + match_lines(ctx, t)
        )
        sheet = await off_loop(_first_page, ctx, t, b, state)
        pngs: list[bytes] = await drawn(sheet_pngs, sheet) or []
        order = [e.player for e in b.entries]
        series = await off_loop(progression_series, t, order, state)
        if (
            pngs
            and not event.fmt.eliminates  # ranked by how far each got, not by the total
            and max((len(v) for v in series.values()), default=0) >= 2
        ):
            labels = {"round": ctx.t("pictures.round-axis"), "points": ctx.t("standings.points")}
            title = ctx.t("pictures.progression-title", title=t.title)
            chart = await drawn(progression_png, series, title, labels)
            pngs += [chart] if chart else []
        kept = (pngs, caption)
        if pngs:  # a picture that could not be drawn is tried again next time
            pictures.put(key, kept)
    pngs, caption = kept
    send_pictures(ctx, pngs, caption, "standings")


def _first_page(ctx: Ctx, t: Tournament, b: Board, state: TournamentState) -> Sheet:
    """The first page of the standings picture's data (its rows for every player)."""
    return first_page(ctx, standings_sheet(ctx, t, b, state))


async def export(ctx: Ctx, args: str) -> None:
    """One row per player per round, in the columns docs/guide.en.md#end names.

    A player removed by the forfeits rule has every score struck (docs/rules/penalties.md#forfeits),
    so their rows show 0, as the standings add them; the others at a table forfeited by no-shows
    went through as if on a bye (docs/rules/deadlines.md#no-show)."""
    event = await Event.load(ctx, finished=True)
    t = event.t
    who = names(t)
    removed = {p.user_id for p in t.players if p.status == PlayerStatus.REMOVED}
    state = event.state
    struck = event.fmt.disciplined(state).removed - state.removed
    penalty: dict[tuple[int, int], Decimal] = {}
    for p in t.penalties:
        key = (p.round_number, p.user_id)
        penalty[key] = penalty.get(key, Decimal(0)) + Decimal(p.points)
    rows: list[list[object]] = []
    for r in t.rounds:
        for table in r.tables:
            live = next((rep for rep in table.reports if rep.live), None)
            for i, user in enumerate(table.seats):
                status: str
                if user in table.forfeited:
                    status, score = ExportStatus.FORFEIT, Decimal(0)
                elif table.status == TableState.FORFEIT:
                    status, score = ExportStatus.BYE, Decimal(0)
                elif table.status == TableState.CONFIRMED and live is not None:
                    status, score = ExportStatus.CONFIRMED, Decimal(live.scores[i])
                elif results.awaiting(table) is not None:  # its games so far count nothing yet
                    status, score = ExportStatus.PLAYING, Decimal(0)
                else:
                    status = live.status if live is not None else ExportStatus.PENDING
                    score = Decimal(0)
                if user in removed:
                    status = ExportStatus.DQ
                if user in struck:
                    status, score = ExportStatus.DQ, Decimal(0)
                pen = show(penalty.get((r.number, user), Decimal(0)))
                rows.append(
                    [
                        r.number,
                        table.number,
                        SEAT_LETTERS[i],
                        user,
                        who[user],
                        show(score),
                        pen,
                        status,
                    ]
                )
        for user in r.byes:
            pen = show(penalty.get((r.number, user), Decimal(0)))
            rows.append([r.number, "", "", user, who[user], 0, pen, ExportStatus.BYE])
    # A penalty with no row of its own (given before the draw: round 0) gets one.
    shown = {(row[0], row[3]) for row in rows}
    for (number, user), points in sorted(penalty.items()):
        if (number, user) not in shown:
            rows.append([number, "", "", user, who[user], 0, show(points), ExportStatus.PENALTY])
    rows.sort(key=lambda row: int(str(row[0])))
    ctx.out.document(
        csv_bytes(EXPORT_HEADER, rows),
        f"tourbot-{t.id}.csv",
        ctx.t("export.caption", title=t.title),
    )


def csv_bytes(header: list[str], rows: list[list[object]]) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return buf.getvalue().encode("utf-8")

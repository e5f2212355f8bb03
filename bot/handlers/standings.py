"""Standings: /standings (one picture and a short text) and /export (CSV)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from bot.context import Ctx
from bot.csv_cells import safe_cell
from bot.errors import UserError
from bot.handlers.common import group_lines, ranking_lines, team_table, team_table_lines
from bot.i18n import show
from bot.pictures import draw, standings_png
from bot.tournament import format_of, latest_round, names, state_of
from bot.versioned import pictures
from db.models import Tournament
from engine.model import SEAT_LETTERS

EXPORT_HEADER = ["round", "table", "seat", "user_id", "name", "score", "penalty", "status"]


async def standings(ctx: Ctx, args: str) -> None:
    """The picture and the text show the same thing: the final ranking once the event
    is over (what the announcement said), before that the standings with the round in
    progress named and no medals handed out (issue 8). Both are drawn once per
    tournament version and language; asked again before the next change, they are sent
    from the cache without loading the event."""
    t = await ctx.tournament(finished=True, whole=False)
    key = pictures.key(t, "standings", ctx.t.lang)
    kept = pictures.get(key)
    if kept is None:
        await ctx.repo.load_whole(t)
        if not t.rounds:
            raise UserError("refuse.not-drawn")
        kept = await _drawn(ctx, t)
        pictures.put(key, kept)
    png, caption = kept
    ctx.photo(png, caption, "standings.png")


async def _drawn(ctx: Ctx, t: Tournament) -> tuple[bytes, str]:
    """The standings picture and caption of a loaded event."""
    fmt, state = format_of(t), state_of(t)
    over = t.status == "finished"
    # the final ranking only once the event is over: a round held for the organiser's
    # ruling (a whole table forfeited) crowns nobody yet (issue 8 §6)
    rows = fmt.current(state) if over else fmt.standings(state)
    who = names(t)
    teams = team_table(t)
    # A team event ranks teams (seed 000 §五: 以队计分): the picture shows the team table,
    # so its medals go to the teams the announcement crowned, not to single members.
    chart = (
        [
            (
                s.rank,
                ctx.t("outcome.team", team=s.team, members=[who.get(p, str(p)) for p in s.members]),
                s.points,
                True,
                "",
            )
            for s in teams
        ]
        if teams
        else [
            (
                s.rank,
                who.get(s.player, str(s.player)),
                s.figure if s.figure is not None else s.points,
                s.alive,
                ctx.t(f"stage.{s.stage}", round=s.stage_round) if s.stage else "",
            )
            for s in rows
        ]
    )
    png = await draw(
        standings_png,
        chart,
        ctx.t("standings.chart-title", title=t.title),
        {"points": ctx.t("standings.points"), "more": ctx.t("standings.chart-more")},
        over,
    )
    r = latest_round(t)
    number = r.number if r else 0
    status = ctx.t("outcome.finished") if over else ctx.t("outcome.in-progress", round=number)
    caption = (
        ctx.t("standings.caption", title=t.title, round=number)
        + "\n"
        + status
        + "\n"
        + ranking_lines(ctx, t, rows)
        + team_table_lines(ctx, t)
        + group_lines(ctx, t)
    )
    return png, caption


async def export(ctx: Ctx, args: str) -> None:
    """One row per player per round, as SPEC.md fixes the columns.

    A player removed by the forfeits rule has every score struck (seed 002 §四.1), so
    their rows show 0, as the standings add them; the others at a table forfeited by
    no-shows went through as if on a bye (seed 000: 余下选手轮空)."""
    await ctx.require_organiser()
    t = await ctx.tournament(finished=True)
    who = names(t)
    removed = {p.user_id for p in t.players if p.status == "removed"}
    state = state_of(t)
    struck = format_of(t).disciplined(state).removed - state.removed
    penalty: dict[tuple[int, int], Decimal] = {}
    for p in t.penalties:
        key = (p.round_number, p.user_id)
        penalty[key] = penalty.get(key, Decimal(0)) + Decimal(p.points)
    rows: list[list[object]] = []
    for r in t.rounds:
        for table in r.tables:
            live = next((rep for rep in table.reports if rep.live), None)
            for i, user in enumerate(table.seats):
                if user in table.forfeited:
                    status, score = "forfeit", Decimal(0)
                elif table.status == "forfeit":
                    status, score = "bye", Decimal(0)
                elif table.status == "confirmed" and live is not None:
                    status, score = "confirmed", Decimal(live.scores[i])
                else:
                    status = live.status if live is not None else "pending"
                    score = Decimal(0)
                if user in removed:
                    status = "dq"
                if user in struck:
                    status, score = "dq", Decimal(0)
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
            rows.append([r.number, "", "", user, who[user], 0, pen, "bye"])
    # A penalty with no row of its own (given before the draw: round 0) gets one.
    shown = {(row[0], row[3]) for row in rows}
    for (number, user), points in sorted(penalty.items()):
        if (number, user) not in shown:
            rows.append([number, "", "", user, who[user], 0, show(points), "penalty"])
    rows.sort(key=lambda row: int(str(row[0])))
    ctx.document(
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

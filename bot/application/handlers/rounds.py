"""Rounds and deadlines: /round opens the next round; a passed deadline settles it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import people, referee
from bot.application.handlers.checkin import checkin_line, noshow_passed, start_checkin
from bot.application.handlers.common import (
    deadline_text,
    describe_tables,
    my_table,
    refresh_live,
    tell,
    timer_open_round,
    timer_round,
)
from bot.application.handlers.deadlines import (
    Target,
    chosen_hour,
    pressed_for,
    read_deadline,
    table_names,
    timer_moment,
)
from bot.application.timers import epoch, table_deadline, tournament_timers
from bot.application.tournament import game_of, latest_round, names
from bot.language.errors import UserError
from bot.language.knob_words import how_to_report
from bot.presentation.pictures import drawn, post_with_picture, seating_sheet
from charts.jobs import sheet_pngs
from db.models import Round, TableRow, Tournament
from db.status import EventStatus, RoundStatus, TableState
from engine.model import SEAT_LETTERS


async def open_next(ctx: Ctx, args: str) -> None:
    """``/round [deadline]``: open the drawn round, or draw and open the next one. A bare
    hour with two readings is asked about first: the round opens when one is pressed."""
    event = await Event.load(ctx)
    t = event.t
    r = latest_round(t)
    assert r is not None  # a running tournament has its first round drawn
    deadline = None
    if args.strip():
        ask = Target("o", t.id, r.number) if r.status != RoundStatus.OPEN else None
        deadline = read_deadline(ctx, args, ask)
        if deadline is None:
            return
    opened = event.open_round(deadline)
    r = opened.round
    walked = people.walkovers(ctx, t, opened.walked)
    seating = await drawn(sheet_pngs, seating_sheet(ctx, t, r))
    with ctx.out.announcing():  # the round and its check-in, in that order, for everyone
        first = len(ctx.out.outgoing)
        post_with_picture(ctx, seating, opened_text(ctx, t, r), f"open.{r.number}")
        referee.under_announcement(ctx, first, t, r)
        start_checkin(ctx, t, r)
        if walked:
            ctx.out.say(walked)
    ctx.uow.timers += tournament_timers(t)
    if t.live_at is not None:  # the pinned standings say who waits for which table now
        refresh_live(ctx, event)
    if any(row.status == TableState.FORFEIT for row in r.tables):
        # walkovers, now or at a drop before the round opened, may settle it (a final)
        await tell(ctx, event, event.settle(r))


async def open_button(ctx: Ctx, arg: str) -> None:
    """A pressed reading of /round's bare hour: open the round with that deadline, as
    /round with it written out would, if the rounds are where they were when asked."""
    target, at = Target.pressed(arg)
    t = await pressed_for(ctx, target)
    r = latest_round(t) if t.status != EventStatus.SIGNUP else None
    if target.kind != "o" or r is None or r.number != target.round:
        raise UserError("refuse.deadline-choice-stale")
    when = at.astimezone(ctx.tz)
    await open_next(ctx, deadline_text(ctx, when, hint=False))  # the echo reads back exactly
    chosen_hour(ctx, when)


def opened_text(ctx: Ctx, t: Tournament, r: Round) -> str:
    """The round announcement: deadline, tables and how to report."""
    return (
        ctx.t("round.opened", round=r.number, deadline=deadline_text(ctx, r.deadline))
        + "\n"
        + describe_tables(ctx, t, r)
        + "\n\n"
        + how_to_report(ctx.t, game_of(t), {len(row.seats) for row in r.tables})
    )


async def deadline_passed(ctx: Ctx, arg: str) -> None:
    """Settle the tables whose deadline is this timer's moment, once (不在截止日期前上报，整桌作废:
    docs/rules/deadlines.md#late). Pending, undisputed reports stand as reported; the notice names
    the players of every table it settles. A table's own deadline (``/deadline <table>``;
    docs/rules/deadlines.md#table-deadline) settles that table alone, and the notice says
    so; the others play on to theirs, and tables given a later one are named as extended
    when the round's passes.

    A check-in cut-off that came due before the deadline rules first: an outage across
    both must end as if the bot had been up (no-shows forfeit, the others have a bye)."""
    at = timer_moment(arg)
    cut_off = await timer_round(ctx, arg, lambda r: r.checkin_until)
    if cut_off is not None and (cut_off[1].checkin_until or at) <= at:
        await noshow_passed(ctx, arg)
    found = await timer_open_round(ctx, arg)
    if found is None:
        return
    t, r = found
    event = Event.of(ctx, t)
    due = [
        row
        for row in r.tables
        if row.status == TableState.PENDING and epoch(table_deadline(r, row)) == epoch(at)
    ]
    if not due:
        return  # the deadline was moved since this timer was set
    ruled = event.late(r, due, at)
    rounds_own = epoch(r.deadline) == epoch(at)
    lines = [
        ctx.t("deadline.round-passed", round=r.number)
        if rounds_own
        else ctx.t("deadline.tables-passed", tables=_numbers(ctx, due)),
        ctx.t(
            "deadline.settled",
            accepted=table_names(ctx, t, list(ruled.accepted)),
            forfeited=table_names(ctx, t, list(ruled.forfeited)),
            waiting=table_names(ctx, t, list(ruled.waiting)),
        ),
    ]
    later: dict[datetime, list[TableRow]] = {}
    for row in r.tables:
        own = table_deadline(r, row)
        if row.status == TableState.PENDING and own is not None and own > at:
            later.setdefault(own, []).append(row)
    for when, rows in sorted(later.items()):  # past the round's: extended; before it: as set
        key = "deadline.still-open" if rounds_own else "deadline.plays-on"
        lines.append(ctx.t(key, tables=_numbers(ctx, rows), deadline=deadline_text(ctx, when)))
    ctx.out.say("\n".join(lines))
    await tell(ctx, event, ruled.then)


def _numbers(ctx: Ctx, rows: Sequence[TableRow]) -> str:
    """``1、3`` / ``1, 3``: the tables' numbers."""
    return ctx.t("deadline.separator").join(str(row.number) for row in rows)


async def my_table_cmd(ctx: Ctx, args: str) -> None:
    t = await ctx.uow.tournament()
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    row = my_table(r, ctx.caller.actor)
    if row is None:
        key = "table.bye" if ctx.caller.actor in r.byes else "table.none"
        raise UserError(key, round=r.number)
    who = names(t)
    others = [
        f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats) if u != ctx.caller.actor
    ]
    mine = ctx.t(
        "table.mine",
        round=r.number,
        table=row.number,
        seat=SEAT_LETTERS[row.seats.index(ctx.caller.actor)],
        others=others,
        deadline=deadline_text(ctx, table_deadline(r, row)),
    )
    if row.status == TableState.FORFEIT:  # a walkover, a no-show: nothing to play or check
        lost = [who[u] for u in row.seats if u in row.forfeited]
        ctx.out.say(f"{mine}\n" + ctx.t("walkover.settled", table=row.number, losers=lost))
        return
    checkin = checkin_line(ctx, r, row, ctx.caller.actor)
    ctx.out.say(f"{mine}\n{checkin}" if checkin else mine)

"""Rounds and deadlines: /round opens the next round; a passed deadline settles it."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.context import Ctx
from bot.deadlines import DeadlineError, parse_deadline
from bot.errors import UserError
from bot.handlers.checkin import checkin_line, noshow_passed, start_checkin
from bot.handlers.common import (
    deadline_text,
    describe_tables,
    my_table,
    settle_round,
    timer_round,
)
from bot.handlers.draw import store_round
from bot.service import results
from bot.tournament import format_of, latest_round, names, policy, state_of
from bot.types import Timer
from db.models import Round, Tournament
from db.status import ReportStatus, RoundStatus, TableState
from engine.games import find_game
from engine.model import SEAT_LETTERS, Finished

# A round longer than a year is a typo (and year 9999 overflows in some zones).
MAX_DEADLINE = timedelta(days=366)


async def open_next(ctx: Ctx, args: str) -> None:
    """``/round [deadline]``: open the drawn round, or draw and open the next one."""
    t = await ctx.tournament()
    deadline = _deadline(ctx, args) if args.strip() else None
    r = latest_round(t)
    assert r is not None  # a running tournament has its first round drawn
    if r.status == RoundStatus.OPEN:
        raise UserError("refuse.round-still-open", round=r.number)
    if r.status == RoundStatus.CLOSED:
        plan = format_of(t).plan(state_of(t))
        if isinstance(plan, Finished):  # settle_round already announced it
            raise UserError("refuse.finished")
        r = store_round(t, plan, r.number + 1)
    r.status, r.deadline = RoundStatus.OPEN, deadline
    ctx.audit("round-open", t, None, {"round": r.number, "deadline": str(deadline)})
    ctx.say(opened_text(ctx, t, r), pages=f"open.{r.number}")
    if deadline is not None:
        ctx.timers.append(Timer("deadline", t.id, r.number, deadline))
    start_checkin(ctx, t, r)


def opened_text(ctx: Ctx, t: Tournament, r: Round) -> str:
    """The round announcement: deadline, tables and how to report."""
    return (
        ctx.t("round.opened", round=r.number, deadline=deadline_text(ctx, r.deadline))
        + "\n"
        + describe_tables(ctx, t, r)
        + "\n\n"
        + ctx.t("round.how-to-report", example=find_game(t.game).report_example)
    )


def _deadline(ctx: Ctx, text: str) -> datetime:
    try:
        moment = parse_deadline(text, ctx.now.astimezone(ctx.tz), ctx.tz, ctx.t.lang)
    except DeadlineError as exc:
        raise UserError(f"refuse.{exc.code}", text=text, **exc.params) from None
    except (OverflowError, ValueError):  # past year 9999 in some zone: not a date at all
        raise UserError("refuse.deadline-too-far", text=text, days=MAX_DEADLINE.days) from None
    if moment - ctx.now > MAX_DEADLINE:
        raise UserError("refuse.deadline-too-far", text=text, days=MAX_DEADLINE.days)
    return moment


async def deadline_passed(ctx: Ctx, arg: str) -> None:
    """Settle every table of the round that has no confirmed result, once (seed 000:
    不在截止日期前上报，整桌作废). Pending, undisputed reports stand as reported.

    A check-in cut-off that came due before the deadline rules first: an outage across
    both must end as if the bot had been up (no-shows forfeit, the others have a bye)."""
    found = await timer_round(ctx, arg, lambda r: r.deadline)
    cut_off = found[1].checkin_until if found is not None else None
    if found is not None and cut_off is not None and cut_off <= (found[1].deadline or cut_off):
        await noshow_passed(ctx, arg)
        found = await timer_round(ctx, arg, lambda r: r.deadline)
    if found is None:
        return
    t, r = found
    number = r.number
    accepted, forfeited, disputed = [], [], []
    for row in r.tables:
        if row.status != TableState.PENDING:
            continue
        live = results.live(row)
        if live is not None and live.status == ReportStatus.PENDING:
            results.accept(row, live, None)
            accepted.append(row.number)
        elif live is not None and live.status == ReportStatus.DISPUTED:
            disputed.append(row.number)
        elif policy(t, "late") == "forfeit":
            row.status, row.forfeited = TableState.FORFEIT, list(row.seats)
            forfeited.append(row.number)
        else:
            disputed.append(row.number)
    ctx.audit(
        "deadline",
        t,
        {"round": number},
        {"accepted": accepted, "forfeited": forfeited, "waiting": disputed},
    )
    ctx.reply(
        "deadline.passed",
        round=number,
        accepted=accepted or "—",
        forfeited=forfeited or "—",
        waiting=disputed or "—",
    )
    settle_round(ctx, t, r)


async def my_table_cmd(ctx: Ctx, args: str) -> None:
    t = await ctx.tournament()
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    row = my_table(r, ctx.actor)
    if row is None:
        key = "table.bye" if ctx.actor in r.byes else "table.none"
        raise UserError(key, round=r.number)
    who = names(t)
    others = [f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats) if u != ctx.actor]
    mine = ctx.t(
        "table.mine",
        round=r.number,
        table=row.number,
        seat=SEAT_LETTERS[row.seats.index(ctx.actor)],
        others=others,
        deadline=deadline_text(ctx, r.deadline),
    )
    checkin = checkin_line(ctx, r, row, ctx.actor)
    ctx.say(f"{mine}\n{checkin}" if checkin else mine)

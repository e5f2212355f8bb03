"""Check-in and no-shows: /here, the "I'm here" button, and the cut-off that rules.

比赛开始后迟到15分钟未参加的选手，视为弃权 (10 minutes in 掼蛋; docs/rules/deadlines.md#no-show).
The bot cannot see who sat down, so with the policy knob ``noshow`` set to N minutes,
opening a round opens a check-in: each player presses "I'm here" or sends ``/here`` (a
referee may send ``/here <player>`` for someone without a phone) within N minutes.

At the cut-off, every player of a table without a result who has not checked in forfeits
that game. The table is settled as forfeited by them, so the format treats the players who
came as the players left at any forfeited table (余下选手轮空参加下轮抽签;
docs/rules/knockout.md#forfeits), and each no-show counts toward the ``forfeits`` removal
rule (docs/rules/penalties.md#forfeits). A mistaken ruling is taken back with /undo.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import (
    deadline_text,
    find_player,
    my_table,
    open_round,
    tell,
    timer_round,
)
from bot.application.tournament import names, noshow_minutes
from bot.application.types import Buttons, Timer
from bot.language.errors import UserError
from db.models import Round, TableRow, Tournament
from db.status import TableState
from engine.model import SEAT_LETTERS


def start_checkin(ctx: Ctx, t: Tournament, r: Round) -> None:
    """Called as a round opens: post the check-in and schedule its cut-off (if any)."""
    minutes = noshow_minutes(t)
    if not minutes:
        return
    until = Event.of(ctx, t).open_checkin(r, minutes)
    ctx.uow.timers.append(Timer("noshow", t.id, r.number, until))
    ctx.out.say(checkin_text(ctx, r), buttons=here_keyboard(ctx, t, r))


def checkin_text(ctx: Ctx, r: Round) -> str:
    """The check-in's count: the players of the tables still to be played (a walkover's
    table has nobody to wait for)."""
    due = [row for row in r.tables if row.status == TableState.PENDING]
    seated = sum(len(row.seats) for row in due)
    present = sum(len(row.present) for row in due)
    return ctx.t(
        "checkin.open",
        round=r.number,
        until=deadline_text(ctx, r.checkin_until),
        count=present,
        total=seated,
    )


def here_keyboard(ctx: Ctx, t: Tournament, r: Round) -> Buttons:
    return [[(ctx.t("button.here"), f"here:{t.id}:{r.number}")]]


def checkin_line(ctx: Ctx, r: Round, row: TableRow, user_id: int) -> str:
    """For /table: whether the caller has checked in, while the check-in is open."""
    if r.checkin_until is None:
        return ""
    if user_id in row.present:
        return ctx.t("checkin.status-present")
    return ctx.t("checkin.status-absent", until=deadline_text(ctx, r.checkin_until))


async def here(ctx: Ctx, args: str) -> None:
    """``/here``: I am at my table. ``/here <player>`` (organiser): they are."""
    event = await Event.load(ctx)
    t = event.t
    r = _checkin_round(ctx, t)
    if args.strip():
        await ctx.caller.require_organiser()
        user = find_player(ctx, t, args).user_id
    else:
        ctx.caller.require_person()
        own = next((p for p in t.players if p.user_id == ctx.caller.actor), None)
        if own is None:
            raise UserError("refuse.not-signed-up", title=t.title)
        user = own.user_id
    _check_in(ctx, event, r, user)


async def here_button(ctx: Ctx, arg: str) -> None:
    event = await Event.load(ctx)
    r = _checkin_round(ctx, event.t)
    if arg != f"{event.t.id}:{r.number}":  # a button of an earlier round's check-in
        raise UserError("refuse.checkin-closed")
    _check_in(ctx, event, r, ctx.caller.actor)


def _checkin_round(ctx: Ctx, t: Tournament) -> Round:
    r = open_round(t)
    if r.checkin_until is None or r.checkin_until <= ctx.now:
        raise UserError("refuse.checkin-closed", round=r.number)
    return r


def _check_in(ctx: Ctx, event: Event, r: Round, user_id: int) -> None:
    """Mark one player present (``Event.check_in``). A button press answers with a toast
    and updates the count on the check-in message, so a room full of presses does not
    flood the group."""
    t = event.t
    name = names(t).get(user_id, str(user_id))
    row = my_table(r, user_id)
    if row is None:
        raise UserError("refuse.no-seat", name=name, round=r.number)
    if event.check_in(r, row, user_id).already:
        ctx.out.answer(ctx.t("checkin.already", name=name))
        return
    seat = SEAT_LETTERS[row.seats.index(user_id)]
    done = ctx.t("checkin.done", name=name, table=row.number, seat=seat)
    ctx.out.answer(done, lambda: (checkin_text(ctx, r), here_keyboard(ctx, t, r)))


async def noshow_passed(ctx: Ctx, arg: str) -> None:
    """The cut-off: absent players of unreported tables forfeit, once.

    Clearing ``checkin_until`` closes the check-in, so a restart does not rule again."""
    found = await timer_round(ctx, arg, lambda r: r.checkin_until)
    if found is None:
        return
    t, r = found
    event = Event.of(ctx, t)
    ruled = event.no_shows(r)
    who = names(t)
    lines = [
        ctx.t("checkin.absent-line", table=row.number, names=[who[u] for u in absent])
        for row, absent in ruled.absent
    ]
    if lines:
        ctx.out.reply("checkin.ruled", round=ruled.round, lines="\n".join(lines))
    else:
        ctx.out.reply("checkin.all-present", round=ruled.round)
    await tell(ctx, event, ruled.then)

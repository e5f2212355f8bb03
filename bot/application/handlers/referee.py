"""The "🙋 call the referee" button: under the round announcement and the private report
form. Each organiser who can be written to privately gets a message naming the table,
its players and who called, and the caller is told whom it reached; nobody reachable,
the call goes to the group instead, and the caller is told so. Should Telegram refuse
one of those private messages (the organiser blocked the bot since), the call is made
in the group after all, once for the call (``Outgoing.fallback``).

A table calls at most once in :data:`QUIET` (a nervous player tapping twice must not
send the referee running twice); the moment of each table's last call is kept in the
event's options, and every call is audited.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import console
from bot.application.handlers.common import display_name, find_table, my_table
from bot.application.tournament import names
from bot.application.types import Buttons
from bot.language.errors import UserError
from bot.language.inputs import id_or_none
from db.models import Round, Tournament
from db.status import EventStatus, RoundStatus
from engine.model import SEAT_LETTERS

PREFIX = "ref"
QUIET = timedelta(minutes=5)
TOAST_NAMES = 120  # characters of organisers' names in the caller's toast


def referee_row(ctx: Ctx, t: Tournament, r: Round, table: int | None = None) -> Buttons:
    """One row with the button; without ``table`` it calls for the presser's own table."""
    data = f"{PREFIX}:{t.id}:{r.number}:{'' if table is None else table}"
    return [[(ctx.t("referee.button"), data)]]


def _calls(t: Tournament) -> dict[str, Any]:
    paper = t.options.get("paper", {})
    calls = paper.get("calls", {}) if isinstance(paper, dict) else {}
    return dict(calls) if isinstance(calls, dict) else {}


def _last_call(t: Tournament, r: Round, table: int) -> datetime | None:
    value = _calls(t).get(f"{r.number}:{table}")
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def under_announcement(ctx: Ctx, first: int, t: Tournament, r: Round) -> None:
    """Put the button under the round announcement queued from ``ctx.out.outgoing[first]``
    on: its last message that has no buttons of its own (page buttons stay alone); the
    Mini App's "📝 Report" link beside it, when the bot has one."""
    row = referee_row(ctx, t, r)
    report = console.report_link(ctx, t)  # and the players' form, where there is one
    row[0] += [report] if report else []
    for out in reversed(ctx.out.outgoing[first:]):
        if out.kind in ("text", "photo") and not out.buttons:
            out.buttons = row
            return


async def call(ctx: Ctx, arg: str) -> None:
    """A press of the button: check it, then alert the organisers (or the group)."""
    ctx.caller.require_person()
    tid, number, table = [*arg.split(":"), "", ""][:3]
    t_id, round_number = id_or_none(tid), id_or_none(number)
    t = await ctx.uow.repo.tournament(t_id) if t_id is not None else None
    private = ctx.caller.inc.chat_type == "private"
    if t is None or (not private and t.chat_id != ctx.caller.inc.chat_id):
        raise UserError("referee.stale")
    ctx.chat = await ctx.uow.repo.chat(t.chat_id)  # the event's language, wherever pressed
    ctx.t = ctx.catalogue[ctx.chat.lang or ctx.settings.default_lang]
    r = next((x for x in t.rounds if x.number == round_number), None)
    if t.status != EventStatus.RUNNING or r is None or r.status != RoundStatus.OPEN:
        raise UserError("referee.stale")
    table_number = id_or_none(table) if table else None
    if table and table_number is None:  # not a button we made
        raise UserError("referee.stale")
    row = find_table(r, table_number) if table_number is not None else my_table(r, ctx.caller.actor)
    if row is None or ctx.caller.actor not in row.seats:
        raise UserError("referee.not-seated", round=r.number)
    last = _last_call(t, r, row.number)
    if last is not None and ctx.now - last < QUIET:
        left = QUIET - (ctx.now - last)
        minutes = max(1, int(left.total_seconds() + 59) // 60)
        raise UserError("referee.too-soon", table=row.number, minutes=minutes)
    who = names(t)
    text = ctx.t(
        "referee.alert",
        title=t.title,
        round=r.number,
        table=row.number,
        players=" · ".join(f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats)),
        caller=display_name(ctx),
    )
    try:
        admins = await ctx.caller.admins(t.chat_id)
    except UserError:  # Telegram cannot say who the admins are now: those granted the role
        admins = set()
    organisers = (admins | await ctx.uow.repo.granted(t.chat_id)) - {ctx.caller.actor}
    reachable = await ctx.uow.repo.private_names(organisers)
    in_group = {
        "chat_id": t.chat_id,
        "thread_id": t.thread_id or None,
        "text": text + "\n" + ctx.t("referee.not-reached"),
    }
    once = f"ref:{t.id}:{r.number}:{row.number}:{int(ctx.now.timestamp())}"
    for user in sorted(reachable):
        ctx.out.send(user, text, fallback={**in_group, "once": once})
    if not reachable:  # no organiser has a private chat with the bot: tell the hall
        ctx.out.send(t.chat_id, text, thread_id=t.thread_id or None)
    Event.of(ctx, t).call_referee(r, row, len(reachable))
    if reachable:
        reached = ctx.t("deadline.separator").join(
            reachable[u] or str(u) for u in sorted(reachable)
        )
        if len(reached) > TOAST_NAMES:  # a toast shows 200 characters
            reached = reached[: TOAST_NAMES - 1] + "…"
        ctx.out.toast = ctx.t("referee.called-organisers", table=row.number, names=reached)
    else:
        ctx.out.toast = ctx.t("referee.called-group", table=row.number)

"""Deadlines organisers can trust: /deadline, reminders, and the sign-up cut-off.

``/deadline <phrase>`` moves the open round's deadline, ``/deadline <table> <phrase>``
gives one table its own, ``/deadline signup <phrase>`` closes sign-up and draws at that
moment (报名截止日期; docs/rules/deadlines.md#signup-deadline). Each is audited,
undoable with /undo, re-plans the timers (``bot.application.timers``) and announces the new time.

A bare hour with two plausible readings (``/deadline 8点`` at 14:30: 20:00 today or 08:00
tomorrow) is not guessed: the bot asks with one button per reading, each echoing weekday,
date, time and zone, and a press sets that deadline exactly as typing it would.

Before a deadline the group gets one reminder that @-mentions only the players of the
tables still without a confirmed result, table by table; players who opened a private
chat with the bot also get one there, with a button that opens the report flow in the
group.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.application.base36 import DIGITS, b36
from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import report_flow, reports
from bot.application.handlers.common import (
    deadline_text,
    find_table,
    my_table,
    open_round,
    timer_open_round,
)
from bot.application.handlers.draw import draw_now
from bot.application.service import results
from bot.application.service.audit import (
    Reminded,
)
from bot.application.timers import epoch, reminders_for, table_deadline, tournament_timers
from bot.application.tournament import latest_round, names
from bot.application.types import Buttons
from bot.language.deadlines import AmbiguousHour, DeadlineError, relative_hint, resolve_deadline
from bot.language.errors import UserError
from bot.language.inputs import id_or_none
from db.models import Player, Round, TableRow, Tournament
from db.status import EventStatus, ReportStatus, RoundStatus, TableState
from engine.errors import EngineError

SIGNUP_WORDS = ("signup", "sign-up", "报名")
_TABLE = re.compile(r"(?:[Tt#]|第)?(\d{1,3})(?:号桌|桌)?")
REPORT_BUTTON = "dl"  # callback prefix of the private reminder's report button
HOUR_BUTTON = "dh"  # callback prefix of the buttons that pick a bare hour's reading
OPEN_BUTTON = "dr"  # the same, for /round: the press opens the round with that deadline
# A deadline more than a year out is a typo (and year 9999 overflows in some zones).
MAX_DEADLINE = timedelta(days=366)


# --- reading and showing ---------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    """What a deadline is for: ``kind`` ``r`` (the open round), ``t`` (one table of it),
    ``s`` (sign-up) or ``o`` (the round /round opens after round ``round``), in
    tournament ``tournament``, round ``round``, table ``table``."""

    kind: str
    tournament: int
    round: int = 0
    table: int = 0

    def button(self, when: datetime) -> str:
        """The callback data of the button that sets this deadline to ``when``."""
        fields = (self.tournament, self.round, self.table, int(when.timestamp()) // 60)
        prefix = OPEN_BUTTON if self.kind == "o" else HOUR_BUTTON
        return f"{prefix}:{self.kind}" + ".".join(b36(n) for n in fields)

    @classmethod
    def pressed(cls, arg: str) -> tuple[Target, datetime]:
        """The target and moment of a pressed button; anything malformed is stale."""
        parts = arg[1:].split(".")
        if not arg or arg[0] not in "rtso" or len(parts) != 4:
            raise UserError("refuse.deadline-choice-stale")
        if any(not p or len(p) > 11 or p.strip(DIGITS) for p in parts):
            raise UserError("refuse.deadline-choice-stale")
        tournament, rnd, table, minutes = (int(p, 36) for p in parts)
        try:
            when = datetime.fromtimestamp(minutes * 60, UTC)
        except (OverflowError, OSError, ValueError):  # past any calendar: not our button
            raise UserError("refuse.deadline-choice-stale") from None
        return cls(arg[0], tournament, rnd, table), when


def read_deadline(ctx: Ctx, text: str, target: Target | None = None) -> datetime | None:
    """The organiser's phrase as a moment in the chat's zone, or the specific reason not.

    A time that a clock change skips is moved to the first valid minute, a time written
    in another zone is converted, a period is taken at its end: each is said so. A bare
    hour with two plausible readings is asked about, with a button per reading when
    there is a ``target`` to set (then None is returned: nothing is set yet)."""
    try:
        found = resolve_deadline(text, ctx.now, ctx.tz, ctx.t.lang)
    except AmbiguousHour as asked:
        if target is None:
            raise UserError(f"refuse.{asked.code}", text=text, **asked.params) from None
        _ask_hour(ctx, text, target, asked.choices)
        return None
    except DeadlineError as exc:
        raise UserError(f"refuse.{exc.code}", text=text, **exc.params) from None
    except (OverflowError, ValueError):  # past year 9999 in some zone: not a date at all
        raise UserError("refuse.deadline-too-far", text=text, days=MAX_DEADLINE.days) from None
    check_deadline(ctx, found.when, text)
    if found.skipped is not None:
        ctx.out.reply(
            "deadline.dst-gap", written=found.skipped, when=deadline_text(ctx, found.when)
        )
    if found.converted is not None:
        ctx.out.reply(
            "deadline.converted", written=found.converted, when=deadline_text(ctx, found.when)
        )
    if found.period:
        ctx.out.reply("deadline.period-end", text=text, when=deadline_text(ctx, found.when))
    return found.when


def check_deadline(ctx: Ctx, when: datetime, text: str) -> None:
    """A deadline must be ahead, and within a year (further out is a typo, and year
    9999 overflows in some zones)."""
    if when <= ctx.now:
        raise UserError("refuse.deadline-past", text=text, when=deadline_text(ctx, when))
    if when - ctx.now > MAX_DEADLINE:
        raise UserError("refuse.deadline-too-far", text=text, days=MAX_DEADLINE.days)


def _ask_hour(ctx: Ctx, text: str, target: Target, choices: tuple[datetime, datetime]) -> None:
    """Which of a bare hour's two readings is meant: one button each, nothing stored."""
    for when in choices:
        check_deadline(ctx, when, text)
    buttons: Buttons = [
        [(deadline_text(ctx, when, hint=False), target.button(when))] for when in choices
    ]
    first, second = (deadline_text(ctx, when) for when in choices)
    ctx.out.reply("deadline.which-hour", buttons, text=text, first=first, second=second)


def timer_moment(arg: str) -> datetime:
    """The moment a timer was set for, from its ``"<tournament>:<round>:<epoch>"``."""
    return datetime.fromtimestamp(int(arg.split(":")[2]), UTC)


def mention(p: Player) -> str:
    """A name the group reads and Telegram notifies: ``甲 @jia`` (or just the name)."""
    return f"{p.name} @{p.username}" if p.username else p.name


def table_names(ctx: Ctx, t: Tournament, rows: list[TableRow]) -> str:
    """``第 2 桌（甲 @jia、乙）；第 4 桌（…）``, or ``—``."""
    by_user = {p.user_id: p for p in t.players}
    parts = [
        ctx.t(
            "deadline.table-players",
            table=row.number,
            players=ctx.t("deadline.separator").join(mention(by_user[u]) for u in row.seats),
        )
        for row in rows
    ]
    return ctx.t("deadline.table-separator").join(parts) or "—"


# --- /deadline -------------------------------------------------------------------------------
async def deadline(ctx: Ctx, args: str) -> None:
    """``/deadline <phrase>``, ``/deadline <table> <phrase>``, ``/deadline signup <phrase>``."""
    event = await Event.load(ctx)
    t = event.t
    head, _, rest = args.strip().partition(" ")
    if not head:
        raise UserError("usage.deadline")
    if head.lower() in SIGNUP_WORDS:
        _signup_deadline(ctx, event, rest.strip())
        return
    if t.status == EventStatus.SIGNUP:
        raise UserError("refuse.draw-first")
    r = open_round(t)
    row = _table_meant(ctx, r, head, rest.strip(), args.strip())
    if row is not None:
        if row.status != TableState.PENDING:
            raise UserError("refuse.deadline-table-settled", table=row.number)
        when = read_deadline(ctx, rest.strip(), Target("t", t.id, r.number, row.number))
        if when is not None:
            _table_deadline(ctx, event, r, row, when)
    else:
        when = read_deadline(ctx, args.strip(), Target("r", t.id, r.number))
        if when is not None:
            _round_deadline(ctx, event, r, when)
    ctx.uow.timers += tournament_timers(t)


def _unreadable(ctx: Ctx, text: str) -> bool:
    """Not a deadline at all (as opposed to one refused for a reason)."""
    try:
        resolve_deadline(text, ctx.now, ctx.tz, ctx.t.lang)
    except DeadlineError as exc:
        return exc.code == "deadline-unparsed"
    return False


def _table_meant(ctx: Ctx, r: Round, head: str, rest: str, whole: str) -> TableRow | None:
    """``/deadline 3 <phrase>`` is for table 3, unless the number belongs to the phrase
    (``/deadline 3 天内``); a table the round does not have is refused."""
    table = _TABLE.fullmatch(head)
    if table is None or not rest or (_unreadable(ctx, rest) and not _unreadable(ctx, whole)):
        return None
    return find_table(r, int(table.group(1)))


def _round_deadline(ctx: Ctx, event: Event, r: Round, when: datetime) -> None:
    event.set_deadline(r, when)
    ctx.out.reply("deadline.moved", round=r.number, deadline=deadline_text(ctx, when))


def _table_deadline(ctx: Ctx, event: Event, r: Round, row: TableRow, when: datetime) -> None:
    """One table's own deadline: extended, or brought forward, from the one it had."""
    before = table_deadline(r, row)
    key = (
        "deadline.table-set"
        if before is None or epoch(before) == epoch(when)
        else "deadline.table-extended"
        if when > before
        else "deadline.table-brought-forward"
    )
    event.set_deadline(r, when, row)
    ctx.out.reply(key, table=row.number, deadline=deadline_text(ctx, when))


def _signup_deadline(ctx: Ctx, event: Event, phrase: str) -> None:
    t = event.t
    if t.status != EventStatus.SIGNUP:
        raise UserError("refuse.already-drawn")
    if not phrase:
        raise UserError("usage.deadline")
    when = read_deadline(ctx, phrase, Target("s", t.id))
    if when is not None:
        _set_signup(ctx, event, when)


def _set_signup(ctx: Ctx, event: Event, when: datetime) -> None:
    t = event.t
    event.set_signup_deadline(when)
    ctx.out.reply("deadline.signup-set", deadline=deadline_text(ctx, when))
    ctx.uow.timers += tournament_timers(t)


async def hour_button(ctx: Ctx, arg: str) -> None:
    """A pressed reading of a bare hour: set that deadline as the typed command would
    (organisers only; audited and undoable), if what it was for is still there."""
    target, at = Target.pressed(arg)
    t = await pressed_for(ctx, target)
    event = Event.of(ctx, t)
    when = at.astimezone(ctx.tz)
    check_deadline(ctx, when, deadline_text(ctx, when, hint=False))
    if target.kind == "o":
        raise UserError("refuse.deadline-choice-stale")
    if target.kind == "s":
        if t.status != EventStatus.SIGNUP:
            raise UserError("refuse.already-drawn")
        _set_signup(ctx, event, when)
    else:
        if t.status == EventStatus.SIGNUP:
            raise UserError("refuse.deadline-choice-stale")
        r = open_round(t)
        if r.number != target.round:
            raise UserError("refuse.deadline-choice-stale")
        if target.kind == "t":
            row = find_table(r, target.table)
            if row.status != TableState.PENDING:
                raise UserError("refuse.deadline-table-settled", table=row.number)
            _table_deadline(ctx, event, r, row, when)
        else:
            _round_deadline(ctx, event, r, when)
        ctx.uow.timers += tournament_timers(t)
    chosen_hour(ctx, when)


async def pressed_for(ctx: Ctx, target: Target) -> Tournament:
    """The tournament a pressed reading is for, if the presser may set it and it is still
    the chat's."""
    if not await ctx.caller.is_organiser():
        raise UserError("refuse.not-organiser")
    t = await ctx.uow.tournament()
    if t.id != target.tournament:
        raise UserError("refuse.deadline-choice-stale")
    return t


def chosen_hour(ctx: Ctx, when: datetime) -> None:
    """The question, answered: its buttons go, the chosen reading stays."""
    chosen = ctx.t("deadline.hour-chosen", when=deadline_text(ctx, when, hint=False))
    ctx.out.edit(ctx.caller.inc.message_id, chosen)


# --- timers ----------------------------------------------------------------------------------
async def remind(ctx: Ctx, arg: str) -> None:
    """One reminder to the group, naming the tables still without a confirmed result and
    @-mentioning their players; a private one to each of them who can receive it."""
    at = timer_moment(arg)
    found = await timer_open_round(ctx, arg)
    if found is None:
        return
    t, r = found
    planned = {epoch(m): deadlines for m, deadlines in reminders_for(t, r).items()}
    targets = [d for d in planned.get(epoch(at), []) if d > ctx.now]
    rows = [
        row
        for row in r.tables
        if table_deadline(r, row) in targets and row.status == TableState.PENDING and _waiting(row)
    ]
    if not rows:
        return  # moved since, or everyone has reported: nothing to say
    by_user = {p.user_id: p for p in t.players}
    lines = []
    for row in rows:
        key = "deadline.remind-unconfirmed" if _live(row) else "deadline.remind-unreported"
        players = ctx.t("deadline.separator").join(mention(by_user[u]) for u in row.seats)
        lines.append(ctx.t(key, table=row.number, players=players))
    soonest = min(targets)
    ctx.out.reply(
        "deadline.reminder",
        round=r.number,
        left=relative_hint(soonest, ctx.now, ctx.t.lang),
        deadline=deadline_text(ctx, soonest, hint=False),
        lines="\n".join(lines),
    )
    Event.of(ctx, t).note(Reminded(r.number, [row.number for row in rows]))
    await _remind_privately(ctx, t, r, rows)


def _live(row: TableRow) -> bool:
    return any(rep.live for rep in row.reports)


def _waiting(row: TableRow) -> bool:
    """No report yet, or one waiting for the table's confirmation (a disputed one waits
    for the organiser, not the players)."""
    live = results.live(row)
    return live is None or live.status == ReportStatus.PENDING


async def _remind_privately(ctx: Ctx, t: Tournament, r: Round, rows: list[TableRow]) -> None:
    reachable = await ctx.uow.repo.private_chats({u for row in rows for u in row.seats})
    for row in rows:
        when = deadline_text(ctx, table_deadline(r, row))
        for user in row.seats:
            if user not in reachable:
                continue
            if _live(row):
                text = ctx.t(
                    "deadline.private-confirm", title=t.title, table=row.number, deadline=when
                )
                buttons = None
            else:
                text = ctx.t(
                    "deadline.private-report", title=t.title, table=row.number, deadline=when
                )
                label = ctx.t("deadline.button-report")
                buttons = [[(label, f"{REPORT_BUTTON}:{t.id}:{r.number}")]]
            ctx.out.send(user, text, buttons)


async def report_button(ctx: Ctx, arg: str) -> None:
    """The private reminder's button: open the guided report in the group, where the
    table's players see it and confirm. The button's data is checked like any input: a
    garbled one is stale, not an exception."""
    tournament_id, _, number = arg.partition(":")
    tid, round_number = id_or_none(tournament_id), id_or_none(number)
    t = await ctx.uow.repo.tournament(tid) if tid is not None else None
    r = latest_round(t) if t is not None and t.status == EventStatus.RUNNING else None
    if t is None or r is None or r.number != round_number or r.status != RoundStatus.OPEN:
        raise UserError("report-flow.stale")
    group = await ctx.uow.repo.chat(t.chat_id)  # the form is the group's: its language
    ctx.t = ctx.catalogue[group.lang or ctx.settings.default_lang]
    row = my_table(r, ctx.caller.actor)
    if row is None:
        raise UserError("report-flow.no-table", round=r.number)
    results.reportable(row)
    reports.check_reporter(ctx, t, row, None, names(t))
    state = report_flow.FlowState(ctx.caller.actor, t.id, r.number, row.number)
    text, buttons = report_flow.render(ctx, t, r, state, [row])
    ctx.out.send(t.chat_id, text, buttons, t.thread_id or None)
    ctx.out.toast = ctx.t("deadline.report-opened")


async def signup_passed(ctx: Ctx, arg: str) -> None:
    """The sign-up deadline: close sign-up and draw, or tell the organiser why not."""
    t = await ctx.uow.repo.tournament(int(arg.split(":")[0]))
    at = timer_moment(arg)
    until = t.signup_until if t is not None else None
    if t is None or t.status != EventStatus.SIGNUP or until is None or epoch(until) != epoch(at):
        return  # drawn by hand, moved, or taken back since
    try:
        await draw_now(ctx, Event.of(ctx, t))
    except (UserError, EngineError) as exc:
        key = exc.key if isinstance(exc, UserError) else f"error.{exc.code}"
        reason = ctx.t(key, **exc.params) if ctx.t.has(key) else key
        Event.of(ctx, t).keep_signup_open(at)
        ctx.out.reply("deadline.signup-cannot-draw", reason=reason)

"""Routes: each command, button and timer to the handler that answers it.

Each command is declared once with who may use it and the stage it needs
(:class:`bot.application.commands.Command`); the core admits the caller before the handler
runs, and the "/" menu, /help and the README's permission table are generated from this
list.
"""

from __future__ import annotations

from bot.application import topics
from bot.application.commands import Command, Role, Stage, help_text, role_of
from bot.application.context import Ctx
from bot.application.handlers import (
    bracket,
    calendar,
    chat_events,
    checkin,
    console,
    deadlines,
    departments,
    discipline,
    draw,
    lifecycle,
    paging,
    paper,
    people,
    ratings,
    referee,
    report_flow,
    reports,
    rounds,
    screen,
    signup,
    standings,
    undo,
)

ANYONE, PLAYER, ORGANISER = Role.ANYONE, Role.PLAYER, Role.ORGANISER
ANY, EVENT, SIGNUP, RUNNING, RECORD = (
    Stage.ANY,
    Stage.EVENT,
    Stage.SIGNUP,
    Stage.RUNNING,
    Stage.RECORD,
)
NOTHING_PENDING, NO_ROUND = "refuse.nothing-to-confirm", "refuse.no-open-round"
LEFT_LATE = "refuse.leave-after-draw"


async def help_cmd(ctx: Ctx, args: str) -> None:
    """The commands the caller's role may use, from the declarations below; in a forum
    also that each topic can hold its own event, and which events run where."""
    text = help_text(ctx.t, COMMANDS, await role_of(ctx))
    if ctx.caller.inc.is_forum:
        text += "\n\n" + await topics.forum_help(ctx.uow.repo, ctx.t, ctx.caller.inc)
    ctx.out.say(text)


async def start(ctx: Ctx, args: str) -> None:
    """``/start``: a score slip's link opens its table's form; anything else is /help."""
    if not await paper.start(ctx, args):
        await help_cmd(ctx, args)


COMMANDS: tuple[Command, ...] = (
    Command("new", signup.new, ORGANISER, ANY, menu=True),
    Command("join", signup.join, ANYONE, EVENT, menu=True, person=True),
    Command("leave", signup.leave, PLAYER, SIGNUP, LEFT_LATE, menu=True, person=True),
    Command("dept", departments.dept, PLAYER, SIGNUP, "refuse.dept-after-draw"),
    Command("players", signup.players, ANYONE, EVENT, menu=True),
    Command("rules", signup.rules, ANYONE, EVENT, menu=True),
    Command("set", signup.set_knob, ORGANISER, EVENT),
    Command("cancel", lifecycle.cancel, ORGANISER, EVENT),
    Command("draw", draw.draw, ORGANISER, SIGNUP, "refuse.already-drawn"),
    Command("round", rounds.open_next, ORGANISER, RUNNING),
    Command("deadline", deadlines.deadline, ORGANISER, EVENT),
    Command("table", rounds.my_table_cmd, PLAYER, RUNNING, "refuse.not-drawn", menu=True),
    Command("here", checkin.here, PLAYER, RUNNING, NO_ROUND, menu=True),
    Command("report", report_flow.report, PLAYER, RUNNING, NO_ROUND, menu=True, person=True),
    Command("confirm", reports.confirm, PLAYER, RUNNING, NOTHING_PENDING, menu=True, person=True),
    Command("dispute", reports.dispute, PLAYER, RUNNING, NOTHING_PENDING, menu=True, person=True),
    Command("fix", reports.fix, ORGANISER, RECORD),
    Command("undo", undo.undo, ORGANISER, RECORD),
    Command("penalty", discipline.penalty, ORGANISER, EVENT),
    Command("forfeit", discipline.forfeit, ORGANISER, RUNNING, NO_ROUND),
    Command("dq", discipline.dq, ORGANISER, EVENT),
    Command("drop", people.drop, PLAYER, RUNNING, "people.refuse.drop-before-draw"),
    Command("apart", people.apart, ORGANISER, EVENT),
    Command("sub", people.sub, ORGANISER, RUNNING),
    Command("standings", standings.standings, ANYONE, RECORD, menu=True),
    Command("bracket", bracket.bracket, ANYONE, RECORD, menu=True),
    Command("rating", ratings.rating, ANYONE, ANY, menu=True),
    Command("me", ratings.me, ANYONE, ANY, menu=True),
    Command("season", ratings.season, ANYONE, ANY),
    Command("verify", draw.verify, ANYONE, RECORD, menu=True),
    Command("calendar", calendar.calendar, ANYONE, EVENT),
    Command("print", paper.print_cmd, ORGANISER, RUNNING),
    Command("live", screen.live, ORGANISER, EVENT),
    Command("console", console.console, ORGANISER, RECORD),
    Command("export", ratings.export, ORGANISER, ANY, menu=True),
    Command("lang", chat_events.lang, ORGANISER, ANY),
    Command("tz", chat_events.tz, ORGANISER, ANY),
    Command("grant", chat_events.grant, ORGANISER, EVENT),
    Command("help", help_cmd, ANYONE, ANY, menu=True),
    Command("start", start, ANYONE, ANY, listed=False),
)  # fmt: skip

# Not a chat command: a group that became a supergroup moves its data (Core routes it).
MIGRATE = chat_events.migrate

CALLBACKS = {
    "join": signup.join_button,
    "cancel": lifecycle.cancel_button,
    people.DROP_BUTTON: people.drop_button,
    "confirm": reports.confirm_button,
    "dispute": reports.dispute_button,
    "here": checkin.here_button,
    "pg": paging.turn_page,
    "rf": report_flow.press,
    referee.PREFIX: referee.call,
    deadlines.REPORT_BUTTON: deadlines.report_button,
    deadlines.HOUR_BUTTON: deadlines.hour_button,
    deadlines.OPEN_BUTTON: rounds.open_button,
}

# Scheduled work, by Timer.kind (bot/transport/scheduler.py).
TIMERS = {
    "deadline": rounds.deadline_passed,
    "remind": deadlines.remind,
    "noshow": checkin.noshow_passed,
    "signup": deadlines.signup_passed,
    "live": reports.live_due,
}

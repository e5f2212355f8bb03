"""Use-cases, one module per thing users do; these declarations route commands and buttons.

Each command is declared once with who may use it and the stage it needs
(:class:`bot.commands.Command`); the core admits the caller before the handler runs, and
the "/" menu, /help and the README's permission table are generated from this list.
"""

from __future__ import annotations

from bot.commands import Command, Role, Stage
from bot.handlers import (
    bracket,
    chat_events,
    checkin,
    departments,
    discipline,
    draw,
    paging,
    report_flow,
    reports,
    rounds,
    signup,
    standings,
    undo,
)

ANYONE, PLAYER, ORGANISER = Role.ANYONE, Role.PLAYER, Role.ORGANISER
NOTHING_PENDING = "refuse.nothing-to-confirm"

COMMANDS: tuple[Command, ...] = (
    Command("new", signup.new, ORGANISER, Stage.ANY, menu=True),
    Command("join", signup.join, ANYONE, Stage.SIGNUP, menu=True),
    Command("leave", signup.leave, PLAYER, Stage.SIGNUP, "refuse.leave-after-draw", menu=True),
    Command("dept", departments.dept, PLAYER, Stage.SIGNUP, "refuse.dept-after-draw"),
    Command("players", signup.players, ANYONE, Stage.EVENT, menu=True),
    Command("rules", signup.rules, ANYONE, Stage.EVENT, menu=True),
    Command("set", signup.set_knob, ORGANISER, Stage.EVENT),
    Command("draw", draw.draw, ORGANISER, Stage.SIGNUP, "refuse.already-drawn"),
    Command("round", rounds.open_next, ORGANISER, Stage.RUNNING),
    Command("table", rounds.my_table_cmd, PLAYER, Stage.RUNNING, "refuse.not-drawn", menu=True),
    Command("here", checkin.here, PLAYER, Stage.RUNNING, "refuse.no-open-round", menu=True),
    Command("report", report_flow.report, PLAYER, Stage.RUNNING, "refuse.no-open-round", menu=True),
    Command("confirm", reports.confirm, PLAYER, Stage.RUNNING, NOTHING_PENDING, menu=True),
    Command("dispute", reports.dispute, PLAYER, Stage.RUNNING, NOTHING_PENDING, menu=True),
    Command("fix", reports.fix, ORGANISER, Stage.RECORD),
    Command("undo", undo.undo, ORGANISER, Stage.RECORD),
    Command("penalty", discipline.penalty, ORGANISER, Stage.EVENT),
    Command("forfeit", discipline.forfeit, ORGANISER, Stage.RUNNING, "refuse.no-open-round"),
    Command("dq", discipline.dq, ORGANISER, Stage.EVENT),
    Command("standings", standings.standings, ANYONE, Stage.RECORD, menu=True),
    Command("bracket", bracket.bracket, ANYONE, Stage.RECORD, menu=True),
    Command("verify", draw.verify, ANYONE, Stage.RECORD, menu=True),
    Command("export", standings.export, ORGANISER, Stage.RECORD, menu=True),
    Command("lang", chat_events.lang, ORGANISER, Stage.ANY),
    Command("tz", chat_events.tz, ORGANISER, Stage.ANY),
    Command("grant", chat_events.grant, ORGANISER, Stage.EVENT),
    Command("help", chat_events.help_cmd, ANYONE, Stage.ANY, menu=True),
    Command("start", chat_events.help_cmd, ANYONE, Stage.ANY, listed=False),
)  # fmt: skip

# Not a chat command: a group that became a supergroup moves its data (Core routes it).
MIGRATE = chat_events.migrate

CALLBACKS = {
    "join": signup.join_button,
    "confirm": reports.confirm_button,
    "dispute": reports.dispute_button,
    "here": checkin.here_button,
    "pg": paging.turn_page,
    "rf": report_flow.press,
}

# Scheduled work, by Timer.kind (bot/scheduler.py).
TIMERS = {"deadline": rounds.deadline_passed, "noshow": checkin.noshow_passed}

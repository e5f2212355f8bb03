"""Use-cases, one module per thing users do; this table routes commands and buttons."""

from __future__ import annotations

from bot.handlers import (
    bracket,
    chat_events,
    checkin,
    deadlines,
    departments,
    discipline,
    draw,
    paging,
    ratings,
    report_flow,
    reports,
    rounds,
    signup,
    standings,
    undo,
)

COMMANDS = {
    "new": signup.new,
    "join": signup.join,
    "leave": signup.leave,
    "dept": departments.dept,
    "players": signup.players,
    "set": signup.set_knob,
    "rules": signup.rules,
    "draw": draw.draw,
    "verify": draw.verify,
    "round": rounds.open_next,
    "deadline": deadlines.deadline,
    "table": rounds.my_table_cmd,
    "here": checkin.here,
    "report": report_flow.report,
    "confirm": reports.confirm,
    "dispute": reports.dispute,
    "fix": reports.fix,
    "undo": undo.undo,
    "penalty": discipline.penalty,
    "forfeit": discipline.forfeit,
    "dq": discipline.dq,
    "standings": standings.standings,
    "bracket": bracket.bracket,
    "export": ratings.export,
    "rating": ratings.rating,
    "me": ratings.me,
    "season": ratings.season,
    "lang": chat_events.lang,
    "tz": chat_events.tz,
    "grant": chat_events.grant,
    "help": chat_events.help_cmd,
    "start": chat_events.help_cmd,
    "_migrate": chat_events.migrate,
}

CALLBACKS = {
    "join": signup.join_button,
    "confirm": reports.confirm_button,
    "dispute": reports.dispute_button,
    "here": checkin.here_button,
    "pg": paging.turn_page,
    "rf": report_flow.press,
    deadlines.REPORT_BUTTON: deadlines.report_button,
}

# Scheduled work, by Timer.kind (bot/scheduler.py).
TIMERS = {
    "deadline": rounds.deadline_passed,
    "remind": deadlines.remind,
    "noshow": checkin.noshow_passed,
    "signup": deadlines.signup_passed,
}

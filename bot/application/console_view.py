"""The Mini App's view of one event for one user: what ``/app/api/state`` answers
(docs/guide.en.md#console).

Who the user is there is decided as in the chat: an organiser is a group admin or was
granted the role (``Caller.is_organiser``), a player is signed up and not disqualified;
anyone else sees nothing. The organiser's console gets the event at a glance (stage,
round, deadline, every table's state), the sign-up list, and which actions the event's
stage allows (the commands' own declarations); a player's form gets their table, seats,
opponents and deadline, and the report waiting for them.

It reads the event's row, its players and its latest round with its tables, never the
rounds before, so it costs the same at round 1 and round 9. The standings, which need
every round, are :func:`standings`: the sheet the standings picture and the live page
are drawn from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.application.commands import Role, stage_fits
from bot.application.console_actions import ACTIONS, command_of
from bot.application.context import Ctx
from bot.application.handlers import reports
from bot.application.handlers.common import event_status
from bot.application.handlers.lifecycle import format_name
from bot.application.handlers.people import player_mark
from bot.application.handlers.report_flow import choice_label
from bot.application.service import people, results
from bot.application.timers import table_deadline
from bot.application.tournament import active_count, apart_pairs, game_of, given_teams, names
from bot.language.errors import UserError
from bot.language.i18n import Translator, without_emoji
from bot.presentation.pictures import standings_sheet
from db.models import Player, Round, TableRow, Tournament
from db.status import EventStatus, PlayerStatus, ReportStatus, RoundStatus, TableState
from engine.model import SEAT_LETTERS

LABELS = "miniapp."  # the page's words: every catalogue key under it
NO_SAY = (PlayerStatus.LEFT, PlayerStatus.REMOVED)  # withdrew, or disqualified


@dataclass(frozen=True)
class Visitor:
    """The user in the event: ``organiser`` as in the chat, ``player`` their row."""

    user: int
    organiser: bool
    player: Player | None


async def visitor(ctx: Ctx, t: Tournament) -> Visitor | None:
    """Who the caller is in ``t``; None when neither organiser nor player."""
    organiser = await ctx.caller.is_organiser()
    player = await ctx.uow.repo.player(t.id, ctx.caller.actor)
    if player is not None and player.status in NO_SAY:
        player = None
    if not organiser and player is None:
        return None
    return Visitor(ctx.caller.actor, organiser, player)


def labels(t: Translator) -> dict[str, str]:
    return {k.removeprefix(LABELS): v for k, v in t.messages.items() if k.startswith(LABELS)}


def table_state(r: Round, row: TableRow, now: datetime) -> str:
    """waiting (nothing yet), reported (to confirm), confirmed, disputed, late (its
    deadline passed, nothing settled), held (a forfeit the round waits on the
    organiser's ruling for: docs/rules/deadlines.md#late) or forfeit."""
    if row.status == TableState.CONFIRMED:
        return "confirmed"
    if row.status == TableState.FORFEIT:
        settled = all(other.status != TableState.PENDING for other in r.tables)
        return "held" if r.status == RoundStatus.OPEN and settled else "forfeit"
    current = results.live(row)
    if current is not None and current.status == ReportStatus.DISPUTED:
        return "disputed"
    if current is not None and current.status == ReportStatus.PENDING:
        return "reported"
    deadline = table_deadline(r, row)
    late = r.status == RoundStatus.OPEN and deadline is not None and deadline <= now
    return "late" if late else "waiting"


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _table(ctx: Ctx, r: Round, row: TableRow, who: Mapping[int, str]) -> dict[str, Any]:
    current = results.live(row)
    report = None
    if current is not None and current.status in (ReportStatus.PENDING, ReportStatus.DISPUTED):
        report = {
            "id": current.id,
            "text": current.text,
            "status": current.status,
            "by": current.reporter_id,
            "scores": list(current.scores),
            "reason": current.reason or "",
        }
    elif row.status == TableState.CONFIRMED and current is not None:
        report = {"id": current.id, "text": current.text, "status": current.status}
    state = table_state(r, row, ctx.now)
    return {
        "number": row.number,
        "seats": [
            {"seat": SEAT_LETTERS[i], "user": u, "name": who.get(u, str(u))}
            for i, u in enumerate(row.seats)
        ],
        "state": state,
        "state_label": ctx.t(f"miniapp.state-{state}"),
        "deadline": _iso(table_deadline(r, row)),
        "report": report,
        "forfeited": list(row.forfeited),
    }


def _form(ctx: Ctx, t: Tournament, r: Round | None) -> dict[str, Any]:
    """The score form for each table size of the round: the game's own steps (what the
    guided ``/report`` asks, ``Game.flow``), each with its choices in words."""
    game = game_of(t)
    sizes = sorted({len(row.seats) for row in r.tables}) if r is not None else []
    forms = {}
    for seats in sizes or list(game.seat_counts[:1]):
        letters = SEAT_LETTERS[:seats]
        steps = []
        for step in game.flow(seats):
            steps.append(
                {
                    "name": step.name,
                    "per_seat": step.per_seat,
                    "multi": step.multi,
                    "prompts": [
                        ctx.t(f"flow.{t.game}.{step.name}", seat=letter)
                        for letter in (letters if step.per_seat else "?")
                    ],
                    "choices": [
                        {"value": value, "label": choice_label(ctx, value)}
                        for value in step.choices
                    ],
                }
            )
        forms[str(seats)] = {"steps": steps, "example": game.example(seats)}
    return forms


def _people(ctx: Ctx, t: Tournament) -> dict[str, Any]:
    """The sign-up list: who counts, the waiting list beyond the cap, pairs or teams
    signed up together, the pairs kept apart."""
    who = names(t)
    listed = [p for p in t.players if p.status not in (PlayerStatus.LEFT, PlayerStatus.WAITING)]
    teams: dict[int, list[int]] = {}
    if t.status == EventStatus.SIGNUP:
        for user, team in given_teams(t).items():
            teams.setdefault(team, []).append(user)
    return {
        "count": active_count(t),
        "cap": people.cap_of(t),
        "late": people.late_value(t),
        "players": [
            {
                "user": p.user_id,
                "name": p.name,
                "status": p.status,
                "department": p.department or "",
                "mark": player_mark(ctx, t, p).removeprefix(" · ").strip(),
            }
            for p in listed
        ],
        "waiting": [{"user": p.user_id, "name": p.name} for p in people.queue(t)],
        "together": [[{"user": u, "name": who[u]} for u in members] for members in teams.values()],
        "apart": [
            [{"user": u, "name": who.get(u, str(u))} for u in pair] for pair in apart_pairs(t)
        ],
    }


def _mine(
    ctx: Ctx, t: Tournament, r: Round | None, me: Visitor, tables: list[dict[str, Any]]
) -> dict[str, Any]:
    """The player's own: their table (or bye), whether they may report it, check in."""
    row = next((x for x in r.tables if me.user in x.seats), None) if r is not None else None
    mine: dict[str, Any] = {"bye": r is not None and me.user in r.byes, "table": None}
    if r is None or row is None:
        return mine
    who = names(t)
    try:
        results.reportable(row)
        reports.check_reporter(ctx, t, row, None, who)
        reportable = r.status == RoundStatus.OPEN
    except UserError as refused:  # a result is in, or it is the captain's to report
        reportable = False
        mine["why_not"] = ctx.t(refused.key, **refused.params)
    mine["table"] = next(x for x in tables if x["number"] == row.number)
    mine["seat"] = SEAT_LETTERS[row.seats.index(me.user)]
    mine["can_report"] = reportable
    checkin = r.checkin_until is not None and r.status == RoundStatus.OPEN
    mine["can_check_in"] = checkin and me.user not in row.present
    return mine


async def view(ctx: Ctx, t: Tournament, me: Visitor) -> dict[str, Any]:
    """Everything the page shows ``me``, JSON-ready, in the event's language."""
    repo = ctx.uow.repo
    await repo.load_players(t)
    r = await repo.latest_round(t)
    if r is not None:
        await repo.load_tables(r)
    who = names(t)
    tables = [_table(ctx, r, row, who) for row in r.tables] if r is not None else []
    signup = t.status == EventStatus.SIGNUP
    status = ctx.t("miniapp.signup") if signup else without_emoji(event_status(ctx, t, r))
    opened = r is not None and r.status == RoundStatus.OPEN
    state: dict[str, Any] = {
        "version": t.version,
        "lang": ctx.t.lang,
        "now": ctx.now.isoformat(),
        "role": "organiser" if me.organiser else "player",
        "user": me.user,
        "labels": labels(ctx.t),
        "event": {
            "id": t.id,
            "title": t.title,
            "game": ctx.t(f"game.{t.game}"),
            "format": format_name(ctx, t),
            "status": t.status,
            "status_text": status,
            "zone": ctx.tz.key,
            "signup_until": _iso(t.signup_until),
        },
        "round": {
            "number": r.number,
            "status": r.status,
            "deadline": _iso(r.deadline) if opened else None,
            "checkin_until": _iso(r.checkin_until) if opened else None,
            "byes": [{"user": u, "name": who.get(u, str(u))} for u in r.byes],
        }
        if r is not None
        else None,
        "tables": tables,
        "form": _form(ctx, t, r),
    }
    if me.organiser:
        state["people"] = _people(ctx, t)
        state["actions"] = {
            name: stage_fits(command_of(action).stage, t.status) for name, action in ACTIONS.items()
        }
    if me.player is not None:
        state["mine"] = _mine(ctx, t, r, me, tables)
        player_role = {
            name: stage_fits(command_of(action).stage, t.status)
            for name, action in ACTIONS.items()
            if command_of(action).role is not Role.ORGANISER
        }
        state.setdefault("actions", {}).update(player_role)
    return state


def standings(ctx: Ctx, t: Tournament) -> dict[str, Any] | None:
    """The standings sheet of the whole event (loaded whole), as the standings picture
    and the live page show it; None before the draw."""
    if not t.rounds:
        return None
    sheet = standings_sheet(ctx, t)
    return {
        "title": sheet.title,
        "subtitle": sheet.subtitle,
        "columns": list(sheet.columns),
        "aligns": sheet.aligns,
        "rows": [
            {"cells": list(row.cells), "section": row.mark == "section"} for row in sheet.rows
        ],
    }

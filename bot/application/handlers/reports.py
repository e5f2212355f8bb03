"""Score reports: /report, /confirm, /dispute (and their buttons), and /fix.

A captain's report waits for one other player of the table to confirm it; an
organiser's report or /fix counts at once. The engine checks every report against the
game's rules before anything is stored (``bot.application.service.results.check``); the state
changes are the service layer's (``bot.application.service.results``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import (
    display_name,
    find_table,
    refresh_live,
    stands_at,
    table_number,
    tell,
)
from bot.application.service import results
from bot.application.timers import epoch
from bot.application.tournament import game_of, latest_round, names, policy
from bot.application.types import Buttons
from bot.language.errors import UserError
from bot.language.inputs import id_or_none
from db.models import Report, Round, TableRow, Tournament
from db.retention import owned_tag
from db.status import EventStatus, PlayerStatus, ReportStatus, RoundStatus
from engine.formats.series import games_won
from engine.games.base import fmt_points
from engine.model import SEAT_LETTERS


def _split(args: str, usage: str, **example: str) -> tuple[int, str]:
    head, _, rest = args.strip().partition(" ")
    if not head or not rest.strip():
        raise UserError(usage, **example)
    return table_number(head), rest.strip()


def score_lines(ctx: Ctx, who: Mapping[int, str], row: TableRow, scores: list[Decimal]) -> str:
    return "\n".join(
        ctx.t("report.seat", seat=SEAT_LETTERS[i], name=who[u], points=fmt_points(scores[i]))
        for i, u in enumerate(row.seats)
    )


async def report(ctx: Ctx, args: str) -> None:
    """``/report <table> <result…>`` typed (a bare ``/report`` is the button flow's)."""
    event = await Event.load(ctx, whole=False)
    game = event.game
    number, text = _split(args, "usage.report", example=game.example(game.seat_counts[0]))
    await file_report(ctx, event, number, text)


async def latest_table(
    ctx: Ctx, t: Tournament, number: int, open_only: bool = True
) -> tuple[Round, TableRow]:
    """The latest round (open, unless told) and its table ``number``, read alone: a
    report costs the same at table 3 of 4 as at table 300 of 500."""
    r = await ctx.uow.repo.latest_round(t)
    if r is None or (open_only and r.status != RoundStatus.OPEN):
        raise UserError("refuse.no-open-round" if open_only else "refuse.not-drawn")
    row = await ctx.uow.repo.round_table(r.id, number)
    if row is None:
        raise UserError("refuse.no-such-table", table=number, round=r.number)
    return r, row


async def live_due(ctx: Ctx, arg: str) -> None:
    """The live standings refresh a burst planned (timer ``live``): the results
    confirmed meanwhile, the picture held back at most a minute. Between rounds too
    (the last result of a round may be one of the burst)."""
    tournament_id, _, moment = arg.split(":")
    t = await ctx.uow.repo.tournament(int(tournament_id))
    if t is None or t.status != EventStatus.RUNNING or epoch(t.live_due) != int(moment):
        return  # over, or a refresh came first (and planned its own if it needed one)
    refresh_live(ctx, Event.of(ctx, t))


async def file_report(
    ctx: Ctx, event: Event, number: int, text: str, edit: int | None = None
) -> None:
    """Check a report and store it: pending for a player, confirmed for an organiser.

    The one path for the typed ``/report`` and the button flow's Submit, so both are
    checked and stored alike; ``edit`` is the flow message to turn into the announcement.
    """
    t = event.t
    r, row, checked, who = await vet_report(ctx, t, number, text)
    organiser = await ctx.caller.is_organiser()
    done = await event.report(r, row, checked, organiser)
    rep = done.report
    lines = score_lines(ctx, who, row, list(done.scores))
    if done.counts:
        announce(ctx, edit, ctx.t("report.confirmed", table=number, text=rep.text, scores=lines))
        next_game(ctx, t, row, who)
        await tell(ctx, event, done.then)
        return
    filed = ctx.t(
        "report.filed", table=number, text=rep.text, scores=lines, reporter=display_name(ctx)
    )
    announce(
        ctx,
        edit,
        ctx.t("report.pending", filed=filed) + stands_at(ctx, r, row),
        [
            [
                (ctx.t("button.confirm"), f"confirm:{rep.id}"),
                (ctx.t("button.dispute"), f"dispute:{rep.id}"),
            ]
        ],
        tag=report_tag(rep),
    )


def report_tag(rep: Report) -> str:
    """Names a pending report's message, so that it loses its buttons once the report
    is settled (``report_settled``)."""
    return owned_tag("report", rep.id)


def report_settled(
    ctx: Ctx, row: TableRow, rep: Report, who: Mapping[int, str], outcome: str
) -> None:
    """The pending report's message, its Confirm and Dispute buttons replaced by what
    became of it (confirmed by whom, disputed, corrected): buttons left on it would
    offer what can no longer be done."""
    scores = score_lines(ctx, who, row, [Decimal(s) for s in rep.scores])
    # one who reports and plays in no seat is an organiser: their name is not kept
    reporter = who.get(rep.reporter_id) or ctx.t("role.organiser")
    filed = ctx.t("report.filed", table=row.number, text=rep.text, scores=scores, reporter=reporter)
    settled = ctx.t("report.settled", outcome=outcome, filed=filed)
    ctx.out.edit_tagged(report_tag(rep), settled, message_id=rep.message_id)


async def vet_report(
    ctx: Ctx, t: Tournament, number: int, text: str
) -> tuple[Round, TableRow, results.Checked, dict[int, str]]:
    """What a report must pass before it is stored: the caller's table (an organiser's
    any), one with no result yet, a report the engine accepts, from the seat that
    reports. The Mini App's form asks it as the player types (nothing is stored)."""
    r, row = await latest_table(ctx, t, number)
    organiser = await ctx.caller.is_organiser()
    if not organiser and ctx.caller.actor not in row.seats:
        raise UserError("refuse.not-at-table", table=number)
    results.reportable(row)
    checked = results.check(t, r, row, text)
    who = await ctx.uow.repo.names(t.id, row.seats)
    if not organiser:
        check_reporter(ctx, t, row, checked.scores, who)
    return r, row, checked, who


def next_game(ctx: Ctx, t: Tournament, row: TableRow, who: Mapping[int, str]) -> None:
    """A match still level after its confirmed games plays on: the table is told its
    next game and how to report it (the report adds to the games before); the other
    tables are not held up (docs/rules/two-player.md)."""
    earlier = results.awaiting(row)
    if earlier is None:
        return
    outcome = game_of(t).parse(earlier.text, len(row.seats))
    totals = [sum(side, Decimal(0)) for side in zip(*outcome.per_hand, strict=True)]
    ctx.out.reply(
        "series.next-game",
        table=row.number,
        a=who.get(row.seats[0], str(row.seats[0])),
        b=who.get(row.seats[1], str(row.seats[1])),
        score=games_won(totals, outcome),
        played=outcome.hands,
        game=outcome.hands + 1,
    )


def announce(
    ctx: Ctx, edit: int | None, text: str, buttons: Buttons | None = None, tag: str | None = None
) -> None:
    """A new message, or (from the button flow) the flow's own message edited in place."""
    if edit is None:
        ctx.out.say(text, buttons, tag=tag)
    else:
        ctx.out.edit(edit, text, buttons, tag=tag)


def check_reporter(
    ctx: Ctx,
    t: Tournament,
    row: TableRow,
    scores: tuple[Decimal, ...] | None,
    who: Mapping[int, str],
) -> None:
    """Seat A reports by default; "winner reports" (seed: 由获胜者上报结果) is a policy.

    Without ``scores`` (the button flow before any tap) only the captain rule can be checked.
    """
    rule = policy(t, "reporter")
    seat = row.seats.index(ctx.caller.actor)
    if rule == "captain" and seat != 0:
        raise UserError("refuse.not-captain", table=row.number, captain=who[row.seats[0]])
    if rule == "winner" and scores is not None and scores[seat] != max(scores):
        raise UserError("refuse.not-winner", table=row.number)


async def _pending_for(ctx: Ctx, arg: str, button: bool) -> tuple[Event, Round, TableRow, Report]:
    """The pending report a player means: the button's, the table named, or their own
    table's, in the latest round. One table is read, whatever the size of the event.
    (The commands are declared ``person``; the buttons come here unadmitted.)"""
    ctx.caller.require_person()
    pressed = await _pressed(ctx, arg) if button else None
    event = await Event.load(ctx, whole=False)
    t = event.t
    r = await ctx.uow.repo.latest_round(t)
    if r is None:
        raise UserError("refuse.nothing-to-confirm")
    row: TableRow | None
    if pressed is not None:
        row = pressed if pressed.round_id == r.id else None
    elif arg.strip():
        _, row = await latest_table(ctx, t, table_number(arg.split()[0]), open_only=False)
    else:
        row = await ctx.uow.repo.seated_table(r.id, ctx.caller.actor)
    live = results.live(row) if row is not None else None
    if row is not None and live is not None and live.status == ReportStatus.PENDING:
        if ctx.caller.actor not in row.seats:
            raise UserError("refuse.not-at-table", table=row.number)
        me = await ctx.uow.repo.player(t.id, ctx.caller.actor)
        if me is not None and me.status == PlayerStatus.REMOVED:  # a button skips admission
            raise UserError("refuse.player-removed", name=me.name)
        return event, r, row, live
    raise UserError("refuse.nothing-to-confirm")


async def _pressed(ctx: Ctx, arg: str) -> TableRow:
    """The table of the report a Confirm or Dispute button is on, while that report
    waits; else a refusal saying what became of it (the button may be on a message of
    a round, or an event, long over)."""
    report_id = id_or_none(arg)
    rep = await ctx.uow.repo.report(report_id) if report_id is not None else None
    row = await ctx.uow.repo.table(rep.table_id) if rep is not None else None
    if rep is None or row is None:
        raise UserError("refuse.nothing-to-confirm")
    if not rep.live:
        raise UserError("refuse.report-replaced", table=row.number)
    if rep.status != ReportStatus.PENDING:
        raise UserError(f"refuse.already-{rep.status}", table=row.number)
    if await ctx.uow.repo.round_event_status(row.round_id) == EventStatus.CANCELLED:
        raise UserError("refuse.cancelled")
    return row


async def _confirm(ctx: Ctx, arg: str, button: bool) -> None:
    event, r, row, rep = await _pending_for(ctx, arg, button)
    t = event.t
    done = await event.confirm(r, row, rep)
    ctx.out.toast = ctx.t("report.confirmed-short", table=row.number)
    who = await ctx.uow.repo.names(t.id, row.seats)
    ctx.out.reply(
        "report.confirmed",
        table=row.number,
        text=rep.text,
        scores=score_lines(ctx, who, row, [Decimal(s) for s in rep.scores]),
    )
    by = who.get(ctx.caller.actor, display_name(ctx))
    report_settled(ctx, row, rep, who, ctx.t("report.now-confirmed", name=by))
    next_game(ctx, t, row, who)
    await tell(ctx, event, done.then)


async def _dispute(ctx: Ctx, arg: str, button: bool) -> None:
    table_arg, reason = (arg, "") if button else _table_and_reason(arg)
    event, _, row, rep = await _pending_for(ctx, table_arg, button)
    event.dispute(row, rep, reason)
    ctx.out.toast = ctx.t("report.disputed-short", table=row.number)
    ctx.out.reply("report.disputed", table=row.number, name=display_name(ctx), reason=reason or "—")
    who = await ctx.uow.repo.names(event.t.id, row.seats)
    by = who.get(ctx.caller.actor, display_name(ctx))
    report_settled(ctx, row, rep, who, ctx.t("report.now-disputed", name=by))


def _table_and_reason(arg: str) -> tuple[str, str]:
    """``/dispute [table] [reason…]``: the table number is optional."""
    head, _, rest = arg.strip().partition(" ")
    try:
        table_number(head)
    except UserError:
        return "", arg.strip()
    return head, rest.strip()


async def confirm(ctx: Ctx, args: str) -> None:
    await _confirm(ctx, args, button=False)


async def confirm_button(ctx: Ctx, arg: str) -> None:
    await _confirm(ctx, arg, button=True)


async def dispute(ctx: Ctx, args: str) -> None:
    await _dispute(ctx, args, button=False)


async def dispute_button(ctx: Ctx, arg: str) -> None:
    await _dispute(ctx, arg, button=True)


async def fix(ctx: Ctx, args: str) -> None:
    """``/fix <table> <result…>``: replace a table's result in the latest round."""
    event = await Event.load(ctx, finished=True)
    t = event.t
    number, text = _split(args, "usage.fix")
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    row = find_table(r, number)
    checked = results.check(t, r, row, text, whole=True)
    waiting = results.live(row)  # a report still asking for a confirmation, or disputed
    done = await event.fix(r, row, checked)
    ctx.out.reply(
        "report.fixed",
        table=number,
        text=done.report.text,
        scores=score_lines(ctx, names(t), row, list(done.scores)),
    )
    if waiting is not None and waiting.status != ReportStatus.CONFIRMED:
        report_settled(ctx, row, waiting, names(t), ctx.t("report.now-fixed"))
    next_game(ctx, t, row, names(t))
    await tell(ctx, event, done.then)

"""Score reports: /report, /confirm, /dispute (and their buttons), and /fix.

A captain's report waits for one other player of the table to confirm it; an
organiser's report or /fix counts at once. The engine checks every report against the
game's rules before anything is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers.common import (
    display_name,
    find_table,
    refresh_live,
    settle_round,
    stands_at,
    table_number,
)
from bot.inputs import id_or_none
from bot.tournament import game_of, latest_round, names, policy
from bot.types import Buttons, Outgoing
from db.models import Report, Round, TableRow, Tournament
from engine.formats.series import check_series, series_length
from engine.games.base import Outcome, fmt_points
from engine.model import SEAT_LETTERS


def _live(row: TableRow) -> Report | None:
    return next((rep for rep in row.reports if rep.live), None)


def _split(args: str, usage: str) -> tuple[int, str]:
    head, _, rest = args.strip().partition(" ")
    if not head or not rest.strip():
        raise UserError(usage)
    return table_number(head), rest.strip()


def stored(scores: tuple[Decimal, ...]) -> list[str]:
    """Scores as the database keeps them: ``3`` not ``3.0``, ``0.5`` not ``0.50``.

    The engine may compute ``2 × 0.5 = 1.0``; /export shows these strings as they are.
    """
    return [str(s.quantize(Decimal(1)) if s == s.to_integral() else s.normalize()) for s in scores]


def score_lines(ctx: Ctx, who: Mapping[int, str], row: TableRow, scores: list[Decimal]) -> str:
    return "\n".join(
        ctx.t("report.seat", seat=SEAT_LETTERS[i], name=who[u], points=fmt_points(scores[i]))
        for i, u in enumerate(row.seats)
    )


async def report(ctx: Ctx, args: str) -> None:
    """``/report <table> <result…>`` typed (a bare ``/report`` is the button flow's)."""
    ctx.require_person()
    t = await ctx.tournament(whole=False)
    number, text = _split(args, "usage.report")
    await file_report(ctx, t, number, text)


async def latest_table(
    ctx: Ctx, t: Tournament, number: int, open_only: bool = True
) -> tuple[Round, TableRow]:
    """The latest round (open, unless told) and its table ``number``, read alone: a
    report costs the same at table 3 of 4 as at table 300 of 500."""
    r = await ctx.repo.latest_round(t.id)
    if r is None or (open_only and r.status != "open"):
        raise UserError("refuse.no-open-round" if open_only else "refuse.not-drawn")
    row = await ctx.repo.round_table(r.id, number)
    if row is None:
        raise UserError("refuse.no-such-table", table=number, round=r.number)
    return r, row


async def settle_if_done(ctx: Ctx, t: Tournament, r: Round) -> None:
    """After a confirmed result: update the live standings (issue 12), and close the
    round once no table is pending. Both need the whole event (the standings, and the
    engine planning the next round from all of it), so it is loaded here."""
    await ctx.repo.load_whole(t)
    if r.status == "open" and not await ctx.repo.pending_tables(r.id):
        settle_round(ctx, t, r)
    else:
        refresh_live(ctx, t)


def reportable(row: TableRow) -> None:
    """Refuse a table that already has a result or a report waiting."""
    live = _live(row)
    if row.status == "confirmed" or (live is not None and live.status == "confirmed"):
        raise UserError("refuse.already-confirmed", table=row.number)
    if row.status == "forfeit":
        raise UserError("refuse.table-forfeited", table=row.number)
    if live is not None:
        raise UserError(f"refuse.already-{live.status}", table=row.number)


async def file_report(
    ctx: Ctx, t: Tournament, number: int, text: str, edit: int | None = None
) -> None:
    """Check a report and store it: pending for a player, confirmed for an organiser.

    The one path for the typed ``/report`` and the button flow's Submit, so both are
    checked and stored alike; ``edit`` is the flow message to turn into the announcement.
    """
    r, row = await latest_table(ctx, t, number)
    organiser = await ctx.is_organiser()
    if not organiser and ctx.actor not in row.seats:
        raise UserError("refuse.not-at-table", table=number)
    reportable(row)
    game = game_of(t)
    outcome = game.parse(text, len(row.seats))
    fits_series(r, row, outcome)
    scores = game.round_scores(outcome, len(row.seats))
    who = await ctx.repo.names(t.id, row.seats)
    if not organiser:
        check_reporter(ctx, t, row, scores, who)
    status = "confirmed" if organiser else "pending"
    rep = Report(
        table_id=row.id,
        text=outcome.text,
        scores=stored(scores),
        status=status,
        live=True,
        reporter_id=ctx.actor,
    )
    row.reports.append(rep)
    await ctx.repo.session.flush()  # the (table, live) unique key settles a race here
    ctx.audit(
        "report" if not organiser else "report-by-organiser",  # only the latter is /undo-able
        t,
        None,
        {"table": number, "round": r.number, "text": rep.text, "status": status}
        | {"report_id": rep.id, "table_id": row.id},
    )
    lines = score_lines(ctx, who, row, list(scores))
    if organiser:
        row.status = "confirmed"
        announce(ctx, edit, ctx.t("report.confirmed", table=number, text=rep.text, scores=lines))
        await settle_if_done(ctx, t, r)
        return
    announce(
        ctx,
        edit,
        ctx.t(
            "report.pending",
            table=number,
            text=rep.text,
            scores=lines,
            reporter=display_name(ctx),
        )
        + stands_at(ctx, r, row),
        [
            [
                (ctx.t("button.confirm"), f"confirm:{rep.id}"),
                (ctx.t("button.dispute"), f"dispute:{rep.id}"),
            ]
        ],
    )


def fits_series(r: Round, row: TableRow, outcome: Outcome) -> None:
    """A two-player table of a best-of-N stage reports a series that N allows."""
    best_of = series_length(r.notes)
    if best_of is not None and len(row.seats) == 2:
        check_series(best_of, outcome)


def announce(ctx: Ctx, edit: int | None, text: str, buttons: Buttons | None = None) -> None:
    """A new message, or (from the button flow) the flow's own message edited in place."""
    if edit is None:
        ctx.say(text, buttons)
    else:
        ctx.outgoing.append(
            Outgoing(
                ctx.inc.chat_id, "edit", text, ctx.inc.thread_id, buttons, edit_message_id=edit
            )
        )


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
    seat = row.seats.index(ctx.actor)
    if rule == "captain" and seat != 0:
        raise UserError("refuse.not-captain", table=row.number, captain=who[row.seats[0]])
    if rule == "winner" and scores is not None and scores[seat] != max(scores):
        raise UserError("refuse.not-winner", table=row.number)


async def _pending_for(
    ctx: Ctx, arg: str, button: bool
) -> tuple[Tournament, Round, TableRow, Report]:
    """The pending report a player means: the button's, the table named, or their own
    table's, in the latest round. One table is read, whatever the size of the event."""
    ctx.require_person()
    t = await ctx.tournament(whole=False)
    r = await ctx.repo.latest_round(t.id)
    if r is None:
        raise UserError("refuse.nothing-to-confirm")
    row: TableRow | None
    if button:
        report_id = id_or_none(arg)
        rep = await ctx.repo.report(report_id) if report_id is not None else None
        row = await ctx.repo.table(rep.table_id) if rep is not None else None
        row = row if row is not None and row.round_id == r.id else None
    elif arg.strip():
        _, row = await latest_table(ctx, t, table_number(arg.split()[0]), open_only=False)
    else:
        row = await ctx.repo.seated_table(r.id, ctx.actor)
    live = _live(row) if row is not None else None
    if row is not None and live is not None and live.status == "pending":
        if ctx.actor not in row.seats:
            raise UserError("refuse.not-at-table", table=row.number)
        return t, r, row, live
    raise UserError("refuse.nothing-to-confirm")


async def _confirm(ctx: Ctx, arg: str, button: bool) -> None:
    t, r, row, rep = await _pending_for(ctx, arg, button)
    if rep.reporter_id == ctx.actor:
        raise UserError("refuse.confirm-own", table=row.number)
    rep.status, rep.confirmed_by, row.status = "confirmed", ctx.actor, "confirmed"
    ctx.audit("confirm", t, {"table": row.number, "status": "pending"}, {"status": "confirmed"})
    ctx.toast = ctx.t("report.confirmed-short", table=row.number)
    ctx.reply(
        "report.confirmed",
        table=row.number,
        text=rep.text,
        scores=score_lines(
            ctx, await ctx.repo.names(t.id, row.seats), row, [Decimal(s) for s in rep.scores]
        ),
    )
    await settle_if_done(ctx, t, r)


async def _dispute(ctx: Ctx, arg: str, button: bool) -> None:
    table_arg, reason = (arg, "") if button else _table_and_reason(arg)
    t, _, row, rep = await _pending_for(ctx, table_arg, button)
    rep.status, rep.reason = "disputed", reason
    ctx.audit(
        "dispute",
        t,
        {"table": row.number, "status": "pending"},
        {"status": "disputed", "reason": reason},
    )
    ctx.toast = ctx.t("report.disputed-short", table=row.number)
    ctx.reply("report.disputed", table=row.number, name=display_name(ctx), reason=reason or "—")


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
    await ctx.require_organiser()
    t = await ctx.tournament(finished=True)
    number, text = _split(args, "usage.fix")
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    row = find_table(r, number)
    if r.status == "closed":  # settled already: settle again below, from the new result
        r.status, t.status = "open", "running"
    game = game_of(t)
    outcome = game.parse(text, len(row.seats))
    fits_series(r, row, outcome)
    scores = game.round_scores(outcome, len(row.seats))
    old = _live(row)
    old_state = {
        "table_id": row.id,
        "table": number,
        "status": row.status,
        "forfeited": list(row.forfeited),
        "report_id": old.id if old else None,
        "report_status": old.status if old else None,
        "text": old.text if old else None,
    }
    if old is not None:
        old.live, old.status = None, "replaced"
        await ctx.repo.session.flush()
    rep = Report(
        table_id=row.id,
        text=outcome.text,
        scores=stored(scores),
        status="confirmed",
        live=True,
        reporter_id=ctx.actor,
    )
    row.reports.append(rep)
    await ctx.repo.session.flush()
    row.status, row.forfeited = "confirmed", []
    ctx.audit("fix", t, old_state, {"text": rep.text, "status": "confirmed", "report_id": rep.id})
    ctx.reply(
        "report.fixed",
        table=number,
        text=rep.text,
        scores=score_lines(ctx, names(t), row, list(scores)),
    )
    settle_round(ctx, t, r)

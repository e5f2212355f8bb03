"""Score reports: /report, /confirm, /dispute (and their buttons), and /fix.

A captain's report waits for one other player of the table to confirm it; an
organiser's report or /fix counts at once. The engine checks every report against the
game's rules before anything is stored.
"""

from __future__ import annotations

from decimal import Decimal

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers.common import display_name, find_table, open_round, settle_round, table_number
from bot.tournament import game_of, latest_round, names, policy
from db.models import Report, TableRow, Tournament
from engine.games.base import fmt_points
from engine.model import SEAT_LETTERS


def _live(row: TableRow) -> Report | None:
    return next((rep for rep in row.reports if rep.live), None)


def _split(args: str, usage: str) -> tuple[int, str]:
    head, _, rest = args.strip().partition(" ")
    if not head or not rest.strip():
        raise UserError(usage)
    return table_number(head), rest.strip()


def _score_lines(ctx: Ctx, t: Tournament, row: TableRow, scores: list[Decimal]) -> str:
    who = names(t)
    return "\n".join(
        ctx.t("report.seat", seat=SEAT_LETTERS[i], name=who[u], points=fmt_points(scores[i]))
        for i, u in enumerate(row.seats)
    )


async def report(ctx: Ctx, args: str) -> None:
    """``/report <table> <result…>``: check, store as pending (or confirmed for organisers)."""
    if not args.strip():
        raise UserError("usage.report")
    t = await ctx.tournament()
    number, text = _split(args, "usage.report")
    r = open_round(t)
    row = find_table(r, number)
    organiser = await ctx.is_organiser()
    if not organiser and ctx.actor not in row.seats:
        raise UserError("refuse.not-at-table", table=number)
    live = _live(row)
    if row.status == "confirmed" or (live is not None and live.status == "confirmed"):
        raise UserError("refuse.already-confirmed", table=number)
    if row.status == "forfeit":
        raise UserError("refuse.table-forfeited", table=number)
    if live is not None:
        raise UserError(f"refuse.already-{live.status}", table=number)
    outcome = game_of(t).parse(text, len(row.seats))
    if not organiser:
        _check_reporter(ctx, t, row, outcome.scores)
    status = "confirmed" if organiser else "pending"
    rep = Report(
        table_id=row.id,
        text=outcome.text,
        scores=[str(s) for s in outcome.scores],
        status=status,
        live=True,
        reporter_id=ctx.actor,
    )
    row.reports.append(rep)
    await ctx.repo.session.flush()  # the (table, live) unique key settles a race here
    ctx.audit(
        "report", t, None, {"table": number, "round": r.number, "text": rep.text, "status": status}
    )
    lines = _score_lines(ctx, t, row, list(outcome.scores))
    if organiser:
        row.status = "confirmed"
        ctx.reply("report.confirmed", table=number, text=rep.text, scores=lines)
        settle_round(ctx, t, r)
        return
    ctx.reply(
        "report.pending",
        buttons=[
            [
                (ctx.t("button.confirm"), f"confirm:{rep.id}"),
                (ctx.t("button.dispute"), f"dispute:{rep.id}"),
            ]
        ],
        table=number,
        text=rep.text,
        scores=lines,
        reporter=display_name(ctx),
    )


def _check_reporter(ctx: Ctx, t: Tournament, row: TableRow, scores: tuple[Decimal, ...]) -> None:
    """Seat A reports by default; "winner reports" (seed: 由获胜者上报结果) is a policy."""
    rule = policy(t, "reporter")
    seat = row.seats.index(ctx.actor)
    who = names(t)
    if rule == "captain" and seat != 0:
        raise UserError("refuse.not-captain", table=row.number, captain=who[row.seats[0]])
    if rule == "winner" and scores[seat] != max(scores):
        raise UserError("refuse.not-winner", table=row.number)


async def _pending_for(ctx: Ctx, arg: str, button: bool) -> tuple[Tournament, TableRow, Report]:
    """The pending report a player means: the button's, the table named, or their own table's."""
    t = await ctx.tournament()
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.nothing-to-confirm")
    rows = [row for row in r.tables if ctx.actor in row.seats]
    if button:
        rep = await ctx.repo.report(int(arg))
        rows = [row for row in r.tables if rep is not None and row.id == rep.table_id]
    elif arg.strip():
        rows = [find_table(r, table_number(arg.split()[0]))]
    for row in rows:
        live = _live(row)
        if live is not None and live.status == "pending":
            if ctx.actor not in row.seats:
                raise UserError("refuse.not-at-table", table=row.number)
            return t, row, live
    raise UserError("refuse.nothing-to-confirm")


async def _confirm(ctx: Ctx, arg: str, button: bool) -> None:
    t, row, rep = await _pending_for(ctx, arg, button)
    if rep.reporter_id == ctx.actor:
        raise UserError("refuse.confirm-own", table=row.number)
    rep.status, rep.confirmed_by, row.status = "confirmed", ctx.actor, "confirmed"
    ctx.audit("confirm", t, {"table": row.number, "status": "pending"}, {"status": "confirmed"})
    ctx.toast = ctx.t("report.confirmed-short", table=row.number)
    ctx.reply(
        "report.confirmed",
        table=row.number,
        text=rep.text,
        scores=_score_lines(ctx, t, row, [Decimal(s) for s in rep.scores]),
    )
    r = latest_round(t)
    assert r is not None
    settle_round(ctx, t, r)


async def _dispute(ctx: Ctx, arg: str, button: bool) -> None:
    table_arg, reason = (arg, "") if button else _table_and_reason(arg)
    t, row, rep = await _pending_for(ctx, table_arg, button)
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
    t = await ctx.tournament()
    number, text = _split(args, "usage.fix")
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    row = find_table(r, number)
    outcome = game_of(t).parse(text, len(row.seats))
    old = _live(row)
    if old is not None:
        old.live, old.status = None, "replaced"
        await ctx.repo.session.flush()
    rep = Report(
        table_id=row.id,
        text=outcome.text,
        scores=[str(s) for s in outcome.scores],
        status="confirmed",
        live=True,
        reporter_id=ctx.actor,
    )
    row.reports.append(rep)
    old_state = {"table": number, "status": row.status, "text": old.text if old else None}
    row.status, row.forfeited = "confirmed", []
    ctx.audit("fix", t, old_state, {"text": rep.text, "status": "confirmed"})
    ctx.reply(
        "report.fixed",
        table=number,
        text=rep.text,
        scores=_score_lines(ctx, t, row, list(outcome.scores)),
    )
    settle_round(ctx, t, r)

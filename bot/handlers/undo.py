"""/undo: take back the organiser's last ruling, read from the audit log.

Each undoable action records, in its audit row, what it changed; undoing restores that
and writes an ``undo`` row naming the entry, so repeated /undo walks further back and
the history stays complete. Results can only be taken back while their round is the
latest one: a later draw was made from them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers import deadlines
from bot.handlers.common import settle_round
from bot.tournament import RUNNING_KNOBS, latest_round
from db.models import AuditEntry, Round, Tournament


def _reopen(t: Tournament, r: Round) -> None:
    """A table is unsettled again: its round (and the event) are not over after all."""
    if r is not latest_round(t):
        raise UserError("refuse.undo-too-late")
    if r.status == "closed":
        r.status = "open"
        t.status = "running"


async def _penalty(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    assert entry.new is not None
    await ctx.repo.remove_penalty(t, int(entry.new["penalty_id"]))


async def _forfeit(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    assert entry.old is not None
    row = await ctx.repo.table(int(entry.old["table_id"]))
    assert row is not None
    _reopen(t, row.round)
    row.status, row.forfeited = entry.old["status"], entry.old["forfeited"]


async def _dq(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    assert entry.old is not None
    player = next(p for p in t.players if p.user_id == entry.old["user"])
    player.status = entry.old["status"]
    if "table_id" in entry.old:
        row = await ctx.repo.table(int(entry.old["table_id"]))
        assert row is not None
        _reopen(t, row.round)
        row.forfeited = entry.old["forfeited"]


async def _withdraw(ctx: Ctx, report_id: int) -> None:
    """Take a report off its table (kept in the history as undone)."""
    rep = await ctx.repo.report(report_id)
    assert rep is not None
    rep.live, rep.status = None, "undone"
    await ctx.repo.session.flush()  # frees the table's one live slot


async def _report(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    """The organiser's own report: the table waits for a result again."""
    assert entry.new is not None
    row = await ctx.repo.table(int(entry.new["table_id"]))
    assert row is not None
    _reopen(t, row.round)
    await _withdraw(ctx, int(entry.new["report_id"]))
    row.status = "pending"


async def _fix(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    """A correction: the replaced report (if any) and the table's state come back."""
    assert entry.old is not None and entry.new is not None
    row = await ctx.repo.table(int(entry.old["table_id"]))
    assert row is not None
    _reopen(t, row.round)
    await _withdraw(ctx, int(entry.new["report_id"]))
    if entry.old["report_id"] is not None:
        previous = await ctx.repo.report(int(entry.old["report_id"]))
        assert previous is not None
        previous.live, previous.status = True, entry.old["report_status"]
    row.status, row.forfeited = entry.old["status"], entry.old["forfeited"]


async def _noshow(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    """The cut-off's ruling: the tables it forfeited wait for a result again (the
    check-in stays closed; whoever was wrongly ruled absent simply plays)."""
    assert entry.old is not None
    for table in entry.old["tables"]:
        row = await ctx.repo.table(int(table["table_id"]))
        assert row is not None
        _reopen(t, row.round)
        row.status, row.forfeited = table["status"], table["forfeited"]


async def _set(ctx: Ctx, t: Tournament, entry: AuditEntry) -> None:
    assert entry.old is not None
    if t.status != "signup" and (entry.new or {}).get("knob") not in RUNNING_KNOBS:
        raise UserError("refuse.undo-too-late")
    t.options = entry.old["options"]


REVERSE: dict[str, Callable[[Ctx, Tournament, AuditEntry], Awaitable[None]]] = {
    "penalty": _penalty,
    "forfeit": _forfeit,
    "dq": _dq,
    "noshow": _noshow,
    "set": _set,
    "report-by-organiser": _report,
    "fix": _fix,
    **deadlines.UNDO,
}


async def undo(ctx: Ctx, args: str) -> None:
    await ctx.require_organiser()
    t = await ctx.tournament(finished=True)
    entry = await ctx.repo.last_undoable(t.id, tuple(REVERSE))
    if entry is None:
        raise UserError("refuse.nothing-to-undo")
    await REVERSE[entry.action](ctx, t, entry)
    ctx.audit("undo", t, {"action": entry.action, "entry": entry.old}, {"undone": entry.id})
    ctx.reply("undo.done", what=ctx.t(f"undo.what.{entry.action}"))
    r = latest_round(t)
    if r is not None:
        settle_round(ctx, t, r)  # every table settled again: close it and say what follows

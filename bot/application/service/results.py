"""Results and rulings: reporting, confirming, disputing, fixing, forfeiting, penalising,
disqualifying, a passed deadline or check-in cut-off, and undoing, each coded once.

Every function changes the stored facts and writes its typed audit entry in the caller's
transaction; none of them speaks to the chat (the handlers do) or closes the round (the
handlers call ``settle_round`` after a change that may settle it).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal

from bot.application.context import Ctx
from bot.application.service import people
from bot.application.service.audit import (
    CheckinClosed,
    Confirmed,
    DeadlinePassed,
    Disputed,
    Disqualified,
    Dropped,
    Entry,
    Filed,
    Fixed,
    Forfeited,
    FormatSet,
    NoShows,
    OrganiserFiled,
    Penalised,
    RoundDeadline,
    RuleSet,
    SignupDeadline,
    Substituted,
    TableBefore,
    TableDeadline,
    Undone,
    read,
)
from bot.application.timers import tournament_timers
from bot.application.tournament import RUNNING_KNOBS, game_of, latest_round, policy
from bot.language.errors import UserError
from db.models import AuditEntry, Player, Report, Round, TableRow, Tournament
from db.status import (
    EventStatus,
    PenaltyKind,
    PlayerStatus,
    ReportStatus,
    RoundStatus,
    TableState,
)
from engine.formats.series import check_hands, check_report, sets_length, table_match
from engine.games.base import Outcome
from engine.numbers import plain


@dataclass(frozen=True)
class Checked:
    """A report the engine accepted: its outcome and what the standings add for it."""

    outcome: Outcome
    scores: tuple[Decimal, ...]
    level: bool = False  # a sudden-death match still level: the table plays on


def check(t: Tournament, r: Round, row: TableRow, text: str, whole: bool = False) -> Checked:
    """Parse a report for this table, check it fits the round's series (a two-player
    table: ``engine.formats.series``), and turn it into round scores. The one check every
    report, fix and button-flow summary goes through. At a level match waiting for its
    next game the report adds to the games reported before, unless ``whole`` (a /fix
    replaces them all)."""
    game = game_of(t)
    seats = len(row.seats)
    before = awaiting(row)
    if before is not None and not whole:
        text = f"{before.text}; {text}"
    outcome = game.parse(text, seats)
    check_hands(r.notes, outcome)
    if seats == 2:
        return Checked(
            outcome, game.round_scores(outcome, seats), check_report(r.notes, game, outcome)
        )
    match = table_match(r.notes, outcome)  # a match of N hands: the hands won
    if not sets_length(r.notes):  # the game's own end of a session: target, bust, hands
        game.check_session(outcome, seats)
    return Checked(outcome, game.round_scores(outcome, seats) if match is None else match)


def plays_on(t: Tournament, r: Round, row: TableRow, rep: Report) -> bool:
    """Whether a stored report leaves the table's match level: the table plays on."""
    if len(row.seats) != 2:
        return False
    game = game_of(t)
    return check_report(r.notes, game, game.parse(rep.text, 2))


def awaiting(row: TableRow) -> Report | None:
    """The confirmed report of a level match waiting for its next game (the table is
    still open), or None."""
    current = live(row)
    confirmed = current is not None and current.status == ReportStatus.CONFIRMED
    return current if confirmed and row.status == TableState.PENDING else None


def live(row: TableRow) -> Report | None:
    """The table's current report (at most one is live)."""
    return next((rep for rep in row.reports if rep.live), None)


def reportable(row: TableRow) -> None:
    """Refuse a table that already has a result or a report waiting (a level match's
    next game is welcome: it adds to the games before)."""
    current = live(row)
    if awaiting(row) is not None:
        return
    if row.status == TableState.CONFIRMED or (
        current is not None and current.status == ReportStatus.CONFIRMED
    ):
        raise UserError("refuse.already-confirmed", table=row.number)
    if row.status == TableState.FORFEIT:
        raise UserError("refuse.table-forfeited", table=row.number)
    if current is not None:
        raise UserError(f"refuse.already-{current.status}", table=row.number)


def stored(scores: tuple[Decimal, ...]) -> list[str]:
    """Scores as the database keeps them: ``3`` not ``3.0``, ``0.5`` not ``0.50``."""
    return [plain(s) for s in scores]


def accept(row: TableRow, rep: Report, by: int | None, level: bool = False) -> None:
    """The report counts: the table's result is settled by it, unless it leaves the
    match ``level`` (the table stays open for its next game)."""
    rep.status = ReportStatus.CONFIRMED
    row.status = TableState.PENDING if level else TableState.CONFIRMED
    if by is not None:
        rep.confirmed_by = by


async def _store(ctx: Ctx, row: TableRow, checked: Checked, status: ReportStatus) -> Report:
    """The table's new live report (the (table, live) unique key settles a race here)."""
    return await ctx.uow.repo.new_report(
        row,
        text=checked.outcome.text,
        scores=stored(checked.scores),
        status=status,
        reporter_id=ctx.caller.actor,
    )


async def file(
    ctx: Ctx, t: Tournament, r: Round, row: TableRow, checked: Checked, organiser: bool
) -> Report:
    """Store a checked report: confirmed at once from an organiser, else pending."""
    reportable(row)
    earlier = awaiting(row)
    if earlier is not None:  # the level match's next game: the new report holds them all
        earlier.live, earlier.status = None, ReportStatus.REPLACED
        await ctx.uow.repo.session.flush()
    status = ReportStatus.CONFIRMED if organiser else ReportStatus.PENDING
    rep = await _store(ctx, row, checked, status)
    kind = OrganiserFiled if organiser else Filed
    ctx.uow.record(t, kind(row.id, row.number, r.number, rep.id, rep.text, status))
    if organiser:
        accept(row, rep, None, checked.level)
    return rep


def confirm(ctx: Ctx, t: Tournament, r: Round, row: TableRow, rep: Report) -> None:
    """A tablemate confirms a pending report (never the one who made it)."""
    if rep.reporter_id == ctx.caller.actor:
        raise UserError("refuse.confirm-own", table=row.number)
    accept(row, rep, ctx.caller.actor, plays_on(t, r, row, rep))
    ctx.uow.record(t, Confirmed(row.number))


def dispute(ctx: Ctx, t: Tournament, row: TableRow, rep: Report, reason: str) -> None:
    rep.status, rep.reason = ReportStatus.DISPUTED, reason
    ctx.uow.record(t, Disputed(row.number, reason))


def reopen(t: Tournament, r: Round) -> None:
    """A table of ``r`` is unsettled again: the round and the event are not over after
    all. Only the latest round: a later draw was made from this one's results."""
    if r is not latest_round(t):
        raise UserError("refuse.undo-too-late")
    if r.status == RoundStatus.CLOSED:
        r.status, t.status = RoundStatus.OPEN, EventStatus.RUNNING


async def fix(ctx: Ctx, t: Tournament, r: Round, row: TableRow, checked: Checked) -> Report:
    """Replace the table's result (settled or not) with a checked one, at once."""
    if r.status == RoundStatus.CLOSED:  # settled already: the caller settles it again
        r.status, t.status = RoundStatus.OPEN, EventStatus.RUNNING
    old = live(row)
    before = TableBefore(row.id, row.status, list(row.forfeited))
    replaced = Fixed(row.number, before, None, None, None, 0, "")
    if old is not None:
        replaced = Fixed(row.number, before, old.id, old.status, old.text, 0, "")
        old.live, old.status = None, ReportStatus.REPLACED
        await ctx.uow.repo.session.flush()
    rep = await _store(ctx, row, checked, ReportStatus.CONFIRMED)
    row.status = TableState.PENDING if checked.level else TableState.CONFIRMED
    row.forfeited = []
    ctx.uow.record(t, replace(replaced, report_id=rep.id, text=rep.text))
    return rep


def forfeit(ctx: Ctx, t: Tournament, row: TableRow, losers: list[int]) -> None:
    """``losers`` forfeit this table's game; when all of them do, the table is forfeited."""
    before = TableBefore(row.id, row.status, list(row.forfeited))
    row.forfeited = sorted(set(row.forfeited) | set(losers))
    if set(row.forfeited) == set(row.seats):
        row.status = TableState.FORFEIT
    ctx.uow.record(t, Forfeited(row.number, before, row.status, row.forfeited))


def no_shows(ctx: Ctx, t: Tournament, r: Round) -> list[tuple[TableRow, list[int]]]:
    """The check-in cut-off: absent players of unreported tables forfeit them.

    Returns each ruled table and its absent players; audited as one ``noshow`` entry
    (``checkin-closed`` when everyone was there)."""
    ruled: list[tuple[TableRow, list[int]]] = []
    before: list[TableBefore] = []
    for row in r.tables:
        if row.status != TableState.PENDING or live(row) is not None:
            continue  # settled, or played and reported: they were there
        absent = [u for u in row.seats if u not in row.present and u not in row.forfeited]
        if not absent:
            continue
        before.append(TableBefore(row.id, row.status, list(row.forfeited)))
        row.status, row.forfeited = TableState.FORFEIT, sorted({*row.forfeited, *absent})
        ruled.append((row, absent))
    until = r.checkin_until.isoformat() if r.checkin_until is not None else ""
    absent_json = [{"table": row.number, "absent": absent} for row, absent in ruled]
    kind = NoShows if ruled else CheckinClosed
    ctx.uow.record(t, kind(r.number, until, before, absent_json))
    return ruled


def late(
    ctx: Ctx, t: Tournament, r: Round, due: list[TableRow], at: datetime
) -> tuple[list[TableRow], list[TableRow], list[TableRow]]:
    """A deadline passed for the ``due`` tables of ``r`` (不在截止日期前上报，整桌作废;
    docs/rules/deadlines.md#late): a pending, undisputed report stands as reported; an unreported
    table is forfeited as a whole, unless the ``late`` policy leaves it to the organiser. Returns
    the tables accepted, forfeited and still waiting (disputed, or the organiser's)."""
    accepted, forfeited, waiting = [], [], []
    for row in due:
        current = live(row)
        if current is not None and current.status == ReportStatus.PENDING:
            accept(row, current, None, plays_on(t, r, row, current))
            accepted.append(row)
        elif (current is not None and current.status == ReportStatus.DISPUTED) or (
            awaiting(row) is not None  # a level match: its games stand, the organiser rules
        ):
            waiting.append(row)
        elif policy(t, "late") == "forfeit":
            row.status, row.forfeited = TableState.FORFEIT, list(row.seats)
            forfeited.append(row)
        else:
            waiting.append(row)
    numbers = [[row.number for row in rows] for rows in (accepted, forfeited, waiting)]
    ctx.uow.record(t, DeadlinePassed(r.number, at.isoformat(), *numbers))
    return accepted, forfeited, waiting


async def penalise(
    ctx: Ctx, t: Tournament, player: Player, points: Decimal, kind: PenaltyKind, reason: str
) -> None:
    """A deduction (0 for a warning) in the latest round."""
    r = latest_round(t)
    row = ctx.uow.repo.add_penalty(
        t, player.user_id, r.number if r else 0, points, reason, ctx.caller.actor, kind
    )
    await ctx.uow.repo.session.flush()
    ctx.uow.record(t, Penalised(row.id, player.user_id, points, kind, reason))


def disqualify(ctx: Ctx, t: Tournament, player: Player, reason: str = "") -> TableRow | None:
    """Remove a player; their table still to be played is a walkover at once
    (``people.concede``), returned. Audited as ``dq`` (with the organiser's reason), so
    /undo can bring them back whether it came from /dq or the third rung of the ladder."""
    if player.status == PlayerStatus.REMOVED:
        raise UserError("refuse.already-removed", name=player.name)
    row = people.unplayed(t, player)
    before = people.concede(row, [player.user_id]) if row is not None else None
    ctx.uow.record(t, Disqualified(player.user_id, player.status, before, reason))
    player.status = PlayerStatus.REMOVED
    return row


def rule_set(ctx: Ctx, t: Tournament, options: dict[str, object], knob: str) -> None:
    """/set: new options (already validated) in place of the old."""
    old = t.options
    t.options = options
    ctx.uow.record(t, RuleSet(old, options, knob))


# --- undo ------------------------------------------------------------------------------------
async def _table(ctx: Ctx, table_id: int) -> TableRow:
    row = await ctx.uow.repo.table(table_id)
    assert row is not None
    return row


async def _withdraw(ctx: Ctx, report_id: int) -> None:
    """Take a report off its table (kept in the history as undone)."""
    rep = await ctx.uow.repo.report(report_id)
    assert rep is not None
    rep.live, rep.status = None, ReportStatus.UNDONE
    await ctx.uow.repo.session.flush()  # frees the table's one live slot


async def _undo_penalty(ctx: Ctx, t: Tournament, entry: Penalised) -> None:
    await ctx.uow.repo.remove_penalty(t, entry.penalty_id)


async def _undo_forfeit(ctx: Ctx, t: Tournament, entry: Forfeited) -> None:
    row = await _table(ctx, entry.before.table_id)
    reopen(t, row.round)
    row.status, row.forfeited = entry.before.status, entry.before.forfeited


async def _undo_dq(ctx: Ctx, t: Tournament, entry: Disqualified) -> None:
    player = next(p for p in t.players if p.user_id == entry.user)
    player.status = entry.status
    if entry.table is not None:
        row = await _table(ctx, entry.table.table_id)
        reopen(t, row.round)
        row.status, row.forfeited = entry.table.status, entry.table.forfeited


async def _undo_report(ctx: Ctx, t: Tournament, entry: Filed) -> None:
    """The organiser's own report: the table waits for a result again. A level match's
    next game taken back leaves the games before it standing, as confirmed."""
    row = await _table(ctx, entry.table_id)
    reopen(t, row.round)
    await _withdraw(ctx, entry.report_id)
    row.status = TableState.PENDING
    before = [
        rep
        for rep in row.reports
        if rep.status == ReportStatus.REPLACED and entry.text.startswith(f"{rep.text}; ")
    ]
    if before:
        earlier = max(before, key=lambda rep: len(rep.text))
        earlier.live, earlier.status = True, ReportStatus.CONFIRMED


async def _undo_fix(ctx: Ctx, t: Tournament, entry: Fixed) -> None:
    """A correction: the replaced report (if any) and the table's state come back."""
    row = await _table(ctx, entry.before.table_id)
    reopen(t, row.round)
    await _withdraw(ctx, entry.report_id)
    if entry.replaced_id is not None:
        previous = await ctx.uow.repo.report(entry.replaced_id)
        assert previous is not None
        previous.live, previous.status = True, entry.replaced_status or ReportStatus.CONFIRMED
    row.status, row.forfeited = entry.before.status, entry.before.forfeited


async def _undo_noshow(ctx: Ctx, t: Tournament, entry: NoShows) -> None:
    """The tables the cut-off forfeited wait for a result again (the check-in stays
    closed; whoever was wrongly ruled absent simply plays)."""
    for before in entry.tables:
        row = await _table(ctx, before.table_id)
        reopen(t, row.round)
        row.status, row.forfeited = before.status, before.forfeited


def _latest_open(t: Tournament, number: int) -> Round:
    """The round a deadline change was made in, if it is still the open one."""
    r = latest_round(t)
    if r is None or r.number != number or r.status != RoundStatus.OPEN:
        raise UserError("refuse.undo-too-late")
    return r


async def _undo_round_deadline(ctx: Ctx, t: Tournament, entry: RoundDeadline) -> None:
    r = _latest_open(t, entry.round)
    r.deadline, r.deadline_set_at = entry.before.deadline, entry.before.set_at
    ctx.uow.timers += tournament_timers(t)


async def _undo_table_deadline(ctx: Ctx, t: Tournament, entry: TableDeadline) -> None:
    row = next(x for x in _latest_open(t, entry.round).tables if x.id == entry.table_id)
    row.deadline, row.deadline_set_at = entry.before.deadline, entry.before.set_at
    ctx.uow.timers += tournament_timers(t)


async def _undo_signup_deadline(ctx: Ctx, t: Tournament, entry: SignupDeadline) -> None:
    if t.status != EventStatus.SIGNUP:
        raise UserError("refuse.undo-too-late")
    t.signup_until = entry.before
    ctx.uow.timers += tournament_timers(t)


def _restored(t: Tournament, before: dict[str, object]) -> dict[str, object]:
    """The options as before a rule change, but the links handed out since (score slips,
    the live page: ``paper``) stay valid: no rule change made them."""
    return {**before, **({"paper": t.options["paper"]} if "paper" in t.options else {})}


async def _undo_set(ctx: Ctx, t: Tournament, entry: RuleSet) -> None:
    if t.status != EventStatus.SIGNUP and entry.knob not in RUNNING_KNOBS:
        raise UserError("refuse.undo-too-late")
    t.options = _restored(t, entry.before)


async def _undo_format(ctx: Ctx, t: Tournament, entry: FormatSet) -> None:
    if t.status != EventStatus.SIGNUP:
        raise UserError("refuse.undo-too-late")
    t.format, t.options = entry.before_format, _restored(t, entry.before)


REVERSE: dict[type[Entry], Callable[..., Awaitable[None]]] = {
    Penalised: _undo_penalty,
    Forfeited: _undo_forfeit,
    Disqualified: _undo_dq,
    NoShows: _undo_noshow,
    RuleSet: _undo_set,
    FormatSet: _undo_format,
    OrganiserFiled: _undo_report,
    Fixed: _undo_fix,
    RoundDeadline: _undo_round_deadline,
    TableDeadline: _undo_table_deadline,
    SignupDeadline: _undo_signup_deadline,
    Dropped: people.undo_drop,
    Substituted: people.undo_sub,
}


async def undoable(ctx: Ctx, t: Tournament) -> AuditEntry | None:
    """The audit entry of the organiser's last ruling not yet undone (what /undo takes
    back), if any."""
    actions = tuple(kind.action.value for kind in REVERSE)
    return await ctx.uow.repo.last_undoable(t.id, actions)


async def undo(ctx: Ctx, t: Tournament) -> str:
    """Take back the organiser's last ruling not yet undone; return its action."""
    row = await undoable(ctx, t)
    if row is None:
        raise UserError("refuse.nothing-to-undo")
    entry = read(row)
    await REVERSE[type(entry)](ctx, t, entry)
    ctx.uow.record(t, Undone(row.id, row.action, row.old))
    return row.action

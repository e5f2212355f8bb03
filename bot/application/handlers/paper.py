"""``/print`` puts the current round on paper; a slip's QR code brings it back.

The PDF (``paper.slips``) has the seating sheet for the wall, a card per table and a
score slip per table: the game's blanks for each hand and a QR code that is a deep link
into the bot (``bot.application.slip_links``). Scanned, it opens the private chat with ``/start
<payload>``, and the bot shows that table's guided report form
(``bot.application.handlers.report_flow``) to a player of the table; anyone else is told whose
table it is, and a slip of a closed round says so.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import console, referee, report_flow, reports
from bot.application.handlers.common import deadline_text, find_table
from bot.application.service import results
from bot.application.slip_links import genuine, read_payload, slip_payload
from bot.application.timers import table_deadline
from bot.application.tournament import game_of, latest_round, names
from bot.language.errors import UserError
from bot.presentation.pictures import apart
from db.models import Round, TableRow, Tournament
from db.status import EventStatus, RoundStatus
from engine.games import Game
from engine.model import SEAT_LETTERS
from paper.slips import PrintedRound, PrintedTable, Words, print_round

TELEGRAM_LINK = "https://t.me/{bot}?start={payload}"


def seats_of(row: TableRow, who: Mapping[int, str]) -> list[tuple[str, str]]:
    return [(SEAT_LETTERS[i], who[u]) for i, u in enumerate(row.seats)]


def _columns(
    ctx: Ctx, t: Tournament, game: Game[object], row: TableRow, who: Mapping[int, str]
) -> list[str]:
    """A hand's blanks: a column per seat for what each seat reports, one per other step."""
    columns: list[str] = []
    for step in game.flow(len(row.seats)):
        if step.per_seat:
            columns += [f"{letter} {name}" for letter, name in seats_of(row, who)]
        else:
            columns.append(ctx.t(f"flow.{t.game}.{step.name}", seat=""))
    return columns


def _instructions(ctx: Ctx, t: Tournament, game: Game[object], seats: int) -> str:
    letters = f"{SEAT_LETTERS[0]}–{SEAT_LETTERS[seats - 1]}"
    prompts = [
        ctx.t(f"flow.{t.game}.{step.name}", seat=letters)
        for step in game.flow(seats)
        if step.per_seat
    ]
    if not prompts:  # the columns ask the questions themselves
        return ctx.t("paper.instructions-columns", example=game.report_example)
    return ctx.t("paper.instructions", prompts=" ".join(prompts), example=game.report_example)


def printed_round(ctx: Ctx, t: Tournament, r: Round) -> PrintedRound:
    """The round as plain data for the PDF, in the chat's language."""
    who, game = names(t), game_of(t)
    words = Words(
        seating=ctx.t("paper.seating", round=r.number),
        tables=ctx.t("paper.tables"),
        slip=ctx.t("paper.slip", round=r.number),
        scan=ctx.t("paper.scan"),
        hand=ctx.t("paper.hand"),
        total=ctx.t("paper.total"),
        signature=ctx.t("paper.signature"),
        deadline=ctx.t("paper.deadline", deadline=deadline_text(ctx, r.deadline, hint=False)),
    )
    tables = [
        PrintedTable(
            row.number,
            ctx.t("paper.table", table=row.number),
            seats_of(row, who),
            _columns(ctx, t, game, row, who),
            TELEGRAM_LINK.format(
                bot=ctx.bot_username, payload=slip_payload(t, r.number, row.number)
            ),
        )
        for row in r.tables
    ]
    seats = max((len(row.seats) for row in r.tables), default=1)
    return PrintedRound(t.title, r.number, words, tables, _instructions(ctx, t, game, seats))


async def print_cmd(ctx: Ctx, args: str) -> None:
    """``/print``: the PDF of the current round (drawn or open)."""
    event = await Event.load(ctx)
    t = event.t
    r = latest_round(t)
    if r is None or r.status == RoundStatus.CLOSED or not r.tables:
        raise UserError("paper.no-round")
    event.print_round(r)
    from charts.fonts import NoCJKFont, find_cjk_font  # matplotlib: not at the bot's start

    try:
        font = find_cjk_font()
    except NoCJKFont:
        raise UserError("paper.no-font") from None
    pdf = await apart(print_round, printed_round(ctx, t, r), font)
    caption = ctx.t("paper.caption", round=r.number, count=len(r.tables))
    ctx.out.document(pdf, f"round-{r.number}.pdf", caption)


async def start(ctx: Ctx, args: str) -> bool:
    """``/start <slip>`` in the private chat: that table's form. ``False`` when ``args``
    is no slip (a plain ``/start``), which the caller answers with help."""
    ref = read_payload(args.strip()) if ctx.caller.inc.chat_type == "private" else None
    if ref is None:
        return False
    t = await ctx.uow.repo.tournament(ref.tournament)
    if t is None or not genuine(t, ref):
        raise UserError("paper.slip-unknown")
    ctx.chat = await ctx.uow.repo.chat(t.chat_id)  # the form is the event's: its language
    ctx.t = ctx.catalogue[ctx.chat.lang or ctx.settings.default_lang]
    r = next((x for x in t.rounds if x.number == ref.round), None)
    if r is None or r.status == RoundStatus.CLOSED or t.status != EventStatus.RUNNING:
        raise UserError("paper.slip-closed", title=t.title, round=ref.round)
    if r.status != RoundStatus.OPEN:
        raise UserError("paper.slip-not-open", title=t.title, round=r.number)
    row = find_table(r, ref.table)
    who = names(t)
    if ctx.caller.actor not in row.seats:
        players = " · ".join(f"{letter} {name}" for letter, name in seats_of(row, who))
        raise UserError(
            "paper.slip-not-yours", title=t.title, round=r.number, table=row.number,
            players=players,
        )  # fmt: skip
    results.reportable(row)
    reports.check_reporter(ctx, t, row, None, who)
    state = report_flow.FlowState(ctx.caller.actor, t.id, r.number, row.number)
    text, buttons = report_flow.render(ctx, t, r, state, [row])
    when = table_deadline(r, row)
    heading = ctx.t("paper.form-heading", title=t.title, round=r.number)
    if when is not None:
        heading += "\n" + ctx.t("paper.deadline", deadline=deadline_text(ctx, when))
    referee_row = referee.referee_row(ctx, t, r, row.number)
    ctx.out.say(f"{heading}\n{text}", [*buttons, *referee_row, *console.form_button(ctx, args)])
    return True

"""Guided ``/report``: a bare ``/report`` answers with buttons instead of a usage line.

The player taps the table (organisers may pick any table still open), then the game's
flow steps (``Game.flow``: seats, counts, bids, result…), then sees the checked report
with Submit / Back / Cancel. Submit goes through
:func:`bot.application.handlers.reports.file_report`,
the same code as a typed report, so both are checked and stored alike.

Nothing is stored while the player taps: the whole state rides in each button's
callback data (Telegram allows 64 bytes), and every press edits the same message. A
button's data is the state *after* that tap, so Back is just the state with one tap
fewer and a repeated press cannot double-count.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.application.base36 import b36
from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers import referee, reports
from bot.application.handlers.common import find_table, my_table, open_round
from bot.application.service import results
from bot.application.tournament import game_of, names
from bot.application.types import Buttons
from bot.language.errors import UserError, refusal
from db.models import Round, TableRow, Tournament
from db.status import EventStatus
from engine.errors import EngineError
from engine.games import Game, Step
from engine.model import SEAT_LETTERS

PREFIX = "rf"
MAX_B36 = 11  # digits of an id in base 36: 36**11 is past 2**52, the largest Telegram user id
SYMBOLS = string.digits + string.ascii_uppercase + string.ascii_lowercase  # choice indexes
DONE = "."  # closes a step that takes zero or more taps
CALLBACK_LIMIT = 64  # bytes Telegram keeps of callback data
SHOW, SUBMIT, CANCEL = "n", "s", "x"
NAME_WIDTH = 8  # characters of a player's name on a seat button


@dataclass(frozen=True)
class FlowState:
    """Who started the flow, for which tournament, round and table, and the taps so far.

    ``taps`` holds one symbol per tap: the tapped choice's index in its step, or
    :data:`DONE` to close a step that takes zero or more taps.
    """

    user: int
    tournament: int
    round: int
    table: int | None = None
    taps: str = ""

    def encode(self, action: str) -> str:
        table = "" if self.table is None else b36(self.table)
        fields = (b36(self.user), b36(self.tournament), b36(self.round), table, self.taps)
        return f"{PREFIX}:{action}" + ".".join(fields)

    @classmethod
    def decode(cls, arg: str) -> tuple[str, FlowState]:
        """The action and state of a pressed button; anything malformed is stale."""
        parts = arg[1:].split(".", 4)
        if not arg or arg[0] not in (SHOW, SUBMIT, CANCEL) or len(parts) != 5:
            raise UserError("report-flow.stale")
        user, tournament, rnd, table, taps = parts
        if any(len(part) > MAX_B36 for part in (user, tournament, rnd, table)):
            raise UserError("report-flow.stale")  # no row or user has an id that long
        try:
            state = cls(
                int(user, 36), int(tournament, 36), int(rnd, 36), int(table, 36) if table else None
            )
        except ValueError:
            raise UserError("report-flow.stale") from None
        if any(c not in SYMBOLS and c != DONE for c in taps):
            raise UserError("report-flow.stale")
        return arg[0], replace(state, taps=taps)


@dataclass(frozen=True)
class Progress:
    """The taps read against the game's steps: answers so far and what is asked next."""

    answers: Mapping[str, Sequence[str]]
    step: Step | None  # the step waiting for a tap; None once every step is answered
    seat: int = 0  # the seat a per-seat step asks about


def replay(steps: Sequence[Step], taps: str, seats: int) -> Progress:
    """Read ``taps`` step by step; taps that fit no step mean the buttons are stale."""
    answers: dict[str, list[str]] = {}
    taps_left = list(taps)

    def take(step: Step) -> str:
        symbol = taps_left.pop(0)
        index = SYMBOLS.find(symbol)
        if not 0 <= index < len(step.choices):
            raise UserError("report-flow.stale")
        return step.choices[index]

    for step in steps:
        values = answers.setdefault(step.name, [])
        if step.per_seat:
            while len(values) < seats:
                if not taps_left:
                    return Progress(answers, step, len(values))
                values.append(take(step))
        elif step.multi:
            while not taps_left or taps_left[0] != DONE:
                if not taps_left:
                    return Progress(answers, step)
                value = take(step)
                if value in values:
                    raise UserError("report-flow.stale")
                values.append(value)
            taps_left.pop(0)
        else:
            if not taps_left:
                return Progress(answers, step)
            values.append(take(step))
    if taps_left:
        raise UserError("report-flow.stale")
    return Progress(answers, None)


# --- entry points --------------------------------------------------------------------------
async def report(ctx: Ctx, args: str) -> None:
    """``/report`` with a result is typed; without arguments it starts the button flow."""
    if args.strip():
        await reports.report(ctx, args)
    else:
        await start(ctx)


async def start(ctx: Ctx) -> None:
    """Open the flow on the caller's table, or let an organiser pick among open tables."""
    t = await ctx.uow.tournament()
    r = open_round(t)
    rows = await _tables_for(ctx, t, r)
    table = rows[0].number if len(rows) == 1 else None
    state = FlowState(ctx.caller.actor, t.id, r.number, table)
    text, buttons = render(ctx, t, r, state, rows)
    ctx.out.say(text, buttons)


async def press(ctx: Ctx, arg: str) -> None:
    """One tap on a flow button: only its starter may press; the message is edited."""
    action, state = FlowState.decode(arg)
    if state.user != ctx.caller.actor:
        raise UserError("report-flow.not-yours")
    if action == CANCEL:
        _edit(ctx, ctx.t("report-flow.cancelled"), None)
        return
    event = await _event_of(ctx, state)
    t = event.t
    r = open_round(t)
    if t.id != state.tournament or r.number != state.round:
        raise UserError("report-flow.stale")
    if action == SUBMIT:
        if state.table is None:
            raise UserError("report-flow.stale")
        row = find_table(r, state.table)
        game = game_of(t)
        progress = replay(game.flow(len(row.seats)), state.taps, len(row.seats))
        if progress.step is not None:
            raise UserError("report-flow.stale")
        text = game.compose(progress.answers, len(row.seats))
        if ctx.caller.inc.chat_type == "private":
            await _submit_from_private(ctx, event, state.table, text)
        else:
            await reports.file_report(ctx, event, state.table, text, edit=ctx.caller.inc.message_id)
        return
    rows = await _tables_for(ctx, t, r)
    text, buttons = render(ctx, t, r, state, rows)
    if ctx.caller.inc.chat_type == "private" and state.table is not None:  # from a score slip
        buttons = [*buttons, *referee.referee_row(ctx, t, r, state.table)]
    _edit(ctx, text, buttons)


async def _event_of(ctx: Ctx, state: FlowState) -> Event:
    """The group's event; in a private chat (a form opened from a score slip's QR code)
    the event the form was opened for, spoken in its group's language."""
    if ctx.caller.inc.chat_type != "private":
        return await Event.load(ctx)
    t = await ctx.uow.repo.tournament(state.tournament)
    if t is None or t.status != EventStatus.RUNNING:
        raise UserError("report-flow.stale")
    ctx.chat = await ctx.uow.repo.chat(t.chat_id)  # its language and zone
    ctx.t = ctx.catalogue[ctx.chat.lang or ctx.settings.default_lang]
    return Event.of(ctx, t)


async def _submit_from_private(ctx: Ctx, event: Event, table: int, text: str) -> None:
    """A form filled in privately is filed as if typed in the group: the report, its
    Confirm and Dispute buttons and its audit row belong to the group, where the table's
    other players confirm it. The private form then says where it went."""
    private, t = ctx.caller.inc, event.t
    ctx.caller.inc = replace(
        private, chat_id=t.chat_id, chat_type="supergroup", thread_id=t.thread_id or None
    )
    try:
        await reports.file_report(ctx, event, table, text)
    finally:
        ctx.caller.inc = private
    _edit(ctx, ctx.t("report-flow.sent-to-group", table=table, text=text), None)


async def _tables_for(ctx: Ctx, t: Tournament, r: Round) -> list[TableRow]:
    """Tables the caller may report now: an organiser's open tables, else their own."""
    if await ctx.caller.is_organiser():
        rows = [row for row in r.tables if _open(row)]
        if not rows:
            raise UserError("report-flow.nothing-to-report", round=r.number)
        return rows
    row = my_table(r, ctx.caller.actor)
    if row is None:
        raise UserError("report-flow.no-table", round=r.number)
    results.reportable(row)
    reports.check_reporter(ctx, t, row, None, names(t))
    return [row]


def _open(row: TableRow) -> bool:
    try:
        results.reportable(row)
    except UserError:
        return False
    return True


def _edit(ctx: Ctx, text: str, buttons: Buttons | None) -> None:
    """Every step edits the pressed message instead of posting a new one."""
    reports.announce(ctx, ctx.caller.inc.message_id, text, buttons)


# --- drawing one step ----------------------------------------------------------------------
def render(
    ctx: Ctx, t: Tournament, r: Round, state: FlowState, rows: list[TableRow]
) -> tuple[str, Buttons]:
    """The flow message for ``state``: table choice, the next step, or the summary."""
    cancel = (ctx.t("report-flow.button.cancel"), state.encode(CANCEL))
    if state.table is None:
        picks = [(str(row.number), replace(state, table=row.number).encode(SHOW)) for row in rows]
        return ctx.t("report-flow.pick-table", round=r.number), [*_rows(picks), [cancel]]
    row = find_table(r, state.table)
    results.reportable(row)
    game = game_of(t)
    seats = len(row.seats)
    progress = replay(game.flow(seats), state.taps, seats)
    who = names(t)
    header = ctx.t(
        "report-flow.header",
        table=row.number,
        game=ctx.t(f"game.{t.game}"),
        seats=" · ".join(f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats)),
    )
    controls = [cancel]
    if state.taps or len(rows) > 1:
        back = replace(state, taps=state.taps[:-1]) if state.taps else replace(state, table=None)
        controls.insert(0, (ctx.t("report-flow.button.back"), back.encode(SHOW)))
    if progress.step is None:
        return _summary(ctx, t, r, row, game, progress, state, header, controls)
    step = progress.step
    so_far = game.compose(progress.answers, seats)
    prompt = ctx.t(f"flow.{t.game}.{step.name}", seat=SEAT_LETTERS[progress.seat])
    text = "\n".join(
        [header, *([ctx.t("report-flow.so-far", text=so_far)] if so_far else []), prompt]
    )
    taken = progress.answers.get(step.name, ()) if step.multi else ()
    choices = [
        (_label(ctx, value, row, who), replace(state, taps=state.taps + SYMBOLS[i]).encode(SHOW))
        for i, value in enumerate(step.choices)
        if value not in taken
    ]
    keyboard = _rows([c for c in choices if len(c[1].encode()) <= CALLBACK_LIMIT])
    if step.multi:
        key = "flow.done" if taken else "flow.skip"
        keyboard.append([(ctx.t(key), replace(state, taps=state.taps + DONE).encode(SHOW))])
    return text, [*keyboard, controls]


def _summary(
    ctx: Ctx,
    t: Tournament,
    r: Round,
    row: TableRow,
    game: Game[Any],
    progress: Progress,
    state: FlowState,
    header: str,
    controls: list[tuple[str, str]],
) -> tuple[str, Buttons]:
    """The composed report checked by the engine: Submit, or the reason it cannot be."""
    seats = len(row.seats)
    text = game.compose(progress.answers, seats)
    try:
        checked = results.check(t, r, row, text)
    except EngineError as exc:
        reason = refusal(ctx.t, exc)
        return f"{header}\n" + ctx.t("report-flow.invalid", text=text, reason=reason), [controls]
    lines = reports.score_lines(ctx, names(t), row, list(checked.scores))
    body = ctx.t("report-flow.summary", text=checked.outcome.text, scores=lines)
    submit = (ctx.t("report-flow.button.submit"), state.encode(SUBMIT))
    return f"{header}\n{body}", [[submit], controls]


def _label(ctx: Ctx, value: str, row: TableRow, who: Mapping[int, str]) -> str:
    """A seat letter shows its player; a word shows in the chat's language."""
    seat = SEAT_LETTERS.find(value) if len(value) == 1 else -1
    if 0 <= seat < len(row.seats):
        return f"{value} {who[row.seats[seat]][:NAME_WIDTH]}"
    return choice_label(ctx, value)


def choice_label(ctx: Ctx, value: str) -> str:
    """A step's choice in the chat's language (``choice.win`` 胜); a count as it is."""
    key = f"choice.{value}"
    return ctx.t(key) if ctx.t.has(key) else value


def _rows(buttons: list[tuple[str, str]]) -> Buttons:
    """Short labels (counts) seven to a row, seat names two, words four."""
    longest = max((len(label) for label, _ in buttons), default=0)
    width = 7 if longest <= 3 else 2 if any(" " in label for label, _ in buttons) else 4
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]

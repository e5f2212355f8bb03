"""What the pictures show: stored rows and the engine's decisions turned into chart data.

One picture answers one question, in the shape the format asks for:

* team and pair events rank the teams, each with its members under it;
* formats that rank by the stage reached (``reached`` in the tie-break chain: table
  knockout, single elimination, pairs) show that stage next to the points, so a 116-point
  champion above a 151-point runner-up reads right;
* group events show a table per group (played, won, drawn, lost, points) while the
  groups play, each place in its group as the text says it (shared while undecided);
  after the groups, the one ranking the text shows, by stage reached;
* the rest (Swiss, stages) rank by points with the criterion that decided each place.

The formats are asked what they have (``has_team_table``, ``sits_in_pairs``,
``has_group_tables``, their tie-break chains); no format key is named here. Rendering
lives in ``charts/`` and is pure (data in, PNG bytes out). :func:`drawn` turns a failure
to draw (no CJK font, say) into ``None``, so the caller sends the text ranking instead.

Where pictures are drawn: in a drawing process of its own (:func:`draw`, awaited by the
handlers), which runs the jobs of ``charts.jobs`` one at a time, in order. A thread was
not enough: drawing holds the GIL, and another chat's reply waited behind the first
/standings picture (and matplotlib's text layout is not thread-safe anyway). This
process never imports matplotlib. A use-case that is not a coroutine (a settled round's
live standings and podium) queues its message and has it drawn once it is done
(:func:`draw_later`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from datetime import datetime
from decimal import Decimal
from multiprocessing import get_context
from typing import Any, TypeVar

from bot.application.context import TELEGRAM_CAPTION_LIMIT, Ctx
from bot.application.tournament import format_of, names, state_of, team_names
from bot.application.types import Outgoing
from bot.language.deadlines import format_deadline
from bot.language.i18n import show
from bot.presentation.board import board_of, out_of_it, place_text, stage_words
from charts.data import PODIUM, ROWS_PER_PAGE, Place, Podium, Row, Sheet
from charts.jobs import drawing_process
from db.models import Round, Tournament
from db.status import EventStatus, RoundStatus, TableState
from engine.board import Board, Entry, Status, board
from engine.model import SEAT_LETTERS, TournamentState
from engine.standings import totals

log = logging.getLogger(__name__)
WINDS = "东南西北"
T = TypeVar("T")

_drawer: Executor | None = None  # a process (tests may give a thread)


async def draw(fn: Callable[..., T], *args: Any) -> T:
    """Run a drawing job (``charts.jobs``) in the drawing process and wait for it without
    blocking. The process is started with the first picture; if it died (killed for
    memory, say), the next picture starts another."""
    global _drawer
    if _drawer is None:
        _drawer = ProcessPoolExecutor(
            max_workers=1,
            mp_context=get_context("spawn"),
            initializer=drawing_process,
            initargs=(os.getpid(),),
        )
    drawer = _drawer
    try:
        return await asyncio.get_running_loop().run_in_executor(drawer, fn, *args)
    except BrokenProcessPool:
        if _drawer is drawer:
            _drawer = None
        raise


def close_drawer() -> None:
    """Stop the drawing process (the bot is stopping)."""
    global _drawer
    if _drawer is not None:
        _drawer.shutdown(wait=False, cancel_futures=True)
        _drawer = None


async def drawn(fn: Callable[..., Any], *args: Any) -> Any | None:
    """:func:`draw`, or ``None`` (logged) when it cannot draw, e.g. no CJK font."""
    try:
        return await draw(fn, *args)
    except Exception:
        log.exception("could not draw %s", getattr(fn, "__name__", fn))
        return None


async def apart(fn: Callable[..., T], *args: Any) -> T:
    """Pure work too long for the event loop (ranking a whole event: a tenth of a second
    at 2,000 players, every other chat's reply waiting behind it), run in the drawing
    process like a picture; here, on the loop, if that process cannot take it."""
    try:
        return await draw(fn, *args)
    except Exception:
        log.warning("could not run %s apart; running it here", fn.__name__, exc_info=True)
        return fn(*args)


async def off_loop(fn: Callable[..., T], *args: Any) -> T:
    """Work over a whole loaded event that reads its rows (so it cannot go to the drawing
    process): building the engine's state, a standings sheet of 2,000 players, tens of
    milliseconds each. In a worker thread the interpreter switches away from it every
    few milliseconds, so other chats' replies go meanwhile; on the loop they waited for
    all of it. Safe: the use-case awaits it, and nothing else touches its session's
    rows (nothing is loaded lazily: a whole event is loaded first)."""
    return await asyncio.to_thread(fn, *args)


def draw_later(
    ctx: Ctx,
    out: Outgoing,
    kind: str,
    filename: str,
    fn: Callable[[Any], bytes],
    data: Callable[[], Any],
    then: Callable[[], None] | None = None,
) -> None:
    """Make ``out``, queued in its place, the picture ``fn(data())`` once drawn: for
    code that is not a coroutine (a confirmed result's live standings, a finished
    event's podium). It is drawn when the use-case is done (``data`` is read then, so the
    picture shows where the use-case left things), in the drawing process, while the
    event loop serves the other chats. Drawn, ``out`` becomes ``kind`` (``photo``,
    ``edit_media``) with the picture as ``filename``, and ``then`` runs. Not drawn, it
    goes as it was queued (a text, a caption edit), or not at all if it was queued as a
    photo to be."""

    async def work() -> None:
        png = await drawn(fn, data())
        if png is None:
            if out.kind == "photo":
                ctx.out.outgoing.remove(out)
            return
        out.kind, out.file, out.filename = kind, png, filename
        if then is not None:
            then()

    ctx.uow.defer(work)


def send_pictures(ctx: Ctx, pngs: list[bytes], caption: str, name: str) -> None:
    """The pictures, the caption under the first; the caption alone when none could be
    drawn (the text ranking beats an apology). A caption over Telegram's limit goes as
    text after the pictures, whole, so nobody reads half a line."""
    if not pngs:
        ctx.out.say(caption)
        return
    fits = len(caption) <= TELEGRAM_CAPTION_LIMIT
    for i, png in enumerate(pngs):
        ctx.out.photo(png, caption if i == 0 and fits else "", f"{name}-{i + 1}.png")
    if not fits:
        ctx.out.say(caption)


def post_with_picture(ctx: Ctx, pngs: list[bytes] | None, text: str, pages: str) -> None:
    """An announcement with its picture: one photo captioned with the text when it fits
    a caption (one message in a busy group), else the (paged) text and the picture."""
    if pngs and len(text) <= TELEGRAM_CAPTION_LIMIT:
        send_pictures(ctx, pngs, text, pages.split(".")[0])
        return
    ctx.out.say(text, pages=pages)
    for i, png in enumerate(pngs or []):
        ctx.out.photo(png, "", f"{pages}-{i + 1}.png")


def post_with_picture_later(
    ctx: Ctx, text: str, pages: str, fn: Callable[[Any], bytes], data: Callable[[], Any]
) -> None:
    """:func:`post_with_picture` for code that is not a coroutine: the picture
    ``fn(data())`` is drawn later (:func:`draw_later`), the text goes alone if it cannot
    be."""
    fits = len(text) <= TELEGRAM_CAPTION_LIMIT
    ctx.out.say(text, pages=None if fits else pages)
    if not fits:
        ctx.out.photo(b"", "", f"{pages}-1.png")
    draw_later(ctx, ctx.out.outgoing[-1], "photo", f"{pages}-1.png", fn, data)


def _mark(rank: int, alive: bool, finished: bool) -> str:
    if finished and rank <= len(PODIUM):
        return PODIUM[rank - 1]
    return "" if alive else "out"


def standings_sheet(
    ctx: Ctx,
    t: Tournament,
    b: Board | None = None,
    state: TournamentState | None = None,
) -> Sheet:
    """The standings picture's data, shaped by the format (see the module docstring);
    ``b`` and ``state``: the board of ``t`` (``engine.board``, what the text ranking
    says too) and its state, when the caller has them already (at 2,000 players ranking
    takes a tenth of a second)."""
    fmt = format_of(t)
    state = state_of(t) if state is None else state
    finished = t.status == EventStatus.FINISHED
    who = names(t)
    b = board(fmt, state, finished) if b is None else b
    played = sum(1 for r in t.rounds if r.status == RoundStatus.CLOSED)
    subtitle = ctx.t(
        "pictures.subtitle",
        game=ctx.t(f"game.{t.game}"),
        format=ctx.t(f"format.{t.format}"),
        round=played,
    )
    title = ctx.t("pictures.standings-title", title=t.title)
    if fmt.has_team_table:
        ind = totals(fmt.disciplined(state))
        titles = team_titles(ctx, t, fmt.groups(state))
        rows = tuple(
            Row(
                (str(s.rank), titles[s.team], show(s.best), show(s.points)),
                _mark(s.rank, True, finished),
                " · ".join(f"{who.get(p, p)} {show(ind.get(p, Decimal(0)))}" for p in s.members),
            )
            for s in fmt.team_standings(state)
        )
        return Sheet(
            title,
            subtitle,
            (
                ctx.t("pictures.rank"),
                ctx.t("pictures.team-col"),
                ctx.t("pictures.best"),
                ctx.t("pictures.points"),
            ),
            (1, 5, 2, 2),
            "clrr",
            rows,
            _chain(ctx, fmt.team_tiebreaks),
        )
    if fmt.sits_in_pairs:  # pairs in groups too: a line per pair (the text lists the groups)
        return _pairs_sheet(ctx, t, b, title, subtitle, state)
    if fmt.has_group_tables and (b.by_group or not state.rounds):
        return _groups_sheet(ctx, t, b, title, subtitle, state)
    if "reached" in fmt.tiebreaks:
        rows = tuple(
            Row(
                (
                    place_text(ctx, e),
                    who.get(e.player, str(e.player)),
                    _stage_cell(ctx, e),
                    # the figure that ranked the line inside its stage, never a total that
                    # could contradict the place (a 1st on 116 above a 2nd on 151); none
                    # where the text shows none (a table not reported: a 0 would read as one)
                    show(e.figure) if e.figure is not None else "—",
                ),
                _mark(e.place, not out_of_it(e), finished),
            )
            for e in b.entries
        )
        return Sheet(
            title,
            subtitle,
            (
                ctx.t("pictures.rank"),
                ctx.t("pictures.player"),
                ctx.t("pictures.reached"),
                ctx.t("pictures.figure"),
            ),
            (1, 4.2, 3.2, 1.6),
            "clrr",
            rows,
            _chain(ctx, fmt.tiebreaks),
            (("out", ctx.t("pictures.out")),) if not finished else (),
        )
    rows = tuple(
        Row(
            (
                place_text(ctx, e),
                who.get(e.player, str(e.player)),
                show(e.points),
                _decided(ctx, e),
            ),
            _mark(e.place, not out_of_it(e), finished),
        )
        for e in b.entries
    )
    return Sheet(
        title,
        subtitle,
        (
            ctx.t("pictures.rank"),
            ctx.t("pictures.player"),
            ctx.t("pictures.points"),
            ctx.t("pictures.decided-by"),
        ),
        (1, 4.6, 1.6, 2.8),
        "clrl",
        rows,
        _chain(ctx, fmt.tiebreaks),
    )


def _stage_cell(ctx: Ctx, e: Entry) -> str:
    """How far the line got: what the text ranking says of it (the champion titled)."""
    if e.status is Status.CHAMPION:
        return ctx.t("pictures.champion")
    return stage_words(ctx, e) or "—"


def _decided(ctx: Ctx, e: Entry) -> str:
    labels = [ctx.t(f"tiebreak.{c}") for c in e.decided if ctx.t.has(f"tiebreak.{c}")]
    return " / ".join(labels)


def _chain(ctx: Ctx, codes: tuple[str, ...]) -> str:
    """The tie-break chain in words, for the footer."""
    words = [ctx.t(f"tiebreak.{c}") for c in codes if c != "removed" and ctx.t.has(f"tiebreak.{c}")]
    return ctx.t("pictures.chain", chain=" → ".join(words))


def _pairs_sheet(
    ctx: Ctx, t: Tournament, b: Board, title: str, subtitle: str, state: TournamentState
) -> Sheet:
    """Pairs side by side: partners share every criterion, so one line per pair."""
    fmt: Any = format_of(t)
    unit_of: dict[int, int] = fmt.groups(state)
    members: dict[int, list[int]] = {}
    for p, label in unit_of.items():
        members.setdefault(label, []).append(p)
    who = names(t)
    seen: set[int] = set()
    rows: list[Row] = []
    for e in b.entries:
        unit = unit_of.get(e.player)
        if unit is None or unit in seen:
            continue
        seen.add(unit)
        pair = members[unit]
        points = sum((x.points for x in b.entries if x.player in pair), Decimal(0))
        rows.append(
            Row(
                (
                    place_text(ctx, e),
                    ctx.t("pictures.pair", n=unit),
                    _stage_cell(ctx, e),
                    show(points),
                ),
                _mark(e.place, not out_of_it(e), b.over),
                " & ".join(who.get(p, str(p)) for p in pair),
            )
        )
    return Sheet(
        title,
        subtitle,
        (
            ctx.t("pictures.rank"),
            ctx.t("pictures.pair-col"),
            ctx.t("pictures.reached"),
            ctx.t("pictures.points"),
        ),
        (1, 4.6, 2.4, 2),
        "clrr",
        tuple(rows),
        _chain(ctx, fmt.tiebreaks),
    )


def _groups_sheet(
    ctx: Ctx, t: Tournament, b: Board, title: str, subtitle: str, state: TournamentState
) -> Sheet:
    """A table per group: played, won, drawn, lost, points; each line's place in its
    group as the board (and so the text) has it, shared while undecided."""
    fmt: Any = format_of(t)
    w = fmt.walk(state)
    who = names(t)
    group_rounds = t.rounds[: len(w.group_rounds)]
    record: dict[int, list[int]] = {}  # player -> [played, won, drawn, lost]
    for r in group_rounds:
        for row in r.tables:
            live = next((rep for rep in row.reports if rep.live), None)
            if row.status == TableState.FORFEIT:
                for p in row.seats:
                    line = record.setdefault(p, [0, 0, 0, 0])
                    line[0] += 1
                    line[3 if p in row.forfeited else 1] += 1
                continue
            if row.status != TableState.CONFIRMED or live is None:
                continue
            scores = [Decimal(s) for s in live.scores]
            best = max(scores)
            tops = sum(1 for s in scores if s == best)
            for p, s in zip(row.seats, scores, strict=True):
                line = record.setdefault(p, [0, 0, 0, 0])
                line[0] += 1
                line[1 if s == best and tops == 1 else 2 if s == best else 3] += 1
    shown = {e.player: place_text(ctx, e) for e in b.entries} if b.by_group else {}
    rows: list[Row] = []
    for i, members in enumerate(w.groups):
        rows.append(Row((ctx.t("pictures.group", letter="ABCDEFGH"[i]),), "section"))
        listed = [e.player for e in b.entries if e.player in members] if b.by_group else []
        for p in listed or sorted(members, key=lambda q: w.place.get(q, 99)):
            played, won, drawn, lost = record.get(p, [0, 0, 0, 0])
            rows.append(
                Row(
                    (
                        shown.get(p, ""),
                        who.get(p, str(p)),
                        str(played),
                        str(won),
                        str(drawn),
                        str(lost),
                        show(w.record[p].points),
                    ),
                )
            )
    return Sheet(
        title,
        subtitle,
        (
            ctx.t("pictures.rank"),
            ctx.t("pictures.player"),
            ctx.t("pictures.p"),
            ctx.t("pictures.w"),
            ctx.t("pictures.d"),
            ctx.t("pictures.l"),
            ctx.t("pictures.points"),
        ),
        (1, 4, 1, 1, 1, 1, 1.6),
        "clrrrrr",
        tuple(rows),
        _chain(ctx, fmt.tiebreaks),
    )


def first_page(ctx: Ctx, sheet: Sheet) -> Sheet:
    """One picture per question: a ranking longer than a page shows its top page and
    says how many more the text ranking under it lists (256 players are not 8 photos)."""
    if len(sheet.rows) <= ROWS_PER_PAGE:
        return sheet
    more = ctx.t("standings.chart-more", n=len(sheet.rows) - ROWS_PER_PAGE)
    footer = " · ".join(part for part in (sheet.footer, more) if part)
    return replace(sheet, rows=sheet.rows[:ROWS_PER_PAGE], footer=footer)


def seating_sheet(ctx: Ctx, t: Tournament, r: Round) -> Sheet:
    """A round's tables at a glance: one line per table, a column per seat (A 东 …)."""
    who = names(t)
    seats = max((len(row.seats) for row in r.tables), default=2)
    winds = seats == 4
    columns = tuple(
        f"{SEAT_LETTERS[i]} {WINDS[i]}" if winds else SEAT_LETTERS[i] for i in range(seats)
    )
    rows = tuple(
        Row(
            (
                str(row.number),
                *(who.get(u, str(u)) for u in row.seats),
                *("" for _ in range(seats - len(row.seats))),
            )
        )
        for row in r.tables
    )
    byes = [who.get(u, str(u)) for u in r.byes]
    footer = ctx.t("table.byes", names=byes) if byes else ""
    return Sheet(
        ctx.t("pictures.seating-title", title=t.title, round=r.number),
        ctx.t(
            "pictures.deadline",
            deadline=format_deadline(r.deadline, ctx.tz, ctx.t.lang)
            if r.deadline
            else ctx.t("round.no-deadline"),
        ),
        (ctx.t("pictures.table"), *columns),
        (0.8, *(3.0 for _ in range(seats))),
        "c" + "l" * seats,
        rows,
        footer,
    )


def progression_series(
    t: Tournament,
    order: Sequence[int] | None = None,
    state: TournamentState | None = None,
) -> dict[str, list[float]]:
    """Cumulative points after each round, in standings order (the chart highlights the
    first few); ``order``: the players as the board ranks them, ``state`` as for
    :func:`standings_sheet`."""
    fmt = format_of(t)
    plain = state_of(t) if state is None else state
    state = fmt.disciplined(plain)
    who = names(t)
    if order is None:
        order = [s.player for s in fmt.standings(plain)]
    running = [totals(state, state.rounds[: i + 1]) for i in range(len(state.rounds))]
    return {who.get(p, str(p)): [float(step.get(p, Decimal(0))) for step in running] for p in order}


def podium(ctx: Ctx, t: Tournament, when: datetime, state: TournamentState | None = None) -> Podium:
    """冠亚季军: the first three places (teams with their members in team and pair events);
    ``state``: the event's engine state, when the caller has it."""
    fmt = format_of(t)
    if not fmt.has_group_tables:
        rows = [r for r in standings_sheet(ctx, t, state=state).rows if r.mark != "section"]
        top = [(r.cells[1], r.sub) for r in rows[: len(PODIUM)]]
    else:  # the group tables are not the final order
        who = names(t)
        top = [(who.get(e.player, str(e.player)), "") for e in board_of(t, state).entries[:3]]
    return Podium(
        t.title,
        ctx.t(
            "pictures.podium-line",
            game=ctx.t(f"game.{t.game}"),
            date=when.astimezone(ctx.tz).date().isoformat(),
        ),
        tuple(Place(ctx.t(f"pictures.place{i + 1}"), n, sub) for i, (n, sub) in enumerate(top)),
        ctx.t("pictures.podium-footer"),
    )


def team_titles(ctx: Ctx, t: Tournament, teams: Mapping[int, int]) -> dict[int, str]:
    """What the chat calls each team of ``teams`` (player → team number): its department
    where all its members come from one (docs/rules/teams.md#departments), else 第 N 队."""
    named = team_names(t, teams)
    return {n: named.get(n) or ctx.t("pictures.team", n=n) for n in set(teams.values())}

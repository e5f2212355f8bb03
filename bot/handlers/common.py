"""Small pieces several use-cases share: reading a table number, finding a player,
describing tables, and closing a round once every table is settled."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from bot import live
from bot.context import Ctx
from bot.deadlines import format_deadline
from bot.errors import UserError
from bot.pictures import podium, post_with_picture, render
from bot.ratings import announce_changes
from bot.timers import table_deadline
from bot.tournament import format_of, latest_round, names, state_of
from charts.podium import podium_png
from db.models import Player, Round, TableRow, Tournament
from db.status import EventStatus, RoundStatus, TableState
from engine.model import SEAT_LETTERS, Finished, Standing


def display_name(ctx: Ctx) -> str:
    return ctx.inc.sender.name or (ctx.inc.sender.username or str(ctx.inc.sender.id))


def table_number(token: str) -> int:
    """``3``, ``T3``, ``#3``, ``3号``, ``3桌``, ``第3桌`` → 3."""
    match = re.fullmatch(r"(?:[Tt#]|第)?(\d{1,3})(?:号桌|号|桌)?", token.strip())
    if not match:
        raise UserError("refuse.bad-table", token=token)
    return int(match.group(1))


def open_round(t: Tournament) -> Round:
    r = latest_round(t)
    if r is None or r.status != RoundStatus.OPEN:
        raise UserError("refuse.no-open-round")
    return r


async def timer_round(
    ctx: Ctx, arg: str, due: Callable[[Round], datetime | None]
) -> tuple[Tournament, Round] | None:
    """The running tournament and open round a timer (``"<tournament>:<round>:…"``) is
    for, once the round's ``due`` moment has come; None when the round has moved on
    since the timer was set (settled, ruled already, or given a later moment)."""
    tournament_id, number = (int(x) for x in arg.split(":")[:2])
    t = await ctx.repo.tournament(tournament_id)
    if t is None or t.status != EventStatus.RUNNING:
        return None
    r = next((x for x in t.rounds if x.number == number), None)
    if r is None or r.status != RoundStatus.OPEN:
        return None
    moment = due(r)
    return (t, r) if moment is not None and moment <= ctx.now else None


def find_table(r: Round, number: int) -> TableRow:
    for row in r.tables:
        if row.number == number:
            return row
    raise UserError("refuse.no-such-table", table=number, round=r.number)


def my_table(r: Round, user_id: int) -> TableRow | None:
    return next((row for row in r.tables if user_id in row.seats), None)


def find_player(ctx: Ctx, t: Tournament, ref: str) -> Player:
    """A player by @username, user id, exact name, or seat (``3A``: table 3, seat A)."""
    ref = ref.strip()
    by_user = {p.user_id: p for p in t.players}
    r = latest_round(t)
    seat = re.fullmatch(r"(\d{1,3})([A-Da-d])", ref)
    if seat and r is not None:
        row = find_table(r, int(seat.group(1)))
        idx = SEAT_LETTERS.index(seat.group(2).upper())
        if idx < len(row.seats):
            return by_user[row.seats[idx]]
    for p in t.players:
        if (
            (ref.startswith("@") and p.username and p.username.lower() == ref[1:].lower())
            or ref == str(p.user_id)
            or ref == p.name
        ):
            return p
    raise UserError("refuse.no-such-player", who=ref)


def deadline_text(ctx: Ctx, deadline: datetime | None, hint: bool = True) -> str:
    """The deadline as the chat reads it: its zone, its language, the year when it is
    not this year, and (with ``hint``) how long is left."""
    if deadline is None:
        return ctx.t("round.no-deadline")
    return format_deadline(deadline, ctx.tz, ctx.t.lang, now=ctx.now, hint=hint)


def stands_at(ctx: Ctx, r: Round, row: TableRow) -> str:
    """For a pending report: when it stands if nobody disputes it ("" without a deadline)."""
    when = table_deadline(r, row)
    return "" if when is None else "\n" + ctx.t("deadline.stands-at", when=deadline_text(ctx, when))


def describe_tables(ctx: Ctx, t: Tournament, r: Round) -> str:
    who = names(t)
    lines = [
        ctx.t(
            "table.line",
            table=row.number,
            seats=" · ".join(f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats)),
        )
        for row in r.tables
    ]
    if r.byes:
        lines.append(ctx.t("table.byes", names=[who[u] for u in r.byes]))
    # What the draw decided beyond seating (a flip, an extra game…), in plain words.
    notes = [f"note.{code}" for code in dict.fromkeys(r.notes)]
    lines += [f"ℹ️ {ctx.t(key)}" for key in notes if ctx.t.has(key)]
    return "\n".join(lines)


def ranking_lines(ctx: Ctx, t: Tournament, rows: tuple[Standing, ...], limit: int = 10) -> str:
    """The top of a ranking, each place with the tie-break that put it above the next
    (``Standing.tiebreak`` codes → ``[tiebreak]`` labels; issue 4: show the chain)."""
    who = names(t)
    lines = []
    for s in rows[:limit]:
        line = ctx.t(
            "standings.line", rank=s.rank, name=who.get(s.player, s.player), points=s.points
        )
        labels = [ctx.t(f"tiebreak.{c}") for c in s.tiebreak if ctx.t.has(f"tiebreak.{c}")]
        if labels:
            line = ctx.t("standings.decided-by", line=line, label=" / ".join(labels))
        lines.append(line)
    if len(rows) > limit:
        lines.append(ctx.t("standings.more", count=len(rows) - limit))
    return "\n".join(lines)


def refresh_live(ctx: Ctx, t: Tournament) -> None:
    """Post or edit the live standings with the current text ranking (``bot.live``)."""
    live.refresh(ctx, t, ranking_lines(ctx, t, format_of(t).standings(state_of(t))))


def settle_round(ctx: Ctx, t: Tournament, r: Round) -> None:
    """After a table's result changed: update the live standings, then close the round
    when every table is settled and tell the chat what happens next (the winner and the
    podium if the format has finished, otherwise who goes on)."""
    refresh_live(ctx, t)
    if r.status != RoundStatus.OPEN or any(row.status == TableState.PENDING for row in r.tables):
        return
    r.status = RoundStatus.CLOSED
    ctx.audit(
        "round-closed",
        t,
        {"round": r.number, "status": RoundStatus.OPEN},
        {"status": RoundStatus.CLOSED},
    )
    outcome = format_of(t).plan(state_of(t))
    with ctx.announcing():
        if isinstance(outcome, Finished):
            t.status = EventStatus.FINISHED
            ctx.audit(
                "finished", t, {"status": EventStatus.RUNNING}, {"status": EventStatus.FINISHED}
            )
            winner = outcome.ranking[0].player if outcome.ranking else None
            text = ctx.t(
                "tournament.finished",
                title=t.title,
                winner=names(t).get(winner, "—") if winner is not None else "—",
                ranking=ranking_lines(ctx, t, outcome.ranking),
            )
            picture = render(podium_png, podium(ctx, t, ctx.now))
            post_with_picture(ctx, [picture] if picture else None, text, "podium")
            ctx.defer(lambda: announce_changes(ctx, t))
            return
        who = names(t)
        going_on = [who[u] for table in outcome.tables for u in table.players] + [
            who[u] for u in outcome.byes
        ]
        ctx.reply("round.complete", round=r.number, players=going_on, next=r.number + 1)

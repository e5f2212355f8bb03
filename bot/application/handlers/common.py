"""Small pieces several use-cases share: reading a table number, finding a player,
describing tables, and saying what settling a round did (``Event.settle``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.application.context import Ctx
from bot.application.event import (
    Event,
    EventFinished,
    HeldForRuling,
    PlayOffNeeded,
    RoundClosed,
    Settled,
    StandingsMoved,
)
from bot.application.ratings import announce_changes
from bot.application.timers import table_deadline
from bot.application.tournament import latest_round, names, plan_of
from bot.language.deadlines import format_deadline
from bot.language.errors import UserError
from bot.presentation import live
from bot.presentation.board import ranking_lines
from bot.presentation.pictures import podium, post_with_picture_later, team_titles
from charts.jobs import podium_png
from db.models import Player, Round, TableRow, Tournament
from db.status import EventStatus, RoundStatus
from engine.board import Board
from engine.formats.groups import LETTERS
from engine.model import SEAT_LETTERS


def display_name(ctx: Ctx) -> str:
    return ctx.caller.inc.sender.name or (
        ctx.caller.inc.sender.username or str(ctx.caller.inc.sender.id)
    )


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
    found = await timer_open_round(ctx, arg)
    if found is None:
        return None
    moment = due(found[1])
    return found if moment is not None and moment <= ctx.now else None


async def timer_open_round(ctx: Ctx, arg: str) -> tuple[Tournament, Round] | None:
    """The running tournament and the round a timer is for, while that round is open."""
    tournament_id, number = (int(x) for x in arg.split(":")[:2])
    t = await ctx.uow.repo.tournament(tournament_id)
    if t is None or t.status != EventStatus.RUNNING:
        return None
    r = next((x for x in t.rounds if x.number == number), None)
    return (t, r) if r is not None and r.status == RoundStatus.OPEN else None


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


def player_then_words(ctx: Ctx, t: Tournament, args: str) -> tuple[Player, str]:
    """A player named at the start of ``args`` and the words after (``/dq 张三 违规``):
    the longest run of first words that names a player, so a name with a space in it
    still reads as one name."""
    words = args.split()
    for cut in range(len(words), 0, -1):
        try:
            return find_player(ctx, t, " ".join(words[:cut])), " ".join(words[cut:])
        except UserError:
            continue
    raise UserError("refuse.no-such-player", who=words[0] if words else args)


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
    """Every table and seat; under each, in an event that draws opponents by cards, the
    card each side drew (docs/rules/pairs.md#opponents-by-cards); the byes and the joker."""
    who = names(t)
    cards = Event.of(ctx, t).fmt.drawn_cards(plan_of(r))
    lines = []
    for row in r.tables:
        seats = " · ".join(f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats))
        lines.append(ctx.t("table.line", table=row.number, seats=seats))
        if row.seats[0] in cards:  # the pair at A and C against the pair at B and D
            a, b, c, d = row.seats
            lines.append(
                ctx.t(
                    "table.cards",
                    first=cards[a],
                    second=cards[b],
                    a=who[a],
                    b=who[b],
                    c=who[c],
                    d=who[d],
                )
            )
    if r.byes:
        lines.append(ctx.t("table.byes", names=[who[u] for u in r.byes]))
        if r.byes[0] in cards:
            lines.append(ctx.t("table.joker", card=cards[r.byes[0]]))
    # What the draw decided beyond seating (a flip, an extra game…), in plain words.
    notes = [f"note.{code}" for code in dict.fromkeys(r.notes)]
    lines += [f"ℹ️ {ctx.t(key)}" for key in notes if ctx.t.has(key)]
    return "\n".join(lines)


def event_status(ctx: Ctx, t: Tournament, latest: Round | None = None) -> str:
    """Where the event stands, above a ranking: over (the final ranking), or which round
    is being played, is drawn and not yet begun, or is over with the next not yet begun
    (the places are not final in any of those). ``latest``: its latest round, given for
    an event loaded without its rounds."""
    if t.status == EventStatus.FINISHED:
        return ctx.t("outcome.finished")
    if t.status == EventStatus.CANCELLED:
        return ctx.t("outcome.cancelled")
    r = latest or latest_round(t)
    if r is None:
        return ctx.t("outcome.in-progress", round=0)
    key = {RoundStatus.DRAWN: "outcome.drawn", RoundStatus.CLOSED: "outcome.between"}
    return ctx.t(key.get(RoundStatus(r.status), "outcome.in-progress"), round=r.number)


def refresh_live(ctx: Ctx, event: Event) -> None:
    """Post or edit the live standings with the current text ranking (``bot.presentation.live``):
    once the event is over, the final ranking the announcement gave (its champion named
    as such), as /standings shows it."""
    live.refresh(ctx, event, ranking_lines(ctx, event.t, event.board()))


async def tell(ctx: Ctx, event: Event, happened: Sequence[Settled]) -> None:
    """Say what settling a round did (``Event.settle``): the live standings moved; the
    round held for a ruling; closed, with who goes on or who plays off; or the event
    over, with its champion, podium and rating changes."""
    t = event.t
    for what in happened:
        match what:
            case StandingsMoved(round=r, soon=soon):
                if soon and live.later(ctx, t, r):
                    continue  # one refresh after the burst shows this result too
                await event.whole()
                refresh_live(ctx, event)
            case HeldForRuling(round=number, tables=tables):
                joined = ctx.t("deadline.separator").join(str(n) for n in tables)
                ctx.out.reply("outcome.hold", round=number, tables=joined)
            case PlayOffNeeded(round=number, tied=tied):
                who = names(t)
                with ctx.out.announcing():
                    ctx.out.reply(
                        "outcome.extra-needed",
                        round=number,
                        players=[who[u] for u in tied],
                        next=number + 1,
                    )
            case RoundClosed(round=number, going_on=going_on, out=out, called_back=back):
                # Naming who goes on matters when some do not; after a Swiss or a
                # round-robin round it would list the whole field as "through". A best
                # loser is named as one: they lost their table.
                who = names(t)
                with ctx.out.announcing():
                    ctx.out.reply(
                        "round.complete" if out else "round.complete-all",
                        round=number,
                        players=[
                            ctx.t("round.best-loser", name=who[u]) if u in back else who[u]
                            for u in going_on
                        ],
                        next=number + 1,
                    )
            case EventFinished(final=final, champion=champion):
                finished(ctx, event, final, champion)


def finished(ctx: Ctx, event: Event, final: Board, champion: tuple[int, ...]) -> None:
    """The event is over: the pinned message says the ranking is final, as the
    announcement (the champion, the ranking, the podium) does; the rating changes after."""
    t = event.t
    with ctx.out.announcing():
        live.refresh(ctx, event, ranking_lines(ctx, t, final))
        text = ctx.t(
            "tournament.finished",
            title=t.title,
            winner=champion_text(ctx, event, champion),
            ranking=ranking_lines(ctx, t, final) + team_table_lines(ctx, event),
        )
        post_with_picture_later(
            ctx, text, "podium", podium_png, lambda: podium(ctx, t, ctx.now, event.state)
        )
        placed = event.standings()
        ctx.uow.defer(lambda: announce_changes(ctx, t, placed))


def champion_text(ctx: Ctx, event: Event, champion: tuple[int, ...]) -> str:
    """The champion as the event crowns it: a player; both partners of a pair; a team by
    its number and members (docs/guide.en.md#end)."""
    if not champion:
        return "—"
    who = names(event.t)
    members = [who.get(p, str(p)) for p in champion]
    teams = event.teams()
    if teams and set(teams[0].members) == set(champion):
        title = team_titles(ctx, event.t, event.fmt.groups(event.state))[teams[0].team]
        return ctx.t("outcome.team", team=title, members=members)
    return ctx.t("outcome.champion-unit", members=members)


def team_table_lines(ctx: Ctx, event: Event) -> str:
    """The team table under the individual one, for team events."""
    teams = event.teams()
    if not teams:
        return ""
    who = names(event.t)
    titles = team_titles(ctx, event.t, event.fmt.groups(event.state))
    lines = [
        ctx.t(
            "standings.team-line",
            rank=s.rank,
            team=titles[s.team],
            members=[who.get(p, str(p)) for p in s.members],
            points=s.points,
        )
        + "".join(f" ({ctx.t(f'tiebreak.{c}')})" for c in s.tiebreak if c != "points")
        for s in teams
    ]
    return "\n\n" + ctx.t("standings.team-header") + "\n" + "\n".join(lines)


def group_lines(ctx: Ctx, event: Event) -> str:
    """Who is in which group, for 小组循环 once drawn: players are told
    (docs/rules/groups.md#groups-by-lot)."""
    groups = event.groups()
    if not groups:
        return ""
    who = names(event.t)
    lines = [
        ctx.t("outcome.group", letter=LETTERS[i], members=[who.get(p, str(p)) for p in members])
        for i, members in enumerate(groups)
    ]
    return "\n\n" + ctx.t("outcome.groups") + "\n" + "\n".join(lines)

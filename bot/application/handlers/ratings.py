"""Ratings and seasons across a group's events: /rating, /me, /season, /export season,
the rating changes under a final announcement, and seeding a draw by rating."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from bot.application.context import Ctx
from bot.application.handlers import standings
from bot.application.handlers.standings import csv_bytes
from bot.application.ratings import after, before, places_kept
from bot.application.service.audit import SeasonStarted
from bot.application.tournament import substitutions
from bot.language.errors import UserError
from bot.language.i18n import show
from bot.presentation.board import my_standing, with_part
from bot.presentation.pictures import draw
from charts.jobs import board_png, history_png
from db.models import Placing, Season, Tournament
from db.status import EventStatus
from engine.games import find_game
from engine.ratings import PROVISIONAL_HANDS, K, Rating, leaderboard
from engine.seasons import RATING, parse_scoring, ranked_season

BOARD_LINES = 20
ME_EVENTS = 12  # /me lists a player's last twelve events; the count says how many more
ME_POINTS = 30  # and draws their rating over their last thirty rated events
SEASON_EXPORT_HEADER = [
    "event",
    "date",
    "user_id",
    "player",
    "place",
    "points",
    "rating_before",
    "rating_after",
]


def rating_text(ctx: Ctx, r: Rating) -> str:
    """``1532``, or ``定级中（4/10 局）`` until the rating rests on enough hands."""
    if r.provisional:
        return ctx.t("rating.provisional", games=r.games, hands=PROVISIONAL_HANDS)
    return str(r.display)


def shown(r: Rating | None) -> int | str:
    """The figure a CSV shows: none while provisional."""
    return "" if r is None or r.provisional else r.display


def day(t: Tournament, zone: ZoneInfo) -> str:
    return t.created_at.astimezone(zone).date().isoformat()


async def rating(ctx: Ctx, args: str) -> None:
    """``/rating [game]``: the group's leaderboard for a game (default: the latest event's)."""
    chat = ctx.caller.inc.chat_id
    if args.strip():
        game = find_game(args.strip()).key
    else:
        latest = await ctx.uow.repo.last_game(chat)
        if latest is None:
            raise UserError("refuse.no-rated-events")
        game = latest
    kept = await ctx.uow.repo.player_ratings(chat, game)
    board = leaderboard({p: Rating(r.value, r.games) for p, r in kept.items()})
    if not board:
        raise UserError("refuse.no-ratings", game=ctx.t(f"game.{game}"))
    who = {p: r.name for p, r in kept.items()}
    rated = [(p, r) for p, r in board if not r.provisional]
    unrated = [
        ctx.t("rating.provisional-name", name=who[p], games=r.games)
        for p, r in board
        if r.provisional
    ]
    lines = [
        ctx.t("rating.line", rank=i + 1, name=who[p], rating=r.display, hands=r.games)
        for i, (p, r) in enumerate(rated[:BOARD_LINES])
    ]
    if len(rated) > BOARD_LINES:
        lines.append(ctx.t("standings.more", count=len(rated) - BOARD_LINES))
    if unrated:
        lines.append(ctx.t("rating.provisional-list", hands=PROVISIONAL_HANDS, names=unrated))
    lines.append(ctx.t("rating.how", hands=PROVISIONAL_HANDS, k=K))
    game_name = ctx.t(f"game.{game}")
    text = ctx.t("rating.title", game=game_name) + "\n" + "\n".join(lines)
    if not rated:
        ctx.out.say(text)
        return
    rows = [(i + 1, who[p], r.display, "") for i, (p, r) in enumerate(rated)]
    ctx.out.photo(
        await draw(board_png, rows, ctx.t("rating.chart-title", game=game_name)), text, "rating.png"
    )


async def me(ctx: Ctx, args: str) -> None:
    """``/me``: my last :data:`ME_EVENTS` events here (how many came before them), my place
    in each, my rating per game and its graph over my last :data:`ME_POINTS` rated events.
    A finished event's place is the one kept at its finish; a running one's, the board's
    now. So /me costs the same after a year of events as after one."""
    chat, user = ctx.caller.inc.chat_id, ctx.caller.actor
    await places_kept(ctx.uow.repo, chat)
    played, events = await ctx.uow.repo.my_events(chat, user, ME_EVENTS)
    if not events:
        raise UserError("refuse.no-history")
    name = str(user)
    lines = [""]
    if played > len(events):  # a year of weekly events is no message to scroll
        lines.append(ctx.t("me.earlier", count=played - len(events)))
    for t, kept in events:
        name = kept.name if kept is not None else name
        lines.append(
            ctx.t(
                "me.event",
                date=day(t, ctx.tz),
                title=t.title,
                game=ctx.t(f"game.{t.game}"),
                where=await where(ctx, t, kept, user),
            )
        )
    if events[-1][1] is None:  # the latest is not finished: the name it has there
        name = (await ctx.uow.repo.names(events[-1][0].id, [user])).get(user, name)
    lines[0] = ctx.t("me.header", name=name)
    series: list[tuple[str, list[tuple[str, int]]]] = []
    mine = await ctx.uow.repo.my_ratings(chat, user)
    for game in mine:
        now = Rating(mine[game].value, mine[game].games)
        lines.append(ctx.t("me.rating", game=ctx.t(f"game.{game}"), rating=rating_text(ctx, now)))
        history = await ctx.uow.repo.rating_history(chat, game, user, ME_POINTS)
        shown = [(title, after(row)) for title, row in history]
        points = [(title, r.display) for title, r in shown if not r.provisional]
        series.append((ctx.t(f"game.{game}"), points))
    series = [(game, points) for game, points in series if points]
    text = "\n".join(lines)
    if not series:
        ctx.out.say(text)
        return
    ctx.out.photo(await draw(history_png, series, ctx.t("me.chart-title")), text, "me.png")


async def where(ctx: Ctx, t: Tournament, kept: Placing | None, user: int) -> str:
    """/me's words for one event: a finished one's kept place (with the part of a line
    that changed hands); else what /standings says of them now."""
    if kept is None:
        if t.status == EventStatus.RUNNING:
            await ctx.uow.repo.load_whole(t)
        return my_standing(ctx, t, user)
    place = kept.place if kept.place is not None else "—"
    said = ctx.t("me.place", place=place, of=kept.entries)
    if not substitutions(t):
        return said
    await ctx.uow.repo.load_players(t)
    return with_part(ctx, t, user, said)


async def season(ctx: Ctx, args: str) -> None:
    """``/season start <name> [scoring]`` (organiser) or ``/season``: the season table."""
    word, _, rest = args.strip().partition(" ")
    if word.lower() in ("start", "开始", "新赛季"):
        await start_season(ctx, rest.strip())
        return
    current = await ctx.uow.repo.season(ctx.caller.inc.chat_id)
    if current is None:
        raise UserError("refuse.no-season")
    await places_kept(ctx.uow.repo, current.chat_id)
    events, totals = await ctx.uow.repo.season_totals(current.id)
    table = ranked_season({p: line[:3] for p, line in totals.items()})
    if not table:
        ctx.out.reply("season.empty", name=current.name)
        return
    who = {p: line[3] for p, line in totals.items()}
    rows = [(ln.rank, who[ln.player], ln.points, "") for ln in table]
    lines = [
        ctx.t(
            "season.line",
            rank=ln.rank,
            name=who[ln.player],
            points=ln.points,
            events=ln.events,
            best=ln.best,
        )
        for ln in table[:BOARD_LINES]
    ]
    if len(table) > BOARD_LINES:
        lines.append(ctx.t("standings.more", count=len(table) - BOARD_LINES))
    title = ctx.t("season.title", name=current.name, events=events)
    scoring = scoring_text(ctx, current.scoring)
    ctx.out.photo(
        await draw(board_png, rows, ctx.t("season.chart-title", name=current.name)),
        f"{title}\n{scoring}\n" + "\n".join(lines),
        "season.png",
    )


@dataclass(frozen=True)
class Scored:
    """One entrant's line of a season event, as kept at its finish."""

    place: int
    points: Decimal
    name: str


async def season_events(ctx: Ctx, current: Season) -> dict[Tournament, dict[int, Scored]]:
    """The season's finished events, oldest first: player → their kept line."""
    await places_kept(ctx.uow.repo, current.chat_id)
    events: dict[Tournament, dict[int, Scored]] = {}
    for t, row in await ctx.uow.repo.season_placings(current.id):
        assert row.place is not None  # only the placed are read
        events.setdefault(t, {})[row.user_id] = Scored(
            row.place, row.season_points or Decimal(0), row.name
        )
    return events


def names_of(events: dict[Tournament, dict[int, Scored]]) -> dict[int, str]:
    """Each player's name as of their latest event of the season."""
    return {p: line.name for lines in events.values() for p, line in lines.items()}


def scoring_text(ctx: Ctx, scoring: str) -> str:
    if scoring == RATING:
        return ctx.t("season.scoring-rating")
    return ctx.t("season.scoring-places", figures=scoring)


async def start_season(ctx: Ctx, args: str) -> None:
    await ctx.caller.require_organiser()
    words = args.split()
    if not words:
        raise UserError("usage.season")
    scoring = parse_scoring(words[-1]) if len(words) > 1 and is_scoring(words[-1]) else None
    name = " ".join(words[:-1] if scoring else words)[:100]
    scoring = scoring or parse_scoring("")
    since = await ctx.uow.repo.last_event_id(ctx.caller.inc.chat_id)
    row = Season(
        chat_id=ctx.caller.inc.chat_id,
        name=name,
        scoring=scoring,
        since_event=since,
        started_at=ctx.now,
        started_by=ctx.caller.actor,
    )
    await ctx.uow.repo.add(row)
    ctx.uow.record(None, SeasonStarted(row.id, name, scoring))
    ctx.out.reply("season.started", name=name, scoring=scoring_text(ctx, scoring))


def is_scoring(word: str) -> bool:
    """The last word of ``/season start`` is the scoring when it reads as one."""
    return word.lower() in (RATING, "等级分") or "/" in word


async def export(ctx: Ctx, args: str) -> None:
    """``/export`` (this event's CSV) or ``/export season`` (the season's)."""
    if args.strip().lower() in ("season", "赛季"):
        await export_season(ctx)
    else:
        await standings.export(ctx, args)


async def export_season(ctx: Ctx) -> None:
    """``/export season``: one row per player per event of the current season."""
    await ctx.caller.require_organiser()
    current = await ctx.uow.repo.season(ctx.caller.inc.chat_id)
    if current is None:
        raise UserError("refuse.no-season")
    events = await season_events(ctx, current)
    who = names_of(events)
    rows: list[list[object]] = []
    for t, lines in events.items():
        kept = await ctx.uow.repo.event_ratings(t.id, lines.keys())
        unmoved = await ctx.uow.repo.ratings_before(
            t.chat_id, t.game, lines.keys() - kept.keys(), t.id
        )
        for p, line in lines.items():
            mine = kept.get(p)
            if mine is not None:
                was, now = shown(before(mine)), shown(after(mine))
            else:  # no rated hand in this event: as they came
                earlier = unmoved.get(p)
                was = now = shown(after(earlier) if earlier is not None else None)
            rows.append(
                [t.title, day(t, ctx.tz), p, who[p], line.place, show(line.points), was, now]
            )
    ctx.out.document(
        csv_bytes(SEASON_EXPORT_HEADER, rows),
        f"tourbot-season-{current.id}.csv",
        ctx.t("season.export-caption", name=current.name),
    )

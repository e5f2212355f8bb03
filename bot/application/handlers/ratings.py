"""Ratings and seasons across a group's events: /rating, /me, /season, /export season,
the rating changes under a final announcement, and seeding a draw by rating."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.application.context import Ctx
from bot.application.handlers import standings
from bot.application.handlers.standings import csv_bytes
from bot.application.ratings import (
    ledger,
    names,
    season_events,
    season_points,
)
from bot.application.service.audit import SeasonStarted
from bot.language.errors import UserError
from bot.language.i18n import show
from bot.presentation.board import my_standing
from bot.presentation.pictures import draw
from charts.jobs import board_png, history_png
from db.models import Season, Tournament
from db.status import PlayerStatus
from engine.games import find_game
from engine.ratings import NEW, PROVISIONAL_HANDS, K, Rating, leaderboard
from engine.seasons import RATING, parse_scoring, season_table

BOARD_LINES = 20
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
        latest = await ctx.uow.repo.chat_events(chat)
        if not latest:
            raise UserError("refuse.no-rated-events")
        game = latest[-1].game
    led = await ledger(ctx.uow.repo, chat, game)
    board = leaderboard(led.ratings())
    if not board:
        raise UserError("refuse.no-ratings", game=ctx.t(f"game.{game}"))
    who = names(await ctx.uow.repo.chat_events(chat, game))
    rated = [(p, r) for p, r in board if not r.provisional]
    unrated = [
        ctx.t("rating.provisional-name", name=who.get(p, str(p)), games=r.games)
        for p, r in board
        if r.provisional
    ]
    lines = [
        ctx.t("rating.line", rank=i + 1, name=who.get(p, str(p)), rating=r.display, hands=r.games)
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
    rows = [(i + 1, who.get(p, str(p)), r.display, "") for i, (p, r) in enumerate(rated)]
    ctx.out.photo(
        await draw(board_png, rows, ctx.t("rating.chart-title", game=game_name)), text, "rating.png"
    )


async def me(ctx: Ctx, args: str) -> None:
    """``/me``: my events here, my place in each, my rating per game and its graph."""
    chat, user = ctx.caller.inc.chat_id, ctx.caller.actor
    events = [
        t
        for t in await ctx.uow.repo.chat_events(chat)
        if any(p.user_id == user and p.status != PlayerStatus.LEFT for p in t.players)
    ]
    if not events:
        raise UserError("refuse.no-history")
    lines = [ctx.t("me.header", name=names(events).get(user, str(user)))]
    for t in events:
        where = my_standing(ctx, t, user)  # what /standings says of them, now
        lines.append(
            ctx.t(
                "me.event",
                date=day(t, ctx.tz),
                title=t.title,
                game=ctx.t(f"game.{t.game}"),
                where=where,
            )
        )
    series: list[tuple[str, list[tuple[str, int]]]] = []
    for game in dict.fromkeys(t.game for t in events):
        led = await ledger(ctx.uow.repo, chat, game)
        mine = led.ratings().get(user)
        if mine is None:
            continue
        lines.append(ctx.t("me.rating", game=ctx.t(f"game.{game}"), rating=rating_text(ctx, mine)))
        titles = {t.id: t.title for t in events}
        series.append(
            (
                ctx.t(f"game.{game}"),
                [
                    (titles.get(ev, str(ev)), r.display)
                    for ev, r in led.history(user)
                    if not r.provisional
                ],
            )
        )
    series = [(game, points) for game, points in series if points]
    text = "\n".join(lines)
    if not series:
        ctx.out.say(text)
        return
    ctx.out.photo(await draw(history_png, series, ctx.t("me.chart-title")), text, "me.png")


async def season(ctx: Ctx, args: str) -> None:
    """``/season start <name> [scoring]`` (organiser) or ``/season``: the season table."""
    word, _, rest = args.strip().partition(" ")
    if word.lower() in ("start", "开始", "新赛季"):
        await start_season(ctx, rest.strip())
        return
    current = await ctx.uow.repo.season(ctx.caller.inc.chat_id)
    if current is None:
        raise UserError("refuse.no-season")
    events = await season_events(ctx.uow.repo, current)
    table = season_table(await season_points(ctx.uow.repo, current, events))
    if not table:
        ctx.out.reply("season.empty", name=current.name)
        return
    who = names(events)
    rows = [(ln.rank, who.get(ln.player, str(ln.player)), ln.points, "") for ln in table]
    lines = [
        ctx.t(
            "season.line",
            rank=ln.rank,
            name=who.get(ln.player, str(ln.player)),
            points=ln.points,
            events=ln.events,
            best=ln.best,
        )
        for ln in table[:BOARD_LINES]
    ]
    if len(table) > BOARD_LINES:
        lines.append(ctx.t("standings.more", count=len(table) - BOARD_LINES))
    title = ctx.t("season.title", name=current.name, events=len(events))
    scoring = scoring_text(ctx, current.scoring)
    ctx.out.photo(
        await draw(board_png, rows, ctx.t("season.chart-title", name=current.name)),
        f"{title}\n{scoring}\n" + "\n".join(lines),
        "season.png",
    )


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
    events = await season_events(ctx.uow.repo, current)
    scored = await season_points(ctx.uow.repo, current, events)
    who = names(events)
    rows: list[list[object]] = []
    for t, event in zip(events, scored, strict=True):
        before, after = (await ledger(ctx.uow.repo, t.chat_id, t.game)).around(t.id)
        for p, (place, points) in sorted(event.items(), key=lambda kv: kv[1][0]):
            was, now = shown(before.get(p, NEW)), shown(after.get(p))
            rows.append([t.title, day(t, ctx.tz), p, who[p], place, show(points), was, now])
    ctx.out.document(
        csv_bytes(SEASON_EXPORT_HEADER, rows),
        f"tourbot-season-{current.id}.csv",
        ctx.t("season.export-caption", name=current.name),
    )

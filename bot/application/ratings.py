"""Group ratings and seasons, kept with the results that move them (docs/rules/ratings.md#kept).

A group's rating for a game is a fold over every confirmed table of every event of that
game in the chat, hand by hand, in event order (``engine.ratings``). Nothing here folds
the history again on a read: each rated event keeps, per player, the rating it began
with and what its hands moved it (``EventRating``), and each player their rating now
(``PlayerRating``), written in the transaction of the result that moves them:

* a table newly confirmed adds its hands' moves to its event's rows (a table's moves
  depend only on the ratings its players began the event with), so a confirmation costs
  what its table costs;
* a correction (``/fix``, ``/undo``, a forfeit of a played table, ``/cancel``) replays
  that event and the chat's later events of the game from the snapshots before it,
  never from the first event.

A finished event keeps its entrants' places and season points (``Placing``), written at
the finish: /me, /season and /export season read them and never rank a past event again.
Every process reads the same rows: there is no cache to disagree (scale-out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from bot.application.context import Ctx
from bot.application.tournament import format_of, game_of, places_of, state_of
from db.models import EventRating, Placing, PlayerRating, Season, TableRow, Tournament
from db.repo import Repo
from db.status import EventStatus, PlayerStatus, TableState
from engine.board import Board, board
from engine.formats.seeding import RATING as SEED_BY_RATING
from engine.ratings import (
    NEW,
    PROVISIONAL_HANDS,
    Encounter,
    EventResult,
    Rating,
    leaderboard,
    moves,
    table_hands,
)
from engine.seasons import RATING, place_points


def hands_of(t: Tournament, row: TableRow) -> list[Encounter]:
    """The rated hands of one table: a confirmed one's, by its live report."""
    live = next((rep for rep in row.reports if rep.live), None)
    if row.status != TableState.CONFIRMED or live is None:
        return []
    return table_hands(game_of(t), tuple(row.seats), live.text, live.scores)


def event_result(t: Tournament) -> EventResult:
    """Every rated hand of one event (loaded whole): its confirmed tables, hand by hand."""
    hands = [enc for r in t.rounds for row in r.tables for enc in hands_of(t, row)]
    return EventResult(t.id, tuple(hands))


def before(row: EventRating) -> Rating:
    return Rating(row.before, row.before_games)


def after(row: EventRating) -> Rating:
    return Rating(row.before + row.moved, row.before_games + row.hands)


def players_of(hands: Iterable[Encounter]) -> set[int]:
    return {p for enc in hands for team in enc.teams for p in team}


# --- keeping them ------------------------------------------------------------------------------
async def rate(repo: Repo, t: Tournament, rows: Iterable[TableRow]) -> None:
    """Tables of ``t`` just confirmed: their hands move their players' ratings now. A
    player's rating row says whether ``t`` has a snapshot of them yet (it moved last in
    ``t`` or later), so the first table of an event reads no more than the rest."""
    hands = [enc for row in rows for enc in hands_of(t, row)]
    if not hands or t.status == EventStatus.CANCELLED:
        return
    players = players_of(hands)
    now = await repo.player_ratings(t.chat_id, t.game, players)
    later = any(r.event > t.id for r in now.values())  # a later event began from these
    seen = {p for p, r in now.items() if r.event >= t.id}
    kept = await repo.event_ratings(t.id, seen) if seen else {}
    fresh = players - kept.keys()
    if fresh:
        start = {p: Rating(r.value, r.games) for p, r in now.items() if r.event < t.id}
        if moved_since := fresh & seen:
            earlier = await repo.ratings_before(t.chat_id, t.game, moved_since, t.id)
            start |= {p: after(row) for p, row in earlier.items()}
        for p in fresh:
            kept[p] = snapshot(t, p, start.get(p, NEW))
            repo.session.add(kept[p])
    moved, played = moves({p: before(row) for p, row in kept.items()}, hands)
    for p, row in kept.items():
        row.moved += moved[p]
        row.hands += played[p]
    ended = {p: (t.id, after(kept[p])) for p in players}
    await settle_ratings(repo, t.chat_id, t.game, ended, now)
    if later:
        await replay(repo, t.chat_id, t.game, t.id + 1)


def snapshot(t: Tournament, player: int, start: Rating) -> EventRating:
    return EventRating(
        tournament_id=t.id,
        user_id=player,
        chat_id=t.chat_id,
        game=t.game,
        before=start.value,
        before_games=start.games,
        moved=0.0,
        hands=0,
    )


async def settle_ratings(
    repo: Repo,
    chat_id: int,
    game: str,
    ended: Mapping[int, tuple[int, Rating]],
    now: dict[int, PlayerRating] | None = None,
) -> None:
    """Each player's rating now: ``player → (event that moved it last, rating)``;
    ``now``: their rows, when read already. The name is the one they had in that event."""
    if not ended:
        return
    if now is None:
        now = await repo.player_ratings(chat_id, game, ended.keys())
    renamed = {p: event for p, (event, _) in ended.items() if p not in now or now[p].event != event}
    names = await repo.names_in(set(renamed.values()), renamed.keys()) if renamed else {}
    for p, (event, r) in ended.items():
        row = now.get(p)
        if row is None:
            row = now[p] = PlayerRating(chat_id=chat_id, game=game, user_id=p, name=str(p))
            repo.session.add(row)
        row.value, row.games, row.event = r.value, r.games, event
        row.name = names.get((event, p), row.name)


async def restate(repo: Repo, t: Tournament) -> None:
    """``t``'s rated hands changed otherwise than by a new table (a correction, or it was
    called off): replay it and the later events of its game in the chat, and keep its
    places again (or drop them, when the correction reopened it)."""
    await replay(repo, t.chat_id, t.game, t.id)
    if t.status == EventStatus.FINISHED:
        await keep_places(repo, t, board(format_of(t), state_of(t), over=True))
    else:
        for row in await repo.placings(t.id):
            await repo.session.delete(row)


async def replay(repo: Repo, chat_id: int, game: str, since: int) -> None:
    """Fold the chat's rated events of ``game`` from event ``since`` on again, from each
    player's snapshot before it, rewriting their rows and the ratings now; a rating
    season's points of the finished ones follow."""
    old = {(r.tournament_id, r.user_id): r for r in await repo.ratings_since(chat_id, game, since)}
    touched = {user for _, user in old}
    now: dict[int, Rating] = {}
    last: dict[int, tuple[int, Rating]] = {}
    for ev in await repo.rated_events(chat_id, game, since):
        hands = event_result(ev).encounters
        players = players_of(hands)
        fresh = players - now.keys()
        if fresh:
            earlier = await repo.ratings_before(chat_id, game, fresh, since)
            now |= {p: after(earlier[p]) if p in earlier else NEW for p in fresh}
        moved, played = moves(now, hands)
        for p in players:
            row = old.pop((ev.id, p), None)
            if row is None:
                row = snapshot(ev, p, now[p])
                repo.session.add(row)
            row.before, row.before_games = now[p].value, now[p].games
            row.moved, row.hands = moved[p], played[p]
            now[p] = after(row)
            last[p] = (ev.id, now[p])
        if ev.status == EventStatus.FINISHED:
            await rescore(repo, ev)
    for row in old.values():
        await repo.session.delete(row)
    await settle_ratings(repo, chat_id, game, last)
    await forget(repo, chat_id, game, touched - last.keys(), since)


async def forget(repo: Repo, chat_id: int, game: str, players: set[int], since: int) -> None:
    """Players no event from ``since`` on rates any longer: their rating is again what
    it was before (or none)."""
    if not players:
        return
    earlier = await repo.ratings_before(chat_id, game, players, since)
    await settle_ratings(
        repo, chat_id, game, {p: (row.tournament_id, after(row)) for p, row in earlier.items()}
    )
    for row in (await repo.player_ratings(chat_id, game, players - earlier.keys())).values():
        await repo.session.delete(row)


async def keep_places(repo: Repo, t: Tournament, final: Board) -> None:
    """At the finish (loaded whole): each entrant's place on the final ranking, its
    status and points, and the season points it gives, kept once."""
    line = places_of(t)
    lines = {e.player: e for e in final.entries}
    season = await repo.season_of(t.chat_id, t.id)
    kept = {row.user_id: row for row in await repo.placings(t.id)}
    entrants = [p for p in t.players if p.status != PlayerStatus.LEFT]
    for p in entrants:
        e = lines.get(line.get(p.user_id, p.user_id))
        row = kept.pop(p.user_id, None)
        if row is None:
            row = Placing(tournament_id=t.id, user_id=p.user_id, chat_id=t.chat_id)
            repo.session.add(row)
        row.name, row.entries = p.name, len(final.entries)
        row.place = e.place if e is not None else None
        row.status = e.status.value if e is not None else p.status
        row.points = e.points if e is not None else Decimal(0)
        row.season_id = season.id if season is not None and e is not None else None
    for row in kept.values():
        await repo.session.delete(row)
    if season is not None:
        await score(repo, t, season)


async def rescore(repo: Repo, t: Tournament) -> None:
    """A finished event's ratings moved (an earlier event corrected): a rating season's
    points of it follow."""
    season = await repo.season_of(t.chat_id, t.id)
    if season is not None and season.scoring == RATING:
        await score(repo, t, season)


async def score(repo: Repo, t: Tournament, season: Season) -> None:
    """The season points of ``t``'s placed entrants under ``season``'s scoring: by
    place, or the rating points gained in the event (docs/rules/ratings.md#seasons)."""
    placed = [row for row in await repo.placings(t.id) if row.place is not None]
    rated = await repo.event_ratings(t.id) if season.scoring == RATING else {}
    for row in placed:
        assert row.place is not None
        if season.scoring != RATING:
            row.season_points = place_points(season.scoring, row.place)
            continue
        mine = rated.get(row.user_id)
        gained = after(mine).display - before(mine).display if mine is not None else 0
        row.season_points = Decimal(gained)


async def places_kept(repo: Repo, chat_id: int) -> None:
    """Events that finished before places were kept get theirs, once."""
    for t in await repo.unplaced(chat_id):
        await keep_places(repo, t, board(format_of(t), state_of(t), over=True))


# --- reading them ------------------------------------------------------------------------------
async def rated_order(repo: Repo, t: Tournament, players: Sequence[int]) -> list[int]:
    """The rated players among ``players``, strongest first (seeding by rating)."""
    now = await repo.player_ratings(t.chat_id, t.game, players)
    return [p for p, _ in leaderboard({p: Rating(r.value, r.games) for p, r in now.items()})]


async def around(repo: Repo, t: Tournament) -> tuple[dict[int, Rating], dict[int, Rating]]:
    """The ratings ``t``'s rated players began and ended it with."""
    rows = await repo.event_ratings(t.id)
    return {p: before(r) for p, r in rows.items()}, {p: after(r) for p, r in rows.items()}


async def announce_changes(ctx: Ctx, t: Tournament, placed: Mapping[int, int]) -> None:
    """After the final announcement: each rated player's figure before → after this
    event, the newly rated with their first figure, and the provisional apart, unnumbered.
    ``placed``: each player's final place, as the announcement ranked them.

    Queued as an announcement, so it cannot overtake the 🏁 message queued before it."""
    was_of, after_of = await around(ctx.uow.repo, t)
    unmoved = await ctx.uow.repo.player_ratings(t.chat_id, t.game, placed.keys() - after_of.keys())
    for p, r in unmoved.items():  # rated before, no rated hand in this event
        was_of[p] = after_of[p] = Rating(r.value, r.games)
    if not after_of:
        return
    who = {p.user_id: p.name for p in t.players}
    lines, unrated = [], []
    for p in sorted((p for p in placed if p in after_of), key=lambda p: placed[p]):
        name, was, now = who.get(p, str(p)), was_of.get(p, NEW), after_of[p]
        if now.provisional:
            unrated.append(ctx.t("rating.provisional-name", name=name, games=now.games))
        elif was.provisional:
            lines.append(ctx.t("rating.change-rated", name=name, after=now.display))
        else:
            lines.append(
                ctx.t(
                    "rating.change",
                    name=name,
                    before=was.display,
                    after=now.display,
                    delta=signed(now.display - was.display),
                )
            )
    if unrated:
        lines.append(ctx.t("rating.provisional-list", hands=PROVISIONAL_HANDS, names=unrated))
    with ctx.out.announcing():
        ctx.out.reply("rating.changes", game=ctx.t(f"game.{t.game}"), lines="\n".join(lines))


async def seed_by_rating(ctx: Ctx, t: Tournament, seeds: object) -> list[int] | None:
    """Before the draw, when the organiser seeds by rating: the order it uses (the draw
    stores it, ``Event.draw``); ``None`` otherwise."""
    if seeds != SEED_BY_RATING:
        return None
    active = [p.user_id for p in t.players if p.status == PlayerStatus.ACTIVE]
    return await rated_order(ctx.uow.repo, t, active)


def signed(delta: int) -> str:
    return f"+{delta}" if delta >= 0 else str(delta)

"""Group ratings and seasons from stored events: rows in, ``engine.ratings`` out.

A group's rating for a game is a fold over every confirmed table of every event of that
game in the chat, hand by hand, in event order. The fold is kept per process in a
:class:`~engine.ratings.Ledger` per (chat, game); each use re-reads the events and puts
them into the ledger, which replays only from an event whose hands changed (a ``/fix``,
an ``/undo``, a newly confirmed table). Nothing here is stored: the reports are the
facts, so ratings can never disagree with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from bot.application.context import Ctx
from bot.application.tournament import by_person, format_of, game_of, state_of
from db.models import Season, Tournament
from db.repo import Repo
from db.status import EventStatus, PlayerStatus, TableState
from engine.errors import EngineError
from engine.formats.seeding import RATING as SEED_BY_RATING
from engine.ratings import (
    NEW,
    PROVISIONAL_HANDS,
    Encounter,
    EventResult,
    Ledger,
    Rating,
    leaderboard,
    sides,
)
from engine.seasons import RATING, place_points

_LEDGERS: dict[tuple[int, str], Ledger] = {}


def event_result(t: Tournament) -> EventResult:
    """Every rated hand of one event: its confirmed tables, hand by hand."""
    game = game_of(t)
    encounters: list[Encounter] = []
    for r in t.rounds:
        for row in r.tables:
            live = next((rep for rep in row.reports if rep.live), None)
            if row.status != TableState.CONFIRMED or live is None:
                continue
            try:
                hands: Sequence[tuple[Decimal, ...]] = game.parse(
                    live.text, len(row.seats)
                ).per_hand
            except EngineError:  # an organiser's total the grammar no longer takes
                hands = (tuple(Decimal(s) for s in live.scores),)
            for hand in hands:
                enc = sides(tuple(row.seats), hand, game.partners, game.rating_by_score)
                if enc is not None:
                    encounters.append(enc)
    return EventResult(t.id, tuple(encounters))


def rated(events: Sequence[Tournament]) -> list[Tournament]:
    """The events that count towards ratings: every one but the cancelled (an event
    called off does not stand; docs/rules/ratings.md#cancelled)."""
    return [t for t in events if t.status != EventStatus.CANCELLED]


async def ledger(repo: Repo, chat_id: int, game: str) -> Ledger:
    """The chat's ratings for ``game``, brought up to date with its stored events (a
    cancelled event leaves the ledger: its hands are no longer rated)."""
    events = rated(await repo.chat_events(chat_id, game))
    led = _LEDGERS.setdefault((chat_id, game), Ledger())
    for ev in set(led.events) - {t.id for t in events}:
        led.remove(ev)
    for t in events:
        led.put(event_result(t))
    return led


def names(events: Sequence[Tournament]) -> dict[int, str]:
    """Each player's name as of their latest event in the chat."""
    return {p.user_id: p.name for t in events for p in t.players}


def places(t: Tournament) -> dict[int, int]:
    """Final place of everyone who played a finished event (a substitute and the one
    they replaced share their place's)."""
    return by_person(t, {s.player: s.rank for s in format_of(t).standings(state_of(t))})


def rated_order(led: Ledger, players: Sequence[int]) -> list[int]:
    """The rated players among ``players``, strongest first (seeding by rating)."""
    wanted = set(players)
    return [p for p, _ in leaderboard(led.ratings()) if p in wanted]


def change(before: dict[int, Rating], after: dict[int, Rating], player: int) -> tuple[int, int]:
    """(before, after) displayed figures of a player around one event."""
    return before.get(player, NEW).display, after.get(player, NEW).display


async def season_events(repo: Repo, season: Season) -> list[Tournament]:
    """The season's finished events, oldest first."""
    return [
        t
        for t in await repo.chat_events(season.chat_id)
        if t.id > season.since_event and t.status == EventStatus.FINISHED
    ]


async def season_points(
    repo: Repo, season: Season, events: Sequence[Tournament]
) -> list[dict[int, tuple[int, Decimal]]]:
    """Per event: player → (place, season points) under the season's scoring."""
    out: list[dict[int, tuple[int, Decimal]]] = []
    for t in events:
        placed = places(t)
        if season.scoring == RATING:
            before, after = (await ledger(repo, t.chat_id, t.game)).around(t.id)
            gained = {p: change(before, after, p) for p in placed}
            out.append({p: (placed[p], Decimal(b - a)) for p, (a, b) in gained.items()})
        else:
            out.append({p: (n, place_points(season.scoring, n)) for p, n in placed.items()})
    return out


async def announce_changes(ctx: Ctx, t: Tournament, placed: Mapping[int, int]) -> None:
    """After the final announcement: each rated player's figure before → after this
    event, the newly rated with their first figure, and the provisional apart, unnumbered.
    ``placed``: each player's final place, as the announcement ranked them.

    Queued as an announcement, so it cannot overtake the 🏁 message queued before it."""
    before, after = (await ledger(ctx.uow.repo, t.chat_id, t.game)).around(t.id)
    if not after:
        return
    who = {p.user_id: p.name for p in t.players}
    lines, unrated = [], []
    for p in sorted((p for p in placed if p in after), key=lambda p: placed[p]):
        name, was, now = who.get(p, str(p)), before.get(p, NEW), after[p]
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
    led = await ledger(ctx.uow.repo, t.chat_id, t.game)
    return rated_order(led, [p.user_id for p in t.players if p.status == PlayerStatus.ACTIVE])


def signed(delta: int) -> str:
    return f"+{delta}" if delta >= 0 else str(delta)

"""Ratings and places are kept, not folded again on every read (docs/rules/ratings.md#kept),
and what is kept is what a replay of the whole history says: a generated history of one
group (two topics, so events run side by side; players' and organisers' reports, fixes
of finished events after later ones were played, undos, cancelled events, two seasons)
is compared, figure by figure, with a fold of every stored report from the first event
and with each finished event ranked again."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from bot.application.ratings import after, before, event_result
from bot.application.tournament import by_person, format_of, state_of
from db.models import EventRating, Placing, PlayerRating, Season, Tournament
from db.repo import WHOLE, Repo
from db.status import EventStatus
from engine.ratings import replay
from engine.seasons import RATING, place_points, ranked_season, season_table
from tests.handlers.memory import Chats

GROUP, ADMIN = -104100, 1
POOL = list(range(2001, 2011))
TOPICS = (11, 12)


async def seats_now(chats: Chats, t_id: int) -> list[list[int]]:
    """The latest round's tables of event ``t_id``: their seats, by table number."""
    async with chats.sessionmaker() as session:
        rows = await session.execute(
            text(
                "SELECT tables.seats FROM tables JOIN rounds ON rounds.id = tables.round_id"
                " WHERE rounds.tournament_id = :t AND rounds.number ="
                " (SELECT max(number) FROM rounds WHERE tournament_id = :t)"
                " ORDER BY tables.number"
            ),
            {"t": t_id},
        )
        return [list(s) if not isinstance(s, str) else eval(s) for (s,) in rows.all()]


async def status_of(chats: Chats, t_id: int) -> str:
    async with chats.sessionmaker() as session:
        found = await session.scalar(select(Tournament.status).where(Tournament.id == t_id))
        return str(found)


def hand(seats: list[int], rng: random.Random) -> str:
    """One Big Two hand: one seat out (0 cards), the others left with a few."""
    left = rng.sample(range(1, 14), len(seats))
    left[rng.randrange(len(seats))] = 0
    return " ".join(f"{'ABCD'[i]}{n}" for i, n in enumerate(left))


def result(seats: list[int], rng: random.Random) -> str:
    return "; ".join(hand(seats, rng) for _ in range(rng.randint(1, 3)))


async def play(chats: Chats, rng: random.Random, topic: int, k: int) -> tuple[int, bool]:
    """One event in ``topic``: reported by players or the organiser, some results fixed
    or fixed and undone, some events called off midway. Its id, and whether it stands."""
    say = chats.says
    await say(GROUP, ADMIN, f"/new bigtwo knockout Cup{k}", topic)
    for uid in rng.sample(POOL, rng.choice((4, 8))):
        await say(GROUP, uid, "/join", topic)
    await say(GROUP, ADMIN, "/draw", topic)
    async with chats.sessionmaker() as session:
        t_id = int(await session.scalar(select(Tournament.id).order_by(Tournament.id.desc())) or 0)
    for number in range(1, 10):
        await say(GROUP, ADMIN, "/round", topic)
        tables = await seats_now(chats, t_id)
        for n, seats in enumerate(tables, 1):
            if rng.random() < 0.5:
                await say(GROUP, seats[0], f"/report {n} {result(seats, rng)}", topic)
                await say(GROUP, seats[1], "/confirm", topic)
            else:
                await say(GROUP, ADMIN, f"/report {n} {result(seats, rng)}", topic)
        running = await status_of(chats, t_id) == EventStatus.RUNNING
        if number == 1 and running and rng.random() < 0.3:
            await say(GROUP, ADMIN, "/cancel yes", topic)
            assert await status_of(chats, t_id) == EventStatus.CANCELLED
            return t_id, False
        if rng.random() < 0.4:  # the last table corrected (and maybe taken back)
            await say(GROUP, ADMIN, f"/fix {len(tables)} {result(tables[-1], rng)}", topic)
            if rng.random() < 0.5:
                await say(GROUP, ADMIN, "/undo", topic)
        if await status_of(chats, t_id) == EventStatus.FINISHED:
            return t_id, True
    raise AssertionError("the event did not finish")


async def fix_finished(chats: Chats, rng: random.Random, topic: int, t_id: int) -> None:
    """An organiser corrects the final of ``topic``'s finished event, after later events
    were played in the other topic; sometimes takes it back."""
    tables = await seats_now(chats, t_id)
    await chats.says(GROUP, ADMIN, f"/fix 1 {result(tables[0], rng)}", topic)
    if rng.random() < 0.5:
        await chats.says(GROUP, ADMIN, "/undo", topic)
    while await status_of(chats, t_id) == EventStatus.RUNNING:  # a tie the fix made: played off
        await chats.says(GROUP, ADMIN, "/round", topic)
        for n, seats in enumerate(await seats_now(chats, t_id), 1):
            await chats.says(GROUP, ADMIN, f"/report {n} {result(seats, rng)}", topic)
    assert await status_of(chats, t_id) == EventStatus.FINISHED


async def history(chats: Chats, seed: int) -> None:
    rng = random.Random(seed)
    chats.forums.add(GROUP)
    chats.user(ADMIN, "Org", lang="en")
    for uid in POOL:
        chats.user(uid, f"P{uid}", lang="en")
    chats.admins(GROUP, ADMIN)
    await chats.says(GROUP, ADMIN, "/season start Spring rating", TOPICS[0])
    latest: dict[int, int] = {}
    for k in range(1, 13):
        topic = TOPICS[k % 2]
        if k == 7:
            await chats.says(GROUP, ADMIN, "/season start Summer 10/7/5/3/1", topic)
        t_id, stands = await play(chats, rng, topic, k)
        if stands:
            latest[topic] = t_id
        other = TOPICS[(k + 1) % 2]
        if other in latest and rng.random() < 0.5:  # an older event, later ones played since
            await fix_finished(chats, rng, other, latest[other])


async def kept_and_replayed(chats: Chats) -> None:
    """Every kept figure equals the whole history's replay; every kept place, the
    event ranked again; every season point, the season's scoring of them."""
    async with chats.sessionmaker() as session:
        events = list(
            await session.scalars(
                select(Tournament).where(Tournament.chat_id == GROUP).options(*WHOLE)
            )
        )
        standing = [t for t in events if t.status in (EventStatus.RUNNING, EventStatus.FINISHED)]
        replayed = replay(event_result(t) for t in standing)
        kept = {r.user_id: r for r in await session.scalars(select(PlayerRating))}
        assert kept.keys() == replayed.keys()
        for p, r in replayed.items():
            assert (kept[p].games, round(kept[p].value)) == (r.games, r.display)
            assert kept[p].value == pytest.approx(r.value, abs=1e-9)
        # Each event's snapshot is the replay up to it.
        snapshots = list(await session.scalars(select(EventRating)))
        for t in standing:
            upto = replay(event_result(e) for e in standing if e.id <= t.id)
            mine = {r.user_id: r for r in snapshots if r.tournament_id == t.id}
            assert mine.keys() == {
                p for enc in event_result(t).encounters for s in enc.teams for p in s
            }
            for p, row in mine.items():
                assert after(row).games == upto[p].games
                assert after(row).value == pytest.approx(upto[p].value, abs=1e-9)
        assert {r.tournament_id for r in snapshots} <= {t.id for t in standing}

        seasons = list(await session.scalars(select(Season).order_by(Season.id)))
        placings = list(await session.scalars(select(Placing)))
        for t in events:
            rows = {r.user_id: r for r in placings if r.tournament_id == t.id}
            if t.status != EventStatus.FINISHED:
                assert not rows, t.title
                continue
            ranks = {s.player: s.rank for s in format_of(t).standings(state_of(t))}
            placed = by_person(t, ranks)
            assert {p: r.place for p, r in rows.items() if r.place is not None} == placed
            season = next((s for s in reversed(seasons) if s.since_event < t.id), None)
            for p, row in rows.items():
                if season is None or row.place is None:
                    assert row.season_points is None
                elif season.scoring == RATING:
                    mine = next(
                        (r for r in snapshots if (r.tournament_id, r.user_id) == (t.id, p)), None
                    )
                    gained = after(mine).display - before(mine).display if mine else 0
                    assert row.season_points == Decimal(gained)
                else:
                    assert row.season_points == place_points(season.scoring, row.place)
        if seasons:
            await season_summed(session, seasons[-1], placings)


async def season_summed(session: AsyncSession, season: Season, placings: list[Placing]) -> None:
    """The season table, summed by the database, is the engine's sum of its events."""
    of_event: dict[int, dict[int, tuple[int, Decimal]]] = {}
    for row in placings:
        if row.season_id == season.id and row.place is not None:
            assert row.season_points is not None
            of_event.setdefault(row.tournament_id, {})[row.user_id] = (row.place, row.season_points)
    events, totals = await Repo(session).season_totals(season.id)
    assert events == len(of_event) > 0
    summed = ranked_season({p: line[:3] for p, line in totals.items()})
    assert summed == season_table(list(of_event.values()))


@pytest.mark.parametrize("seed", [1, 2])
async def test_kept_ratings_and_places_equal_a_replay_of_the_whole_history(
    chats: Chats, seed: int
) -> None:
    await history(chats, seed)
    await kept_and_replayed(chats)


async def test_a_group_that_becomes_a_supergroup_keeps_its_ratings_and_places(
    chats: Chats,
) -> None:
    """The kept rows move with the events to the supergroup's id: /rating, /me there say
    what they said in the group."""
    chats.forums.add(GROUP)
    chats.user(ADMIN, "Org", lang="en")
    for uid in POOL:
        chats.user(uid, f"P{uid}", lang="en")
    chats.admins(GROUP, ADMIN)
    await play(chats, random.Random(5), TOPICS[0], 1)
    said = [await chats.says(GROUP, ADMIN, "/rating"), await chats.says(GROUP, POOL[0], "/me")]
    new = GROUP * 100
    async with chats.sessionmaker() as session, session.begin():
        await Repo(session).migrate_chat(GROUP, new)
    chats.admins(new, ADMIN)
    chats.forums.add(new)
    assert [await chats.says(new, ADMIN, "/rating"), await chats.says(new, POOL[0], "/me")] == said


async def test_a_result_of_an_earlier_event_moves_a_later_one_played_meanwhile(
    chats: Chats,
) -> None:
    """Two events side by side in two topics: the later one finishes first, then the
    earlier one's table is reported. Ratings go in event order, so the later event is
    reckoned again from the ratings the earlier one now leaves."""
    chats.forums.add(GROUP)
    chats.user(ADMIN, "Org", lang="en")
    for uid in POOL:
        chats.user(uid, f"P{uid}", lang="en")
    chats.admins(GROUP, ADMIN)
    rng = random.Random(9)
    ids = []
    for k, topic in enumerate(TOPICS, 1):
        await chats.says(GROUP, ADMIN, f"/new bigtwo knockout Side{k}", topic)
        for uid in POOL[:4]:
            await chats.says(GROUP, uid, "/join", topic)
        await chats.says(GROUP, ADMIN, "/draw", topic)
        await chats.says(GROUP, ADMIN, "/round", topic)
        async with chats.sessionmaker() as session:
            ids.append(int(await session.scalar(select(func.max(Tournament.id))) or 0))
    for t_id, topic in reversed(list(zip(ids, TOPICS, strict=True))):  # the later one first
        (seats,) = await seats_now(chats, t_id)
        await chats.says(GROUP, ADMIN, f"/report 1 {result(seats, rng)}", topic)
        assert await status_of(chats, t_id) == EventStatus.FINISHED
    await kept_and_replayed(chats)

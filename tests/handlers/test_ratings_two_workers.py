"""Scale-out: two workers (two cores, each with its own connections, as two processes have)
on one database show the same ratings after a /fix of an old event, on SQLite and
PostgreSQL. Ratings are rows written with the result, so neither keeps a figure of its
own that the other's correction could leave behind (docs/rules/ratings.md#kept)."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path

import pytest
import pytest_asyncio

from db.migrate import upgrade
from db.session import make_engine
from tests.cluster import TEST_DATABASE_URL, needs_postgres, scratch_database
from tests.handlers.memory import Chats
from tests.handlers.test_ratings_kept import (
    ADMIN,
    GROUP,
    POOL,
    TOPICS,
    fix_finished,
    kept_and_replayed,
    play,
)

START = datetime(2026, 11, 2, 1, 0, tzinfo=UTC)


async def workers(url: str) -> tuple[Chats, Chats]:
    """Two cores on the database at ``url``, each with its engine; their update ids apart."""
    first, second = Chats(make_engine(url), START), Chats(make_engine(url), START)
    second._updates = itertools.count(10**6)
    for chats in (first, second):
        chats.forums.add(GROUP)
        chats.user(ADMIN, "Org", lang="en")
        for uid in POOL:
            chats.user(uid, f"P{uid}", lang="en")
        chats.admins(GROUP, ADMIN)
    return first, second


BACKENDS = ["sqlite", pytest.param("postgres", marks=needs_postgres)]


@asynccontextmanager
async def migrated(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated database of the test's own (SQLite, or PostgreSQL beside
    ``TEST_DATABASE_URL``): its URL."""
    async with (
        nullcontext(f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}")
        if backend == "sqlite"
        else scratch_database(TEST_DATABASE_URL, "ratings")
    ) as url:
        engine = make_engine(url)
        await upgrade(engine)
        await engine.dispose()
        yield url


@pytest_asyncio.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with migrated(request.param, tmp_path) as url:
        yield url


async def test_two_workers_show_the_same_ratings_after_a_fix_of_an_old_event(
    database: str,
) -> None:
    one, two = await workers(database)
    try:
        rng = random.Random(7)
        old, _ = await play(one, rng, TOPICS[0], 1)  # finished in the first topic …
        await play(two, rng, TOPICS[1], 2)  # … then one in the other, by the other worker
        await play(one, rng, TOPICS[1], 3)
        seen = await two.says(GROUP, ADMIN, "/rating")
        await fix_finished(one, rng, TOPICS[0], old)  # the first event's final corrected
        board = await two.says(GROUP, ADMIN, "/rating")
        assert board != seen  # the correction moved the ratings the other worker shows
        assert board == await one.says(GROUP, ADMIN, "/rating")
        player = POOL[0]
        assert await two.says(GROUP, player, "/me") == await one.says(GROUP, player, "/me")
        await kept_and_replayed(two)  # and they are the whole history's replay
    finally:
        await one.engine.dispose()
        await two.engine.dispose()

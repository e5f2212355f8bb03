"""Schema changes arrive as Alembic revisions that upgrade a live database in place."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

from db.migrate import HEAD as KNOWN_HEAD
from db.migrate import alembic_config, revision, upgrade
from db.models import Base
from db.session import make_engine
from tests.handlers.memory import Chats
from tests.handlers.test_ratings_kept import ADMIN, GROUP, POOL, TOPICS, history, kept_and_replayed
from tests.handlers.test_ratings_two_workers import BACKENDS, START, migrated

HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def tournament(game: str, fmt: str) -> str:
    return (
        "INSERT INTO tournaments (id, chat_id, thread_id, game, format, title, options, status,"
        f" seed, creator_id) VALUES (1, -1, 0, '{game}', '{fmt}', 'Old', '{{}}', 'running',"
        " 'ab', 7)"
    )


@asynccontextmanager
async def database(path: Path, revision: str, *rows: str) -> AsyncIterator[AsyncEngine]:
    """A SQLite database at ``revision`` holding ``rows`` (INSERT statements)."""
    engine = make_engine(f"sqlite+aiosqlite:///{path}")
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(alembic_config(c), revision))
            for row in rows:
                await conn.execute(text(row))
        yield engine
    finally:
        await engine.dispose()


async def test_upgrade_from_the_first_revision_keeps_penalties_and_fills_their_kind(
    tmp_path: Path,
) -> None:
    penalty = (
        "INSERT INTO penalties (tournament_id, user_id, round_number, points, reason, by_id)"
        " VALUES (1, 42, 1, 1.5, 'exposed', 7)"
    )
    async with database(
        tmp_path / "old.db", "0001", tournament("bigtwo", "knockout"), penalty
    ) as engine:
        await upgrade(engine)  # what `tourbot run` does at start
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT points, kind FROM penalties"))).one()
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
    assert (float(row.points), row.kind) == (1.5, "points")
    assert version == HEAD


async def test_upgrade_from_0002_gives_a_round_in_play_check_in_and_partner_columns(
    tmp_path: Path,
) -> None:
    """0003 (check-in) and 0004 (partners) upgrade a database with a round in play:
    nobody is present yet and nobody has asked for a partner."""
    rows = (
        tournament("xiangqi", "swiss"),
        "INSERT INTO rounds (id, tournament_id, number, stage, seed_label, status, byes, notes)"
        " VALUES (1, 1, 1, '', 'round1', 'open', '[]', '[]')",
        "INSERT INTO tables (round_id, number, seats, status, forfeited)"
        " VALUES (1, 1, '[5, 6]', 'pending', '[]')",
        "INSERT INTO players (tournament_id, user_id, name, status) VALUES (1, 5, 'Ann', 'active')",
    )
    async with database(tmp_path / "old.db", "0002", *rows) as engine:
        await upgrade(engine)
        async with engine.connect() as conn:
            table = (await conn.execute(text("SELECT seats, present FROM tables"))).one()
            until = (await conn.execute(text("SELECT checkin_until FROM rounds"))).scalar()
            partners = (await conn.execute(text("SELECT partners FROM players"))).scalar()
    assert (table.seats, table.present, until, partners) == ("[5, 6]", "[]", None, "[]")


async def test_the_migrations_build_exactly_the_models_schema(tmp_path: Path) -> None:
    """A model change without its revision (or a revision that differs) fails here."""
    async with database(tmp_path / "new.db", "head") as engine, engine.connect() as conn:
        diff = await conn.run_sync(
            lambda c: compare_metadata(MigrationContext.configure(c), Base.metadata)
        )
    assert diff == []


async def test_the_known_head_is_alembics_and_a_database_there_is_left_alone(
    tmp_path: Path,
) -> None:
    """``upgrade`` skips Alembic (and its memory) for a database at ``db.migrate.HEAD``,
    so that constant must name the newest revision: a new revision without it would
    leave every database unmigrated."""
    assert KNOWN_HEAD == HEAD
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}")
    try:
        assert await revision(engine) is None
        await upgrade(engine)
        assert await revision(engine) == HEAD
    finally:
        await engine.dispose()
    # At head, a fresh interpreter (as ``tourbot run`` starts) migrates without Alembic.
    assert _alembic_left_after("upgrade", tmp_path / "fresh.db") == "False"


async def test_the_bot_migrates_a_new_database_in_a_child_process(tmp_path: Path) -> None:
    """The bot's first start on a new database leaves no Alembic in its memory
    (``upgrade_apart``), and the database is at head."""
    assert _alembic_left_after("upgrade_apart", tmp_path / "new.db") == "False"
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")
    try:
        assert await revision(engine) == KNOWN_HEAD
    finally:
        await engine.dispose()


def _alembic_left_after(function: str, path: Path) -> str:
    """In a fresh interpreter (the tests here have imported Alembic long ago): whether
    ``db.migrate.<function>`` of the database at ``path`` leaves Alembic imported."""
    script = (
        "import asyncio, sys; from db.session import make_engine;"
        f" from db.migrate import {function};"
        f" asyncio.run({function}(make_engine('sqlite+aiosqlite:///{path}')));"
        " print('alembic' in sys.modules)"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    return run.stdout.strip()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_0018_keeps_the_ratings_and_places_of_the_events_played_before_it(
    tmp_path: Path, backend: str
) -> None:
    """A group's history played (two topics, fixes of finished events, undos, a
    cancelled event, two seasons), then the database taken back to 0017: the upgrade
    fills the ratings by one replay, and the places are kept at the first read, so
    /rating, /me, /season and /export season say what they said before, and what is kept
    is the history's replay."""
    async with migrated(backend, tmp_path) as url:
        await _upgraded_history(Chats(make_engine(url), START))


async def _upgraded_history(chats: Chats) -> None:
    try:
        await history(chats, 3)
        said = await _reads(chats)
        async with chats.engine.begin() as conn:
            await conn.run_sync(lambda c: command.downgrade(alembic_config(c), "0017_refusals"))
            assert "event_ratings" not in await conn.run_sync(
                lambda c: inspect(c).get_table_names()
            )
        await upgrade(chats.engine)
        async with chats.engine.connect() as conn:
            kept = (await conn.execute(text("SELECT count(*) FROM event_results"))).scalar()
        assert kept == 0  # the bot ranks them once, at the first read
        assert await _reads(chats) == said
        await kept_and_replayed(chats)
    finally:
        await chats.engine.dispose()


async def _reads(chats: Chats) -> list[str]:
    """What the group reads of its history: the leaderboard, each player's /me, the
    season, its CSV."""
    out = [await chats.says(GROUP, ADMIN, "/rating", TOPICS[0])]
    out += [await chats.says(GROUP, uid, "/me", TOPICS[0]) for uid in POOL]
    out.append(await chats.says(GROUP, ADMIN, "/season", TOPICS[0]))
    await chats.says(GROUP, ADMIN, "/export season", TOPICS[0])
    document = chats.last(GROUP)
    assert document.kind == "document" and document.file is not None
    return [*out, document.file.decode()]

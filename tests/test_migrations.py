"""Schema changes arrive as Alembic revisions that upgrade a live database in place."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import text

from db.migrate import alembic_config, upgrade
from db.session import make_engine


async def test_upgrade_from_the_first_revision_keeps_penalties_and_fills_their_kind(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
    try:
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(alembic_config(c), "0001"))
            await conn.execute(
                text(
                    "INSERT INTO tournaments (id, chat_id, thread_id, game, format, title, options,"
                    " status, seed, creator_id) VALUES (1, -1, 0, 'bigtwo', 'knockout', 'Old',"
                    " '{}', 'running', 'ab', 7)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO penalties (tournament_id, user_id, round_number, points, reason,"
                    " by_id) VALUES (1, 42, 1, 1.5, 'exposed', 7)"
                )
            )
        await upgrade(engine)  # what `tourbot run` does at start
        async with engine.connect() as conn:
            row = (await conn.execute(text("SELECT points, kind FROM penalties"))).one()
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        assert (float(row.points), row.kind) == (1.5, "points")
        assert version == "0002"
    finally:
        await engine.dispose()

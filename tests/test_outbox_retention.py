"""Retention on both databases (``db.retention``, docs/operations.md#retention): sent
outbox rows and handled update ids older than the window go, in batches; what waits to
be sent and whatever is newer stays; a tagged message's id is kept on its owner first.
The whole story through the core (a live standings message still edited after its row
went): tests/handlers/test_storage.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import pytest_asyncio
from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from db.migrate import upgrade
from db.models import AuditEntry, OutboxMessage, ProcessedUpdate, Tournament
from db.retention import BATCH, kept_message, prune
from db.session import make_engine
from tests.cluster import TEST_DATABASE_URL, needs_postgres, scratch_database

CHAT = -100555
NOW = datetime.now(UTC)
OLD, NEW = NOW - timedelta(days=15), NOW - timedelta(days=13)


@pytest_asyncio.fixture(params=["sqlite", pytest.param("postgres", marks=needs_postgres)])
async def engine(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[AsyncEngine]:
    if request.param == "sqlite":
        made = make_engine(f"sqlite+aiosqlite:///{tmp_path}/retention.db")
        await upgrade(made)
        yield made
        await made.dispose()
        return
    async with scratch_database(TEST_DATABASE_URL, "retention") as url:
        made = make_engine(url)
        await upgrade(made)
        yield made
        await made.dispose()


def sent(at: datetime, **fields: object) -> dict[str, object]:
    row = {"chat_id": CHAT, "kind": "text", "text": "", "status": "sent", "tag": None}
    row["message_id"] = 1
    return row | {"created_at": at} | fields


async def count(engine: AsyncEngine, model: type[object]) -> int:
    async with engine.connect() as conn:
        return int(await conn.scalar(select(func.count()).select_from(model)) or 0)


async def test_what_is_older_than_the_window_goes_and_tagged_messages_keep_their_ids(
    engine: AsyncEngine,
) -> None:
    async with engine.begin() as conn:
        t = (
            await conn.execute(
                insert(Tournament).returning(Tournament.id),
                {
                    "chat_id": CHAT,
                    "game": "bigtwo",
                    "format": "knockout",
                    "title": "Cup",
                    "seed": "s",
                    "creator_id": 1,
                },
            )
        ).scalar_one()
        old = [sent(OLD, text=f"old {i}") for i in range(2 * BATCH + 100)]
        old += [
            sent(OLD, status="superseded", message_id=None),
            sent(OLD, status="failed", message_id=None),
            sent(OLD, tag=f"live:{t}", message_id=41),
            sent(OLD, tag=f"signup:{t}", message_id=7),
            sent(OLD, tag=f"signup:{t}", message_id=8),  # posted again: the one edits find
        ]
        await conn.execute(insert(OutboxMessage), old)
        await conn.execute(
            insert(OutboxMessage),
            [sent(OLD, status="queued", message_id=None), sent(NEW, text="new")],
        )
        updates = [{"update_id": i, "at": OLD} for i in range(1, BATCH + 300)]
        updates += [{"update_id": -5, "at": OLD}, {"update_id": -6, "at": NEW}]
        updates += [{"update_id": 10**6, "at": NEW}]
        await conn.execute(insert(ProcessedUpdate), updates)
        await conn.execute(
            insert(AuditEntry), {"at": OLD, "chat_id": CHAT, "actor_id": 1, "action": "new"}
        )

    pruned = await prune(engine, NOW - timedelta(days=14))

    assert pruned == (len(old), BATCH + 300)
    async with engine.connect() as conn:
        left = (await conn.execute(select(OutboxMessage.text, OutboxMessage.status))).all()
        kept = (
            await conn.execute(select(Tournament.live_message_id, Tournament.signup_message_id))
        ).one()
        ids = set((await conn.execute(select(ProcessedUpdate.update_id))).scalars())
    assert sorted(left) == [("", "queued"), ("new", "sent")]  # waiting, and newer
    assert tuple(kept) == (41, 8)
    async with engine.connect() as conn:  # what an edit queued before the pruning finds
        found = [await kept_message(conn, f"{kind}:{t}") for kind in ("live", "signup")]
        assert found == [(41, False), (8, False)]  # this event's standings were not pinned
        assert await kept_message(conn, f"report:{t}") == (None, False)
    assert ids == {-6, 10**6}
    assert await count(engine, AuditEntry) == 1  # the events' history stays

"""Handler-level fixtures: one migrated SQLite file per run, copied for every test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from db.migrate import upgrade
from db.session import make_engine
from tests.handlers.harness import MemoryHarness, memory_harness
from tests.handlers.memory import Chats, open_chats


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"

    async def build() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        await upgrade(engine)
        await engine.dispose()

    asyncio.run(build())
    return path


@pytest_asyncio.fixture
async def chats(migrated: Path, tmp_path: Path) -> AsyncIterator[Chats]:
    bot = await open_chats(migrated, tmp_path)
    try:
        yield bot
    finally:
        await bot.engine.dispose()


@pytest_asyncio.fixture
async def memory_bot(migrated: Path, tmp_path: Path) -> AsyncIterator[MemoryHarness]:
    """An e2e test body's ``bot``, in memory."""
    bot = await memory_harness(migrated, tmp_path)
    try:
        yield bot
    finally:
        await bot.engine.dispose()

"""End-to-end fixtures: a test runs on both backends and, where available, both databases,
unless it names its own. Scenario bodies also run in memory
(``tests/handlers/test_e2e_bodies.py``), so over HTTP one run per backend per area is
enough; the rest pick one backend and one database each."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness

PG_URL = os.environ.get("TEST_DATABASE_URL", "")


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tourbot.db'}"
    if not PG_URL:
        pytest.skip("TEST_DATABASE_URL is not set: PostgreSQL tests skipped")
    engine = create_async_engine(PG_URL)
    async with engine.begin() as conn:  # a clean schema for every test
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    return PG_URL


@pytest.fixture(params=["aiogram", "ptb"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest_asyncio.fixture
async def bot(botapi: BotAPIServer, backend: str, database_url: str) -> AsyncIterator[Harness]:
    harness = Harness(botapi, backend, database_url)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()

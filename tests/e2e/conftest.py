"""End-to-end fixtures. Scenario bodies also run in memory (``tests/handlers/test_e2e_bodies.py``)
and the adapters' parity is tested apart (``tests/test_botapi_server.py``), so over HTTP a test
runs in two setups, aiogram on SQLite and PTB on PostgreSQL, unless it names its own backend
or database (a test naming only one of them runs on both values of the other). Most name one
backend and one database, alternating the backend across the suite.

Each database is migrated like the bot would find it: SQLite copied from one file migrated
per run, PostgreSQL a clean schema migrated per test. Under pytest-xdist every worker has a
PostgreSQL database of its own beside ``TEST_DATABASE_URL`` (``<name>_gw0_<run>``…: the run's
id keeps two runs on one server, a branch's and CI's, out of each other's databases)."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

import bot.app as app
from bot.presentation import pictures
from db.migrate import upgrade_url
from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness

PG_URL = os.environ.get("TEST_DATABASE_URL", "")
BACKENDS = ["aiogram", "ptb"]
DATABASES = ["sqlite", "postgres"]
# The setups of a test that names neither: each backend once, each database once.
DIAGONAL = [("aiogram", "sqlite"), ("ptb", "postgres")]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise ``backend`` and ``database_url`` where the test does not itself."""
    if not {"backend", "database_url"} <= set(metafunc.fixturenames):
        return  # a test with a bot of its own (test_live_page.py) or none
    named = {
        name
        for mark in metafunc.definition.iter_markers("parametrize")
        for name in _argnames(mark.args[0])
    }
    if not {"backend", "database_url"} & named:
        metafunc.parametrize(
            ("backend", "database_url"),
            DIAGONAL,
            indirect=["database_url"],
            ids=[f"{backend}-{database}" for backend, database in DIAGONAL],
        )
    elif "backend" not in named:
        metafunc.parametrize("backend", BACKENDS)
    elif "database_url" not in named:
        metafunc.parametrize("database_url", DATABASES, indirect=True)


def _argnames(names: str | list[str] | tuple[str, ...]) -> list[str]:
    if isinstance(names, str):
        return [name.strip() for name in names.split(",")]
    return list(names)


@pytest.fixture(scope="session", autouse=True)
def one_drawing_process() -> Iterator[None]:
    """One drawing process for every bot this worker starts, ended with the session: a
    bot's stop ends it (``App.stop``), and each test's first picture would wait for a
    fresh process to start and import the charts (about 1 s of CPU and 2 s of waiting,
    in nearly every test). The in-memory tests (tests/handlers) share theirs the same way;
    the drawing process's own start and end are tested in tests/test_pictures.py."""
    kept = pytest.MonkeyPatch()
    kept.setattr(app, "close_drawer", lambda: None)
    try:
        yield
    finally:
        kept.undo()
        pictures.close_drawer()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file migrated to the newest revision, for every test to copy."""
    path = tmp_path_factory.mktemp("e2e-template") / "tourbot.db"
    asyncio.run(upgrade_url(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``TEST_DATABASE_URL``; under xdist a database of this worker's own in this run beside
    it, dropped at the end (the workers' tests, or another run's on the same server, would
    otherwise drop each other's schema)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not PG_URL or not worker:
        yield PG_URL
        return
    base = make_url(PG_URL)
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
    name = f"{base.database}_{worker}_{run_id[:8]}"

    async def run(*statements: str) -> None:
        admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
        try:
            async with admin.connect() as conn:
                for statement in statements:
                    await conn.execute(text(statement))
        finally:
            await admin.dispose()

    asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
async def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path, postgres_url: str
) -> str:
    if request.param == "sqlite":
        path = tmp_path / "tourbot.db"
        shutil.copyfile(migrated_sqlite, path)
        return f"sqlite+aiosqlite:///{path}"
    url = postgres_url
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set: PostgreSQL tests skipped")
    engine = create_async_engine(url)
    async with engine.begin() as conn:  # a clean schema for every test
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    return url


@pytest.fixture
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

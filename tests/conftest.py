"""Shared pytest fixtures."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import matplotlib
import pytest
import pytest_asyncio
from matplotlib import font_manager
from sqlalchemy.ext.asyncio import async_sessionmaker

from charts import fonts
from db.migrate import upgrade
from db.session import make_engine, make_sessionmaker
from playground.botapi import BotAPIServer

# ---------------------------------------------------------------------------
# Local Telegram Bot API server (playground/botapi)
# ---------------------------------------------------------------------------

BOTAPI_TOKEN = "123456:TEST"


@pytest_asyncio.fixture
async def botapi() -> AsyncIterator[BotAPIServer]:
    """A started local Bot API server for bot ``@tourbot_bot`` (id 123456)."""
    server = BotAPIServer(token=BOTAPI_TOKEN, bot_id=123456, bot_username="tourbot_bot")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest_asyncio.fixture
async def sessionmaker(tmp_path: Path) -> AsyncIterator[async_sessionmaker[Any]]:
    """A migrated SQLite database of the test's own, as the outbox sender sees it."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'outbox.db'}")
    try:
        await upgrade(engine)
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


# ---------------------------------------------------------------------------
# Under pytest-xdist (``make test``) tests/engine/conftest.py, which prints how many
# whole events the simulation played, is loaded by the workers only: the count is
# summed from them and printed here
# ---------------------------------------------------------------------------

SIMULATION = "tests.engine.test_simulation"
PLAYED_BY_WORKERS: list[int] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    output: dict[str, Any] | None = getattr(session.config, "workeroutput", None)
    if output is not None and SIMULATION in sys.modules:
        output["simulation_played"] = list(sys.modules[SIMULATION].PLAYED)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    PLAYED_BY_WORKERS.extend(getattr(node, "workeroutput", {}).get("simulation_played", []))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if PLAYED_BY_WORKERS:
        terminalreporter.write_line(
            f"simulation: {sum(PLAYED_BY_WORKERS)} whole events played to the end"
        )


# ---------------------------------------------------------------------------
# Charts as on a fresh machine: only the font that ships with the package
# ---------------------------------------------------------------------------


def _forget_fonts() -> None:
    """Drop every font choice matplotlib and ``charts.fonts`` cached."""
    fonts.reset()
    font_manager.fontManager._findfont_cached.cache_clear()
    font_manager._get_font.cache_clear()


@pytest.fixture
def packaged_font_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Charts drawn as on a machine without any system font: the font lookup points at an
    empty folder and matplotlib forgets every font but its own bundled DejaVu, so CJK
    glyphs can come only from the font the package ships (yielded: its path)."""
    bundled = Path(matplotlib.get_data_path()).resolve()
    kept = [
        entry
        for entry in font_manager.fontManager.ttflist
        if Path(entry.fname).resolve().is_relative_to(bundled)
    ]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", kept)
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))
    _forget_fonts()
    try:
        yield fonts.find_cjk_font()
    finally:
        monkeypatch.undo()
        _forget_fonts()

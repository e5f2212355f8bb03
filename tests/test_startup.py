"""Start-up against a Bot API that refuses the token or does not answer: one clear line
and exit code 2, not a traceback (the set-up contract: `tourbot run` on a fresh machine); and
a start that does not wait for matplotlib."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import App
from bot.application.types import StartupError
from bot.cli import main
from bot.config import Settings
from playground.botapi import BotAPIServer


@pytest.mark.parametrize("backend", ["aiogram", "ptb"])
async def test_a_refused_token_stops_the_start_with_that_reason(
    botapi: BotAPIServer, backend: str, tmp_path: Path
) -> None:
    settings = Settings(
        bot_token="999:NOT-THE-TOKEN",
        bot_api_url=botapi.url,
        backend=backend,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'tourbot.db'}",
    )
    with pytest.raises(StartupError) as err:
        await App(settings).start()
    assert err.value.reason == "token"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("backend", ["aiogram", "ptb"])
def test_an_unreachable_bot_api_is_one_line_and_exit_code_2(
    backend: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("BOT_TOKEN", "123:abc")
    monkeypatch.setenv("BOT_BACKEND", backend)
    monkeypatch.setenv("BOT_API_URL", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'tourbot.db'}")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "did not answer" in err and "Traceback" not in err


def test_starting_the_bot_does_not_import_matplotlib() -> None:
    """matplotlib costs tens of megabytes and a second to import: the bot starts without
    it and imports it for the first picture (a fresh interpreter, since the tests here
    have long imported it)."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, bot.app; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    ).stdout
    assert "matplotlib" not in loaded
    assert "'alembic'" not in loaded  # imported only when a database needs migrating
    assert "'bot.app'" in loaded and "'charts.data'" in loaded  # the plain data, yes

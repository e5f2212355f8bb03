"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.botapi import BotAPIServer

# ---------------------------------------------------------------------------
# Local Telegram Bot API server (tests/botapi)
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

"""The playground page's own routes, without a bot: the CJK and emoji web fonts, and a
closed tab.

A page server alone starts in milliseconds; the browser test
(``test_playground_browser.py``) checks that the font is what Chromium draws with.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import AsyncIterator
from typing import Any, cast

import aiohttp
import pytest
from aiohttp import web
from fontTools.ttLib import TTFont

from playground import web as page_module
from playground import webfont
from playground.web import Page
from tests.emoji_font import used_emoji


@pytest.fixture
async def page_url() -> AsyncIterator[str]:
    """A page server on a free port; its Bot API side is never called here."""
    app = web.Application()
    Page(cast(Any, None), on_change=lambda: None).add_routes(app)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def test_the_page_gets_the_packaged_cjk_font_and_names_it(page_url: str) -> None:
    async with aiohttp.ClientSession(page_url) as http:
        async with http.get(webfont.PATH) as response:
            assert response.status == 200
            assert response.content_type == "font/woff"
            body = await response.read()
        css = await (await http.get("/static/style.css")).text()
    font = TTFont(io.BytesIO(body))
    assert font.flavor == "woff"
    assert font["name"].getDebugName(1) == "WenQuanYi Micro Hei"
    assert {ord(c) for c in "周五锄大地已报名第轮开始，。"} <= set(font.getBestCmap())
    assert f'url("{webfont.PATH}")' in css and '"tourbot CJK"' in css


async def test_the_page_gets_an_emoji_font_with_every_emoji_the_chat_shows(
    page_url: str,
) -> None:
    async with aiohttp.ClientSession(page_url) as http:
        async with http.get(webfont.EMOJI_PATH) as response:
            assert response.status == 200
            assert response.content_type == "font/woff"
            body = await response.read()
        css = await (await http.get("/static/style.css")).text()
    font = TTFont(io.BytesIO(body))
    assert font["name"].getDebugName(1) == "Noto Emoji"
    assert "Open Font License" in font["name"].getDebugName(13)
    used = used_emoji()
    assert {"📌", "✅", "⚠", "🏁", "👍", "🔒"} <= used
    missing = sorted(c for c in used if ord(c) not in font.getBestCmap())
    assert not missing, f"cut the emoji font again (tests/emoji_font.py): {missing}"
    assert f'url("{webfont.EMOJI_PATH}")' in css and '"tourbot emoji"' in css
    assert len(body) < 40_000  # the emoji tourbot says, not the 2 MB face


async def test_a_closed_tab_is_one_line_in_the_log(
    page_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(page_module, "KEEPALIVE", 0.05)  # the next write comes at once
    caplog.set_level(logging.INFO)
    host, port = page_url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"data: 0\n\n")
    assert b"text/event-stream" in head
    writer.close()  # the tab goes away
    await writer.wait_closed()

    deadline = time.monotonic() + 5
    while not [r for r in caplog.records if r.name == "playground.web"]:
        assert time.monotonic() < deadline, "the closed stream was never noticed"
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # room for anything else the close might log

    closed = [r for r in caplog.records if r.name == "playground.web"]
    assert [(r.levelno, r.getMessage()) for r in closed] == [
        (logging.INFO, "a page closed (127.0.0.1)")
    ]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]

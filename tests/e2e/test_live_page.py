"""The public live page in headless Chromium (Debian's; never a downloaded browser): the
projector view shows a confirmed result within 3 s without a reload and its round clock
counts down; a wrong token, and a revoked one, get 404 (and the open page says so)."""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness
from tests.test_playground_browser import CHROME_ARGS, CHROMEDRIVER, CHROMIUM

GROUP, ADMIN = -100950, 1
PLAYERS = list(range(951, 959))
NAMES = ["张伟", "李娜", "王芳", "刘洋", "陈静", "杨磊", "Mike Wong", "赵敏"]
LINK = re.compile(r"(http://\S+/e/[A-Za-z0-9_-]+)(?=\s)")

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="no Debian chromium + chromium-driver here (`make system-deps` installs them)",
)


@pytest_asyncio.fixture
async def bot(botapi: BotAPIServer, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot (aiogram, SQLite) serving its live pages on a free port."""
    harness = Harness(botapi, "aiogram", f"sqlite+aiosqlite:///{tmp_path / 'tourbot.db'}")
    harness.with_settings(web_port=0)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    options.add_argument("--window-size=1280,800")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


async def status(url: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status


async def test_projector_page_shows_a_result_without_reload_and_its_clock_counts(
    bot: Harness, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    async def run(fn: Callable[[], Any]) -> Any:
        """A blocking WebDriver call, off the loop that serves the page."""
        return await asyncio.to_thread(fn)

    async def until(check: Callable[[], Any], what: str, timeout: float = 10) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = await run(check)
            if found:
                return found
            await asyncio.sleep(0.1)
        body = await run(lambda: browser.find_element(By.TAG_NAME, "body").text)
        pytest.fail(f"waiting for {what}; the page shows: {body[:800]}")

    server = bot.server
    server.add_user(ADMIN, "组织者")
    for uid, name in zip(PLAYERS, NAMES, strict=True):
        server.add_user(uid, name)
    server.add_chat(GROUP, "工会群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 工会杯", "工会杯")
    for uid in PLAYERS:
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round 明天晚上8点", "第 1 轮开始")

    posted = await bot.says(GROUP, ADMIN, "/live", "大屏")
    assert posted.photo  # the link's QR code
    match = LINK.search(posted.body)
    assert match is not None, posted.body
    url = match.group(1)
    base = url.split("/e/")[0]
    assert await status(f"{base}/e/1-wrongsecret") == 404
    assert await status(f"{base}/e/zz-{url.rsplit('-', 1)[-1]}") == 404
    assert await status(f"{base}/e/font.woff") == 200  # the CJK web font, for a bare machine

    await run(lambda: browser.get(f"{url}?screen=1"))
    await until(
        lambda: len(browser.find_elements(By.CSS_SELECTOR, ".table[data-state=open]")) == 2,
        "both tables, still playing",
    )
    assert "screen" in await run(
        lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("class")
    )
    assert "工会杯" in await run(lambda: browser.find_element(By.ID, "title").text)
    first = await run(lambda: browser.find_element(By.ID, "clock").text)
    assert first.startswith("剩余")
    await until(lambda: browser.find_element(By.ID, "clock").text != first, "the clock to move")
    await run(lambda: browser.execute_script("window.sameDocument = true"))

    await bot.says(GROUP, ADMIN, "/report 1 A0 B1 C2 D3", "第 1 桌结果确认")
    confirmed_at = time.monotonic()
    await until(
        lambda: browser.find_elements(
            By.CSS_SELECTOR, ".table[data-table='1'][data-state=confirmed]"
        ),
        "table 1 reported",
        timeout=3,
    )
    assert time.monotonic() - confirmed_at < 3
    assert await run(lambda: browser.execute_script("return window.sameDocument === true"))
    standings = await run(lambda: browser.find_element(By.ID, "standings").text)
    assert all(name in standings for name in NAMES)  # everyone, ranked

    await bot.says(GROUP, ADMIN, "/live reset", "旧链接已失效")
    assert await status(url) == 404
    await until(lambda: browser.find_elements(By.ID, "gone"), "the open page to say so", 5)

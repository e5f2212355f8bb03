"""The Mini App in headless Chromium (Debian's; never a downloaded browser), launched as
a Telegram client launches it: the page at ``/app`` with the launch fragment, launch
data signed with the test bot's token, and the local Telegram's stand-in for
``telegram-web-app.js`` (``playground.botapi.webapp``).

On a 360 px phone, in Telegram's light and dark themes: the organiser opens the round
from the console with the date-time picker, fixes a table's result with the game's form
and forfeits another; a player reports with the form (checked by the engine as it is
filled in) and a tablemate confirms; each time the group shows the typed command's
message, and a report typed in the chat shows on the open console within 3 s. Forged,
expired and another chat's launch data are refused on the page. The page is in the
chat's language (zh, en) and draws Chinese with its own web font. A whole 16-player Big
Two event is then run from the console and the players' forms alone, sign-up aside, to
its champion.

``DOCS_SHOTS=1`` writes the screenshots the guide shows (docs/console.png,
docs/report-form.png).
"""

from __future__ import annotations

import asyncio
import io
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
import pytest_asyncio

from playground.botapi import BotAPIServer, SentMessage
from playground.botapi.webapp import DARK, LIGHT, SCRIPT_PATH, init_data, launch_url
from tests.e2e.harness import TOKEN, Harness, tables_of
from tests.test_playground_browser import CHROMEDRIVER, CHROMIUM, phone_browser

GROUP, OTHER, ADMIN, STRANGER = -100970, -100971, 1, 2
PHONE = (360, 740)
DOCS = Path(__file__).resolve().parents[2] / "docs"
ZONE = ZoneInfo("Asia/Shanghai")

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="no Debian chromium + chromium-driver here (`make system-deps` installs them)",
)


@pytest_asyncio.fixture
async def bot(botapi: BotAPIServer, backend: str, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot serving its pages and its Mini App (set up as ``MINIAPP_NAME=console``)."""
    harness = Harness(botapi, backend, f"sqlite+aiosqlite:///{tmp_path / 'tourbot.db'}")
    harness.with_settings(
        web_port=0, miniapp_name="console", miniapp_script=f"{botapi.url}{SCRIPT_PATH}"
    )
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from phone_browser(PHONE)


class MiniApp:
    """One browser playing Telegram's Mini App view for whichever user opens it."""

    def __init__(self, bot: Harness, browser: Any) -> None:
        self.bot, self.browser = bot, browser
        assert bot.app is not None
        self.base = bot.app.settings.public_url
        self.opened = 0

    async def run(self, fn: Callable[[], Any]) -> Any:
        """A blocking WebDriver call, off the loop that serves the page."""
        return await asyncio.to_thread(fn)

    async def until(self, check: Callable[[], Any], what: str, timeout: float = 15) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                found = await self.run(check)
            except Exception:  # a re-render replaced the element: look again
                found = None
            if found:
                return found
            await asyncio.sleep(0.1)
        shown = await self.run(lambda: self.browser.find_element("tag name", "body").text)
        pytest.fail(f"waiting for {what}; the page shows: {shown[:1200]}")

    async def open(
        self,
        uid: int,
        start: str,
        theme: dict[str, str] = LIGHT,
        signed: str | None = None,
        language: str = "zh",
    ) -> None:
        """Launch the Mini App as ``uid`` on the payload ``start`` (a direct link's)."""
        user = self.bot.server.world.user(uid)
        who = {"id": uid, "first_name": user["first_name"], "language_code": language}
        data = signed or init_data(TOKEN, who, int(time.time()), start_param=start)
        self.opened += 1  # a new query: a new page, not a jump within the old one
        url = launch_url(f"{self.base}/app?n={self.opened}", data, theme)
        await self.run(lambda: self.browser.get(url))

    def css(self, selector: str) -> list[Any]:
        return list(self.browser.find_elements("css selector", selector))

    async def tap(self, selector: str, what: str = "") -> None:
        def click() -> bool:
            found = [e for e in self.css(selector) if e.is_displayed() and e.is_enabled()]
            if found:
                found[0].click()
            return bool(found)

        await self.until(click, what or selector)

    async def shows(self, selector: str, what: str = "", timeout: float = 15) -> Any:
        return await self.until(lambda: self.css(selector), what or selector, timeout)

    async def text(self, selector: str) -> str:
        return str(await self.run(lambda: self.browser.find_element("css selector", selector).text))

    async def fatal(self) -> str:
        """The page's one line when it cannot go on (the launch data refused)."""
        await self.shows("#fatal", "the page to refuse")
        return await self.text("#fatal")

    async def js(self, script: str, *args: Any) -> Any:
        return await self.run(lambda: self.browser.execute_script(script, *args))

    async def report(
        self,
        table: int,
        counts: list[str],
        mode: str = "report",
        filled: Callable[[], Any] | None = None,
    ) -> str:
        """Fill the Big Two form (cards left per seat), wait for the engine's verdict
        (then ``filled``, e.g. a screenshot), send it; the verdict's text."""
        where = "" if mode == "report" else f'.table[data-table="{table}"] '
        await self.tap(f'{where}[data-action="{mode}"]', f"{mode} {table}")
        await self.shows('select[data-step="cards"]', "the cards form")
        for letter, count in zip("ABCD", counts, strict=False):
            await self.js(
                "const s = document.querySelector(`select[data-seat='${arguments[0]}']`);"
                "s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
                letter,
                count,
            )
        await self.until(
            lambda: self.css('[data-testid="submit"]')[0].is_enabled(), "the engine's verdict"
        )
        verdict = await self.text('[data-testid="verdict"]')
        if filled is not None:
            await filled()
        await self.tap('[data-testid="submit"]')
        return verdict


def launch_of(message: SentMessage, label: str) -> str:
    """The ``startapp`` payload of a link button into the Mini App."""
    url = message.button(label)["url"]
    assert url.startswith("https://t.me/tourbot_bot/console?startapp="), url
    return parse_qs(urlsplit(url).query)["startapp"][0]


def picked(days: int) -> str:
    """The date-time picker's value for 18:00, ``days`` from now, in the event's zone."""
    return (datetime.now(ZONE) + timedelta(days=days)).strftime("%Y-%m-%dT18:00")


def colour(hex_colour: str) -> str:
    n = int(hex_colour[1:], 16)
    return f"rgb({n >> 16}, {(n >> 8) & 255}, {n & 255})"


async def sign_up(bot: Harness, players: dict[int, str]) -> SentMessage:
    """The chat's part: an event with ``players`` signed up; /console's message."""
    server = bot.server
    server.add_user(ADMIN, "组织者")
    server.add_user(STRANGER, "Mike")
    for uid, name in players.items():
        server.add_user(uid, name)
    server.add_chat(GROUP, "工会群", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 周五锄大地", "周五锄大地")
    for uid in players:
        await bot.joins(GROUP, uid)
    return await bot.says(GROUP, ADMIN, "/console", "控制台")


async def shot(page: MiniApp, tmp_path: Path, name: str) -> None:
    """A screenshot of the page (in docs/ with ``DOCS_SHOTS=1``), checked not blank."""
    from PIL import Image

    png = await page.run(page.browser.get_screenshot_as_png)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == PHONE
    colours = image.getcolors(maxcolors=image.width * image.height)
    assert colours is not None and len(colours) > 50
    (DOCS if os.environ.get("DOCS_SHOTS") else tmp_path).joinpath(name).write_bytes(png)


@pytest.mark.parametrize("backend", ["aiogram", "ptb"])
async def test_console_and_form_on_a_phone_as_the_chat_would_have_it(
    bot: Harness, browser: Any, tmp_path: Path
) -> None:
    players = {100 + i: f"选手{i:02d}" for i in range(1, 13)}
    ids = {name: uid for uid, name in players.items()}
    linked = await sign_up(bot, players)
    start = launch_of(linked, "控制台")
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    page = MiniApp(bot, browser)

    # Refused launches: forged, expired, another chat's organiser.
    fine = init_data(
        TOKEN, {"id": ADMIN, "first_name": "组织者"}, int(time.time()), start_param=start
    )
    await page.open(ADMIN, start, signed=fine.replace("hash=", "hash=0"))
    assert "无法核实" in await page.fatal()
    old = int(time.time() - 86400 - 60)
    await page.open(
        ADMIN,
        start,
        signed=init_data(TOKEN, {"id": ADMIN, "first_name": "x"}, old, start_param=start),
    )
    assert "已过期" in await page.fatal()
    bot.server.add_chat(OTHER, "Other group", admins=[STRANGER])
    await bot.says(OTHER, STRANGER, "/new bigtwo Friday Cup", "Friday Cup")
    await bot.says(OTHER, STRANGER, "/lang en", "English")
    theirs = launch_of(await bot.says(OTHER, STRANGER, "/console", "console"), "Console")
    await page.open(STRANGER, start, language="en")
    assert "不是 周五锄大地 的组织者" in await page.fatal()  # said in the event's words
    await page.open(STRANGER, theirs, language="en", theme=DARK)
    await page.shows('[data-tab="tables"]')
    assert await page.text('[data-tab="tables"]') == "Tables"  # that chat speaks English
    background = await page.js("return getComputedStyle(document.body).backgroundColor")
    assert background == colour(DARK["secondary_bg_color"])

    # The organiser: the console, in the light theme; the round opened with the picker.
    await page.open(ADMIN, start)
    await page.shows('.table[data-table="3"][data-state="waiting"]', "three waiting tables")
    assert await page.js("return getComputedStyle(document.body).backgroundColor") == colour(
        LIGHT["secondary_bg_color"]
    )
    await page.tap('[data-action="round"]')
    await page.js("document.querySelector('[data-testid=when]').value = arguments[0]", picked(3))
    await page.tap('[data-testid="send"]')
    announced = await bot.server.wait_for("第 1 轮开始", timeout=15)
    report_start = launch_of(announced, "上报")
    seated = tables_of(announced.body, ids)
    await page.until(lambda: page.css("#clock")[0].text.startswith("剩余"), "the round's clock")

    # A player reports table 1 with the form; the engine checks it as it is filled in.
    first, third = seated[1][0], seated[1][2]
    await page.open(first, report_start)
    await page.shows("#my-table")
    await page.tap('[data-action="report"]')
    await page.shows('select[data-step="cards"]')
    await page.js(
        "for (const s of document.querySelectorAll('select[data-step=cards]'))"
        "{ s.value = '0'; s.dispatchEvent(new Event('change')); }"
    )
    await page.until(lambda: "0" in page.css('[data-testid="verdict"]')[0].text and
                     "bad" in page.css('[data-testid="verdict"]')[0].get_attribute("class"),
                     "the engine's refusal")  # fmt: skip
    refusal = await page.text('[data-testid="verdict"]')
    typed = await bot.says(GROUP, first, "/report 1 A0 B0 C0 D0", "0")
    assert refusal == typed.body  # the chat's own refusal text
    await page.run(lambda: page.browser.refresh())
    verdict = await page.report(
        1, ["5", "8", "0", "12"], filled=lambda: shot(page, tmp_path, "report-form.png")
    )
    assert "+37" in verdict and "-87" in verdict
    await bot.server.wait_for("第 1 桌", timeout=15)
    # The tablemate confirms in their form.
    await page.open(third, report_start)
    await page.tap('[data-action="confirm"]')
    await bot.server.wait_for("第 1 桌结果确认", timeout=15)

    # The organiser fixes table 2 with the form and forfeits table 3.
    await page.open(ADMIN, start)
    await page.shows('.table[data-table="1"][data-state="confirmed"]')
    verdict = await page.report(2, ["0", "3", "6", "9"], mode="fix")
    assert "A" in verdict
    await bot.server.wait_for("第 2 桌", timeout=15)
    await page.shows('.table[data-table="2"][data-state="confirmed"]', "table 2 fixed")
    await page.tap("#toast")  # what the chat was told, read: out of the way
    await shot(page, tmp_path, "console.png")
    # A report typed in the chat shows on the open console within 3 s, without a reload.
    await page.js("window.sameDocument = true")
    await bot.says(GROUP, seated[3][0], "/report 3 A1 B2 C0 D3", "第 3 桌")
    typed_at = time.monotonic()
    await page.shows('.table[data-table="3"][data-state="reported"]', "table 3 reported", 3)
    assert time.monotonic() - typed_at < 3
    assert await page.js("return window.sameDocument === true")
    await page.tap('.table[data-table="3"] [data-action="forfeit"]')
    await page.tap('[data-testid="forfeit-table"]')
    await bot.server.wait_for("第 3 桌", timeout=15)
    await page.shows('.table[data-table="3"][data-state="forfeit"]', "table 3 forfeited")
    await page.tap('[data-tab="standings"]')
    await page.shows("#standings")

    # A phone's width, nothing wider; Chinese drawn with the page's own font.
    assert await page.js("return document.documentElement.scrollWidth") <= PHONE[0]
    fonts = await page.run(lambda: platform_fonts(page.browser, "#title"))
    assert "WenQuanYi Micro Hei" in fonts, fonts


def platform_fonts(browser: Any, selector: str) -> list[str]:
    """The fonts Chromium drew an element's text with, the page's own web fonts only."""
    browser.execute_cdp_cmd("DOM.enable", {})
    browser.execute_cdp_cmd("CSS.enable", {})
    root = browser.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = browser.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})
    fonts = browser.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
    return [f["familyName"] for f in fonts["fonts"] if f["isCustomFont"]]


@pytest.mark.parametrize("backend", ["aiogram"])
async def test_a_16_player_event_runs_from_the_console_and_the_forms_to_its_champion(
    bot: Harness, browser: Any
) -> None:
    """Sign-up is the chat's (the Join button); the rest is taps in the Mini App: the
    organiser draws and opens each round, each table's captain reports with the form and
    a tablemate confirms in theirs, and the group gets every announcement to the podium."""
    players = {200 + i: f"玩家{i:02d}" for i in range(1, 17)}
    ids = {name: uid for uid, name in players.items()}
    start = launch_of(await sign_up(bot, players), "控制台")
    page = MiniApp(bot, browser)
    await page.open(ADMIN, start)
    await page.tap('[data-action="draw"]')
    await page.tap('[data-testid="yes"]')
    await bot.server.wait_for("第 1 轮抽签", timeout=15)
    for number in (1, 2):
        await page.open(ADMIN, start)
        await page.tap('[data-action="round"]')
        await page.tap('[data-testid="send"]')  # no deadline: the picker is optional
        announced = await bot.server.wait_for(f"第 {number} 轮开始", timeout=15)
        form = launch_of(announced, "上报")
        for table, seats in tables_of(announced.body, ids).items():
            await page.open(seats[0], form)
            await page.report(table, ["5", "8", "0", "12"])
            await bot.server.wait_for(f"第 {table} 桌", timeout=15)
            await page.open(seats[1], form)
            await page.tap('[data-action="confirm"]')
            await bot.server.wait_for(f"第 {table} 桌结果确认", timeout=15)
        if number == 1:
            closed = await bot.server.wait_for("第 1 轮结束", timeout=15)
            assert closed.body.count("玩家") == 4  # one from each table goes on
    finished = await bot.server.wait_for("结束！冠军", timeout=20)
    assert "周五锄大地" in finished.body

"""``tourbot playground`` in real headless Chromium: a whole small event through the page.

The command runs as a user starts it (its own process, a fresh state file, the URL read
from its last start-up line); Chromium from Debian (never a downloaded browser) opens the
page at phone size. Four players sign up by pressing Join as each, the organiser draws,
opens the round, reports through the button flow and gets the standings picture, and
the screenshot of that is checked not to be blank. A whole eight-player knockout ends
with the pinned picture checked against the final's (its screenshot is the README's
picture: ``PLAYGROUND_SCREENSHOT=docs/playground.png``). On a machine without a CJK or
an emoji font the page's Chinese and emoji are checked to be drawn with the web fonts
the playground serves.
"""

from __future__ import annotations

import io
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROME_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",  # containers have a small /dev/shm
]
PHONE = (390, 844)  # CSS pixels
ORGANISER, PLAYERS = "10", [str(uid) for uid in range(101, 109)]

pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="no Debian chromium + chromium-driver here (`make system-deps` installs them)",
)


@pytest.fixture(scope="module")
def playground(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The playground command's URL (one for the module: it starts slowly); SIGTERM (as
    Ctrl-C) at the end."""
    tmp_path = tmp_path_factory.mktemp("playground")
    command = [str(Path(sys.executable).with_name("tourbot")), "playground", "--port", "0"]
    env = {**os.environ, "POLL_TIMEOUT": "1", "RATE_PER_CHAT_MINUTE": "1000"}
    log = (tmp_path / "playground.log").open("w")
    process = subprocess.Popen(
        [*command, "--fresh"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=log
    )
    assert process.stdout is not None
    try:
        yield last_line(process.stdout.fileno(), tmp_path / "playground.log")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)
        log.close()
    assert (tmp_path / "tourbot-playground.db").exists()  # the rehearsal is kept


def last_line(fd: int, log: Path, timeout: float = 90) -> str:
    """The start-up's last line, the URL, read unbuffered as it comes (imports are slow on
    a busy machine)."""
    out, deadline = b"", time.monotonic() + timeout
    while not out.endswith(b"/\n") or b"http://" not in out:
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        chunk = os.read(fd, 4096) if ready else b""
        if not chunk:
            pytest.fail(f"no URL from the playground: {out!r} {log.read_text()}")
        out += chunk
    line = out.decode().splitlines()[-1]
    assert line.startswith("http://127.0.0.1:")
    return line


def phone_browser(size: tuple[int, int]) -> Iterator[Any]:
    """Headless Chromium as a phone of ``size`` CSS pixels (a fixture's body)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in CHROME_ARGS:
        options.add_argument(arg)
    phone = {"width": size[0], "height": size[1], "pixelRatio": 1.0, "touch": True}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": phone})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from phone_browser(PHONE)


class Page:
    """The playground page as a person uses it: who speaks, what they type, which button
    they press, and the bot's messages they wait for."""

    def __init__(self, browser: Any, url: str) -> None:
        from selenium.webdriver.common.by import By

        self.browser = browser
        browser.get(url)
        self.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speaker option"), "the cast")

    def until(self, condition: Callable[[Any], Any], what: str, timeout: float = 20) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        wait = WebDriverWait(
            self.browser, timeout, ignored_exceptions=(StaleElementReferenceException,)
        )
        return wait.until(condition, f"waiting for {what}; page shows: {self.text()}")

    def text(self) -> str:
        from selenium.webdriver.common.by import By

        return str(self.browser.find_element(By.ID, "messages").text)[-1500:]

    def speak_as(self, uid: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        Select(self.browser.find_element(By.ID, "speaker")).select_by_value(uid)
        self.until(lambda d: d.find_element(By.ID, "speaker").get_attribute("value") == uid, uid)

    def say(self, text: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        self.browser.find_element(By.ID, "input").send_keys(text + Keys.ENTER)

    def bot_message(self, containing: str) -> str:
        """The id of the latest bot message whose text contains ``containing``."""
        from selenium.webdriver.common.by import By

        def find(driver: Any) -> str | bool:
            for element in reversed(driver.find_elements(By.CSS_SELECTOR, ".msg.bot")):
                if containing in element.text:
                    return str(element.get_attribute("data-id"))
            return False

        return str(self.until(find, repr(containing)))

    def press(self, message: str, label: str) -> None:
        from selenium.webdriver.common.by import By

        def click(driver: Any) -> bool:
            buttons = driver.find_elements(By.CSS_SELECTOR, f'.msg[data-id="{message}"] button')
            for button in buttons:
                if button.text == label or button.text.startswith(label + " "):
                    button.click()
                    return True
            return False

        self.until(click, f"button {label!r} on message {message}")

    def sign_up(self, players: list[str], title: str) -> None:
        """The organiser creates the event; each player presses its Join button."""
        self.say(f"/new bigtwo knockout {title}")
        signup = self.bot_message(title)
        for count, uid in enumerate(players, start=1):
            self.speak_as(uid)
            self.press(signup, "报名")
            self.bot_message(f"已报名 {count} 人")  # the sign-up message, edited in place
        self.speak_as(ORGANISER)

    def picture(self, message: str) -> bytes:
        """The picture a message shows, as the page loaded it."""
        src = self.browser.execute_script(
            "const i = document.querySelector(`.msg[data-id='${arguments[0]}'] img.photo`);"
            "return i && i.complete && i.naturalWidth > 300 ? i.src : null;",
            message,
        )
        assert src, f"message {message} shows no picture"
        with urllib.request.urlopen(src) as response:
            return bytes(response.read())

    def screenshot(self, tmp_path: Path) -> bytes:
        """The phone-sized page, kept as ``playground.png`` (and where
        ``PLAYGROUND_SCREENSHOT`` says: the README's picture), checked not blank."""
        from PIL import Image

        time.sleep(0.3)  # the scroll to the newest message
        png = self.browser.get_screenshot_as_png()
        (tmp_path / "playground.png").write_bytes(png)
        if os.environ.get("PLAYGROUND_SCREENSHOT"):
            Path(os.environ["PLAYGROUND_SCREENSHOT"]).write_bytes(png)
        shot = Image.open(io.BytesIO(png)).convert("RGB")
        assert shot.size == PHONE
        colors = shot.getcolors(maxcolors=shot.width * shot.height)
        assert colors is not None and len(colors) > 100  # text, bubbles, the chart: not blank
        return png


def test_an_organiser_runs_a_small_event_in_the_browser(
    playground: str, browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    page = Page(browser, playground)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#speaker option")) == 18
    page.sign_up(PLAYERS[:4], "周五锄大地")
    page.say("/draw")
    page.bot_message("第 1 轮抽签")
    page.say("/round")
    page.bot_message("第 1 轮开始")
    page.say("/report")
    flow = page.bot_message("座位 A")
    for label, shown in (("0", "已选：A0"), ("5", "A0 B5"), ("8", "A0 B5 C8"), ("12", "D12")):
        page.press(flow, label)
        page.bot_message(shown)
    page.press(flow, "✅ 提交")
    page.bot_message("第 1 桌结果确认")

    page.say("/standings")
    page.until(
        lambda d: d.execute_script(
            "const i = [...document.querySelectorAll('.msg.bot img.photo')].pop();"
            "return i && i.complete && i.naturalWidth > 300;"
        ),
        "the standings picture",
    )
    page.screenshot(tmp_path)


def test_a_whole_knockout_ends_with_the_pinned_picture_of_the_final(
    playground: str, browser: Any, tmp_path: Path
) -> None:
    """Eight players, two tables, then the final, all within a minute: the pinned live
    standings' picture, drawn at round 1's first result, shows the final ranking its
    caption says once the event is over (it stayed on round 1), as /standings draws it.
    The screenshot of the end is the README's picture."""
    from selenium.webdriver.common.by import By

    page = Page(browser, playground)
    page.sign_up(PLAYERS, "春季锄大地")
    page.say("/draw")
    page.bot_message("第 1 轮抽签")
    page.say("/round")
    page.bot_message("第 1 轮开始")
    page.say("/report 1 A5 B8 C0 D12")
    page.bot_message("第 1 桌结果确认")
    page.say("/report 2 A3 B1 C9 D0")
    page.bot_message("第 2 桌结果确认")
    page.say("/round")
    page.bot_message("第 2 轮开始")
    page.say("/report 1 A5 B8 C0")
    page.bot_message("结束！冠军")

    pinned = page.until(
        lambda d: (
            d.find_element(By.ID, "pinned").text.count("最终名次")
            and d.find_element(By.ID, "pinned").get_attribute("data-id")
        ),
        "the pinned message to say the final ranking",
    )
    page.say("/standings")
    shown = page.bot_message("📊 春季锄大地")
    page.until(lambda d: page.picture(shown), "the standings picture")
    final = page.picture(shown)
    page.until(lambda d: page.picture(pinned) == final, "the pinned picture to show the final", 30)
    page.screenshot(tmp_path)


WEB_FONT = "tourbot CJK"  # the @font-face family in playground/static/style.css
CJK = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
# Every shown element with text of its own that matches a pattern (Chinese, emoji), marked
# for the DevTools queries of ``drawn_with`` (an <option> is drawn by the browser's own
# list, not the page); its text, children's too.
MARK = """
const wanted = new RegExp(arguments[0], "u");
const own = (e) => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join("");
const marked = [...document.body.querySelectorAll("*:not(option):not(script)")]
  .filter(e => wanted.test(own(e)) && e.getClientRects().length > 0);
marked.forEach((e, i) => e.setAttribute("data-mark", i));
return marked.map(e => e.textContent);
"""
# A Chinese line's width in the page's font and in the fonts it would have without it.
WIDTHS = """
const width = (family) => {
  const line = document.createElement("span");
  Object.assign(line.style, {position: "absolute", whiteSpace: "nowrap", font: "16px " + family});
  line.textContent = arguments[0];
  document.body.append(line);
  const w = line.getBoundingClientRect().width;
  line.remove();
  return w;
};
return [width(getComputedStyle(document.body).fontFamily), width("system-ui, sans-serif")];
"""


def drawn_with(browser: Any, pattern: re.Pattern[str]) -> list[tuple[str, list[Any]]]:
    """Each shown text that matches ``pattern``, with the fonts Chromium actually drew
    it with (DevTools: platform fonts)."""
    texts = browser.execute_script(MARK, pattern.pattern)
    browser.execute_cdp_cmd("DOM.enable", {})
    browser.execute_cdp_cmd("CSS.enable", {})
    root = browser.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    found = []
    for index, text in enumerate(texts):
        node = browser.execute_cdp_cmd(
            "DOM.querySelector", {"nodeId": root, "selector": f'[data-mark="{index}"]'}
        )["nodeId"]
        fonts = browser.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        found.append((text, fonts))
    return found


def system_cjk_font() -> bool | None:
    """Whether fontconfig knows a Chinese font (``None``: no fontconfig to ask)."""
    if shutil.which("fc-list") is None:
        return None
    listed = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True, check=True)
    return bool(listed.stdout.strip())


def test_the_page_draws_chinese_with_its_web_font(playground: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(playground)
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".tab"))
    # The page's CJK text asks for the font; the first request builds it (about a second).
    WebDriverWait(browser, 20).until(
        lambda d: d.execute_script(
            "return [...document.fonts].some(f => f.family.replaceAll('\"', '') === arguments[0]"
            " && f.status === 'loaded')",
            WEB_FONT,
        ),
        "the web font never loaded: no @font-face, or /fonts/cjk.woff failed",
    )
    ready = browser.execute_async_script(
        "const [family, done] = arguments;"
        "document.fonts.ready.then(() => done(document.fonts.check(`16px \"${family}\"`, '中文')))",
        WEB_FONT,
    )
    assert ready

    drawn = drawn_with(browser, CJK)
    texts = [text for text, _ in drawn]
    assert any("发送" in t for t in texts) and any("身份" in t for t in texts)  # a button, a label
    for text, fonts in drawn:
        web = [f for f in fonts if f["isCustomFont"] and f["familyName"] != "Noto Emoji"]
        assert [f["familyName"] for f in web] == ["WenQuanYi Micro Hei"], (text, fonts)
        assert web[0]["glyphCount"] == len(CJK.findall(text)), (text, fonts)

    # WenQuanYi draws every ideograph one em wide; without it, this machine draws boxes.
    line = "第三轮开始周五锄大地"
    page, fallback = browser.execute_script(WIDTHS, line)
    assert page == pytest.approx(16 * len(line), abs=0.5)
    if system_cjk_font() is False:
        assert abs(fallback - page) > 8, (page, fallback)


EMOJI = re.compile("[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")


def test_the_page_draws_its_emoji_with_its_emoji_font(playground: str, browser: Any) -> None:
    """The tabs' 👥 and 🔒 and the ▶ of Demo: on a machine without an emoji font they
    were boxes; the page draws them with the Noto Emoji cut it serves (or the machine's
    own colour emoji font, where it has one)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(playground)
    WebDriverWait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".tab"))
    browser.execute_async_script("const done = arguments[0]; document.fonts.ready.then(done)")
    drawn = drawn_with(browser, EMOJI)
    texts = [text for text, _ in drawn]
    assert any("👥" in t for t in texts) and any("🔒" in t for t in texts), texts
    assert any("▶" in t for t in texts), texts
    for text, fonts in drawn:
        emoji = [f for f in fonts if "Emoji" in f["familyName"]]
        assert emoji, (text, fonts)
        assert sum(f["glyphCount"] for f in emoji) >= len(EMOJI.findall(text)), (text, fonts)

"""What opening the Mini App's console costs as an event goes on (docs/performance.md#console):
prints the figures, asserts nothing.

The real bot (aiogram, SQLite) serves its Mini App on a free port, against the local Bot
API server of the tests. An organiser runs a 64-player Big Two Swiss of nine rounds (16
tables a round, every result reported by the organiser). At round 1 and at round 9 the
console is opened as Telegram opens it (``/app/api/state`` with signed launch data), and
polled with the version it has (what the open page asks every second and a half).

Printed: the median of 30 openings and of 30 polls at each round, and the ratio of
round 9 to round 1. Target: round 9 opens within 25 % of round 1 (the view reads the
latest round only: ``bot.application.console_view``).
Run ``python -m benchmarks.console``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.app import App
from bot.application.miniapp_links import CONSOLE
from bot.config import Settings
from playground.botapi import BotAPIServer
from playground.botapi.webapp import init_data

TOKEN = "123456:BENCH"
GROUP, ADMIN = -100901, 1
PLAYERS = list(range(2001, 2065))
ROUNDS, SAMPLES, TARGET = 9, 30, 1.25
TABLE = re.compile(r"^第(\d+)桌：", re.M)


async def timed(http: aiohttp.ClientSession, url: str, params: dict[str, str]) -> float:
    started = time.perf_counter()
    async with http.get(url, params=params) as answer:
        assert answer.status == 200, await answer.text()
        await answer.read()
    return time.perf_counter() - started


async def measure(http: aiohttp.ClientSession, url: str, start: str) -> tuple[float, float]:
    """Median seconds of opening the console, and of a poll that finds nothing new."""
    opened = [await timed(http, url, {"start": start}) for _ in range(SAMPLES)]
    async with http.get(url, params={"start": start}) as answer:
        version = str((await answer.json())["version"])
    polled = [await timed(http, url, {"start": start, "v": version}) for _ in range(SAMPLES)]
    return statistics.median(opened), statistics.median(polled)


async def run(folder: Path) -> None:
    server = BotAPIServer(token=TOKEN, bot_id=123456, bot_username="tourbot_bot")
    await server.start()
    server.add_user(ADMIN, "组织者", language_code="zh")
    for uid in PLAYERS:
        server.add_user(uid, f"选手{uid - 2000}", language_code="zh")
    server.add_chat(GROUP, "公司棋牌群", admins=[ADMIN])
    settings = Settings(
        bot_token=TOKEN,
        bot_api_url=server.url,
        database_url=f"sqlite+aiosqlite:///{folder / 'console.db'}",
        poll_timeout=1,
        per_chat_per_minute=100_000,
        web_port=0,
    )
    app = App(settings)
    await app.start()
    figures: dict[int, tuple[float, float]] = {}
    try:
        server.user_says(GROUP, ADMIN, "/new bigtwo swiss 九轮赛")
        await server.wait_for("SHA-256", timeout=30)
        server.user_says(GROUP, ADMIN, f"/set rounds {ROUNDS}")
        for uid in PLAYERS:
            server.user_says(GROUP, uid, "/join")
        await server.wait_for(f"已报名 {len(PLAYERS)} 人", timeout=120)
        server.user_says(GROUP, ADMIN, "/draw")
        await server.wait_for("第 1 轮抽签", timeout=60)
        start = f"{CONSOLE}1"  # the chat's first event: id 1
        signed = init_data(TOKEN, {"id": ADMIN, "first_name": "组织者"}, int(time.time()))
        headers = {"Authorization": f"tma {signed}"}
        url = f"{app.settings.public_url}/app/api/state"
        async with aiohttp.ClientSession(headers=headers) as http:
            for number in range(1, ROUNDS + 1):
                server.user_says(GROUP, ADMIN, "/round")
                opened = await server.wait_for(f"第 {number} 轮开始", timeout=60)
                if number in (1, ROUNDS):
                    await server.wait_idle(quiet=2.0, timeout=60)  # its pictures drawn
                    figures[number] = await measure(http, url, start)
                for table in TABLE.findall(opened.body):
                    server.user_says(GROUP, ADMIN, f"/report {table} A0 B3 C5 D7")
                closed = f"第 {number} 轮结束" if number < ROUNDS else "结束！冠军"
                await server.wait_for(closed, timeout=120)
    finally:
        logging.getLogger("bot.transport.polling").setLevel(logging.CRITICAL)
        await app.stop()
        await server.stop()

    for number, (opened_s, polled_s) in figures.items():
        print(
            f"round {number}: console opened in {opened_s * 1000:.1f} ms, "
            f"an unchanged poll in {polled_s * 1000:.1f} ms (median of {SAMPLES})"
        )
    ratio = figures[ROUNDS][0] / figures[1][0]
    verdict = "ok" if ratio <= TARGET else "MISSED"
    print(f"round {ROUNDS} / round 1: {ratio:.2f} (target ≤ {TARGET:.2f}: {verdict})")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder)))


if __name__ == "__main__":
    main()

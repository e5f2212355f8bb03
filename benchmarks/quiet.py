"""How quiet the bot is in a busy group (docs/performance.md#a-quiet-group): prints the figures,
asserts nothing.

The real bot (aiogram, SQLite) talks to the local Bot API server of the tests at the
default rate of 20 messages a minute per group. An organiser creates a Big Two event;
40 players type /join at once; the organiser draws and opens round 1 (ten tables); then
the ten captains report at once, two of them an impossible result that is refused.

Printed: messages sent (new messages; edits, reactions separately) for the 40 sign-ups,
the draw and the ten reports, and the whole run; and the worst delay between a captain's
report and the reply to that captain. Targets: ≤ 12 messages, ≤ 5 s worst reply delay.
Run ``python -m benchmarks.quiet``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import tempfile
import time
from pathlib import Path

from bot.app import App
from bot.config import Settings
from playground.botapi import BotAPIServer

TOKEN = "123456:BENCH"
GROUP = -100900
ADMIN = 1
PLAYERS = list(range(1001, 1041))
SENDS = ("sendMessage", "sendPhoto", "sendDocument")
TARGET_MESSAGES, TARGET_DELAY = 12, 5.0
TABLE = re.compile(r"^第(\d+)桌：(.+)$")


def counts(server: BotAPIServer) -> tuple[int, int, int]:
    """(messages, edits, reactions) the bot has had accepted so far."""
    ok = [c for c in server.calls if c.status == 200]
    sends = sum(c.method in SENDS for c in ok)
    edits = sum(c.method.startswith("editMessage") for c in ok)
    reactions = sum(c.method == "setMessageReaction" for c in ok)
    return sends, edits, reactions


async def wait(predicate: object, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not get there in time")
        await asyncio.sleep(0.02)


async def run(folder: Path) -> None:
    server = BotAPIServer(token=TOKEN, bot_id=123456, bot_username="tourbot_bot")
    await server.start()
    server.add_user(ADMIN, "组织者", language_code="zh")
    for uid in PLAYERS:
        server.add_user(uid, f"选手{uid - 1000}", language_code="zh")
    server.add_chat(GROUP, "公司棋牌群", admins=[ADMIN])
    settings = Settings(
        bot_token=TOKEN,
        bot_api_url=server.url,
        database_url=f"sqlite+aiosqlite:///{folder / 'quiet.db'}",
        poll_timeout=1,
    )
    app = App(settings)
    await app.start()
    try:
        server.user_says(GROUP, ADMIN, "/new bigtwo 周五锄大地")
        await server.wait_for("SHA-256", timeout=30)
        before = counts(server)

        started = time.monotonic()
        joins = [server.user_says(GROUP, uid, "/join")["message_id"] for uid in PLAYERS]
        await wait(lambda: all((GROUP, m) in server.reactions for m in joins))
        signup_s = time.monotonic() - started
        await server.wait_for("已报名 40 人", timeout=60)

        server.user_says(GROUP, ADMIN, "/draw")
        drawn = await server.wait_for("第 1 轮抽签", timeout=60)
        captains = {
            int(m.group(1)): int(m.group(2).split(" · ")[0].split(" ", 1)[1].removeprefix("选手"))
            + 1000
            for line in drawn.body.splitlines()
            if (m := TABLE.match(line))
        }
        during = counts(server)
        server.user_says(GROUP, ADMIN, "/round")
        await server.wait_for("第 1 轮开始", timeout=60)
        after_round = counts(server)

        sent_at: dict[int, float] = {}
        replied_at: dict[int, float] = {}
        for table, captain in sorted(captains.items()):
            result = "A0 B0 C5 D7" if table in (3, 7) else "A0 B3 C5 D7"  # two impossible
            sent_at[table] = time.monotonic()
            server.user_says(GROUP, captain, f"/report {table} {result}")

        seen: set[int] = set()

        def answered() -> bool:
            """Note when each captain's reply (receipt or refusal) has been sent."""
            for m in server.outbox(GROUP):
                if m.message_id in seen:
                    continue
                waiting = [t for t in sent_at if t not in replied_at]
                refused = [t for t in waiting if t in (3, 7)]
                table = next((t for t in waiting if f"第 {t} 桌上报" in m.body), None)
                if table is None and "两个座位" in m.body and refused:
                    table = refused[0]  # refusals do not name the table: first come first
                if table is not None:
                    seen.add(m.message_id)
                    replied_at[table] = time.monotonic()
            return len(replied_at) == len(sent_at)

        await wait(answered)
        await server.wait_idle(quiet=1.0, timeout=60)
        end = counts(server)
    finally:
        logging.getLogger("bot.transport.polling").setLevel(logging.CRITICAL)  # the poll cut short
        await app.stop()
        await server.stop()

    measured = (during[0] - before[0]) + (end[0] - after_round[0])
    worst = max(replied_at[t] - sent_at[t] for t in sent_at)
    print(f"40 typed sign-ups acknowledged in {signup_s:.1f} s (reactions, no messages)")
    print(
        f"messages for 40 sign-ups, the draw and 10 reports: {measured} "
        f"(target ≤ {TARGET_MESSAGES}: {'ok' if measured <= TARGET_MESSAGES else 'MISSED'})"
    )
    print(f"whole run incl. /new and /round: {end[0]} messages, {end[1]} edits, {end[2]} reactions")
    print(
        f"worst delay of a reply to one captain: {worst:.2f} s "
        f"(target ≤ {TARGET_DELAY:.0f} s: {'ok' if worst <= TARGET_DELAY else 'MISSED'})"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder)))


if __name__ == "__main__":
    main()

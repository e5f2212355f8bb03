"""Ctrl-C stops ``tourbot run`` and ``tourbot playground`` quietly: a terminal sends it to
the whole process group, the drawing process included, and nothing prints a traceback.

Each command runs as a user starts it (its own process, its own process group, as under
a terminal), draws a picture (so the drawing process is there), and gets SIGINT on the
group.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp

from playground.botapi import BotAPIServer
from tests.conftest import BOTAPI_TOKEN

TOURBOT = str(Path(sys.executable).with_name("tourbot"))
GROUP, ADMIN = -100900, 1


async def started(process: asyncio.subprocess.Process, stream: str, line: str) -> str:
    """What the process printed on ``stream`` up to the line containing ``line``."""
    pipe = process.stdout if stream == "stdout" else process.stderr
    assert pipe is not None
    seen = ""
    while line not in seen:
        chunk = await asyncio.wait_for(pipe.readline(), timeout=120)
        assert chunk, f"it ended before {line!r}: {seen}"
        seen += chunk.decode()
    return seen


async def interrupted(process: asyncio.subprocess.Process) -> str:
    """Ctrl-C as a terminal sends it; what the process printed on stderr after it."""
    os.killpg(process.pid, signal.SIGINT)
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 0, err.decode()
    return err.decode()


async def test_ctrl_c_stops_the_playground_without_a_traceback(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        TOURBOT, "playground", "--port", "0", "--fresh",
        cwd=tmp_path, env={**os.environ, "POLL_TIMEOUT": "1"}, start_new_session=True,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    url = (await started(process, "stdout", "http://")).splitlines()[-1]
    async with aiohttp.ClientSession(url) as http:
        demo = await (await http.post("/api/demo")).json()
        for _ in range(240):  # the demo's first picture: the drawing process is up
            chat = await (await http.get(f"/api/chat/{demo['chat']}")).json()
            if any(m.get("photo") for m in chat["messages"]):
                break
            await asyncio.sleep(0.5)
        else:
            raise AssertionError("the demo drew no picture")
    err = await interrupted(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


async def test_ctrl_c_stops_tourbot_run_without_a_traceback(
    botapi: BotAPIServer, tmp_path: Path
) -> None:
    botapi.add_user(ADMIN, "Org")
    for uid in range(11, 15):
        botapi.add_user(uid, f"P{uid}")
    botapi.add_chat(GROUP, "club", admins=[ADMIN])
    env = {
        **os.environ,
        "BOT_TOKEN": BOTAPI_TOKEN,
        "BOT_API_URL": botapi.url,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'tourbot.db'}",
        "POLL_TIMEOUT": "1",
    }
    process = await asyncio.create_subprocess_exec(
        TOURBOT, "run", cwd=tmp_path, env=env, start_new_session=True,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    await started(process, "stderr", "tourbot started")
    botapi.user_says(GROUP, ADMIN, "/new bigtwo Cup")
    for uid in range(11, 15):
        botapi.user_says(GROUP, uid, "/join")
    botapi.user_says(GROUP, ADMIN, "/draw")
    botapi.user_says(GROUP, ADMIN, "/round")  # the round's seating picture
    await botapi.wait_for(lambda m: m.photo is not None, timeout=120)
    err = await interrupted(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err

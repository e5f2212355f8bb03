"""The playground without a browser: its page's API, the demo, and a rehearsal that
survives a restart (or not, with ``--fresh``). The bot here is python-telegram-bot; the
browser test runs aiogram."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.config import Settings
from playground import cast, demo
from playground.run import Playground

SETTINGS = Settings(backend="ptb", per_chat_per_minute=100_000, poll_timeout=1)


async def until(check: Any, what: str, timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := await check()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} after {timeout}s")
        await asyncio.sleep(0.1)
    return found


async def test_demo_and_a_rehearsal_that_survives_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(demo, "PAUSE", 0.0)
    playground = Playground(SETTINGS, tmp_path, 0, fresh=True)
    await playground.start()
    try:
        async with aiohttp.ClientSession(playground.url) as http:
            page = await (await http.get("/")).text()
            assert 'id="speaker"' in page and "/static/app.js" in page

            started = await (await http.post("/api/demo", json={})).json()
            chat = started["chat"]

            async def demo_done() -> bool:
                state = await (await http.get("/api/state")).json()
                return not state["demo_running"]

            async def standings_picture() -> Any:
                view = await (await http.get(f"/api/chat/{chat}")).json()
                return next((m for m in view["messages"] if "photo" in m), None)

            await until(demo_done, "end of the demo")
            picture = await until(standings_picture, "standings picture")
            view = await (await http.get(f"/api/chat/{chat}")).json()
            texts = [m["text"] for m in view["messages"]]
            assert texts[0].startswith("/new bigtwo") and any("结束" in t for t in texts)
            signup = next(m for m in view["messages"] if "演示赛" in m["text"] and m["bot"])
            assert signup["edited"] and "已报名 4 人" in signup["text"]
            async with http.get(picture["photo"]) as response:
                assert (await response.read()).startswith(b"\x89PNG")

            # The bot pinned its live standings; a pin through the Bot API shows too.
            assert "最终名次" in view["pinned"]["text"]  # the demo's event is over
            pin = {"chat_id": chat, "message_id": signup["id"]}
            async with http.post(f"/bot{cast.TOKEN}/pinChatMessage", json=pin) as response:
                assert (await response.json())["ok"]
            view = await (await http.get(f"/api/chat/{chat}")).json()
            assert next(m for m in view["messages"] if m["id"] == signup["id"])["pinned"]

            # Bad requests are refused; an added player can speak at once.
            bad = {"chat": cast.GROUP, "as": cast.ORGANISER, "text": "  "}
            assert (await http.post("/api/say", json=bad)).status == 400
            foreign = {"chat": cast.FIRST_PLAYER, "as": cast.ORGANISER, "text": "hi"}
            assert (await http.post("/api/say", json=foreign)).status == 400
            for body in (b'{"chat": 1e999, "as": 1, "text": "hi"}', b"[" * 100_000):
                assert (await http.post("/api/say", data=body)).status == 400  # not a 500
            added = await (await http.post("/api/player", json={"name": "Zoë 小周"})).json()
            hello = {"chat": cast.GROUP, "as": added["uid"], "text": "/help"}
            assert (await http.post("/api/say", json=hello)).status == 200
            state = await (await http.get("/api/state")).json()
            assert "Zoë 小周" in [p["name"] for p in state["people"]]

            # A typed /join is acknowledged by the bot's 👍 on it, shown on the page.
            new = {"chat": cast.GROUP, "as": cast.ORGANISER, "text": "/new bigtwo 试玩赛"}
            assert (await http.post("/api/say", json=new)).status == 200
            join = {"chat": cast.GROUP, "as": added["uid"], "text": "/join"}
            assert (await http.post("/api/say", json=join)).status == 200

            async def acknowledged() -> Any:
                view = await (await http.get(f"/api/chat/{cast.GROUP}")).json()
                return next((m for m in view["messages"] if m["reactions"] == ["👍"]), None)

            assert (await until(acknowledged, "reaction on /join"))["text"] == "/join"
    finally:
        await playground.stop()

    # Restarted: the world (chats, the added player) and the bot's database are kept.
    again = Playground(SETTINGS, tmp_path, 0, fresh=False)
    assert again.resumed and chat in again.server.world.chats
    await again.start()
    try:
        async with aiohttp.ClientSession(again.url) as http:
            async with http.get(picture["photo"]) as response:  # files are kept too
                assert (await response.read()).startswith(b"\x89PNG")
            say = {"chat": chat, "as": cast.ORGANISER, "text": "/export"}
            assert (await http.post("/api/say", json=say)).status == 200

            async def exported() -> Any:
                view = await (await http.get(f"/api/chat/{chat}")).json()
                return next((m for m in view["messages"] if "document" in m), None)

            document = await until(exported, "CSV export")
            async with http.get(document["document"]["url"]) as response:
                assert "attachment" in response.headers["Content-Disposition"]
                csv = (await response.read()).decode()
            assert csv.startswith("round,table,seat,user_id,name")
            assert all(name in csv for name in ("张伟", "王芳", "李娜", "刘洋"))
    finally:
        await again.stop()

    fresh = Playground(SETTINGS, tmp_path, 0, fresh=True)
    assert not fresh.resumed and chat not in fresh.server.world.chats


async def test_the_console_opens_over_the_chat_as_the_player_speaking(tmp_path: Path) -> None:
    """The playground is the Telegram client too: /console's link opens the Mini App with
    launch data it signed for whoever speaks; the Mini App takes it, and knows the role."""
    playground = Playground(SETTINGS, tmp_path, 0, fresh=True)
    await playground.start()
    try:
        async with aiohttp.ClientSession(playground.url) as http:
            for uid, text in (
                (cast.ORGANISER, "/new bigtwo 控制台赛"),
                (cast.ORGANISER, "/console"),
            ):
                body = {"chat": cast.GROUP, "as": uid, "text": text}
                assert (await http.post("/api/say", json=body)).status == 200

            async def console_message() -> Any:
                view = await (await http.get(f"/api/chat/{cast.GROUP}")).json()
                return next(
                    (m for m in view["messages"] if m["bot"] and m["text"].startswith("🎛")),
                    None,
                )

            message = await until(console_message, "the console's link")
            link = message["buttons"][0][0]["url"]
            assert link.startswith("https://t.me/tourbot_bot?startapp=c")  # the main Mini App
            for uid, role in ((cast.ORGANISER, "organiser"), (cast.FIRST_PLAYER, None)):
                launched = await (
                    await http.post("/api/webapp", json={"as": uid, "url": link})
                ).json()
                fragment = parse_qs(urlsplit(launched["url"]).fragment)
                signed = fragment["tgWebAppData"][0]
                page = await (await http.get(launched["url"].split("#")[0])).text()
                assert "/js/telegram-web-app.js" in page  # the local Telegram's script
                start = parse_qs(signed)["start_param"][0]
                headers = {"Authorization": f"tma {signed}"}
                async with http.get(
                    "/app/api/state", params={"start": start}, headers=headers
                ) as state:
                    if role is None:
                        assert state.status == 403  # not signed up: neither role
                    else:
                        assert state.status == 200 and (await state.json())["role"] == role
            other = {"as": cast.ORGANISER, "url": "https://t.me/someone_else_bot?startapp=c1"}
            assert (await http.post("/api/webapp", json=other)).status == 400
    finally:
        await playground.stop()

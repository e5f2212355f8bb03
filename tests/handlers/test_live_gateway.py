"""The live page's data, and in the scaled-out mode the gateway serving it: what a hall's
screen reads after a result, the calendar feed, a revoked link, and a gateway without
PUBLIC_URL."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from aiohttp.test_utils import TestClient, TestServer
from icalendar import Calendar

from bot.config import Settings
from bot.transport.scaleout.gateway import Gateway
from tests.handlers.memory import Chats

GROUP, ADMIN = -950, 1
PLAYERS = (51, 52, 53, 54, 55, 56, 57, 58)
PUBLIC = "https://hall.example.org"
TOKEN = re.compile(re.escape(PUBLIC) + r"/e/([A-Za-z0-9_-]+)")


def gateway_settings(chats: Chats, public_url: str) -> Settings:
    return Settings(
        bot_token="1:x",
        database_url=str(chats.engine.url),
        webhook_url="https://bot.example.org/telegram",
        webhook_secret="s",
        public_url=public_url,
    )


async def test_the_gateway_serves_the_live_page_from_the_database(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    chats.core.settings = replace(chats.core.settings, public_url=PUBLIC)
    await chats.says(GROUP, ADMIN, "/round in 3 days")
    posted = await chats.says(GROUP, ADMIN, "/live")
    match = TOKEN.search(posted)
    assert match is not None and f"{PUBLIC}/e/{match.group(1)}?screen=1" in posted
    token = match.group(1)
    assert chats.last(GROUP).kind == "photo"  # the link's QR code

    gateway = Gateway(gateway_settings(chats, PUBLIC))
    assert gateway.engine is not None
    async with TestClient(TestServer(gateway.app())) as client:
        first = await (await client.get(f"/e/{token}/state")).json()
        assert first["title"] == "Cup" and first["round"] == "Round 1"
        assert [t["state"] for t in first["tables"]] == ["open", "open"]
        assert first["deadline"] is not None and first["standings"]["rows"]
        same = await (await client.get(f"/e/{token}/state?v={first['version']}")).json()
        assert same.get("same") is True  # nothing changed: nothing rebuilt

        await chats.says(GROUP, ADMIN, "/report 2 A0 B1 C2 D3")
        after = await (await client.get(f"/e/{token}/state?v={first['version']}")).json()
        assert after["version"] > first["version"]
        assert [t["state"] for t in after["tables"]] == ["open", "confirmed"]
        assert after["reported"] == 1
        page = await client.get(f"/e/{token}?screen=1")
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]

        # The deadlines as a feed a calendar app subscribes to; /calendar offers it.
        feed = f"{PUBLIC}/e/{token}/calendar.ics"
        assert feed in await chats.says(GROUP, ADMIN, "/calendar")
        answer = await client.get(f"/e/{token}/calendar.ics")
        assert answer.headers["Content-Type"].startswith("text/calendar")
        (event,) = Calendar.from_ical(await answer.read()).walk("VEVENT")
        assert event.decoded("dtstart") == datetime.fromisoformat(first["deadline"])

        await chats.says(GROUP, ADMIN, "/live reset")
        assert (await client.get(f"/e/{token}")).status == 404
        assert (await client.get(f"/e/{token}/state")).status == 404
        assert (await client.get(f"/e/{token}/calendar.ics")).status == 404
    await gateway.engine.dispose()

    bare = Gateway(gateway_settings(chats, ""))  # PUBLIC_URL unset: no page, no database
    assert bare.engine is None
    async with TestClient(TestServer(bare.app())) as client:
        assert (await client.get(f"/e/{token}")).status == 404

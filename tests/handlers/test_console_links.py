"""Where the chat offers the Mini App: /console's link for organisers, the "📝 Report"
link under a round's announcement, the score slip's form in a private chat with a
``web_app`` button (docs/operations.md#mini-app). Every payload is at most 64 characters
of ``A-Z a-z 0-9 _ -``; without a Mini App set up, /console says what to set and no
message carries a link."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from sqlalchemy import select

from bot.application.miniapp_links import read
from bot.application.types import button_kind
from db.models import Tournament
from tests.e2e.test_paper import qr_links
from tests.handlers.memory import Chats, Sent
from tests.handlers.miniapp import MiniAppClient, with_miniapp
from tests.handlers.test_paper import private

GROUP, ADMIN = -5601, 1
PLAYERS = (61, 62, 63, 64)
PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def links(message: Sent) -> list[tuple[str, str, str]]:
    """Each link button of a message: its label, kind (url, web_app) and address."""
    found = []
    for row in message.buttons or []:
        for label, data in row:
            kind, value = button_kind(data)
            if kind != "callback":
                found.append((label, kind, value))
    return found


def payload_of(url: str) -> str:
    (payload,) = parse_qs(urlsplit(url).query)["startapp"]
    assert PAYLOAD.match(payload), payload
    return payload


async def test_without_a_mini_app_the_chat_offers_none(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    assert "MINIAPP_NAME" in await chats.says(GROUP, ADMIN, "/console")
    await chats.says(GROUP, ADMIN, "/round")
    assert all(not links(m) for m in chats.transport.messages.values())
    assert "Only organisers" in await chats.says(GROUP, PLAYERS[0], "/console")


async def test_console_round_and_slip_open_the_mini_app_on_their_payload(chats: Chats) -> None:
    with_miniapp(chats)
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    async with chats.sessionmaker() as session:
        t = (await session.scalars(select(Tournament))).one()

    await chats.says(GROUP, ADMIN, "/console")
    [(label, kind, url)] = links(chats.last(GROUP))
    assert (label, kind) == ("🎛 Console", "url")
    assert url.startswith("https://t.me/tourbot_bot/console?startapp=")  # a direct link
    opened = read(payload_of(url))
    assert opened is not None and (opened.kind, opened.tournament) == ("c", t.id)

    await chats.says(GROUP, ADMIN, "/round")
    announced = next(m for m in chats.transport.messages.values() if "Round 1 is open" in m.text)
    (report,) = [link for link in links(announced) if link[0] == "📝 Report"]
    assert report[1] == "url" and read(payload_of(report[2])) == type(opened)("r", t.id)

    await chats.says(GROUP, ADMIN, "/print")
    pdf = chats.last(GROUP).file
    assert pdf is not None
    (slip,) = [parse_qs(urlsplit(link).query)["start"][0] for link in qr_links(pdf)]
    async with MiniAppClient(chats) as app:
        for uid in PLAYERS:
            await private(chats, uid, f"/start {slip}")
            form = chats.last(uid)
            if "Seat A" not in form.text:
                continue  # the captain's form; the others are told who reports
            [(label, kind, url)] = links(form)
            assert (label, kind) == ("📝 Report", "web_app")  # a private chat's button
            assert url == f"https://tour.example/app?startapp={slip}"
            state = await app.state(uid, payload_of(url))
            assert state.status == 200 and state.body["slip"] == {"round": 1, "table": 1}
            assert state.body["mine"]["can_report"]
        forged = slip[:-2] + ("AA" if not slip.endswith("AA") else "BB")
        assert (await app.state(PLAYERS[0], forged)).status == 404

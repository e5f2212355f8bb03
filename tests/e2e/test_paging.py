"""Long output is one paged message, not a flood: ◀ ▶ edit the same message."""

from __future__ import annotations

import pytest

from bot.application import context
from tests.e2e.harness import Harness

GROUP = -100900
ADMIN = 1
PLAYERS = list(range(301, 313))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_long_player_list_and_draw_are_one_paged_message_each(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context, "PAGE_LIMIT", 120)  # 12 players no longer fit on a page
    server = bot.server
    server.add_user(ADMIN, "Org", language_code="en")
    for uid in PLAYERS:
        server.add_user(uid, f"Player{uid}", language_code="en")
    server.add_chat(GROUP, "paging", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo Paged Cup", "Paged Cup")
    for uid in PLAYERS:
        await bot.joins(GROUP, uid)
    await server.wait_idle()
    before = len(server.outbox(GROUP))

    listing = await bot.says(GROUP, ADMIN, "/players", "12 players:")
    assert len(server.outbox(GROUP)) == before + 1  # one message, however long
    assert "Player301" in listing.body and "Player312" not in listing.body
    assert listing.buttons[0]["text"].startswith("1/") and listing.buttons[-1]["text"] == "▶"
    pages = int(listing.buttons[0]["text"].split("/")[1])
    bodies, paged_id = [listing.body], listing.message_id
    for page in range(2, pages + 1):
        server.user_presses(GROUP, ADMIN, paged_id, listing.buttons[-1]["callback_data"])
        listing = await server.wait_for(
            lambda m, p=page: m.message_id == paged_id and f"{p}/{pages}" in str(m.buttons)
        )
        bodies.append(listing.body)
    assert listing.buttons[0]["text"] == "◀" and listing.buttons[-1]["text"] == f"{pages}/{pages}"
    assert all(len(body) <= 120 for body in bodies)
    assert all(any(f"Player{uid}" in body for body in bodies) for uid in PLAYERS)

    drawn = await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    assert drawn.buttons and drawn.buttons[-1]["text"] == "▶"
    await server.wait_idle()
    assert len(server.outbox(GROUP)) == before + 2  # the draw too is a single message

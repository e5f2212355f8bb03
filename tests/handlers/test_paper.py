"""/print and its slips in memory: a slip printed before the round opens says so, a rule
change taken back with /undo leaves the printed slips working, and /live without a
served web page says what to set."""

from __future__ import annotations

import itertools
from urllib.parse import parse_qs, urlparse

import pypdfium2 as pdfium

from bot.application.types import Incoming
from tests.e2e.test_paper import qr_links
from tests.handlers.memory import Chats

GROUP, ADMIN = -900, 1
PLAYERS = (41, 42, 43, 44)
UPDATES = itertools.count(700_000)  # apart from Chats' own update ids


async def private(chats: Chats, uid: int, text: str) -> str:
    inc = Incoming(
        next(UPDATES),
        uid,
        "private",
        chats.users[uid],
        text=text,
        message_id=chats.transport.user_message_id(),
    )
    return "\n".join(m.text for m in await chats._handle(inc))


async def test_slips_wait_for_the_round_and_survive_an_undone_rule_change(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, "/set remind 2h")  # a rule change before the slips exist
    caption = await chats.says(GROUP, ADMIN, "/print")  # the drawn round, before it opens
    assert "score slip for the 1 table" in caption
    pdf = chats.last(GROUP).file
    assert pdf is not None
    (link,) = qr_links(pdf)
    (payload,) = parse_qs(urlparse(link).query)["start"]
    assert link.startswith("https://t.me/tourbot_bot?start=")

    assert "has not started yet" in await private(chats, PLAYERS[0], f"/start {payload}")
    await chats.says(GROUP, ADMIN, "/round")
    assert "Undone: the last rule change" in await chats.says(GROUP, ADMIN, "/undo")

    answers = [await private(chats, uid, f"/start {payload}") for uid in PLAYERS]  # one table
    forms = [a for a in answers if "Seat A" in a]
    assert len(forms) == 1 and "Cup, round 1" in forms[0]  # the captain's form
    others = [a for a in answers if a not in forms]
    assert len(others) == 3 and all("reported by seat A" in a for a in others), others
    assert "/help" in await private(chats, ADMIN, "/start")  # a plain /start: the help


async def test_live_says_what_to_set_when_no_page_is_served(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    assert "set WEB_PORT" in await chats.says(GROUP, ADMIN, "/live")
    assert "Usage: /live" in await chats.says(GROUP, ADMIN, "/live now")


async def test_a_slip_asks_the_games_own_questions_in_its_columns(chats: Chats) -> None:
    chats.user(ADMIN, "Org", lang="en")
    chats.admins(GROUP, ADMIN)
    await chats.says(GROUP, ADMIN, "/new doudizhu Cup")
    for uid, name in zip(PLAYERS[:3], ("张伟", "李娜", "Ёжик"), strict=True):
        chats.user(uid, name, lang="en")
        await chats.says(GROUP, uid, "/join")
    await chats.says(GROUP, ADMIN, "/draw")
    await chats.says(GROUP, ADMIN, "/print")
    pdf = chats.last(GROUP).file
    assert pdf is not None
    pages = [" ".join(p.get_textpage().get_text_range().split()) for p in pdfium.PdfDocument(pdf)]
    seating, card, slip = pages
    assert all(name in seating and name in card for name in ("张伟", "李娜", "Ёжик"))
    assert "Who was the landlord?" in slip and "answer every column" in slip

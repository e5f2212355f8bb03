"""Ids and numbers no row can have, from outside: a button's data, a score slip's link, a
live page's token, a command's number. Each is "not found" (or refused as the number it
is not), with the refusal a stale one gets, never the apology and never a traceback, on
SQLite and on PostgreSQL (whose ``Integer`` keys are 32 bits: such an id made it raise
``value out of int32 range`` instead of finding nothing). "²" passes ``str.isdigit``
and fails ``int``; a deadline button's minute can lie past any calendar."""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.application.base36 import b36
from bot.application.handlers import deadlines, people, referee, report_flow
from bot.language.i18n import Catalogue
from bot.transport.live_page import LivePages
from db.keys import SERIAL
from db.session import make_engine, make_sessionmaker
from tests.e2e import raw_updates
from tests.e2e.harness import Harness, tables_of
from tests.e2e.test_hardening import APOLOGIES

GROUP, ADMIN = -1010040, 1
PLAYERS = {"Ann": 741, "Bob": 742, "Cid": 743, "Dee": 744}
PAST = SERIAL.stop  # 2**31: the first id past every generated key


async def toast(bot: Harness, chat: int, uid: int, message_id: int, data: str) -> str:
    press = raw_updates.press(bot.server, chat, uid, message_id, data)
    return (await bot.server.wait_for_callback_answer(press)).text or ""


async def test_ids_past_every_key_are_not_found_and_no_traceback_is_logged(
    bot: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    server = bot.server
    server.add_user(ADMIN, "Org", language_code="en")
    for name, uid in PLAYERS.items():
        server.add_user(uid, name, language_code="en")
    server.add_chat(GROUP, "huge ids", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/lang en", "English")
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout Cup", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set cap ²", "The cap is a whole number from 2 to")
    for uid in PLAYERS.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    opened = await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")
    captain, second = tables_of(drawn.body, PLAYERS)[1][:2]
    call = next(b["callback_data"] for b in opened.buttons if b["callback_data"].startswith("ref:"))
    tid = int(call.split(":")[1])
    await bot.says(GROUP, captain, "/report 1 A5 B8 C0 D12", "/confirm")
    caplog.clear()
    caplog.set_level(logging.WARNING)

    # In the group: a confirmation, a referee call.
    nothing = "no report waiting"
    for too_big in (PAST, 10**15 - 1):  # and the most digits a button's id may have
        assert nothing in await toast(bot, GROUP, second, opened.message_id, f"confirm:{too_big}")
    over = "belongs to a round that is over"
    for call in (f"{PAST}:1", f"{tid}:1:²"):  # no such event; no such table
        assert over in await toast(
            bot, GROUP, second, opened.message_id, f"{referee.PREFIX}:{call}"
        )
    drop = f"{people.DROP_BUTTON}:{tid}:²"
    assert "has finished" in await toast(bot, GROUP, second, opened.message_id, drop)
    pick = f"{deadlines.HOUR_BUTTON}:r{b36(tid)}.1.0.{'z' * 11}"  # the year 15 billion
    assert "out of date" in await toast(bot, GROUP, ADMIN, opened.message_id, pick)
    # In the private chat (in the default language, Chinese): the reminder's report
    # button, a report form's button, a score slip's link.
    hello = await bot.says(second, second, "/start", "/help")
    stale = "这些按钮已过期"
    reminder = f"{deadlines.REPORT_BUTTON}:{PAST}:1"
    assert stale in await toast(bot, second, second, hello.message_id, reminder)
    form = f"{report_flow.PREFIX}:{report_flow.SHOW}{b36(second)}.{b36(PAST)}.1.1."
    assert stale in await toast(bot, second, second, hello.message_id, form)
    for tournament in (PAST, 36**11 - 1):
        slip = f"/start s{b36(tournament)}_1_1_{'A' * 16}"
        await bot.says(second, second, slip, "不是任何比赛的记分单")

    await server.wait_idle()
    said = [m.body for chat in (GROUP, second) for m in server.outbox(chat)]
    said += [a.text or "" for a in server.answered_callbacks.values()]
    assert not [s for s in said if s.startswith(APOLOGIES)]
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []

    # The live page of a token naming such an event: 404, as for any unknown token.
    engine = make_engine(bot.settings.database_url)
    pages = LivePages(bot.settings, Catalogue(), make_sessionmaker(engine))
    app = web.Application()
    pages.add_routes(app)
    try:
        async with TestClient(TestServer(app)) as client:
            for tournament in (PAST, 36**11 - 1, 0):
                for path in ("", "/state", "/calendar.ics"):
                    got = await client.get(f"/e/{b36(tournament)}-secret{path}")
                    assert got.status == 404
    finally:
        await engine.dispose()
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []

"""The Mini App refuses what it must and writes nothing when it does: missing, forged,
expired and replayed launch data (401), another chat's event and a player's try at an
organiser's action (403), garbage bodies and ids out of range (400/404). After each
refusal every row of the database, the outbox and the processed update ids included,
is as it was."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from bot.application.miniapp_links import CONSOLE, FORM
from bot.application.types import GROUP_ANONYMOUS_BOT
from db.models import Base, TableRow, Tournament
from tests.handlers.memory import Chats
from tests.handlers.miniapp import MiniAppClient, console, form

GROUP, OTHER, ADMIN, STRANGER = -5401, -5402, 1, 77
PLAYERS = (11, 12, 13, 14)


async def everything(chats: Chats) -> dict[str, list[Any]]:
    found = {}
    async with chats.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            found[table.name] = [tuple(r) for r in await conn.execute(select(table))]
    return found


async def event(chats: Chats) -> Tournament:
    """An opened Big Two round in GROUP; ADMIN also organises OTHER (an event there too)."""
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, "/round 2026-11-20 18:00")
    chats.user(STRANGER, "Stranger", lang="en")
    chats.user(GROUP_ANONYMOUS_BOT, "Group", lang="en")
    chats.admins(OTHER, STRANGER)
    await chats.says(OTHER, STRANGER, "/new bigtwo Other")
    async with chats.sessionmaker() as session:
        return (await session.scalars(select(Tournament).order_by(Tournament.id))).first()  # type: ignore[return-value]


async def captain(chats: Chats) -> int:
    async with chats.sessionmaker() as session:
        row = (await session.scalars(select(TableRow))).one()
    return int(row.seats[0])


async def test_launch_data_that_is_missing_forged_expired_or_replayed_is_401(
    chats: Chats,
) -> None:
    t = await event(chats)
    async with MiniAppClient(chats) as app:
        before = await everything(chats)
        fine = app.launch(ADMIN)
        assert (await app.get("/app/api/state", fine, start=console(t))).status == 200
        refused = {
            "missing": None,
            "not tma": "",
            "garbage": "hello",
            "another bot's": app.launch(ADMIN, token="654321:OTHER"),
            "tampered": fine.replace("%22id%22%3A1%2C", "%22id%22%3A2%2C"),
            "a day and a minute old": app.launch(
                ADMIN, auth_date=(chats.now - timedelta(days=1, minutes=1)).timestamp()
            ),
            "from the future": app.launch(
                ADMIN, auth_date=(chats.now + timedelta(hours=1)).timestamp()
            ),
            "huge": "a" * 6000,  # past ours (aiohttp refuses headers past 8 kB itself)
        }
        assert refused["tampered"] != fine
        for why, init in refused.items():
            state = await app.get("/app/api/state", init, start=console(t))
            assert state.status == 401, why
            body = {"start": console(t), "action": "draw", "request": "a-fresh-request"}
            assert (await app.post("/app/api/action", init, body)).status == 401, why
        assert await everything(chats) == before

        # A replayed action: the same launch data and request id run once, then 401.
        body = {"start": console(t), "action": "deadline", "fields": {"when": "2026-11-22 18:00"}}
        body["request"] = "replayed-request-1"
        first = await app.post("/app/api/action", fine, body)
        assert first.status == 200 and first.body["done"]
        await chats.deliver()
        after_first = await everything(chats)
        again = await app.post("/app/api/action", fine, body)
        assert again.status == 401 and again.body["error"] == "replayed"
        await chats.deliver()
        assert await everything(chats) == after_first


async def test_roles_are_the_chats_and_another_chats_event_is_403(chats: Chats) -> None:
    t = await event(chats)
    player = await captain(chats)
    async with chats.sessionmaker() as session:
        other = (await session.scalars(select(Tournament).where(Tournament.chat_id == OTHER))).one()
    async with MiniAppClient(chats) as app:
        before = await everything(chats)
        # not in the event at all; the organiser of another chat; an anonymous admin's id
        assert (await app.state(STRANGER, console(t))).status == 403
        assert (await app.state(STRANGER, form(t))).status == 403
        assert (await app.state(GROUP_ANONYMOUS_BOT, console(t))).status == 403
        assert (await app.state(ADMIN, console(other))).status == 403
        # a player sending the organiser's actions, or asking for the undo preview
        for action, fields in [
            ("fix", {"table": 1, "result": "A0 B1 C2 D3"}),
            ("forfeit", {"table": 1}),
            ("penalty", {"player": player, "how": "warn"}),
            ("dq", {"player": PLAYERS[1]}),
            ("undo", {}),
            ("cancel", {}),
        ]:
            answer = await app.act(player, form(t), action, **fields)
            assert answer.status == 403, (action, answer.body)
        assert (await app.get("/app/api/undo", app.launch(player), start=form(t))).status == 403
        check = {"start": form(t), "table": 1, "mode": "fix", "result": "A0 B1 C2 D3"}
        assert (await app.post("/app/api/check", app.launch(player), check)).status == 403
        # someone else's table, and dropping another player: the command's own refusals
        other_seat = next(u for u in PLAYERS if u != player)
        dropped = await app.act(player, form(t), "drop", player=other_seat)
        assert dropped.status == 403
        # the stranger's actions on this event, and this admin's on the other chat's
        assert (await app.act(STRANGER, console(t), "draw")).status == 403
        assert (await app.act(ADMIN, console(other), "draw")).status == 403
        assert await everything(chats) == before
        # a player they are: their own view, with their table
        mine = await app.state(player, form(t))
        assert mine.status == 200 and mine.body["role"] == "player"
        assert mine.body["mine"]["table"]["number"] == 1 and "people" not in mine.body


def action(name: str, request: str = "abcdefgh1", **fields: Any) -> bytes:
    return json.dumps({"action": name, "request": request, "fields": fields}).encode()


TOO_BIG = 2**60  # past any Telegram id (52 bits)
GARBAGE = [
    ("c1", b"not json", 400),
    ("c1", b"[1, 2, 3]", 400),
    ("c1", b'{"action": "draw"}', 400),  # no request id
    ("c1", action("nuke"), 400),
    ("c1", b'{"action": "fix", "request": "abcdefgh1", "fields": []}', 400),
    ("c1", action("fix", table=1), 400),  # no result
    ("c1", action("fix", request="abc"), 400),  # a request id too short
    ("c1", action("fix", table=10**20, result="A1"), 400),
    ("c1", action("fix", table=-3, result="A1"), 400),
    ("c1", action("fix", table=True, result="A1"), 400),
    ("c1", action("dq", player=TOO_BIG), 400),
    ("c1", action("forfeit", seat="1Z"), 400),
    ("c1", action("penalty", player=11, how="points", points="1e999"), 400),
    ("c1", action("fix", table=1, hands=[{"cards": ["99", "0", "0", "0"]}]), 400),
    ("c1", action("fix", table=1, hands="all"), 400),
    ("c1", action("fix", table=1, result="A" * 700), 400),
    ("c1", action("round", when={"at": 1}), 400),
    ("c1", b'{"x": "' + b"a" * 20_000 + b'"}', 413),
    ("czzzzzzzzzzzzzzzzzz", action("draw"), 404),
    ("czzzzzzz", action("draw"), 404),  # past 2**31
    ("c99999", action("draw"), 404),  # no such event
    ("x1", action("draw"), 404),
    ("s1_1_1_AAAAAAAAAAAAAAAA", action("draw"), 404),  # a forged slip
]


@pytest.mark.parametrize(("start", "body", "status"), GARBAGE)
async def test_garbage_and_ids_out_of_range_are_refused_and_write_nothing(
    chats: Chats, start: str, body: bytes, status: int
) -> None:
    t = await event(chats)
    assert t.id == 1 and start[0] in (CONSOLE, FORM, "x", "s")
    async with MiniAppClient(chats) as app:
        assert app.http is not None
        before = await everything(chats)
        raw = body
        if raw.startswith(b"{") and b'"start"' not in raw:
            raw = b'{"start": "' + start.encode() + b'", ' + raw[1:]
        headers = {"Authorization": f"tma {app.launch(ADMIN)}", "Content-Type": "application/json"}
        async with app.http.post(app.url("/app/api/action"), data=raw, headers=headers) as answer:
            assert answer.status == status, await answer.text()
        big = {"start": start, "table": 10**30, "result": "A1"}
        async with app.http.post(app.url("/app/api/check"), json=big, headers=headers) as answer:
            assert answer.status in (400, 404)
        await chats.deliver()
        assert await everything(chats) == before


async def test_a_refused_action_says_why_in_the_chats_words_and_stores_nothing(
    chats: Chats,
) -> None:
    t = await event(chats)
    async with MiniAppClient(chats) as app:
        before = await everything(chats)
        impossible = await app.act(ADMIN, console(t), "fix", table=1, result="A0 B0 C3 D4")
        assert impossible.status == 409 and "0" in impossible.body["refusal"]
        again = await app.act(ADMIN, console(t), "draw")  # drawn already
        assert again.status == 409 and again.body["refusal"]
        assert await everything(chats) == before  # not even the refusal's message

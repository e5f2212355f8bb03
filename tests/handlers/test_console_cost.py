"""Opening the console costs the same at round 1 and at round 9: the state it asks for
reads the event's row, its players and its latest round, never the rounds before
(``bot.application.console_view``). Every SQL statement of one state request is counted
in a Swiss event of nine rounds, at its first round and at its ninth: the same
statements must run, with as many parameters (a read of every round would name nine
rounds' ids where one is named). Asked again with the version it has, the page is answered
from the event's row alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, select

from db.models import TableRow, Tournament
from tests.handlers.memory import Chats
from tests.handlers.miniapp import MiniAppClient, console

GROUP, ADMIN = -5501, 1
PLAYERS = tuple(range(11, 19))


@contextmanager
def counting(chats: Chats) -> Iterator[list[tuple[str, int]]]:
    statements: list[tuple[str, int]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
        statements.append((statement, len(parameters or ())))

    event.listen(chats.engine.sync_engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(chats.engine.sync_engine, "before_cursor_execute", record)


async def play_round(chats: Chats, number: int) -> None:
    """Open the next round and report every table as the organiser (they count at once)."""
    await chats.says(GROUP, ADMIN, "/round")
    async with chats.sessionmaker() as session:
        rows = await session.scalars(select(TableRow).order_by(TableRow.id.desc()).limit(2))
        tables = sorted(row.number for row in rows)
    for table in tables:
        await chats.says(GROUP, ADMIN, f"/report {table} A5 B8 C0 D12")


Statements = list[tuple[str, int]]


async def opening(app: MiniAppClient, chats: Chats, start: str) -> tuple[Statements, Statements]:
    """Statements of a first opening, and of a poll that finds nothing changed."""
    with counting(chats) as first:
        opened = await app.state(ADMIN, start)
    assert opened.status == 200
    version = str(opened.body["version"])
    with counting(chats) as again:
        same = await app.get("/app/api/state", app.launch(ADMIN), start=start, v=version)
    assert same.body.get("same") is True
    return first, again


async def test_the_console_opens_at_round_9_for_what_it_costs_at_round_1(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)  # Big Two, a knockout: made a Swiss
    await chats.says(GROUP, ADMIN, "/cancel yes")
    await chats.says(GROUP, ADMIN, "/new bigtwo swiss Long")
    await chats.says(GROUP, ADMIN, "/set rounds 9")
    for uid in PLAYERS:
        await chats.says(GROUP, uid, "/join")
    await chats.says(GROUP, ADMIN, "/draw")
    async with chats.sessionmaker() as session:
        t = (await session.scalars(select(Tournament).order_by(Tournament.id.desc()))).first()
    assert t is not None
    async with MiniAppClient(chats) as app:
        await play_round(chats, 1)
        at_first = await opening(app, chats, console(t))
        for number in range(2, 10):
            await play_round(chats, number)
        state = await app.state(ADMIN, console(t))
        assert state.body["round"]["number"] == 9
        at_ninth = await opening(app, chats, console(t))
    assert at_ninth == at_first
    assert len(at_first[1]) < len(at_first[0])  # unchanged: the row, not the view again

"""Every lifecycle command of the chat has a Mini App action that ends exactly as the
typed command does: the same rows, the same audit entries, the same messages in the
chat (docs/guide.en.md#console).

Each case builds its event once (the chat's commands, in memory), copies the database
twice, and sends the typed command in one copy and the console's (or the player form's)
action in the other, from the same user at the same moment: then every stored row
(timestamps the database sets aside), every audit entry and every message the chat got
must be equal. The draw's seed is stored with the event, so both copies seat alike.

The command table is walked: a command of the table that changes an event and has no
action here fails the last test, unless it is named in :data:`CHAT_ONLY` with the reason.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.application.console_actions import ACTIONS
from bot.application.routes import COMMANDS
from db.models import Base, OutboxMessage, ProcessedUpdate, TableRow, Tournament
from tests.handlers.memory import Chats, Sent, open_chats
from tests.handlers.miniapp import MiniAppClient, console, form, with_miniapp

GROUP, ADMIN = -5301, 1
P = {i: 100 + i for i in range(1, 10)}
START = datetime(2026, 11, 2, 1, 0, tzinfo=UTC)
SKIPPED_TABLES = {"outbox", "processed_updates", "send_budget"}  # compared apart
SET_BY_DATABASE = {"at", "created_at", "update_id"}  # the clock's, and the update's id
# Commands of the table that are no console action, and why.
CHAT_ONLY = {
    "new": "creates the event a console is opened for",
    "join": "one's own sign-up: the sign-up message's Join button",
    "dept": "a player's own words about themselves, typed once at sign-up",
    "set": "partly: the console sets the cap and late entry; the game's and format's knobs "
    "are set before the draw, in the chat",
    "grant": "roles are the chat's: given where everyone sees it",
    "lang": "the chat's settings",
    "tz": "the chat's settings",
    "export": "a file for the organiser's computer",
    "console": "opens the console itself",
    "table": "read-only: the form shows the player's table",
    "players": "read-only: the console's player list",
    "rules": "read-only",
    "standings": "read-only: the console's standings tab",
    "bracket": "read-only",
    "rating": "read-only",
    "me": "read-only",
    "season": "the chat's seasons, not one event's lifecycle",
    "verify": "read-only",
    "calendar": "read-only (a file)",
    "help": "read-only",
    "start": "the private chat's entry (a score slip's form opens the Mini App from it)",
}


def people(chats: Chats, count: int) -> None:
    chats.user(ADMIN, "Org", lang="en")
    chats.admins(GROUP, ADMIN)
    for i in range(1, count + 1):
        chats.user(P[i], f"P{i}", lang="en")


async def seat(chats: Chats, table: int, letter: str) -> int:
    """Who sits at ``letter`` of ``table`` in the latest round."""
    async with chats.sessionmaker() as session:
        rows = await session.scalars(select(TableRow).where(TableRow.number == table))
        row = list(rows)[-1]
    return int(row.seats["ABCD".index(letter)])


# --- the events the cases start from -----------------------------------------------------
async def signup(chats: Chats, players: int = 4, new: str = "/new bigtwo knockout Cup") -> None:
    people(chats, max(players, 9))
    await chats.says(GROUP, ADMIN, new)
    for i in range(1, players + 1):
        await chats.says(GROUP, P[i], "/join")


async def drawn(chats: Chats, players: int = 8) -> None:
    await signup(chats, players)
    await chats.says(GROUP, ADMIN, "/draw")


async def opened(chats: Chats, players: int = 8) -> None:
    await drawn(chats, players)
    await chats.says(GROUP, ADMIN, "/round 2026-11-20 18:00")


async def reported(chats: Chats) -> None:
    await opened(chats)
    await chats.says(GROUP, await seat(chats, 1, "A"), "/report 1 A5 B8 C0 D12")


async def penalised(chats: Chats) -> None:
    await opened(chats)
    await chats.says(GROUP, ADMIN, f"/penalty {P[3]} 1 late")


async def kept_apart(chats: Chats) -> None:
    await signup(chats, 8)
    await chats.says(GROUP, ADMIN, f"/apart {P[1]} {P[2]}")


async def swiss(chats: Chats) -> None:
    await signup(chats, 4, "/new xiangqi swiss Chess")


async def checking_in(chats: Chats) -> None:
    await drawn(chats)
    await chats.says(GROUP, ADMIN, "/set noshow 30")
    await chats.says(GROUP, ADMIN, "/round 2026-11-20 18:00")


async def pairs_between_rounds(chats: Chats) -> None:
    """A 掼蛋 pairs event after round 1, P9 on the waiting list (a reserve)."""
    await signup(chats, 8, "/new guandan pairs Pairs")
    await chats.says(GROUP, ADMIN, "/draw")
    await chats.says(GROUP, ADMIN, "/round")
    async with chats.sessionmaker() as session:
        rows = list(await session.scalars(select(TableRow).order_by(TableRow.number)))
    for row in rows:
        await chats.says(GROUP, ADMIN, f"/report {row.number} A C")
    await chats.says(GROUP, P[9], "/join")


Setup = Callable[[Chats], Awaitable[None]]
Who = Callable[[Chats], Awaitable[int]]


async def organiser(chats: Chats) -> int:
    return ADMIN


def sitting(table: int, letter: str) -> Who:
    async def who(chats: Chats) -> int:
        return await seat(chats, table, letter)

    return who


@dataclass(frozen=True)
class Case:
    """``typed`` in the chat, or ``action`` with ``fields`` from the Mini App, by ``who``."""

    action: str
    setup: Setup
    typed: str
    fields: dict[str, Any] = field(default_factory=dict)
    who: Who = organiser
    start: Callable[[Tournament], str] = console


BIG_TWO_HAND = [{"cards": ["0", "5", "8", "12"]}]
CASES = [
    Case("draw", signup, "/draw"),
    Case("round", drawn, "/round 2026-11-20 18:00", {"when": "2026-11-20T18:00"}),
    Case("round", drawn, "/round", {}),
    Case("deadline", opened, "/deadline 2026-11-21 20:00", {"when": "2026-11-21T20:00"}),
    Case("deadline", opened, "/deadline 2 下周五 18:00", {"table": 2, "when": "下周五 18:00"}),
    Case(
        "signup-deadline", signup, "/deadline signup 2026-11-10 12:00", {"when": "2026-11-10 12:00"}
    ),
    Case("fix", reported, "/fix 1 A0 B5 C8 D12", {"table": 1, "hands": BIG_TWO_HAND}),
    Case("fix", reported, "/fix 1 A3 B0 C1 D2", {"table": 1, "result": "A3 B0 C1 D2"}),
    Case("forfeit", opened, "/forfeit 1", {"table": 1}),
    Case("forfeit", opened, "/forfeit 2B", {"seat": "2B"}),
    Case(
        "penalty",
        opened,
        f"/penalty {P[2]} 1.5 late",
        {"player": P[2], "how": "points", "points": "1.5", "reason": "late"},
    ),
    Case(
        "penalty", opened, f"/penalty {P[2]} cards 2", {"player": P[2], "how": "cards", "cards": 2}
    ),
    Case(
        "penalty",
        opened,
        f"/penalty {P[2]} warn noise",
        {"player": P[2], "how": "warn", "reason": "noise"},
    ),
    Case("dq", opened, f"/dq {P[4]}", {"player": P[4]}),
    Case("sub", pairs_between_rounds, f"/sub {P[1]} {P[9]}", {"out": P[1], "in": P[9]}),
    Case("drop", opened, f"/drop {P[5]} yes", {"player": P[5]}),
    Case("apart", signup, f"/apart {P[1]} {P[3]}", {"a": P[1], "b": P[3]}),
    Case("apart-clear", kept_apart, "/apart clear"),
    Case("cap", signup, "/set cap 6", {"cap": "6"}),
    Case("late", swiss, "/set late 3", {"late": "3"}),
    Case("cancel", signup, "/cancel yes"),
    Case("undo", penalised, "/undo"),
    Case("print", opened, "/print"),
    Case("live", opened, "/live"),
    Case(
        "report",
        opened,
        "/report 1 A5 B8 C0 D12",
        {"table": 1, "hands": [{"cards": ["5", "8", "0", "12"]}]},
        sitting(1, "A"),
        form,
    ),
    Case("report", opened, "/report 1 A5 B8 C0 D12", {"table": 1, "result": "A5 B8 C0 D12"}),
    Case("confirm", reported, "/confirm 1", {"table": 1}, sitting(1, "C"), form),
    Case(
        "dispute",
        reported,
        "/dispute 1 wrong count",
        {"table": 1, "reason": "wrong count"},
        sitting(1, "B"),
        form,
    ),
    Case("here", checking_in, "/here", {}, sitting(1, "D"), form),
    Case("drop", opened, "/drop yes", {}, sitting(2, "A"), form),
    Case("leave", signup, "/leave", {}, lambda chats: _p(2), form),
]


async def _p(i: int) -> int:
    return P[i]


_built: dict[str, Path] = {}


async def world(setup: Setup, migrated: Path, root: Path) -> Path:
    """The database after ``setup`` (built once per setup for the module)."""
    if setup.__name__ not in _built:
        directory = root / setup.__name__
        directory.mkdir()
        chats = await open_chats(migrated, directory, start=START)
        await setup(chats)
        await chats.engine.dispose()
        _built[setup.__name__] = directory / "memory.db"
    return _built[setup.__name__]


async def copy_of(base: Path, directory: Path) -> Chats:
    """A bot on a copy of ``base``, going on where the one that built it stopped: the
    chat's messages as they were sent, update ids and message ids after the last."""
    directory.mkdir()
    chats = await open_chats(base, directory, start=START)
    people(chats, 9)
    async with chats.sessionmaker() as session:
        last = await session.scalar(select(func.max(ProcessedUpdate.update_id)))
        sent = await session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.message_id.is_not(None), OutboxMessage.edit_message_id.is_(None))
            .order_by(OutboxMessage.id)
        )
        for out in sent:
            buttons = [[tuple(b) for b in row] for row in out.buttons] if out.buttons else None
            assert out.message_id is not None
            chats.transport.messages[out.message_id] = Sent(
                out.message_id,
                out.chat_id,
                out.kind,
                out.text,
                buttons,  # type: ignore[arg-type]
            )
    chats.transport._ids = itertools.count(max(chats.transport.messages, default=0) + 1000)
    chats._updates = itertools.count((last or 0) + 1)
    return chats


async def rows(chats: Chats) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row but the outbox, the processed update ids and the sender's budget,
    without the columns the database fills in from its clock."""
    found = {}
    async with chats.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            if table.name in SKIPPED_TABLES:
                continue
            columns = [c for c in table.columns if c.name not in SET_BY_DATABASE]
            query = select(*columns).order_by(*table.primary_key.columns)
            found[table.name] = [tuple(row) for row in await conn.execute(query)]
    return found


async def processed(chats: Chats) -> int:
    async with chats.sessionmaker() as session:
        return int(await session.scalar(select(func.count()).select_from(ProcessedUpdate)) or 0)


def said(chats: Chats) -> list[tuple[int, str, str, Any]]:
    """What every chat shows: each message's chat, kind, text and buttons, in order."""
    return [
        (m.chat_id, m.kind, m.text, m.buttons)
        for m in chats.transport.messages.values()
        if m.kind != "react"
    ]


LIVE_SECRET = re.compile(r"(/e/[0-9a-z]+-)[A-Za-z0-9_-]+")


def without_secrets(found: Any) -> Any:
    """The live page's link carries a random secret, made anew in each copy."""
    text = repr(found)
    text = LIVE_SECRET.sub(r"\1<secret>", text)
    return re.sub(r"'(live|slip_secret)': '[A-Za-z0-9_-]+'", r"'\1': '<secret>'", text)


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c.action}:{c.typed.split()[0]}{i}" for i, c in enumerate(CASES)]
)
async def test_the_action_ends_as_the_typed_command(
    case: Case, migrated: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.getbasetemp() / "console-worlds"
    root.mkdir(exist_ok=True)
    base = await world(case.setup, migrated, root)
    here = tmp_path_factory.mktemp("case")
    typed, tapped = await copy_of(base, here / "typed"), await copy_of(base, here / "tapped")
    try:
        for chats in (typed, tapped):
            with_miniapp(chats)
        async with typed.sessionmaker() as session:
            t = (await session.scalars(select(Tournament))).one()
        user = await case.who(typed)
        before = await processed(typed)
        await typed.says(GROUP, user, case.typed)
        async with MiniAppClient(tapped) as app:
            answer = await app.act(user, case.start(t), case.action, **case.fields)
        assert answer.status == 200, answer.body
        assert answer.body["done"], answer.body
        mine, theirs = await rows(tapped), await rows(typed)
        for table in theirs:
            assert without_secrets(mine[table]) == without_secrets(theirs[table]), table
        assert without_secrets(said(tapped)) == without_secrets(said(typed))
        assert said(typed)  # the chat was told something
        assert await processed(tapped) == await processed(typed) == before + 1
    finally:
        for chats in (typed, tapped):
            await chats.engine.dispose()


def test_every_lifecycle_command_has_a_console_action() -> None:
    sent = {action.command for action in ACTIONS.values()}
    tested = {ACTIONS[case.action].command for case in CASES}
    assert set(ACTIONS) == {case.action for case in CASES}  # every action is walked
    assert sent == tested
    for command in COMMANDS:
        assert command.name in sent or command.name in CHAT_ONLY, command.name
    assert set(CHAT_ONLY) <= {command.name for command in COMMANDS}

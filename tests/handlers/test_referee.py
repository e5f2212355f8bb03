"""The "call the referee" button under the round announcement: organisers are told
privately (the group when none can be), one call per table per five minutes, each
audited. (The button in the private report form: tests/e2e/test_paper.py.)"""

from __future__ import annotations

import itertools
import re

from sqlalchemy import select

from bot.application.types import Incoming
from db.models import AuditEntry
from tests.handlers.memory import Chats, Sent

GROUP, ADMIN, STRANGER = -800, 1, 99
PLAYERS = (21, 22, 23, 24, 25, 26, 27, 28)
BUTTON = "🙋 Call the referee"
TABLE = re.compile(r"^Table (\d+): (.+)$", re.M)


UPDATES = itertools.count(500_000)  # apart from Chats' own update ids


async def private(chats: Chats, uid: int, text: str) -> list[Sent]:
    inc = Incoming(
        next(UPDATES),
        uid,
        "private",
        chats.users[uid],
        text=text,
        message_id=chats.transport.user_message_id(),
    )
    return await chats._handle(inc)


async def press(chats: Chats, chat: int, uid: int, message: Sent, label: str) -> str:
    """A tap in any chat (group or private): the toast."""
    update = next(UPDATES)
    inc = Incoming(
        update,
        chat,
        "private" if chat > 0 else "supergroup",
        chats.users[uid],
        message_id=message.message_id,
        callback_id=f"cb{update}",
        callback_data=message.button(label),
    )
    before = len(chats.transport.toasts)
    await chats._handle(inc)
    return " ".join(text for text, _ in chats.transport.toasts[before:])


def inbox(chats: Chats, uid: int) -> list[str]:
    return [m.text for m in chats.transport.messages.values() if m.chat_id == uid]


async def calls(chats: Chats) -> list[dict[str, object]]:
    async with chats.sessionmaker() as session:
        rows = await session.scalars(select(AuditEntry).where(AuditEntry.action == "referee-call"))
        return [dict(row.new or {}, actor=row.actor_id) for row in rows]


async def test_a_table_calls_the_referee_once_in_five_minutes_and_organisers_hear_privately(
    chats: Chats,
) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    chats.user(STRANGER, "Passer-by", lang="en")
    await chats.says(GROUP, ADMIN, "/round")
    (announcement,) = [
        m for m in chats.transport.messages.values() if m.chat_id == GROUP and "Table 1:" in m.text
    ][-1:]
    seats = {int(n): names.split(" · ") for n, names in TABLE.findall(announcement.text)}
    caller = int(seats[2][1].split(" ")[1][1:])  # table 2's seat B ("B P23" → 23)

    # No organiser has a private chat with the bot yet: the call goes to the group.
    toast = await press(chats, GROUP, caller, announcement, BUTTON)
    assert "No organiser can be reached privately" in toast and "table 2" in toast
    alert = chats.last(GROUP).text
    assert "Referee wanted at table 2" in alert and f"Called by P{caller}" in alert
    assert all(seat.split(" ", 1)[1] in alert for seat in seats[2])  # the table's players

    # Within five minutes the same table cannot call again; another table can.
    await private(chats, ADMIN, "/start")
    chats.later(minutes=4)
    mate = int(seats[2][0].split(" ")[1][1:])
    assert "again in 1 min" in await press(chats, GROUP, mate, announcement, BUTTON)
    assert not [t for t in inbox(chats, ADMIN) if "Referee" in t]
    assert "no table" in await press(chats, GROUP, STRANGER, announcement, BUTTON)
    chats.later(minutes=1, seconds=1)
    toast = await press(chats, GROUP, mate, announcement, BUTTON)
    assert toast == "The call for table 2 reached Org."  # whom it reached, by name
    (alert,) = [t for t in inbox(chats, ADMIN) if "Referee" in t]  # privately this time
    assert "table 2" in alert and f"Called by P{mate}" in alert

    recorded = await calls(chats)
    assert [(c["table"], c["actor"], c["organisers"]) for c in recorded] == [
        (2, caller, 0),
        (2, mate, 1),
    ]

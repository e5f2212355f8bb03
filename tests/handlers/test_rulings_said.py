"""What the bot says of an organiser's ruling is what the ruling did: /dq with a reason,
and a /fix of a round held for a ruling."""

from __future__ import annotations

from sqlalchemy import select

from db.models import AuditEntry
from tests.handlers.memory import Chats

GROUP = -107400
ADMIN = 1


async def dq_rows(chats: Chats) -> list[dict[str, object] | None]:
    async with chats.sessionmaker() as session:
        rows = await session.scalars(select(AuditEntry.new).where(AuditEntry.action == "dq"))
        return list(rows)


async def test_dq_takes_a_reason_records_it_and_says_it(chats: Chats) -> None:
    chats.user(ADMIN, "Org", lang="en")
    chats.admins(GROUP, ADMIN)
    await chats.says(GROUP, ADMIN, "/new bigtwo Cup")
    for uid in range(11, 19):
        chats.user(uid, "Ann Smith" if uid == 16 else f"P{uid}", f"p{uid - 10}", lang="en")
        await chats.says(GROUP, uid, "/join")
    await chats.says(GROUP, ADMIN, "/draw")

    said = await chats.says(GROUP, ADMIN, "/dq @p5 cheating at cards")
    assert "P15 is disqualified (cheating at cards)." in said
    assert await dq_rows(chats) == [{"status": "removed", "reason": "cheating at cards"}]
    # A name with a space in it is one name, and the words after it the reason.
    said = await chats.says(GROUP, ADMIN, "/dq Ann Smith left early")
    assert "Ann Smith is disqualified (left early)." in said
    said = await chats.says(GROUP, ADMIN, "/dq @p7")  # no reason: no brackets
    assert "P17 is disqualified." in said and "(" not in said.split("disqualified")[1][:3]
    said = await chats.says(GROUP, ADMIN, "/dq nobody here")
    assert "nobody" in said and "disqualified" not in said
    assert len(await dq_rows(chats)) == 3

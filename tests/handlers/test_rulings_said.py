"""What the bot says of an organiser's ruling is what the ruling did: /dq with a reason,
and a /fix of a round held for a ruling."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from db.models import AuditEntry
from tests.handlers.harness import MemoryHarness, drawn
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


async def test_a_fix_in_a_round_held_for_a_ruling_says_what_the_next_forfeit_does(
    memory_bot: MemoryHarness,
) -> None:
    """The last round's table 2 forfeits whole at the deadline: the round waits. A /fix
    of table 1 keeps it waiting, and says so truly: confirming table 2's forfeit ends
    the event, as the next /forfeit 2 does."""
    bot = memory_bot
    names = [f"选手{i}" for i in range(1, 9)]
    _, tables = await drawn(bot, GROUP, ADMIN, "bigtwo swiss 锄大地", names, ("rounds 1",))
    await bot.says(GROUP, ADMIN, "/round 30分钟后", "第 1 轮开始")
    await bot.says(GROUP, tables[1][0], "/report 1 A5 B8 C0 D12", "确认")
    await bot.says(GROUP, tables[1][1], "/confirm", "第 1 桌结果确认")
    bot.clock.offset = timedelta(minutes=40)
    await bot.restart()
    held = await bot.server.wait_for("整桌弃权，没有真正的结果")
    assert "第 2 桌" in held.body
    await bot.says(GROUP, ADMIN, "/fix 1 A3 B8 C0 D12", "组织者更正第 1 桌")
    still = await bot.server.wait_for("第 2 桌整桌弃权")
    assert "不会因此结束" not in still.body
    assert "这一轮结束比赛就结束" in still.body and "比赛结束并公布最终名次" in still.body
    await bot.says(GROUP, ADMIN, "/forfeit 2", "第 2 桌：4 人判弃权")
    await bot.server.wait_for("结束！冠军")

"""End to end: whole events where Telegram refuses the bot part of the way, and every
announcement still ends up readable in the chat (docs/operations.md#refusals).

One group lets its members send no media and the bot is no admin there: each picture
goes as its words (the seating, the live standings, the podium), files wait until media
are allowed again. Another group is locked during the draw (members may send nothing)
and opened a while later: what it refused is sent then, in order, and the event goes on.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

import bot.transport.holds as holds
from db.models import OutboxMessage
from db.status import OutboxStatus
from playground.botapi import BotAPIServer, SentMessage
from tests.e2e.harness import Harness, tables_of

GROUP = -104100
ADMIN = 1
NAMES = [
    "张伟",
    "王芳",
    "李娜",
    "刘洋",
    "陈静",
    "杨磊",
    "赵敏",
    "黄勇",
    "周杰",
    "吴昊",
    "徐丽",
    "孙强",
]
IDS = {name: 451 + i for i, name in enumerate(NAMES)}


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(holds, "FIRST_TRY", 0.5)
    monkeypatch.setattr(holds, "LAST_TRY", 1.0)


def setup(server: BotAPIServer) -> None:
    server.add_user(ADMIN, "组织者", language_code="zh")
    for name, uid in IDS.items():
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "锄大地群", admins=[ADMIN], bot_is_admin=False)


async def play(bot: Harness, *, lock_during_draw: bool = False) -> list[SentMessage]:
    """A twelve-player Big Two knockout from /new to the champion; the announcements in
    the order the group shows them."""
    server = bot.server
    await bot.says(ADMIN, ADMIN, "/start", "可用命令")
    created = await bot.says(GROUP, ADMIN, "/new bigtwo 春季赛", "春季赛")
    for uid in IDS.values():
        await bot.joins(GROUP, uid)
    await server.wait_for(lambda m: m is created and "已报名 12 人" in m.body)
    if lock_during_draw:
        server.restrict_chat(GROUP, text=False, media=False)
        server.user_says(GROUP, ADMIN, "/draw")
        server.user_says(GROUP, IDS["张伟"], "/players")
        await server.wait_for(lambda m: m.chat_id == ADMIN and "不允许我在" in m.body)
        assert not [m for m in server.outbox(GROUP) if "抽签" in m.body and m is not created]
        server.restrict_chat(GROUP, text=True, media=True)  # a while later
        drawn = await server.wait_for("第 1 轮抽签", timeout=20)
        await server.wait_for("报名 12 人：", timeout=20)  # the /players asked meanwhile
    else:
        drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables = tables_of(drawn.body, IDS)
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    for number in sorted(tables):
        await bot.says(GROUP, ADMIN, f"/report {number} A5 B8 C0 D12", "结果确认")
    await server.wait_for("第 1 轮结束", timeout=20)
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    assert sorted(tables_of(final.body, IDS)[1]) == sorted(t[2] for t in tables.values())
    await bot.says(GROUP, ADMIN, "/report 1 A0 B3 C10", "结果确认")
    await server.wait_for("结束！冠军", timeout=20)
    await bot.says(GROUP, IDS["王芳"], "/standings", "轮积分")
    await server.wait_idle()
    return server.outbox(GROUP)


async def unsent(bot: Harness) -> list[tuple[str, str]]:
    """The group's outbox rows that did not end up sent (nor merged into a later edit):
    (kind, status)."""
    assert bot.app is not None
    async with bot.app.core.sessionmaker() as session:
        rows = await session.scalars(select(OutboxMessage).where(OutboxMessage.chat_id == GROUP))
        done = (OutboxStatus.SENT, OutboxStatus.SUPERSEDED)
        return [(r.kind, r.status) for r in rows if r.status not in done]


def shown(messages: list[SentMessage]) -> str:
    return "\n".join(m.body for m in messages)


async def test_a_whole_event_in_a_group_that_refuses_media_is_read_in_words(
    bot: Harness,
) -> None:
    server = bot.server
    setup(server)
    server.restrict_chat(GROUP, media=False)
    messages = await play(bot)
    assert [m for m in messages if m.photo is not None] == []
    text = shown(messages)
    for announcement in ("第 1 轮抽签", "第 1 轮开始", "第 1 轮结束", "第 2 轮开始", "结束！冠军"):
        assert announcement in text
    opened = next(m for m in messages if "第 1 轮开始" in m.body)
    assert len(tables_of(opened.body, IDS)) == 3  # the seating, in words
    live = [m for m in messages if m.body.startswith("📌")]
    assert len(live) == 1 and "最终名次" in live[0].body  # the live standings, to the end
    # Only pictures whose words went on their own were given up.
    assert {status for _, status in await unsent(bot)} <= {OutboxStatus.FAILED}
    assert all(kind == "photo" for kind, _ in await unsent(bot))

    exported = server.user_says(GROUP, ADMIN, "/export")
    await server.wait_idle()
    assert not [m for m in server.outbox(GROUP) if m.document is not None]  # the file waits
    server.restrict_chat(GROUP, media=True)
    csv = await server.wait_for(lambda m: m.document is not None, timeout=20)
    assert csv.chat_id == GROUP and exported["message_id"] < csv.message_id
    told = [m.body for m in server.outbox(ADMIN) if "不允许我在" in m.body]
    assert len(told) == 1 and "图片" in told[0]


async def test_a_whole_event_in_a_group_locked_during_the_draw_loses_no_announcement(
    bot: Harness,
) -> None:
    server = bot.server
    setup(server)
    messages = await play(bot, lock_during_draw=True)
    text = shown(messages)
    order = ["第 1 轮抽签", "第 1 轮开始", "第 1 轮结束", "第 2 轮开始", "结束！冠军"]
    assert [text.index(a) for a in order] == sorted(text.index(a) for a in order)
    assert await unsent(bot) == []  # every message sent, none given up
    assert len([m for m in server.outbox(ADMIN) if "不允许我在" in m.body]) == 1

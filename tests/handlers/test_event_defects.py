"""Regression tests for three defects found by playing whole events as a new user would:
a disqualified player confirming their table, partner requests sent back to back that
formed no pairs, and players pointed at /export (an organiser's command)."""

from __future__ import annotations

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -107000
ADMIN = 1


def add_players(bot: MemoryHarness, count: int, first: int = 301) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    ids = {}
    for i in range(count):
        name = f"选手{i + 1:02d}"
        bot.server.add_user(first + i, name, username=f"p{i + 1:02d}", language_code="zh")
        ids[name] = first + i
    return ids


async def test_a_disqualified_player_cannot_confirm_their_table(memory_bot: MemoryHarness) -> None:
    bot = memory_bot
    ids = add_players(bot, 4)
    await bot.says(GROUP, ADMIN, "/new xiangqi bracket 象棋", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    a, b = tables_of(drawn.body, ids)[1]
    await bot.says(GROUP, a, "/report 1 1-0; 1-0", "请同桌另一位选手确认")
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, f"/dq {name[b]}", "取消比赛资格")
    refused = await bot.says(GROUP, b, "/confirm", "已被取消比赛资格")
    assert "结果确认" not in refused.body
    assert not [m for m in bot.server.outbox(GROUP) if "✅ 第 1 桌结果确认" in (m.text or "")]


async def test_partner_requests_sent_back_to_back_form_every_pair(
    memory_bot: MemoryHarness,
) -> None:
    """Sixteen ``/join @partner`` queued at once: each pair forms on its second message."""
    bot = memory_bot
    ids = add_players(bot, 16)
    await bot.says(GROUP, ADMIN, "/new guandan pairs 掼蛋双人赛", "SHA-256")
    handles = [f"@p{i + 1:02d}" for i in range(16)]
    uids = list(ids.values())
    for i in range(0, 16, 2):
        bot.server.user_says(GROUP, uids[i], f"/join {handles[i + 1]}")
        bot.server.user_says(GROUP, uids[i + 1], f"/join {handles[i]}")
    await bot.server.wait_idle()
    formed = [m for m in bot.server.outbox(GROUP) if "一起报名成功" in (m.text or "")]
    assert len(formed) == 8
    listing = await bot.says(GROUP, ADMIN, "/players", "报名 16 人：")
    pairs = [ln for ln in listing.body.splitlines() if ln.startswith("第 ") and "组：" in ln]
    assert len(pairs) == 8
    assert "第 1 组：选手01, 选手02" in listing.body


async def test_players_are_pointed_at_a_command_they_may_use_for_the_whole_ranking(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids = add_players(bot, 12)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    player = ids["选手05"]
    shown = await bot.says(GROUP, player, "/standings", "另有 2 人")
    assert "/export" not in shown.body.split("另有 2 人", 1)[1].splitlines()[0]
    assert "/standings all" in shown.body
    whole = await bot.says(GROUP, player, "/standings all", "选手")
    assert all(name in whole.body for name in ids)

"""What the chat reads when a round ends: who goes on when some do not, and no list of
the whole field as "through" after a Swiss round, where everyone plays on."""

from __future__ import annotations

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -108100
ADMIN = 1


def seat_players(bot: MemoryHarness, count: int) -> dict[str, int]:
    names = [f"选手{i + 1}" for i in range(count)]
    return bot.server.seat_group(GROUP, ADMIN, names, first=501)


async def play_round_one(bot: MemoryHarness, new: str, ids: dict[str, int]) -> str:
    await bot.says(GROUP, ADMIN, new, "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    for number, (a, b) in tables_of(drawn.body, ids).items():
        await bot.says(GROUP, a, f"/report {number} 1-0; 1-0", "请同桌另一位选手确认")
        await bot.says(GROUP, b, "/confirm", "结果确认")
    return (await bot.server.wait_for("第 1 轮结束")).body


async def test_a_swiss_round_ends_without_calling_everyone_through(
    memory_bot: MemoryHarness,
) -> None:
    ids = seat_players(memory_bot, 4)
    ended = await play_round_one(memory_bot, "/new xiangqi swiss 象棋积分赛", ids)
    assert "晋级" not in ended and "/round" in ended


async def test_a_knockout_round_names_who_goes_on(memory_bot: MemoryHarness) -> None:
    ids = seat_players(memory_bot, 4)
    ended = await play_round_one(memory_bot, "/new xiangqi bracket 象棋赛", ids)
    through = ended.split("晋级：", 1)[1].splitlines()[0]
    assert len([name for name in ids if name in through]) == 2

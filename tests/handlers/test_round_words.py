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


async def test_a_best_loser_is_named_as_one_when_the_round_ends(
    memory_bot: MemoryHarness,
) -> None:
    """Eight at Big Two: two tables send on one winner each, fewer than a table of three,
    so the best loser fills the final (docs/rules/knockout.md#lucky-loser); the round's
    end says which of those going on lost their table."""
    ids = seat_players(memory_bot, 8)
    await memory_bot.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地", "SHA-256")
    for uid in ids.values():
        await memory_bot.joins(GROUP, uid)
    drawn = await memory_bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await memory_bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    (one, first), (two, second) = tables_of(drawn.body, ids).items()
    # Seat A wins each table; table 1's B loses by less than table 2's B.
    for number, seats, report in ((one, first, "A0 B3 C10 D13"), (two, second, "A0 B5 C10 D13")):
        await memory_bot.says(GROUP, seats[0], f"/report {number} {report}", "请同桌")
        await memory_bot.says(GROUP, seats[1], "/confirm", "结果确认")
    ended = (await memory_bot.server.wait_for("第 1 轮结束")).body
    who = {uid: name for name, uid in ids.items()}
    through = ended.split("晋级：", 1)[1].splitlines()[0].split(", ")
    assert sorted(through) == sorted(
        [who[first[0]], who[second[0]], f"{who[first[1]]}（落败者递补）"]
    )

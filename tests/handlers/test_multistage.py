"""Seed 000's 分组淘汰制 through the bot: 18 斗地主 players, 预选赛 groups → 小组赛 groups →
淘汰赛 五局三胜 → 决赛 七局四胜 (docs/rules/multistage.md), played to the champion, and
``/set stages`` with its words and refusals."""

from __future__ import annotations

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness, drawn

GROUP = -139500
ADMIN = 1
# Strongest first: at every table the strongest player takes the landlord and wins.
NAMES = [
    "甲",
    "乙",
    "丙",
    "丁",
    "戊",
    "己",
    "庚",
    "辛",
    "壬",
    "癸",
    "子",
    "丑",
    "寅",
    "卯",
    "辰",
    "巳",
    "午",
    "未",
]
SEATS = "ABC"


def strongest(seats: list[int]) -> str:
    """The seat letter of the strongest player at a table (the lowest id: the first name)."""
    return SEATS[seats.index(min(seats))]


async def play_round(
    bot: MemoryHarness, tables: dict[int, list[int]], hands: str, last: str
) -> str:
    """Report every table (the strongest is landlord: ``hands`` with ``{L}`` for that
    seat), each confirmed by the next seat; the text of what the last confirmation
    brought (``last``: the round's end or the event's)."""
    said = ""
    for number, seats in tables.items():
        text = hands.format(L=strongest(seats))
        await bot.says(GROUP, seats[0], f"/report {number} {text}", "请同桌另一位选手确认")
        expect = "结果确认" if number != max(tables) else last
        said = (await bot.says(GROUP, seats[1], "/confirm", expect)).body
    return said


async def test_seed_000_multistage_with_18_players_plays_its_four_stages_to_the_champion(
    memory_bot: MemoryHarness,
) -> None:
    """The rule book by hand: 甲 wins every hand they play as landlord (+6, the farmers −3),
    so 甲 tops their 预选赛 group (three groups of 6, three rounds), their 小组赛 group (two
    groups of 3, one hand), wins the 淘汰赛 table (the clock stops after two hands, 2–0–0:
    the score so far decides) and the final of best of 7 after 3 lost hands and 4 won: the
    champion. The round announcements name the four stages; the final refuses a hand
    after someone won four."""
    bot = memory_bot
    ids, tables = await drawn(bot, GROUP, ADMIN, "doudizhu multistage 分组淘汰赛", NAMES)
    rules = (await bot.says(GROUP, ADMIN, "/rules", "按下面的阶段")).body
    assert "/set stages groups top2 bo1 groups top2 bo1 knockout bo5 final bo7" in rules
    assert "1. 预选赛：" in rules and "每组前 2 名晋级" in rules
    assert "2. 小组赛：" in rules and "3. 淘汰赛：" in rules and "每场5局3胜制" in rules
    assert "4. 决赛：" in rules and "每场7局4胜制" in rules and "跳过" not in rules
    stages = []
    for number in range(1, 6):
        opened = (await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")).body
        stages.append(next(s for s in ("预选赛", "小组赛", "淘汰赛") if f"本轮是{s}" in opened))
        tables = tables_of(opened, ids)
        if number <= 4:  # the groups: one hand a match, the strongest at each table wins
            assert "每场一局定胜负" in opened
            assert await play_round(bot, tables, "{L} bid3 win", f"第 {number} 轮结束")
            continue
        assert "每场五局三胜" in opened and len(tables) == 1 and "轮空" in opened
        # the clock stopped after two hands: 2–0–0 is accepted, the score so far decides
        went_on = await play_round(bot, tables, "{L} bid1 win; {L} bid1 win", "第 5 轮结束")
        assert "甲" in went_on
    assert stages == ["预选赛"] * 3 + ["小组赛", "淘汰赛"]
    final = (await bot.says(GROUP, ADMIN, "/round", "第 6 轮开始")).body
    assert "本轮是决赛" in final and "每场七局四胜" in final
    assert "递补" in final  # a table of 3 and a bye left 2: the best loser fills the final
    (seats,) = tables_of(final, ids).values()
    assert ids["甲"] in seats
    champion = SEATS[seats.index(ids["甲"])]
    too_long = "; ".join([f"{champion} bid1 win"] * 5)
    refused = await bot.says(GROUP, seats[0], f"/report 1 {too_long}", "不会有第")
    assert "前 4 局已分出胜负，不会有第 5 局" in refused.body
    # 甲 loses three hands as landlord (both farmers win each), then wins four: 4–3–3
    hands = "; ".join([f"{champion} bid1 lose"] * 3 + [f"{champion} bid1 win"] * 4)
    await bot.says(GROUP, seats[0], f"/report 1 {hands}", "请同桌另一位选手确认")
    await bot.says(GROUP, seats[1], "/confirm", "结束！冠军")
    standings = (await bot.says(GROUP, ADMIN, "/standings", "最终名次")).body
    first = next(line for line in standings.splitlines() if line.startswith("1. "))
    assert "甲" in first and "冠军" in first and "本场胜局 4" in first


async def test_set_stages_takes_words_in_either_language_and_refuses_unknown_ones(
    memory_bot: MemoryHarness,
) -> None:
    """Refused words name the reason and store nothing; /rules reads the stages back, and
    says which the field signed up skips."""
    bot = memory_bot
    ids = bot.server.seat_group(GROUP, ADMIN, NAMES[:5], 301)
    await bot.says(GROUP, ADMIN, "/new doudizhu 分组淘汰 部门赛", "SHA-256")
    refused = await bot.says(GROUP, ADMIN, "/set stages groups top2 semis final", "semis")
    assert "不认识“semis”" in refused.body and "knockout" in refused.body
    refused = await bot.says(GROUP, ADMIN, "/set stages groups top2 knockout bo5", "决赛")
    assert "要以一个决赛" in refused.body
    refused = await bot.says(GROUP, ADMIN, "/set stages knockout top2 final", "top2")
    assert "只能跟在小组" in refused.body
    await bot.says(GROUP, ADMIN, "/set stages 小组 前1 淘汰 3局 决赛 5局", "已设置")
    rules = (await bot.says(GROUP, ADMIN, "/rules", "按下面的阶段")).body
    assert "/set stages groups top1 bo1 knockout bo3 final bo5" in rules  # as read back
    assert "1. 小组赛：" in rules and "每组前 1 名晋级" in rules
    assert "2. 淘汰赛：" in rules and "每场3局2胜制" in rules and "3. 决赛：" in rules
    assert "预选赛" not in rules
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    rules = (await bot.says(GROUP, ADMIN, "/rules", "按下面的阶段")).body
    assert "1. 小组赛：按现在 5 人跳过" in rules  # groups need two tables' players
    assert "2. 淘汰赛：抽签分桌淘汰" in rules and "3. 决赛：一桌决赛" in rules


async def test_mid_group_stage_nobody_holds_a_group_place_or_is_through(
    memory_bot: MemoryHarness,
) -> None:
    """After one table of the 预选赛's first round, a group place is claimed by nobody (the
    groups have three rounds to play) and the table's winner is still playing, not
    through; the others wait for their tables (docs/rules/multistage.md#ranking)."""
    bot = memory_bot
    ids, _ = await drawn(bot, GROUP, ADMIN, "doudizhu multistage 分组淘汰赛", NAMES)
    opened = (await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")).body
    number, seats = next(iter(tables_of(opened, ids).items()))
    await bot.says(GROUP, seats[0], f"/report {number} {strongest(seats)} bid3 win", "请同桌")
    await bot.says(GROUP, seats[1], "/confirm", "结果确认")
    standings = (
        await bot.says(GROUP, ADMIN, "/standings all", lambda m: m.body.startswith("📊"))
    ).body
    winner = NAMES[min(seats) - min(ids.values())]
    assert f"1. {winner} — 第1轮进行中 · 积分 6" in standings
    assert "小组第" not in standings and "晋级" not in standings
    assert standings.count("等待第") == len(NAMES) - 3


async def test_stages_that_overfill_the_final_are_refused_at_the_draw(
    memory_bot: MemoryHarness,
) -> None:
    """Seven 斗地主 players and ``groups top1 final``: the groups are skipped and the final
    of three took the first three by sign-up. /draw refuses it, with how many would reach
    the final and the same stages with a knockout; set so, the draw goes ahead."""
    bot = memory_bot
    ids = bot.server.seat_group(GROUP, ADMIN, NAMES[:7], 301)
    await bot.says(GROUP, ADMIN, "/new doudizhu 分组淘汰 部门赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set stages groups top1 final bo3", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    refused = await bot.says(GROUP, ADMIN, "/draw", "进入决赛")
    assert "有 7 人进入决赛，决赛一桌只坐 3 人" in refused.body
    fix = "groups top1 bo1 knockout bo5 final bo3"
    assert f"/set stages {fix}" in refused.body
    assert "第 1 轮抽签" not in "\n".join(m.body for m in bot.server.outbox(GROUP))
    await bot.says(GROUP, ADMIN, f"/set stages {fix}", "已设置")
    knockout = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    assert len(tables_of(knockout.body, ids)) == 2  # the knockout's tables, no final of 7

"""/rules lists every preset's stages (docs/rules/README.md#stages) under its prose, one
line each, as the format plays them for the event's knobs and the field signed up now:
what the organiser sets with /set and the players who join change the lines."""

from __future__ import annotations

from tests.handlers.memory import Chats

ADMIN = 1


async def new_event(chats: Chats, chat: int, lang: str, words: str) -> str:
    chats.user(ADMIN, "Org", lang=lang)
    chats.admins(chat, ADMIN)
    await chats.says(chat, ADMIN, f"/lang {lang}")
    await chats.says(chat, ADMIN, f"/new {words} Cup")
    return await chats.says(chat, ADMIN, "/rules")


async def test_bracket_rules_name_the_last_three_or_the_final_as_the_knob_says(
    chats: Chats,
) -> None:
    rules = await new_event(chats, -801, "zh", "xiangqi bracket")
    assert "1. 单败淘汰：抽签配对，每轮减半" in rules and "输一场即出局" in rules
    assert "2. 最后三人：最后 3 名（组）相互对阵" in rules
    assert "同分：循环赛胜场 → 循环赛局分 → 相互胜负 → 翻牌" in rules
    await chats.says(-801, ADMIN, "/set last3 off")
    rules = await chats.says(-801, ADMIN, "/rules")
    assert "最后三人" not in rules and "2. 决赛：一桌决赛" in rules


async def test_groups_rules_in_english_follow_the_final_knob_and_the_field(chats: Chats) -> None:
    rules = await new_event(chats, -802, "en", "xiangqi groups")
    assert "1. Group stage: groups by lot" in rules and "the top 2 of each group go on" in rules
    assert "2. Crossover: each group's first against the other group's second" in rules
    assert "3. Final: one final table" in rules
    await chats.says(-802, ADMIN, "/set series stages")
    await chats.says(-802, ADMIN, "/set final_best_of 3")
    rules = await chats.says(-802, ADMIN, "/rules")
    assert "3. Final: one final table; a match is best of 3" in rules


async def test_knockout_rules_say_which_stage_the_field_signed_up_skips(chats: Chats) -> None:
    rules = await new_event(chats, -803, "zh", "doudizhu knockout")
    assert "1. 淘汰赛：抽签分桌淘汰" in rules and "不足一桌时由成绩最好的淘汰者递补" in rules
    assert (
        "2. 决赛：一桌决赛" in rules
        and "同分：弃权 → 最后一桌得分 → 加赛 → 决赛翻牌 → 翻牌" in rules
    )
    for uid in (11, 12, 13):
        chats.user(uid, f"P{uid}")
        await chats.says(-803, uid, "/join")
    rules = await chats.says(-803, ADMIN, "/rules")
    assert "1. 淘汰赛：按现在 3 人跳过" in rules  # three fit the final table at once
    swiss = await new_event(chats, -804, "zh", "doudizhu swiss")
    assert "不淘汰：共 5 轮" in swiss
    await chats.says(-804, ADMIN, "/set rounds 7")
    assert "不淘汰：共 7 轮" in await chats.says(-804, ADMIN, "/rules")

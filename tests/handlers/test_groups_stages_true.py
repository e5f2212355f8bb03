"""小组循环 and 积分晋级 at tables of three say only true things, and their knobs either
work or are refused (issue 39): played through the bot as organisers play them, reading
/standings, the pinned live standings and /me."""

from __future__ import annotations

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness, drawn

GROUP = -39100
ADMIN = 1
NAMES = ["王芳", "李娜", "张伟", "刘洋", "陈静", "杨磊", "赵敏", "黄勇", "周杰"]


def line_of(body: str, name: str) -> str:
    """``name``'s ranking line (``3. name — …``)."""
    found = [ln for ln in body.splitlines() if f". {name} " in f"{ln} "]
    assert found, f"{name} not ranked in\n{body}"
    return found[0]


async def standings(bot: MemoryHarness) -> str:
    """The organiser's /standings all, as the chat reads it."""
    return (await bot.says(GROUP, ADMIN, "/standings all", lambda m: m.body.startswith("📊"))).body


async def play_groups(bot: MemoryHarness, ids: dict[str, int]) -> dict[int, list[int]]:
    """Every group round played (seat A +4, the others −2), no table of three seated
    twice (nine players are one group of nine, not six and a three replaying one table);
    the final's table."""
    seen: list[set[int]] = []
    for rnd in range(1, 9):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {rnd} 轮开始")
        tables = tables_of(opened.body, ids)
        if len(tables) == 1:  # the final table
            return tables
        seen += [set(seats) for seats in tables.values()]
        assert all(seen.count(s) == 1 for s in seen), opened.body
        for n in tables:
            await bot.says(GROUP, ADMIN, f"/report {n} total A+4 B-2 C-2", "结果确认")
    raise AssertionError("no final table")


async def test_a_doudizhu_group_final_shows_figures_and_play_offs_only_where_true(
    memory_bot: MemoryHarness,
) -> None:
    """斗地主 groups, 9 players. When the final table opens, its three players share 1st
    place, reading 决赛 and no figure (no placeholder, no play-off); /me
    says the same. The final's top two level: they, and only they, await a play-off,
    sharing 1st; the play-off decides, and the champion's line says so."""
    bot = memory_bot
    ids, _ = await drawn(bot, GROUP, ADMIN, "doudizhu groups 斗地主", NAMES)
    name = {v: k for k, v in ids.items()}
    final = [name[u] for u in (await play_groups(bot, ids))[1]]
    live = await bot.server.wait_for(lambda m: "实时" in m.body and final[0] in m.body)
    shown = await standings(bot)
    me = await bot.says(GROUP, ids[final[0]], "/me", "斗地主")
    for body in (shown, live.body):
        for who in final:
            line = line_of(body, who)
            assert line == f"1=. {who} — 决赛", body
        assert "同分待加赛" not in body and "-1000000000000" not in body, body
    assert "同分待加赛" not in me.body and "-1000000000000" not in me.body, me.body
    await bot.says(GROUP, ADMIN, "/report 1 total A+2 B+2 C-4", "还需加赛")
    shown = await standings(bot)
    for who in final[:2]:
        assert line_of(shown, who) == f"1=. {who} — 同分待加赛 · 最后一桌得分 2", shown
    assert line_of(shown, final[2]) == f"3. {final[2]} — 决赛 · 最后一桌得分 -4"
    opened = await bot.says(GROUP, ADMIN, "/round", "轮开始")
    seats = [name[u] for u in tables_of(opened.body, ids)[1]]
    assert sorted(seats) == sorted(final)  # two cannot sit a 斗地主 table: all three play
    scores = {final[0]: "+3", final[1]: "-1", final[2]: "-2"}
    await bot.says(
        GROUP,
        ADMIN,
        "/report 1 total "
        + " ".join(f"{seat}{scores[who]}" for seat, who in zip("ABC", seats, strict=True)),
        "最终名次",
    )
    shown = await standings(bot)
    assert line_of(shown, final[0]) == f"1. {final[0]} — 冠军 · 最后一桌得分 2（加赛分出先后）"
    assert line_of(shown, final[1]).startswith(f"2. {final[1]} — 亚军")


def hands(count: int, landlord: str = "A") -> str:
    """``count`` 斗地主 hands the landlord ``landlord`` wins at bid 1 (+2, −1, −1 each)."""
    return "; ".join(f"{landlord} bid1 bombs0 win" for _ in range(count))


async def test_doudizhu_stages_wait_for_tables_count_hands_and_play_off_ties_in_five(
    memory_bot: MemoryHarness,
) -> None:
    """斗地主 积分晋级, 9 players, ten hands a stage. Tables not reported yet wait for
    their result, nobody there tied; a report of 9 or 11 hands is refused with the reason
    and nothing is stored; a tie for the table's top is played off in five hands by the
    whole table (two cannot sit a 斗地主 table), only the tied compared, never a flip;
    /rules says so."""
    bot = memory_bot
    ids, tables = await drawn(bot, GROUP, ADMIN, "doudizhu stages 斗地主", NAMES)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, f"/report 1 {hands(10)}", "结果确认")
    shown = await standings(bot)
    me = await bot.says(GROUP, tables[2][0], "/me", "斗地主")
    assert "同分待加赛" not in shown and "同分待加赛" not in me.body, shown
    for n in (2, 3):
        for uid in tables[n]:
            assert line_of(shown, name[uid]).endswith(f"等待第{n}桌结果"), shown
    for count in (9, 11):
        refused = await bot.says(GROUP, ADMIN, f"/report 2 {hands(count)}", "本阶段每桌打")
        assert f"本阶段每桌打 10 局，上报里有 {count} 局" in refused.body, refused.body
    assert line_of(await standings(bot), name[tables[2][0]]).endswith("等待第2桌结果")
    await bot.says(GROUP, ADMIN, f"/report 2 {hands(10)}", "结果确认")
    tied = [name[u] for u in tables[3][:2]]
    await bot.says(GROUP, ADMIN, "/report 3 total A+2 B+2 C-4", "还需加赛")
    shown = await standings(bot)
    for who in tied:
        assert "同分待加赛" in line_of(shown, who), shown
    assert "同分待加赛" not in line_of(shown, name[tables[3][2]])
    rules = await bot.says(GROUP, ADMIN, "/rules", "积分晋级")
    assert "同分选手加赛五局" in rules.body and "加赛一局" not in rules.body, rules.body
    assert "本桌打满 10 局结束" in rules.body and "比赛时间结束" not in rules.body
    opened = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    assert sorted(tables_of(opened.body, ids)[1]) == sorted(tables[3])
    # the third of that table only fills it: out, not waiting as if still in
    assert "第1轮出局" in line_of(await standings(bot), name[tables[3][2]])
    refused = await bot.says(GROUP, ADMIN, f"/report 1 {hands(1)}", "本阶段每桌打")
    assert "本阶段每桌打 5 局，上报里有 1 局" in refused.body, refused.body
    seat = "ABC"[tables_of(opened.body, ids)[1].index(ids[tied[1]])]
    await bot.says(GROUP, ADMIN, f"/report 1 {hands(5, seat)}", "结果确认")
    final = await bot.says(GROUP, ADMIN, "/round", "第 3 轮开始")
    finalists = {name[u] for u in tables_of(final.body, ids)[1]}
    assert tied[1] in finalists and tied[0] not in finalists
    assert "翻牌" not in (await standings(bot))


async def test_set_hands_in_doudizhu_stages_sets_the_stages_length(
    memory_bot: MemoryHarness,
) -> None:
    """斗地主 has a ``hands`` knob of its own; in 积分晋级 /set hands 8 is the stage's
    length too: /rules says 8 and a report of 10 hands is refused."""
    bot = memory_bot
    await drawn(bot, GROUP, ADMIN, "doudizhu stages 斗地主", NAMES, ("hands 8",))
    rules = await bot.says(GROUP, ADMIN, "/rules", "积分晋级")
    assert "每桌打 8 局" in rules.body, rules.body
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    refused = await bot.says(GROUP, ADMIN, f"/report 1 {hands(10)}", "本阶段每桌打")
    assert "本阶段每桌打 8 局，上报里有 10 局" in refused.body


async def test_doudizhu_groups_refuse_knobs_no_stage_reads_and_groups_that_cannot_work(
    memory_bot: MemoryHarness,
) -> None:
    """斗地主 groups: /set playoff_best_of 5 and final_best_of 7 are refused with the reason
    (no best-of series at tables of three); 18 players refuse 4 groups (a group winner
    would miss the final table of three); 9 players refuse 2 groups (a group of three
    would replay one table), at /set and, when the field shrank after, at /draw with
    nothing drawn; the default deals one group of nine, so no table is replayed."""
    bot = memory_bot
    names = [f"选手{i:02d}" for i in range(18)]
    ids = bot.server.seat_group(GROUP, ADMIN, names, 301)
    await bot.says(GROUP, ADMIN, "/new doudizhu groups 斗地主", "SHA-256")
    for knob, value in (("playoff_best_of", 5), ("final_best_of", 7)):
        said = await bot.says(GROUP, ADMIN, f"/set {knob} {value}", knob)
        assert "不起作用" in said.body and "已设置" not in said.body, said.body
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    said = await bot.says(GROUP, ADMIN, "/set groups 4", "小组第一")
    assert "坐不下 4 个小组第一" in said.body and "已设置" not in said.body, said.body
    await bot.says(GROUP, ADMIN, "/set groups 2", "已设置")
    for uid in list(ids.values())[9:]:
        bot.server.user_says(GROUP, uid, "/leave")
    await bot.server.wait_idle()
    refused = await bot.says(GROUP, ADMIN, "/draw", "分不成")
    assert "9 人分不成 2 组" in refused.body and "最多分 1 组" in refused.body, refused.body
    said = await bot.says(GROUP, ADMIN, "/set groups 2", "分不成")
    assert "已设置" not in said.body
    await bot.says(GROUP, ADMIN, "/set groups 1", "已设置")
    drawn_ = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    assert "A 组" in drawn_.body and "B 组" not in drawn_.body, drawn_.body

"""The seeds' structures that knobs set up (issue 39), played through the bot to their
champions: seed 001's table knockout with no best losers (输一场即失去继续比赛的权利), a
third-place match, seed 004's ≤ 9 / > 9 rule for the card games, and seed 002's drawn
cards shown with the draw."""

from __future__ import annotations

import pytest

from engine.draw import stream
from engine.formats.pairs import Pairs, card_draw
from engine.games import find_game
from engine.model import RoundPlan, TournamentState
from tests.e2e.harness import byes_of, tables_of
from tests.handlers.harness import MemoryHarness, drawn

GROUP = -139000
ADMIN = 1
EIGHT = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]


async def test_one_loss_and_out_sends_on_the_winners_and_byes_to_a_final_of_three(
    memory_bot: MemoryHarness,
) -> None:
    """Seed 001 (锄大地, one loss and out), eight players, ``best_losers off``: round 1 is
    a table of four, one of three and a bye, so the two winners and the bye make a final
    of three; no loser comes back, and nobody reads "may go on as best loser" while the
    round is played (docs/rules/knockout.md#one-loss)."""
    bot = memory_bot
    ids, tables = await drawn(
        bot, GROUP, ADMIN, "bigtwo knockout 锄大地", EIGHT, ("best_losers off",)
    )
    name = {v: k for k, v in ids.items()}
    rules = await bot.says(GROUP, ADMIN, "/rules", "分桌淘汰")
    assert "输一场即出局，淘汰者不递补" in rules.body and "递补进入决赛" not in rules.body
    round1 = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    byes = byes_of(round1.body, ids)
    assert sorted(len(s) for s in tables.values()) == [3, 4] and len(byes) == 1
    assert "本轮多抽几人轮空，让晋级人数够开下一桌" in round1.body
    four = next(n for n, s in tables.items() if len(s) == 4)
    three = next(n for n, s in tables.items() if len(s) == 3)
    await bot.says(GROUP, ADMIN, f"/report {four} total A+9 B+3 C-5 D-7", "结果确认")
    mid = await bot.says(GROUP, ADMIN, "/standings all", "积分")
    assert "可能递补晋级" not in mid.body
    assert mid.body.count("第1轮出局") == 3  # table's losers are out at once
    await bot.says(GROUP, ADMIN, f"/report {three} total A-4 B+8 C-4", "结果确认")
    ended = await bot.server.wait_for("第 1 轮结束", timeout=20)
    going = ended.body.split("晋级：", 1)[1].splitlines()[0]
    finalists = [tables[four][0], tables[three][1], byes[0]]
    assert sorted(n for n in ids if n in going) == sorted(name[p] for p in finalists)
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    seats = tables_of(final.body, ids)[1]
    assert sorted(seats) == sorted(finalists) and "递补" not in final.body
    await bot.says(GROUP, ADMIN, "/report 1 total A+6 B-3 C-3", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert name[seats[0]] in done.body.split("冠军：")[1].splitlines()[0]


@pytest.mark.parametrize(
    ("new", "knob", "refusal", "fmt"),
    [
        # no table knockout here: /set names the formats that read the knob
        ("xiangqi bracket 象棋", "best_losers off", "best_losers 只用于这些赛制", "单败淘汰"),
        # 斗地主's groups end in one final table: no semi-final losers to play for third
        ("doudizhu groups 斗地主", "third on", "三四名决赛只用于一对一的半决赛", "小组循环"),
        # tables of three only: no short table, the leftovers sit out anyway
        ("doudizhu knockout 斗地主", "leftover bye", "只有 3 人一桌", "分桌淘汰"),
        # a table of two sends one on, an odd one out has a bye: nobody is ever called back
        ("xiangqi knockout 象棋", "best_losers off", "不需要落败者递补", "淘汰"),
        # 积分晋级 plays its stages' hands: the game's own end of a session is never read
        ("doudizhu stages 斗地主", "end target", "每个阶段都规定了每桌打几局", "积分晋级"),
    ],
)
async def test_a_knob_no_stage_of_the_event_reads_is_refused_with_the_reason(
    memory_bot: MemoryHarness, new: str, knob: str, refusal: str, fmt: str
) -> None:
    bot = memory_bot
    bot.server.seat_group(GROUP, ADMIN, [], 301)
    await bot.says(GROUP, ADMIN, f"/new {new}", "SHA-256")
    refused = await bot.says(GROUP, ADMIN, f"/set {knob}", refusal)
    assert "已设置" not in refused.body
    rules = await bot.says(GROUP, ADMIN, "/rules", fmt)
    assert "不递补" not in rules.body and "三四名决赛" not in rules.body  # nothing stored


async def test_a_pairs_draw_shows_the_card_each_pair_drew(memory_bot: MemoryHarness) -> None:
    """Seed 002 (掼蛋 pairs, 抽到同样花色、牌面值同样大小的为竞争对手): ten players, five
    pairs; the draw says which card each pair drew, the two pairs of a table holding the
    same rank and colour, partners at A and C against B and D, and the pair left over the
    joker; the cards are the ones the engine's draw dealt (docs/rules/pairs.md)."""
    bot = memory_bot
    names = [f"选手{i}" for i in range(1, 11)]
    ids, tables = await drawn(bot, GROUP, ADMIN, "guandan pairs 掼蛋", names)
    name = {v: k for k, v in ids.items()}
    said = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    shown = said.body.splitlines()
    seed = (await bot.says(GROUP, ADMIN, "/verify", "种子：")).body.split("种子：", 1)[1]
    fmt = Pairs(find_game("guandan")())
    players = tuple(sorted(ids.values()))
    plan = fmt.plan(TournamentState(players=players, seed=seed.splitlines()[0].strip()))
    assert isinstance(plan, RoundPlan)
    assert [list(t.players) for t in plan.tables] == [tables[1], tables[2]]
    for number, (first, second) in ((1, ("♦A", "♥A")), (2, ("♣A", "♠A"))):
        a, b, c, d = (name[p] for p in tables[number])
        line = shown[shown.index(next(x for x in shown if x.startswith(f"第{number}桌："))) + 1]
        assert line.strip() == f"抽牌：{first}（{a}、{c}）对 {second}（{b}、{d}）"
    byes = byes_of(said.body, ids)
    assert len(byes) == 2 and "轮空的一组抽到大王" in said.body
    # the engine's deal: pair number → card, from the round's stream
    state = TournamentState(players=players, seed=seed.splitlines()[0].strip())
    _, _, held = card_draw(range(1, 6), stream(state.seed, "round1"))
    shown_card = fmt.drawn_cards(plan)
    for unit, pair in enumerate(fmt.pairs(state), 1):
        assert shown_card[pair[0]] == shown_card[pair[1]] == held[unit]


async def test_a_bracket_with_third_on_plays_the_semi_losers_for_third(
    memory_bot: MemoryHarness,
) -> None:
    """Seed 004 (象棋, 每项比赛前三名设奖), four players, ``third on``: the two semi-final
    losers play for third beside the final; /rules says so, /bracket shows the match,
    and the final ranking's 3rd and 4th are its winner and loser, decided by it
    (docs/rules/bracket.md#third-place)."""
    bot = memory_bot
    names = ["红一", "红二", "黑一", "黑二"]
    ids, tables = await drawn(bot, GROUP, ADMIN, "xiangqi bracket 象棋", names, ("third on",))
    name = {v: k for k, v in ids.items()}
    rules = await bot.says(GROUP, ADMIN, "/rules", "单败淘汰")
    assert "两位半决赛负者进行三四名决赛" in rules.body
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    losers = [tables[1][1], tables[2][1]]
    for number in tables:
        await bot.says(GROUP, ADMIN, f"/report {number} 1-0; 1-0", "结果确认")
    final = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    seats = tables_of(final.body, ids)
    assert sorted(seats[2]) == sorted(losers) and "三四名决赛" in final.body
    third, fourth = seats[2]
    await bot.says(GROUP, ADMIN, "/report 2 1-0; 0.5-0.5", "结果确认")
    shown = await bot.says(GROUP, ADMIN, "/bracket", "对阵图")
    assert f"三四名决赛：{name[third]} 1.5 : 0.5 {name[fourth]}" in shown.body
    await bot.says(GROUP, ADMIN, "/report 1 0-1; 0-1", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert name[seats[1][1]] in done.body.split("冠军：")[1].splitlines()[0]
    standings = await bot.says(GROUP, ADMIN, "/standings", "最终名次")
    lines = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    assert lines[2].startswith(f"3. {name[third]} — 三四名决赛")
    assert lines[2].endswith("（三四名决赛分出先后）")
    assert lines[3].startswith(f"4. {name[fourth]} — 三四名决赛")


async def test_shengji_pairs_of_nine_or_fewer_play_groups_and_crossovers_to_a_champion_pair(
    memory_bot: MemoryHarness,
) -> None:
    """Seed 004 (80分, 人数少于或等于9人: A、B 两组循环，每组前2名交叉): eight players are
    four pairs, so the draw picks the groups; each group's two pairs meet, the winners and
    runners-up cross over (A1–B2, B1–A2), the winners play the final, and both partners
    of the winning pair are champions on one place (docs/rules/pairs.md#groups)."""
    bot = memory_bot
    names = [f"选手{i}" for i in range(1, 9)]
    ids = bot.server.seat_group(GROUP, ADMIN, names, 301)
    made = await bot.says(GROUP, ADMIN, "/new shengji 80分赛", "SHA-256")
    assert "按组数定：9 组及以下双人小组循环，多于 9 组双人赛" in made.body
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    rules = await bot.says(GROUP, ADMIN, "/rules", "现在报名")
    assert "现在报名 4 组：双人小组循环" in rules.body and "抽签分为 2 个小组" in rules.body
    await bot.says(GROUP, ADMIN, "/draw", "共 4 组（不超过 9 组）：按双人小组循环进行")
    name = {v: k for k, v in ids.items()}
    winners: list[tuple[int, int]] = []
    for number in (1, 2, 3):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        tables = tables_of(opened.body, ids)
        assert all(len(seats) == 4 for seats in tables.values()) and "抽牌" not in opened.body
        for table, (a, _, c, _) in tables.items():
            await bot.says(GROUP, ADMIN, f"/report {table} total A+3 B+0 C+3 D+0", "结果确认")
            winners.append((a, c))
    assert len(tables) == 1  # round 3 is the final, its seat A and C the winning pair
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    champions = done.body.split("冠军：")[1].splitlines()[0]
    assert name[winners[-1][0]] in champions and name[winners[-1][1]] in champions
    lines = [ln for ln in done.body.splitlines() if ln[:1].isdigit()]
    assert lines[0].startswith("1") and lines[1].startswith("1")
    assert {ln.split(" ")[1] for ln in lines[:2]} == {name[p] for p in winners[-1]}


async def test_shengji_of_more_than_nine_pairs_plays_the_knockout_by_cards(
    memory_bot: MemoryHarness,
) -> None:
    """More than nine pairs (二十人，十组): 裁减制, the pairs' knockout by cards."""
    bot = memory_bot
    names = [f"选手{i}" for i in range(1, 21)]
    ids = bot.server.seat_group(GROUP, ADMIN, names, 301)
    await bot.says(GROUP, ADMIN, "/new shengji 80分赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    rules = await bot.says(GROUP, ADMIN, "/rules", "现在报名")
    assert "现在报名 10 组：双人赛" in rules.body and "抽到同样颜色" in rules.body
    said = await bot.says(GROUP, ADMIN, "/draw", "共 10 组（多于 9 组）：按双人赛进行")
    assert "每轮淘汰一半的组" in said.body
    drawn_ = await bot.server.wait_for("第 1 轮抽签")
    assert len(tables_of(drawn_.body, ids)) == 5 and "抽牌：♦A" in drawn_.body


async def test_doudizhu_goes_by_the_field_size_as_seed_004_says(memory_bot: MemoryHarness) -> None:
    """斗地主 with no format named: nine or fewer play the groups A/B, more the table
    knockout (裁减制); /new says the rule, /rules which side of it the field is on."""
    bot = memory_bot
    names = [f"选手{i}" for i in range(1, 11)]
    ids = bot.server.seat_group(GROUP, ADMIN, names, 301)
    made = await bot.says(GROUP, ADMIN, "/new doudizhu 斗地主", "SHA-256")
    assert "按人数定：9 人及以下小组循环，多于 9 人分桌淘汰" in made.body
    for uid in list(ids.values())[:9]:
        await bot.joins(GROUP, uid)
    rules = await bot.says(GROUP, ADMIN, "/rules", "现在报名")
    assert "现在报名 9 人：小组循环" in rules.body and "小组" in rules.body
    await bot.joins(GROUP, ids["选手10"])
    rules = await bot.says(GROUP, ADMIN, "/rules", "现在报名")
    assert "现在报名 10 人：分桌淘汰" in rules.body and "每桌第一名晋级下一轮" in rules.body
    said = await bot.says(GROUP, ADMIN, "/draw", "共 10 人（多于 9 人）：按分桌淘汰进行")
    assert "每桌第一名晋级" in said.body
    drawn_ = await bot.server.wait_for("第 1 轮抽签")
    assert sorted(len(s) for s in tables_of(drawn_.body, ids).values()) == [3, 3, 3]


async def test_shengji_pairs_in_groups_with_third_on_play_the_crossover_losers_for_third(
    memory_bot: MemoryHarness,
) -> None:
    """Seed 004 (80分, 每项比赛前三名设奖), four pairs by size, ``third on``: the groups A/B,
    the crossovers, then the final and, beside it at table 2, the two crossover losers'
    pairs playing for third; each pair's partners share their place: 1, 2, 3, 4
    (docs/rules/pairs.md#groups)."""
    bot = memory_bot
    names = [f"选手{i}" for i in range(1, 9)]
    ids, _ = await drawn(bot, GROUP, ADMIN, "shengji 80分赛", names, ("third on",))
    name = {v: k for k, v in ids.items()}
    for number in (1, 2):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        for table in tables_of(opened.body, ids):
            await bot.says(GROUP, ADMIN, f"/report {table} total A+3 B+0 C+3 D+0", "结果确认")
    last = await bot.says(GROUP, ADMIN, "/round", "第 3 轮开始")
    seats = tables_of(last.body, ids)
    assert len(seats) == 2 and "三四名决赛" in last.body
    await bot.says(GROUP, ADMIN, "/report 2 total A+3 B+0 C+3 D+0", "结果确认")
    # mid-round: /bracket shows the match for third, each pair by its first member (A, B)
    shown = await bot.says(GROUP, ADMIN, "/bracket", "对阵图")
    third_line = next(ln for ln in shown.body.splitlines() if "三四名决赛：" in ln)
    a, b = (name[p] for p in tables_of(last.body, ids)[2][:2])
    assert third_line.startswith(f"🥉 三四名决赛：{a} ") and third_line.endswith(f" {b}")
    await bot.says(GROUP, ADMIN, "/report 1 total A+3 B+0 C+3 D+0", "结果确认")
    await bot.server.wait_for("结束！冠军", timeout=20)
    standings = await bot.says(GROUP, ADMIN, "/standings", "最终名次")
    lines = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    placed = {ln.split(" ")[1]: ln.split(".")[0].rstrip("=") for ln in lines}
    final, third = seats[1], seats[2]
    want = {
        **dict.fromkeys((final[0], final[2]), "1"),
        **dict.fromkeys((final[1], final[3]), "2"),
        **dict.fromkeys((third[0], third[2]), "3"),
        **dict.fromkeys((third[1], third[3]), "4"),
    }
    assert placed == {name[p]: place for p, place in want.items()}
    assert any("三四名决赛分出先后" in ln for ln in lines if ln.startswith("3"))


async def test_third_is_refused_where_pairs_play_no_crossover(memory_bot: MemoryHarness) -> None:
    """The pairs' knockout ranks its final's pairs by their own matches, and one group
    sends its top two straight to the final: no semi-final loser to play for third, so
    /set refuses ``third`` saying why, and nothing is stored."""
    bot = memory_bot
    bot.server.seat_group(GROUP, ADMIN, EIGHT, 301)
    await bot.says(GROUP, ADMIN, "/new shengji pairs 80分赛", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set third on", "对子淘汰赛的决赛由 4 对互相对阵")
    await bot.says(GROUP, ADMIN, "/set groups 1", "groups")
    await bot.says(GROUP, ADMIN, "/set third on", "只有一个小组时")
    await bot.says(GROUP, ADMIN, "/set groups 2", "groups")
    await bot.says(GROUP, ADMIN, "/set third on", "third")
    rules = await bot.says(GROUP, ADMIN, "/rules", "三四名")
    assert "三四名决赛" in rules.body
    # the groups' final is one match of two pairs, played again while level: not the
    # knockout final's play-off among several pairs
    assert "这两组再赛一桌" in rules.body and "三组以上同分" not in rules.body


async def test_a_game_knob_read_only_with_another_is_refused_and_its_session_is_enforced(
    memory_bot: MemoryHarness,
) -> None:
    """斗地主's ``hands`` counts only with ``end hands`` (docs/rules/doudizhu.md#match-end):
    /set refuses it before, saying what to set first, and stores nothing; set in that order,
    a table's report may hold no hand after the last of them, and the table is settled by
    one that does not."""
    bot = memory_bot
    other = GROUP - 1
    bot.server.seat_group(other, ADMIN, [], 301)
    await bot.says(other, ADMIN, "/new doudizhu knockout 斗地主", "SHA-256")
    refused = await bot.says(other, ADMIN, "/set hands 3", "请先 /set end hands，再设 hands")
    assert "已设置" not in refused.body
    await bot.says(other, ADMIN, "/set end hands", "已设置")
    rules = await bot.says(other, ADMIN, "/rules", "分桌淘汰")
    assert "本桌打满 10 局结束" in rules.body  # the refused 3 was not stored
    ids, tables = await drawn(
        bot, GROUP, ADMIN, "doudizhu knockout 斗地主", ["甲", "乙", "丙"], ("end hands", "hands 3")
    )
    assert len(tables) == 1
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    hand = "A bid1 win"
    over = await bot.says(GROUP, ADMIN, f"/report 1 {'; '.join([hand] * 4)}", "第 3 局后就结束了")
    assert "结果确认" not in over.body
    await bot.says(GROUP, ADMIN, f"/report 1 {'; '.join([hand] * 3)}", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    champion = next(n for n, u in ids.items() if u == tables[1][0])
    assert champion in done.body.split("冠军：")[1].splitlines()[0]

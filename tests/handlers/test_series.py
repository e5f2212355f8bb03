"""A whole 象棋 event of twelve, as an organiser runs it under the two-player games' own
rules (docs/rules/two-player.md): no format named, so more than nine players play single
elimination (裁减制), halving each round, the last three a round robin; every match is two
games, then one more at a time until someone wins. A level match (1–1) is asked for its
next game while the other tables go on; a game after the decision is refused."""

from __future__ import annotations

import re
from datetime import timedelta

from tests.e2e.harness import byes_of, tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -109000
ADMIN = 1
NAMES = [
    "赵一",
    "钱二",
    "孙三",
    "李四",
    "周五",
    "吴六",
    "郑七",
    "王八",
    "冯九",
    "陈十",
    "褚十一",
    "卫十二",
]


def won_by(seats: list[int], winner: int) -> str:
    """A 2–0 match for ``winner``, from seat A's side."""
    return "1-0; 1-0" if seats[0] == winner else "0-1; 0-1"


async def test_twelve_play_a_knockout_where_a_level_match_plays_on_at_its_table(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "象棋群", admins=[ADMIN])
    ids = {name: 501 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    name = {v: k for k, v in ids.items()}

    made = await bot.says(GROUP, ADMIN, "/new xiangqi 单位象棋赛", "SHA-256")
    assert "按人数定" in made.body
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "共 12 人（多于 9 人）：按单败淘汰进行")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    tables = tables_of(opened.body, ids)
    assert len(tables) == 6 and not byes_of(opened.body, ids)  # 12 → six matches

    # Table 1: a third game after 2–0 is refused; 1–1 after two games is no result yet.
    a, b = tables[1]
    refused = await bot.says(GROUP, a, "/report 1 1-0; 1-0; 1-0", "不会有第 3 盘")
    assert "2–0" in refused.body
    await bot.says(GROUP, a, "/report 1 1-0; 0-1", "请同桌另一位选手确认")
    await bot.says(GROUP, b, "/confirm", "✅ 第 1 桌结果确认")
    asked = await bot.server.wait_for("请下第 3 盘")
    assert f"{name[a]} 对 {name[b]}" in asked.body and "1–1" in asked.body
    assert "/report 1" in asked.body

    # Table 3 reports its first game alone: 1–0 is not a result yet, nor is it level.
    await bot.says(GROUP, ADMIN, "/report 3 1-0", "第 3 桌结果确认")
    after_one = await bot.says(GROUP, ADMIN, "/standings", "积分")
    three = tables[3]
    assert (
        f"第 3 桌 {name[three[0]]} 1–0 {name[three[1]]}（1-0）：未分胜负，等第 2 盘"
        in after_one.body
    )
    await bot.says(GROUP, ADMIN, "/report 3 1-0", "第 3 桌结果确认")

    # The other tables are not held up: each is confirmed, the round waits for table 1.
    for number in (2, 4, 5, 6):
        await bot.says(GROUP, ADMIN, f"/report {number} 1-0; 1-0", f"第 {number} 桌结果确认")
    await bot.server.wait_idle()
    assert not [m for m in bot.server.outbox(GROUP) if "第 1 轮结束" in m.body]
    waiting = await bot.says(GROUP, ADMIN, "/standings", "积分")
    assert f"第 1 桌 {name[a]} 1–1 {name[b]}（1-0; 0-1）：战平，等第 3 盘" in waiting.body
    two = tables[2]
    assert (
        f"第 2 桌 {name[two[0]]} 2–0 {name[two[1]]}（1-0; 1-0）：{name[two[0]]} 胜" in waiting.body
    )
    tree = await bot.says(GROUP, a, "/bracket", "对阵图")
    assert "战平，等第 3 盘" in tree.body

    # Game 3 is level too; game 4 decides. Each report is the next game alone. An
    # organiser's report of the next game taken back leaves the games before standing.
    await bot.says(GROUP, ADMIN, "/report 1 1-0", "1-0; 0-1; 1-0")
    await bot.says(GROUP, ADMIN, "/undo", "已撤销")
    await bot.says(GROUP, a, "/report 1 0.5-0.5", "请同桌另一位选手确认")
    await bot.says(GROUP, b, "/confirm", "1-0; 0-1; 0.5-0.5")
    await bot.server.wait_for("请下第 4 盘")
    await bot.says(GROUP, a, "/report 1 1-0; 0-1", "不会有第 5 盘")  # decided after game 4
    pending = await bot.says(GROUP, a, "/report 1 0-1", "1-0; 0-1; 0.5-0.5; 0-1")
    assert "请同桌另一位选手确认" in pending.body
    await bot.says(GROUP, b, "/confirm", "第 1 桌结果确认")
    await bot.server.wait_for("第 1 轮结束")
    tree = await bot.says(GROUP, a, "/bracket", "对阵图")
    decided = f"{name[a]} 1.5–2.5 {name[b]}（1-0; 0-1; 0.5-0.5; 0-1）：{name[b]} 胜"
    assert decided in tree.body
    winners = {b} | {tables[n][0] for n in range(2, 7)}

    # Round 2: the six winners, three matches; the last three then play a round robin.
    opened = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    second = tables_of(opened.body, ids)
    assert {p for seats in second.values() for p in seats} == winners and len(second) == 3
    for number, seats in second.items():
        await bot.says(GROUP, ADMIN, f"/report {number} {won_by(seats, min(seats))}", "结果确认")
    last3 = sorted(min(seats) for seats in second.values())
    champion, second_place, third = last3
    await bot.server.wait_for("第 2 轮结束")

    for round_number in (3, 4, 5):  # one match a round, the third player resting
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {round_number} 轮开始")
        [seats] = tables_of(opened.body, ids).values()
        assert set(seats) <= set(last3) and byes_of(opened.body, ids)
        winner = champion if champion in seats else second_place
        await bot.says(GROUP, ADMIN, f"/report 1 {won_by(seats, winner)}", "结果确认")
    done = await bot.server.wait_for("结束！冠军")
    assert name[champion] in done.body.split("冠军：")[1].splitlines()[0]

    standings = await bot.says(GROUP, ADMIN, "/standings", "积分")
    places = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    assert [ln.split(". ", 1)[1].split(" ")[0] for ln in places[:3]] == [
        name[champion],
        name[second_place],
        name[third],
    ]


async def test_a_level_match_at_the_deadline_waits_for_the_organiser(
    memory_bot: MemoryHarness,
) -> None:
    """Its two games stand: the table is neither forfeited nor settled by the deadline."""
    bot = memory_bot
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "象棋群", admins=[ADMIN])
    ids = {name: 501 + i for i, name in enumerate(NAMES[:4])}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    await bot.says(GROUP, ADMIN, "/new xiangqi bracket 象棋", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    tables = tables_of(opened.body, ids)
    await bot.says(GROUP, ADMIN, "/report 1 0.5-0.5; 0.5-0.5", "请下第 3 盘")
    await bot.says(GROUP, ADMIN, "/report 2 0-1; 0-1", "第 2 桌结果确认")
    await bot.server.wait_idle()
    bot.clock.offset = timedelta(days=400)
    await bot.restart()
    settled = await bot.server.wait_for("截止")
    assert "整桌弃权：—" in settled.body and "待组织者裁定：第 1 桌" in settled.body
    await bot.says(GROUP, ADMIN, "/report 1 0-1", "0.5-0.5; 0.5-0.5; 0-1")
    done = await bot.server.wait_for("第 1 轮结束")
    assert {v: k for k, v in ids.items()}[tables[1][1]] in done.body


# --- the same rule in every other format a two-player game plays in --------------------
# (docs/rules/two-player.md#formats)


def setup(bot: MemoryHarness, count: int) -> dict[str, int]:
    """The organiser, the group and ``count`` players (stronger the earlier in NAMES)."""
    return bot.server.seat_group(GROUP, ADMIN, NAMES[:count], first=501, title="象棋群")


def stronger_wins(seats: list[int], close: bool) -> tuple[str, tuple[float, float]]:
    """The report of a match the stronger player (lower id) wins, from seat A's side:
    2–0, or (``close``) level after two games and won in the third. Also the games'
    points of seats A and B."""
    a_wins = seats[0] < seats[1]
    if close:
        return ("1-0; 0-1; 1-0", (2, 1)) if a_wins else ("0-1; 1-0; 0-1", (1, 2))
    return ("1-0; 1-0", (2, 0)) if a_wins else ("0-1; 0-1", (0, 2))


def ranking_lines(body: str) -> list[tuple[str, float]]:
    """``N. name — 场分 X…`` lines of /standings: (name, match points) in order."""
    out = []
    for line in body.splitlines():
        m = re.match(r"\d+=?\. (\S+) — (?:.* · )?场分 ([\d.]+)", line)
        if m:
            out.append((m.group(1), float(m.group(2))))
    return out


async def test_a_swiss_of_six_plays_matches_and_ranks_match_points_then_games(
    memory_bot: MemoryHarness,
) -> None:
    """瑞士移位 of 象棋, three rounds: every round is matches under sudden death; a third
    game after 2–0 is refused; a 1–1 match plays on at its table while the others are
    confirmed; the standings rank match points, then game points (docs/rules/two-player.md#swiss),
    as recomputed here from the games played, and the first of them is champion."""
    bot = memory_bot
    ids = setup(bot, 6)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new xiangqi swiss 象棋瑞士", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set rounds 3", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    rules = await bot.says(GROUP, ADMIN, "/rules", "📋")
    assert "按场分排名" in rules.body and "场分相同看局分" in rules.body
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    match_points = dict.fromkeys(ids.values(), 0.0)
    game_points = dict.fromkeys(ids.values(), 0.0)
    for round_number in (1, 2, 3):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {round_number} 轮开始")
        assert "每场先下两盘" in opened.body
        tables = tables_of(opened.body, ids)
        assert len(tables) == 3
        for number, seats in tables.items():
            # The strongest mostly wins 2–0, the others now 2–0, now in a deciding game;
            # in round 1, table 1 is 2–0 (a third game refused), table 2 goes to game 3.
            close = min(seats) != ids[NAMES[0]] and (sum(seats) + round_number) % 2 == 1
            if round_number == 1:
                close = number == 2
            report, (a, b) = stronger_wins(seats, close)
            if round_number == 1 and number == 1:
                refused = await bot.says(GROUP, ADMIN, f"/report 1 {report}; 1-0", "不会有第 3 盘")
                assert ("2–0" if seats[0] < seats[1] else "0–2") in refused.body
            match_points[min(seats)] += 1
            game_points[seats[0]] += a
            game_points[seats[1]] += b
            if round_number == 1 and number == 2:  # level at 1–1: its game 3 comes last
                first, _, deferred = report.rpartition("; ")
                await bot.says(GROUP, ADMIN, f"/report 2 {first}", "请下第 3 盘")
                continue
            await bot.says(GROUP, ADMIN, f"/report {number} {report}", f"第 {number} 桌结果确认")
        if round_number == 1:  # every other table confirmed; the round waits for table 2
            waiting = await bot.says(GROUP, ADMIN, "/standings", "📊")
            assert "战平，等第 3 盘" in waiting.body
            assert not [m for m in bot.server.outbox(GROUP) if "第 1 轮结束" in m.body]
            await bot.says(GROUP, ADMIN, f"/report 2 {deferred}", "第 2 桌结果确认")
        if round_number < 3:
            await bot.server.wait_for(f"第 {round_number} 轮结束")
        if round_number == 1:  # table 2 went to game 3 and was decided there
            standings = await bot.says(GROUP, ADMIN, "/standings", "📊")
            a2, b2 = tables[2]
            score = "2–1" if a2 < b2 else "1–2"
            full = stronger_wins(tables[2], True)[0]
            line = f"第 2 桌 {name[a2]} {score} {name[b2]}（{full}）：{name[min(a2, b2)]} 胜"
            assert line in standings.body
    done = await bot.server.wait_for("结束！冠军")
    standings = await bot.says(GROUP, ADMIN, "/standings", "场分")
    shown = ranking_lines(standings.body)
    assert len(shown) == 6 and shown[0][0] in done.body.split("冠军：")[1].splitlines()[0]
    assert all(mp == match_points[ids[n]] for n, mp in shown)
    keys = [(match_points[ids[n]], game_points[ids[n]]) for n, _ in shown]
    assert keys == sorted(keys, reverse=True)  # match points, then game points
    assert sum(match_points.values()) == 9  # nine matches, each won by someone


async def play_elimination(bot: MemoryHarness, ids: dict[str, int], stage: str) -> list[str]:
    """Play rounds until the champion is announced, the stronger player winning every
    match, the first table of round 1 after a deciding game reported on its own. Returns
    every round's announcement."""
    opened_rounds = []
    for round_number in range(1, 8):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {round_number} 轮开始")
        opened_rounds.append(opened.body)
        assert "每场先下两盘" in opened.body, (stage, opened.body)
        for number, seats in tables_of(opened.body, ids).items():
            report, _ = stronger_wins(seats, close=round_number == 1 and number == 1)
            if round_number == 1 and number == 1:
                first, _, last = report.rpartition("; ")
                await bot.says(GROUP, ADMIN, f"/report 1 {first}", "请下第 3 盘")
                await bot.says(GROUP, ADMIN, f"/report 1 {last}; 1-0", "不会有第 4 盘")
                report = last
            await bot.says(GROUP, ADMIN, f"/report {number} {report}", f"第 {number} 桌结果确认")
        await bot.server.wait_idle()
        if any("结束！冠军" in m.body for m in bot.server.outbox(GROUP)):
            return opened_rounds
        await bot.server.wait_for(f"第 {round_number} 轮结束")
    raise AssertionError(f"{stage}: no champion")


async def test_a_table_knockout_of_five_plays_matches_to_its_champion(
    memory_bot: MemoryHarness,
) -> None:
    """分桌淘汰 of 象棋: five players, tables of two by lot (a bye), the match winner goes
    on (docs/rules/two-player.md#formats, docs/rules/knockout.md#advance) until the last two
    play the final; the player who wins every match is champion."""
    bot = memory_bot
    ids = setup(bot, 5)
    await bot.says(GROUP, ADMIN, "/new xiangqi knockout 象棋淘汰", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    rounds = await play_elimination(bot, ids, "knockout")
    assert len(rounds) == 3  # 5 → 3 (two winners and the bye) → 2 → the final
    done = await bot.server.wait_for("结束！冠军")
    assert NAMES[0] in done.body.split("冠军：")[1].splitlines()[0]
    standings = await bot.says(GROUP, ADMIN, "/standings", "📊")
    places = [ln for ln in standings.body.splitlines() if ln[:1].isdigit()]
    assert places[0].split(". ", 1)[1].startswith(NAMES[0])
    assert "第 1 桌" in standings.body and "胜" in standings.body  # the final's match


async def test_score_stages_of_four_play_matches_instead_of_hands(
    memory_bot: MemoryHarness,
) -> None:
    """积分晋级 of 五子棋: each table is a match under the series, not ``hands`` games; the
    match's games are added to the stage's base (docs/rules/two-player.md#formats), so the
    winner goes on; the two winners play the final."""
    bot = memory_bot
    ids = setup(bot, 4)
    await bot.says(GROUP, ADMIN, "/new gomoku stages 五子棋积分赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    rules = await bot.says(GROUP, ADMIN, "/rules", "📋")
    assert "每桌一场比赛" in rules.body and "每桌打 10 局" not in rules.body
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    rounds = await play_elimination(bot, ids, "stages")
    assert len(rounds) == 2  # two matches, then the final
    done = await bot.server.wait_for("结束！冠军")
    assert NAMES[0] in done.body.split("冠军：")[1].splitlines()[0]


async def test_a_team_event_of_six_counts_its_members_match_points(
    memory_bot: MemoryHarness,
) -> None:
    """团体赛 of 军棋, best of one (draws allowed): two teams of three by lot, three rounds of
    matches across the teams; a drawn match is half a match point each; a team's score is
    its members' match points (docs/rules/two-player.md#swiss)."""
    bot = memory_bot
    ids = setup(bot, 6)
    await bot.says(GROUP, ADMIN, "/new junqi teams 军棋团体", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set series bo1", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    match_points = dict.fromkeys(ids.values(), 0.0)
    for round_number in (1, 2, 3):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {round_number} 轮开始")
        assert "每场比赛一局定胜负" in opened.body
        for number, (a, b) in tables_of(opened.body, ids).items():
            if number == 1 and round_number == 1:  # one game only: a second is refused
                await bot.says(GROUP, ADMIN, "/report 1 0.5-0.5; 1-0", "最多 1 局")
            report = "0.5-0.5" if number == 1 else ("1-0" if a < b else "0-1")
            await bot.says(GROUP, ADMIN, f"/report {number} {report}", f"第 {number} 桌结果确认")
            if number == 1:
                match_points[a] += 0.5
                match_points[b] += 0.5
            else:
                match_points[min(a, b)] += 1
        if round_number < 3:
            await bot.server.wait_for(f"第 {round_number} 轮结束")
    done = await bot.server.wait_for("结束！冠军")
    standings = await bot.says(GROUP, ADMIN, "/standings", "📊")
    shown = ranking_lines(standings.body)
    assert len(shown) == 6 and all(mp == match_points[ids[n]] for n, mp in shown), shown
    assert sum(match_points.values()) == 9  # nine matches, a point each
    champions = done.body.split("冠军：")[1].splitlines()[0]
    teams = re.findall(r"\d+\. 第 \d+ 队（(.+?)）([\d.]+) 分", standings.body)
    assert len(teams) == 2
    for members, points in teams:
        assert float(points) == sum(match_points[ids[n]] for n in members.split(", "))
    assert teams[0][0] in champions


async def test_a_drawn_best_of_one_in_a_table_knockout_is_played_again(
    memory_bot: MemoryHarness,
) -> None:
    """分桌淘汰 of 象棋 at best of one: a drawn match is neither player's win, so the round
    ends asking that pair alone for another match; its winner then meets the other
    table's winner in the final (docs/rules/two-player.md#formats)."""
    bot = memory_bot
    ids = setup(bot, 4)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new xiangqi knockout 象棋淘汰", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set series bo1", "已设置")
    rules = await bot.says(GROUP, ADMIN, "/rules", "📋")
    assert "这两人在下一次抽签前再赛一场" in rules.body and "翻牌决定" not in rules.body
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    tables = tables_of(opened.body, ids)
    await bot.says(GROUP, ADMIN, "/report 1 0.5-0.5", "第 1 桌结果确认")
    await bot.says(GROUP, ADMIN, "/report 2 1-0", "第 2 桌结果确认")
    notice = await bot.server.wait_for("还需加赛")
    assert all(name[p] in notice.body for p in tables[1])
    assert name[tables[2][0]] not in notice.body and "翻牌" not in notice.body
    again = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    assert list(tables_of(again.body, ids).values()) in ([tables[1]], [tables[1][::-1]])
    [seats] = tables_of(again.body, ids).values()
    await bot.says(GROUP, ADMIN, "/report 1 0-1", "第 1 桌结果确认")
    await bot.server.wait_for("第 2 轮结束")
    final = await bot.says(GROUP, ADMIN, "/round", "第 3 轮开始")
    assert set(tables_of(final.body, ids)[1]) == {seats[1], tables[2][0]}

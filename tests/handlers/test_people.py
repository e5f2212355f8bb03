"""People come and go, as the chat sees it: the cap and its waiting list, /drop, late
entry, /apart; and a whole Swiss event with all of them, played to its champion."""

from __future__ import annotations

import re
from decimal import Decimal

from tests.handlers.memory import Chats

GROUP, ADMIN = -5001, 1
P = {i: 100 + i for i in range(1, 13)}  # player number → user id
NAME = {uid: f"选手{i:02d}" for i, uid in P.items()}


def people(chats: Chats, count: int = 12) -> None:
    chats.user(ADMIN, "组织者")
    chats.admins(GROUP, ADMIN)
    for i in range(1, count + 1):
        chats.user(P[i], NAME[P[i]])


def tables(text: str) -> list[list[str]]:
    """The tables of a draw or round announcement, as lists of names in seat order."""
    found = []
    for line in text.splitlines():
        match = re.match(r"第(\d+)桌：(.*)", line)
        if match:
            found.append([seat.split(" ", 1)[1] for seat in match.group(2).split(" · ")])
    return found


async def test_a_cap_puts_late_comers_on_a_waiting_list_and_a_leave_lets_the_first_in(
    chats: Chats,
) -> None:
    people(chats, 5)
    await chats.says(GROUP, ADMIN, "/new xiangqi swiss 象棋赛")
    capped = await chats.says(GROUP, ADMIN, "/set cap 3")
    assert "报名上限：3 人" in capped and "超过上限" not in capped
    assert "2 到" in await chats.says(GROUP, ADMIN, "/set cap many")
    for i in (1, 2, 3):
        await chats.says(GROUP, P[i], "/join")
    assert "候补第 1 位" in await chats.says(GROUP, P[4], "/join")
    assert "候补第 2 位" in await chats.says(GROUP, P[5], "/join")
    assert "候补第 1 位" in await chats.says(GROUP, P[4], "/join")  # asked again: same place
    listed = await chats.says(GROUP, P[1], "/players")
    assert "候补名单（2 人）" in listed and "候补1. 选手04" in listed and "候补2. 选手05" in listed
    assert "3 人" in listed.splitlines()[0] or "（3" in listed.splitlines()[0]
    rules = await chats.says(GROUP, P[1], "/rules")
    assert "报名上限：3 人" in rules and "迟到入场" in rules and "本赛制默认" in rules

    left = await chats.says(GROUP, P[2], "/leave")
    assert "候补递补：选手04" in left  # one line for the group, naming who came in
    listed = await chats.says(GROUP, P[1], "/players")
    assert "选手04" in listed.split("候补名单")[0] and "候补1. 选手05" in listed
    # A waiting player may leave the list; nobody is promoted by that.
    assert "候补递补" not in await chats.says(GROUP, P[5], "/leave")
    assert "候补名单" not in await chats.says(GROUP, P[1], "/players")
    # Raising the cap lets the waiting in at once (here: the one who left, back in line).
    assert "候补第 1 位" in await chats.says(GROUP, P[2], "/join")
    assert "候补递补：选手02" in await chats.says(GROUP, ADMIN, "/set cap 4")
    lowered = await chats.says(GROUP, ADMIN, "/set cap 2")
    assert "报名上限：2 人" in lowered and "已有 4 人报名，超过上限：已报名的人都保留" in lowered
    assert "撤销" in await chats.says(GROUP, ADMIN, "/undo")
    # /undo takes the cap back (a /set); the list of players stays as it is.
    assert "撤销" in await chats.says(GROUP, ADMIN, "/undo")
    assert "报名上限：3 人" in await chats.says(GROUP, P[1], "/rules")


async def test_pairs_wait_as_a_unit_and_come_in_together(chats: Chats) -> None:
    people(chats, 6)
    chats.users[P[5]] = chats.users[P[5]].__class__(P[5], NAME[P[5]], "p5", "zh")
    chats.users[P[6]] = chats.users[P[6]].__class__(P[6], NAME[P[6]], "p6", "zh")
    await chats.says(GROUP, ADMIN, "/new guandan pairs 掼蛋赛")
    await chats.says(GROUP, ADMIN, "/set cap 4")
    for i in (1, 2, 3, 4):
        await chats.says(GROUP, P[i], "/join")
    assert "候补第 1 位" in await chats.says(GROUP, P[5], "/join @p6")
    assert "候补第 2 位" in await chats.says(GROUP, P[6], "/join @p5")
    # One place comes free: the pair at the head of the list needs two, so nobody moves.
    assert "候补递补" not in await chats.says(GROUP, P[4], "/leave")
    left = await chats.says(GROUP, P[3], "/leave")
    assert "候补递补：选手05, 选手06" in left


async def test_drop_between_rounds_keeps_the_line_and_undo_brings_the_player_back(
    chats: Chats,
) -> None:
    people(chats, 4)
    await chats.says(GROUP, ADMIN, "/new xiangqi swiss 象棋赛")
    await chats.says(GROUP, ADMIN, "/set series bo1")  # one game a match
    await chats.says(GROUP, ADMIN, "/set rounds 3")
    assert "用 /leave" not in await chats.says(GROUP, P[1], "/join")
    for i in (2, 3, 4):
        await chats.says(GROUP, P[i], "/join")
    assert "/leave" in await chats.says(GROUP, P[1], "/drop")  # nothing drawn yet
    drawn = await chats.says(GROUP, ADMIN, "/draw")
    await chats.says(GROUP, ADMIN, "/round")
    for number, _ in enumerate(tables(drawn), 1):
        await chats.says(GROUP, ADMIN, f"/report {number} 1-0")
    winner = tables(drawn)[0][0]
    uid = next(u for u, n in NAME.items() if n == winner)
    other = next(u for u in (P[1], P[2], P[3], P[4]) if u != uid)
    assert "只有组织者" in await chats.says(GROUP, other, f"/drop {winner}")
    dropped = await chats.says(GROUP, uid, "/drop")
    assert f"{winner} 退出比赛（第 1 轮后）" in dropped
    assert "已经不在比赛中" in await chats.says(GROUP, ADMIN, f"/drop {winner}")
    listed = await chats.says(GROUP, P[1], "/players")
    assert f"{winner} · 第1轮后退出" in listed
    assert "不能再次加入" in await chats.says(GROUP, uid, "/join")
    assert "撤销：上一次退出比赛" in await chats.says(GROUP, ADMIN, "/undo")
    assert "退出" not in await chats.says(GROUP, P[1], "/players")
    await chats.says(GROUP, ADMIN, f"/drop {winner} yes")
    second = await chats.says(GROUP, ADMIN, "/round")
    seated = [name for seats in tables(second) for name in seats]
    assert len(seated) == 2 and winner not in seated and f"轮空：{winner}" not in second
    ranking = await chats.says(GROUP, P[1], "/standings all")
    line = next(x for x in ranking.splitlines() if winner in x)
    assert "第1轮后退出" in line and re.match(r"1=?\. ", line)  # kept where its point puts it
    # A later round was drawn without them: the drop can no longer be undone.
    assert "不能再撤销" in await chats.says(GROUP, ADMIN, "/undo")


async def test_a_drop_during_a_round_asks_first_then_forfeits_the_table(chats: Chats) -> None:
    people(chats, 4)
    await chats.says(GROUP, ADMIN, "/new xiangqi swiss 象棋赛")
    await chats.says(GROUP, ADMIN, "/set series bo1")  # one game a match
    for i in (1, 2, 3, 4):
        await chats.says(GROUP, P[i], "/join")
    drawn = await chats.says(GROUP, ADMIN, "/draw")
    await chats.says(GROUP, ADMIN, "/round")
    first, second = tables(drawn)[0]
    uid = next(u for u, n in NAME.items() if n == first)
    asked = await chats.sent_after(GROUP, uid, "/drop")
    assert "记 " + first + " 弃权" in asked[0].text and "确定吗" in asked[0].text
    assert "退出比赛" not in asked[0].text  # nothing done yet
    pressed = await chats.presses(GROUP, uid, asked[0], "确认退出")
    assert f"{first} 退出比赛（第 1 轮后）" in pressed and f"第 1 桌记 {first} 弃权" in pressed
    # Undone: back in, and table 1 waits for its result again.
    assert "撤销：上一次退出比赛" in await chats.says(GROUP, ADMIN, "/undo")
    assert "第 1 桌" in await chats.says(GROUP, uid, "/table")
    # Dropped again (by the organiser, confirmed in the command): the round ends with
    # table 2's result alone, table 1 a walkover for the other player.
    assert "退出比赛" in await chats.says(GROUP, ADMIN, f"/drop {first} yes")
    assert "第 1 轮结束" in await chats.says(GROUP, ADMIN, "/report 2 1-0")
    ranking = await chats.says(GROUP, P[1], "/standings all")
    assert "第1轮后退出" in next(x for x in ranking.splitlines() if first in x)
    assert second in ranking


async def test_late_entry_joins_the_next_draw_where_the_format_allows_it(chats: Chats) -> None:
    people(chats, 6)
    await chats.says(GROUP, ADMIN, "/new xiangqi swiss 象棋赛")
    await chats.says(GROUP, ADMIN, "/set series bo1")  # one game a match
    await chats.says(GROUP, ADMIN, "/set rounds 3")
    for i in (1, 2, 3, 4):
        await chats.says(GROUP, P[i], "/join")
    await chats.says(GROUP, ADMIN, "/draw")
    entered = await chats.says(GROUP, P[5], "/join")
    assert "选手05 迟到入场，将参加第 2 轮抽签" in entered and "记 0 分" in entered
    assert "已经报过名" in await chats.says(GROUP, P[5], "/join")
    assert "第2轮加入" in await chats.says(GROUP, P[1], "/players")
    assert "最晚参加第 2 轮抽签" in await chats.says(GROUP, P[1], "/rules")
    await chats.says(GROUP, ADMIN, "/round")
    for number in (1, 2):
        await chats.says(GROUP, ADMIN, f"/report {number} 1-0")
    second = await chats.says(GROUP, ADMIN, "/round")
    assert "选手05" in second and "选手06" not in second
    assert "最晚只能参加第 2 轮" in await chats.says(GROUP, P[6], "/join")
    assert "抽签后不再接受报名" in await chats.says(GROUP, ADMIN, "/set late off")
    assert "不接受迟到入场" in await chats.says(GROUP, P[6], "/join")
    assert "最晚参加第 9 轮抽签" in await chats.says(GROUP, ADMIN, "/set late 9")
    assert "将参加第 3 轮抽签" in await chats.says(GROUP, P[6], "/join")  # the last round


async def test_knockout_refuses_a_late_entry_with_the_reason(chats: Chats) -> None:
    people(chats, 5)
    await chats.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地")
    for i in (1, 2, 3, 4):
        await chats.says(GROUP, P[i], "/join")
    await chats.says(GROUP, ADMIN, "/draw")
    refused = await chats.says(GROUP, P[5], "/join")
    assert "分桌淘汰每轮只在上一轮晋级的选手中抽签" in refused
    assert "分桌淘汰每轮只在上一轮晋级的选手中抽签" in await chats.says(GROUP, ADMIN, "/set late 3")
    assert "抽签后不能再加入" in await chats.says(GROUP, P[1], "/rules")


async def test_apart_lists_adds_clears_and_is_refused_where_the_format_cannot(
    chats: Chats,
) -> None:
    people(chats, 8)
    await chats.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地")
    for i in range(1, 9):
        await chats.says(GROUP, P[i], "/join")
    assert "还没有设定" in await chats.says(GROUP, ADMIN, "/apart")
    assert "不会同桌" in await chats.says(GROUP, ADMIN, "/apart 选手01 选手02")
    assert "已经设定为不同桌" in await chats.says(GROUP, ADMIN, "/apart 选手02 选手01")
    assert "两位不同" in await chats.says(GROUP, ADMIN, "/apart 选手01 选手01")
    assert "只有组织者" in await chats.says(GROUP, P[3], "/apart 选手03 选手04")
    await chats.says(GROUP, ADMIN, "/apart 选手03 选手04")
    listed = await chats.says(GROUP, ADMIN, "/apart")
    assert "（2 对）" in listed and "选手01 ↔ 选手02" in listed
    assert "不同桌的设定：2 对" in await chats.says(GROUP, P[5], "/rules")
    assert "全部 2 对" in await chats.says(GROUP, ADMIN, "/apart clear")
    assert "还没有设定" in await chats.says(GROUP, ADMIN, "/apart")
    assert "撤销" in await chats.says(GROUP, ADMIN, "/undo")  # the clearing taken back
    assert "（2 对）" in await chats.says(GROUP, ADMIN, "/apart")
    drawn = await chats.says(GROUP, ADMIN, "/draw")
    for seats in tables(drawn):
        assert not {"选手01", "选手02"} <= set(seats)
        assert not {"选手03", "选手04"} <= set(seats)
    other = -5002
    chats.admins(other, ADMIN)
    await chats.says(other, ADMIN, "/new xiangqi bracket 象棋")
    await chats.says(other, P[1], "/join")
    await chats.says(other, P[2], "/join")
    assert "无法设定不同桌" in await chats.says(other, ADMIN, "/apart 选手01 选手02")


def points_of(line: str) -> Decimal:
    """The figure a ranking line shows (``积分 3.5``; ``场分 3.5`` in a Swiss of matches)."""
    match = re.search(r"[积场]分 (-?[\d.]+)", line)
    assert match, line
    return Decimal(match.group(1))


async def test_a_swiss_of_twelve_with_a_cap_waiting_list_late_entry_drop_and_apart_pair(
    chats: Chats,
) -> None:
    """Twelve sign up for ten places (two wait); one leaves and the first waiting comes
    in; two colleagues are kept apart; the last waiting player enters late in round 2;
    one drops out after round 2. Four rounds are played to the champion, and every line
    of the final standings is checked against the results the test reported itself."""
    people(chats, 12)
    name = {i: NAME[P[i]] for i in P}
    await chats.says(GROUP, ADMIN, "/new xiangqi swiss 象棋积分赛")
    await chats.says(GROUP, ADMIN, "/set series bo1")  # one game a match
    await chats.says(GROUP, ADMIN, "/set rounds 4")
    assert "报名上限：10 人" in await chats.says(GROUP, ADMIN, "/set cap 10")
    for i in range(1, 11):
        await chats.says(GROUP, P[i], "/join")
    assert "候补第 1 位" in await chats.says(GROUP, P[11], "/join")
    assert "候补第 2 位" in await chats.says(GROUP, P[12], "/join")
    assert f"候补递补：{name[11]}" in await chats.says(GROUP, P[3], "/leave")
    assert "不会同桌" in await chats.says(GROUP, ADMIN, f"/apart {name[1]} {name[2]}")
    listed = await chats.says(GROUP, ADMIN, "/players")
    assert f"候补1. {name[12]}" in listed and name[3] not in listed

    tally: dict[str, Decimal] = {}
    drawn = await chats.says(GROUP, ADMIN, "/draw")
    assert f"候补名单（1 人）：\n候补1. {name[12]}" in drawn  # not drawn, told so
    for number in range(1, 5):
        if number == 2:
            entered = await chats.says(GROUP, P[12], "/join")
            assert f"{name[12]} 迟到入场，将参加第 2 轮抽签" in entered
        if number == 3:
            dropped = await chats.says(GROUP, P[5], "/drop")
            assert f"{name[5]} 退出比赛（第 2 轮后）" in dropped
        opened = await chats.says(GROUP, ADMIN, "/round")
        seated = tables(opened)
        everyone = [n for seats in seated for n in seats]
        expected = {1: 10, 2: 10, 3: 10, 4: 10}[number]  # 11 in round 2: one has a bye
        assert len(everyone) == expected, opened
        assert (name[12] in everyone or f"轮空：{name[12]}" in opened) == (number >= 2)
        assert (name[5] in everyone) == (number <= 2)
        assert not any({name[1], name[2]} <= set(seats) for seats in seated)
        for table, (a, b) in enumerate(seated, 1):
            result = ("1-0", "0-1", "0.5-0.5")[(table + number) % 3]
            said = await chats.says(GROUP, ADMIN, f"/report {table} {result}")
            assert "确认" in said or "结束" in said, said
            left, right = (Decimal(x) for x in result.split("-"))
            tally[a] = tally.get(a, Decimal(0)) + left
            tally[b] = tally.get(b, Decimal(0)) + right

    ranking = await chats.says(GROUP, P[1], "/standings all")
    lines = [x for x in ranking.splitlines() if re.match(r"\d+=?\. ", x)]
    shown = [re.match(r"\d+=?\. (\S+)", x).group(1) for x in lines]  # type: ignore[union-attr]
    assert sorted(shown) == sorted(name[i] for i in P if i != 3)  # 11 lines: all who played
    for line, who in zip(lines, shown, strict=True):
        assert points_of(line) == tally.get(who, Decimal(0)), line
        assert ("第2轮后退出" in line) == (who == name[5]), line
        assert ("第2轮加入" in line) == (who == name[12]), line
    figures = [points_of(x) for x in lines]
    assert figures == sorted(figures, reverse=True)
    finished = next(
        m.text for m in reversed(chats.transport.messages.values()) if "结束！冠军" in m.text
    )
    assert f"冠军：{shown[0]}" in finished


def seat_tables(text: str) -> dict[int, dict[str, str]]:
    """Each table's seats of an announcement: number → {seat letter: name}."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"第(\d+)桌：(.*)", line)
        if match:
            found[int(match.group(1))] = dict(
                seat.split(" ", 1)  # type: ignore[misc]
                for seat in match.group(2).split(" · ")
            )
    return found


async def test_a_substitute_takes_a_pair_players_place_and_the_pair_keeps_its_results(
    chats: Chats,
) -> None:
    people(chats, 9)
    name = {i: NAME[P[i]] for i in P}
    await chats.says(GROUP, ADMIN, "/new guandan pairs 掼蛋赛")
    for i in range(1, 9):
        await chats.says(GROUP, P[i], "/join")
    assert "还没有抽签" not in await chats.says(GROUP, ADMIN, "/draw")
    opened = await chats.says(GROUP, ADMIN, "/round")
    assert "第 1 轮还没有结束" in await chats.says(GROUP, ADMIN, f"/sub {name[1]} {name[9]}")
    for number, seats in seat_tables(opened).items():
        mine = next((s for s, n in seats.items() if n == name[1]), None)
        first = mine or "A"  # 选手01's pair finishes first and second: they go on
        partner = "ABCD"[("ABCD".index(first) + 2) % 4]
        await chats.says(GROUP, ADMIN, f"/report {number} {first} {partner}")
    reserve = await chats.says(GROUP, P[9], "/join")
    assert "报名已截止" in reserve and "候补第 1 位" in reserve
    assert "已经在比赛中" in await chats.says(GROUP, ADMIN, f"/sub {name[1]} {name[2]}")
    assert "只有组织者" in await chats.says(GROUP, P[1], f"/sub {name[1]} {name[9]}")
    before = await chats.says(GROUP, P[2], "/standings all")
    pair_line = next(x for x in before.splitlines() if name[1] in x)
    subbed = await chats.says(GROUP, ADMIN, f"/sub {name[1]} {name[9]}")
    assert f"从第 2 轮起，{name[9]} 替换 {name[1]} 上场" in subbed
    assert "撤销：上一次替补换人" in await chats.says(GROUP, ADMIN, "/undo")
    assert "由 " not in await chats.says(GROUP, ADMIN, "/players")
    await chats.says(GROUP, ADMIN, f"/sub {name[1]} {name[9]}")
    assert f"{name[1]} · 由 {name[9]} 替补" in await chats.says(GROUP, ADMIN, "/players")
    after = await chats.says(GROUP, P[2], "/standings all")
    line = next(x for x in after.splitlines() if f"{name[1]}→{name[9]}" in x)
    # the place keeps what it scored: the same line, renamed
    assert line.replace(f"{name[1]}→{name[9]}", name[1]) == pair_line
    second = await chats.says(GROUP, ADMIN, "/round")
    seated = [n for seats in seat_tables(second).values() for n in seats.values()]
    assert name[9] in seated and name[1] not in seated
    assert "第 2 轮：你在第" in await chats.says(GROUP, P[9], "/table")  # they play it
    assert "不能再撤销" in await chats.says(GROUP, ADMIN, "/undo")
    other = -5003
    chats.admins(other, ADMIN)
    await chats.says(other, ADMIN, "/new xiangqi swiss 象棋")
    await chats.says(other, P[1], "/join")
    await chats.says(other, P[2], "/join")
    await chats.says(other, ADMIN, "/draw")
    assert "替补只用于双人赛和团体赛" in await chats.says(other, ADMIN, f"/sub {name[1]} {name[3]}")


async def test_a_knockout_drop_between_rounds_is_a_walkover_for_the_next_opponent(
    chats: Chats,
) -> None:
    people(chats, 4)
    await chats.says(GROUP, ADMIN, "/new xiangqi bracket 象棋淘汰赛")
    for i in (1, 2, 3, 4):
        await chats.says(GROUP, P[i], "/join")
    await chats.says(GROUP, ADMIN, "/draw")
    opened = await chats.says(GROUP, ADMIN, "/round")
    winners = [seats[0] for seats in tables(opened)]
    for number in range(1, len(winners) + 1):
        said = await chats.says(GROUP, ADMIN, f"/report {number} 1-0; 1-0")
    assert "第 1 轮结束" in said
    dropped = await chats.says(GROUP, ADMIN, f"/drop {winners[0]}")
    assert f"{winners[0]} 退出比赛（第 1 轮后）" in dropped and "不战而胜" in dropped
    final = await chats.says(GROUP, ADMIN, "/round")
    walked = f"{winners[0]} 已退出比赛：第 1 桌记 {winners[0]} 弃权，{winners[1]} 不战而胜。"
    assert walked in final
    assert f"冠军：{winners[1]}" in final
    ranking = await chats.says(GROUP, P[1], "/standings all")
    assert "退出" in next(x for x in ranking.splitlines() if winners[0] in x)


async def test_the_same_in_english(chats: Chats) -> None:
    chats.user(ADMIN, "Org", lang="en")
    chats.admins(GROUP, ADMIN)
    for i in range(1, 5):
        chats.user(P[i], f"P{i}", lang="en")
    await chats.says(GROUP, ADMIN, "/new xiangqi swiss Cup")
    await chats.says(GROUP, ADMIN, "/lang en")
    assert "Sign-up cap: 2 players" in await chats.says(GROUP, ADMIN, "/set cap 2")
    await chats.says(GROUP, P[1], "/join")
    await chats.says(GROUP, P[2], "/join")
    assert "P3 is on the waiting list: place 1." in await chats.says(GROUP, P[3], "/join")
    assert "In from the waiting list: P3." in await chats.says(GROUP, P[2], "/leave")
    rules = await chats.says(GROUP, P[1], "/rules")
    assert "Late entry: /join still works after the draw, up to the draw of round 2" in rules
    assert "(this format's default)" in rules
    assert "Kept apart" not in rules
    await chats.says(GROUP, ADMIN, "/apart P1 P3")
    assert "Kept apart (1 pair):" in await chats.says(GROUP, ADMIN, "/apart")
    await chats.says(GROUP, ADMIN, "/draw")
    assert "P4 enters late and will be in the draw of round 2" in (
        await chats.says(GROUP, P[4], "/join")
    )
    asked = await chats.says(GROUP, P[1], "/drop")
    assert "dropping out now forfeits it for P1. Sure?" in asked


async def test_in_dou_dizhu_cap_stays_the_games_and_the_sign_up_cap_is_signup_cap(
    chats: Chats,
) -> None:
    """Dou Dizhu has a ``cap`` of its own (封顶, the multiplier's ceiling): /set cap keeps
    setting it; the sign-up cap is /set signup-cap there, and /rules says so."""
    people(chats, 4)
    await chats.says(GROUP, ADMIN, "/new doudizhu swiss 斗地主")
    assert "/set signup-cap" in await chats.says(GROUP, ADMIN, "/rules")
    assert "报名上限" not in await chats.says(GROUP, ADMIN, "/set cap 8")
    assert "报名上限：3 人" in await chats.says(GROUP, ADMIN, "/set signup-cap 3")
    for i in (1, 2, 3):
        await chats.says(GROUP, P[i], "/join")
    assert "候补第 1 位" in await chats.says(GROUP, P[4], "/join")

"""A player who leaves with their match unplayed (/drop, /dq) is a walkover at once, at
every table size and in every unit (docs/rules/people.md#walkover): the table is settled
as their forfeit, nothing says it is awaited any more, the round settles when it was the
last table, and the check-in's cut-off spares the others at it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.transport.scheduler import Timers, pending_timers
from tests.handlers.memory import Chats
from tests.handlers.test_people import ADMIN, GROUP, NAME, P, people, seat_tables, tables

UID = {name: uid for uid, name in NAME.items()}


async def timers_due(chats: Chats) -> str:
    """Run the timers the moved clock brought due (as the scheduler would); what the bot
    said then."""
    before = set(chats.transport.messages)
    timers = Timers(chats.core)
    for timer in await pending_timers(chats.core):
        if timer.at <= chats.now:
            await timers.fire(timer)
    await chats.deliver()
    return "\n".join(m.text for mid, m in chats.transport.messages.items() if mid not in before)


async def round_one(
    chats: Chats, new: str, setup: Sequence[str], players: int, count: int = 0
) -> tuple[str, str]:
    """``new`` event, the organiser's ``setup`` commands, the first ``players`` of ``P``
    signed up (``count`` known to the bot, at least those, as 选手NN unless the test
    named them), drawn and round 1 open: the draw's and the round's announcements."""
    if P[1] not in chats.users:
        people(chats, max(count, players))
    await chats.says(GROUP, ADMIN, new)
    for command in setup:
        await chats.says(GROUP, ADMIN, command)
    for i in range(1, players + 1):
        await chats.says(GROUP, P[i], "/join")
    return await chats.says(GROUP, ADMIN, "/draw"), await chats.says(GROUP, ADMIN, "/round")


def line_of(ranking: str, name: str) -> str:
    return next(x for x in ranking.splitlines() if f". {name} " in x or x.endswith(f". {name}"))


async def test_a_drop_at_a_table_of_three_is_a_walkover_the_check_in_spares(
    chats: Chats,
) -> None:
    """斗地主 tables of three, check-in on: the two left at the table go on as on a bye
    (余下选手轮空参加下轮抽签), nothing waits for table 2, and the cut-off forfeits
    nobody there although they never checked in."""
    drawn, _ = await round_one(chats, "/new doudizhu knockout 斗地主", ["/set noshow 15"], 6)
    first, (gone, *rest) = tables(drawn)
    for name in first:
        await chats.says(GROUP, UID[name], "/here")
    dropped = await chats.says(GROUP, ADMIN, f"/drop {gone} yes")
    assert (
        f"第 2 桌记 {gone} 弃权，这一桌不再等待结果：同桌的 {rest[0]}, {rest[1]} 按轮空处理。"
    ) in dropped
    ranking = await chats.says(GROUP, P[1], "/standings all")
    assert "等待第2桌结果" not in ranking
    for name in rest:
        assert "第1轮晋级" in line_of(ranking, name), ranking
    assert "第1轮弃权" in line_of(ranking, gone)
    mine = await chats.says(GROUP, UID[rest[0]], "/table")
    assert f"第 2 桌已记 {gone} 弃权，不再等待这一桌的结果。" in mine and "签到" not in mine
    chats.later(minutes=16)
    ruled = await timers_due(chats)
    assert "签到截止" in ruled and "第 2 桌" not in ruled  # nobody left at it to rule on
    example = "/report 1 B bid3 bombs1 win spring"
    done = await chats.says(GROUP, ADMIN, example)
    assert "第 1 轮结束" in done
    going_on = done.split("晋级：", 1)[1].splitlines()[0]
    assert set(rest) <= {n.strip() for n in going_on.split(",")}


async def test_a_level_match_dropped_mid_series_is_the_opponents_and_closes_the_round(
    chats: Chats,
) -> None:
    """象棋 two games then sudden death: at 1-1 the table waits for its next game; a drop
    then is the opponent's walkover, and the round (the other table done) ends."""
    drawn, _ = await round_one(chats, "/new xiangqi bracket 象棋淘汰赛", [], 4)
    (a, b), (c, _) = tables(drawn)
    await chats.says(GROUP, ADMIN, "/report 2 1-0; 1-0")
    assert "这场继续" in await chats.says(GROUP, ADMIN, "/report 1 1-0; 0-1")  # level
    dropped = await chats.says(GROUP, ADMIN, f"/drop {a} yes")
    assert f"第 1 桌记 {a} 弃权，{b} 不战而胜。" in dropped
    assert "第 1 轮结束" in dropped and b in dropped.split("晋级：", 1)[1]
    # Undone: the match is level again at 1-1 and waits for its third game.
    assert "撤销：上一次退出比赛" in await chats.says(GROUP, ADMIN, "/undo")
    assert "等待第1桌结果" in line_of(await chats.says(GROUP, P[1], "/standings all"), b)
    assert "第 1 轮结束" in await chats.says(GROUP, ADMIN, "/report 1 0-1")
    final = await chats.says(GROUP, ADMIN, "/round")
    assert {b, c} == set(tables(final)[0])


async def test_a_disqualification_with_the_match_unplayed_is_a_walkover_undo_takes_it_back(
    chats: Chats,
) -> None:
    drawn, _ = await round_one(chats, "/new xiangqi swiss 象棋赛", ["/set series bo1"], 4)
    (a, b), _ = tables(drawn)
    await chats.says(GROUP, ADMIN, "/report 2 1-0")
    ruled = await chats.says(GROUP, ADMIN, f"/dq {a}")
    assert f"第 1 桌记 {a} 弃权，{b} 不战而胜。" in ruled and "第 1 轮结束" in ruled
    assert "场分 1" in line_of(await chats.says(GROUP, P[1], "/standings all"), b)
    assert "撤销" in await chats.says(GROUP, ADMIN, "/undo")
    assert "等待第1桌结果" in line_of(await chats.says(GROUP, P[1], "/standings all"), b)
    assert "第 1 轮结束" in await chats.says(GROUP, ADMIN, "/report 1 0-1")


async def test_a_drop_before_the_final_opens_crowns_the_opponent_when_it_opens(
    chats: Chats,
) -> None:
    people(chats, 2)
    await chats.says(GROUP, ADMIN, "/new xiangqi bracket 象棋决赛")
    for i in (1, 2):
        await chats.says(GROUP, P[i], "/join")
    drawn = await chats.says(GROUP, ADMIN, "/draw")
    ((a, b),) = tables(drawn)
    dropped = await chats.says(GROUP, UID[a], "/drop yes")
    assert f"第 1 桌记 {a} 弃权，{b} 不战而胜。" in dropped
    opened = await chats.says(GROUP, ADMIN, "/round")
    assert f"冠军：{b}" in opened


PAIRS = ("/new guandan pairs 掼蛋赛", "/set final 2", "/set final_rounds 1")


async def test_a_partner_who_drops_loses_the_table_for_the_pair_and_the_check_in_spares_the_rest(
    chats: Chats,
) -> None:
    _, opened = await round_one(chats, PAIRS[0], [*PAIRS[1:], "/set noshow 10"], 8)
    one, two = seat_tables(opened).values()
    for name in one.values():
        await chats.says(GROUP, UID[name], "/here")
    dropped = await chats.says(GROUP, UID[two["A"]], "/drop yes")
    assert (
        f"第 2 桌记 {two['A']} 弃权：{two['A']}, {two['C']} 这一组输掉这一桌，"
        f"{two['B']}, {two['D']} 不战而胜。"
    ) in dropped
    assert "/sub" not in dropped  # the pair is out: no place left to fill
    ranking = await chats.says(GROUP, P[1], "/standings all")
    assert "等待第2桌结果" not in ranking
    for name in (two["B"], two["D"]):
        assert "第1轮晋级" in line_of(ranking, name), ranking
    chats.later(minutes=11)
    assert "全员到齐" in await timers_due(chats)  # B and D never came: nobody waits for them
    assert "第 1 轮结束" in await chats.says(GROUP, ADMIN, "/report 1 A C")
    final = seat_tables(await chats.says(GROUP, ADMIN, "/round"))[1]
    assert {two["B"], two["D"]} in ({final["A"], final["C"]}, {final["B"], final["D"]})


async def test_a_group_round_with_a_withdrawal_names_nobody_as_going_on(chats: Chats) -> None:
    """斗地主 groups of nine: a player who drops in round 2 is seated by the schedule in
    round 3, a walkover at once; that round's end said 「晋级：」 and named the other eight,
    as if it had cut the field. It ends as every group round does, naming nobody."""
    _, opened = await round_one(chats, "/new doudizhu groups 斗地主小组赛", [], 9)
    gone = ""
    for number in (1, 2, 3):
        if number > 1:
            opened = await chats.says(GROUP, ADMIN, "/round")
        seated = tables(opened)
        if number == 2:
            gone = seated[0][1]
            assert f"第 1 桌记 {gone} 弃权" in await chats.says(GROUP, UID[gone], "/drop yes")
        done = ""
        for table, names in enumerate(seated, 1):
            if gone not in names:
                done = await chats.says(GROUP, ADMIN, f"/report {table} total A+4 B-2 C-2")
        assert f"第 {number} 轮结束" in done and "晋级：" not in done, done

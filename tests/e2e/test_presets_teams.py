"""The team and pair presets end to end: 团体赛 and 双人赛 from /new through sign-up,
the draw, every round (reports, a forfeited table, a bye) to the final ranking, with a
tie the chain breaks (best individual for teams, a card flip at a pairs table).

The test reads the revealed seed from /verify and asks the engine which teams or pairs
the lot made, as any player checking the draw would. One backend each keeps it short.
"""

from __future__ import annotations

import pytest

from engine.formats.pairs import Pairs
from engine.formats.teams import Teams
from engine.games import find_game
from engine.model import TournamentState
from tests.e2e.harness import Harness, byes_of, tables_of

GROUP = -100800
ADMIN = 1


def setup(bot: Harness, count: int) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {f"选手{i + 1}": 301 + i for i in range(count)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(GROUP, "团体群", admins=[ADMIN])
    return ids


async def start(bot: Harness, ids: dict[str, int], new: str, knobs: list[str]) -> str:
    """Create, set knobs, sign everyone up, draw; return the draw and the revealed seed."""
    await bot.says(GROUP, ADMIN, new, "SHA-256")
    for knob in knobs:
        await bot.says(GROUP, ADMIN, f"/set {knob}", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    verify = await bot.says(GROUP, ADMIN, "/verify", "种子：")
    seed = verify.body.split("种子：", 1)[1].splitlines()[0].strip()
    return drawn.body + "\n@@" + seed


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_team_event_sums_members_keeps_teammates_apart_and_breaks_a_tie_by_best_individual(
    bot: Harness,
) -> None:
    ids = setup(bot, 9)
    name = {v: k for k, v in ids.items()}
    out = await start(bot, ids, "/new doudizhu teams 团体斗地主", ["rounds 2"])
    drawn, seed = out.split("\n@@")
    teams = Teams(find_game("doudizhu")()).groups(
        TournamentState(players=tuple(ids.values()), seed=seed)
    )
    assert sorted(teams.values()) == [1, 1, 1, 2, 2, 2, 3, 3, 3]  # three teams of three by lot

    # Round 1: teammates never share a table; one table scores, one forfeits, one draws.
    tables = tables_of(drawn, ids)
    assert len(tables) == 3
    assert all(len({teams[p] for p in seats}) == 3 for seats in tables.values())
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    p0, p1, _ = tables[1]
    x, y = teams[p0], teams[p1]
    await bot.says(GROUP, ADMIN, "/report 1 total A+3 B+2 C-5", "结果确认")
    await bot.says(GROUP, ADMIN, "/forfeit 2", "判弃权")
    await bot.says(GROUP, ADMIN, "/report 3 total A+0 B+0 C+0", "结果确认")
    await bot.server.wait_for("第 1 轮结束", timeout=20)

    # Round 2: another member of team X loses 1, so X (3 − 1) ties Y (2) on points.
    second = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    tables = tables_of(second.body, ids)
    assert all(len({teams[p] for p in seats}) == 3 for seats in tables.values())
    target = next(n for n, seats in tables.items() if p0 not in seats)
    for number, seats in tables.items():
        if number == target:
            scores = {teams[p]: s for p, s in zip(seats, ("A", "B", "C"), strict=True)}
            tokens = [f"{scores[x]}-1", f"{scores[y]}+0"]
            tokens += [f"{s}+1" for t, s in scores.items() if t not in (x, y)]
            await bot.says(GROUP, ADMIN, f"/report {number} total {' '.join(tokens)}", "结果确认")
        else:
            await bot.says(GROUP, ADMIN, f"/report {number} total A+0 B+0 C+0", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert name[p0] in done.body.split("冠军：")[1].splitlines()[0]  # 3 points, best of all

    picture = await bot.says(GROUP, ADMIN, "/standings", "团体名次")
    assert picture.photo is not None
    lines = picture.body.split("团体名次：", 1)[1].strip().splitlines()
    assert lines[0].startswith(f"1. 第 {x} 队") and "2 分" in lines[0]
    assert "本队最好个人成绩" in lines[0]  # the tie with Y was decided by p0's 3 points
    assert lines[1].startswith(f"2. 第 {y} 队") and "2 分" in lines[1]


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_pairs_draw_opponents_by_cards_send_the_joker_to_the_final_and_flip_a_tie(
    bot: Harness,
) -> None:
    ids = setup(bot, 14)
    name = {v: k for k, v in ids.items()}
    knobs = ["lucky on", "final 2", "final_rounds 1"]
    out = await start(bot, ids, "/new guandan pairs 掼蛋双人赛", knobs)
    drawn, seed = out.split("\n@@")
    pairs = Pairs(find_game("guandan")()).pairs(
        TournamentState(players=tuple(ids.values()), seed=seed)
    )
    pair_sets = {frozenset(p) for p in pairs}

    # Round 1: seven pairs → three tables by cards and the joker's lucky pair.
    tables = tables_of(drawn, ids)
    lucky = byes_of(drawn, ids)
    assert len(tables) == 3 and frozenset(lucky) in pair_sets
    for seats in tables.values():  # partners opposite: A&C and B&D
        assert {frozenset(seats[0::2]), frozenset(seats[1::2])} <= pair_sets
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 total A+0 B+0 C+0 D+0", "结果确认")  # a tie
    await bot.says(GROUP, ADMIN, "/forfeit 2", "4 人判弃权")  # both pairs out
    await bot.says(GROUP, ADMIN, "/report 3 A C", "结果确认")  # A&C finish 1–2
    await bot.server.wait_for("第 1 轮结束", timeout=20)

    # Round 2: the flip's winner of table 1 meets table 3's A&C; table 2 is gone.
    second = await bot.says(GROUP, ADMIN, "/round", "第 2 轮开始")
    (seats,) = tables_of(second.body, ids).values()
    t1, t3 = tables[1], tables[3]
    assert frozenset(t3[0::2]) in {frozenset(seats[0::2]), frozenset(seats[1::2])}
    assert {frozenset(seats[0::2]), frozenset(seats[1::2])} & {
        frozenset(t1[0::2]),
        frozenset(t1[1::2]),
    }
    assert not set(seats) & set(tables[2]) and not set(seats) & set(lucky)
    await bot.says(GROUP, ADMIN, "/report 1 A C", "结果确认")
    await bot.server.wait_for("第 2 轮结束", timeout=20)

    # The final: round 2's winners against the lucky pair; B&D win it.
    final = await bot.says(GROUP, ADMIN, "/round", "第 3 轮开始")
    (final_seats,) = tables_of(final.body, ids).values()
    assert set(final_seats) == set(seats[0::2]) | set(lucky)
    await bot.says(GROUP, ADMIN, "/report 1 B D", "结果确认")
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    # The champion of a pair event is the pair, both named.
    champion = done.body.split("冠军：")[1].splitlines()[0]
    assert set(champion.strip().split(", ")) == {name[final_seats[1]], name[final_seats[3]]}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_team_event_gives_the_player_who_does_not_fit_a_table_a_bye(bot: Harness) -> None:
    ids = setup(bot, 10)  # teams of 3, 3 and 4; tables of 3 seat nine, one sits out
    out = await start(bot, ids, "/new doudizhu teams 十人团体", ["rounds 2"])
    drawn, _ = out.split("\n@@")
    byes, tables = byes_of(drawn, ids), tables_of(drawn, ids)
    assert len(byes) == 1 and len(tables) == 3
    assert byes[0] not in {p for seats in tables.values() for p in seats}
    seen_byes = []
    for round_number in (1, 2):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {round_number} 轮开始")
        seen_byes += byes_of(opened.body, ids)
        for number in tables_of(opened.body, ids):
            await bot.says(GROUP, ADMIN, f"/report {number} total A+2 B-1 C-1", "结果确认")
        if round_number == 1:
            await bot.server.wait_for("第 1 轮结束", timeout=20)
    assert len(seen_byes) == 2 and seen_byes[0] == byes[0]
    assert seen_byes[1] != seen_byes[0]  # nobody sits out twice while others have not
    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert done.body
    standings = await bot.says(GROUP, ADMIN, "/standings", "积分")
    assert "队" in standings.body  # the team table is shown for a team event

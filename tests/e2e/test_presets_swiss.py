"""The 瑞士移位 preset end to end: seven 斗地主 players from /new through sign-up,
the draw, three rounds (a bye each round, a table forfeited when the deadline passes while
the bot is down) to the final ranking, where ties on points are broken by the chain.

The test reads the revealed seed from /verify and replays the event with the engine, as
any player checking the draw would: the bot's draws and ranking must be the engine's.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from itertools import pairwise

import pytest

from engine.formats.swiss import Swiss
from engine.games import find_game
from engine.model import (
    RoundPlan,
    RoundRecord,
    Table,
    TableResult,
    TableStatus,
    TournamentState,
)
from tests.e2e.harness import Harness, byes_of, tables_of

GROUP = -100900
ADMIN = 1
NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚"]
CHAIN_LABELS = ("对手分", "赢桌数", "翻牌")  # buchholz, wins, flip: what follows points


def setup(bot: Harness) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    ids = {name: 401 + i for i, name in enumerate(NAMES)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(GROUP, "瑞士群", admins=[ADMIN])
    return ids


def ranking_of(text: str) -> list[tuple[str, Decimal, str]]:
    """'1. 甲 — 积分 4（对手分分出先后）' lines → (name, points, tie-break label) in rank
    order (the label empty where points alone decided)."""
    out = []
    for line in text.splitlines():
        head, _, rest = line.partition(" — ")
        rank, _, name = head.partition(". ")
        if not rank.isdigit() or not rest.startswith("积分 "):
            continue
        figure, _, label = rest.removeprefix("积分 ").partition("（")
        out.append((name, Decimal(figure), label.removesuffix("分出先后）")))
    return out


def plan_of(text: str, ids: dict[str, int], number: int) -> RoundPlan:
    tables = tuple(Table(n, tuple(seats)) for n, seats in tables_of(text, ids).items())
    return RoundPlan(tables, tuple(byes_of(text, ids)), "", f"round{number}", ())


def confirmed(table: Table, scores: tuple[int, ...]) -> TableResult:
    return TableResult(table, TableStatus.CONFIRMED, tuple(Decimal(s) for s in scores))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_swiss_reseats_by_score_rotates_byes_survives_a_forfeit_and_breaks_ties(
    bot: Harness,
) -> None:
    ids = setup(bot)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new doudizhu swiss 斗地主瑞士移位", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set rounds 3", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    verify = await bot.says(GROUP, ADMIN, "/verify", "种子：")
    seed = verify.body.split("种子：", 1)[1].splitlines()[0].strip()
    swiss = Swiss(find_game("doudizhu")(), {"rounds": "3"})
    state = TournamentState(players=tuple(ids.values()), seed=seed)

    # Round 1: 7 players in tables of 3 leave one bye; the draw is the engine's draw.
    plan = swiss.plan(state)
    assert isinstance(plan, RoundPlan)
    tables, byes = tables_of(drawn.body, ids), byes_of(drawn.body, ids)
    assert [list(t.players) for t in plan.tables] == list(tables.values())
    assert list(plan.byes) == byes and len(byes) == 1 and len(tables) == 2
    await bot.says(GROUP, ADMIN, "/round 2026-12-20 18:00", "第 1 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 total A+4 B-2 C-2", "结果确认")
    # Table 2 never reports; the bot is down when the deadline passes, and settles on restart.
    await bot.server.wait_idle()
    await bot.stop()
    bot.clock.offset = timedelta(days=40)
    await bot.start()
    settled = await bot.server.wait_for("截止", timeout=20)
    assert "2" in settled.body.split("整桌弃权：")[1].splitlines()[0]
    complete = await bot.server.wait_for("第 1 轮结束", timeout=20)
    # One forfeit does not remove anyone (forfeits=2): nobody is out, so nobody is listed
    # as going on either.
    assert "晋级" not in complete.body and "/round" in complete.body
    t1, t2 = tables[1], tables[2]
    rounds = [
        RoundRecord(
            1,
            plan,
            (
                confirmed(plan.tables[0], (4, -2, -2)),
                TableResult(plan.tables[1], TableStatus.FORFEIT, (), frozenset(t2)),
            ),
        )
    ]

    # Rounds 2 and 3: re-seated by score; the bye moves to someone who has not had one.
    rested = set(byes)
    for number in (2, 3):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        plan = swiss.plan(TournamentState(players=state.players, seed=seed, rounds=tuple(rounds)))
        assert isinstance(plan, RoundPlan)
        tables, byes = tables_of(opened.body, ids), byes_of(opened.body, ids)
        assert [list(t.players) for t in plan.tables] == list(tables.values())
        assert len(byes) == 1 and not set(byes) & rested
        rested |= set(byes)
        for table in tables:
            await bot.says(GROUP, ADMIN, f"/report {table} total A+0 B+0 C+0", "结果确认")
        rounds.append(
            RoundRecord(number, plan, tuple(confirmed(t, (0, 0, 0)) for t in plan.tables))
        )
        if number == 2:
            await bot.server.wait_for("第 2 轮结束", timeout=20)

    done = await bot.server.wait_for("结束！冠军", timeout=20)
    assert name[t1[0]] in done.body.split("冠军：")[1].splitlines()[0]  # +4, alone on top
    standings = await bot.says(GROUP, ADMIN, "/standings", "积分")
    ranking = ranking_of(standings.body)
    assert [n for n, _, _ in ranking] == [
        name[s.player]
        for s in swiss.standings(
            TournamentState(players=state.players, seed=seed, rounds=tuple(rounds))
        )
    ]
    # Four players share 0 points and two share −2: each tie is split by a named criterion
    # from the chain after points (Buchholz, tables won, or the flip), never left shared.
    ties = [(a, b) for a, b in pairwise(ranking) if a[1] == b[1]]
    assert len(ties) >= 4
    assert all(upper[2] in CHAIN_LABELS for upper, _ in ties)
    assert [p for _, p, _ in ranking] == [4, 0, 0, 0, 0, -2, -2]

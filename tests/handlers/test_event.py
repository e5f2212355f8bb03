"""The event aggregate (``bot/application/event.py``): one update builds the engine's
state once, whatever it says and draws from it, and /cancel turns the pinned live
standings into a cancelled event's."""

from __future__ import annotations

import sys

import pytest

from bot.application import tournament
from db.models import Tournament
from engine.model import TournamentState
from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -109000
ADMIN = 1
BIGTWO = {4: "A0 B3 C7 D12", 3: "A0 B3 C7", 2: "A0 B3"}  # cards left, by table size


def count_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every build of an engine state from here on, wherever it is asked for: each
    module that imported ``state_of`` gets the counting one."""
    built: list[int] = []
    original = tournament.state_of

    def counted(t: Tournament) -> TournamentState:
        built.append(t.id)
        return original(t)

    for module in list(sys.modules.values()):
        if getattr(module, "state_of", None) is original:
            monkeypatch.setattr(module, "state_of", counted)
    return built


def add_players(bot: MemoryHarness, count: int) -> dict[str, int]:
    names = [f"选手{i + 1}" for i in range(count)]
    return bot.server.seat_group(GROUP, ADMIN, names, first=501)


async def play_to_the_end(
    bot: MemoryHarness,
    ids: dict[str, int],
    reports: dict[int, str],
    built: list[int],
    first: int = 1,
) -> list[int]:
    """Open rounds from ``first`` until the event ends; at every table the captain
    reports (``reports`` by the table's size) and the next seat confirms. Returns the
    builds of each /confirm; the last one ended the event."""
    per_confirm: list[int] = []
    for number in range(first, 12):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        for table, seats in tables_of(opened.body, ids).items():
            text = reports[len(seats)]
            await bot.says(GROUP, seats[0], f"/report {table} {text}", "请同桌另一位选手确认")
            before = len(bot.server.outbox(GROUP))
            built.clear()
            await bot.says(GROUP, seats[1], "/confirm", "结果确认")
            per_confirm.append(len(built))
            if any("结束！冠军" in m.body for m in bot.server.outbox(GROUP)[before:]):
                return per_confirm
    raise AssertionError("the event did not end")


async def test_a_confirm_that_ends_a_team_event_builds_the_state_once(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team event (its team table under the ranking, in the announcement and in
    /standings): the /confirm that ends it builds the state once for the settling, the
    live standings and their picture, the announcement, the podium and the ratings."""
    bot = memory_bot
    ids = add_players(bot, 9)
    await bot.says(GROUP, ADMIN, "/new doudizhu teams 团体斗地主", "SHA-256")
    await bot.says(GROUP, ADMIN, "/set rounds 2", "已设置")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    built = count_builds(monkeypatch)

    per_confirm = await play_to_the_end(bot, ids, {3: "total A+4 B-2 C-2"}, built)
    assert per_confirm[-1] == 1
    assert all(n <= 1 for n in per_confirm), per_confirm
    done = bot.server.outbox(GROUP)[-10:]
    assert any("团体名次" in m.body and "结束！冠军" in m.body for m in done)

    built.clear()
    standings = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert "团体名次" in standings.body
    assert len(built) == 1


async def test_a_confirm_that_ends_a_knockout_builds_the_state_once(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table knockout (Big Two, 8 players): the final's /confirm builds the state once;
    /standings mid-event and at the end, a /fix and its /undo, once each."""
    bot = memory_bot
    ids = add_players(bot, 8)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地淘汰赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    built = count_builds(monkeypatch)

    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    first = tables_of(opened.body, ids)[1]
    await bot.says(GROUP, first[0], "/report 1 A0 B3 C7 D12", "请同桌另一位选手确认")
    await bot.says(GROUP, first[1], "/confirm", "结果确认")
    built.clear()
    await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert len(built) == 1
    built.clear()
    await bot.says(GROUP, ADMIN, "/fix 1 A0 B3 C7 D12", "更正第 1 桌")  # back where it was
    assert len(built) == 1
    built.clear()
    await bot.says(GROUP, ADMIN, "/undo", "已撤销")
    assert len(built) == 1
    for table in tables_of(opened.body, ids):
        if table != 1:
            await bot.says(GROUP, ADMIN, f"/report {table} A0 B3 C7 D12", "结果确认")
    await bot.server.wait_for("第 1 轮结束")

    per_confirm = await play_to_the_end(bot, ids, BIGTWO, built, first=2)
    assert per_confirm[-1] == 1
    assert all(n <= 1 for n in per_confirm), per_confirm

    built.clear()
    await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert len(built) == 1


async def test_cancel_turns_the_pinned_live_standings_into_a_cancelled_events(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    ids = add_players(bot, 8)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    seats = tables_of(opened.body, ids)[1]
    await bot.says(GROUP, seats[0], "/report 1 A0 B3 C7 D12", "请同桌另一位选手确认")
    await bot.says(GROUP, seats[1], "/confirm", "结果确认")
    live = await bot.server.wait_for("实时积分")

    await bot.says(GROUP, ADMIN, "/cancel yes", "「锄大地」已取消")
    await bot.server.wait_idle()
    pinned = next(m for m in bot.server.outbox(GROUP) if m.message_id == live.message_id)
    assert "比赛已取消" in pinned.body and "实时积分" not in pinned.body
    assert "每确认一个结果自动更新" not in pinned.body
    assert "选手" in pinned.body  # the places as they stood


async def test_standings_of_a_group_event_build_the_state_once_for_its_group_lines(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """斗地主 groups of nine: /standings lists the groups under the ranking from the same
    state it ranks (one build), and the /confirm that closes round 1 builds it once."""
    bot = memory_bot
    ids = add_players(bot, 9)
    await bot.says(GROUP, ADMIN, "/new doudizhu groups 斗地主小组赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    built = count_builds(monkeypatch)
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    for table, seats in tables_of(opened.body, ids).items():
        await bot.says(GROUP, seats[0], f"/report {table} total A+4 B-2 C-2", "请同桌另一位")
        built.clear()
        await bot.says(GROUP, seats[1], "/confirm", "结果确认")
        assert len(built) <= 1
    await bot.server.wait_for("第 1 轮结束")
    assert len(built) == 1  # the confirm that closed the round

    built.clear()
    standings = await bot.says(GROUP, ADMIN, "/standings", "轮积分")
    assert "分组：" in standings.body and "A 组：" in standings.body
    assert len(built) == 1


async def test_a_deduction_shows_in_the_pinned_live_standings_at_once(
    memory_bot: MemoryHarness,
) -> None:
    """The pinned message tells the truth between results too: a deduction moves the
    player's figure there at once, a warning (nothing deducted) leaves it alone."""
    bot = memory_bot
    ids = add_players(bot, 9)
    await bot.says(GROUP, ADMIN, "/new doudizhu swiss 斗地主积分赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    seats = tables_of(opened.body, ids)[1]
    await bot.says(GROUP, ADMIN, "/report 1 total A+4 B-2 C-2", "结果确认")
    live = await bot.server.wait_for("实时积分")
    name = next(n for n, uid in ids.items() if uid == seats[0])

    def pinned() -> str:
        return next(m for m in bot.server.outbox(GROUP) if m.message_id == live.message_id).body

    line = next(x for x in pinned().splitlines() if name in x)
    assert "4" in line
    await bot.says(GROUP, ADMIN, f"/penalty {name} warn", "警告")
    assert next(x for x in pinned().splitlines() if name in x) == line
    await bot.says(GROUP, ADMIN, f"/penalty {name} 3 迟到", "扣")
    moved = next(x for x in pinned().splitlines() if name in x)
    assert moved != line and "1" in moved

"""Every surface says what the standings' read model says (``engine.board``): the
/standings text, the pinned live standings, /bracket, /me and the play-off notice,
played as an organiser would play them."""

from __future__ import annotations

from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -107200
ADMIN = 1


def add_players(bot: MemoryHarness, count: int, first: int = 701) -> dict[str, int]:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    ids = {}
    for i in range(count):
        name = f"棋手{i + 1:02d}"
        bot.server.add_user(first + i, name, language_code="zh")
        ids[name] = first + i
    return ids


def line_of(body: str, name: str) -> str:
    """``name``'s line of the ranking (``3. name — …``), not a match line."""
    return next(ln for ln in body.splitlines() if f". {name} " in f"{ln} ")


async def test_a_bracket_winner_reads_through_everywhere_while_the_round_goes_on(
    memory_bot: MemoryHarness,
) -> None:
    """象棋 12 players, 单败淘汰: table 1 confirmed 1-0; 1-0. The winner is through (not
    "第1轮出局") in /standings, the pinned message and /bracket; nobody is said to be
    placed by a flip (none was drawn); the unreported tables wait for their result; /me
    says the same."""
    bot = memory_bot
    ids = add_players(bot, 12)
    await bot.says(GROUP, ADMIN, "/new xiangqi bracket 象棋", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    name = {v: k for k, v in ids.items()}
    a, b = tables_of(drawn.body, ids)[1]
    await bot.says(GROUP, ADMIN, "/report 1 1-0; 1-0", "结果确认")
    winner, loser = name[a], name[b]  # seat A took both games
    live = await bot.server.wait_for(lambda m: "实时" in m.body and winner in m.body)
    shown = await bot.says(GROUP, ADMIN, "/standings all", winner)
    tree = await bot.says(GROUP, ADMIN, "/bracket", winner)
    for body in (shown.body, live.body, tree.body):
        assert "第1轮晋级" in line_of(body, winner), body
        assert "出局" not in line_of(body, winner)
        assert "翻牌" not in body
    assert "第1轮出局" in line_of(shown.body, loser)
    me = await bot.says(GROUP, a, "/me", "象棋")  # /me says where they stand now
    assert "：第1轮晋级" in me.body
    waiting = {name[u]: n for n, seats in tables_of(drawn.body, ids).items() for u in seats}
    del waiting[winner], waiting[loser]  # no figure for a table not reported yet
    assert all(line_of(shown.body, n).endswith(f"等待第{t}桌结果") for n, t in waiting.items())


async def test_the_playoff_notice_names_only_the_tied(memory_bot: MemoryHarness) -> None:
    """锄大地 final of four: 5, 5, 1, −11. The whole table replays it (two is no Big Two
    table), but the notice names the two tied players only; the standings share their
    place and claim no flip."""
    bot = memory_bot
    ids = add_players(bot, 4)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout 锄大地", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    name = {v: k for k, v in ids.items()}
    seats = [name[u] for u in tables_of(drawn.body, ids)[1]]
    notice = await bot.says(GROUP, ADMIN, "/report 1 total A+5 B+5 C+1 D-11", "还需加赛")
    tied = notice.body.split("还需加赛：", 1)[1].split("。", 1)[0]
    assert sorted(tied.split(", ")) == sorted(seats[:2])
    shown = await bot.says(GROUP, ADMIN, "/standings all", seats[0])
    first, second = line_of(shown.body, seats[0]), line_of(shown.body, seats[1])
    assert first.split(".")[0] == second.split(".")[0] == "1="
    assert "同分待加赛" in first and "翻牌" not in shown.body

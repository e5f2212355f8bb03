"""Every surface says what the standings' read model says (``engine.board``): the
/standings text, the pinned live standings, /bracket, /me and the play-off notice,
played as an organiser would play them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.application.handlers import standings as standings_handler
from bot.presentation.board import board_of, ranking_lines
from bot.presentation.pictures import standings_sheet
from charts.data import Sheet
from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness

GROUP = -107200
ADMIN = 1


def add_players(bot: MemoryHarness, count: int, first: int = 701) -> dict[str, int]:
    names = [f"棋手{i + 1:02d}" for i in range(count)]
    return bot.server.seat_group(GROUP, ADMIN, names, first)


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


GOMOKU = ["黄勇", "陈静", "杨磊", "赵敏", "张伟", "王芳", "刘洋", "李娜"]


def groups_of(body: str, ids: dict[str, int]) -> dict[str, list[int]]:
    """The draw's 'A 组：甲, 乙' lines → letter → user ids."""
    out = {}
    for ln in body.splitlines():
        if len(ln) > 4 and ln[1:4] == " 组：":
            out[ln[0]] = [ids[n] for n in ln[4:].split(", ")]
    return out


def per_group(body: str) -> dict[str, list[str]]:
    """A ranking listed per group: heading 'A 组' → the ranking lines under it."""
    out: dict[str, list[str]] = {}
    current = ""
    for ln in body.splitlines():
        if len(ln) == 3 and ln.endswith(" 组"):
            current = ln[0]
            out[current] = []
        elif current and ln[:1].isdigit() and ". " in ln:
            out[current].append(ln)
    return out


def place_of(line: str) -> str:
    return line.split(". ", 1)[0]


async def test_a_gomoku_group_event_reads_true_at_every_step(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lead's 8-player 五子棋 event (groups A/B of 4, matches of two games then one
    more until someone wins). During the groups: /standings, the pinned live standings
    and the picture are a table per group, A then B, with the same places; a group that
    has played nothing and a level match share their places; a shared place claims no
    tie-break. After the groups: one ranking, the others 小组赛出局. After the final: 亚军,
    and what split 3rd from 4th is said; nothing reads "本轮" of a round gone by."""
    sheets: list[Sheet] = []

    def keep(*args: Any, **kwargs: Any) -> Sheet:
        sheets.append(standings_sheet(*args, **kwargs))
        return sheets[-1]

    monkeypatch.setattr(standings_handler, "standings_sheet", keep)
    bot = memory_bot
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    ids = {}
    for i, n in enumerate(GOMOKU):
        bot.server.add_user(801 + i, n, language_code="zh")
        ids[n] = 801 + i
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new gomoku 五子棋周赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/draw", "按小组循环进行")
    drawn = await bot.server.wait_for("第 1 轮抽签")
    print(drawn.body)
    groups = groups_of(drawn.body, ids)
    assert sorted(groups) == ["A", "B"] and all(len(g) == 4 for g in groups.values())
    letter = {p: g for g, members in groups.items() for p in members}
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    tables = tables_of(opened.body, ids)
    assert {letter[p] for p in tables[1] + tables[2]} == {"A"}

    # 1. table 1 in (seat A 2–0); group B has played nothing: its four share 1st.
    await bot.says(GROUP, ADMIN, "/report 1 1-0; 1-0", "结果确认")
    live = await bot.server.wait_for(lambda m: "实时" in m.body and " 组" in m.body)
    shown = await bot.says(GROUP, ADMIN, "/standings", "B 组")
    for body in (live.body, shown.body):
        listed = per_group(body)
        assert list(listed) == ["A", "B"], body
        assert {place_of(ln) for ln in listed["B"]} == {"1="}, body
        assert "小组第4名" not in body and "翻牌" not in body
        assert place_of(listed["A"][0]) == "1" and name[tables[1][0]] in listed["A"][0]
    me = await bot.says(GROUP, tables[1][1], "/me", "五子棋周赛")  # /me: the same place
    assert "小组并列第2名" in me.body, me.body

    # 2. table 2 level 1–1, waiting for its third game: its two are not put 2nd and 4th
    #    with the loser of table 1 between them; all three share 2nd.
    await bot.says(GROUP, ADMIN, "/report 2 1-0; 0-1", "请下第 3")
    shown = await bot.says(GROUP, ADMIN, "/standings", "B 组")
    listed = per_group(shown.body)["A"]
    loser = line_of(shown.body, name[tables[1][1]])
    for p in tables[2]:
        line = line_of(shown.body, name[p])
        assert place_of(line) == place_of(loser) == "2=", shown.body
        assert "等待第2桌结果" in line
    assert [place_of(ln) for ln in listed] == ["1", "2=", "2=", "2="]
    picture = sheets[-1]
    assert [r.cells[0] for r in picture.rows if r.mark == "section"] == ["A 组", "B 组"]
    drawn_places = {r.cells[1]: r.cells[0] for r in picture.rows if r.mark != "section"}
    assert drawn_places == {n: place_of(line_of(shown.body, n)) for n in GOMOKU}

    # 3. round 1 over: table 2 won 2–1 (one more game), table 1 won 2–0: the two
    #    winners of group A are level on matches and games (not met yet): 1= both, and
    #    neither line claims a tie-break placed it.
    await bot.says(GROUP, ADMIN, "/report 2 1-0", "结果确认")
    for n in (3, 4):
        await bot.says(GROUP, ADMIN, f"/report {n} 1-0; 1-0", "结果确认")
    await bot.server.wait_for("第 1 轮结束")
    shown = await bot.says(GROUP, ADMIN, "/standings", "B 组")
    top = [ln for ln in per_group(shown.body)["A"] if place_of(ln) == "1="]
    assert {ln.split(". ")[1].split(" ")[0] for ln in top} == {
        name[tables[1][0]],
        name[tables[2][0]],
    }, shown.body
    assert all("分出先后" not in ln for ln in shown.body.splitlines() if "=. " in ln)

    # 4. the rest of the groups, seat A winning 2–0: after them one ranking, and the
    #    four not in the crossovers are out in the groups.
    for number in (2, 3):
        opened = await bot.says(GROUP, ADMIN, "/round", f"第 {number} 轮开始")
        for n in tables_of(opened.body, ids):
            await bot.says(GROUP, ADMIN, f"/report {n} 1-0; 1-0", "结果确认")
        await bot.server.wait_for(f"第 {number} 轮结束")
    opened = await bot.says(GROUP, ADMIN, "/round", "第 4 轮开始")
    cross = tables_of(opened.body, ids)
    going = {p for seats in cross.values() for p in seats}
    shown = await bot.says(GROUP, ADMIN, "/standings", "积分")
    assert " 组\n" not in f"{shown.body}\n"
    for n in GOMOKU:
        assert ("小组赛出局" in line_of(shown.body, n)) == (ids[n] not in going), shown.body
    picture = sheets[-1]
    assert not any(r.mark == "section" for r in picture.rows)

    # 5./6. crossovers 2–1 and 2–0, then the final 2–0: 亚军, and the two crossover
    #    losers' lines say what split them; no "本轮" of a round gone by.
    await bot.says(GROUP, ADMIN, "/report 1 1-0; 0-1; 1-0", "结果确认")
    await bot.says(GROUP, ADMIN, "/report 2 1-0; 1-0", "结果确认")
    await bot.server.wait_for("第 4 轮结束")
    await bot.says(GROUP, ADMIN, "/round", "第 5 轮开始")
    await bot.says(GROUP, ADMIN, "/report 1 1-0; 1-0", "结果确认")
    done = await bot.server.wait_for("结束！冠军")
    ranked = [ln for ln in done.body.splitlines() if ln[:1].isdigit() and " — " in ln]
    assert "亚军" in ranked[1] and "决赛" not in ranked[1], done.body
    assert name[cross[1][1]] in ranked[2] and "分出先后" in ranked[2], done.body
    assert "复赛第1轮出局" in ranked[3] and "本轮" not in done.body
    shown = await bot.says(GROUP, ADMIN, "/standings", "亚军")
    assert [ln for ln in shown.body.splitlines() if ln in ranked] == ranked[: len(ranked)]


async def test_a_doudizhu_group_event_lists_its_groups_and_shares_what_is_undecided(
    memory_bot: MemoryHarness,
) -> None:
    """斗地主 groups (tables of three): after round 1's first table, /standings is a table
    per group; a group with no table reported has everyone 1= waiting for their table,
    and the table's winner is 1st of their group; no flip is claimed."""
    bot = memory_bot
    ids = add_players(bot, 9)
    name = {v: k for k, v in ids.items()}
    await bot.says(GROUP, ADMIN, "/new doudizhu 斗地主小组赛", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    groups = groups_of(drawn.body, ids)
    opened = await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    tables = tables_of(opened.body, ids)
    await bot.says(GROUP, ADMIN, "/report 1 total A+4 B-2 C-2", "结果确认")
    shown = await bot.says(GROUP, ADMIN, "/standings", "组")
    listed = per_group(shown.body)
    assert list(listed) == sorted(groups), shown.body
    assert "翻牌" not in shown.body
    assert place_of(line_of(shown.body, name[tables[1][0]])) == "1"
    for letter, members in groups.items():
        if not set(members) & set(tables[1]):
            assert {place_of(ln) for ln in listed[letter]} == {"1="}, shown.body
            assert all("等待第" in ln for ln in listed[letter])


def test_a_long_group_table_shows_the_top_of_every_group() -> None:
    """16 players in groups A and B: the pinned message's ten lines are not group A's
    eight and two of B, but the top five of each group, then how many more."""
    from tests.test_pictures import ctx, played

    t = played("xiangqi", "groups", 16, None, rounds=1)
    b = board_of(t)
    assert b.by_group
    text = ranking_lines(ctx(), t, b)
    listed = per_group(text)
    assert list(listed) == ["A", "B"] and [len(v) for v in listed.values()] == [5, 5], text
    assert text.splitlines()[-1] == ctx().t("standings.more-all", count=6)

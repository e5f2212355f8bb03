"""Pairs, teams and two-player elimination say only true things (issue 39), read as the
players read them: /standings all, the team table, the standings picture's data and the
announcements, after the results that used to make them say something false.

* 掼蛋 pairs: partners on one place; pairs nothing separated on one shared place (all
  ``2=``, not ``2=``, ``3=``, ``4=``); a pair out never above one still in; no
  「决赛胜场」 before the final is played; a final of three pairs is a round robin; a tie
  at the top of the final is played off (加赛), not flipped (docs/rules/pairs.md).
* 象棋 单败淘汰: the two semi-final losers share third; the last three's round robin names
  the criterion that separated two lines (局分, where a draw's half point did), and the
  picture's subtitle names the head-to-head that decided the title
  (docs/rules/bracket.md).
* 团体赛: teams only the closing flip separates share their place while the event runs
  (docs/rules/teams.md#team-ties).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.presentation import pictures
from charts.data import Sheet
from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness
from tests.handlers.test_surfaces_agree import (
    ADMIN,
    GROUP,
    RANKING_LINE,
    Play,
    capture,
    play_out,
    start,
)

Line = tuple[str, str]  # (place as shown, the rest of the line)


def ranking(body: str) -> dict[str, Line]:
    """Name → (place, details) of every ranking line of a reply."""
    out = {}
    for ln in body.splitlines():
        m = RANKING_LINE.match(ln.split("（")[0] if "分出先后" in ln else ln)
        if m:
            out[m.group(2)] = (m.group(1), ln)
    return out


async def standings_all(play: Play) -> dict[str, Line]:
    return ranking(await play.say(next(iter(play.ids.values())), "/standings all"))


def place(line: Line) -> int:
    return int(line[0].rstrip("="))


# --- 掼蛋 pairs ------------------------------------------------------------------------------
A_WINS = "A C"  # the pair at seats A and C goes out first and second: their match, 4–0
B_WINS = "B D"
LEVEL = "A C; B D"  # three levels each: a drawn match, 2–2


def partners(seats: list[int]) -> tuple[frozenset[int], frozenset[int]]:
    """The two pairs of a table: seats A and C, B and D."""
    return frozenset(seats[0::2]), frozenset(seats[1::2])


def check_partners_together(lines: dict[str, Line], play: Play, seats: list[int]) -> None:
    for pair in partners(seats):
        a, b = (play.name[p] for p in pair)
        assert lines[a][0] == lines[b][0], f"partners apart: {lines[a][1]} / {lines[b][1]}"


async def test_pairs_of_24_stand_where_they_are_round_by_round(
    memory_bot: MemoryHarness,
) -> None:
    """Twelve pairs: 6 tables, then 3, then a final of three pairs, which is a round robin
    (every pair plays two final tables, none one and none three)."""
    ids = await start(memory_bot, "/new guandan pairs 掼蛋双人赛", 24)
    play = Play(memory_bot, ids)
    opened = await play.say(ADMIN, "/round")
    tables = tables_of(opened, ids)
    assert len(tables) == 6
    first, *others = sorted(tables)
    await play.say(tables[first][0], f"/report {first} {A_WINS}")
    await play.say(tables[first][1], "/confirm")
    lines = await standings_all(play)
    for seats in tables.values():
        check_partners_together(lines, play, seats)
    winners, losers = partners(tables[first])
    waiting = {lines[play.name[p]][0] for t in others for p in tables[t]}
    assert waiting == {"2="}, waiting  # ten pairs nothing separated: one shared place
    assert {lines[play.name[p]][0] for p in winners} == {"1"}
    assert {lines[play.name[p]][0] for p in losers} == {"12"}
    assert not [ln for _, ln in lines.values() if "决赛胜场" in ln]  # no final played yet

    for t in others:
        await play.result(t, tables[t], A_WINS)
    lines = await standings_all(play)
    assert {lines[play.name[p]][0] for s in tables.values() for p in s[0::2]} == {"1="}, (
        tables,
        lines,
    )
    out = [lines[play.name[p]] for s in tables.values() for p in s[1::2]]
    assert {ln[0] for ln in out} == {"7="} and all("最后一桌得分 0" in ln[1] for ln in out)
    assert not [ln for _, ln in lines.values() if "决赛胜场" in ln]

    opened = await play.say(ADMIN, "/round")
    tables = tables_of(opened, ids)
    assert len(tables) == 3
    first, *others = sorted(tables)
    await play.result(first, tables[first], B_WINS)
    lines = await standings_all(play)
    lost = min(place(lines[play.name[p]]) for p in tables[first][0::2])
    still = max(place(lines[play.name[p]]) for t in others for p in tables[t])
    assert lost > still, f"a pair out ranks above a pair still in:\n{lines}"
    for seats in tables.values():
        check_partners_together(lines, play, seats)
    for t in others:
        await play.result(t, tables[t], A_WINS)
    lines = await standings_all(play)
    assert not [ln for _, ln in lines.values() if "决赛胜场" in ln]  # the final is to come

    final_tables: Counter[frozenset[int]] = Counter()
    for number in (3, 4, 5):
        opened = await play.say(ADMIN, "/round")
        assert f"第 {number} 轮开始" in opened and "加赛" not in opened, opened
        (seats,) = tables_of(opened, ids).values()
        final_tables.update(partners(seats))
        ac, bd = partners(seats)
        await play.result(1, seats, A_WINS if min(ac) < min(bd) else B_WINS)
    assert len(final_tables) == 3 and set(final_tables.values()) == {2}, final_tables
    assert any("结束！冠军" in m.body for m in memory_bot.server.outbox(-107900))


async def test_pairs_in_groups_read_alike_for_both_partners(memory_bot: MemoryHarness) -> None:
    """掼蛋 pairs in groups A/B (knob ``groups``), played to the champion: both partners of
    every pair read the same line but for the name, place mark and reason alike (the first
    partner read 「2=.」 with no reason and the second 「2.」 with the pair's)."""
    ids = await start(memory_bot, "/new guandan pairs 掼蛋双人赛", 12, knobs=("/set groups 2",))
    play = Play(memory_bot, ids)
    results = (A_WINS, B_WINS, A_WINS, LEVEL)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        yield results[(number + table) % len(results)]

    await play_out(play, decide)
    lines = await standings_all(play)
    assert len(lines) == 12
    pairs = memory_pairs(play)
    assert len(pairs) == 6
    for pair in pairs:
        a, b = (play.name[p] for p in pair)
        assert lines[a][0] == lines[b][0], (lines[a][1], lines[b][1])
        assert lines[a][1].replace(a, "") == lines[b][1].replace(b, ""), (lines[a], lines[b])


def memory_pairs(play: Play) -> set[frozenset[int]]:
    """Every pair as the rounds seated them: partners at A and C, B and D."""
    opened = [m.body for m in play.bot.server.outbox(GROUP) if "轮开始" in m.body]
    return {
        side
        for body in opened
        for seats in tables_of(body, play.ids).values()
        for side in partners(seats)
    }


async def test_a_tie_at_the_top_of_the_pairs_final_is_played_off(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight pairs, a final of four over two rounds; the two pairs on top level on tables
    won and points: they play one more table (加赛, as /rules promises), and the champion
    is the pair that won it, never a flip's."""
    ids = await start(memory_bot, "/new guandan pairs 掼蛋双人赛", 16)
    play = Play(memory_bot, ids, me=("选手01",))
    rules = await play.say(ADMIN, "/rules")  # what /rules says is what is played below
    assert "两组加赛一桌" in rules and "同分选手加赛" not in rules, rules
    capture(monkeypatch, play)
    won: set[frozenset[int]] = set()

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        ac, bd = partners(seats)
        if number == 3 and {ac, bd} <= won:  # the two winners meet: level, won by neither
            yield LEVEL
        elif number == 3 and bd in won:
            yield B_WINS
        else:
            yield A_WINS
            if number == 2:
                won.add(ac)

    done = await play_out(play, decide)
    extra = [m.body for m in memory_bot.server.outbox(-107900) if "还需加赛" in m.body]
    assert len(extra) == 1, extra
    top = done.split("\n")
    champion = next(ln for ln in top if ln.startswith("1. "))
    assert "加赛分出先后" in champion and "翻牌" not in champion, done
    assert "决赛胜场" in champion


# --- 象棋 单败淘汰 -------------------------------------------------------------------------
async def test_the_two_semi_final_losers_share_third(memory_bot: MemoryHarness) -> None:
    """象棋 4: one semi-final needed a third game, the other did not; no third-place
    match is played, so both losers are third (docs/rules/bracket.md#ranking)."""
    ids = await start(memory_bot, "/new xiangqi bracket 象棋", 4)
    play = Play(memory_bot, ids)
    tables = tables_of(await play.say(ADMIN, "/round"), ids)
    await play.result(1, tables[1], "1-0; 0-1; 0-1")  # level after two, the third decides
    await play.result(2, tables[2], "1-0; 1-0")
    final = tables_of(await play.say(ADMIN, "/round"), ids)
    await play.result(1, final[1], "1-0; 1-0")
    lines = await standings_all(play)
    losers = [play.name[tables[1][0]], play.name[tables[2][1]]]
    assert [lines[n][0] for n in losers] == ["3=", "3="], [lines[n][1] for n in losers]
    assert not [n for n in losers if "分出先后" in lines[n][1]]


def reverse(report: str) -> str:
    """The same games from the other seat: ``1-0; 0.5-0.5`` → ``0-1; 0.5-0.5``."""
    return "; ".join("-".join(reversed(g.split("-"))) for g in report.split("; "))


async def last_three(play: Play, meetings: dict[tuple[int, int], str]) -> list[int]:
    """Play a bracket to its last three, every knockout match 2–0 for seat A; then the
    round robin, its meetings as ``meetings`` (by robin order: the first table's A, its
    B, and the bye 0, 1, 2) give them."""
    robin: list[int] = []
    outbox = play.bot.server.outbox
    while not any("结束！冠军" in m.body for m in outbox(-107900)):
        opened = await play.say(ADMIN, "/round")
        tables = tables_of(opened, play.ids)
        if "循环" in opened and not robin:
            robin = [*tables[1], play.ids[re.findall(r"轮空：(\S+)", opened)[0]]]
        for table, seats in sorted(tables.items()):
            result = "1-0; 1-0"
            if robin:
                a, b = (robin.index(p) for p in seats)
                result = meetings[a, b] if (a, b) in meetings else reverse(meetings[b, a])
            await play.result(table, seats, result)
    return robin


async def test_the_last_three_name_the_criterion_that_separated_them(
    memory_bot: MemoryHarness,
) -> None:
    """象棋 10 (seed 004, more than nine): halving to three, who play a round robin ranked
    by matches won, then games' points. x beats y 2–0, y beats z 1½–½ (a drawn game), z
    beats x 2–0: one win each; x and z both won two games, z's draw gives z half a point
    more: the line says 局分 put z above x, not 胜局数 (the same for both)."""
    ids = await start(memory_bot, "/new xiangqi bracket 象棋", 10)
    play = Play(memory_bot, ids)
    robin = await last_three(play, {(0, 1): "1-0; 1-0", (1, 2): "1-0; 0.5-0.5", (2, 0): "1-0; 1-0"})
    x, _, z = (play.name[p] for p in robin)
    lines = await standings_all(play)
    assert place(lines[z]) < place(lines[x]), lines
    upper = lines[z][1]
    assert "循环赛局分分出先后" in upper and "胜局数" not in upper, upper


async def test_the_pictures_subtitle_names_the_head_to_head_that_decided_the_title(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """象棋 10, best of 3: the last three's p and q draw their match 1½–1½, q beats r 2–1,
    r beats p 2½–½. q and r won one match and 3½ points each; q beat r: head-to-head
    decided the title, and the standings picture says so under its title."""
    ids = await start(memory_bot, "/new xiangqi bracket 象棋", 10, knobs=("/set series bo3",))
    play = Play(memory_bot, ids)
    sheets: list[Sheet] = []
    real = pictures.standings_sheet

    def keep(*args: object, **kwargs: object) -> Sheet:
        sheets.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return sheets[-1]

    monkeypatch.setattr("bot.application.handlers.standings.standings_sheet", keep)
    meetings = {
        (0, 1): "0.5-0.5; 0.5-0.5; 0.5-0.5",
        (1, 2): "1-0; 0-1; 1-0",
        (2, 0): "1-0; 0.5-0.5; 1-0",
    }
    robin = await last_three(play, meetings)
    body = await play.say(ids["选手01"], "/standings")
    champion = next(ln for ln in body.splitlines() if ln.startswith("1. "))
    assert play.name[robin[1]] in champion and "相互胜负分出先后" in champion, body
    assert "冠军由相互胜负决出" in sheets[-1].subtitle, sheets[-1].subtitle


# --- 团体赛 -----------------------------------------------------------------------------------
async def test_team_places_stay_shared_until_the_end(memory_bot: MemoryHarness) -> None:
    """斗地主 12 in teams of three; every table level: the four teams are level on points
    and best individual. While the event runs they share first place and no flip is named;
    at the end the flip places them and says so (docs/rules/teams.md#team-ties)."""
    ids = await start(memory_bot, "/new doudizhu teams 斗地主团体赛", 12)
    play = Play(memory_bot, ids)
    level = "total A+0 B+0 C+0"
    for number in (1, 2, 3):
        tables = tables_of(await play.say(ADMIN, "/round"), ids)
        for table, seats in sorted(tables.items()):
            await play.result(table, seats, level)
        if number < 3:  # /standings and /standings all: every line, the team table too
            for asked in ("/standings", "/standings all"):
                body = await play.say(ids["选手01"], asked)
                teams = [ln for ln in body.splitlines() if re.match(r"^\d+=?\. 第 \d+ 队", ln)]
                assert len(teams) == 4 and all(ln.startswith("1=. ") for ln in teams), body
                assert "翻牌" not in "\n".join(teams), body
    done = next(m.body for m in memory_bot.server.outbox(-107900) if "结束！冠军" in m.body)
    teams = [ln for ln in done.splitlines() if re.match(r"^\d+\. 第 \d+ 队", ln)]
    assert [ln.split(".")[0] for ln in teams] == ["1", "2", "3", "4"], done
    assert "(翻牌)" in teams[0], done

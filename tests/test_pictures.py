"""Every picture for every preset: played out with the real engine on in-memory rows,
drawn as on a fresh machine (the packaged CJK font only, no system font) with
missing-glyph warnings turned into errors, 1080 px wide, and saying what the format ranks
by (stage reached, teams with members, group tables…)."""

from __future__ import annotations

import hashlib
import os
import select
import struct
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from bot.application.handlers.bracket import bracket_matches, robin_sheet
from bot.application.tournament import format_of, state_of
from bot.language.i18n import Catalogue
from bot.presentation.pictures import (
    first_page,
    podium,
    progression_series,
    seating_sheet,
    standings_sheet,
)
from charts.bracket import (
    LABEL_KEYS,
    MATCHES_PER_PAGE,
    Match,
    bracket_figures,
    bracket_pngs,
    pages,
)
from charts.canvas import WIDTH_PX
from charts.podium import podium_figure, podium_png
from charts.progression import progression_png
from charts.sheet import sheet_figures, sheet_pngs
from db.models import Player, Report, Round, TableRow, Tournament
from engine.board import board
from engine.model import Finished

ROOT = Path(__file__).resolve().parents[1]

# Chinese, Latin, Cyrillic and Japanese names, as a company group has them.
NAMES = [
    "张伟",
    "Li Na",
    "Иван Петров",
    "さくら",
    "王芳",
    "Zoë",
    "刘洋",
    "Ольга",
    "陈静",
    "山田太郎",
]
MAX_SIDE = 4000
CATALOGUE = Catalogue()
pytestmark = pytest.mark.usefixtures("packaged_font_only")


@pytest.fixture(autouse=True)
def glyph_warnings_fail() -> Iterator[None]:
    """A missing glyph only warns in matplotlib; here it must fail the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def ctx(lang: str = "zh") -> Any:
    return SimpleNamespace(t=CATALOGUE[lang], tz=ZoneInfo("Asia/Shanghai"))


def size(png: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def text_of(fig: Figure) -> str:
    return "\n".join(t.get_text() for t in fig.findobj(Text))


def scores(seats: int, salt: str) -> list[float]:
    """Distinct made-up scores: zero-sum for four seats, a win for two (no ties)."""
    h = int(hashlib.sha256(salt.encode()).hexdigest(), 16)
    if seats == 2:
        return [2, 1] if h % 2 else [1, 2]
    base = ([40, 10, -15, -35] if h % 2 else [30, 20, -20, -30]) if seats == 4 else [20, 5, -25]
    shift = h % seats
    return [float(x) for x in base[shift:] + base[:shift]]


def played(
    game: str, fmt: str, count: int, options: dict[str, str] | None = None, rounds: int = 0
) -> Tournament:
    """A tournament of ``count`` players played to the end with the real engine (or its
    first ``rounds`` rounds)."""
    t = Tournament(
        chat_id=1,
        thread_id=0,
        game=game,
        format=fmt,
        title="春季公开赛",
        options={"format": options or {}},
        status="running",
        seed="5eed" * 16,
        creator_id=1,
        players=[
            Player(
                user_id=i + 1, name=f"{NAMES[i % len(NAMES)]}{i + 1}", status="active", partners=[]
            )
            for i in range(count)
        ],
        rounds=[],
        penalties=[],
    )
    for number in range(1, 40):
        if rounds and number > rounds:
            return t
        plan = format_of(t).plan(state_of(t))
        if isinstance(plan, Finished):
            t.status = "finished"
            return t
        r = Round(number=number, stage=plan.stage, seed_label=plan.seed_label, status="drawn")
        r.byes, r.notes = list(plan.byes), list(plan.notes)
        r.tables = [
            TableRow(number=tb.number, seats=list(tb.players), forfeited=[], present=[])
            for tb in plan.tables
        ]
        t.rounds.append(r)
        r.status = "closed"
        for row in r.tables:
            row.status = "confirmed"
            got = scores(len(row.seats), f"{number}:{row.number}")
            row.reports = [Report(text="", scores=got, status="confirmed", live=True)]
    raise AssertionError("the event did not finish")


def bracket_pictures(t: Tournament) -> list[bytes]:
    """What /bracket sends: the knockout tree's pages, then the last three's round robin."""
    tree = getattr(format_of(t), "bracket", None)
    if tree is None:
        return []
    rounds = tree(state_of(t))
    labels = {key: CATALOGUE["zh"](f"bracket.{key}") for key in LABEL_KEYS}
    pngs = bracket_pngs(bracket_matches(t, rounds), "对阵图", labels)
    robin = robin_sheet(ctx(), t, rounds)
    return pngs + (sheet_pngs(robin) if robin else [])


PRESETS = [
    ("bigtwo", "knockout", 16, None),
    ("bigtwo", "swiss", 12, None),
    ("bigtwo", "stages", 12, None),
    ("bigtwo", "teams", 12, None),
    ("guandan", "pairs", 16, None),
    ("xiangqi", "groups", 8, None),
    ("xiangqi", "bracket", 9, None),
    ("xiangqi", "bracket", 64, None),
]


@pytest.mark.parametrize(("game", "fmt", "count", "options"), PRESETS)
def test_every_picture_draws_every_preset_1080_px_wide(
    game: str, fmt: str, count: int, options: dict[str, str] | None
) -> None:
    t = played(game, fmt, count, options)
    c = ctx()
    pictures = [
        *sheet_pngs(standings_sheet(c, t)),
        *sheet_pngs(seating_sheet(c, t, t.rounds[0])),
        progression_png(progression_series(t), "走势", {"round": "轮次", "points": "积分"}),
        podium_png(podium(c, t, datetime(2026, 12, 1, tzinfo=UTC))),
        *bracket_pictures(t),
    ]
    assert len(pictures) >= (6 if fmt == "bracket" else 4)
    for png in pictures:
        width, height = size(png)
        assert width == WIDTH_PX
        assert 300 < height <= MAX_SIDE


def test_knockout_standings_show_the_stage_reached_and_the_champion_first() -> None:
    t = played("bigtwo", "knockout", 16, None)
    sheet = standings_sheet(ctx(), t)
    first, last = sheet.rows[0], sheet.rows[-1]
    assert first.cells[2] == "冠军" and first.mark == "gold"
    assert last.cells[2] == "第1轮出局"  # as the text ranking says it
    assert "晋级到" in sheet.columns


def test_a_bracket_winner_is_not_greyed_out_while_the_round_goes_on() -> None:
    """象棋 12 players, single elimination, table 1 confirmed 1-0; 1-0: the winner is
    through (not 已淘汰), the loser out, the others wait for their tables: the picture
    says what /standings and /bracket say."""
    t = played("xiangqi", "bracket", 12, None)
    del t.rounds[1:]
    t.status = "running"
    r = t.rounds[0]
    r.status = "open"
    for row in r.tables[1:]:
        row.status, row.reports = "pending", []
    first = r.tables[0]
    first.reports = [Report(text="1-0; 1-0", scores=[2, 0], status="confirmed", live=True)]
    winner, loser = (f"{NAMES[(p - 1) % len(NAMES)]}{p}" for p in first.seats)
    rows = {row.cells[1]: row for row in standings_sheet(ctx(), t).rows}
    assert (rows[winner].cells[2], rows[winner].mark) == ("第1轮晋级", "")
    assert (rows[loser].cells[2], rows[loser].mark) == ("第1轮出局", "out")
    others = [row for name, row in rows.items() if name not in (winner, loser)]
    assert len(others) == 10 and all(row.mark == "" for row in others)
    assert {row.cells[2] for row in others} == {f"等待第{n}桌结果" for n in range(2, 7)}


def test_a_long_ranking_is_one_picture_of_its_top_page_saying_how_many_more() -> None:
    t = played("bigtwo", "swiss", 40, None)
    sheet = standings_sheet(ctx(), t)
    top = first_page(ctx(), sheet)
    assert len(sheet_pngs(top)) == 1 and len(sheet_pngs(sheet)) == 2
    assert top.rows == sheet.rows[:32]
    assert "另有 8 人" in top.footer and sheet.footer in top.footer


def test_team_standings_rank_teams_with_their_members() -> None:
    t = played("bigtwo", "teams", 12, None)
    sheet = standings_sheet(ctx(), t)
    assert [r.cells[1] for r in sheet.rows][:1] == [sheet.rows[0].cells[1]]
    assert all(r.cells[1].startswith("第 ") and r.sub.count(" · ") == 2 for r in sheet.rows)
    assert len(sheet.rows) == 4  # twelve players, teams of three


def test_pair_standings_give_partners_one_line_and_one_medal() -> None:
    t = played("guandan", "pairs", 16, None)
    sheet = standings_sheet(ctx("en"), t)
    assert len(sheet.rows) == 8
    assert sheet.rows[0].mark == "gold" and " & " in sheet.rows[0].sub
    assert sheet.rows[0].cells[2] == "Champion"
    places = podium(ctx("en"), t, datetime(2026, 12, 1, tzinfo=UTC)).places
    assert " & " in places[0].members and places[0].label == "Champion"


def test_group_standings_are_group_tables_while_the_groups_play_then_the_ranking() -> None:
    """While the groups play: a table per group, each place the board's (the text's),
    shared while undecided. After them: the one ranking the text shows."""
    t = played("xiangqi", "groups", 8, None, rounds=2)
    sheet = standings_sheet(ctx(), t)
    sections = [r.cells[0] for r in sheet.rows if r.mark == "section"]
    assert sections == ["A 组", "B 组"]
    line = next(r for r in sheet.rows if r.mark != "section")
    played_, won, drawn, lost = (int(x) for x in line.cells[2:6])
    assert played_ == 2 and won + drawn + lost == played_
    assert "场" in sheet.columns and "负" in sheet.columns
    b = board(format_of(t), state_of(t), False)
    assert b.by_group
    places = {r.cells[1]: r.cells[0] for r in sheet.rows if r.mark != "section"}
    names = {p.user_id: p.name for p in t.players}
    assert places == {
        names[e.player]: f"{e.place}=" if e.shared else str(e.place) for e in b.entries
    }
    t = played("xiangqi", "groups", 8, None)
    sheet = standings_sheet(ctx(), t)
    assert not any(r.mark == "section" for r in sheet.rows)
    assert [r.cells[2] for r in sheet.rows][:2] == ["冠军", "亚军"]
    assert sum("小组赛出局" in r.cells[2] for r in sheet.rows) == 4


def test_swiss_standings_name_the_deciding_criterion() -> None:
    t = played("bigtwo", "swiss", 12, None)
    sheet = standings_sheet(ctx("en"), t)
    assert sheet.columns[-1] == "Decided by"
    assert sheet.footer.startswith("Ranked by: points →")


def test_seating_sheet_has_a_line_per_table_and_the_winds() -> None:
    t = played("bigtwo", "swiss", 12, None)
    sheet = seating_sheet(ctx(), t, t.rounds[0])
    assert sheet.columns == ("桌", "A 东", "B 南", "C 西", "D 北")
    assert len(sheet.rows) == 3
    fig = sheet_figures(sheet)[0]
    assert "截止" in text_of(fig)


def test_64_player_bracket_is_three_pages_with_scores_and_the_champion() -> None:
    t = played("xiangqi", "bracket", 64, None)
    tree = format_of(t).bracket(state_of(t))  # type: ignore[attr-defined]
    rounds = [
        [
            Match(
                str(a),
                str(b),
                str(w or ""),
                "2",
                "1",
                tuple(j for j, m in enumerate(tree[r - 1] if r else ()) if m[2] in (a, b)),
            )
            for a, b, w in rnd
        ]
        for r, rnd in enumerate(tree)
    ]
    labels = {
        "round": "第 {n} 轮",
        "final": "决赛",
        "champion": "冠军",
        "bye": "轮空",
        "third-match": "三四名决赛",
    }
    assert len(pages(rounds)) == 3
    figures = bracket_figures(rounds, "对阵图", labels)
    assert "冠军" in text_of(figures[-1]) and "决赛" in text_of(figures[-1])
    assert "冠军" not in text_of(figures[0])
    for png in bracket_pngs(rounds, "对阵图", labels):
        width, height = size(png)
        assert width == WIDTH_PX and height <= MAX_SIDE
    assert len(rounds[0]) == 2 * MATCHES_PER_PAGE


def test_the_last_three_round_robin_is_a_small_table_with_scores_and_the_champion() -> None:
    t = played("xiangqi", "bracket", 9, None)
    rounds = format_of(t).bracket(state_of(t))  # type: ignore[attr-defined]
    robin = robin_sheet(ctx(), t, rounds)
    assert robin is not None and len(robin.rows) == 3  # each of the three meets the others
    assert all(r.cells[2] in ("2 : 1", "1 : 2") for r in robin.rows)
    champion = t.players[format_of(t).standings(state_of(t))[0].player - 1].name
    assert robin.footer == f"冠军：{champion}"
    assert sum(champion in (r.cells[1], r.cells[3]) for r in robin.rows) == 2
    # Every match played in the tree above shows its score; a bye shows none.
    matches = [m for rnd in bracket_matches(t, rounds) for m in rnd]
    assert all(bool(m.first_score and m.second_score) == bool(m.second) for m in matches)


def test_podium_names_the_first_three_with_game_and_date() -> None:
    t = played("bigtwo", "knockout", 16, None)
    fig = podium_figure(podium(ctx(), t, datetime(2026, 12, 1, 4, tzinfo=UTC)))
    text = text_of(fig)
    assert "冠军" in text and "亚军" in text and "季军" in text
    assert "锄大地 · 2026-12-01" in text


DRAWS_THEN_WAITS = """
import asyncio, sys
from bot.presentation.pictures import draw
from charts.data import Row, Sheet
from charts.jobs import first_png

async def main() -> None:
    sheet = Sheet("杯", "第 1 轮后", ("名次", "选手"), (0.3, 0.7), "lr", (Row(("1", "张三")),))
    print(len(await draw(first_png, sheet)), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_the_drawing_process_draws_and_ends_when_the_bot_is_killed() -> None:
    """Pictures are drawn in a process of the bot's own. A bot killed outright (SIGKILL)
    cannot stop it: it must end by itself, or it would wait for pictures forever,
    holding the bot's pipes open (here: the pipe this test reads to its end)."""
    with subprocess.Popen(
        [sys.executable, "-c", DRAWS_THEN_WAITS], stdout=subprocess.PIPE, cwd=ROOT
    ) as bot:
        out = bot.stdout
        assert out is not None
        assert int(out.readline()) > 1000  # a PNG came back from the drawing process
        bot.kill()
        bot.wait()
        fd = out.fileno()
        os.set_blocking(fd, False)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # EOF once nobody holds the pipe any more
            if select.select([fd], [], [], 0.5)[0] and os.read(fd, 1 << 16) == b"":
                return
        pytest.fail("the drawing process outlived the killed bot")

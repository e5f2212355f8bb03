"""Every surface says what the read model says, after every confirmed result.

Whole events are played through the in-memory bot as an organiser and players would play
them (/new, /join, /draw, /round, a player's /report and the other side's /confirm for
each table, with a level series, a tie that needs a play-off, a forfeit and a penalty).
After each confirmed result the standings' read model (``engine.board``, built here from
the stored event) is the reference, and each surface must show its every line with the
same place (shared or not), status words, figure and applied tie-break:

* the text of ``/standings all`` and of ``/standings`` (its top lines),
* the standings picture's data (``pictures.standings_sheet``, the rows handed to charts),
  both for /standings and for the pinned live standings,
* the pinned live standings message,
* ``/bracket`` (where the format has one): its ranking lines, and no match in its tree
  won by a player the board shows out,
* ``/me`` for a few players,
* and at the end the announcement's ranking.

Messages about state must go out in the order the states happened: checked on the whole
outbox, with the round's last result, the next ``/round`` and a player's ``/standings``
reaching the bot together (one poll), where a reply to one person may go first.

The find-tests at the end put back a surface that derives its own view and show the
check fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest

from bot.application.handlers import bracket as bracket_handler
from bot.application.handlers import standings as standings_handler
from bot.application.tournament import format_of, names, state_of
from bot.language.i18n import show
from bot.presentation import live as live_module
from bot.presentation import pictures
from charts.data import Match, Sheet
from db.models import Tournament
from db.repo import Repo
from db.status import EventStatus
from engine.board import Board, Entry, Status, board
from tests.e2e.harness import tables_of
from tests.handlers.harness import MemoryHarness
from tests.handlers.memory import CATALOGUE

GROUP = -107900
ADMIN = 1
ZH = CATALOGUE["zh"]
RANKING_LINE = re.compile(r"^(\d+=?)\. (\S+)(?: — .*)?$")


# --- the reference: what a line of the read model says ----------------------------------
def place_of(e: Entry) -> str:
    return f"{e.place}=" if e.shared else str(e.place)


def words_of(e: Entry) -> str:
    key = f"stage.{e.stage}"
    return ZH(key, round=e.stage_round) if e.stage and ZH.has(key) else ""


def labels_of(e: Entry) -> list[str]:
    return [ZH(f"tiebreak.{c}") for c in e.decided if ZH.has(f"tiebreak.{c}")]


def line_of(e: Entry, name: str, by_group: bool) -> str:
    """The line docs/guide.en.md#standings describes: place (``3=`` while shared), name, how
    far they got (not under a group's heading, where the place says it), the figure that
    ranked them, and the tie-break applied, if any."""
    details = []
    if not (by_group and e.stage in ("group", "group-tied")) and (words := words_of(e)):
        details.append(words)
    if e.figure is not None and ZH.has(f"tiebreak.{e.figure_code}"):
        details.append(f"{ZH(f'tiebreak.{e.figure_code}')} {show(e.figure)}")
    line = f"{place_of(e)}. {name}" + (f" — {' · '.join(details)}" if details else "")
    if labels := labels_of(e):
        line = f"{line}（{' / '.join(labels)}分出先后）"
    return line


@dataclass
class Model:
    """The read model of the stored event, with its names."""

    t: Tournament
    board: Board
    who: dict[int, str]

    def expected(self) -> dict[str, str]:
        return {
            self.who[e.player]: line_of(e, self.who[e.player], self.board.by_group)
            for e in self.board.entries
        }

    def entry(self, name: str) -> Entry:
        uid = next(u for u, n in self.who.items() if n == name)
        found = self.board.of(uid)
        assert found is not None, name
        return found


async def read_model(bot: MemoryHarness) -> Model:
    async with bot.chats.sessionmaker() as session:
        t = await Repo(session).latest_tournament(GROUP, None)
        assert t is not None
        over = t.status == EventStatus.FINISHED
        return Model(t, board(format_of(t), state_of(t), over), names(t))


# --- each surface against it --------------------------------------------------------------
def name_in(line: str) -> str:
    """The name a ranking line ranks ("" if it is none)."""
    m = RANKING_LINE.match(line.split("（")[0] if "分出先后" in line else line)
    return m.group(2) if m else ""


def ranking_lines_in(body: str, model: Model) -> list[str]:
    """The lines of ``body`` that rank a player of the event (``3. name — …``)."""
    known = model.expected()
    return [ln for ln in body.splitlines() if name_in(ln) in known]


def check_text(surface: str, body: str, model: Model, whole: bool = False) -> None:
    """Every ranking line shown is the read model's line for that name, in the board's
    order; ``whole``: every line of the board is shown."""
    expected = model.expected()
    shown = ranking_lines_in(body, model)
    for ln in shown:
        want = expected[name_in(ln)]
        assert ln == want, f"{surface}: {ln!r}, the read model says {want!r}\n{body}"
    order = [model.who[e.player] for e in model.board.entries]
    names_shown = [name_in(ln) for ln in shown]
    assert names_shown == [n for n in order if n in names_shown], f"{surface}: order\n{body}"
    least = len(order) if whole else min(len(order), 8)
    assert len(shown) >= least, f"{surface}: {len(shown)} lines of {len(order)}\n{body}"


def check_sheet(surface: str, sheet: Sheet, model: Model) -> None:
    """The picture's rows: the same place, stage words (or title), and figure or applied
    tie-break as the read model for each line it draws."""
    rows = [r for r in sheet.rows if r.mark != "section"]
    assert rows, surface
    for row in rows:
        if row.sub and " & " in row.sub:  # a pair's line: its first member's entry
            e = model.entry(row.sub.split(" & ")[0])
        elif row.cells[1] in model.expected():
            e = model.entry(row.cells[1])
        else:
            continue  # a team's line (the team table is the teams' own ranking)
        where = f"{surface}: {row.cells}"
        if row.cells[0]:  # the groups' table leaves places empty once the groups are over
            assert row.cells[0] == place_of(e), f"{where}, the read model says {place_of(e)}"
        out = e.status in (Status.OUT, Status.REMOVED)
        if not model.board.over:
            assert (row.mark == "out") == out, f"{where} marked {row.mark!r}, status {e.status}"
        headings = sheet.columns
        if ZH("pictures.reached") in headings:
            stage = ZH("pictures.champion") if e.status is Status.CHAMPION else words_of(e) or "—"
            assert row.cells[2] == stage, f"{where}, the read model says {stage}"
        if ZH("pictures.figure") in headings:
            figure = show(e.figure) if e.figure is not None else ""
            assert row.cells[3] == (figure or "—"), f"{where}, figure {figure!r}"
        if ZH("pictures.decided-by") in headings:
            assert row.cells[3] == " / ".join(labels_of(e)), f"{where}, decided {e.decided}"


def check_me(body: str, model: Model, name: str) -> None:
    e = model.entry(name)
    if model.board.over:
        want = ZH("me.place", place=e.place, of=len(model.board.entries))
    else:
        want = words_of(e) or ZH("me.playing")
    line = next(ln for ln in body.splitlines() if model.t.title in ln)
    assert line.endswith(f"：{want}"), f"/me of {name}: {line!r}, the read model says {want!r}"


def check_tree(matches: list[list[Match]], model: Model) -> None:
    """Nobody /bracket's tree shows winning and never losing is shown out by the board
    (the defect: a confirmed winner read "第1轮出局" while the tree had them through)."""
    won = {m.winner for rnd in matches for m in rnd if m.winner}
    lost = {
        n for rnd in matches for m in rnd if m.winner for n in (m.first, m.second) if n != m.winner
    }
    for name in won - lost - {""}:
        e = model.entry(name)
        if e.stage == "robin":  # the last three's round robin is a table of its own
            continue
        assert e.status is not Status.OUT, f"/bracket: {name} won every match, the board: {e}"


# --- playing ------------------------------------------------------------------------------
@dataclass
class Play:
    """One event played through the bot, its surfaces checked after every result."""

    bot: MemoryHarness
    ids: dict[str, int]
    sheets: list[tuple[str, Sheet]] = field(default_factory=list)
    trees: list[list[list[Match]]] = field(default_factory=list)
    checked: int = 0
    pictures: dict[str, int] = field(default_factory=dict)  # surface → pictures checked
    captured: bool = False  # ``capture`` keeps the pictures' data
    me: tuple[str, ...] = ()

    @property
    def name(self) -> dict[int, str]:
        return {v: k for k, v in self.ids.items()}

    async def say(self, uid: int, text: str) -> str:
        """``uid`` says ``text`` (a little later than the last message: the live
        standings refresh at once and redraw their picture); the replies, joined."""
        self.bot.clock.offset += timedelta(seconds=61)
        before = len(self.bot.server.outbox(GROUP))
        self.bot.server.user_says(GROUP, uid, text)
        await self.bot.server.wait_idle()
        said = "\n".join(m.body for m in self.bot.server.outbox(GROUP)[before:])
        return said

    async def together(self, *said: tuple[int, str]) -> None:
        """Messages that reach the bot in one poll: handled in order, then delivered
        together, so the sender decides what goes first."""
        self.bot.clock.offset += timedelta(seconds=61)
        for uid, text in said:
            self.bot.server.user_says(GROUP, uid, text)
        pending = list(self.bot.server._pending)
        self.bot.server._pending.clear()
        await self.bot.core.handle_many(pending)
        await self.bot.chats.deliver()
        # the live picture is redrawn at most once a minute: in one poll, only for the
        # first change (its caption follows every one); that state is gone by now
        self.sheets.clear()

    async def check(self) -> None:
        """Every surface against the read model, now."""
        model = await read_model(self.bot)
        for surface, sheet in self.sheets:  # the live picture the last change redrew
            check_sheet(surface, sheet, model)
            self.pictures[surface] = self.pictures.get(surface, 0) + 1
        self.sheets.clear()
        player = next(iter(self.ids.values()))
        check_text("/standings all", await self.say(player, "/standings all"), model, whole=True)
        self.sheets.clear()
        check_text("/standings", await self.say(player, "/standings"), model)
        for surface, sheet in self.sheets:
            check_sheet(surface, sheet, model)
            self.pictures[surface] = self.pictures.get(surface, 0) + 1
        self.sheets.clear()
        pinned = [m for m in self.bot.server.outbox(GROUP) if m.body.startswith("📌")]
        if pinned:
            check_text("the pinned live standings", pinned[-1].body, model)
        if format_of(model.t).has_bracket:
            self.trees.clear()
            body = await self.say(player, "/bracket")
            if ZH("bracket.not-yet") not in body:  # no tree before the groups are over
                check_text("/bracket", body, model)
            for tree in self.trees:
                check_tree(tree, model)
        for name in self.me:
            check_me(await self.say(self.ids[name], "/me"), model, name)
        self.checked += 1

    async def result(self, table: int, seats: list[int], result: str) -> str:
        """A player of the table reports, another confirms; the surfaces are checked."""
        await self.say(seats[0], f"/report {table} {result}")
        said = await self.say(seats[1], "/confirm")
        assert "✅" in said or "请下第" in said, said
        await self.check()
        return said

    async def finish(self) -> str:
        if self.captured:  # both pictures' data were checked along the way
            assert set(self.pictures) == {"the standings picture", "the live standings picture"}
        done = [m for m in self.bot.server.outbox(GROUP) if "结束！冠军" in m.body]
        assert len(done) == 1
        model = await read_model(self.bot)
        assert model.board.over
        check_text("the end announcement", done[0].body, model)
        check_order(self.bot)
        return done[0].body


def check_order(bot: MemoryHarness) -> None:
    """What the chat was told of the event's state, in the order the states happened:
    round N ends before round N+1 starts; a reply saying round N is under way comes after
    round N started and before it ended; the champion before the rating changes."""
    started: set[int] = set()
    ended: set[int] = set()
    finished = False
    seen: list[str] = []
    for m in bot.server.outbox(GROUP):
        body = m.body
        seen.append(body.split("\n")[0][:40])
        if s := re.search(r"第 (\d+) 轮开始", body):
            n = int(s.group(1))
            assert n - 1 in ended or n == 1 or n - 1 not in started, (
                f"round {n} before {n - 1} ended"
            )
            started.add(n)
        if s := re.search(r"⏳ 第 (\d+) 轮进行中", body):
            n = int(s.group(1))
            assert n in started and n not in ended, f"a reply says round {n} is on: {seen[-12:]}"
        if s := re.search(r"✅ 第 (\d+) 轮结束", body):
            n = int(s.group(1))
            assert n in started, f"round {n} ended before it started"
            ended.add(n)
        if "结束！冠军" in body:
            finished = True
        if "等级分变化" in body:
            assert finished, "rating changes before the champion"


def capture(monkeypatch: pytest.MonkeyPatch, play: Play) -> None:
    """Keep the picture data each surface hands to charts, and /bracket's tree."""
    real_sheet = pictures.standings_sheet
    real_tree = bracket_handler.bracket_matches

    def sheet_of(surface: str) -> Callable[..., Sheet]:
        def keep(*args: Any, **kwargs: Any) -> Sheet:
            sheet = real_sheet(*args, **kwargs)
            play.sheets.append((surface, sheet))
            return sheet

        return keep

    def tree(*args: Any) -> list[list[Match]]:
        got = real_tree(*args)
        play.trees.append(got)
        return got

    monkeypatch.setattr(standings_handler, "standings_sheet", sheet_of("the standings picture"))
    monkeypatch.setattr(live_module, "standings_sheet", sheet_of("the live standings picture"))
    monkeypatch.setattr(bracket_handler, "bracket_matches", tree)
    play.captured = True


async def start(
    bot: MemoryHarness, command: str, count: int, first: int = 901, knobs: tuple[str, ...] = ()
) -> dict[str, int]:
    """``command`` creates the event, ``count`` players join, ``knobs`` are set (``/set
    series bo3``), and round 1 is drawn; the players' ids by name."""
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    bot.server.add_chat(GROUP, "棋牌群", admins=[ADMIN])
    ids = {}
    for i in range(count):
        name = f"选手{i + 1:02d}"
        bot.server.add_user(first + i, name, language_code="zh")
        ids[name] = first + i
    await bot.says(GROUP, ADMIN, command, "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    for knob in knobs:
        await bot.says(GROUP, ADMIN, knob, "已设置")
    await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    return ids


Decide = Callable[[int, int, list[int]], Iterator[str]]


async def play_out(play: Play, decide: Decide, rounds: int = 20, burst_at: int = 1) -> str:
    """Open rounds until the champion is announced; each table's results as ``decide``
    gives them (round, table, seats → one report per confirmed result: a level series
    gives two). The last table of round ``burst_at`` is confirmed together with the next
    /round and a player's /standings (one poll)."""
    bot = play.bot
    opened = await play.say(ADMIN, "/round")
    for number in range(1, rounds + 1):
        assert f"第 {number} 轮开始" in opened, opened
        tables = tables_of(opened, play.ids)
        last = max(tables)
        for table, seats in sorted(tables.items()):
            reports = list(decide(number, table, seats))
            for i, result in enumerate(reports):
                if result == "forfeit":
                    ruled = await play.say(ADMIN, f"/forfeit {table}")  # nobody came
                    assert "判弃权" in ruled, ruled
                    await play.check()
                elif result.startswith("/"):  # the organiser rules between results
                    ruled = await play.say(ADMIN, result)
                    assert "用法" not in ruled and "选手" in ruled, ruled
                    await play.check()
                elif number == burst_at and table == last and i == len(reports) - 1:
                    await play.say(seats[0], f"/report {table} {result}")
                    before = len(bot.server.outbox(GROUP))
                    await play.together(
                        (seats[1], "/confirm"), (ADMIN, "/round"), (seats[0], "/standings")
                    )
                    await play.check()
                    opened = "\n".join(m.body for m in bot.server.outbox(GROUP)[before:])
                else:
                    await play.result(table, seats, result)
        if any("结束！冠军" in m.body for m in bot.server.outbox(GROUP)):
            return await play.finish()
        if number != burst_at:
            opened = await play.say(ADMIN, "/round")
            await play.check()  # the pinned standings too: everyone waits for a table
    raise AssertionError("no champion")


# --- the events -----------------------------------------------------------------------------
async def test_xiangqi_bracket_of_12_with_a_level_series_and_a_forfeit(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """象棋 12, 单败淘汰 (matches of two games, then one at a time until someone wins)."""
    ids = await start(memory_bot, "/new xiangqi bracket 象棋淘汰赛", 12)
    play = Play(memory_bot, ids, me=("选手01", "选手07"))
    capture(monkeypatch, play)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        if number == 1 and table == 2:
            yield "1-0; 0-1"  # level: the table plays one more game
            yield "0-1"
        elif number == 1 and table == 3:
            yield "forfeit"
        else:
            yield "1-0; 1-0"

    done = await play_out(play, decide)
    assert play.checked >= 12 and "冠军" in done


async def test_gomoku_groups_of_8(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """五子棋 8, groups A/B then crossovers and a final; one match level after two games."""
    ids = await start(memory_bot, "/new gomoku 五子棋小组赛", 8)
    play = Play(memory_bot, ids, me=("选手02",))
    capture(monkeypatch, play)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        if number == 1 and table == 1:
            yield "1-0; 0-1"
            yield "1-0"
        else:
            yield "0-1; 0-1" if (number + table) % 3 == 0 else "1-0; 1-0"

    done = await play_out(play, decide, burst_at=2)
    assert play.checked >= 16 and "冠军" in done


async def test_doudizhu_swiss_of_12_with_ties_a_penalty_and_a_forfeit(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """斗地主 12, 瑞士制: level tops, a penalty between results, a player forfeiting."""
    ids = await start(memory_bot, "/new doudizhu swiss 斗地主积分赛", 12)
    play = Play(memory_bot, ids, me=("选手03", "选手12"))
    capture(monkeypatch, play)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        if number == 1 and table == 2:
            yield "forfeit"
        elif number == 2 and table == 1:
            yield "/penalty 选手05 1 迟到"
            yield "total A+2 B+2 C-4"
        elif table % 2:
            yield "total A+2 B+2 C-4"  # level at the top
        else:
            yield "total A-2 B+4 C-2"

    done = await play_out(play, decide)
    assert play.checked >= 12 and "冠军" in done


async def test_guandan_pairs_of_8(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """掼蛋 8, pairs: partners share one place and line."""
    ids = await start(memory_bot, "/new guandan pairs 掼蛋双人赛", 8)
    play = Play(memory_bot, ids, me=("选手01",))
    capture(monkeypatch, play)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        yield "A C" if (number + table) % 2 else "B D"

    done = await play_out(play, decide)
    assert play.checked >= 4 and "冠军" in done


async def test_bigtwo_knockout_of_8_with_a_final_play_off(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """锄大地 8, knockout: a tie for the top of the final is played off."""
    ids = await start(memory_bot, "/new bigtwo knockout 锄大地淘汰赛", 8)
    play = Play(memory_bot, ids, me=("选手04",))
    capture(monkeypatch, play)
    finals = 0

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        nonlocal finals
        if number > 1 and finals == 0:  # the final: its top two level, a play-off
            finals += 1
            yield "total A+5 B+5 C-5 D-5" if len(seats) == 4 else "total A+5 B+5 C-10"
        else:
            yield "total A+6 B+1 C-3 D-4" if len(seats) == 4 else "total A+6 B-2 C-4"

    done = await play_out(play, decide)
    assert finals == 1 and "冠军" in done


# --- a surface that derives its own view is caught ------------------------------------------
def own_board(t: Tournament) -> Board:
    """A surface's own view, as before the read model: the format's rows as they are (a
    rank for every line, the stage the rows name, every code of the chain)."""
    fmt, state = format_of(t), state_of(t)
    over = t.status == EventStatus.FINISHED
    rows = fmt.current(state) if over else fmt.standings(state)
    status = {True: Status.IN, False: Status.OUT}
    entries = tuple(
        Entry(s.rank, s.player, status[s.alive], s.stage, s.stage_round, s.figure,
              s.figure_code, s.tiebreak, s.points)
        for s in rows
    )  # fmt: skip
    return Board(entries, over)


def own_lines(real: Callable[..., str]) -> Callable[..., str]:
    def lines(ctx: Any, t: Tournament, b: Board, limit: int = 10) -> str:
        return real(ctx, t, own_board(t), limit)

    return lines


async def first_result(bot: MemoryHarness, command: str, count: int, result: str) -> Play:
    ids = await start(bot, command, count)
    play = Play(bot, ids, me=("选手01",))
    tables = tables_of(await play.say(ADMIN, "/round"), ids)
    await play.say(tables[1][0], f"/report 1 {result}")
    await play.say(tables[1][1], "/confirm")
    return play


SURFACES = {
    "/standings all": ("bot.application.handlers.whole_ranking.ranking_lines", own_lines),
    "/standings:": ("bot.application.handlers.standings.ranking_lines", own_lines),
    "/bracket": ("bot.application.handlers.bracket.ranking_lines", own_lines),
    "the pinned live standings": ("bot.application.handlers.common.ranking_lines", own_lines),
}


@pytest.mark.parametrize("surface", ["", *SURFACES])
async def test_a_text_surface_with_its_own_view_is_caught(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch, surface: str
) -> None:
    """象棋 4, 单败淘汰, table 1 confirmed: the surface printing the format's rows itself
    (a rank each, no shared place, no waiting) no longer says what the read model says.
    ("": nothing put back, every surface agrees.)"""
    if surface:
        where, wrap = SURFACES[surface]
        module, _, attr = where.rpartition(".")
        real = getattr(__import__(module, fromlist=[attr]), attr)
        monkeypatch.setattr(where, wrap(real))
    play = await first_result(memory_bot, "/new xiangqi bracket 象棋", 4, "1-0; 1-0")
    capture(monkeypatch, play)
    if not surface:
        await play.check()
        assert play.pictures and play.trees
        return
    with pytest.raises(AssertionError, match=surface.rstrip(":")):
        await play.check()


async def test_a_picture_with_its_own_view_is_caught(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture greying out everyone not through (the 12-player picture that greyed
    everyone waiting for their table)."""
    monkeypatch.setattr(pictures, "out_of_it", lambda e: e.status is not Status.THROUGH)
    play = await first_result(memory_bot, "/new bigtwo knockout 锄大地", 8, "total A+6 B+1 C-3 D-4")
    capture(monkeypatch, play)
    with pytest.raises(AssertionError, match="standings picture"):
        await play.check()


async def test_me_with_its_own_view_is_caught(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/me saying the format's stage of the line (the rows' own words) instead of the board's."""
    from bot.presentation import board as presented

    def own_me(ctx: Any, t: Tournament, user: int) -> str:
        mine = own_board(t).of(user)
        return (presented.stage_words(ctx, mine) if mine else "") or ctx.t("me.playing")

    monkeypatch.setattr("bot.application.handlers.ratings.my_standing", own_me)
    play = await first_result(memory_bot, "/new bigtwo knockout 锄大地", 8, "total A+6 B+1 C-3 D-4")
    play.me = tuple(play.ids)
    with pytest.raises(AssertionError, match="/me of"):
        await play.check()


async def test_an_end_announcement_with_its_own_view_is_caught(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The announcement ranking the final rows itself: the flip-split lines read apart."""
    ids = await start(memory_bot, "/new bigtwo knockout 锄大地", 4)
    play = Play(memory_bot, ids)
    tables = tables_of(await play.say(ADMIN, "/round"), ids)
    from bot.presentation.board import ranking_lines

    where = "bot.application.handlers.common.ranking_lines"
    monkeypatch.setattr(where, own_lines(ranking_lines))
    await play.say(tables[1][0], "/report 1 total A+6 B+1 C-3 D-4")
    await play.say(tables[1][1], "/confirm")
    with pytest.raises(AssertionError, match="end announcement"):
        await play.finish()


async def test_replies_going_before_the_announcements_queued_first_are_caught(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outbox letting every reply go first (one stage for the whole queue): a
    /standings answer saying round 2 is on reads before "第 2 轮开始"."""
    monkeypatch.setattr("bot.transport.outbox.stages", lambda rows: {r.id: 0 for r in rows})
    ids = await start(memory_bot, "/new xiangqi bracket 象棋", 4)
    play = Play(memory_bot, ids)
    tables = tables_of(await play.say(ADMIN, "/round"), ids)
    await play.result(1, tables[1], "1-0; 1-0")
    await play.say(tables[2][0], "/report 2 1-0; 1-0")
    await play.together((tables[2][1], "/confirm"), (ADMIN, "/round"), (tables[2][0], "/standings"))
    with pytest.raises(AssertionError, match="a reply says round 2 is on"):
        check_order(memory_bot)


async def test_bigtwo_stages_of_12(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """锄大地 12, stages: the field cut stage by stage, level tops at some tables."""
    ids = await start(memory_bot, "/new bigtwo stages 锄大地分段赛", 12)
    play = Play(memory_bot, ids, me=("选手05",))
    capture(monkeypatch, play)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        four = len(seats) == 4
        if (number + table) % 3 == 0:
            yield "total A+4 B+4 C-3 D-5" if four else "total A+4 B+4 C-8"
        else:
            yield "total A-2 B+7 C-1 D-4" if four else "total A-2 B+7 C-5"

    done = await play_out(play, decide)
    assert "冠军" in done


async def test_doudizhu_teams_of_12(
    memory_bot: MemoryHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """斗地主 12, teams: the individual lines as the read model says them."""
    ids = await start(memory_bot, "/new doudizhu teams 斗地主团体赛", 12)
    play = Play(memory_bot, ids, me=("选手06",))
    capture(monkeypatch, play)

    def decide(number: int, table: int, seats: list[int]) -> Iterator[str]:
        yield "total A+4 B-2 C-2" if (number + table) % 2 else "total A+2 B+2 C-4"

    done = await play_out(play, decide)
    assert "冠军" in done

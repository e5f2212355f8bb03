"""The bot's half of the games: a small tournament of every game, from /new to the winner.

(The cases run here over HTTP for a few games and in memory for all of them:
``tests/handlers/test_games.py``.)

Each game runs as a table knockout in a Chinese group: the organiser changes a game knob
(a bad value is refused with the reason), /rules shows it in plain words, players join,
the draw closes the rules, and an impossible report is refused in Chinese; after
``/lang en`` the same report is refused in English and the rest of the event runs in
English, with at least one report made through the guided button flow. The event ends
with the winner announced and a /standings picture; /export's ``score`` is what the
standings add (match points in Guandan, docs/rules/guandan.md#match-points).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

import pytest

from playground.botapi import SentMessage
from tests.e2e.harness import Harness, tables_of

GROUP = -100700
ADMIN = 1
NAMES = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊"]
PLAYERS = list(range(201, 207))


@dataclass(frozen=True)
class Play:
    """One table's report: typed (``text``) or tapped (``taps``), by the captain or organiser.

    ``show`` must appear in the announcement; a captain's report is confirmed by seat B.
    """

    table: int
    text: str = ""
    taps: tuple[str, ...] = ()
    show: str = ""
    organiser: bool = False


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    knob: tuple[str, str, str]  # name, value, what /rules then shows
    bad_knob: tuple[str, str, str, str]  # name, value, zh reason, en reason
    impossible: tuple[str, str, str]  # report, zh reason, en reason
    rounds: tuple[tuple[Play, ...], ...]
    winner_seats: str  # seats of the last round's table one of whom wins
    export: dict[str, str] = field(default_factory=dict)  # final table's seat -> score
    finalists: tuple[str, ...] = ()  # round-1 "table+seat"s that must reach the final


CASES = [
    Case(
        "bigtwo",
        4,
        ("spade2", "off", "持有♠2不加倍"),
        ("settle", "everyone", "可选", "choose one of"),
        ("A0 B0 C5 D7", "两个座位", "only one winner"),
        ((Play(1, taps=("5", "8", "0", "12"), show="+57"),),),
        "C",
        {"A": "37", "C": "57", "D": "-87"},
    ),
    Case(
        "doudizhu",
        6,
        ("doubling", "on", "地主反加倍：可以"),
        ("cap", "lots", "cap 不能设为 lots", "cap cannot be lots"),
        ("A bid3 bombs0 lose spring", "只有地主胜时才有春天", "A spring only happens"),
        (
            (
                Play(1, taps=("B", "3", "1", "Win", "None", "None", "None"), show="+12"),
                # The example: bid 3, a bomb, a rocket, anti-spring, only farmer
                # A doubled, the landlord redoubled → +96, +24, −120.
                Play(2, text="C bid3 bombs1 rocket lose antispring doubleA redouble", show="+96"),
            ),
            (Play(1, text="A bid1 bombs0 win", show="+2", organiser=True),),
        ),
        "A",
        {"A": "2", "B": "-1", "C": "-1"},
        ("1B", "2A", "2B"),  # the two table winners and the best loser (+24)
    ),
    Case(
        "doudizhu4",
        4,
        ("hands", "4", "每轮打满 4 局"),
        ("end", "never", "可选", "choose one of"),
        ("decline A", "流局要写明两位不叫的座位", "A redeal needs the two seats"),
        ((Play(1, taps=("C", "Win", "Open hand", "Done ✔"), show="+6"),),),
        "C",
        {"C": "6", "A": "-2"},
    ),
    Case(
        "guandan",
        4,
        ("upgrade", "5/3/1", "5/3/1"),
        ("games", "2", "可选", "choose one of"),
        ("A B", "请把出完牌的顺序报到头游的对家", "Give the finishing order up to"),
        ((Play(1, taps=("A", "C", "Done ✔"), show="A C"),),),
        "AC",
        {"A": "2", "B": "0", "C": "2", "D": "0"},  # match points, not the 5 levels
    ),
    Case(
        "shengji",
        4,
        ("points", "3/1/0", "3/1/0"),
        ("climb", "forever", "可选", "choose one of"),
        ("A pts85 kitty20x3", "抠底倍数只能是", "The kitty multiplier is"),
        ((Play(1, taps=("A", "85", "20", "Done ✔", "4", "Done ✔"), show="kitty20x4"),),),
        "BD",  # 85 + 20×4 = 165 for the defenders: they go up two levels and win
        {"A": "0", "B": "3", "C": "0", "D": "3"},  # match points 3/1/0,
    ),
    Case(
        "xiangqi",
        4,
        ("points", "2/1/0", "2/1/0"),
        ("games", "0", "games 至少为 1", "games must be at least 1"),
        ("2-0", "看不懂结果", "I cannot read the result"),
        (
            (
                # Two games then a decider (docs/rules/two-player.md#series): the winner goes on.
                Play(1, text="1-0; 0-1; 1-0", show="+4"),
                # Tapped one game at a time: after game 1 the match goes on.
                Play(2, taps=("0-1",), show="+2"),
                Play(2, taps=("0-1",), show="+4"),
            ),
            (Play(1, text="0.5-0.5; 1-0", show="+3", organiser=True),),
        ),
        "A",
        {"A": "3", "B": "1"},
        ("1A", "2B"),
    ),
    *(
        Case(  # the other two-player games: a match won 2-0, one lost 0-2, a drawn final game
            game,
            4,
            ("points", "2/1/0", "2/1/0"),
            ("games", "0", "games 至少为 1", "games must be at least 1"),
            ("2-0", "看不懂结果", "I cannot read the result"),
            (
                (Play(1, text="1-0; 1-0", show="+4"), Play(2, text="0-1; 0-1", show="+4")),
                (Play(1, text="1-0; 0.5-0.5", show="+3", organiser=True),),
            ),
            "A",
            {"A": "3", "B": "1"},
            ("1A", "2B"),
        )
        for game in ("gomoku", "junqi")
    ),
    Case(  # 跑得快, added with engine/ and locale files only (docs/development.md#game)
        "跑得快",
        3,
        ("shutin", "off", "也只按16张付"),
        ("shutin", "maybe", "可选", "choose one of"),
        ("A0 B0 C5", "两个座位", "only one winner"),
        # with 关门 doubling off (the knob above) C pays 16, not the seed's 32
        ((Play(1, taps=("0", "5", "16"), show="+21"),),),
        "A",
        {"A": "21", "B": "-5", "C": "-16"},
    ),
]


def button_data(message: SentMessage, label: str) -> str:
    """The button whose label is ``label``, or a seat button ``"<label> <name>"``."""
    for button in message.buttons:
        text = button.get("text", "")
        if text == label or text.startswith(label + " "):
            return str(button["callback_data"])
    raise KeyError(f"no button {label!r}: {[b.get('text') for b in message.buttons]}")


async def press(bot: Harness, uid: int, message: SentMessage, label: str) -> SentMessage:
    """Tap a button of a flow message and wait until the bot has edited that message."""
    edits = len(message.edits)
    bot.server.user_presses(GROUP, uid, message.message_id, button_data(message, label))
    return await bot.server.wait_for(
        lambda m: m.message_id == message.message_id and len(m.edits) > edits
    )


async def flow_report(bot: Harness, uid: int, taps: tuple[str, ...]) -> SentMessage:
    """A bare /report, the taps, then Submit; returns the flow message as announced."""
    message = await bot.says(GROUP, uid, "/report", "📝")
    for label in taps:
        message = await press(bot, uid, message, label)
    assert "✅ Submit" in [b["text"] for b in message.buttons], message.body
    return await press(bot, uid, message, "✅ Submit")


async def play(bot: Harness, tables: dict[int, list[int]], p: Play) -> None:
    seats = tables[p.table]
    if p.organiser:
        # Its own line: the live standings' footer says "after every confirmed result" too
        # (a round's pinned standings, held back by the chat's rate, can come in between).
        done = await bot.says(
            GROUP, ADMIN, f"/report {p.table} {p.text}", f"Table {p.table} confirmed"
        )
        assert p.show in done.body
        return
    if p.taps:
        announced = await flow_report(bot, seats[0], p.taps)
        assert "Another player at the table" in announced.body
    else:
        announced = await bot.says(GROUP, seats[0], f"/report {p.table} {p.text}", "Another")
    assert p.show in announced.body, announced.body
    await bot.says(GROUP, seats[1], f"/confirm {p.table}", f"Table {p.table} confirmed")


async def run_case(bot: Harness, case: Case) -> None:
    server = bot.server
    server.add_user(ADMIN, "组织者", language_code="zh")
    names = NAMES[: case.players]
    ids = dict(zip(names, PLAYERS, strict=False))
    for uid, name in zip(PLAYERS, names, strict=False):
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "棋牌群", admins=[ADMIN])

    await bot.says(GROUP, ADMIN, f"/new {case.game} knockout 工会杯", "工会杯")
    knob, value, shown = case.knob
    await bot.says(GROUP, ADMIN, f"/set {knob} {value}", f"已设置 {knob} = {value}")
    bad, bad_value, zh_reason, _ = case.bad_knob
    await bot.says(GROUP, ADMIN, f"/set {bad} {bad_value}", zh_reason)
    rules = await bot.says(GROUP, PLAYERS[0], "/rules", "📋")
    assert shown in rules.body
    for uid in PLAYERS[: case.players]:
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables = tables_of(drawn.body, ids)
    await bot.says(GROUP, ADMIN, f"/set {knob} {value}", "比赛已开始，规则不能再改")
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")

    # The same impossible report, refused with the rule broken, in either language.
    report, zh_why, en_why = case.impossible
    captain = tables[1][0]
    await bot.says(GROUP, captain, f"/report 1 {report}", zh_why)
    await bot.says(GROUP, ADMIN, "/lang en", "English")
    await bot.says(GROUP, captain, f"/report 1 {report}", en_why)
    await bot.says(GROUP, ADMIN, f"/set {bad} {bad_value}", "rules can no longer change")

    first = tables
    for number, plays in enumerate(case.rounds, start=1):
        if number > 1:
            opened = await bot.says(GROUP, ADMIN, "/round", f"Round {number} is open")
            tables = tables_of(opened.body, ids)
            expected = {first[int(f[0])]["ABCD".index(f[1])] for f in case.finalists}
            assert set(tables[1]) == expected
        for p in plays:
            await play(bot, tables, p)
    done = await server.wait_for("is over! Winner:", timeout=20)
    winner = done.body.split("Winner: ", 1)[1].splitlines()[0]
    final = tables[1]
    assert winner in {names[PLAYERS.index(final["ABCD".index(s)])] for s in case.winner_seats}

    picture = await bot.says(GROUP, PLAYERS[0], "/standings", "standings, round")
    assert picture.photo is not None and picture.photo.startswith(b"\x89PNG")
    assert winner in picture.body
    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    last = str(len(case.rounds))
    scores = {r["seat"]: r["score"] for r in rows if r["round"] == last and r["table"] == "1"}
    assert {seat: scores[seat] for seat in case.export} == case.export


# Every case also runs in memory (tests/handlers/test_games.py); over HTTP, one case per
# backend (跑得快 added from engine/ and the catalogues only, on PTB) and one on PostgreSQL.
BY_GAME = {c.game: c for c in CASES}


@pytest.mark.parametrize(
    ("case", "database_url", "backend"),
    [
        pytest.param(BY_GAME["doudizhu"], "sqlite", "aiogram", id="doudizhu-aiogram"),
        pytest.param(BY_GAME["跑得快"], "sqlite", "ptb", id="paodekuai-ptb"),
        pytest.param(BY_GAME["guandan"], "postgres", "aiogram", id="guandan-postgres"),
    ],
    indirect=["database_url"],
)
async def test_game_tournament_runs_from_new_to_winner(bot: Harness, case: Case) -> None:
    await run_case(bot, case)

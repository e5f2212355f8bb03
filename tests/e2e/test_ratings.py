"""Ratings end to end: two Big Two events in one group, rated hand by hand, then /rating,
/me, /season and /export season read the same ratings and places. A rating shows once it
rests on ten hands (the provisional are listed apart, unnumbered), and the changes come
after the 🏁 announcement of the champion."""

from __future__ import annotations

import csv
import io

from engine.model import SEAT_LETTERS
from engine.ratings import PROVISIONAL_HANDS, Encounter, Rating, fold
from playground.botapi import BotAPIServer
from tests.e2e.harness import Harness, tables_of

GROUP = -100900
ADMIN = 1
NAMES = ["张伟", "王芳", "Карл", "マリ"]
PLAYERS = [301, 302, 303, 304]
IDS = dict(zip(NAMES, PLAYERS, strict=True))


def setup_group(server: BotAPIServer) -> None:
    server.add_user(ADMIN, "组织者", language_code="zh")
    for uid, name in zip(PLAYERS, NAMES, strict=True):
        server.add_user(uid, name, language_code="zh")
    server.add_chat(GROUP, "牌友群", admins=[ADMIN])


HANDS = PROVISIONAL_HANDS // 2  # two events make everyone rated


async def play_event(bot: Harness, title: str, order: list[int]) -> None:
    """A four-player Big Two event (one final table) that the organiser reports: five
    hands in which ``order`` (user ids, best first) keep 0, 4, 8 and 12 cards."""
    await bot.says(GROUP, ADMIN, f"/new bigtwo {title}", title)
    for uid in PLAYERS:
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    seats = tables_of(drawn.body, IDS)[1]
    await bot.says(GROUP, ADMIN, "/round", "第 1 轮开始")
    hand = " ".join(f"{SEAT_LETTERS[i]}{4 * order.index(uid)}" for i, uid in enumerate(seats))
    await bot.says(GROUP, ADMIN, f"/report 1 {'; '.join([hand] * HANDS)}", "结果确认")


def shown(*orders: list[int]) -> list[int]:
    """The figures of PLAYERS after one event per order (best first), from the engine."""
    ratings: dict[int, Rating] = {}
    for order in orders:
        hand = Encounter(tuple((p,) for p in order), (1, 2, 3, 4))
        ratings = fold(ratings, [hand] * HANDS)
    return [ratings[p].display for p in PLAYERS]


def announced_before_changes(server: BotAPIServer) -> bool:
    """Whether each rating-change message comes after its event's 🏁 champion
    announcement (one between it and the change message before it)."""
    bodies = [m.body for m in server.outbox(GROUP)]
    changes = [i for i, b in enumerate(bodies) if "等级分变化" in b]
    ends = [i for i, b in enumerate(bodies) if b.startswith("🏁") and "冠军" in b]
    return bool(changes) and all(
        any(since < e < c for e in ends) for since, c in zip([-1, *changes], changes, strict=False)
    )


async def test_two_events_give_ratings_history_and_a_season(bot: Harness) -> None:
    server = bot.server
    setup_group(server)
    await bot.says(GROUP, 302, "/season start 春季赛", "只有组织者")
    await bot.says(GROUP, ADMIN, "/season", "还没有赛季")
    await bot.says(GROUP, ADMIN, "/season start 春季赛 10/7/5/1", "赛季「春季赛」开始")
    await bot.says(GROUP, ADMIN, "/rating", "还没有比赛")

    # Event 1: 张伟 > 王芳 > Карл > マリ in every hand. Five hands: nobody is rated yet.
    await play_event(bot, "一月赛", PLAYERS)
    changes = await server.wait_for("等级分变化", timeout=20)
    assert changes.body.splitlines()[1:] == [
        "定级中（满 10 局后显示等级分）：张伟（5 局）, 王芳（5 局）, Карл（5 局）, マリ（5 局）"
    ]
    assert announced_before_changes(server)

    board = await bot.says(GROUP, 302, "/rating", "锄大地 等级分")
    assert board.photo is None  # nobody to draw a bar for
    assert "定级中（满 10 局后显示等级分）：张伟（5 局）" in board.body
    assert "满 10 局才显示等级分" in board.body
    mine = await bot.says(GROUP, 304, "/me", "战绩")
    assert "锄大地 等级分：定级中（5/10 局）" in mine.body

    # Event 2: the order turns round, マリ first. Ten hands: everyone is rated now.
    await play_event(bot, "二月赛", PLAYERS[::-1])
    changes = await server.wait_for(lambda m: "等级分变化" in m.body and "マリ" in m.body)
    after_two = shown(PLAYERS, PLAYERS[::-1])
    assert changes.body.splitlines()[1] == f"マリ 定级：{after_two[3]}"
    assert announced_before_changes(server)
    assert abs(sum(after_two) - 4 * 1500) <= 2  # what one gains another loses
    board = await bot.says(GROUP, 302, "/rating bigtwo", "锄大地 等级分")
    assert board.photo is not None and board.photo.startswith(b"\x89PNG")
    expected = sorted(zip(after_two, NAMES, strict=True), key=lambda x: -x[0])[0]
    assert board.body.splitlines()[1] == f"1. {expected[1]} {expected[0]} · 10 局"
    assert not any("定级中" in line for line in board.body.splitlines())

    mine = await bot.says(GROUP, 304, "/me", "战绩")
    assert mine.photo is not None
    assert "一月赛（锄大地）：第 4 名 / 4 人" in mine.body
    assert "二月赛（锄大地）：第 1 名 / 4 人" in mine.body
    assert f"锄大地 等级分：{after_two[3]}" in mine.body

    season = await bot.says(GROUP, 302, "/season", "赛季「春季赛」")
    assert season.photo is not None
    rows = season.body.splitlines()[2:]
    # 张伟 and マリ: 10 + 1 = 11 each; 王芳 and Карл: 7 + 5 = 12 each.
    assert {r.split(" ")[1]: r.split(" ")[2] for r in rows} == {
        "张伟": "11",
        "王芳": "12",
        "Карл": "12",
        "マリ": "11",
    }

    exported = await bot.says(GROUP, ADMIN, "/export season", "CSV")
    assert exported.document is not None
    table = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    assert list(table[0]) == [
        "event",
        "date",
        "user_id",
        "player",
        "place",
        "points",
        "rating_before",
        "rating_after",
    ]
    mari = [r for r in table if r["player"] == "マリ"]
    assert [(r["event"], r["place"], r["points"]) for r in mari] == [
        ("一月赛", "4", "1"),
        ("二月赛", "1", "10"),
    ]
    assert mari[1]["rating_after"] == str(after_two[3])
    assert mari[0]["rating_after"] == mari[1]["rating_before"] == ""  # provisional: no figure

    # Seeding by rating: a Swiss event deals the two strongest to different tables.
    newcomers = {f"新人{i}": 310 + i for i in range(4)}
    for name, uid in newcomers.items():
        server.add_user(uid, name, language_code="zh")
    await bot.says(GROUP, ADMIN, "/new bigtwo swiss 三月赛", "三月赛")
    await bot.says(GROUP, ADMIN, "/set seeds rating", "seeds")
    for uid in [*PLAYERS, *newcomers.values()]:
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "第 1 轮抽签")
    tables = tables_of(drawn.body, IDS | newcomers)
    # Strongest first (ties by user id, as the leaderboard); snake: 1 and 4 | 2 and 3.
    order = [uid for _, uid in sorted(zip((-r for r in after_two), PLAYERS, strict=True))]
    rated = [{u for u in seats if u in PLAYERS} for _, seats in sorted(tables.items())]
    assert rated == [{order[0], order[3]}, {order[1], order[2]}]

"""A substitute (/sub) fills a place whose player dropped out; the place's line is the
substitute's from the round they came in and stays the replaced player's for what came
before: /me tells each their part, the ratings count the hands each played, and the
season and the rating changes place them both (docs/rules/people.md#sub)."""

from __future__ import annotations

from tests.handlers.memory import Chats
from tests.handlers.test_people import ADMIN, GROUP, NAME, P, seat_tables, tables
from tests.handlers.test_walkovers import PAIRS, round_one

NAMES = {i: NAME[P[i]] for i in P}


async def report_for(chats: Chats, opened: str, name: str) -> str:
    """Every table of the round reported with ``name``'s pair first and second (the
    others' tables: A and C); what the last report answered."""
    said = ""
    for number, seats in seat_tables(opened).items():
        mine = next((s for s, n in seats.items() if n == name), "A")
        partner = "ABCD"[("ABCD".index(mine) + 2) % 4]
        said = await chats.says(GROUP, ADMIN, f"/report {number} {mine} {partner}")
    return said


async def pairs_after_round_one(chats: Chats) -> dict[str, str]:
    """A 掼蛋 pairs knockout of eight (a final of two pairs, one round) inside a season:
    round 1 played, 选手01's pair through, 选手09 standing by. The seats of the other
    table (its A and C went through)."""
    _, opened = await round_one(chats, "/season start 春季", PAIRS, 8, count=9)
    assert "第 1 轮结束" in await report_for(chats, opened, NAMES[1])
    assert "候补第 1 位" in await chats.says(GROUP, P[9], "/join")
    return next(seats for seats in seat_tables(opened).values() if NAMES[1] not in seats.values())


async def test_a_dropped_players_place_takes_a_substitute_who_carries_it_to_the_title(
    chats: Chats,
) -> None:
    await pairs_after_round_one(chats)
    out, sub = NAMES[1], NAMES[9]
    dropped = await chats.says(GROUP, P[1], "/drop")
    assert f"{out} 之后被抽到的对手都不战而胜。" in dropped
    assert f"两轮之间，组织者可用 /sub 让替补顶替 {out} 的位置。" in dropped
    assert f"从第 2 轮起，{sub} 替换 {out} 上场" in await chats.says(
        GROUP, ADMIN, f"/sub {out} {sub}"
    )
    # /undo takes the substitution back: the place is the dropped player's again.
    assert "撤销：上一次替补换人" in await chats.says(GROUP, ADMIN, "/undo")
    assert f"{out} · 第1轮后退出" in await chats.says(GROUP, ADMIN, "/players")
    await chats.says(GROUP, ADMIN, f"/sub {out} {sub}")
    final = await chats.says(GROUP, ADMIN, "/round")
    seated = [n for seats in seat_tables(final).values() for n in seats.values()]
    assert sub in seated and out not in seated and "不战而胜" not in final
    await report_for(chats, final, sub)
    ended = chats.transport.messages.values()
    over = next(m.text for m in ended if "结束！冠军" in m.text)
    assert f"{out}→{sub}" in over.split("冠军：", 1)[1].splitlines()[0]
    changes = next(m.text for m in ended if "等级分变化" in m.text)
    assert f"{sub}（1 局）" in changes and f"{out}（1 局）" in changes  # each their own hand
    assert "第 1 名 / 8 人（第 2 轮起替补 选手01）" in await chats.says(GROUP, P[9], "/me")
    assert "第 1 名 / 8 人（第 1 轮后由 选手09 替补）" in await chats.says(GROUP, P[1], "/me")
    season = await chats.says(GROUP, ADMIN, "/season")
    for name in (out, sub):
        assert f"{name} 10 分 · 1 场 · 最好第 1 名" in season


async def test_a_substitute_is_refused_for_a_disqualified_player_and_a_pair_already_out(
    chats: Chats,
) -> None:
    other = await pairs_after_round_one(chats)
    partner, loser = other["A"], other["B"]
    refused = await chats.says(GROUP, ADMIN, f"/sub {loser} {NAMES[9]}")
    assert f"{loser} 所在的一方已经出局，没有位置可以替补。" in refused
    # (a winner disqualified after the round loses it: the loser's pair is through now)
    await chats.says(GROUP, ADMIN, f"/dq {partner}")
    refused = await chats.says(GROUP, ADMIN, f"/sub {partner} {NAMES[9]}")
    assert f"{partner} 已被取消比赛资格：取消资格是处罚，不能由替补顶替" in refused
    assert "替换" not in await chats.says(GROUP, ADMIN, "/players")


async def test_in_a_team_event_a_member_who_drops_mid_round_is_replaced_from_the_next(
    chats: Chats,
) -> None:
    knobs = ["/set size 2", "/set rounds 2", "/set series bo1"]
    drawn, _ = await round_one(chats, "/new xiangqi teams 象棋团体赛", knobs, 4, count=5)
    (a, b), _ = tables(drawn)
    await chats.says(GROUP, ADMIN, "/report 2 1-0")
    dropped = await chats.says(GROUP, ADMIN, f"/drop {a} yes")
    assert f"第 1 桌记 {a} 弃权，{b} 不战而胜。" in dropped and "第 1 轮结束" in dropped
    assert f"两轮之间，组织者可用 /sub 让替补顶替 {a} 的位置。" in dropped
    await chats.says(GROUP, P[5], "/join")
    assert f"{NAMES[5]} 替换 {a} 上场" in await chats.says(GROUP, ADMIN, f"/sub {a} {NAMES[5]}")
    second = await chats.says(GROUP, ADMIN, "/round")
    seated = [n for seats in tables(second) for n in seats]
    assert NAMES[5] in seated and a not in seated
    ranking = await chats.says(GROUP, P[2], "/standings all")
    assert f"{a}→{NAMES[5]}" in ranking and "退出" not in ranking
    assert "（第 2 轮起替补" in await chats.says(GROUP, P[5], "/me")
    assert "（第 1 轮后由" in await chats.says(
        GROUP, next(u for u, n in NAME.items() if n == a), "/me"
    )


async def test_the_same_in_english(chats: Chats) -> None:
    chats.user(ADMIN, "Org", lang="en")
    chats.admins(GROUP, ADMIN)
    for i in range(1, 10):
        chats.user(P[i], f"P{i}", lang="en")
    _, opened = await round_one(chats, "/new guandan pairs Cup", ["/lang en", *PAIRS[1:]], 8)
    one, two = (
        dict(seat.split(" ", 1) for seat in line.split(": ", 1)[1].split(" · "))
        for line in opened.splitlines()
        if line.startswith("Table ")
    )
    dropped = await chats.says(GROUP, ADMIN, f"/drop {two['A']} yes")
    assert (
        f"Table 2: a forfeit by {two['A']}, so the pair {two['A']}, {two['C']} loses the "
        f"table: a walkover win for {two['B']}, {two['D']}."
    ) in dropped
    assert "Round 1" in await chats.says(GROUP, ADMIN, "/report 1 A C")
    await chats.says(GROUP, P[9], "/join")
    refused = await chats.says(GROUP, ADMIN, f"/sub {two['C']} P9")
    assert f"{two['C']}'s side is out already: there is no place to fill." in refused
    dropped = await chats.says(GROUP, ADMIN, f"/drop {one['C']}")
    assert f"Whoever {one['C']} is drawn against from now on wins by walkover." in dropped
    assert f"bring a substitute into {one['C']}'s place with /sub" in dropped
    await chats.says(GROUP, ADMIN, f"/sub {one['C']} P9")
    assert f"(substitute for {one['C']} from round 2)" in await chats.says(GROUP, P[9], "/me")
    await chats.says(GROUP, ADMIN, f"/dq {two['B']}")
    refused = await chats.says(GROUP, ADMIN, f"/sub {two['B']} P9")
    assert f"{two['B']} was disqualified: a disqualification is a sanction" in refused

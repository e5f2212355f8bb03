"""Every game's small tournament (tests/e2e/test_games.py's cases), driven in memory.

The same steps and assertions as the end-to-end test, through ``Core`` without HTTP: a
knob set and a bad one refused, /rules, sign-ups, the draw, an impossible report refused
in Chinese and then English, reports typed and tapped, the winner, /standings and
/export. The end-to-end file keeps one case per backend (and one on PostgreSQL).
"""

from __future__ import annotations

import csv
import io

import pytest

from tests.e2e.harness import tables_of
from tests.e2e.test_games import ADMIN, CASES, GROUP, NAMES, PLAYERS, Case, Play
from tests.handlers.memory import Chats, Sent


async def flow_report(chats: Chats, uid: int, taps: tuple[str, ...]) -> str:
    """A bare /report, the taps, then Submit; returns the flow message as announced."""
    message = next(m for m in await chats.sent_after(GROUP, uid, "/report") if "📝" in m.text)
    for label in taps:
        await chats.presses(GROUP, uid, message, label)
    assert "✅ Submit" in [label for row in message.buttons or [] for label, _ in row]
    await chats.presses(GROUP, uid, message, "✅ Submit")
    return message.text


async def play(chats: Chats, tables: dict[int, list[int]], p: Play) -> None:
    seats = tables[p.table]
    if p.organiser:
        done = await chats.says(GROUP, ADMIN, f"/report {p.table} {p.text}")
        assert "confirmed" in done and p.show in done, done
        return
    if p.taps:
        announced = await flow_report(chats, seats[0], p.taps)
        assert "Another player at the table" in announced
    else:
        announced = await chats.says(GROUP, seats[0], f"/report {p.table} {p.text}")
    assert p.show in announced, announced
    confirmed = await chats.says(GROUP, seats[1], f"/confirm {p.table}")
    assert f"Table {p.table} confirmed" in confirmed


async def run_case(chats: Chats, case: Case) -> None:
    chats.user(ADMIN, "组织者")
    names = NAMES[: case.players]
    ids = dict(zip(names, PLAYERS, strict=False))
    for uid, name in zip(PLAYERS, names, strict=False):
        chats.user(uid, name)
    chats.admins(GROUP, ADMIN)
    say = chats.says

    assert "工会杯" in await say(GROUP, ADMIN, f"/new {case.game} knockout 工会杯")
    knob, value, shown = case.knob
    assert f"已设置 {knob} = {value}" in await say(GROUP, ADMIN, f"/set {knob} {value}")
    bad, bad_value, zh_reason, _ = case.bad_knob
    assert zh_reason in await say(GROUP, ADMIN, f"/set {bad} {bad_value}")
    assert shown in await say(GROUP, PLAYERS[0], "/rules")
    for uid in PLAYERS[: case.players]:
        assert "报名成功" in await say(GROUP, uid, "/join")
    drawn = await say(GROUP, ADMIN, "/draw")
    tables = tables_of(drawn, ids)
    assert "比赛已开始，规则不能再改" in await say(GROUP, ADMIN, f"/set {knob} {value}")
    assert "第 1 轮开始" in await say(GROUP, ADMIN, "/round")

    report, zh_why, en_why = case.impossible
    captain = tables[1][0]
    assert zh_why in await say(GROUP, captain, f"/report 1 {report}")
    assert "English" in await say(GROUP, ADMIN, "/lang en")
    assert en_why in await say(GROUP, captain, f"/report 1 {report}")
    assert "rules can no longer change" in await say(GROUP, ADMIN, f"/set {bad} {bad_value}")

    first, last = tables, ""
    for number, plays in enumerate(case.rounds, start=1):
        if number > 1:
            opened = await say(GROUP, ADMIN, "/round")
            assert f"Round {number} is open" in opened
            tables = tables_of(opened, ids)
            expected = {first[int(f[0])]["ABCD".index(f[1])] for f in case.finalists}
            assert set(tables[1]) == expected
        for p in plays:
            await play(chats, tables, p)
    last = next(m.text for m in reversed(chats.transport.messages.values()) if "Winner" in m.text)
    winner = last.split("Winner: ", 1)[1].splitlines()[0]
    final = tables[1]
    assert winner in {names[PLAYERS.index(final["ABCD".index(s)])] for s in case.winner_seats}

    picture: Sent = (await chats.sent_after(GROUP, PLAYERS[0], "/standings"))[0]
    assert picture.kind == "photo" and (picture.file or b"").startswith(b"\x89PNG")
    assert winner in picture.text
    exported = (await chats.sent_after(GROUP, ADMIN, "/export"))[0]
    assert exported.kind == "document" and exported.file is not None
    rows = list(csv.DictReader(io.StringIO(exported.file.decode("utf-8"))))
    round_no = str(len(case.rounds))
    scores = {r["seat"]: r["score"] for r in rows if r["round"] == round_no and r["table"] == "1"}
    assert {seat: scores[seat] for seat in case.export} == case.export


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
async def test_game_tournament_runs_from_new_to_winner(chats: Chats, case: Case) -> None:
    await run_case(chats, case)

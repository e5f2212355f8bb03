"""The command menu in both languages, and one tournament per forum topic."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness

FORUM = -100600
ADMIN = 1


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_command_menu_is_published_in_each_language(bot: Harness) -> None:
    menus = bot.server.my_commands
    assert set(menus) == {("default", ""), ("default", "zh"), ("default", "en")}
    zh = {c["command"]: c["description"] for c in menus[("default", "zh")]}
    en = {c["command"]: c["description"] for c in menus[("default", "en")]}
    assert zh["join"] == "报名" and en["join"] == "sign up"
    assert menus[("default", "")] == menus[("default", "zh")]  # DEFAULT_LANG is zh


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_each_forum_topic_runs_its_own_tournament_and_replies_stay_in_it(
    bot: Harness,
) -> None:
    server = bot.server
    server.add_user(ADMIN, "Org", language_code="en")
    server.add_user(11, "Ann", language_code="en")
    server.add_user(12, "Bob", language_code="en")
    server.add_chat(FORUM, "club", admins=[ADMIN], is_forum=True)

    server.user_says(FORUM, ADMIN, "/new bigtwo Topic Five", thread_id=5)
    five = await server.wait_for("Topic Five")
    server.user_says(FORUM, ADMIN, "/new xiangqi Topic Nine", thread_id=9)
    nine = await server.wait_for("Topic Nine")
    assert (five.thread_id, nine.thread_id) == (5, 9)  # two events, one per topic

    ann = server.user_says(FORUM, 11, "/join", thread_id=5)
    bob = server.user_says(FORUM, 12, "/join", thread_id=9)
    await bot.reacted(FORUM, ann["message_id"])
    await bot.reacted(FORUM, bob["message_id"])
    await server.wait_idle()
    # Each topic's own sign-up message was edited to count its own player.
    assert "1 signed up" in five.body and "1 signed up" in nine.body
    server.user_says(FORUM, 11, "/players", thread_id=5)
    listing = await server.wait_for("Topic Five · 1 player:")
    assert listing.thread_id == 5 and "Ann" in listing.body and "Bob" not in listing.body

    server.user_says(FORUM, 12, "/players")  # General has none: it names the topics' events
    general = await server.wait_for("No event runs in this topic")
    assert general.thread_id is None
    assert "“Topic Five” — Big Two, signing up: https://t.me/c/600/5" in general.body
    assert (
        "“Topic Nine” — Xiangqi (Chinese chess), signing up: https://t.me/c/600/9" in general.body
    )

"""A forum group runs one event per topic (seed 004 runs five contests at once): what
General, a topic without an event, /help and a second /new say names the events of the
other topics, with links into them."""

from __future__ import annotations

from tests.handlers.harness import MemoryHarness

FORUM = -100600
GROUP = -600
ADMIN = 1
CHESS, GOMOKU = 5, 9  # the topics' thread ids
CHESS_LINK, GOMOKU_LINK = "https://t.me/c/600/5", "https://t.me/c/600/9"


def forum(bot: MemoryHarness) -> None:
    bot.server.add_user(ADMIN, "组织者", language_code="zh")
    for uid, name in ((11, "甲"), (12, "乙")):
        bot.server.add_user(uid, name, language_code="zh")
    bot.server.add_chat(FORUM, "职工之家", admins=[ADMIN], is_forum=True)


async def says(
    bot: MemoryHarness, uid: int, text: str, expect: str, thread: int | None = None
) -> str:
    bot.server.user_says(FORUM, uid, text, thread_id=thread)
    return (await bot.server.wait_for(expect)).body


async def test_general_and_help_name_the_events_of_the_topics_with_links(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    forum(bot)
    await says(bot, ADMIN, "/new xiangqi 象棋赛", "SHA-256", CHESS)
    await says(bot, ADMIN, "/new gomoku 五子棋赛", "SHA-256", GOMOKU)

    refused = await says(bot, 11, "/players", "这个话题没有进行中的比赛")
    assert f"「象棋赛」（中国象棋，报名中）：{CHESS_LINK}" in refused
    assert f"「五子棋赛」（五子棋，报名中）：{GOMOKU_LINK}" in refused
    assert "本群目前没有进行中的比赛" not in refused

    shown = await says(bot, 11, "/help", "可用命令")
    assert "每个话题可以各办一场比赛" in shown
    assert CHESS_LINK in shown and GOMOKU_LINK in shown
    in_topic = await says(bot, 11, "/help", "可用命令", CHESS)
    assert "「象棋赛」（中国象棋，报名中）：就在这个话题" in in_topic and GOMOKU_LINK in in_topic


async def test_a_second_new_in_a_topic_or_general_says_each_topic_holds_its_own(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    forum(bot)
    await says(bot, ADMIN, "/new xiangqi 象棋赛", "SHA-256", CHESS)
    again = await says(bot, ADMIN, "/new gomoku 五子棋赛", "已有一场进行中的比赛", CHESS)
    assert "每个话题可以各办一场比赛：新建一个话题，在里面发 /new" in again
    assert "「象棋赛」" in again
    await says(bot, ADMIN, "/new bigtwo 锄大地", "SHA-256")  # General holds one too
    again = await says(bot, ADMIN, "/new doudizhu 斗地主", "已有一场进行中的比赛")
    assert "每个话题可以各办一场比赛" in again and CHESS_LINK in again


async def test_general_with_a_cancelled_event_points_at_the_topics_running_now(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    forum(bot)
    await says(bot, ADMIN, "/new bigtwo 旧比赛", "SHA-256")
    await says(bot, ADMIN, "/cancel yes", "已取消")
    await says(bot, ADMIN, "/new xiangqi 象棋赛", "SHA-256", CHESS)
    refused = await says(bot, 11, "/standings", "上一场比赛「旧比赛」已取消")
    assert CHESS_LINK in refused
    refused = await says(bot, ADMIN, "/fix 1 1-0", "上一场比赛「旧比赛」已取消")
    assert CHESS_LINK in refused


async def test_not_signed_up_names_the_event(memory_bot: MemoryHarness) -> None:
    bot = memory_bot
    forum(bot)
    await says(bot, ADMIN, "/new xiangqi 象棋赛", "SHA-256", CHESS)
    assert "你还没有报名「象棋赛」" in await says(bot, 12, "/leave", "报名", CHESS)


async def test_a_second_new_outside_a_forum_says_topics_would_hold_several(
    memory_bot: MemoryHarness,
) -> None:
    bot = memory_bot
    bot.server.seat_group(GROUP, ADMIN, [], 11)
    await bot.says(GROUP, ADMIN, "/new xiangqi 象棋赛", "SHA-256")
    again = await bot.says(GROUP, ADMIN, "/new gomoku 五子棋赛", "已有一个进行中的比赛")
    assert "「象棋赛」" in again.body and "/cancel" in again.body
    assert "开启话题，每个话题各办一场" in again.body
    shown = await bot.says(GROUP, ADMIN, "/help", "可用命令")
    assert "话题" not in shown.body  # a group without topics is not told of them


async def test_a_button_of_an_old_event_in_general_names_the_topics_in_the_chat(
    memory_bot: MemoryHarness,
) -> None:
    """Join on a cancelled event's sign-up message in General: the refusal names the
    topics' events, too long for a toast (Telegram shows 200 characters), so it is said
    in the chat and the press answered without words."""
    bot = memory_bot
    forum(bot)
    bot.server.user_says(FORUM, ADMIN, "/new bigtwo 旧比赛")
    signup = await bot.server.wait_for("SHA-256")
    await says(bot, ADMIN, "/cancel yes", "已取消")
    for topic in (CHESS, GOMOKU, 11, 12):
        await says(bot, ADMIN, f"/new xiangqi 第{topic}话题的象棋赛", "SHA-256", topic)
    pressed = bot.server.user_presses(
        FORUM, 11, signup.message_id, signup.buttons[0]["callback_data"]
    )
    answer = await bot.server.wait_for_callback_answer(pressed)
    said = await bot.server.wait_for("这个话题没有进行中的比赛")
    assert len(said.body) > 200 and CHESS_LINK in said.body
    assert answer.text is None

"""A mistyped command gets "没有 /reprot，是不是 /report？"; anything else unknown, and
every command for another bot, still gets no answer."""

from __future__ import annotations

from bot.application.handlers.typos import closest, edit_distance
from bot.application.routes import COMMANDS
from tests.handlers.memory import CATALOGUE, Chats

GROUP, ADMIN, PLAYER = -1001, 1, 201
ZH = CATALOGUE["zh"]


async def test_a_typo_close_to_a_command_gets_a_hint_and_nothing_else_does(
    chats: Chats,
) -> None:
    chats.user(ADMIN, "组织者")
    chats.user(PLAYER, "张伟")
    chats.admins(GROUP, ADMIN)
    assert (
        await chats.says(GROUP, PLAYER, "/reprot 1 A5 B8 C0 D12")
        == "没有 /reprot，是不是 /report？"
    )
    assert await chats.says(GROUP, PLAYER, "/standing") == "没有 /standing，是不是 /standings？"
    assert await chats.says(GROUP, PLAYER, "/Jion@tourbot_bot") == "没有 /jion，是不是 /join？"
    hint = await chats.sent_after(GROUP, PLAYER, "/standigs")
    assert [m.text for m in hint] == ["没有 /standigs，是不是 /standings？"]  # one short line

    assert await chats.says(GROUP, PLAYER, "/reprot@otherbot") == ""  # another bot's
    assert await chats.says(GROUP, PLAYER, "/weather 北京") == ""  # close to nothing
    assert await chats.says(GROUP, PLAYER, "/strat") == ""  # /start is not in /help
    assert await chats.says(GROUP, PLAYER, "/x") == ""  # two edits from /me, but all of it

    # The command itself is still answered as it was (here: no event in this chat).
    assert await chats.says(GROUP, PLAYER, "/report") == ZH("refuse.no-tournament")
    await chats.says(GROUP, ADMIN, "/lang en")
    assert (
        await chats.says(GROUP, PLAYER, "/reprot") == "There is no /reprot — did you mean /report?"
    )


def test_the_closest_listed_command_within_two_edits() -> None:
    assert edit_distance("reprot", "report") == 2
    assert edit_distance("", "me") == 2 and edit_distance("dq", "dq") == 0
    assert closest("confrim", COMMANDS) == "confirm"
    assert closest("rond", COMMANDS) == "round"
    assert closest("exprot", COMMANDS) == "export"
    assert closest("leaderboard", COMMANDS) is None
    assert closest("strat", COMMANDS) is None  # unlisted and off the menu

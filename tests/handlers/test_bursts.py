"""Updates that reach the bot together are handled together: a chat's burst
runs in one transaction, and ends as the same updates one by one would. A refusal in
the middle is stored alone and the rest still take effect; a burst delivered again
after a crash changes nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from bot.application.types import Incoming
from tests.handlers.memory import Chats

GROUP, ADMIN = -5001, 1
PLAYERS = tuple(range(701, 709))


async def sign_up_open(chats: Chats) -> None:
    """A Big Two event in English, open for sign-up; eight players to come."""
    chats.user(ADMIN, "Org", lang="en")
    chats.admins(GROUP, ADMIN)
    for uid in PLAYERS:
        chats.user(uid, f"P{uid}", lang="en")
    await chats.says(GROUP, ADMIN, "/new bigtwo Cup")


async def test_a_burst_of_sign_ups_is_one_transaction_with_every_reply(chats: Chats) -> None:
    await sign_up_open(chats)
    signup = chats.last(GROUP)

    joins_per_commit: list[int] = [0]

    def note(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        joins_per_commit[-1] += statement.startswith("INSERT INTO players")

    engine = chats.engine.sync_engine
    event.listen(engine, "before_cursor_execute", note)
    event.listen(engine, "commit", lambda conn: joins_per_commit.append(0))
    sent = await chats.burst(GROUP, [(uid, "/join") for uid in PLAYERS])
    assert len(PLAYERS) in joins_per_commit, "the burst was not one transaction"

    assert sent == [signup] and "8 signed up so far" in signup.text
    assert len(chats.transport.reactions) == len(PLAYERS)  # a 👍 on every /join
    assert all(r == ["👍"] for r in chats.transport.reactions.values())


async def test_a_refusal_in_a_burst_is_stored_alone_and_the_rest_take_effect(
    chats: Chats,
) -> None:
    await sign_up_open(chats)
    first, rest = PLAYERS[:4], PLAYERS[4:]

    sent = await chats.burst(
        GROUP,
        [
            *((uid, "/join") for uid in first),
            (first[0], "/draw"),  # not an organiser: refused, and nothing of it stored
            *((uid, "/join") for uid in rest),
            (first[0], "/players"),
        ],
    )
    texts = [m.text for m in sent]
    refusals = [t for t in texts if t.startswith("Only organisers")]
    assert len(refusals) == 1
    listing = next(t for t in texts if "P701" in t and "P708" in t)
    assert all(f"P{uid}" in listing for uid in PLAYERS)
    assert "Lots" not in "\n".join(texts)  # no draw happened
    assert len(chats.transport.reactions) == len(PLAYERS)


async def test_a_burst_delivered_again_changes_nothing(chats: Chats) -> None:
    await sign_up_open(chats)
    incs = [
        Incoming(9000 + uid, GROUP, "supergroup", chats.users[uid], text="/join") for uid in PLAYERS
    ]
    await chats.core.handle_many(incs[:5])  # committed, then the process died
    await chats.deliver()
    statements: list[Any] = []
    event.listen(
        chats.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2])
    )
    await chats.core.handle_many(incs)  # polling hands over all eight again
    await chats.deliver()
    joined = [s for s in statements if s.startswith("INSERT INTO players")]
    assert len(joined) == 3  # only the three not committed before
    assert "8 signed up so far" in chats.last(GROUP).text

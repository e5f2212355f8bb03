"""What the database keeps of what was said (docs/operations.md#retention): a picture
Telegram has taken is kept as its file id and sent again by it, never as bytes; sent
messages and handled update ids go after ``RETENTION_DAYS``, and the messages edited
long after (the live standings, the sign-up count) are still edited in place."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from bot.transport.scheduler import Timers
from db.models import AuditEntry, OutboxMessage, ProcessedUpdate, Tournament
from tests.handlers.memory import Chats, Sent

GROUP, ADMIN = -4101, 1
PLAYERS = tuple(range(701, 709))  # two tables of Big Two


def photos(chats: Chats) -> list[Sent]:
    return [m for m in chats.transport.messages.values() if m.kind == "photo"]


async def stored_bytes(chats: Chats) -> int:
    """Outbox rows still holding a picture's or a file's bytes."""
    async with chats.sessionmaker() as session:
        found = await session.scalar(select(func.count()).where(OutboxMessage.file.is_not(None)))
    return int(found or 0)


async def test_a_picture_is_uploaded_once_and_then_sent_by_its_file_id(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, "/round")
    before = len(photos(chats))
    uploads = chats.transport.uploads

    await chats.says(GROUP, PLAYERS[0], "/standings")
    await chats.says(GROUP, PLAYERS[1], "/standings")  # the same picture, from the cache

    first, second = photos(chats)[before:]
    assert first.file and second.file == first.file  # the chat shows the same picture twice
    assert chats.transport.uploads == uploads + 1  # uploaded once
    assert await stored_bytes(chats) == 0  # every picture delivered: no bytes kept
    async with chats.sessionmaker() as session:
        kept = list(
            await session.scalars(
                select(OutboxMessage.file_id).where(OutboxMessage.kind == "photo")
            )
        )
    assert kept and all(kept)


async def age(chats: Chats, days: int) -> None:
    """Make everything the bot has stored so far ``days`` old (on its clock)."""
    old = chats.now - timedelta(days=days)
    async with chats.sessionmaker() as session, session.begin():
        await session.execute(update(OutboxMessage).values(created_at=old))
        await session.execute(update(ProcessedUpdate).values(at=old))


async def counts(chats: Chats) -> tuple[int, int, int]:
    """Outbox rows, update ids, audit entries."""
    async with chats.sessionmaker() as session:
        return (
            int(await session.scalar(select(func.count()).select_from(OutboxMessage)) or 0),
            int(await session.scalar(select(func.count()).select_from(ProcessedUpdate)) or 0),
            int(await session.scalar(select(func.count()).select_from(AuditEntry)) or 0),
        )


def live_message(chats: Chats) -> Sent:
    return next(m for m in chats.transport.messages.values() if m.text.startswith("📌"))


async def first_table_reported(chats: Chats) -> Sent:
    """An event drawn and its first table reported: the live standings it posted."""
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, "/round")
    await chats.says(GROUP, ADMIN, "/report 1 total A+9 B-3 C-3 D-3")
    return live_message(chats)


async def test_old_rows_are_pruned_and_the_live_standings_are_still_edited_in_place(
    chats: Chats,
) -> None:
    live = await first_table_reported(chats)
    edits, messages = live.edits, len(chats.transport.messages)
    await age(chats, days=15)
    await chats.says(GROUP, PLAYERS[0], "/players")  # newer than the window
    outbox, updates, audit = await counts(chats)

    pruned = await Timers(chats.core).prune()

    assert pruned is not None and pruned.outbox > 0 and pruned.updates > 0
    assert await counts(chats) == (outbox - pruned.outbox, updates - pruned.updates, audit)
    async with chats.sessionmaker() as session:
        left = list(await session.scalars(select(OutboxMessage.text)))
        live_id = await session.scalar(select(Tournament.live_message_id))
    assert len(left) == 1 and "P701" in left[0]  # the /players answer, newer, stays
    assert live_id == live.message_id  # kept on its tournament before its row went

    await chats.says(GROUP, ADMIN, "/report 2 total A+7 B+1 C-4 D-4")

    assert live.edits > edits  # edited in place, not posted again
    assert "P705" in live.text
    assert not [m for m in list(chats.transport.messages.values())[messages:] if "📌" in m.text]


async def test_live_standings_deleted_after_their_row_was_pruned_are_posted_and_pinned_again(
    chats: Chats,
) -> None:
    live = await first_table_reported(chats)
    assert (GROUP, live.message_id) in chats.transport.pinned
    await age(chats, days=15)
    await Timers(chats.core).prune()
    del chats.transport.messages[live.message_id]  # an admin deletes the pinned message

    await chats.says(GROUP, ADMIN, "/report 2 total A+7 B+1 C-4 D-4")

    again = live_message(chats)
    assert again.message_id != live.message_id and "P705" in again.text
    assert (GROUP, again.message_id) in chats.transport.pinned  # pinned as the first one was


async def test_the_sign_up_count_is_still_edited_after_its_message_was_pruned(
    chats: Chats,
) -> None:
    chats.user(ADMIN, "Org", lang="en")
    for uid in PLAYERS:
        chats.user(uid, f"P{uid}", lang="en")
    chats.admins(GROUP, ADMIN)
    await chats.says(GROUP, ADMIN, "/new bigtwo Cup")
    signup = chats.last(GROUP)
    await chats.says(GROUP, PLAYERS[0], "/join")
    await age(chats, days=15)
    await Timers(chats.core).prune()
    messages = len(chats.transport.messages)

    await chats.says(GROUP, PLAYERS[1], "/join")

    assert "2 signed up" in signup.text and signup.edits >= 2
    assert len(chats.transport.messages) == messages  # no sign-up message posted again


async def test_rows_within_the_window_stay(chats: Chats) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await age(chats, days=13)
    before = await counts(chats)

    pruned = await Timers(chats.core).prune()

    assert pruned is not None and not any(pruned)
    assert await counts(chats) == before

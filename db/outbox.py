"""The outbox as its senders see it: plain rows read and marked on a connection.

A sender never changes a row in place and never needs one as an object: it reads what
is waiting, sends it, and marks it by id. So these statements run on a bare connection
(no session, no unit of work, no identity map). Each pass of a busy sender runs several
of them, and building and tracking ORM objects for them cost more than the statements
(measured in memory: a sign-up's 👍 and count edit took 2.7 ms to deliver through
sessions, most of it the ORM's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import ColumnElement, Row, Select, Table, and_, bindparam, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import OutboxMessage
from db.status import OutboxStatus

QUEUED_BATCH = 500  # outbox rows a sender looks at in one pass
QUEUED_PER_LANE = 50  # of one chat's replies, and of its broadcasts, in one pass

OUTBOX = cast(Table, OutboxMessage.__table__)
_ROW = OUTBOX.c.id == bindparam("row_id")
_WAITING = OUTBOX.c.status.in_((OutboxStatus.QUEUED, OutboxStatus.SENDING))
_FREE = or_(  # queued, or claimed by a sender whose lease ran out
    OUTBOX.c.status == OutboxStatus.QUEUED,
    and_(OUTBOX.c.status == OutboxStatus.SENDING, OUTBOX.c.lease_until < bindparam("now")),
)
CLAIM = (
    update(OUTBOX)
    .where(_ROW, _FREE)
    .values(status=OutboxStatus.SENDING, lease_until=bindparam("until"))
)
MARK = (
    update(OUTBOX)
    .where(_ROW)
    .values(status=bindparam("new_status"), message_id=bindparam("sent_id"), lease_until=None)
)
MARK_QUEUED = (
    update(OUTBOX)
    .where(OUTBOX.c.id.in_(bindparam("row_ids", expanding=True)))
    .where(OUTBOX.c.status == OutboxStatus.QUEUED)
    .values(status=bindparam("new_status"), lease_until=None)
)
TAGGED = (
    select(OUTBOX.c.status, OUTBOX.c.message_id)
    .where(OUTBOX.c.chat_id == bindparam("chat_id"), OUTBOX.c.tag == bindparam("tag"))
    .order_by(OUTBOX.c.id.desc())
)


def _queued(where: ColumnElement[bool] | None) -> Select[Any]:
    """Waiting rows, at most :data:`QUEUED_PER_LANE` of each chat's lane, oldest first."""
    place = (
        select(
            OUTBOX.c.id,
            func.row_number()
            .over(partition_by=(OUTBOX.c.chat_id, OUTBOX.c.broadcast), order_by=OUTBOX.c.id)
            .label("place"),
        )
        .where(_WAITING if where is None else _WAITING & where)
        .subquery()
    )
    return (
        select(OUTBOX)
        .join(place, place.c.id == OUTBOX.c.id)
        .where(place.c.place <= QUEUED_PER_LANE)
        .order_by(OUTBOX.c.id)
        .limit(QUEUED_BATCH)
    )


QUEUED = _queued(None)


async def queued(
    conn: AsyncConnection, where: ColumnElement[bool] | None = None
) -> Sequence[Row[Any]]:
    """Rows waiting to be sent, and rows a sender claimed and still holds (their chat
    waits for them, so order is kept; ``Sender`` sends one whose lease ran out).

    At most :data:`QUEUED_PER_LANE` of each chat's replies and of its broadcasts, so a
    chat with a long queue waiting out its rate limit never hides the next chat's rows
    from the sender. ``where`` narrows it (a scale-out worker's part of the chats)."""
    rows: Sequence[Row[Any]] = (
        await conn.execute(QUEUED if where is None else _queued(where))
    ).all()
    return rows


async def tagged(conn: AsyncConnection, chat_id: int, tag: str) -> tuple[int | None, bool]:
    """The id of the latest sent message with ``tag``, and whether one is still queued."""
    waiting = False
    for status, message_id in await conn.execute(TAGGED, {"chat_id": chat_id, "tag": tag}):
        if status == OutboxStatus.SENT and message_id is not None:
            return int(message_id), False
        waiting = waiting or status in (OutboxStatus.QUEUED, OutboxStatus.SENDING)
    return None, waiting


async def mark_queued(conn: AsyncConnection, row_ids: set[int], status: str) -> None:
    """Give queued rows a final ``status`` (superseded edits), in one statement."""
    await conn.execute(MARK_QUEUED, {"row_ids": sorted(row_ids), "new_status": status})


async def mark_sent(conn: AsyncConnection, sent: list[tuple[int, int]]) -> None:
    """Mark rows sent, with the message id Telegram gave each: one executemany."""
    params = [
        {"row_id": row_id, "new_status": OutboxStatus.SENT, "sent_id": message_id}
        for row_id, message_id in sent
    ]
    await conn.execute(MARK, params)

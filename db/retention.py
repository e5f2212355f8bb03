"""Retention: the outbox rows done with and the processed update ids go after a window
(``RETENTION_DAYS``, docs/operations.md#retention); the audit log stays, it is the
events' history.

What the window guards, and why it is long enough:

* An update handled is skipped when it comes again: Telegram hands an update over again
  for a day at most, and a Mini App action's launch data expires after a day
  (``bot.transport.miniapp``).
* A message later edits name by its tag (the live standings, the sign-up count, a
  pending report's buttons) is found through the outbox row that sent it. Before that
  row goes, its message id is kept on the row that owns the message (:data:`OWNERS`), and
  the edit names it (``Outgoing.edit_message_id``) for the sender to use once the tag
  finds nothing.
* A picture or file delivered is sent again by the file id its row keeps: after the
  window it is uploaded once more.

Rows go in batches of :data:`BATCH`, each its own short transaction, so pruning a long
backlog never holds the sender's or a use-case's writes for long.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import Column, Table, bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from db.models import OutboxMessage, ProcessedUpdate, Report, Tournament
from db.status import OutboxStatus

BATCH = 1000

OUTBOX = cast(Table, OutboxMessage.__table__)
PROCESSED = cast(Table, ProcessedUpdate.__table__)
TOURNAMENTS = cast(Table, Tournament.__table__)
REPORTS = cast(Table, Report.__table__)

# A tag's first part -> the column of the row that owns the tagged message (the part
# after the colon is that row's id): the tags of ``bot.presentation.live.tag``,
# ``handlers.signup.signup_tag`` and ``handlers.reports.report_tag``.
OWNERS: dict[str, Column[Any]] = {
    "live": TOURNAMENTS.c.live_message_id,
    "signup": TOURNAMENTS.c.signup_message_id,
    "report": REPORTS.c.message_id,
}
# Whether the owner's message is pinned, where it may be (the live standings): a message
# posted again after an admin deleted it is pinned again as the first one was.
PINNED: dict[str, Column[Any]] = {"live": TOURNAMENTS.c.live_pin}

DONE = (OutboxStatus.SENT, OutboxStatus.SUPERSEDED, OutboxStatus.FAILED)
PRUNABLE = (
    select(OUTBOX.c.id, OUTBOX.c.tag, OUTBOX.c.message_id, OUTBOX.c.status)
    .where(OUTBOX.c.created_at < bindparam("before"), OUTBOX.c.status.in_(DONE))
    .order_by(OUTBOX.c.id)
    .limit(BATCH)
)
DELETE_ROWS = delete(OUTBOX).where(OUTBOX.c.id.in_(bindparam("ids", expanding=True)))
OLD_UPDATES = select(PROCESSED.c.update_id).where(PROCESSED.c.at < bindparam("before")).limit(BATCH)
DELETE_UPDATES = delete(PROCESSED).where(PROCESSED.c.update_id.in_(OLD_UPDATES.scalar_subquery()))


class Pruned(NamedTuple):
    outbox: int
    updates: int


def owned_tag(kind: str, owner_id: int) -> str:
    """The tag of a message owned by a row (``kind``: a key of :data:`OWNERS`)."""
    assert kind in OWNERS, kind
    return f"{kind}:{owner_id}"


async def prune(engine: AsyncEngine, before: datetime) -> Pruned:
    """Delete the outbox rows done with and the update ids handled before ``before``,
    batch by batch; how many of each went."""
    outbox = updates = 0
    while True:
        async with engine.begin() as conn:
            gone = await _outbox_batch(conn, before)
        outbox += gone
        if gone < BATCH:
            break
    while True:
        async with engine.begin() as conn:
            result = await conn.execute(DELETE_UPDATES, {"before": before})
        gone = max(0, int(getattr(result, "rowcount", 0) or 0))
        updates += gone
        if gone < BATCH:
            break
    return Pruned(outbox, updates)


class Kept(NamedTuple):
    """The message id the owner of a tag kept, and whether that message is pinned."""

    message_id: int | None
    pin: bool = False


async def kept_message(conn: AsyncConnection, tag: str) -> Kept:
    """The message the owner of ``tag`` kept when its rows were pruned, if any: an edit
    queued before the pruning names none, and must still edit, not post anew; and if the
    message is gone by then, it is posted (and pinned) again as its owner says."""
    kind, _, owner = tag.partition(":")
    column = OWNERS.get(kind)
    if column is None or not owner.isdigit():
        return Kept(None)
    table = column.table
    pinned = PINNED.get(kind)
    columns = (column,) if pinned is None else (column, pinned)
    row = (await conn.execute(select(*columns).where(table.c.id == int(owner)))).first()
    if row is None or row[0] is None:
        return Kept(None)
    return Kept(int(row[0]), bool(row[1]) if pinned is not None else False)


async def _outbox_batch(conn: AsyncConnection, before: datetime) -> int:
    """One batch of the outbox, oldest first: the message ids of the tagged messages
    among it kept on their owners (the latest of a tag last, so it wins), then the rows
    deleted."""
    rows = (await conn.execute(PRUNABLE, {"before": before})).all()
    kept: dict[str, int] = {}
    for row in rows:
        if row.tag and row.status == OutboxStatus.SENT and row.message_id is not None:
            kept[row.tag] = int(row.message_id)
    for tag, message_id in kept.items():
        kind, _, owner = tag.partition(":")
        column = OWNERS.get(kind)
        if column is not None and owner.isdigit():
            table = column.table
            await conn.execute(
                update(table).where(table.c.id == int(owner)).values({column.name: message_id})
            )
    if rows:
        await conn.execute(DELETE_ROWS, {"ids": [row.id for row in rows]})
    return len(rows)

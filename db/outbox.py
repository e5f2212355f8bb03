"""The outbox as its senders see it: plain rows read and marked on a connection.

A sender never changes a row in place and never needs one as an object: it reads what
is waiting, sends it, and marks it by id. So these statements run on a bare connection
(no session, no unit of work, no identity map). Each pass of a busy sender runs several
of them, and building and tracking ORM objects for them cost more than the statements
(measured in memory: a sign-up's 👍 and count edit took 2.7 ms to deliver through
sessions, most of it the ORM's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    ColumnElement,
    Row,
    Select,
    String,
    Table,
    and_,
    bindparam,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import OUTBOX_DELIVERED_FILE, OUTBOX_WAITING, OutboxMessage
from db.status import OutboxStatus

QUEUED_BATCH = 500  # outbox rows a sender looks at in one pass
QUEUED_PER_LANE = 50  # of one chat's replies, and of its broadcasts, in one pass

OUTBOX = cast(Table, OutboxMessage.__table__)
_ROW = OUTBOX.c.id == bindparam("row_id")
# Spelt as the partial index ``ix_outbox_waiting`` is, values and all: with the values
# as parameters neither database could tell that the index holds every row it wants.
_WAITING = text(OUTBOX_WAITING)
_FREE = or_(  # queued, or claimed by a sender whose lease ran out
    OUTBOX.c.status == OutboxStatus.QUEUED,
    and_(OUTBOX.c.status == OutboxStatus.SENDING, OUTBOX.c.lease_until < bindparam("now")),
)
CLAIM = (
    update(OUTBOX)
    .where(_ROW, _FREE)
    .values(status=OutboxStatus.SENDING, lease_until=bindparam("until"))
)
# A row is done with (sent, superseded, failed): a picture's bytes go, its file id stays.
MARK = (
    update(OUTBOX)
    .where(_ROW)
    .values(
        status=bindparam("new_status"),
        message_id=bindparam("sent_id"),
        file_id=func.coalesce(bindparam("sent_file", type_=String), OUTBOX.c.file_id),
        file=None,
        lease_until=None,
    )
)
# A claimed row given back to be tried again later: it keeps everything.
GIVE_BACK = update(OUTBOX).where(_ROW).values(status=OutboxStatus.QUEUED, lease_until=None)
# A row delivered as something else than it was queued as: a photo as its text, an edit
# of a deleted message posted anew (it then carries the tag and the pin, for the next
# edits and the next repost), a reaction said in words.
MARK_AS = (
    update(OUTBOX)
    .where(_ROW)
    .values(
        status=OutboxStatus.SENT,
        message_id=bindparam("sent_id"),
        kind=bindparam("sent_kind"),
        tag=bindparam("sent_tag"),
        pin=bindparam("sent_pin"),
        file_id=bindparam("sent_file", type_=String),
        file=None,
        lease_until=None,
    )
)
TAGGED = (
    select(OUTBOX.c.status, OUTBOX.c.message_id, OUTBOX.c.kind, OUTBOX.c.pin)
    .where(OUTBOX.c.chat_id == bindparam("chat_id"), OUTBOX.c.tag == bindparam("tag"))
    .order_by(OUTBOX.c.id.desc())
)
_CHAT_WAITING = (OUTBOX.c.chat_id == bindparam("chat_id")) & _WAITING
# A group became a supergroup: what waits for it goes to its new id.
READDRESS = update(OUTBOX).where(_CHAT_WAITING).values(chat_id=bindparam("new_id"))
# The bot is no longer in the chat: nothing waiting for it can be sent.
FAIL_CHAT = (
    update(OUTBOX)
    .where(_CHAT_WAITING)
    .values(status=OutboxStatus.FAILED, file=None, lease_until=None)
)
# A private message Telegram refused, said in another chat instead (its fallback).
REDIRECT = (
    update(OUTBOX)
    .where(_ROW)
    .values(
        chat_id=bindparam("to_chat"),
        thread_id=bindparam("to_thread"),
        kind="text",
        text=bindparam("to_text"),
        buttons=None,
        tag=bindparam("to_tag"),
        fallback=None,
        status=OutboxStatus.QUEUED,
        lease_until=None,
    )
)


# The file id Telegram gave a picture or file of this digest (any row that delivered it).
KNOWN_FILES = select(OUTBOX.c.file_digest, OUTBOX.c.file_id).where(
    OUTBOX.c.file_digest.in_(bindparam("digests", expanding=True)),
    text(OUTBOX_DELIVERED_FILE),
)


class Mark(NamedTuple):
    """What a row became: its status, the message id Telegram gave (sent), and the file
    id of the picture or file it carried (its bytes are then dropped)."""

    row_id: int
    status: str
    message_id: int | None = None
    file_id: str | None = None


class Tagged(NamedTuple):
    """The latest sent message with a tag (``message_id`` None: none was), whether one
    is still queued, and what the sent one is (``text``, ``photo``) and was pinned."""

    message_id: int | None
    waiting: bool
    kind: str | None = None
    pin: bool = False


def waiting(where: ColumnElement[bool] | None = None) -> Select[Any]:
    """Waiting rows, at most :data:`QUEUED_PER_LANE` of each chat's lane, oldest first;
    ``where`` narrows it (a scale-out sender's part of the chats, by a bound parameter:
    the statement is built once and its compiled form cached).

    One scan of ``ix_outbox_waiting``, whose order is the lanes' (no sort for the
    window), and no join back to the table: planning the join took PostgreSQL 0.9 ms a
    pass, four times as long as running it (it probed the id index's ends, through the
    dead versions of the rows just sent)."""
    place = func.row_number().over(
        partition_by=(OUTBOX.c.chat_id, OUTBOX.c.broadcast), order_by=OUTBOX.c.id
    )
    waiting = (
        select(OUTBOX, place.label("place"))
        .where(_WAITING if where is None else _WAITING & where)
        .subquery()
    )
    return (
        select(*(waiting.c[column.name] for column in OUTBOX.c))
        .where(waiting.c.place <= QUEUED_PER_LANE)
        .order_by(waiting.c.id)
        .limit(QUEUED_BATCH)
    )


QUEUED = waiting()


async def queued(
    conn: AsyncConnection, statement: Select[Any] = QUEUED, params: dict[str, Any] | None = None
) -> Sequence[Row[Any]]:
    """Rows waiting to be sent, and rows a sender claimed and still holds (their chat
    waits for them, so order is kept; ``Sender`` sends one whose lease ran out).

    At most :data:`QUEUED_PER_LANE` of each chat's replies and of its broadcasts, so a
    chat with a long queue waiting out its rate limit never hides the next chat's rows
    from the sender. ``statement``: :data:`QUEUED`, or :func:`waiting` narrowed."""
    rows: Sequence[Row[Any]] = (await conn.execute(statement, params)).all()
    return rows


async def tagged(conn: AsyncConnection, chat_id: int, tag: str) -> Tagged:
    """The latest sent message with ``tag``, and whether one is still queued."""
    waiting = False
    found = await conn.execute(TAGGED, {"chat_id": chat_id, "tag": tag})
    for status, message_id, kind, pin in found:
        if status == OutboxStatus.SENT and message_id is not None:
            return Tagged(int(message_id), False, str(kind), bool(pin))
        waiting = waiting or status in (OutboxStatus.QUEUED, OutboxStatus.SENDING)
    return Tagged(None, waiting)


async def mark(conn: AsyncConnection, marks: Sequence[Mark]) -> None:
    """Give rows their status (sent, with the message id Telegram gave; superseded):
    one executemany, one round trip."""
    await conn.execute(MARK, [mark_params(m) for m in marks])


def mark_params(m: Mark) -> dict[str, Any]:
    return {
        "row_id": m.row_id,
        "new_status": m.status,
        "sent_id": m.message_id,
        "sent_file": m.file_id,
    }


def digest(kind: str, data: bytes, filename: str | None) -> str:
    """What a picture or file is, for sending it again by its file id: its bytes, and
    whether it is a photo (a photo's id cannot send a document) or a document (whose id
    keeps the name it was sent with)."""
    what = b"photo" if kind != "document" else f"document:{filename or ''}".encode()
    return hashlib.sha256(what + b"\0" + data).hexdigest()


async def known_file(conn: AsyncConnection, file_digest: str) -> str | None:
    """The file id of a picture or file already delivered, if any row still has it."""
    found = await conn.execute(KNOWN_FILES, {"digests": [file_digest]})
    return next((str(file_id) for _, file_id in found), None)


def known_files(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Outbox rows about to be inserted (dicts of ``Repo.enqueue``), each given its
    ``file_digest`` and, for a picture or file Telegram has already, its ``file_id``
    instead of its bytes: a cached /standings picture, the same podium again. Every row
    gets both keys, so rows keep one shape (and their order) in the insert."""
    for row in rows:
        data = row.get("file")
        row["file_digest"] = digest(row["kind"], data, row.get("filename")) if data else None
        row.setdefault("file_id", None)
    wanted = {row["file_digest"] for row in rows if row["file_digest"]}
    if not wanted:
        return
    known = {d: f for d, f in conn.execute(KNOWN_FILES, {"digests": list(wanted)})}
    for row in rows:
        file_id = known.get(row["file_digest"])
        if file_id is not None:
            row["file_id"], row["file"] = file_id, None

"""One repository facade per update: the handler's only way to the database.

Every method runs inside the caller's transaction; ``audit`` writes the audit-log row in
that same transaction, so a change and its record commit or vanish together.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Table,
    bindparam,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import (
    Session,
    joinedload,
    lazyload,
    make_transient_to_detached,
    raiseload,
    selectinload,
)
from sqlalchemy.orm.attributes import instance_state, set_committed_value
from sqlalchemy.sql import Insert, Select
from sqlalchemy.sql.base import ExecutableOption

from db.keys import could_be_key
from db.models import (
    OUTBOX_WAITING,
    AuditEntry,
    Chat,
    DeliveryNotice,
    EventRating,
    FiredTimer,
    Grant,
    OutboxMessage,
    PenaltyRow,
    Placing,
    Player,
    PlayerRating,
    PrivateChat,
    ProcessedUpdate,
    Report,
    Round,
    Season,
    Seat,
    TableRow,
    Tournament,
)
from db.outbox import known_files
from db.status import EventStatus, PlayerStatus, RoundStatus, TableState

ACTIVE = (EventStatus.SIGNUP, EventStatus.RUNNING)
# The whole event: players, rounds with their tables and reports, penalties. What most
# use-cases read; the hot ones (/join, /report, /confirm, /standings from the cache) load
# the tournament row alone (``BARE``) and ask for the one row they need.
WHOLE: tuple[ExecutableOption, ...] = (
    selectinload(Tournament.players),
    selectinload(Tournament.rounds).selectinload(Round.tables).selectinload(TableRow.reports),
    selectinload(Tournament.penalties),
)
# Touching a collection of a bare tournament raises instead of loading it behind our back.
BARE: tuple[ExecutableOption, ...] = (
    raiseload(Tournament.players),
    raiseload(Tournament.rounds),
    raiseload(Tournament.penalties),
)


AUDIT, OUTBOX = cast(Table, AuditEntry.__table__), cast(Table, OutboxMessage.__table__)
PROCESSED, PLAYERS = cast(Table, ProcessedUpdate.__table__), cast(Table, Player.__table__)
TOURNAMENTS, REPORTS = cast(Table, Tournament.__table__), cast(Table, Report.__table__)
SEATS = cast(Table, Seat.__table__)

# The statements of every update's path, built once with named parameters: building a
# select (coercing each operand, generating its cache key) cost more than running it.
SEEN = select(PROCESSED.c.update_id).where(
    PROCESSED.c.update_id.in_(bindparam("update_ids", expanding=True))
)
_IN_CHAT = (
    Tournament.chat_id == bindparam("chat_id"),
    Tournament.thread_id == bindparam("thread_id"),
)
_NEWEST = select(Tournament).where(*_IN_CHAT).order_by(Tournament.id.desc()).limit(1)
_ACTIVE = _NEWEST.where(Tournament.status.in_(ACTIVE))
LATEST = {True: _NEWEST.options(*WHOLE), False: _NEWEST.options(*BARE)}  # by ``whole``
BY_ID = select(Tournament).where(Tournament.id == bindparam("tournament_id")).options(*BARE)
ACTIVE_TOURNAMENT = {True: _ACTIVE.options(*WHOLE), False: _ACTIVE.options(*BARE)}
# ``Repo.load_whole``: the tournament with its (few) rounds and penalties, then its
# players, tables and reports a page at a time (ids above ``after``).
PAGE = 500
FRESH = {"populate_existing": True}
SHELL = (
    select(Tournament)
    .where(Tournament.id == bindparam("tournament_id"))
    .options(
        lazyload(Tournament.players),
        selectinload(Tournament.rounds).lazyload(Round.tables),
        selectinload(Tournament.penalties),
    )
    .execution_options(**FRESH)
)


def _page(model: Any, *where: ColumnElement[bool]) -> Select[Any]:
    return (
        select(model)
        .where(*where, model.id > bindparam("after"))
        .order_by(model.id)
        .limit(PAGE)
        .execution_options(**FRESH)
    )


PLAYERS_OF = _page(Player, Player.tournament_id == bindparam("tournament_id"))
_IN_ROUNDS = TableRow.round_id.in_(bindparam("round_ids", expanding=True))
TABLES_OF = _page(TableRow, _IN_ROUNDS).options(lazyload(TableRow.reports))
REPORTS_OF = _page(Report, Report.table_id.in_(select(TableRow.id).where(_IN_ROUNDS)))
# These find rows by columns a stored row never changes (ids, numbers), so what the
# session has not written yet cannot change what they find (a row already loaded comes
# back as the session holds it): they skip the autoflush, and a burst's confirmed
# results are written together, by one flush at its end, not one flush per result.
UNFLUSHED = {"autoflush": False}
PLAYER = (
    select(Player)
    .where(
        Player.tournament_id == bindparam("tournament_id"), Player.user_id == bindparam("user_id")
    )
    .execution_options(**UNFLUSHED)
)


def _count(model: Any, *where: ColumnElement[bool]) -> Select[int]:
    return select(func.count()).select_from(model).where(*where)


ACTIVE_PLAYERS = _count(
    Player, Player.tournament_id == bindparam("tournament_id"), Player.status == PlayerStatus.ACTIVE
)
NAMES = select(Player.user_id, Player.name).where(
    Player.tournament_id == bindparam("tournament_id"),
    Player.user_id.in_(bindparam("user_ids", expanding=True)),
)
LATEST_ROUND = (
    select(Round)
    .where(Round.tournament_id == bindparam("tournament_id"))
    .order_by(Round.number.desc())
    .limit(1)
    .options(raiseload(Round.tables))
    .execution_options(**UNFLUSHED)
)
# A table comes with its reports in the same statement (a select-in load of them was a
# second statement, and most of the cost of reading one table).
WITH_REPORTS = joinedload(TableRow.reports)
ROUND_TABLE = (
    select(TableRow)
    .where(TableRow.round_id == bindparam("round_id"), TableRow.number == bindparam("number"))
    .options(WITH_REPORTS)
    .execution_options(**UNFLUSHED)
)
INSERT_REPORT = insert(REPORTS).returning(REPORTS.c.id, REPORTS.c.created_at)
GRANTED = select(Grant.user_id).where(Grant.chat_id == bindparam("chat_id"))
# A few of a round's pending tables, by ``ix_tables_round_status``: ``enough`` of them.
UNSETTLED = (
    select(TableRow.id)
    .where(TableRow.round_id == bindparam("round_id"), TableRow.status == TableState.PENDING)
    .limit(bindparam("enough"))
)
# A round's table where a user sits, by the seat index (``Seat``).
SEATED = (
    select(TableRow)
    .join(Seat, Seat.table_id == TableRow.id)
    .where(Seat.round_id == bindparam("round_id"), Seat.user_id == bindparam("user_id"))
    .order_by(TableRow.number)
    .limit(1)
    .options(WITH_REPORTS)
    .execution_options(**UNFLUSHED)  # a new table is written (and indexed) first
)


PENDING = "tourbot.pending"  # the session.info key of Repo's write-only rows
CHANGED = "tourbot.changed"  # ... and of the tournaments this transaction moved on
BUMP = (
    update(TOURNAMENTS)
    .where(TOURNAMENTS.c.id == bindparam("tournament_id"))
    .values(version=TOURNAMENTS.c.version + bindparam("by"))
)


@cache
def _insert(table: Table) -> Insert:
    return insert(table)


def _write_pending(session: Session) -> None:
    """Plain rows, on the session's connection (no ORM bookkeeping for them)."""
    pending: dict[Table, list[dict[str, Any]]] = session.info.get(PENDING, {})
    if not pending:
        return
    conn = session.connection()
    while pending:
        table, rows = pending.popitem()
        if table is TOURNAMENTS:  # version bumps
            conn.execute(BUMP, rows)
            continue
        if table is OUTBOX:  # pictures Telegram has already go by their file id
            known_files(conn, rows)
        shapes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in rows:  # one executemany per set of columns given (the rest: defaults)
            shapes.setdefault(tuple(row), []).append(row)
        for same in shapes.values():
            conn.execute(_insert(table), same)


@event.listens_for(Session, "before_commit")
def _write_pending_on_commit(session: Session) -> None:
    """Whatever committed a repository's session writes its kept rows first (this runs
    inside SQLAlchemy's greenlet, where the synchronous API is allowed)."""
    _write_pending(session)


@event.listens_for(Session, "after_flush")
def _index_seats(session: Session, _context: Any) -> None:
    """The tables this flush wrote get their seats indexed (``Seat``), in the same flush:
    whatever drew them, a player's table can be found from then on."""
    seats = [
        {"round_id": row.round_id, "user_id": user, "table_id": row.id}
        for row in session.new
        if isinstance(row, TableRow)
        for user in row.seats
    ]
    if seats:
        session.connection().execute(_insert(SEATS), seats)


@event.listens_for(Session, "after_commit")
def _forget_changed(session: Session) -> None:
    session.info.get(CHANGED, set()).clear()


@event.listens_for(Session, "after_rollback")
def _drop_pending_on_rollback(session: Session) -> None:
    """Rows kept for a transaction that rolled back go with it (cleared in place: the
    repository holds the same dict)."""
    session.info.get(PENDING, {}).clear()
    session.info.get(CHANGED, set()).clear()


def changed_in_transaction(t: Tournament) -> bool:
    """Whether the transaction ``t`` is loaded in has moved its version on (or made it):
    its version number is not yet committed, and might never be."""
    state = inspect(t)
    if state.key is None:  # not stored yet
        return True
    return state.session is not None and t.id in state.session.info.get(CHANGED, ())


class Repo:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        # Rows only ever written, never read back in their transaction (the audit log,
        # the outbox, the processed-update marks): kept here and inserted by
        # :meth:`write_pending`, one executemany per table, instead of one ORM object
        # each through the unit of work (most of a sign-up's cost was that bookkeeping).
        # They live in the session's ``info``, so that a commit writes what is left
        # (see :func:`_write_pending_on_commit`).
        self._pending: dict[Table, list[dict[str, Any]]] = session.sync_session.info.setdefault(
            PENDING, {}
        )

        # The active tournament of a chat (and topic), once found in this transaction:
        # the updates of a burst, run together, ask for it once (it is the same object
        # in the session either way; it is asked again once it has ended).
        self._active: dict[tuple[int, int], Tournament] = {}
        # Likewise a bare tournament's latest round, and a chat's granted users.
        self._rounds: dict[int, Round | None] = {}
        self._granted: dict[int, set[int]] = {}

    def _later(self, table: Table, row: dict[str, Any]) -> None:
        self._pending.setdefault(table, []).append(row)

    def bump_version(self, t: Tournament) -> None:
        """Move ``t`` on to its next version. A stored tournament's number is raised by
        one ``UPDATE … SET version = version + 1`` kept with the write-only rows, and
        set as already written: otherwise its only change would cost a flush of the
        unit of work, most of a sign-up's time."""
        version = (t.version or 0) + 1
        if inspect(t).key is None:  # new in this transaction: its INSERT carries it
            t.version = version
            return
        set_committed_value(t, "version", version)
        self._later(TOURNAMENTS, {"tournament_id": t.id, "by": 1})
        self.session.sync_session.info.setdefault(CHANGED, set()).add(t.id)

    async def write_pending(self) -> None:
        """Flush the session and insert the rows kept by :meth:`_later` now: inside the
        use-case's ``try`` (``Core`` calls it), so that a conflict is a refusal, and
        before reading those tables back."""
        await self.session.flush()
        await self.session.run_sync(_write_pending)

    # --- updates and audit -------------------------------------------------------------
    async def seen_updates(self, update_ids: list[int]) -> set[int]:
        """Which of these updates were handled already. Asked first in a transaction,
        with nothing to flush: on the connection."""
        conn = await self.session.connection()
        return set((await conn.execute(SEEN, {"update_ids": update_ids})).scalars())

    def mark_update(self, update_id: int) -> None:
        self._later(PROCESSED, {"update_id": update_id})

    def audit(
        self,
        *,
        chat_id: int,
        actor_id: int,
        action: str,
        tournament_id: int | None = None,
        update_id: int | None = None,
        old: dict[str, Any] | None = None,
        new: dict[str, Any] | None = None,
    ) -> None:
        self._later(
            AUDIT,
            {
                "chat_id": chat_id,
                "actor_id": actor_id,
                "action": action,
                "tournament_id": tournament_id,
                "update_id": update_id,
                "old": old,
                "new": new,
            },
        )

    # --- chats ---------------------------------------------------------------------------
    async def chat(self, chat_id: int) -> Chat:
        chat = await self.session.get(Chat, chat_id)
        if chat is None:
            chat = Chat(id=chat_id)
            self.session.add(chat)
            await self.session.flush()
        return chat

    async def is_granted(self, chat_id: int, user_id: int) -> bool:
        """Whether the user was granted the organiser role here. A chat's grants are few:
        read together once a transaction (a burst asks for a different user each time)."""
        if chat_id not in self._granted:
            conn = await self.session.connection()
            found = await conn.scalars(GRANTED, {"chat_id": chat_id})
            self._granted[chat_id] = set(found)
        return user_id in self._granted[chat_id]

    async def granted(self, chat_id: int) -> set[int]:
        """The users granted the organiser role in this chat with /grant."""
        await self.is_granted(chat_id, 0)
        return set(self._granted[chat_id])

    def grant(self, chat_id: int, user_id: int, by: int) -> None:
        self.session.add(Grant(chat_id=chat_id, user_id=user_id, granted_by=by))
        self._granted.setdefault(chat_id, set()).add(user_id)

    async def migrate_chat(self, old: int, new: int) -> None:
        """A group became a supergroup: carry settings, grants and events to the new id,
        and the replies still waiting. The messages sent stay the old group's: their ids
        mean nothing in the new chat, so an edit of one (the sign-up count) posts it anew
        there instead of editing whatever has that id."""
        kept = (EventRating, PlayerRating, Placing)  # ratings and places go with their events
        for model in (Tournament, Grant, AuditEntry, Season, DeliveryNotice, *kept):
            await self.session.execute(
                update(model).where(model.chat_id == old).values(chat_id=new)
            )
        await self.session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.chat_id == old, text(OUTBOX_WAITING))
            .values(chat_id=new)
        )
        old_chat = await self.session.get(Chat, old)
        if old_chat is not None:
            new_chat = await self.chat(new)
            new_chat.lang = new_chat.lang or old_chat.lang
            new_chat.tz = new_chat.tz or old_chat.tz
            await self.session.execute(delete(Chat).where(Chat.id == old))

    # --- tournaments ---------------------------------------------------------------------
    async def active_tournament(
        self, chat_id: int, thread_id: int | None, whole: bool = True
    ) -> Tournament | None:
        key = (chat_id, thread_id or 0)
        known = None if whole else self._active.get(key)
        if known is not None and known.status in ACTIVE:
            return known
        found = await self.session.scalar(
            ACTIVE_TOURNAMENT[whole], {"chat_id": chat_id, "thread_id": key[1]}
        )
        if found is not None:
            self._active[key] = found
        return found

    async def active_tournaments(self, chat_id: int) -> list[Tournament]:
        """The chat's active tournaments in every topic (rows alone), by topic: a forum
        runs one in each."""
        query = (
            select(Tournament)
            .where(Tournament.chat_id == chat_id, Tournament.status.in_(ACTIVE))
            .order_by(Tournament.thread_id, Tournament.id)
            .options(*BARE)
        )
        return list(await self.session.scalars(query))

    async def latest_tournament(
        self, chat_id: int, thread_id: int | None, whole: bool = True
    ) -> Tournament | None:
        where = {"chat_id": chat_id, "thread_id": thread_id or 0}
        return await self.session.scalar(LATEST[whole], where)

    async def load_whole(self, t: Tournament) -> None:
        """Load the rest of a tournament fetched bare (pending changes, and the kept
        version bumps, are written first, so what comes back includes them).

        Its long lists (players, tables, reports) are read :data:`PAGE` rows a
        statement, by key: between two statements the loop serves other chats (on
        SQLite while the read holds no write lock, see ``db.inline_sqlite``; on
        PostgreSQL at every round trip). Loaded by select-in, the 2,000 players of an
        event were one statement whose rows took 15-30 ms to become objects, every other
        chat's reply waiting meanwhile."""
        await self.write_pending()
        await self.session.execute(SHELL, {"tournament_id": t.id})
        await self.load_players(t)
        if not t.rounds:
            return
        of_round = await self._tables([r.id for r in t.rounds])
        for r in t.rounds:
            set_committed_value(r, "tables", of_round[r.id])

    async def load_players(self, t: Tournament) -> None:
        """Load a bare tournament's players alone (every one of them: the list is whole),
        for a reader that needs them and the latest round, not its history."""
        set_committed_value(t, "players", await self._pages(PLAYERS_OF, {"tournament_id": t.id}))

    async def load_tables(self, r: Round) -> None:
        """Load one round's tables and their reports (the round came without them, from
        :meth:`latest_round` of a bare tournament): what it costs does not grow with the
        rounds before."""
        set_committed_value(r, "tables", (await self._tables([r.id]))[r.id])

    async def _tables(self, round_ids: list[int]) -> dict[int, list[TableRow]]:
        """The tables of these rounds with their reports, by round, in table order."""
        rounds = {"round_ids": round_ids}
        tables = await self._pages(TABLES_OF, rounds)
        reports: dict[int, list[Report]] = {row.id: [] for row in tables}
        for rep in await self._pages(REPORTS_OF, rounds):
            reports[rep.table_id].append(rep)
        of_round: dict[int, list[TableRow]] = {number: [] for number in round_ids}
        for row in sorted(tables, key=lambda row: row.number):
            of_round[row.round_id].append(row)
            set_committed_value(row, "reports", reports[row.id])
        return of_round

    async def _pages(self, query: Select[Any], where: dict[str, Any]) -> list[Any]:
        """Every row of ``query`` (ordered by id), :data:`PAGE` rows a statement."""
        rows: list[Any] = []
        while True:
            page = list(
                await self.session.scalars(query, {**where, "after": rows[-1].id if rows else 0})
            )
            rows += page
            if len(page) < PAGE:
                return rows

    # --- single rows, for the use-cases whose cost must not grow with the event -----------
    async def _write_changes_of(self, model: type[Any], *columns: str) -> None:
        """Flush first if the session holds a new ``model`` row, or a change to one of
        ``columns`` of a stored one: what a query without autoflush would miss."""
        pending = self.session.sync_session
        if any(isinstance(row, model) for row in pending.new) or (
            columns
            and any(
                isinstance(row, model)
                and not instance_state(row).committed_state.keys().isdisjoint(columns)
                for row in pending.dirty
            )
        ):
            await self.session.flush()

    async def player(self, tournament_id: int, user_id: int) -> Player | None:
        await self._write_changes_of(Player)
        where = {"tournament_id": tournament_id, "user_id": user_id}
        return await self.session.scalar(PLAYER, where)

    async def active_players(self, tournament_id: int) -> int:
        await self._write_changes_of(Player, "status")
        conn = await self.session.connection()
        return int(await conn.scalar(ACTIVE_PLAYERS, {"tournament_id": tournament_id}) or 0)

    async def names(self, tournament_id: int, user_ids: list[int]) -> dict[int, str]:
        """Plain values, read on the connection (a renamed player not yet written is
        written first: the one change of the session this reads)."""
        await self._write_changes_of(Player, "name")
        conn = await self.session.connection()
        rows = await conn.execute(NAMES, {"tournament_id": tournament_id, "user_ids": user_ids})
        return {user: name for user, name in rows.all()}

    async def names_in(
        self, tournament_ids: Collection[int], user_ids: Collection[int]
    ) -> dict[tuple[int, int], str]:
        """Players' names in these events: (event, user) → name."""
        await self._write_changes_of(Player, "name")
        query = select(Player.tournament_id, Player.user_id, Player.name).where(
            Player.tournament_id.in_(tournament_ids), Player.user_id.in_(user_ids)
        )
        rows = (await self.session.execute(query)).all()
        return {(event, user): name for event, user, name in rows}

    async def latest_round(self, t: Tournament) -> Round | None:
        """The newest round; of a bare tournament without its tables (ask for the one you
        need), read once a transaction (a round is only added to a whole tournament)."""
        if "rounds" in t.__dict__:
            return t.rounds[-1] if t.rounds else None
        if t.id not in self._rounds:
            self._rounds[t.id] = await self.session.scalar(LATEST_ROUND, {"tournament_id": t.id})
        return self._rounds[t.id]

    async def _table(self, query: Select[TableRow], where: dict[str, Any]) -> TableRow | None:
        """One table and its reports (joined: the result needs ``unique``)."""
        return (await self.session.execute(query, where)).unique().scalars().first()

    async def round_table(self, round_id: int, number: int) -> TableRow | None:
        return await self._table(ROUND_TABLE, {"round_id": round_id, "number": number})

    async def seated_table(self, round_id: int, user_id: int) -> TableRow | None:
        """The table of a round where this user sits: one lookup in the seat index."""
        await self._write_changes_of(TableRow)
        return await self._table(SEATED, {"round_id": round_id, "user_id": user_id})

    async def unsettled(self, round_id: int) -> bool:
        """Whether a table of the round is still pending. Asked after every confirmed
        result, so it costs the same in a round of 5 tables as of 500: it reads only as
        many stored pending tables as this transaction settled and has not written yet,
        and one more, and corrects them by the session's own changes (no flush)."""
        await self._write_changes_of(TableRow, "round_id")  # a table added to the round
        changed = {  # the round's tables whose status this transaction changed: now
            row.id: row.status
            for row in self.session.sync_session.dirty
            if isinstance(row, TableRow)
            and row.round_id == round_id
            and "status" in instance_state(row).committed_state
        }
        if TableState.PENDING in changed.values():  # reopened here
            return True
        conn = await self.session.connection()
        where = {"round_id": round_id, "enough": len(changed) + 1}
        return not set(await conn.scalars(UNSETTLED, where)) <= changed.keys()

    async def last_event_id(self, chat_id: int) -> int:
        """The newest tournament id of the chat (0 when there is none)."""
        found = await self.session.scalar(
            select(func.max(Tournament.id)).where(Tournament.chat_id == chat_id)
        )
        return int(found or 0)

    async def season(self, chat_id: int) -> Season | None:
        """The chat's current season: the one started last."""
        return await self.session.scalar(
            select(Season).where(Season.chat_id == chat_id).order_by(Season.id.desc())
        )

    async def tournament(self, tournament_id: int, whole: bool = True) -> Tournament | None:
        """A tournament by id (None for an id no row can have, ``db.keys``);
        ``whole=False``: its row alone (see ``BARE``)."""
        if not could_be_key(Tournament, tournament_id):
            return None
        if whole:
            return await self.session.get(Tournament, tournament_id)
        return await self.session.scalar(BY_ID, {"tournament_id": tournament_id})

    async def add(self, row: Any) -> Any:
        if isinstance(row, Tournament):  # now the active one of its chat
            self._active.pop((row.chat_id, row.thread_id or 0), None)
        self.session.add(row)
        await self.session.flush()
        return row

    async def report(self, report_id: int) -> Report | None:
        if not could_be_key(Report, report_id):
            return None
        return await self.session.get(Report, report_id)

    async def round_event_status(self, round_id: int) -> str | None:
        """The status of the event a round is of (one column, not the event's rows)."""
        query = select(Tournament.status).join(Round, Round.tournament_id == Tournament.id)
        return await self.session.scalar(query.where(Round.id == round_id))

    async def table(self, table_id: int) -> TableRow | None:
        if not could_be_key(TableRow, table_id):
            return None
        return await self.session.get(TableRow, table_id, options=[WITH_REPORTS])

    async def timed_tournaments(self) -> list[Tournament]:
        """The active tournaments that wait for a moment (``bot.application.timers`` derives every
        timer from these columns): a sign-up deadline, the open round's deadline, a
        table's own, a check-in cut-off, a live-standings refresh. The many that wait
        for nothing (a sign-up without a deadline) are not read, nor are any players,
        reports or penalties: the scheduler rescans often."""
        open_round = (
            select(Round.id)
            .where(
                Round.tournament_id == Tournament.id,
                Round.status == RoundStatus.OPEN,
                Round.deadline.is_not(None)
                | Round.checkin_until.is_not(None)
                | select(TableRow.id)
                .where(TableRow.round_id == Round.id, TableRow.deadline.is_not(None))
                .exists(),
            )
            .exists()
        )
        waiting = (
            (Tournament.status == EventStatus.SIGNUP) & Tournament.signup_until.is_not(None)
        ) | (
            (Tournament.status == EventStatus.RUNNING)
            & (Tournament.live_due.is_not(None) | open_round)
        )
        rows = await self.session.scalars(
            select(Tournament)
            .where(waiting)
            .options(
                raiseload(Tournament.players),
                raiseload(Tournament.penalties),
                selectinload(Tournament.rounds)
                .selectinload(Round.tables)
                .raiseload(TableRow.reports),
            )
        )
        return list(rows)

    # --- timers and private chats ------------------------------------------------------
    async def fired_timers(self, tournament_ids: set[int]) -> set[tuple[str, int, int, datetime]]:
        """(kind, tournament id, round number, moment) of every timer these tournaments
        have run; moments are kept to the second (see :meth:`mark_timer`)."""
        if not tournament_ids:
            return set()
        rows = await self.session.scalars(
            select(FiredTimer).where(FiredTimer.tournament_id.in_(tournament_ids))
        )
        return {(f.kind, f.tournament_id, f.round_number, f.due) for f in rows}

    async def timer_fired(
        self, kind: str, tournament_id: int, round_number: int, due: datetime
    ) -> bool:
        key = (kind, tournament_id, round_number, due.replace(microsecond=0))
        return await self.session.get(FiredTimer, key) is not None

    def mark_timer(self, kind: str, tournament_id: int, round_number: int, due: datetime) -> None:
        """Record a timer as run. Its moment is kept to the second: a deadline read back
        from one backend may differ in microseconds from the one a use-case planned."""
        self.session.add(
            FiredTimer(
                kind=kind,
                tournament_id=tournament_id,
                round_number=round_number,
                due=due.replace(microsecond=0),
            )
        )

    async def note_private_chat(self, user_id: int, name: str | None = None) -> bool:
        """The user wrote to the bot privately: it may write to them (again, if Telegram
        had refused it: they unblocked it). Whether they had been gone."""
        row = await self.session.get(PrivateChat, user_id)
        if row is None:
            self.session.add(PrivateChat(user_id=user_id, name=name))
            return False
        was_gone = row.gone is not None
        if was_gone:
            row.gone = None
        if name and row.name != name:
            row.name = name
        return was_gone

    async def private_chats(self, user_ids: set[int]) -> set[int]:
        """Which of these users the bot may write to privately: they opened a private
        chat with it and Telegram has not refused it since."""
        return set(await self.private_names(user_ids))

    async def private_names(self, user_ids: set[int]) -> dict[int, str]:
        """:meth:`private_chats`, each with the name they wrote under (may be empty)."""
        if not user_ids:
            return {}
        rows = await self.session.execute(
            select(PrivateChat.user_id, PrivateChat.name).where(
                PrivateChat.user_id.in_(user_ids), PrivateChat.gone.is_(None)
            )
        )
        return {int(user): name or "" for user, name in rows}

    async def mark_gone(self, user_id: int, reason: str) -> bool:
        """Telegram refuses the bot's private messages to the user (``reason``:
        blocked, deactivated…): none is queued for them again until they write to the
        bot. Whether that is news."""
        row = await self.session.get(PrivateChat, user_id)
        if row is None:
            self.session.add(PrivateChat(user_id=user_id, gone=reason))
            return True
        if row.gone == reason:
            return False
        row.gone = reason
        return True

    async def gone_players(self, tournament_id: int) -> list[tuple[str, str]]:
        """The players of a tournament the bot can no longer write to privately: their
        names and why, in sign-up order. One query, as long as the list of the gone."""
        rows = await self.session.execute(
            select(Player.name, PrivateChat.gone)
            .join(PrivateChat, PrivateChat.user_id == Player.user_id)
            .where(Player.tournament_id == tournament_id, PrivateChat.gone.is_not(None))
            .order_by(Player.id)
        )
        return [(str(name), str(gone)) for name, gone in rows]

    async def note_refusal(self, chat_id: int, reason: str) -> bool:
        """Remember that the chat's organisers are told of ``reason``; False when they
        were already (and it has not worked since)."""
        if await self.session.get(DeliveryNotice, (chat_id, reason)) is not None:
            return False
        self.session.add(DeliveryNotice(chat_id=chat_id, reason=reason))
        return True

    async def forget_refusal(self, chat_id: int, reason: str) -> None:
        """It works again: a later refusal is told again."""
        await self.session.execute(
            delete(DeliveryNotice).where(
                DeliveryNotice.chat_id == chat_id, DeliveryNotice.reason == reason
            )
        )

    def add_penalty(
        self,
        t: Tournament,
        user_id: int,
        round_number: int,
        points: Decimal,
        reason: str,
        by: int,
        kind: str = "points",
    ) -> PenaltyRow:
        row = PenaltyRow(
            tournament_id=t.id,
            user_id=user_id,
            round_number=round_number,
            points=points,
            kind=kind,
            reason=reason,
            by_id=by,
        )
        self.session.add(row)
        t.penalties.append(row)
        return row

    async def remove_penalty(self, t: Tournament, penalty_id: int) -> None:
        row = next(p for p in t.penalties if p.id == penalty_id)
        t.penalties.remove(row)
        await self.session.delete(row)

    async def last_undoable(
        self, tournament_id: int, actions: tuple[str, ...]
    ) -> AuditEntry | None:
        """The newest audited action of these kinds that no ``undo`` entry has taken back."""
        await self.write_pending()
        rows = list(
            await self.session.scalars(
                select(AuditEntry)
                .where(
                    AuditEntry.tournament_id == tournament_id,
                    AuditEntry.action.in_((*actions, "undo")),
                )
                .order_by(AuditEntry.id.desc())
            )
        )
        undone = {r.new["undone"] for r in rows if r.action == "undo" and r.new}
        return next((r for r in rows if r.action != "undo" and r.id not in undone), None)

    async def new_player(
        self, t: Tournament, user_id: int, name: str, username: str | None
    ) -> Player:
        """A sign-up, inserted at once by one statement ((tournament, user) is unique, so
        two at once cannot both stand). A bare tournament's players stay unloaded, and
        the player comes back as a detached copy of its row; a whole one's list gets
        the stored player."""
        row = {
            "tournament_id": t.id,
            "user_id": user_id,
            "name": name,
            "username": username,
            "status": PlayerStatus.ACTIVE,
            "partners": [],
        }
        conn = await self.session.connection()
        (player_id,) = (await conn.execute(insert(PLAYERS), row)).inserted_primary_key or (None,)
        if "players" not in t.__dict__:
            return Player(id=player_id, **row)
        player = await self.session.get_one(Player, player_id)
        set_committed_value(t, "players", [*t.players, player])
        return player

    async def new_report(self, row: TableRow, **fields: Any) -> Report:
        """A report of ``row`` (its reports loaded), made live: one INSERT … RETURNING
        ((table, live) is unique, so of two at once one is refused here). It joins the
        table's reports as a stored row, without a flush of the unit of work."""
        values = {
            "table_id": row.id,
            "live": True,
            "confirmed_by": None,
            "reason": "",
            "message_id": None,
            **fields,
        }
        conn = await self.session.connection()
        inserted = await conn.execute(INSERT_REPORT, values)
        report_id, created_at = inserted.one()
        rep = Report(id=report_id, created_at=created_at, **values)
        make_transient_to_detached(rep)
        self.session.add(rep)
        set_committed_value(row, "reports", [*row.reports, rep])
        return rep

    # --- ratings and results, kept (docs/rules/ratings.md#kept) ---------------------------
    async def event_ratings(
        self, tournament_id: int, users: Collection[int] | None = None
    ) -> dict[int, EventRating]:
        """One event's rating rows by player (of ``users`` only, when given)."""
        query = select(EventRating).where(EventRating.tournament_id == tournament_id)
        if users is not None:
            query = query.where(EventRating.user_id.in_(users))
        return {row.user_id: row for row in await self.session.scalars(query)}

    async def ratings_since(self, chat_id: int, game: str, since: int) -> list[EventRating]:
        """The rating rows of the chat's events of ``game`` from event ``since`` on."""
        query = select(EventRating).where(
            EventRating.chat_id == chat_id,
            EventRating.game == game,
            EventRating.tournament_id >= since,
        )
        return list(await self.session.scalars(query))

    async def ratings_before(
        self, chat_id: int, game: str, users: Collection[int], event: int
    ) -> dict[int, EventRating]:
        """Each of ``users``' row of their last rated event before ``event`` (none:
        they had not played a rated hand of ``game`` here)."""
        if not users:
            return {}
        latest = (
            select(EventRating.user_id, func.max(EventRating.tournament_id).label("last"))
            .where(
                EventRating.chat_id == chat_id,
                EventRating.game == game,
                EventRating.user_id.in_(users),
                EventRating.tournament_id < event,
            )
            .group_by(EventRating.user_id)
            .subquery()
        )
        query = select(EventRating).join(
            latest,
            (EventRating.user_id == latest.c.user_id)
            & (EventRating.tournament_id == latest.c.last),
        )
        return {row.user_id: row for row in await self.session.scalars(query)}

    async def player_ratings(
        self, chat_id: int, game: str, users: Collection[int] | None = None
    ) -> dict[int, PlayerRating]:
        """The chat's ratings of ``game`` now, by player (of ``users`` only, when given)."""
        if users is not None and not users:
            return {}
        query = select(PlayerRating).where(
            PlayerRating.chat_id == chat_id, PlayerRating.game == game
        )
        if users is not None:
            query = query.where(PlayerRating.user_id.in_(users))
        return {row.user_id: row for row in await self.session.scalars(query)}

    async def my_ratings(self, chat_id: int, user_id: int) -> dict[str, PlayerRating]:
        """A player's ratings in the chat, by game."""
        query = select(PlayerRating).where(
            PlayerRating.chat_id == chat_id, PlayerRating.user_id == user_id
        )
        return {row.game: row for row in await self.session.scalars(query)}

    async def rating_history(
        self, chat_id: int, game: str, user_id: int, last: int
    ) -> list[tuple[str, EventRating]]:
        """A player's ``last`` rated events of ``game`` in the chat, oldest first, with
        titles."""
        query = (
            select(Tournament.title, EventRating)
            .join(Tournament, Tournament.id == EventRating.tournament_id)
            .where(
                EventRating.chat_id == chat_id,
                EventRating.game == game,
                EventRating.user_id == user_id,
            )
            .order_by(EventRating.tournament_id.desc())
            .limit(last)
        )
        rows = (await self.session.execute(query)).all()
        return [(title, row) for title, row in rows[::-1]]

    async def rated_events(self, chat_id: int, game: str, since: int) -> list[Tournament]:
        """The chat's events of ``game`` from ``since`` on that are rated (played, not
        cancelled), whole, oldest first: what a correction replays."""
        query = (
            select(Tournament)
            .where(
                Tournament.chat_id == chat_id,
                Tournament.game == game,
                Tournament.id >= since,
                Tournament.status.in_((EventStatus.RUNNING, EventStatus.FINISHED)),
            )
            .order_by(Tournament.id)
            .options(*WHOLE)
        )
        return list(await self.session.scalars(query))

    async def last_game(self, chat_id: int) -> str | None:
        """The game of the chat's latest event past its sign-up."""
        query = (
            select(Tournament.game)
            .where(Tournament.chat_id == chat_id, Tournament.status != EventStatus.SIGNUP)
            .order_by(Tournament.id.desc())
            .limit(1)
        )
        return await self.session.scalar(query)

    async def placings(self, tournament_id: int) -> list[Placing]:
        query = select(Placing).where(Placing.tournament_id == tournament_id)
        return list(await self.session.scalars(query))

    async def unplaced(self, chat_id: int) -> list[Tournament]:
        """The chat's finished events whose places are not kept yet (finished before
        the places were kept), whole: placed once, then never again."""
        kept = select(Placing.tournament_id).where(Placing.tournament_id == Tournament.id)
        query = (
            select(Tournament)
            .where(
                Tournament.chat_id == chat_id,
                Tournament.status == EventStatus.FINISHED,
                ~kept.exists(),
            )
            .order_by(Tournament.id)
            .options(*WHOLE)
        )
        return list(await self.session.scalars(query))

    async def my_events(
        self, chat_id: int, user_id: int, last: int
    ) -> tuple[int, list[tuple[Tournament, Placing | None]]]:
        """The chat's events past sign-up a player took part in (not left before the
        draw): how many, and the ``last`` of them, oldest first, the tournament row alone,
        with their kept place once it finished. A year of events reads no more rows."""
        where = (
            Tournament.chat_id == chat_id,
            Tournament.status != EventStatus.SIGNUP,
            Player.user_id == user_id,
            Player.status != PlayerStatus.LEFT,
        )
        joined = Player.tournament_id == Tournament.id
        count = select(func.count()).select_from(Tournament).join(Player, joined).where(*where)
        query = (
            select(Tournament, Placing)
            .join(Player, joined)
            .outerjoin(
                Placing,
                (Placing.tournament_id == Tournament.id) & (Placing.user_id == user_id),
            )
            .where(*where)
            .order_by(Tournament.id.desc())
            .limit(last)
            .options(*BARE)
        )
        rows = (await self.session.execute(query)).all()
        return int(await self.session.scalar(count) or 0), [(t, kept) for t, kept in rows[::-1]]

    async def season_placings(self, season_id: int) -> list[tuple[Tournament, Placing]]:
        """Every kept place of a season, by event (the tournament row alone), oldest
        first."""
        query = (
            select(Tournament, Placing)
            .join(Placing, Placing.tournament_id == Tournament.id)
            .where(Placing.season_id == season_id, Placing.place.is_not(None))
            .order_by(Tournament.id, Placing.place, Placing.user_id)
            .options(*BARE)
        )
        return [(t, kept) for t, kept in (await self.session.execute(query)).all()]

    async def season_totals(
        self, season_id: int
    ) -> tuple[int, dict[int, tuple[Decimal, int, int, str]]]:
        """A season's events so far, and each player's sum of their kept season points,
        events played, best place and name in their latest event: one pass of the kept
        rows in the database, whatever the season's length."""
        where = (Placing.season_id == season_id, Placing.place.is_not(None))
        totals = (
            select(
                Placing.user_id,
                func.sum(Placing.season_points),
                func.count(),
                func.min(Placing.place),
                func.max(Placing.tournament_id).label("last"),
            )
            .where(*where)
            .group_by(Placing.user_id)
            .subquery()
        )
        query = select(totals, Placing.name).join(
            Placing,
            (Placing.user_id == totals.c.user_id) & (Placing.tournament_id == totals.c.last),
        )
        rows = (await self.session.execute(query)).all()
        events = await self.session.scalar(
            select(func.count(func.distinct(Placing.tournament_id))).where(*where)
        )
        out = {
            user: (Decimal(points or 0), played, best, name)
            for user, points, played, best, _, name in rows
        }
        return int(events or 0), out

    async def season_of(self, chat_id: int, event: int) -> Season | None:
        """The season an event of the chat counts in: the last one started before it."""
        query = (
            select(Season)
            .where(Season.chat_id == chat_id, Season.since_event < event)
            .order_by(Season.id.desc())
            .limit(1)
        )
        return await self.session.scalar(query)

    # --- outbox --------------------------------------------------------------------------
    def enqueue(self, **fields: Any) -> None:
        """Queue a reply; it is inserted with the transaction's other replies."""
        self._later(OUTBOX, fields)

"""One repository facade per update: the handler's only way to the database.

Every method runs inside the caller's transaction; ``audit`` writes the audit-log row in
that same transaction, so a change and its record commit or vanish together.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from db.models import (
    AuditEntry,
    Chat,
    Grant,
    OutboxMessage,
    PenaltyRow,
    Player,
    ProcessedUpdate,
    Report,
    Round,
    TableRow,
    Tournament,
)
from db.status import OutboxStatus, PlayerStatus, RoundStatus

ACTIVE = ("signup", "running")


class Repo:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # --- updates and audit -------------------------------------------------------------
    async def seen_update(self, update_id: int) -> bool:
        return await self.session.get(ProcessedUpdate, update_id) is not None

    def mark_update(self, update_id: int) -> None:
        self.session.add(ProcessedUpdate(update_id=update_id))

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
        self.session.add(
            AuditEntry(
                chat_id=chat_id,
                actor_id=actor_id,
                action=action,
                tournament_id=tournament_id,
                update_id=update_id,
                old=old,
                new=new,
            )
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
        return await self.session.get(Grant, (chat_id, user_id)) is not None

    def grant(self, chat_id: int, user_id: int, by: int) -> None:
        self.session.add(Grant(chat_id=chat_id, user_id=user_id, granted_by=by))

    async def migrate_chat(self, old: int, new: int) -> None:
        """A group became a supergroup: carry settings, grants and events to the new id."""
        for model in (Tournament, Grant, OutboxMessage, AuditEntry):
            await self.session.execute(
                update(model).where(model.chat_id == old).values(chat_id=new)
            )
        old_chat = await self.session.get(Chat, old)
        if old_chat is not None:
            new_chat = await self.chat(new)
            new_chat.lang = new_chat.lang or old_chat.lang
            new_chat.tz = new_chat.tz or old_chat.tz
            await self.session.execute(delete(Chat).where(Chat.id == old))

    # --- tournaments ---------------------------------------------------------------------
    async def active_tournament(self, chat_id: int, thread_id: int | None) -> Tournament | None:
        return await self.session.scalar(
            select(Tournament)
            .where(
                Tournament.chat_id == chat_id,
                Tournament.thread_id == (thread_id or 0),
                Tournament.status.in_(ACTIVE),
            )
            .order_by(Tournament.id.desc())
        )

    async def latest_tournament(self, chat_id: int, thread_id: int | None) -> Tournament | None:
        return await self.session.scalar(
            select(Tournament)
            .where(Tournament.chat_id == chat_id, Tournament.thread_id == (thread_id or 0))
            .order_by(Tournament.id.desc())
        )

    async def tournament(self, tournament_id: int) -> Tournament | None:
        return await self.session.get(Tournament, tournament_id)

    async def add(self, row: Any) -> Any:
        self.session.add(row)
        await self.session.flush()
        return row

    async def report(self, report_id: int) -> Report | None:
        return await self.session.get(Report, report_id)

    async def table(self, table_id: int) -> TableRow | None:
        return await self.session.get(TableRow, table_id)

    async def round_timers(self) -> list[tuple[str, int, int, datetime]]:
        """(kind, tournament id, round number, moment) of what open rounds still wait
        for: their ``deadline`` and their check-in cut-off (``noshow``)."""
        rows = await self.session.execute(
            select(Round.tournament_id, Round.number, Round.deadline, Round.checkin_until).where(
                Round.status == RoundStatus.OPEN
            )
        )
        timers = []
        for t, n, deadline, checkin in rows.all():
            timers += [("deadline", t, n, deadline)] if deadline is not None else []
            timers += [("noshow", t, n, checkin)] if checkin is not None else []
        return timers

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

    def new_player(self, t: Tournament, user_id: int, name: str) -> Player:
        player = Player(user_id=user_id, name=name, status=PlayerStatus.ACTIVE, partners=[])
        t.players.append(player)
        return player

    # --- outbox --------------------------------------------------------------------------
    def enqueue(self, **fields: Any) -> None:
        self.session.add(OutboxMessage(**fields))

    async def queued(self, limit: int = 100) -> list[OutboxMessage]:
        rows = await self.session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.status == OutboxStatus.QUEUED)
            .order_by(OutboxMessage.id)
            .limit(limit)
        )
        return list(rows)

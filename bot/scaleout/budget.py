"""One sending budget for all workers, and a sender that shares the outbox safely.

Every worker delivers outbox rows, so two things must hold across processes:

- **Telegram's limits together**: before each message the worker takes a token from two
  buckets in PostgreSQL (``send_budget``): the bot's (``RATE_PER_SECOND``, ≈30/s) and
  the chat's (``RATE_PER_CHAT_MINUTE``, ≈20/min). Buckets refill on the database's clock;
  a 429 blocks the chat's bucket for exactly ``retry_after`` for every worker.
- **Each message once, in order per chat**: one worker at a time sends to a chat (see
  :class:`SharedSender`).
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import func, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker

from bot.outbox import Queued, Sender
from bot.types import Outgoing, RetryAfter, Transport
from db.outbox import OUTBOX, queued

OUTBOX_LOCKS = 7_301  # advisory-lock namespace for "sending to part k of the chats"
PARTS = 16  # chats are split for sending by chat_id mod PARTS
CLAIM_EVERY = 2.0  # seconds between tries for the parts no live worker holds
POLL_EVERY = 0.5  # seconds between looks at the outbox (other workers' replies)
BOT = "bot"


def _chat_key(chat_id: int) -> str:
    return f"chat:{chat_id}"


class Budget:
    """Token buckets in PostgreSQL: take one from the bot's and the chat's, or say how
    long to wait. Nothing is taken unless both have one, so waiting costs no tokens."""

    def __init__(
        self, sessionmaker: async_sessionmaker[Any], per_second: float, per_chat_minute: float
    ) -> None:
        self.sessionmaker = sessionmaker
        self.rates = {BOT: (per_second, per_second)}  # key -> (tokens a second, capacity)
        self.per_chat = (per_chat_minute / 60.0, per_chat_minute)

    def _rate(self, key: str) -> tuple[float, float]:
        return self.rates.get(key, self.per_chat)

    async def take(self, chat_id: int) -> float:
        """0 when a message to ``chat_id`` may go now (its tokens are taken), else the
        seconds to wait before asking again."""
        keys = sorted((BOT, _chat_key(chat_id)))  # one lock order: no deadlocks
        async with self.sessionmaker() as session, session.begin():
            now = (
                await session.execute(text("SELECT extract(epoch FROM clock_timestamp())"))
            ).scalar_one()
            now = float(now)
            for key in keys:
                await session.execute(
                    text(
                        "INSERT INTO send_budget (key, tokens, at, blocked_until)"
                        " VALUES (:key, :tokens, :now, 0) ON CONFLICT (key) DO NOTHING"
                    ),
                    {"key": key, "tokens": self._rate(key)[1], "now": now},
                )
            rows = (
                await session.execute(
                    text(
                        "SELECT key, tokens, at, blocked_until FROM send_budget"
                        " WHERE key IN (:a, :b) ORDER BY key FOR UPDATE"
                    ),
                    {"a": keys[0], "b": keys[1]},
                )
            ).all()
            wait, filled = 0.0, {}
            for key, tokens, at, blocked_until in rows:
                rate, capacity = self._rate(key)
                filled[key] = min(capacity, tokens + max(0.0, now - at) * rate)
                wait = max(wait, blocked_until - now, (1.0 - filled[key]) / rate)
            taken = 1.0 if wait <= 0 else 0.0
            for key, tokens in filled.items():
                await session.execute(
                    text("UPDATE send_budget SET tokens = :tokens, at = :now WHERE key = :key"),
                    {"key": key, "tokens": tokens - taken, "now": now},
                )
        return max(wait, 0.0)

    async def block(self, chat_id: int, seconds: float) -> None:
        """Telegram said 429 for this chat: nobody sends there for ``seconds``."""
        async with self.sessionmaker() as session, session.begin():
            await session.execute(
                text(
                    "UPDATE send_budget SET blocked_until ="
                    " extract(epoch FROM clock_timestamp()) + :s WHERE key = :key"
                ),
                {"s": seconds, "key": _chat_key(chat_id)},
            )


class _ReportingTransport:
    """The worker's transport, telling the shared budget about every 429."""

    def __init__(self, transport: Transport, budget: Budget) -> None:
        self._transport = transport
        self._budget = budget

    async def send(self, message: Outgoing) -> int:
        try:
            return await self._transport.send(message)
        except RetryAfter as exc:
            await self._budget.block(message.chat_id, exc.seconds)
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class SharedSender(Sender):
    """The outbox sender of one worker among many (PostgreSQL only).

    Chats are split into :data:`PARTS` parts by ``chat_id mod PARTS``; a sender delivers
    only the parts whose advisory locks it holds (on a connection of its own, so a killed
    worker's parts are free at once), and every :data:`CLAIM_EVERY` seconds it tries for
    the parts nobody holds. So each chat has one sender at a time (its replies go out
    once and in order) without a lock round trip per message, and one live worker is
    enough to send everything."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[Any],
        transport: Transport,
        budget: Budget,
        engine: AsyncEngine | None = None,
    ) -> None:
        # The per-chat window is the shared budget's job, not this process's.
        super().__init__(
            sessionmaker, _ReportingTransport(transport, budget), 1_000_000_000, engine=engine
        )
        self.budget = budget
        self.parts: set[int] = set()
        self._locks: AsyncConnection | None = None
        self._claimed_at = 0.0

    async def open(self) -> None:
        conn = await self.engine.connect()
        self._locks = await conn.execution_options(isolation_level="AUTOCOMMIT")

    async def close(self) -> None:
        await self.stop()
        if self._locks is not None:
            await self._locks.close()

    async def _claim_parts(self) -> None:
        """Take the send locks of the parts no live worker holds."""
        assert self._locks is not None, "open() first"
        self._claimed_at = time.monotonic()
        for part in set(range(PARTS)) - self.parts:
            got = await self._locks.scalar(
                text("SELECT pg_try_advisory_lock(:ns, :part)"), {"ns": OUTBOX_LOCKS, "part": part}
            )
            if got:
                self.parts.add(part)

    async def flush_once(self) -> float:
        if len(self.parts) < PARTS and time.monotonic() - self._claimed_at >= CLAIM_EVERY:
            await self._claim_parts()
        wait = await super().flush_once() if self.parts else CLAIM_EVERY
        # Other workers commit replies too and cannot wake this one: look again soon.
        return min(wait, POLL_EVERY)

    async def _queued(self) -> list[Queued]:
        """``db.outbox.queued`` for this sender's parts: waiting rows and claimed ones (a
        dead worker's claim is sent again once its lease runs out)."""
        mine = func.mod(func.abs(OUTBOX.c.chat_id), PARTS).in_(sorted(self.parts))
        return list(await queued(self.conn, mine))

    async def _deliver(self, row: Queued, edit_id: int | None) -> float:
        if row.kind != "react":  # a reaction is not a message: no share of the budget
            wait = await self.budget.take(row.chat_id)
            if wait > 0:
                return wait
        return await super()._deliver(row, edit_id)

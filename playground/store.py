"""The playground's state file: the bot's database and the fake Telegram's world, together.

One SQLite file in the working directory holds both, so a rehearsal survives a restart and
``--fresh`` starts over by deleting one file. The bot owns its tables through its usual
``DATABASE_URL`` and migrations; the world is one JSON row in a table of its own, written
a moment after each change (never on every request).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path

from playground.botapi import BotAPIServer
from playground.botapi.records import JSON

FILENAME = "tourbot-playground.db"
SAVE_DELAY = 0.5  # seconds: a burst of bot messages is written once


class WorldStore:
    """Loads and saves the server's :meth:`~BotAPIServer.snapshot` in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pending: asyncio.TimerHandle | None = None
        self._writing: asyncio.Task[None] | None = None

    @property
    def database_url(self) -> str:
        """The bot's ``DATABASE_URL``: the same file."""
        return f"sqlite+aiosqlite:///{self.path}"

    def delete(self) -> None:
        """``--fresh``: the file and SQLite's journal files next to it."""
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def load(self) -> JSON | None:
        """The saved world, or ``None`` for a new file."""
        with contextlib.closing(self._connect()) as db:
            row = db.execute("SELECT state FROM playground_world WHERE id = 1").fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def save_soon(self, server: BotAPIServer) -> None:
        """Write the world :data:`SAVE_DELAY` seconds from now, once for many changes."""
        if self._pending is None:
            loop = asyncio.get_running_loop()
            self._pending = loop.call_later(SAVE_DELAY, self._save, server)

    async def flush(self, server: BotAPIServer) -> None:
        """Write now (at shutdown), after any write under way."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._writing is not None:
            await self._writing
        await asyncio.to_thread(self._write, json.dumps(server.snapshot(), ensure_ascii=False))

    def _save(self, server: BotAPIServer) -> None:
        self._pending = None
        text = json.dumps(server.snapshot(), ensure_ascii=False)  # consistent: on the loop
        previous = self._writing

        async def write() -> None:
            if previous is not None:
                await previous
            await asyncio.to_thread(self._write, text)

        self._writing = asyncio.ensure_future(write())

    def _write(self, text: str) -> None:
        with contextlib.closing(self._connect()) as db, db:
            db.execute("INSERT OR REPLACE INTO playground_world (id, state) VALUES (1, ?)", (text,))

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        db.execute(
            "CREATE TABLE IF NOT EXISTS playground_world (id INTEGER PRIMARY KEY, state TEXT)"
        )
        return db

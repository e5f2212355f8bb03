"""A year of events in one group (docs/performance.md#history): does a command cost the
same after 150 events as after one, and how much does each event leave in the database?
Prints the figures, asserts nothing.

The real core in memory (``tests.handlers.memory``: one transaction per update, the
outbox and its ``Sender``, pictures drawn in the drawing process) plays whole 16-player
Big Two events in one group, one a week on the bot's clock: sign-ups, the draw, every
table reported by its captain (a session of ten hands, so that everyone is rated from the
first event on) and confirmed by the next seat, to the champion, in a season scored by
rating. Old rows are pruned as the scheduler would at one event a week
(``db.retention``: what is older than the two latest events goes). After N = 1, 10, 50,
150 finished events (``--quick``: 1, 10) it takes copies of the database and times, on
them, each command as a player sends it, reply delivered: warm (this process, which has
played every event; the median of 5 after one run to warm up) and in a fresh process
(the median of 5 processes, each timing its first command; imports not counted):

- ``/rating``, ``/me``, ``/season``, ``/standings`` after N events;
- ``/report`` + ``/confirm`` of a table of round 1 of the next event;
- the ``/confirm`` that ends the next event (its final's result).

Then the ratio N=150 / N=1 (largest over smallest N run), the database's bytes per
finished event (in use: SQLite's pages less its free list, PostgreSQL's database size)
overall and since the previous N, the same table in CPU time (the bot's process and its
drawing process: what the command costs, whatever else the machine runs meanwhile), and
the rows of each table.

``python -m benchmarks.history [--quick] [--sizes 1,10,50] [--dbs sqlite,postgres]
[--postgres URL] [--samples 5]``. PostgreSQL (``--postgres`` or ``TEST_DATABASE_URL``)
gets databases of its own beside the one named, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.application.types import Delivered, Outgoing
from bot.presentation.pictures import close_drawer, draw
from db.migrate import upgrade
from db.models import Base, Tournament
from db.retention import prune
from db.session import make_engine
from db.status import EventStatus
from tests.handlers.memory import Chats, MemoryTransport, Sent

SIZES, QUICK = (1, 10, 50, 150), (1, 10)
SAMPLES = 5
GROUP, ADMIN = -100500, 1
PLAYERS = tuple(range(1001, 1017))  # sixteen: four tables of Big Two, then the final
# A table plays a session of ten hands and its captain reports them at once: every
# player has the ten rated hands a rating needs (docs/rules/ratings.md#provisional) after
# round 1 of the first event, so /rating and /me send their picture at every N (with one
# hand a table they answered in words until about N = 10). Distinct totals: no play-off.
HANDS_A_TABLE = 10
RESULT = "; ".join(["A5 B8 C0 D12"] * HANDS_A_TABLE)
KEPT_EVENTS = 2  # one event a week, RETENTION_DAYS 14
START = datetime(2026, 1, 5, 2, 0, tzinfo=UTC)
READS = ("/rating", "/me", "/season", "/standings")
COLUMNS = (*READS, "/report + /confirm", "ending /confirm")
Steps = list[tuple[int, str]]  # (user id, text) sent one after the other
Pair = tuple[float, float]  # warm, fresh


class BenchTransport(MemoryTransport):
    """Telegram in memory for a copy of the database: the messages and files the bot
    sent before the copy (in another transport) are taken as Telegram has them."""

    def __init__(self, first_id: int) -> None:
        super().__init__()
        self._ids = itertools.count(first_id)

    async def send(self, message: Outgoing) -> Delivered:
        target = message.edit_message_id
        if message.kind.startswith("edit") and target and target not in self.messages:
            self.messages[target] = Sent(target, message.chat_id, "photo", "", None)
        if message.file_id and message.file_id not in self.files:
            self.files[message.file_id] = b"sent before"
        return await super().send(message)


def bench_chats(url: str, now: datetime, first_id: int) -> Chats:
    """The core in memory on ``url``, the group's people known, update and message ids
    from ``first_id`` on (a copy of the database has seen the lower ones)."""
    chats = Chats(make_engine(url), now)
    chats.transport = chats.core.transport = BenchTransport(first_id)
    chats._updates = itertools.count(first_id)
    chats.user(ADMIN, "组织者")
    for uid in PLAYERS:
        chats.user(uid, f"选手{uid - 1000}")
    chats.admins(GROUP, ADMIN)
    return chats


async def cpu_now() -> float:
    """CPU seconds so far of this process and of its drawing process, where a reply's
    pictures are drawn (PostgreSQL's server is not counted)."""
    return time.process_time() + await draw(time.process_time)


async def timed(chats: Chats, steps: Steps) -> tuple[float, float]:
    """Milliseconds from the first message to the last reply delivered, and the CPU
    milliseconds they took (:func:`cpu_now`): the machine is shared, and what other
    processes take from it lengthens the first, not the second."""
    cpu, started = await cpu_now(), time.perf_counter()
    for uid, words in steps:
        await chats.says(GROUP, uid, words)
    took = (time.perf_counter() - started) * 1000
    return took, (await cpu_now() - cpu) * 1000


# --------------------------------------------------------------------------- databases


class Store:
    """One database the events are played in, and copies of it to time commands on."""

    url: str

    async def copy(self, source: str) -> str:
        """A new database holding what ``source`` (this store's or a copy) holds: its URL."""
        raise NotImplementedError

    async def drop(self, url: str) -> None:
        raise NotImplementedError

    async def used_bytes(self) -> int:
        raise NotImplementedError

    async def tidy(self, engine: AsyncEngine) -> None:
        """After each event (and its pruning): what the database server does by itself
        to reuse the space of rows deleted or updated (SQLite reuses its free pages)."""

    async def close(self) -> None:
        """Drop what this store made."""


@dataclass
class SqliteStore(Store):
    folder: Path
    copies: itertools.count[int] = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        self.path = self.folder / "history.db"
        self.url = f"sqlite+aiosqlite:///{self.path}"

    async def copy(self, source: str) -> str:
        target = self.folder / f"copy-{next(self.copies)}.db"
        origin = str(make_url(source).database)
        with closing(sqlite3.connect(origin)) as db, closing(sqlite3.connect(target)) as dest:
            db.backup(dest)  # consistent with the WAL
        return f"sqlite+aiosqlite:///{target}"

    async def drop(self, url: str) -> None:
        path = Path(str(make_url(url).database))
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    async def used_bytes(self) -> int:
        with closing(sqlite3.connect(self.path)) as db:
            pages, size, free = (
                db.execute(f"PRAGMA {name}").fetchone()[0]
                for name in ("page_count", "page_size", "freelist_count")
            )
        return int((pages - free) * size)


@dataclass
class PostgresStore(Store):
    """A database of its own beside ``base``; copies are ``CREATE DATABASE … TEMPLATE``
    (which wants nobody connected to the original: :meth:`copy` is given a moment when
    the bot's engine is disposed)."""

    base: str
    made: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.name = f"{make_url(self.base).database}_history_{uuid.uuid4().hex[:6]}"
        self.url = self._url(self.name)
        self.admin = create_async_engine(make_url(self.base), isolation_level="AUTOCOMMIT")

    def _url(self, name: str) -> str:
        return make_url(self.base).set(database=name).render_as_string(hide_password=False)

    async def create(self) -> None:
        await self._run(f'CREATE DATABASE "{self.name}"')
        self.made.append(self.name)

    async def _run(self, statement: str) -> None:
        async with self.admin.connect() as conn:
            await conn.execute(text(statement))

    async def copy(self, source: str) -> str:
        name = f"{self.name}_{len(self.made)}"
        await self._run(f'CREATE DATABASE "{name}" TEMPLATE "{make_url(source).database}"')
        self.made.append(name)
        return self._url(name)

    async def drop(self, url: str) -> None:
        name = str(make_url(url).database)
        await self._run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.made.remove(name)

    async def used_bytes(self) -> int:
        async with self.admin.connect() as conn:
            size = await conn.scalar(text(f"SELECT pg_database_size('{self.name}')"))
        return int(size or 0)

    async def tidy(self, engine: AsyncEngine) -> None:
        """``VACUUM``, as autovacuum does on a server left at its defaults: a test server
        may run without it, and then every picture the outbox kept until it was sent
        stays in the file as a dead row version (1.5 MB an event)."""
        async with engine.connect() as conn:
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("VACUUM"))

    async def close(self) -> None:
        for name in list(reversed(self.made)):
            await self._run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.made.clear()
        await self.admin.dispose()


# --------------------------------------------------------------------------- the events


@dataclass
class Figures:
    """What one N gave: (warm, fresh) ms and CPU ms per command, bytes in use, rows per
    table."""

    events: int
    times: dict[str, tuple[float, float]]
    cpu: dict[str, tuple[float, float]]
    used: int
    rows: dict[str, int]


class History:
    """The group, its events played one after another on ``store``."""

    def __init__(self, store: Store, samples: int = SAMPLES) -> None:
        self.store, self.samples = store, samples
        self.chats = bench_chats(store.url, START, 1)
        self.played = 0
        self.started: list[datetime] = []  # each event's first moment, on the database's clock
        self.copies = itertools.count(1)

    async def begin(self) -> None:
        await upgrade(self.chats.engine)
        await self.chats.says(GROUP, ADMIN, "/season start 2026 rating")

    async def tables(self) -> list[list[int]]:
        """The seats of the latest round's tables, of the latest event."""
        async with self.chats.sessionmaker() as session:
            t = await session.scalar(select(Tournament).order_by(Tournament.id.desc()))
            assert t is not None
            return [list(row.seats) for row in t.rounds[-1].tables]

    async def status(self) -> str:
        async with self.chats.sessionmaker() as session:
            found = await session.scalar(select(Tournament.status).order_by(Tournament.id.desc()))
        return str(found)

    async def to_round_one(self) -> None:
        """A new event of the week, its sign-ups drawn and round 1 open."""
        self.chats.later(days=7)
        self.started.append(datetime.now(UTC))
        await self.chats.says(GROUP, ADMIN, f"/new bigtwo 第{self.played + 1}周锄大地")
        for uid in PLAYERS:
            await self.chats.says(GROUP, uid, "/join")
        await self.chats.says(GROUP, ADMIN, "/draw")
        await self.chats.says(GROUP, ADMIN, "/round")

    async def to_final_report(self) -> list[int]:
        """Every round's tables reported and confirmed, up to the final's report (its
        confirmation ends the event); the final's seats."""
        while True:
            tables = await self.tables()
            if len(tables) == 1:
                await self.report(1, tables[0])
                return tables[0]
            for number, seats in enumerate(tables, 1):
                await self.report(number, seats)
                await self.chats.says(GROUP, seats[1], "/confirm")
            await self.chats.says(GROUP, ADMIN, "/round")

    async def report(self, number: int, seats: list[int]) -> None:
        self.chats.later(minutes=7)
        await self.chats.says(GROUP, seats[0], f"/report {number} {RESULT}")

    async def finish(self, final: list[int]) -> None:
        await self.chats.says(GROUP, final[1], "/confirm")
        assert await self.status() == EventStatus.FINISHED, "the event did not finish"
        self.played += 1
        if len(self.started) > KEPT_EVENTS:  # as the scheduler prunes, one event a week
            await prune(self.chats.engine, self.started[-KEPT_EVENTS - 1])
        await self.store.tidy(self.chats.engine)

    async def play_to(self, events: int) -> None:
        while self.played < events:
            await self.to_round_one()
            await self.finish(await self.to_final_report())

    async def snapshot(self) -> str:
        """A copy of the database as it is now (nobody else connected to it)."""
        await self.chats.engine.dispose()
        return await self.store.copy(self.store.url)

    async def measure(self) -> Figures:
        """The figures after the events played so far; the next event is played to its
        end meanwhile (its states are what the writing commands are timed on)."""
        events, used, rows = self.played, await self.store.used_bytes(), await self.rows()
        after = await self.snapshot()
        await self.to_round_one()
        round_one, first = await self.snapshot(), (await self.tables())[0]
        final = await self.to_final_report()
        final_report = await self.snapshot()
        await self.finish(final)
        both = {
            command: await self.both(after, [(PLAYERS[0], command)], fresh_copy=False)
            for command in READS
        }
        report = [(first[0], f"/report 1 {RESULT}"), (first[1], "/confirm")]
        both["/report + /confirm"] = await self.both(round_one, report)
        both["ending /confirm"] = await self.both(final_report, [(final[1], "/confirm")])
        for url in (after, round_one, final_report):
            await self.store.drop(url)
        times = {command: wall for command, (wall, _) in both.items()}
        cpu = {command: used for command, (_, used) in both.items()}
        return Figures(events, times, cpu, used, rows)

    async def rows(self) -> dict[str, int]:
        async with self.chats.sessionmaker() as session:
            return {
                name: int(await session.scalar(select(func.count()).select_from(table)) or 0)
                for name, table in Base.metadata.tables.items()
            }

    async def both(self, url: str, steps: Steps, fresh_copy: bool = True) -> tuple[Pair, Pair]:
        """Median (warm, fresh) ms and CPU ms of ``steps``, warm (here) and in fresh
        processes, each on a copy of ``url`` (``fresh_copy`` False: all on ``url``
        itself, for commands that change nothing a later sample reads)."""
        warm, fresh = [], []
        for sample in range(self.samples + 1):
            async with self.copy_of(url, fresh_copy) as target:
                chats = bench_chats(target, self.chats.now, self.first_id())
                try:
                    took = await timed(chats, steps)
                finally:
                    await chats.engine.dispose()
            if sample:  # the first one warms up
                warm.append(took)
        for _ in range(self.samples):
            async with self.copy_of(url, fresh_copy) as target:
                fresh.append(probe(target, self.chats.now, self.first_id(), steps))
        wall = statistics.median(w for w, _ in warm), statistics.median(w for w, _ in fresh)
        cpu = statistics.median(c for _, c in warm), statistics.median(c for _, c in fresh)
        return wall, cpu

    def first_id(self) -> int:
        """Update and message ids no copy has seen yet."""
        return 10**9 + next(self.copies) * 10**5

    @asynccontextmanager
    async def copy_of(self, url: str, fresh: bool) -> AsyncIterator[str]:
        if not fresh:
            yield url
            return
        target = await self.store.copy(url)
        try:
            yield target
        finally:
            await self.store.drop(target)


def probe(url: str, now: datetime, first_id: int, steps: Steps) -> Pair:
    """``steps`` timed in a fresh process: its ms and CPU ms."""
    spec = json.dumps({"url": url, "now": now.isoformat(), "first": first_id, "steps": steps})
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.history", "--probe", spec],
        capture_output=True,
        text=True,
        check=True,
    )
    took, cpu = done.stdout.strip().splitlines()[-1].split()
    return float(took), float(cpu)


async def run_probe(spec: dict[str, Any]) -> None:
    """One fresh process's timing. Its drawing process is started (and its modules
    imported) first: that is the process starting, like its imports."""
    await draw(exec, "import charts.sheet, charts.podium, charts.ratings, charts.progression")
    chats = bench_chats(spec["url"], datetime.fromisoformat(spec["now"]), spec["first"])
    try:
        took, cpu = await timed(chats, [(int(uid), str(words)) for uid, words in spec["steps"]])
    finally:
        await chats.engine.dispose()
        close_drawer()
    print(f"{took:.3f} {cpu:.3f}")


# --------------------------------------------------------------------------- the tables


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = [header, ["---"] * len(header), *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


def pairs(figures: list[Figures], measured: list[dict[str, Pair]]) -> list[list[str]]:
    """Per N, each command's (warm, fresh) ``measured`` figures (times or CPU times);
    then the ratio of the largest N to the smallest."""
    lines = [
        [str(f.events), *(f"{m[c][0]:,.0f} / {m[c][1]:,.0f}" for c in COLUMNS)]
        for f, m in zip(figures, measured, strict=True)
    ]
    first, last = measured[0], measured[-1]
    ratio = [f"N={figures[-1].events} / N={figures[0].events}"]
    ratio += [f"{last[c][0] / first[c][0]:.2f}× / {last[c][1] / first[c][1]:.2f}×" for c in COLUMNS]
    return [*lines, ratio]


def report(name: str, figures: list[Figures]) -> str:
    """The tables for one database: times and bytes by N, the ratio; CPU time by N, the
    ratio; rows by table."""
    head = ["N events", *(f"{c} warm / fresh ms" for c in COLUMNS)]
    head += ["KB per event", "KB per event since the previous N"]
    lines = pairs(figures, [f.times for f in figures])
    for i, f in enumerate(figures):
        since = "—"
        if i and f.events > figures[i - 1].events:
            gained = (f.used - figures[i - 1].used) / (f.events - figures[i - 1].events)
            since = f"{gained / 1024:,.1f}"
        lines[i] += [f"{f.used / f.events / 1024:,.1f}", since]
    lines[-1] += ["", ""]
    cpu = table(
        ["N events", *(f"{c} warm / fresh CPU ms" for c in COLUMNS)],
        pairs(figures, [f.cpu for f in figures]),
    )
    rows = table(
        ["table", *(f"N={f.events}" for f in figures)],
        [[name, *(str(f.rows[name]) for f in figures)] for name in figures[0].rows],
    )
    return (
        f"## {name}\n\n{table(head, lines)}\n\n"
        f"CPU time (this process and its drawing process; not the database server's):\n\n"
        f"{cpu}\n\nRows per table:\n\n{rows}\n"
    )


async def bench(store: Store, sizes: tuple[int, ...], name: str, samples: int) -> None:
    """Play and measure each N; the tables so far are printed after each (a long run
    stopped early still leaves its figures)."""
    history = History(store, samples)
    await history.begin()
    figures = []
    try:
        for size in sizes:
            started = time.perf_counter()
            await history.play_to(size)
            figures.append(await history.measure())
            took = time.perf_counter() - started
            print(f"{name}: N={size} played and measured in {took:.0f}s", flush=True)
            print(report(name, figures), flush=True)
    finally:
        await history.chats.engine.dispose()


@contextmanager
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="tourbot-history-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def main(sizes: tuple[int, ...], dbs: list[str], postgres: str, samples: int) -> None:
    for db in dbs:
        if db == "sqlite":
            with folder() as path:
                await bench(SqliteStore(path), sizes, "sqlite", samples)
        elif not postgres:
            print("postgres: skipped (no --postgres and no TEST_DATABASE_URL)", flush=True)
        else:
            store = PostgresStore(postgres)
            await store.create()
            try:
                await bench(store, sizes, "postgres", samples)
            finally:
                await store.close()


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="N = 1, 10 only")
    parser.add_argument("--sizes", help="comma-separated N, e.g. 1,10,50")
    parser.add_argument("--dbs", default="sqlite,postgres")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="runs a median is of")
    parser.add_argument("--postgres", default=os.environ.get("TEST_DATABASE_URL", ""))
    parser.add_argument("--probe", help=argparse.SUPPRESS)  # a fresh process's one timing
    args = parser.parse_args()
    if args.probe:
        asyncio.run(run_probe(json.loads(args.probe)))
        return
    sizes: tuple[int, ...] = QUICK if args.quick else SIZES
    if args.sizes:
        sizes = tuple(int(n) for n in args.sizes.split(","))
    asyncio.run(main(sizes, args.dbs.split(","), args.postgres, args.samples))


if __name__ == "__main__":
    cli()

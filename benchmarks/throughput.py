"""Throughput benchmark (docs/performance.md): tourbot beside bare echo bots, on one local Bot
API server.

The driver (this process) runs the local Bot API server (``playground/botapi``) and plays the
users; each bot runs in its own process, so its CPU, garbage-collection time and memory
are its own. For every backend (aiogram, PTB) and database (SQLite, PostgreSQL):

- one event: N ``/join`` in blocks, P ``/players``, ``/draw`` and ``/round``, R
  ``/report`` + ``/confirm`` (one table each) and S ``/standings``; each burst is queued at
  once and timed until its last reply reaches the server;
- G groups x 20 updates (``/new``, 18 ``/join``, ``/players``), interleaved across groups;
- latency at a low rate: ``/join`` one at a time in a fresh group, push to its answer;
- the first ``/standings`` after the results (its picture is drawn then) with a ``/help``
  in another chat sent right behind it: is that reply held up by the picture?

A bare aiogram and a bare PTB echo bot get the same bursts (one echo per update). The
table gives updates/s, the ratio to the bare bot of the same backend, p50/p99 latency,
CPU ms per update, GC share of CPU and RSS. The server's own ceiling (sendMessage/s from
a separate client process) is printed first: a bot near it is measuring the server.

Not a timed test: ``python -m benchmarks.throughput [--quick] [--backends aiogram,ptb]
[--dbs sqlite,postgres]``. PostgreSQL needs ``BENCH_DATABASE_URL`` or ``TEST_DATABASE_URL``
(its schema is dropped: give it a database of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Settings

TOKEN = "123456:TEST"
ADMIN = 1
BIG = -100900
LATENCY_CHAT = -100901
SIDE_CHAT = -100902
FIRST_USER = 10_000


@dataclass(frozen=True)
class Sizes:
    joins: int
    block: int
    players: int
    reports: int
    standings: int
    groups: int
    latency: int


FULL = Sizes(
    joins=2000, block=500, players=500, reports=500, standings=30, groups=1000, latency=100
)
QUICK = Sizes(joins=400, block=100, players=100, reports=100, standings=10, groups=100, latency=50)


# --------------------------------------------------------------------------- bot processes


def _stats() -> dict[str, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    rss = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return {"cpu": (usage.ru_utime + usage.ru_stime) * 1000, "gc": _GC["ms"], "rss": rss}


_GC = {"ms": 0.0, "start": 0.0}


def _gc_timer(phase: str, info: dict[str, Any]) -> None:
    """CPU time of the collecting thread (wall time would count the machine's load)."""
    if phase == "start":
        _GC["start"] = time.thread_time()
    else:
        _GC["ms"] += (time.thread_time() - _GC["start"]) * 1000


def _answer_stats_on_request() -> None:
    """Answer each ``stats`` line on stdin with one JSON line on stdout."""

    def loop() -> None:
        for line in sys.stdin:
            if line.strip() == "stats":
                print("STATS " + json.dumps(_stats()), flush=True)

    threading.Thread(target=loop, daemon=True).start()


async def _run_tourbot(url: str, backend: str, database_url: str) -> None:
    from bot.app import App
    from bot.config import Settings

    settings = Settings(
        bot_token=TOKEN,
        bot_api_url=url,
        backend=backend,
        database_url=database_url,
        per_chat_per_minute=1_000_000,
        poll_timeout=1,
    )
    app = App(settings)
    await app.start()
    print("READY", flush=True)
    await asyncio.Event().wait()


async def _run_bare_aiogram(url: str) -> None:
    from aiogram import Bot, Dispatcher
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer
    from aiogram.types import Message

    bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(url)))
    dp = Dispatcher()

    @dp.message()
    async def echo(message: Message) -> None:
        await bot.send_message(message.chat.id, message.text or "-")

    await bot.get_me()
    print("READY", flush=True)
    await dp.start_polling(bot, handle_signals=False, polling_timeout=1)


async def _run_bare_ptb(url: str) -> None:
    from telegram import Update
    from telegram.ext import Application, ContextTypes, MessageHandler, filters

    app = Application.builder().token(TOKEN).base_url(url + "/bot").build()

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message is not None:
            await context.bot.send_message(message.chat_id, message.text or "-")

    app.add_handler(MessageHandler(filters.ALL, echo))
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1)
        print("READY", flush=True)
        await asyncio.Event().wait()


async def _run_ceiling(url: str, seconds: float = 2.0, concurrency: int = 8) -> None:
    """Hammer the server with sendMessage from one client process; print requests/s."""
    import aiohttp

    done = 0
    stop = time.monotonic() + seconds

    async def worker(session: aiohttp.ClientSession) -> None:
        nonlocal done
        while time.monotonic() < stop:
            async with session.post(
                f"{url}/bot{TOKEN}/sendMessage", json={"chat_id": SIDE_CHAT, "text": "x"}
            ) as response:
                await response.read()
            done += 1

    async with aiohttp.ClientSession() as session:
        await asyncio.gather(*(worker(session) for _ in range(concurrency)))
    print("CEILING " + json.dumps({"per_s": done / seconds}), flush=True)


def child_main(kind: str, url: str, backend: str, database_url: str) -> None:
    gc.callbacks.append(_gc_timer)
    _answer_stats_on_request()
    if kind == "tourbot":
        asyncio.run(_run_tourbot(url, backend, database_url))
    elif kind == "bare" and backend == "aiogram":
        asyncio.run(_run_bare_aiogram(url))
    elif kind == "bare":
        asyncio.run(_run_bare_ptb(url))
    else:
        asyncio.run(_run_ceiling(url))


class Child:
    """A bot in its own process, asked for its CPU, GC time and RSS between phases."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, kind: str, url: str, backend: str = "", database_url: str = "") -> Child:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.throughput",
            "--child",
            kind,
            url,
            backend,
            database_url,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(proc)

    async def line(self, prefix: str, timeout: float = 120) -> str:
        assert self.proc.stdout is not None
        while True:
            raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
            if not raw:
                raise RuntimeError(f"bot process ended before {prefix}")
            text = raw.decode().strip()
            if text.startswith(prefix):
                return text.removeprefix(prefix).strip()

    async def stats(self) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"stats\n")
        await self.proc.stdin.drain()
        return dict(json.loads(await self.line("STATS")))

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.terminate()
            await self.proc.wait()


# --------------------------------------------------------------------------- the driver


@dataclass
class Result:
    name: str
    backend: str
    rates: dict[str, float] = field(default_factory=dict)
    latency: list[float] = field(default_factory=list)
    standings_ms: float = 0.0
    side_ms: float = 0.0
    updates: int = 0
    cpu_ms: float = 0.0
    gc_ms: float = 0.0
    idle_rss: float = 0.0
    peak_rss: float = 0.0


class Driver:
    def __init__(self, server: Any, sizes: Sizes, echo: bool) -> None:
        self.server = server
        self.sizes = sizes
        self.echo = echo  # a bare bot: no tables to read, just one echo per update

    @property
    def outputs(self) -> int:
        """Answers so far: messages sent or edited, and messages reacted to (a typed
        ``/join`` is answered with a 👍 on it, the sign-up count edits merging)."""
        return int(self.server.output_count) + len(self.server.reactions)

    async def until(self, count: int, timeout: float = 600) -> float:
        """Wait until the server has seen ``count`` outputs; the moment it did."""
        deadline = time.monotonic() + timeout
        while self.outputs < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.outputs}/{count} outputs after {timeout}s")
            await asyncio.sleep(0.002)
        return time.perf_counter()

    async def burst(self, pushes: list[tuple[int, int, str]]) -> float:
        """Queue every update at once; seconds until the last reply arrived."""
        target = self.outputs + len(pushes)
        start = time.perf_counter()
        for chat, uid, text in pushes:
            self.server.user_says(chat, uid, text)
        end = await self.until(target)
        await self.server.wait_idle(quiet=0.3, timeout=600)
        return end - start

    async def rate(self, pushes: list[tuple[int, int, str]]) -> float:
        return len(pushes) / await self.burst(pushes)

    async def one(self, chat: int, uid: int, text: str) -> float:
        """Seconds from one update to its reply."""
        target = self.outputs + 1
        start = time.perf_counter()
        self.server.user_says(chat, uid, text)
        return await self.until(target, timeout=60) - start

    async def joins(self, chat: int, uid: int) -> float:
        """Seconds from a typed ``/join`` to its own answer: tourbot's 👍 on it, a bare
        bot's echo. Counting any output instead let the groups' last count edits (spaced
        by the edit gap, still arriving when this starts) pass for answers."""
        if self.echo:
            return await self.one(chat, uid, "/join")
        start = time.perf_counter()
        key = (chat, self.server.user_says(chat, uid, "/join")["message_id"])
        while key not in self.server.reactions:
            if time.perf_counter() - start > 60:
                raise TimeoutError(f"no 👍 on message {key[1]} in chat {chat}")
            await asyncio.sleep(0.002)
        return time.perf_counter() - start

    async def side_by_side(self, player: int, other: int) -> tuple[float, float]:
        """The first /standings after the results (its picture is drawn now) and a /help
        in another chat right behind it: ms until each reply."""
        outbox = self.server.outbox
        before = {chat: len(outbox(chat)) for chat in (BIG, SIDE_CHAT)}
        start = time.perf_counter()
        self.server.user_says(BIG, player, "/standings")
        self.server.user_says(SIDE_CHAT, other, "/help")
        arrived: dict[int, float] = {}
        while len(arrived) < len(before):
            for chat, count in before.items():
                if chat not in arrived and len(outbox(chat)) > count:
                    arrived[chat] = 1000 * (time.perf_counter() - start)
            await asyncio.sleep(0.002)
        return arrived[BIG], arrived[SIDE_CHAT]

    async def run(self, result: Result, tables: Callable[[], Any]) -> None:
        s = self.sizes
        users = [FIRST_USER + i for i in range(s.joins)]
        await self.one(BIG, ADMIN, "/new bigtwo 基准赛")
        await self.server.wait_idle(quiet=0.3)
        for i in range(0, s.joins, s.block):
            block = users[i : i + s.block]
            result.rates[f"join{i // s.block + 1}"] = await self.rate(
                [(BIG, uid, "/join") for uid in block]
            )
        result.updates += s.joins
        result.rates["players"] = await self.rate(
            [(BIG, users[i % len(users)], "/players") for i in range(s.players)]
        )
        result.updates += s.players
        await self.one(BIG, ADMIN, "/draw")
        await self.server.wait_idle(quiet=0.5, timeout=120)
        # A deadline within a round's longest (366 days): a refused /round would leave
        # every /report below refused too, and the rate would be the refusals'.
        await self.one(BIG, ADMIN, "/round 3 天内")
        await self.server.wait_idle(quiet=0.5, timeout=120)
        seats = (
            [(n, users[4 * n - 4 : 4 * n], "") for n in range(1, s.reports + 1)]
            if self.echo
            else await tables()
        )
        chosen = seats[: s.reports]
        spent = await self.burst(
            [(BIG, sts[0], f"/report {n} A5 B8 C0 D12") for n, sts, _ in chosen]
        )
        spent += await self.burst([(BIG, sts[1], "/confirm") for n, sts, _ in chosen])
        if not self.echo:
            confirmed = sum(status == "confirmed" for _, _, status in await tables())
            if confirmed != len(chosen):
                raise RuntimeError(f"{confirmed} of {len(chosen)} reported tables confirmed")
        result.rates["report"] = 2 * len(chosen) / spent
        result.updates += 2 * len(chosen)
        result.standings_ms, result.side_ms = await self.side_by_side(users[0], users[1])
        await self.server.wait_idle(quiet=0.3)
        result.rates["standings"] = await self.rate(
            [(BIG, users[i], "/standings") for i in range(s.standings)]
        )
        result.updates += s.standings + 2
        # Many small groups, interleaved.
        groups = [-200_000 - g for g in range(s.groups)]
        for chat in groups:
            self.server.add_chat(chat, "小组", admins=[ADMIN])
        steps = [(ADMIN, "/new bigtwo")] + [(users[k], "/join") for k in range(18)]
        steps.append((users[0], "/players"))
        result.rates["groups"] = await self.rate(
            [(chat, uid, text) for uid, text in steps for chat in groups]
        )
        result.updates += 20 * s.groups
        # Latency at a low rate: once the groups' last count edits are out (each waits
        # the edit gap after the one before), so that the /join measured are all there is.
        await self.server.wait_idle(quiet=Settings.edit_gap + 0.5, timeout=600)
        await self.one(LATENCY_CHAT, ADMIN, "/new bigtwo")
        for uid in users[: s.latency]:
            result.latency.append(1000 * await self.joins(LATENCY_CHAT, uid))
            await asyncio.sleep(0.01)


async def _fresh_postgres(url: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


def _table_reader(database_url: str) -> Callable[[], Any]:
    async def read() -> list[tuple[int, list[int], str]]:
        from sqlalchemy import select
        from sqlalchemy.ext.asyncio import create_async_engine

        from db.models import Round, TableRow

        engine = create_async_engine(database_url)
        async with engine.connect() as conn:
            round_id = await conn.scalar(select(Round.id).order_by(Round.id.desc()).limit(1))
            rows = await conn.execute(
                select(TableRow.number, TableRow.seats, TableRow.status)
                .where(TableRow.round_id == round_id)
                .order_by(TableRow.number)
            )
            found = [(n, list(seats), str(status)) for n, seats, status in rows.all()]
        await engine.dispose()
        return found

    return read


async def measure(kind: str, backend: str, db: str, sizes: Sizes, pg_url: str) -> Result:
    from playground.botapi import BotAPIServer

    server = BotAPIServer(TOKEN)
    await server.start()
    server.add_user(ADMIN, "组织者")
    for i in range(sizes.joins):
        server.add_user(FIRST_USER + i, f"选手{i}", username=f"u{FIRST_USER + i}")
    for chat in (BIG, LATENCY_CHAT, SIDE_CHAT):
        server.add_chat(chat, "基准群", admins=[ADMIN])
    database_url = ""
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "tourbot":
            if db == "postgres":
                await _fresh_postgres(pg_url)
                database_url = pg_url
            else:
                database_url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        child = await Child.start(kind, server.url, backend, database_url)
        try:
            await child.line("READY")
            await asyncio.sleep(1.0)
            idle = await child.stats()
            name = f"tourbot {db}" if kind == "tourbot" else "bare"
            result = Result(name, backend, idle_rss=idle["rss"])
            driver = Driver(server, sizes, echo=kind != "tourbot")
            await driver.run(result, _table_reader(database_url))
            after = await child.stats()
            result.cpu_ms = after["cpu"] - idle["cpu"]
            result.gc_ms = after["gc"] - idle["gc"]
            result.peak_rss = after["rss"]
        finally:
            await child.stop()
            await server.stop()
    return result


async def ceiling() -> float:
    from playground.botapi import BotAPIServer

    server = BotAPIServer(TOKEN)
    await server.start()
    server.add_chat(SIDE_CHAT, "ceiling", admins=[ADMIN])
    child = await Child.start("ceiling", server.url)
    try:
        return float(json.loads(await child.line("CEILING"))["per_s"])
    finally:
        await child.stop()
        await server.stop()


def chart_seconds(players: int = 256) -> tuple[float, float]:
    """Cold (first, with imports) and warm render time of the standings picture
    ``/standings`` sends for ``players`` players (its first page)."""
    start = time.perf_counter()
    from charts.sheet import ROWS_PER_PAGE, Row, Sheet, sheet_pngs

    rows = tuple(Row((str(i + 1), f"选手{i}", str(300 - i))) for i in range(players))[
        :ROWS_PER_PAGE
    ]
    sheet = Sheet("基准赛", "第 3 轮后", ("名次", "选手", "积分"), (0.15, 0.6, 0.25), "clr", rows)
    sheet_pngs(sheet)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    sheet_pngs(sheet)
    return cold, time.perf_counter() - start


# --------------------------------------------------------------------------- the table


HEADER = (
    "| bot | backend | join/s first→last block | players/s | report/s | standings/s "
    "| groups/s | vs bare (join, report, groups) | p50 / p99 ms | first /standings ms, "
    "another chat's reply behind it ms | CPU ms/update | GC share | idle / end RSS MB |"
)


def print_header() -> None:
    print(HEADER)
    print("|" + "---|" * (HEADER.count("|") - 1), flush=True)


def print_row(r: Result, ref: Result | None, sizes: Sizes) -> None:
    """One line of the table; ``ref`` is the bare bot of the same backend."""
    blocks = sizes.joins // sizes.block
    joins = [r.rates[f"join{i + 1}"] for i in range(blocks)]
    join_all = _join_all(r, sizes)
    lat = sorted(r.latency)
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    print(
        f"| {r.name} | {r.backend} | {joins[0]:.0f}→{joins[-1]:.0f} | "
        f"{r.rates['players']:.0f} | {r.rates['report']:.0f} | {r.rates['standings']:.1f} | "
        f"{r.rates['groups']:.0f} | "
        f"{_ratio(r, ref, join_all, _join_all(ref, sizes) if ref else 0)}, "
        f"{_ratio(r, ref, r.rates['report'], ref.rates['report'] if ref else 0)}, "
        f"{_ratio(r, ref, r.rates['groups'], ref.rates['groups'] if ref else 0)} | "
        f"{statistics.median(lat):.1f} / {p99:.1f} | {r.standings_ms:.0f}, {r.side_ms:.0f} | "
        f"{r.cpu_ms / max(1, r.updates):.2f} | {100 * r.gc_ms / max(1.0, r.cpu_ms):.0f}% | "
        f"{r.idle_rss:.0f} / {r.peak_rss:.0f} |",
        flush=True,
    )


def _ratio(r: Result, ref: Result | None, value: float, base: float) -> str:
    return "—" if ref is None or r is ref or not base else f"{100 * value / base:.0f}%"


def _join_all(r: Result, sizes: Sizes) -> float:
    blocks = sizes.joins // sizes.block
    return sizes.joins / sum(sizes.block / r.rates[f"join{i + 1}"] for i in range(blocks))


async def main(args: argparse.Namespace) -> None:
    sizes = QUICK if args.quick else FULL
    pg_url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL", "")
    dbs = [d for d in args.dbs.split(",") if d != "postgres" or pg_url]
    if "postgres" in args.dbs and not pg_url:
        print("BENCH_DATABASE_URL / TEST_DATABASE_URL not set: PostgreSQL skipped")
    print(f"Bot API server ceiling: {await ceiling():.0f} sendMessage/s (8 concurrent, 1 client)")
    try:
        cold, warm = chart_seconds()
        print(f"standings picture of 256 players: {cold:.2f} s cold (imports), {warm:.2f} s warm")
    except RuntimeError as exc:  # no CJK font installed
        print(f"standings picture: {exc}")
    print(
        f"sizes: {sizes.joins} /join (blocks of {sizes.block}), {sizes.players} /players, "
        f"{sizes.reports} /report + /confirm, {sizes.standings} /standings, "
        f"{sizes.groups} groups x 20, latency over {sizes.latency} /join one at a time\n",
        flush=True,
    )
    print_header()
    for backend in args.backends.split(","):
        bare = await measure("bare", backend, "", sizes, pg_url)
        print_row(bare, None, sizes)
        for db in dbs:
            print_row(await measure("tourbot", backend, db, sizes, pg_url), bare, sizes)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child_main(*sys.argv[2:6])
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
        parser.add_argument("--quick", action="store_true", help="smaller counts")
        parser.add_argument("--backends", default="aiogram,ptb")
        parser.add_argument("--dbs", default="sqlite,postgres")
        asyncio.run(main(parser.parse_args()))

"""A scale-out deployment as real processes, for the integration tests and the benchmark.

A private ``nats-server`` (JetStream, its own port and store, so restarting it disturbs
nobody else; without the binary, the shared server at ``NATS_URL``), the local Bot API
server in this process, and ``tourbot gateway`` / ``worker`` / ``scheduler`` processes
sharing one PostgreSQL database of their own (:func:`scratch_database`). Stream, subject
and consumer names carry a random prefix, so runs side by side never meet. The test plays
Telegram's webhook: it POSTs each update to a gateway and retries until a 200, as
Telegram does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import aiohttp
import nats
import pytest
from nats.js.errors import NotFoundError
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from playground.botapi import BotAPIServer

ROOT = Path(__file__).parents[1]
TOKEN = "123456:TEST"
SECRET = "s3cret-token"
NATS_SERVER = (
    os.environ.get("NATS_SERVER") or shutil.which("nats-server") or "/usr/sbin/nats-server"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def nats_available() -> bool:
    return os.path.exists(NATS_SERVER)


def shared_nats_url() -> str | None:
    """``NATS_URL`` (default 127.0.0.1:4222) when something listens there, else None."""
    url = os.environ.get("NATS_URL", "nats://127.0.0.1:4222")
    parts = urlsplit(url)
    if parts.hostname is None:
        return None
    with socket.socket() as s:
        s.settimeout(0.5)
        return url if s.connect_ex((parts.hostname, parts.port or 4222)) == 0 else None


async def wait_until(check: Any, timeout: float, what: str, every: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(every)


class NatsServer:
    """A JetStream server of our own; :meth:`restart` keeps its port and its store."""

    def __init__(self, store: Path) -> None:
        self.port = free_port()
        self.store = store
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            [NATS_SERVER, "-a", "127.0.0.1", "-p", str(self.port), "-js", "-sd", str(self.store)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        await wait_until(lambda: port_open(self.port), 10, "nats-server")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            self.proc = None

    async def restart(self, down: float = 1.0) -> None:
        self.stop()
        await asyncio.sleep(down)
        await self.start()


class SharedNats:
    """A NATS server other people use: our names are prefixed, and it is never restarted."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def drop(self, prefix: str) -> None:
        """Delete the stream (and its consumers) a cluster with ``prefix`` created."""
        nc = await nats.connect(self.url, connect_timeout=5)
        try:
            with contextlib.suppress(NotFoundError):
                await nc.jetstream().delete_stream(f"{prefix}_updates")
        finally:
            await nc.close()


TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")
WATCHER = {"application_name": "tourbot-watcher"}  # the test's own connections
needs_postgres = pytest.mark.skipif(
    not TEST_DATABASE_URL, reason="TEST_DATABASE_URL is not set: PostgreSQL tests skipped"
)


def missing_services(nats: bool) -> str | None:
    """What keeps the scale-out tests from running here (None: nothing)."""
    if not TEST_DATABASE_URL:
        return "TEST_DATABASE_URL is not set"
    if nats and not nats_available() and shared_nats_url() is None:
        return "no nats-server binary and no NATS at NATS_URL"
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def require_services(nats: bool) -> None:
    """Skip a scale-out test that cannot run here; in CI (``CI`` set) fail it instead."""
    if (why := missing_services(nats)) is not None:
        skip_or_fail(why)


def skip_or_fail(why: str) -> NoReturn:
    """Skip a scale-out test; in CI fail it, so a green CI never hides a scale-out that
    was not tested."""
    if in_ci():
        pytest.fail(f"{why}: the scale-out tests must run in CI", pytrace=False)
    pytest.skip(f"{why}: scale-out tests skipped")


@contextlib.asynccontextmanager
async def scratch_database(url: str, tag: str) -> AsyncIterator[str]:
    """A new empty database beside the one ``url`` names, dropped afterwards: concurrent
    runs (other branches, CI jobs) never share tables or advisory locks (both are per
    database). Yields its URL."""
    base = make_url(url)
    name = f"{base.database}_{tag}_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield base.set(database=name).render_as_string(hide_password=False)
        finally:
            async with admin.connect() as conn:
                await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


async def reset_database(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


class Cluster:
    """Processes of one scale-out deployment, and a webhook client for its gateways."""

    def __init__(
        self,
        botapi: BotAPIServer,
        nats: NatsServer | SharedNats,
        database_url: str,
        logs: Path,
        shards: int = 8,
    ) -> None:
        self.logs = logs
        self.botapi = botapi
        self.nats = nats
        self.database_url = database_url
        self.prefix = f"t{uuid.uuid4().hex[:10]}"
        self.shards = shards
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.gateway_ports: list[int] = []
        self._next_gateway = itertools.count()
        self.http: aiohttp.ClientSession | None = None

    def env(self, **extra: str) -> dict[str, str]:
        return {
            **os.environ,
            "BOT_TOKEN": TOKEN,
            "BOT_API_URL": self.botapi.url,
            "DATABASE_URL": self.database_url,
            "NATS_URL": self.nats.url,
            "NATS_PREFIX": self.prefix,
            "SHARDS": str(self.shards),
            "WEBHOOK_SECRET": SECRET,
            "RATE_PER_SECOND": "100000",
            "RATE_PER_CHAT_MINUTE": "100000",
            **extra,
        }

    def spawn(self, name: str, command: str, **extra: str) -> subprocess.Popen[bytes]:
        with open(self.logs / f"{name}.log", "ab") as log:  # the child keeps its copy
            proc = subprocess.Popen(
                [sys.executable, "-m", "bot", command],
                env=self.env(**extra),
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.procs[name] = proc
        return proc

    def start_gateway(self, name: str) -> None:
        port = free_port()
        self.gateway_ports.append(port)
        url = f"http://127.0.0.1:{port}/tg/hook"
        public = f"http://127.0.0.1:{port}"  # the live pages and the Mini App, too
        self.spawn(name, "gateway", GATEWAY_PORT=str(port), WEBHOOK_URL=url, PUBLIC_URL=public)

    async def wait_gateways(self) -> None:
        await wait_until(
            lambda: all(port_open(p) for p in self.gateway_ports), 60, "the gateways to listen"
        )

    def working(self) -> list[str]:
        """The workers consuming now (by their logs): the others stand by, every slot of
        the host being taken (``bot.transport.scaleout.slots``)."""
        names = []
        for name in self.procs:
            if name.startswith("worker"):
                said = (self.logs / f"{name}.log").read_text()
                if said.rfind("worker consuming") > said.rfind("worker standing by"):
                    names.append(name)
        return sorted(names)

    def started(self, name: str) -> bool:
        """Whether worker ``name`` consumes or stands by (it is up)."""
        said = (self.logs / f"{name}.log").read_text()
        return "worker consuming" in said or "worker standing by" in said

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    async def stop(self) -> None:
        for proc in self.procs.values():
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs.clear()
        if self.http is not None:
            await self.http.close()

    async def post_once(self, update: dict[str, Any], secret: str = SECRET) -> int:
        """POST one update to the next gateway; the HTTP status (0: no answer)."""
        if self.http is None:
            self.http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=200),
                timeout=aiohttp.ClientTimeout(total=15),
            )
        port = self.gateway_ports[next(self._next_gateway) % len(self.gateway_ports)]
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret}
        try:
            async with self.http.post(
                f"http://127.0.0.1:{port}/tg/hook", json=update, headers=headers
            ) as resp:
                return resp.status
        except (aiohttp.ClientError, TimeoutError):
            return 0

    async def post(self, update: dict[str, Any]) -> int:
        """POST one update as Telegram would, retrying (the next gateway) until a 200;
        the number of attempts it took."""
        for attempt in itertools.count(1):
            if await self.post_once(update) == 200:
                return attempt
            await asyncio.sleep(min(1.0, 0.05 * attempt))
        raise AssertionError("unreachable")

    async def query(self, sql: str, **params: Any) -> list[Any]:
        """Rows of one statement on the deployment's database (committed)."""
        engine = create_async_engine(self.database_url)
        try:
            async with engine.begin() as conn:
                return list((await conn.execute(text(sql), params)).all())
        finally:
            await engine.dispose()

    async def leader_pid(self) -> int | None:
        """The pid of the scheduler holding the lock (it names itself in PostgreSQL)."""
        rows = await self.query(
            "SELECT application_name FROM pg_stat_activity"
            " WHERE application_name LIKE 'tourbot-scheduler-%' AND datname = current_database()"
        )
        return int(rows[0][0].rsplit("-", 1)[1]) if rows else None

    async def end_connections(self) -> int:
        """End every connection of the deployment from the server's side, as a failover
        or an operator's ``pg_terminate_backend`` does; how many there were."""
        rows = await self.query(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(rows[0][0])

    async def lock_holders(self, namespace: int) -> dict[int, str]:
        """Advisory lock key → the process holding it (``namespace`` of the two-key
        locks), by the name the lock's connection gives itself (``tourbot-<role>-<pid>``)."""
        rows = await self.query(
            "SELECT l.objid, a.application_name FROM pg_locks l"
            " JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.classid = :ns AND l.granted"
            " AND a.datname = current_database()",
            ns=namespace,
        )
        by_pid = {str(proc.pid): name for name, proc in self.procs.items()}
        return {int(key): by_pid.get(str(name).rsplit("-", 1)[-1], name) for key, name in rows}


# --------------------------------------------------------------------------- workloads

ADMIN = 1
Updates = dict[int, list[dict[str, Any]]]  # chat id -> its updates, in order


def make_chats(botapi: BotAPIServer, base: int, count: int, players: int) -> dict[int, list[int]]:
    """``count`` groups (ids ``base``, ``base - 1``, …), each with the admin and
    ``players`` players of its own; returns chat id → player ids."""
    botapi.add_user(ADMIN, "Org", language_code="en")
    chats = {}
    for i in range(count):
        chat = base - i
        uids = [abs(chat) * 100 + p for p in range(1, players + 1)]
        for uid in uids:
            botapi.add_user(uid, f"P{uid}", language_code="en")
        botapi.add_chat(chat, f"group {chat}", admins=[ADMIN])
        chats[chat] = uids
    return chats


def signup_updates(botapi: BotAPIServer, chats: dict[int, list[int]]) -> Updates:
    """Per chat: ``/new``, then every player's ``/join``, as Telegram update JSON."""
    per_chat: Updates = {}
    for chat, uids in chats.items():
        botapi.user_says(chat, ADMIN, f"/new bigtwo Cup {chat}")
        for uid in uids:
            botapi.user_says(chat, uid, "/join")
        per_chat[chat] = botapi.take_updates()
    return per_chat


async def burst(cluster: Cluster, per_chat: Updates, midway: Any = None) -> dict[int, float]:
    """POST each chat's updates in order (the next after the previous one's 200), all
    chats at once; ``midway()`` runs when half are stored. Returns update id → the
    epoch second its first POST began."""
    total = sum(len(u) for u in per_chat.values())
    posted: dict[int, float] = {}
    half = asyncio.Event()

    async def chat_stream(updates: list[dict[str, Any]]) -> None:
        for update in updates:
            posted[update["update_id"]] = time.time()
            await cluster.post(update)
            if len(posted) >= total // 2:
                half.set()

    streams = asyncio.gather(*(chat_stream(u) for u in per_chat.values()))
    if midway is not None:
        await half.wait()
        await midway()
    await streams
    return posted


async def committed(database_url: str, ids: list[int]) -> dict[int, float]:
    """update id → epoch second of its commit (``processed_updates.at``), for ``ids``.
    Its connection is named, so a benchmark does not count it as the cluster's."""
    engine = create_async_engine(database_url, connect_args={"server_settings": WATCHER})
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT update_id, extract(epoch FROM at) FROM processed_updates"
                    " WHERE update_id = ANY(:ids)"
                ),
                {"ids": ids},
            )
            return {int(u): float(at) for u, at in rows.all()}
    finally:
        await engine.dispose()


async def wait_committed(database_url: str, ids: list[int], timeout: float) -> dict[int, float]:
    deadline = time.monotonic() + timeout
    while True:
        done = await committed(database_url, ids)
        if len(done) == len(ids) or time.monotonic() > deadline:
            return done
        await asyncio.sleep(0.5)


@dataclass
class Verdict:
    """What the database says about a run: updates never committed, updates whose
    effect was applied twice, chats whose updates were applied out of order."""

    lost: int
    twice: int
    out_of_order: int

    @property
    def clean(self) -> bool:
        return self.lost == self.twice == self.out_of_order == 0


async def verdict(database_url: str, per_chat: Updates) -> Verdict:
    """Read the audit log: each chat's entries must be exactly its updates, in order
    (every update here writes one audit row: /new and each /join)."""
    ids = [u["update_id"] for updates in per_chat.values() for u in updates]
    done = await committed(database_url, ids)
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT chat_id, update_id FROM audit_log WHERE chat_id = ANY(:chats)"
                    " ORDER BY id"
                ),
                {"chats": list(per_chat)},
            )
            applied: dict[int, list[int]] = {}
            for chat, update_id in rows.all():
                applied.setdefault(chat, []).append(update_id)
    finally:
        await engine.dispose()
    twice = sum(len(seq) - len(set(seq)) for seq in applied.values())
    out_of_order = 0
    for chat, updates in per_chat.items():
        seq = list(dict.fromkeys(applied.get(chat, [])))
        if seq != [u["update_id"] for u in updates if u["update_id"] in set(seq)]:
            out_of_order += 1
    return Verdict(len(ids) - len(done), twice, out_of_order)

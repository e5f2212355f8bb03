"""Scale-out benchmark (docs/performance.md#scale-out): throughput and latency, then the three
fault cases.

Load: ``--groups`` groups × ``--updates`` updates each (``/new`` then ``/join``s), POSTed
as Telegram's webhook would (each chat's next update after the previous one's 200, all
chats at once) to 2 gateways, handled by 1, 2 and 4 workers on PostgreSQL. Printed:
updates/s (first POST to last commit) and p50/p99 from POST to commit
(``processed_updates.at``, the committing transaction's time on the database clock).
Beside them the one-process ``tourbot run`` (long polling, PostgreSQL) on the same load,
from the update being queued to its commit.

Faults, in the same run, on a smaller load with 3 workers: a worker SIGKILLed mid-burst,
NATS restarted mid-burst, the scheduler leader SIGKILLed before a deadline (2 schedulers).
Each is checked from the database: 0 lost, 0 applied twice, per-chat order kept, the
deadline fired once.

NATS is a private ``nats-server -js`` on a free port with its own store (restarting it
disturbs no one else); the Bot API is the local test server in this process.
Run ``python -m benchmarks.scaleout`` (``--quick`` for 100 groups); it works in a scratch
database created beside ``BENCH_DATABASE_URL`` (or else ``TEST_DATABASE_URL``) and dropped
at the end, so it disturbs no tests running meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import text

from db.migrate import upgrade
from db.session import make_engine
from playground.botapi import BotAPIServer
from tests.cluster import (
    ADMIN,
    ROOT,
    TOKEN,
    Cluster,
    NatsServer,
    Updates,
    burst,
    make_chats,
    reset_database,
    scratch_database,
    signup_updates,
    verdict,
    wait_committed,
    wait_until,
)

WORKERS = (1, 2, 4)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def figures(label: str, start: dict[int, float], done: dict[int, float]) -> float:
    latencies = [(done[u] - start[u]) * 1000 for u in start if u in done]
    elapsed = max(done.values()) - min(start.values())
    rate = len(done) / elapsed
    print(
        f"{label:<26} {rate:8.0f} updates/s   p50 {percentile(latencies, 50):7.0f} ms"
        f"   p99 {percentile(latencies, 99):7.0f} ms   ({len(done)} in {elapsed:.1f}s)",
        flush=True,
    )
    return rate


async def fresh_database(url: str) -> None:
    await reset_database(url)
    engine = make_engine(url)
    await upgrade(engine)
    await engine.dispose()


async def workers_ready(cluster: Cluster, names: list[str]) -> None:
    def ready() -> bool:
        return all("worker consuming" in (cluster.logs / f"{n}.log").read_text() for n in names)

    await wait_until(ready, 120, "the workers to start", every=0.5)


class Bench:
    def __init__(self, args: argparse.Namespace, tmp: Path) -> None:
        self.args = args
        self.tmp = tmp
        self.url = args.database_url
        self.base = -1_000_000_000

    def chats(self, botapi: BotAPIServer, groups: int) -> Updates:
        self.base -= 10_000
        chats = make_chats(botapi, self.base, groups, self.args.updates - 1)
        return signup_updates(botapi, chats)

    async def cluster(self, nats: NatsServer, workers: int, name: str) -> Cluster:
        botapi = BotAPIServer(token=TOKEN, bot_id=123456, bot_username="tourbot_bot")
        await botapi.start()
        logs = self.tmp / name
        logs.mkdir()
        cluster = Cluster(botapi, nats, self.url, logs, shards=self.args.shards)
        cluster.start_gateway("gateway-1")
        cluster.start_gateway("gateway-2")
        for i in range(1, workers + 1):
            cluster.spawn(f"worker-{i}", "worker")
        await cluster.wait_gateways()
        await workers_ready(cluster, [f"worker-{i}" for i in range(1, workers + 1)])
        return cluster

    async def close(self, cluster: Cluster) -> None:
        await cluster.stop()
        await cluster.botapi.stop()

    async def load(self, nats: NatsServer, workers: int) -> float:
        await fresh_database(self.url)
        cluster = await self.cluster(nats, workers, f"load-{workers}")
        try:
            per_chat = self.chats(cluster.botapi, self.args.groups)
            ids = [u["update_id"] for updates in per_chat.values() for u in updates]
            start = await burst(cluster, per_chat)
            done = await wait_committed(self.url, ids, timeout=1800)
            return figures(f"{workers} worker(s), 2 gateways", start, done)
        finally:
            await self.close(cluster)

    async def one_process(self) -> float:
        """``tourbot run``: the same load, queued for its long polling."""
        await fresh_database(self.url)
        botapi = BotAPIServer(token=TOKEN, bot_id=123456, bot_username="tourbot_bot")
        await botapi.start()
        self.base -= 10_000
        chats = make_chats(botapi, self.base, self.args.groups, self.args.updates - 1)
        for i in range(self.args.updates):  # interleaved across chats, as they would arrive
            for chat, uids in chats.items():
                if i == 0:
                    botapi.user_says(chat, ADMIN, f"/new bigtwo Cup {chat}")
                else:
                    botapi.user_says(chat, uids[i - 1], "/join")
        queued = time.time()
        env = {
            **os.environ,
            "BOT_TOKEN": TOKEN,
            "BOT_API_URL": botapi.url,
            "DATABASE_URL": self.url,
            "POLL_TIMEOUT": "1",
            "RATE_PER_CHAT_MINUTE": "100000",
        }
        with open(self.tmp / "run.log", "ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "bot", "run"], env=env, cwd=ROOT, stdout=log, stderr=log
            )
        total: int = self.args.groups * self.args.updates
        try:

            async def finished() -> bool:
                return await self._count() == total

            await wait_until(finished, 1800, "tourbot run to finish", every=1.0)
            done = await self._all_committed()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            await botapi.stop()
        # Start-up (imports, migrations) is not handling: count from the first commit.
        first = min(done.values())
        start = {u: max(queued, first) for u in done}
        return figures("tourbot run (1 process)", start, done)

    async def _all_committed(self) -> dict[int, float]:
        engine = make_engine(self.url)
        try:
            async with engine.connect() as conn:
                rows = await conn.execute(
                    text("SELECT update_id, extract(epoch FROM at) FROM processed_updates")
                )
                return {int(u): float(at) for u, at in rows.all()}
        finally:
            await engine.dispose()

    async def _count(self) -> int:
        engine = make_engine(self.url)
        try:
            async with engine.connect() as conn:
                return int(await conn.scalar(text("SELECT count(*) FROM processed_updates")) or 0)
        finally:
            await engine.dispose()

    async def faults(self, nats: NatsServer) -> bool:
        await fresh_database(self.url)
        cluster = await self.cluster(nats, 3, "faults")
        ok = True

        async def kill_worker() -> None:
            cluster.kill("worker-2")

        try:
            for fault, midway in (
                ("SIGKILL a worker mid-burst", kill_worker),
                ("restart NATS mid-burst", nats.restart),
            ):
                per_chat = self.chats(cluster.botapi, self.args.fault_groups)
                ids = [u["update_id"] for updates in per_chat.values() for u in updates]
                await burst(cluster, per_chat, midway)
                await wait_committed(self.url, ids, timeout=600)
                v = await verdict(self.url, per_chat)
                ok &= v.clean
                print(
                    f"{fault:<30} {len(ids)} updates: lost {v.lost}, handled twice {v.twice},"
                    f" chats out of order {v.out_of_order}",
                    flush=True,
                )
            ok &= await self._deadline(cluster)
        finally:
            await self.close(cluster)
        return ok

    async def _deadline(self, cluster: Cluster) -> bool:
        """A round whose deadline comes while its scheduler leader is dead."""
        cluster.spawn("scheduler-1", "scheduler")
        cluster.spawn("scheduler-2", "scheduler")
        await wait_until(cluster.leader_pid, 120, "a scheduler to lead", every=0.5)
        botapi = cluster.botapi
        chats = make_chats(botapi, self.base - 50_000, 1, 4)
        chat = next(iter(chats))
        botapi.user_says(chat, ADMIN, "/new bigtwo Deadline Cup")
        for uid in chats[chat]:
            botapi.user_says(chat, uid, "/join")
        botapi.user_says(chat, ADMIN, "/draw")
        botapi.user_says(chat, ADMIN, "/round in 2 hours")
        for update in botapi.take_updates():
            await cluster.post(update)

        def opened() -> bool:
            return any("Round 1 is open" in m.body for m in botapi.outbox(chat))

        await wait_until(opened, 120, "round 1 to open")
        engine = make_engine(self.url)
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "UPDATE rounds SET deadline = now() + interval '8 seconds' FROM tournaments t"
                    " WHERE t.id = rounds.tournament_id AND t.chat_id = :chat"
                ),
                {"chat": chat},
            )
        await asyncio.sleep(4)  # the leader has rescheduled it
        leader = await cluster.leader_pid()
        name = next(n for n, p in cluster.procs.items() if p.pid == leader)
        killed = time.monotonic()
        cluster.kill(name)

        async def taken_over() -> bool:
            pid = await cluster.leader_pid()
            return pid is not None and pid != leader

        await wait_until(taken_over, 30, "a standby to lead")
        takeover = time.monotonic() - killed

        def fired() -> bool:
            return any("deadline has passed" in m.body for m in botapi.outbox(chat))

        await wait_until(fired, 60, "the deadline")
        await asyncio.sleep(5)  # rescans later: still once
        async with engine.connect() as conn:
            count = await conn.scalar(
                text("SELECT count(*) FROM audit_log WHERE chat_id = :c AND action = 'deadline'"),
                {"c": chat},
            )
        await engine.dispose()
        messages = sum("deadline has passed" in m.body for m in botapi.outbox(chat))
        print(
            f"{'SIGKILL the scheduler leader':<30} standby led after {takeover:.1f}s;"
            f" deadline fired {count} time(s), announced {messages} time(s)",
            flush=True,
        )
        return bool(count == 1 and messages == 1)


async def main(args: argparse.Namespace) -> int:
    async with scratch_database(args.database_url, "bench") as url:
        args.database_url = url
        return await measure(args)


async def measure(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="tourbot-bench-") as tmp:
        nats = NatsServer(Path(tmp) / "nats")
        await nats.start()
        bench = Bench(args, Path(tmp))
        try:
            print(
                f"load: {args.groups} groups × {args.updates} updates"
                f" = {args.groups * args.updates} webhook POSTs; {args.shards} shards;"
                f" {os.cpu_count()} CPU cores for everything",
                flush=True,
            )
            rates = {n: await bench.load(nats, n) for n in WORKERS}
            await bench.one_process()
            print(f"4 workers / 1 worker = {rates[4] / rates[1]:.2f}×", flush=True)
            print(f"faults: {args.fault_groups} groups × {args.updates} updates each", flush=True)
            ok = await bench.faults(nats)
        finally:
            nats.stop()
    print("faults: all clean" if ok else "faults: FAILED", flush=True)
    return 0 if ok else 1


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scaleout", description=__doc__)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=20, help="per group (/new + joins)")
    parser.add_argument("--fault-groups", type=int, default=100)
    parser.add_argument("--shards", type=int, default=16)
    parser.add_argument("--quick", action="store_true", help="100 groups, 30 for faults")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL"),
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.groups, args.fault_groups = 100, 30
    if not args.database_url:
        parser.error("set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server)")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))

"""Scale-out benchmark (docs/performance.md#scale-out): throughput, cost and latency, a
burst at Telegram's rates, then the three fault cases.

Load: ``--groups`` groups × ``--updates`` updates each (``/new`` then ``/join``s), POSTed
as Telegram's webhook would (each chat's next update after the previous one's 200, all
chats at once) to 2 gateways, handled by 1, 2 and 4 workers on PostgreSQL, sending
without a rate limit. Printed per setup: updates/s (first POST to last commit); CPU ms
per update (workers, gateways, nats-server and the PostgreSQL backends of the run's
database, from /proc; not the benchmark process, which plays Telegram); p50/p99 from an
update's POST to its reply reaching the Bot API (a /join's 👍, the /new's sign-up
message); the slowest group's first reply (from its /new's POST); messages sent a second
(reactions apart), on average and in the busiest second. Beside them the one-process
``tourbot run`` (long polling, PostgreSQL) on the same load, from queued to commit.

Burst: ``--burst-groups`` groups open sign-up at once (the same updates each) with 2
workers at Telegram's rates (30 messages a second for the bot, 20 a minute per group):
every group's first reply within 10 s, every group's last count shown (none starved),
and the busiest second and minute of the bot and of one group.

Faults, in the same run, on a smaller load with 3 workers: a worker SIGKILLed mid-burst,
NATS restarted mid-burst, the scheduler leader SIGKILLed before a deadline (2 schedulers).
Each is checked from the database: 0 lost, 0 applied twice, per-chat order kept, the
deadline fired once.

NATS is a private ``nats-server -js`` on a free port with its own store (restarting it
disturbs no one else); the Bot API is the local test server in this process.
Run ``python -m benchmarks.scaleout`` (``--quick``: 100 groups, a burst of 30); it works
in a scratch database created beside ``BENCH_DATABASE_URL`` (or else ``TEST_DATABASE_URL``)
and dropped at the end, so it disturbs no tests running meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from sqlalchemy import text

from db.migrate import upgrade
from db.session import make_engine
from playground.botapi import BotAPIServer
from playground.botapi.records import Call
from tests.cluster import (
    ADMIN,
    ROOT,
    TOKEN,
    WATCHER,
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
TICK = os.sysconf("SC_CLK_TCK")
# What Telegram counts as messages: new ones and edits (a reaction is not one).
MESSAGES = {
    "sendmessage",
    "sendphoto",
    "senddocument",
    "editmessagetext",
    "editmessagecaption",
    "editmessagemedia",
}
TELEGRAM_RATES = {"RATE_PER_SECOND": "30", "RATE_PER_CHAT_MINUTE": "20"}
FIRST_REPLY_TARGET = 10.0  # seconds from a group's /new to its first reply, in the burst


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def cpu_of(pid: int) -> float | None:
    """CPU seconds (user + system) a live process has used; None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


class TimedCalls(list[Call]):
    """The Bot API server's call log, with the moment each call arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    def append(self, call: Call) -> None:
        self.at.append(time.time())
        super().append(call)


def timed(botapi: BotAPIServer) -> TimedCalls:
    botapi.calls = TimedCalls()
    return botapi.calls


class Usage:
    """CPU seconds used meanwhile by the cluster's processes, its nats-server and the
    PostgreSQL backends of its database (sampled, so a backend that lived between two
    samples is missed: each sample also counts the backends seen)."""

    def __init__(self, cluster: Cluster, nats: NatsServer) -> None:
        self.cluster = cluster
        # pid -> what it is: worker, gateway, nats (postgres for the backends)
        self.pids = {p.pid: name.split("-")[0] for name, p in cluster.procs.items()}
        if nats.proc is not None:
            self.pids[nats.proc.pid] = "nats"
        self.parts: dict[str, float] = {}  # CPU seconds by what used them
        self.base: dict[int, float] = {}
        self.seen: dict[int, float] = {}  # backend pid -> latest CPU seconds
        self.backends_base: dict[int, float] = {}
        self._task: asyncio.Task[None] | None = None

    async def _backends(self, conn: Any) -> list[int]:
        rows = await conn.execute(
            text(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND application_name <> :watcher"
            ),
            {"watcher": WATCHER["application_name"]},
        )
        return [int(pid) for (pid,) in rows.all()]

    async def _sample(self, conn: Any) -> None:
        for pid in await self._backends(conn):
            cpu = cpu_of(pid)
            if cpu is not None:
                self.seen[pid] = cpu

    async def start(self) -> None:
        self.base = {pid: cpu_of(pid) or 0.0 for pid in self.pids}
        self.engine = make_engine(self.cluster.database_url)
        self.conn = await (await self.engine.connect()).execution_options(
            isolation_level="AUTOCOMMIT"
        )
        await self._sample(self.conn)
        self.backends_base = dict(self.seen)

        async def sample() -> None:
            while True:
                await asyncio.sleep(0.2)
                await self._sample(self.conn)

        self._task = asyncio.create_task(sample())

    async def stop(self) -> float:
        """Total CPU seconds since :meth:`start`."""
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        await self._sample(self.conn)
        await self.conn.close()
        await self.engine.dispose()
        for pid, what in self.pids.items():
            used = (cpu_of(pid) or 0.0) - self.base[pid]
            self.parts[what] = self.parts.get(what, 0.0) + used
        self.parts["postgres"] = sum(
            cpu - self.backends_base.get(pid, 0.0) for pid, cpu in self.seen.items()
        )
        self.backends = len(self.seen)
        return sum(self.parts.values())


def replied_at(calls: TimedCalls, per_chat: Updates) -> dict[int, float]:
    """update id → when its reply reached the Bot API: a /join's 👍 on it, a /new's
    first message in its chat."""
    reacted: dict[tuple[int, int], float] = {}
    first: dict[int, float] = {}
    for call, at in zip(list(calls), list(calls.at), strict=True):
        if call.status != 200 or "chat_id" not in call.params:
            continue
        chat, method = int(call.params["chat_id"]), call.method.lower()
        if method == "setmessagereaction":
            reacted.setdefault((chat, int(call.params["message_id"])), at)
        elif method in MESSAGES:
            first.setdefault(chat, at)
    out = {}
    for chat, updates in per_chat.items():
        for update in updates:
            message = update["message"]
            if message["text"] == "/join":
                moment = reacted.get((chat, int(message["message_id"])))
            else:
                moment = first.get(chat)
            if moment is not None:
                out[int(update["update_id"])] = moment
    return out


def busiest(moments: list[float], span: float) -> int:
    """The most of ``moments`` in any window of ``span`` seconds."""
    ordered, most, lo = sorted(moments), 0, 0
    for hi, moment in enumerate(ordered):
        while moment - ordered[lo] >= span:
            lo += 1
        most = max(most, hi - lo + 1)
    return most


def message_times(calls: TimedCalls) -> dict[int, list[float]]:
    """chat → when each message to it (reactions apart) reached the Bot API."""
    out: dict[int, list[float]] = {}
    for call, at in zip(list(calls), list(calls.at), strict=True):
        if call.status == 200 and call.method.lower() in MESSAGES:
            out.setdefault(int(call.params["chat_id"]), []).append(at)
    return out


@dataclass
class Run:
    """What one setup measured."""

    posted: dict[int, float]  # update id -> its first POST
    done: dict[int, float]  # update id -> its commit
    replied: dict[int, float]  # update id -> its reply at the Bot API
    per_chat: Updates
    messages: dict[int, list[float]]  # chat -> its messages' moments
    cpu: float = 0.0  # CPU seconds
    counted: int = 0  # groups whose sign-up message shows every sign-up
    parts: dict[str, float] = field(default_factory=dict)  # CPU seconds an update, by user
    backends: int = 0  # PostgreSQL backends seen (connections opened)
    load: str = ""  # the machine's load average at the start and at the end
    working: int = 0  # workers consuming (the others stand by: a host's cores are full)

    @property
    def first_replies(self) -> list[float]:
        """Each group's wait from its /new's POST to its first reply (missing: inf)."""
        waits = []
        for updates in self.per_chat.values():
            uid = updates[0]["update_id"]
            waits.append(self.replied.get(uid, float("inf")) - self.posted[uid])
        return waits

    def figures(self) -> dict[str, float]:
        """The figures one line shows, by name (medians are taken of each)."""
        latencies = [
            (self.replied[u] - self.posted[u]) * 1000 for u in self.posted if u in self.replied
        ]
        elapsed = max(self.done.values()) - min(self.posted.values())
        sent = [at for moments in self.messages.values() for at in moments]
        span = (max(sent) - min(sent)) if len(sent) > 1 else 0.0
        return {
            "seconds": elapsed,
            "updates/s": len(self.done) / elapsed,
            "cpu": self.cpu * 1000 / len(self.done),
            "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99),
            "first": max(self.first_replies),
            "msg/s": len(sent) / span if span else float(len(sent)),
            "busiest": float(busiest(sent, 1.0)),
        }

    def line(self, label: str) -> str:
        return line(label, self.figures(), len(self.done)) + (
            f"  load {self.load}; {self.working} consuming\n    CPU ms/update by process: "
            + ", ".join(f"{what} {used * 1000:.1f}" for what, used in sorted(self.parts.items()))
            + f"; {self.backends} PostgreSQL connections"
        )


def line(label: str, f: dict[str, float], updates: int) -> str:
    return (
        f"{label:<24} {f['updates/s']:6.0f} updates/s  {f['cpu']:5.1f} CPU ms/update"
        f"  p50 {f['p50']:6.0f} ms  p99 {f['p99']:6.0f} ms"
        f"  slowest first reply {f['first']:5.1f} s"
        f"  {f['msg/s']:5.1f} msg/s (busiest second {f['busiest']:.0f})"
        f"  ({updates} in {f['seconds']:.1f}s)"
    )


def median_figures(runs: list[Run]) -> dict[str, float]:
    figures = [r.figures() for r in runs]
    return {key: statistics.median(f[key] for f in figures) for key in figures[0]}


def load_average() -> str:
    """The 1-minute load average of the machine now (everything on it, this run too)."""
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def figures(label: str, start: dict[int, float], done: dict[int, float]) -> float:
    latencies = [(done[u] - start[u]) * 1000 for u in start if u in done]
    elapsed = max(done.values()) - min(start.values())
    rate = len(done) / elapsed
    print(
        f"{label:<24} {rate:6.0f} updates/s   p50 {percentile(latencies, 50):7.0f} ms"
        f" (queued to commit)   p99 {percentile(latencies, 99):7.0f} ms"
        f"   ({len(done)} in {elapsed:.1f}s)",
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
        return all(cluster.started(n) for n in names)

    try:
        await wait_until(ready, 120, "the workers to start", every=0.5)
    except TimeoutError:  # say why: the log of a worker that did not start
        for n in names:
            text_ = (cluster.logs / f"{n}.log").read_text()
            if not cluster.started(n):
                print(f"--- {n} (exit code {cluster.procs[n].poll()}):\n{text_[-3000:]}")
        raise


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

    async def cluster(self, nats: NatsServer, workers: int, name: str, **rates: str) -> Cluster:
        botapi = BotAPIServer(token=TOKEN, bot_id=123456, bot_username="tourbot_bot")
        timed(botapi)
        await botapi.start()
        logs = self.tmp / name
        logs.mkdir()
        cluster = Cluster(botapi, nats, self.url, logs, shards=self.args.shards)
        cluster.start_gateway("gateway-1")
        cluster.start_gateway("gateway-2")
        for i in range(1, workers + 1):
            cluster.spawn(f"worker-{i}", "worker", **rates)
        await cluster.wait_gateways()
        await workers_ready(cluster, [f"worker-{i}" for i in range(1, workers + 1)])
        return cluster

    async def close(self, cluster: Cluster) -> None:
        await cluster.stop()
        await cluster.botapi.stop()

    async def run(
        self, nats: NatsServer, workers: int, name: str, groups: int, **rates: str
    ) -> Run:
        """POST ``groups`` groups' sign-ups at once; measure until every reply is in."""
        await fresh_database(self.url)
        cluster = await self.cluster(nats, workers, name, **rates)
        try:
            per_chat = self.chats(cluster.botapi, groups)
            ids = [u["update_id"] for updates in per_chat.values() for u in updates]
            usage = Usage(cluster, nats)
            await usage.start()
            load = load_average()
            posted = await burst(cluster, per_chat)
            done = await wait_committed(self.url, ids, timeout=1800)
            calls = cast(TimedCalls, cluster.botapi.calls)

            def all_replied() -> bool:
                return len(replied_at(calls, per_chat)) == len(ids)

            def counted() -> int:  # the last edit of each sign-up message is out
                joins = self.args.updates - 1
                return sum(
                    any(f"{joins} signed up so far" in m.body for m in cluster.botapi.outbox(chat))
                    for chat in per_chat
                )

            with contextlib.suppress(TimeoutError):
                await wait_until(all_replied, 600, "every reply", every=0.5)
                await wait_until(lambda: counted() == groups, 600, "every count", every=0.5)
            run = Run(posted, done, replied_at(calls, per_chat), per_chat, message_times(calls))
            run.cpu = await usage.stop()
            run.parts = {what: used / len(done) for what, used in usage.parts.items()}
            run.backends = usage.backends
            run.load = f"{load}→{load_average()}"
            run.working = len(cluster.working())
            run.counted = counted()
            return run
        finally:
            await self.close(cluster)

    async def load(self, nats: NatsServer, workers: int, round_: int) -> Run:
        run = await self.run(nats, workers, f"load-{workers}-{round_}", self.args.groups)
        print(run.line(f"{workers} worker(s), round {round_ + 1}"), flush=True)
        return run

    async def burst(self, nats: NatsServer) -> bool:
        """Groups opening sign-up at once, at Telegram's rates: every first reply within
        :data:`FIRST_REPLY_TARGET`, every group's final count shown."""
        groups = self.args.burst_groups
        run = await self.run(nats, 2, "burst", groups, **TELEGRAM_RATES)
        print(run.line(f"burst: {groups} groups, 2 workers"), flush=True)
        waits = run.first_replies
        sent = [at for moments in run.messages.values() for at in moments]
        per_group = max(busiest(moments, 60.0) for moments in run.messages.values())
        print(
            f"burst: first replies p50 {percentile(waits, 50):.1f} s, slowest {max(waits):.1f} s"
            f" (target {FIRST_REPLY_TARGET:.0f} s); replies {len(run.replied)}/{len(run.posted)};"
            f" groups showing their last count {run.counted}/{groups};"
            f" busiest second of the bot {busiest(sent, 1.0)} messages (limit 30),"
            f" busiest minute of a group {per_group} (limit 20)",
            flush=True,
        )
        return (
            max(waits) <= FIRST_REPLY_TARGET
            and len(run.replied) == len(run.posted)
            and run.counted == groups
            and busiest(sent, 1.0) <= 30
            and per_group <= 20
        )

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

        async def kill_worker() -> None:  # a consuming one (on few cores, one stands by)
            cluster.kill(cluster.working()[-1])

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
                    f" chats out of order {v.out_of_order}; consuming: {cluster.working()}",
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
            # Rounds in turn, each in the other order (1, 2, 4, 4, 2, 1, …): the load of
            # whatever else runs on the machine drifts, and a setup run only early or
            # only late would carry the drift. Each figure is the median of the rounds.
            runs: dict[int, list[Run]] = {n: [] for n in WORKERS}
            for round_ in range(args.rounds):
                for n in WORKERS if round_ % 2 == 0 else reversed(WORKERS):
                    runs[n].append(await bench.load(nats, n, round_))
            await bench.one_process()
            medians = {n: median_figures(rs) for n, rs in runs.items()}
            print(f"medians of {args.rounds} round(s):", flush=True)
            for n in WORKERS:
                print(line(f"{n} worker(s)", medians[n], len(runs[n][0].done)), flush=True)
            total = {n: m["seconds"] for n, m in medians.items()}
            cpu = {n: m["cpu"] for n, m in medians.items()}
            print(
                f"time 2 workers / 1: {total[2] / total[1]:.2f} (target ≤ 1.10), 4 / 2:"
                f" {total[4] / total[2]:.2f} (target ≤ 1.00); CPU per update 2 / 1:"
                f" {cpu[2] / cpu[1]:.2f} (target ≤ 1.25), 4 / 1: {cpu[4] / cpu[1]:.2f}",
                flush=True,
            )
            burst_ok = await bench.burst(nats)
            print(f"faults: {args.fault_groups} groups × {args.updates} updates each", flush=True)
            ok = await bench.faults(nats)
        finally:
            nats.stop()
    print("faults: all clean" if ok else "faults: FAILED", flush=True)
    print("burst: within target" if burst_ok else "burst: OFF TARGET", flush=True)
    return 0 if ok and burst_ok else 1


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scaleout", description=__doc__)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--updates", type=int, default=20, help="per group (/new + joins)")
    parser.add_argument("--fault-groups", type=int, default=100)
    parser.add_argument("--burst-groups", type=int, default=100)
    parser.add_argument("--shards", type=int, default=16)
    parser.add_argument(
        "--rounds", type=int, default=2, help="of the load setups, in turn (medians shown)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="100 groups, a burst of 30, 30 for faults"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL"),
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.groups, args.fault_groups, args.burst_groups = 100, 30, 30
    if not args.database_url:
        parser.error("set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server)")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))

"""``tourbot worker``: handle the updates the gateways stored, with the same ``Core``.

One task per shard pulls from that shard's durable consumer. JetStream gives a shard's
next message to some worker only after the previous one was acknowledged (see
``bot.transport.scaleout.bus``), so one chat's updates run one at a time and in order across all
workers, while shards run in parallel within a process and across processes.

A message is acknowledged only after ``Core.handle`` committed it. A worker killed before
the ack leaves the message to be redelivered to another worker after ``ACK_WAIT``; if the
commit had happened, the processed-update table makes the second run a no-op. While an
update is being handled the worker tells JetStream it is still working on it, so a slow
update is not handed out twice.

Replies are sent by the worker whose sender holds the chat's part
(``bot.transport.scaleout.budget``): after a commit the worker wakes its own sender if it
holds it, else tells the holder over plain NATS (``Bus.outbox_subject``: one subject a
part, so a notice reaches only its holder, not every worker).

On a host, only as many workers as it has cores consume and send; the others stand by
and take a dead one's place within seconds (``bot.transport.scaleout.slots``). A worker
whose slot was lost with its connection and taken by a standby meanwhile stands by in
its turn.

Its clock is the database's (``bot.transport.scaleout.clock``): a timer the leader fired is due here
too. Should a timer still be put back (the database was away), its message is
redelivered a moment later rather than handed back to a leader that fired it already.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout

from bot.app import make_runner
from bot.application.core import Core
from bot.application.routes import TIMERS
from bot.application.types import Timer
from bot.config import Settings
from bot.language.i18n import Catalogue
from bot.transport.scaleout.budget import LANES, Pace, SharedSender, part_of
from bot.transport.scaleout.bus import (
    ACK_WAIT,
    Bus,
    acted_json,
    action_from,
    connect,
    timer_from,
    timer_json,
)
from bot.transport.scaleout.clock import SYNC_EVERY, DatabaseClock, host_clock
from bot.transport.scaleout.process import migrate_once, wait_for_signal
from bot.transport.scaleout.slots import TRY_EVERY, Slot
from db.session import is_transient, make_engine, make_sessionmaker, sender_engine

log = logging.getLogger(__name__)
FETCH_WAIT = 5.0  # seconds a pull request waits for a message
RETRY = 1.0  # seconds before retrying after NATS or the database failed
MAX_ATTEMPTS = 20  # deliveries (backing off to 30 s, ~8 min) before a failing one is dropped
STOP_GRACE = 10.0  # seconds in-flight updates get to finish on SIGTERM
POOL = 8  # database connections: updates handled at once (other shards' wait their turn)


class PutBack(Exception):
    """A fired timer the core put back: its message is redelivered later."""


class Worker:
    def __init__(self, settings: Settings, host: Callable[[], datetime] = host_clock) -> None:
        self.settings = settings
        self.clock = DatabaseClock(host)
        self.bus = Bus.of(settings)
        self._consuming = False
        self._tasks: list[asyncio.Task[None]] = []
        self._standing_by: asyncio.Task[None] | None = None
        self._keeping: asyncio.Task[None] | None = None  # the slot, while working
        self._heard: set[int] = set()  # parts whose notices this worker listens to
        self._busy: set[int] = set()  # shards whose update is being handled
        self._notices: set[asyncio.Task[None]] = set()
        self._running: set[Timer] = set()  # fired timers being run now
        self._put_back: set[Timer] = set()

    async def start(self) -> None:
        # POOL for the updates, and one that holds the slot (``Slot`` keeps it).
        self.engine = make_engine(self.settings.database_url, pool_size=POOL + 1)
        await migrate_once(self.engine)
        await self._sync_clock()
        sessionmaker = make_sessionmaker(self.engine)
        self.runner = make_runner(self.settings)
        await self.runner.prepare()
        self.core = Core(
            self.settings, sessionmaker, Catalogue(), self.runner.transport, self.clock
        )
        # Each lane: one connection, for its locks and its passes (and as many again
        # while lost ones are being replaced).
        self.sender_engine = sender_engine(self.engine, pool_size=2 * LANES)
        pace = Pace(self.settings.per_second)
        self.senders = [
            SharedSender(
                sessionmaker,
                self.runner.transport,
                self.settings.per_second,
                self.settings.per_chat_per_minute,
                self.sender_engine,
                lane,
                LANES,
                pace,
            )
            for lane in range(LANES)
        ]
        # A commit wakes only the sender of its chat (``_wake_sender``): woken together,
        # all the lanes read the outbox after every update. Other chats' lanes (a
        # private reply) see it at their next look.
        self.core.on_timer = self._announce
        for sender in self.senders:  # what Telegram refuses: organisers told, people marked
            sender.on_refused = self.core.delivery_refused
            sender.on_resumed = self.core.delivery_resumed
        self.nc = await connect(self.settings, "tourbot-worker")
        self.js = self.nc.jetstream()
        await self.bus.ensure(self.js)
        self._clock_task = asyncio.create_task(self._keep_clock(), name="clock")
        self.slot = Slot(
            self.engine,
            self.settings.nats_prefix,
            self.settings.workers_per_host,
            self.settings.worker_host,
        )
        if await self.slot.take():
            self._work()
        else:
            self._wait_for_a_slot()

    def _wait_for_a_slot(self) -> None:
        log.info(
            "worker standing by: %s workers of host %s consume already",
            self.slot.per_host,
            self.slot.host,
        )
        self._standing_by = asyncio.create_task(self._stand_by(), name="standby")

    def _work(self) -> None:
        """Holding a slot: send the replies of this worker's parts, consume every shard,
        and keep an eye on the slot."""
        self._consuming = True
        for sender in self.senders:
            sender.on_claim = self._listen
            sender.start()  # replies left queued by a crash go out now
        self._tasks = [
            asyncio.create_task(self._consume(shard), name=f"shard-{shard}")
            for shard in range(self.bus.shards)
        ]
        self._keeping = asyncio.create_task(self._keep_slot(), name="slot")
        log.info(
            "worker consuming %s shards of %s (slot %s of %s on host %s)",
            self.bus.shards,
            self.bus.stream,
            self.slot.held,
            self.slot.per_host,
            self.slot.host,
        )

    async def _stand_by(self) -> None:
        """Try for a slot until one is free (a working worker stopped or died)."""
        while True:
            await asyncio.sleep(TRY_EVERY)
            try:
                if await self.slot.take():
                    self._work()
                    return
            except Exception:  # the database is away: try again later
                log.warning("could not try for a worker slot", exc_info=True)

    async def _keep_slot(self) -> None:
        """Every ``TRY_EVERY`` seconds: is the slot still this worker's? Lost with its
        connection, it is taken again on a new one; taken by a standby meanwhile, this
        worker stands by instead (a host's cores, not more, stay busy)."""
        while True:
            await asyncio.sleep(TRY_EVERY)
            try:
                if await self.slot.keep():
                    continue
            except Exception:  # the database is away: nobody can take the slot either
                log.warning("could not look at this worker's slot", exc_info=True)
                continue
            self._keeping = None
            await self._stand_down()
            self._wait_for_a_slot()
            return

    async def _stand_down(self) -> None:
        """Stop working: updates being handled finish, the senders give their parts up."""
        await self._stop_consuming()
        for sender in self.senders:
            await sender.close()

    async def _stop_consuming(self) -> None:
        """Let updates being handled finish (up to ``STOP_GRACE``); stop waiting ones."""
        self._consuming = False
        tasks, self._tasks = self._tasks, []
        for shard, task in enumerate(tasks):
            if shard not in self._busy:
                task.cancel()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=STOP_GRACE)
            for task in pending:
                task.cancel()

    async def stop(self) -> None:
        """Stand down (updates in hand finish, the senders give their parts up), then
        give the slot back and close NATS, the Telegram client and the pools."""
        self._clock_task.cancel()
        for task in (self._standing_by, self._keeping):
            if task is not None:
                task.cancel()
        await self._stand_down()
        with contextlib.suppress(Exception):
            await self.slot.release()
        with contextlib.suppress(Exception):
            await self.nc.close()
        await self.runner.stop()
        await self.sender_engine.dispose()
        await self.engine.dispose()

    async def run_forever(self) -> None:
        await self.start()
        try:
            await wait_for_signal()
        finally:
            await self.stop()

    async def _wake_sender(self, chat_id: int) -> None:
        """The chat's replies are committed: wake the sender holding its part, here or,
        over NATS, in the worker that holds it (a lost notice waits for its next look)."""
        part = part_of(chat_id)
        lane = self.senders[part % LANES]
        if part in lane.parts:
            lane.wake()
            return
        with contextlib.suppress(Exception):
            await self.nc.publish(self.bus.outbox_subject(part), b"")

    async def _listen(self, parts: set[int]) -> None:
        """A lane took ``parts``: from now on, another worker's notice for one wakes it
        (unheard, as while NATS is away, the lane still looks every ``POLL_EVERY``).
        A part taken again after its locks were lost is listened to already."""
        for part in sorted(parts - self._heard):
            lane = self.senders[part % LANES]

            async def wake(msg: Msg, lane: SharedSender = lane) -> None:
                lane.wake()

            try:
                await self.nc.subscribe(self.bus.outbox_subject(part), cb=wake)
                self._heard.add(part)
            except Exception:
                log.warning("cannot hear the notices of part %s", part, exc_info=True)

    async def _sync_clock(self) -> None:
        async with self.engine.connect() as conn:
            await self.clock.sync(conn)

    async def _keep_clock(self) -> None:
        while True:
            await asyncio.sleep(SYNC_EVERY)
            try:
                await self._sync_clock()
            except Exception:  # the database is away: keep the last offset
                log.warning("could not read the database's clock", exc_info=True)

    def _announce(self, timer: Timer) -> None:
        """A committed change set a timer: tell the scheduler (it also rescans the
        database, so a lost notice only delays the timer by one rescan). A fired timer
        being run here that the core puts back is not announced: see ``_dispatch``."""
        if timer in self._running:
            self._put_back.add(timer)
            return
        payload = json.dumps(timer_json(timer)).encode()
        task = asyncio.create_task(self.nc.publish(self.bus.timers_subject, payload))
        self._notices.add(task)  # keep a reference until it is done
        task.add_done_callback(self._notice_done)

    def _notice_done(self, task: asyncio.Task[None]) -> None:
        self._notices.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not tell the scheduler about a timer: %s", task.exception())

    async def _consume(self, shard: int) -> None:
        sub = None
        try:
            while self._consuming:
                try:
                    if sub is None:
                        sub = await self.js.pull_subscribe_bind(
                            durable=self.bus.consumer(shard), stream=self.bus.stream
                        )
                    messages = await sub.fetch(1, timeout=FETCH_WAIT)
                except NatsTimeout:
                    continue
                except (NatsError, OSError, TimeoutError):
                    log.warning("shard %s: NATS unavailable, retrying", shard, exc_info=True)
                    await asyncio.sleep(RETRY)
                    continue
                self._busy.add(shard)
                try:
                    for msg in messages:
                        await self._process(msg)
                finally:
                    self._busy.discard(shard)
        finally:
            if sub is not None:  # a worker standing down consumes again later
                with contextlib.suppress(Exception):
                    await sub.unsubscribe()

    async def _process(self, msg: Msg) -> None:
        """Handle one message and acknowledge it once committed."""
        keepalive = asyncio.create_task(self._working(msg))
        try:
            await self._dispatch(json.loads(msg.data))
        except Exception as exc:
            if msg.metadata.num_delivered >= MAX_ATTEMPTS:  # a bug, not an outage: move on
                log.exception("giving up on message on %s: %r", msg.subject, msg.data[:200])
                with contextlib.suppress(Exception):
                    await msg.term()
                return
            if isinstance(exc, PutBack) or is_transient(exc):  # not a bug: no traceback
                why = type(exc).__name__
                log.warning("message on %s put back (%s); redelivered later", msg.subject, why)
            else:
                log.exception("message on %s failed; it will be redelivered", msg.subject)
            with contextlib.suppress(Exception):
                await msg.nak(delay=min(30.0, RETRY * 2**msg.metadata.num_delivered))
            return
        finally:
            keepalive.cancel()
        with contextlib.suppress(Exception):  # a lost ack means a redelivery, then a skip
            await msg.ack()

    @staticmethod
    async def _working(msg: Msg) -> None:
        while True:
            await asyncio.sleep(ACK_WAIT / 3)
            with contextlib.suppress(Exception):
                await msg.in_progress()

    async def _dispatch(self, data: dict[str, Any]) -> None:
        if "timer" in data:
            fired = data["timer"]
            timer = timer_from(fired)
            # The leader fired it: it is due, whatever this host's clock says.
            self.clock.reached(max(timer.at, datetime.fromisoformat(fired.get("now", fired["at"]))))
            self._running.add(timer)
            try:
                await self.core.system(
                    fired["chat_id"], fired.get("thread_id"), TIMERS[timer.kind], timer.arg, timer
                )
            finally:
                self._running.discard(timer)
            await self._wake_sender(fired["chat_id"])
            if timer in self._put_back:  # the leader fired it once: run it again from here
                self._put_back.discard(timer)
                raise PutBack(timer.key)
            return
        if "app" in data:  # a Mini App's action, from a gateway that waits for it
            inc, event, reply = action_from(data)
            acted = await self.core.act(inc, event)
            await self._wake_sender(inc.chat_id)
            if reply:
                with contextlib.suppress(Exception):  # the gateway answers 202 without it
                    await self.nc.publish(reply, acted_json(acted))
            return
        try:
            incoming = self.runner.incoming(data)
        except Exception as exc:  # stored before the gateways refused such bodies
            log.warning("skipping update %s: cannot decode it (%s)", data.get("update_id"), exc)
            return
        if incoming is not None:
            await self.core.handle(incoming)
            await self._wake_sender(incoming.chat_id)

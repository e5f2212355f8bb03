"""At most one consuming worker per core of a host; the others stand by.

A worker's event loop is one thread, and an update costs it CPU, not waiting: two workers
keep two cores busy. Workers beyond a host's cores add no throughput, only turns: each
update is handed between more processes on the same cores, whose caches they evict
(measured: four workers on two cores spent 20–40 % more CPU an update than two,
docs/performance.md#scale-out). So on each host only ``WORKERS_PER_HOST`` workers (by
default the cores the process may run on) consume updates and send replies; each holds a
slot, a PostgreSQL advisory lock on a connection of its own. A worker finding every slot
taken stands by, warm (migrated, pools and NATS connected), and tries again every
:data:`TRY_EVERY` seconds: a dead worker's connection closes, its slot is free, and a
standby consumes within that time.

A slot decides only who works, never what is right: ordering comes from JetStream, each
reply's single sending from the send locks and the outbox's claims. A working worker
looks at its slot's connection every :data:`TRY_EVERY` seconds (``Slot.keep``): lost
with it (the database restarted or ended it), the slot is taken again on a new one, or,
a standby having taken it meanwhile, the worker stands by in its turn. Hosts are told
apart by ``WORKER_HOST``, by default the machine's name (a container's own: containers
sharing one machine's cores name it, as deploy/compose.yaml does), deployments by
``NATS_PREFIX``.
"""

from __future__ import annotations

import os
import socket
import zlib

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.transport.scaleout.locks import Locks, try_lock

WORKER_SLOTS = 7_303  # advisory-lock namespace: (deployment, host, slot) in the key
TRY_EVERY = 2.0  # seconds between a standby's tries for a slot (and a worker's looks at its)
MAX_SLOTS = 128  # slots per host the key has room for


def cores() -> int:
    """The cores this process may run on (its CPU affinity: a container's cpuset)."""
    return len(os.sched_getaffinity(0))


class Slot:
    """This worker's claim to one of its host's ``per_host`` working slots."""

    def __init__(self, engine: AsyncEngine, prefix: str, per_host: int, host: str = "") -> None:
        self.per_host = min(per_host or cores(), MAX_SLOTS)
        self.host = host or socket.gethostname()
        # 24 bits of (deployment, host), 7 of the slot: a PostgreSQL int4 key.
        self._base = (zlib.crc32(f"{prefix}:{self.host}".encode()) % 2**24) * MAX_SLOTS
        self._locks = Locks(engine, "worker")
        self.held: int | None = None  # the slot's number once held

    async def take(self) -> bool:
        """Try each slot of the host once (one statement each); True once one is held."""
        if self.held is not None:
            return True
        try:
            conn = await self._locks.open()
            for slot in range(self.per_host):
                if await try_lock(conn, WORKER_SLOTS, self._base + slot):
                    self.held = slot
                    return True
        except Exception:
            await self._locks.drop()  # whatever it took goes with its session
            raise
        return False

    async def keep(self) -> bool:
        """Whether this worker still holds a slot: its connection lives, or, lost, a slot
        was taken again on a new one. False: every slot is taken (a standby took this
        one meanwhile). Raises while the database is away (nobody can take it then)."""
        if self.held is not None and self._locks.alive():
            return True
        self.held = None
        await self._locks.drop()
        return await self.take()

    async def release(self) -> None:
        """Give the slot back (closing the connection would too, later)."""
        self.held = None
        await self._locks.release()

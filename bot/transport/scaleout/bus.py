"""The JetStream layout every scale-out process agrees on.

One stream holds every update, on subjects ``<prefix>.updates.<shard>``; a chat always
maps to the same shard (CRC-32 of its id, stable across processes and Python runs, unlike
``hash``). Each shard has one durable pull consumer with ``max_ack_pending=1``: JetStream
hands out the next message of a shard only after the previous one was acknowledged, so
the updates of one chat are handled one at a time and in order, whichever worker takes
them, while different shards run in parallel. A message unacknowledged for
:data:`ACK_WAIT` seconds (its worker died) goes to another worker, still first in line.

Telegram updates carry their ``update_id`` as the ``Nats-Msg-Id``, so a retried webhook
inside the duplicate window is stored once. Timers are published into the same shard as
their chat (``{"timer": …}`` instead of an update), ordered with the chat's messages, and
so are the Mini App's actions (``{"app": …}``: a command as if typed in the chat), whose
outcome goes back to the gateway that asked on a plain NATS inbox.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

import nats
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.errors import NotFoundError

from bot.application.core import Acted
from bot.application.types import Incoming, Sender, Timer
from bot.config import Settings

ACK_WAIT = 5.0  # seconds before an unacknowledged update goes to another worker
DUPLICATE_WINDOW = 600.0  # seconds in which a repeated Nats-Msg-Id is dropped
MSG_ID = "Nats-Msg-Id"


def shard_of(chat_id: int, shards: int) -> int:
    """The chat's shard: stable across processes, machines and restarts."""
    return zlib.crc32(str(chat_id).encode()) % shards


@dataclass(frozen=True)
class Bus:
    """Names derived from ``NATS_PREFIX`` and ``SHARDS``."""

    prefix: str
    shards: int

    @classmethod
    def of(cls, settings: Settings) -> Bus:
        return cls(settings.nats_prefix, settings.shards)

    @property
    def stream(self) -> str:
        return f"{self.prefix}_updates"

    def subject(self, shard: int) -> str:
        return f"{self.prefix}.updates.{shard}"

    def chat_subject(self, chat_id: int) -> str:
        return self.subject(shard_of(chat_id, self.shards))

    def consumer(self, shard: int) -> str:
        return f"{self.prefix}_shard_{shard}"

    def outbox_subject(self, part: int) -> str:
        """Plain NATS (not stored): "part k has replies to send", heard by the worker
        whose sender holds part k (it subscribes once it holds it)."""
        return f"{self.prefix}.outbox.{part}"

    @property
    def timers_subject(self) -> str:
        """Plain NATS (not stored): workers tell the scheduler about timers they set."""
        return f"{self.prefix}.timers"

    async def ensure(self, js: JetStreamContext) -> None:
        """Create the stream and the shard consumers if missing (every process may)."""
        try:
            await js.stream_info(self.stream)
        except NotFoundError:
            await js.add_stream(
                StreamConfig(
                    name=self.stream,
                    subjects=[f"{self.prefix}.updates.*"],
                    retention=RetentionPolicy.WORK_QUEUE,
                    storage=StorageType.FILE,
                    duplicate_window=DUPLICATE_WINDOW,
                )
            )
        for shard in range(self.shards):
            try:
                await js.consumer_info(self.stream, self.consumer(shard))
            except NotFoundError:
                await js.add_consumer(
                    self.stream,
                    ConsumerConfig(
                        durable_name=self.consumer(shard),
                        filter_subject=self.subject(shard),
                        ack_policy=AckPolicy.EXPLICIT,
                        deliver_policy=DeliverPolicy.ALL,
                        ack_wait=ACK_WAIT,
                        max_ack_pending=1,
                        max_deliver=-1,
                    ),
                )


async def connect(settings: Settings, name: str) -> NATS:
    """A client that keeps reconnecting for as long as the process lives."""
    return await nats.connect(
        settings.nats_url,
        name=name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.5,
        connect_timeout=5,
    )


def timer_json(timer: Timer) -> dict[str, Any]:
    return {
        "kind": timer.kind,
        "tournament_id": timer.tournament_id,
        "round": timer.round,
        "at": timer.at.isoformat(),
    }


def timer_from(data: dict[str, Any]) -> Timer:
    at = datetime.fromisoformat(data["at"])
    return Timer(data["kind"], data["tournament_id"], data["round"], at)


def timer_key(timer: Timer) -> str:
    """One firing of one timer: the Nats-Msg-Id of its message."""
    return f"timer:{timer.kind}:{timer.tournament_id}:{timer.round}:{timer.at.isoformat()}"


def action_json(inc: Incoming, event: int, reply: str) -> dict[str, Any]:
    """A Mini App action (``Core.act``) as a shard's message: the command as if typed by
    its user in its chat, the event it is about, and the inbox its outcome goes to."""
    return {"app": asdict(inc), "event": event, "reply": reply}


def action_from(data: dict[str, Any]) -> tuple[Incoming, int, str]:
    fields = dict(data["app"])
    fields["sender"] = Sender(**fields["sender"])
    return Incoming(**fields), int(data["event"]), str(data.get("reply", ""))


def acted_json(acted: Acted) -> bytes:
    return json.dumps(asdict(acted), ensure_ascii=False).encode()


def acted_from(raw: bytes) -> Acted:
    fields = json.loads(raw)
    return Acted(**{**fields, "said": tuple(fields.get("said", ()))})

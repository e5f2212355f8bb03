"""The three scale-out commands, started from ``bot.cli``."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.application.types import StartupError
from bot.config import Settings

HELP = {
    "gateway": "webhook endpoint: setWebhook at start-up, then store each update in "
    "NATS JetStream, sharded by chat (WEBHOOK_URL, WEBHOOK_SECRET, GATEWAY_HOST, "
    "GATEWAY_PORT, NATS_URL, SHARDS)",
    "worker": "handle the stored updates, one at a time per chat, and send the replies "
    "within one shared budget; beyond WORKERS_PER_HOST on one host (its cores), a worker "
    "stands by (DATABASE_URL on PostgreSQL, NATS_URL, SHARDS, WORKER_HOST)",
    "scheduler": "run the round timers; start two or more: one leads (a PostgreSQL "
    "advisory lock), the others take over within seconds of its death",
}


def problem(command: str, settings: Settings) -> str | None:
    """What keeps ``command`` from starting, in one line; None when it can start."""
    if not settings.bot_token:
        return "BOT_TOKEN is not set"
    if command in ("worker", "scheduler") and not settings.database_url.startswith("postgresql"):
        return f"tourbot {command} needs DATABASE_URL on PostgreSQL (processes share it)"
    if command == "gateway" and not (settings.webhook_url and settings.webhook_secret):
        return "tourbot gateway needs WEBHOOK_URL and WEBHOOK_SECRET"
    return None


def main(command: str, settings: Settings) -> int:
    if (why := problem(command, settings)) is not None:
        print(f"tourbot: {why}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO, format=f"%(asctime)s %(levelname)s {command}: %(message)s"
    )
    if command == "gateway":
        from bot.transport.scaleout.gateway import Gateway

        run = Gateway(settings).run_forever
    elif command == "worker":
        from bot.transport.scaleout.worker import Worker

        run = Worker(settings).run_forever
    else:
        from bot.transport.scaleout.scheduler import Scheduler

        run = Scheduler(settings).run_forever
    try:
        asyncio.run(run())
    except StartupError as exc:
        print(f"tourbot: the Bot API at {settings.bot_api_url}: {exc.detail}", file=sys.stderr)
        return 2
    return 0

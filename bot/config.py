"""Settings from the environment (or ``.env``), named as
docs/operations.md#configuration lists them."""

from __future__ import annotations

import os
from dataclasses import dataclass

from dotenv import load_dotenv


@dataclass(frozen=True)
class Settings:
    bot_token: str = ""
    bot_api_url: str = "https://api.telegram.org"
    backend: str = "aiogram"
    database_url: str = "sqlite+aiosqlite:///./tourbot.db"
    default_tz: str = "Asia/Shanghai"
    default_lang: str = "zh"
    per_chat_per_minute: int = 20  # Telegram's limit for one group
    edit_gap: float = 3.0  # seconds between two broadcast edits of one message
    poll_timeout: int = 25  # long-polling wait, seconds
    # Days sent outbox rows and processed update ids are kept (docs/operations.md#retention).
    retention_days: int = 14
    # Scale-out mode (tourbot gateway / worker / scheduler); see bot/transport/scaleout.
    nats_url: str = "nats://127.0.0.1:4222"
    nats_prefix: str = "tourbot"  # stream, subject and consumer names start with it
    webhook_url: str = ""  # the public HTTPS URL Telegram calls; the gateway serves its path
    webhook_secret: str = ""  # setWebhook's secret_token; requests without it get 401
    gateway_host: str = "127.0.0.1"
    gateway_port: int = 8080
    shards: int = 16  # update subjects; one chat always maps to the same shard
    per_second: int = 30  # messages a second from the whole bot (all workers together)
    workers_per_host: int = 0  # workers consuming at once on one host (0: its cores)
    worker_host: str = ""  # the host whose cores the workers share ("": the machine's name)
    # The public live page (/live): served by `tourbot run` only when web_port is set
    # (0: any free port); public_url is the base of its links (default http://host:port).
    public_url: str = ""
    web_host: str = "127.0.0.1"
    web_port: int | None = None
    # The Mini App (docs/operations.md#mini-app): its short name at BotFather ("main":
    # the bot's main Mini App; "": none, the chat offers no link), and where its pages
    # load Telegram's script from.
    miniapp_name: str = ""
    miniapp_script: str = "https://telegram.org/js/telegram-web-app.js"

    @classmethod
    def from_env(cls) -> Settings:
        """Read the environment, after loading ``.env`` if present (the environment wins)."""
        load_dotenv()
        env = os.environ
        return cls(
            bot_token=env.get("BOT_TOKEN", ""),
            bot_api_url=env.get("BOT_API_URL", cls.bot_api_url).rstrip("/"),
            backend=env.get("BOT_BACKEND", cls.backend).lower(),
            database_url=env.get("DATABASE_URL", cls.database_url),
            default_tz=env.get("DEFAULT_TZ", cls.default_tz),
            default_lang=env.get("DEFAULT_LANG", cls.default_lang),
            per_chat_per_minute=int(env.get("RATE_PER_CHAT_MINUTE", cls.per_chat_per_minute)),
            poll_timeout=int(env.get("POLL_TIMEOUT", cls.poll_timeout)),
            retention_days=int(env.get("RETENTION_DAYS", cls.retention_days)),
            nats_url=env.get("NATS_URL", cls.nats_url),
            nats_prefix=env.get("NATS_PREFIX", cls.nats_prefix),
            webhook_url=env.get("WEBHOOK_URL", cls.webhook_url),
            webhook_secret=env.get("WEBHOOK_SECRET", cls.webhook_secret),
            gateway_host=env.get("GATEWAY_HOST", cls.gateway_host),
            gateway_port=int(env.get("GATEWAY_PORT", cls.gateway_port)),
            shards=int(env.get("SHARDS", cls.shards)),
            per_second=int(env.get("RATE_PER_SECOND", cls.per_second)),
            workers_per_host=int(env.get("WORKERS_PER_HOST", cls.workers_per_host)),
            worker_host=env.get("WORKER_HOST", cls.worker_host),
            public_url=env.get("PUBLIC_URL", cls.public_url).rstrip("/"),
            web_host=env.get("WEB_HOST", cls.web_host),
            web_port=int(env["WEB_PORT"]) if env.get("WEB_PORT", "").strip() else None,
            miniapp_name=env.get("MINIAPP_NAME", cls.miniapp_name).strip(),
            miniapp_script=env.get("MINIAPP_SCRIPT", cls.miniapp_script),
        )

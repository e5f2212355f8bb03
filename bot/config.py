"""Settings from the environment (or ``.env``), with the names SPEC.md fixes."""

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
    poll_timeout: int = 25  # long-polling wait, seconds

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
        )

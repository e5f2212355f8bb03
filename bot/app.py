"""Assembles the bot: database (migrated), core, outgoing queue, timers, transport.

The adapter chosen by ``BOT_BACKEND`` is the only part that knows a Telegram library;
everything it receives goes to ``Core.handle`` and everything sent goes through the
``Sender``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot.application.commands import menu_entries
from bot.application.core import Core
from bot.application.routes import COMMANDS
from bot.application.types import StartupError
from bot.config import Settings
from bot.language.i18n import LANGS, Catalogue
from bot.presentation.pictures import close_drawer
from bot.transport.outbox import Sender
from bot.transport.scheduler import Timers
from db.migrate import upgrade_apart
from db.session import make_engine, make_sessionmaker, sender_engine

log = logging.getLogger(__name__)


def make_runner(settings: Settings) -> Any:
    if settings.backend == "ptb":
        from bot.transport.adapters.ptb_adapter import PTBRunner

        return PTBRunner(settings)
    if settings.backend == "aiogram":
        from bot.transport.adapters.aiogram_adapter import AiogramRunner

        return AiogramRunner(settings)
    raise SystemExit(f"BOT_BACKEND must be 'aiogram' or 'ptb', not {settings.backend!r}")


# Young collections every 20,000 new containers instead of 700: one update's ORM objects
# die young either way, and collecting them 30 times less often costs no memory to speak of.
GC_THRESHOLDS = (20_000, 20, 20)


def settle_heap() -> None:
    """Once started, move everything alive (the Telegram library's models, SQLAlchemy's
    mappers, the message catalogue) out of the collector's sight: a full collection then
    walks only what updates allocated, not a heap of hundreds of thousands of objects
    that will live as long as the process (Python's gc.freeze, made for this)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def publish_menu(transport: Any, catalogue: Catalogue, default_lang: str) -> None:
    """The "/" menu in each language; the default language for everyone else."""
    for lang, code in ((default_lang, None), *((lang, lang) for lang in LANGS)):
        t = catalogue[lang]
        try:
            await transport.set_commands(menu_entries(t, COMMANDS), code)
        except Exception:  # a missing menu is cosmetic; never keep the bot from starting
            log.warning("could not publish the %s command menu", lang, exc_info=True)


class App:
    def __init__(
        self, settings: Settings, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._poll: asyncio.Task[None] | None = None
        self._web: Any = None  # the live page's server, when WEB_PORT is set

    async def start(self) -> None:
        self.engine = make_engine(self.settings.database_url)
        await upgrade_apart(self.engine)
        sessionmaker = make_sessionmaker(self.engine)
        self.runner = make_runner(self.settings)
        try:
            await self.runner.prepare()
        except StartupError:
            await self.runner.stop()
            await self.engine.dispose()
            raise
        catalogue = Catalogue()
        miniapp = None
        if self.settings.web_port is not None:
            from bot.transport.live_page import LivePages, serve
            from bot.transport.miniapp import MiniApp

            pages = LivePages(self.settings, catalogue, sessionmaker, self.clock)
            miniapp = MiniApp(self.settings, catalogue, sessionmaker, clock=self.clock)
            host, port = self.settings.web_host, self.settings.web_port
            self._web, base = await serve([pages, miniapp], host, port)
            self.settings = replace(self.settings, public_url=self.settings.public_url or base)
            log.info("live pages and Mini App at %s (public: %s)", base, self.settings.public_url)
        self.core = Core(self.settings, sessionmaker, catalogue, self.runner.transport, self.clock)
        if miniapp is not None:  # its actions run through the core, as typed commands
            miniapp.act, miniapp.admins = self.core.act, self.core.admins
        self.sender = Sender(
            sessionmaker,
            self.runner.transport,
            self.settings.per_chat_per_minute,
            self.settings.edit_gap,
            exclusive=True,
            engine=sender_engine(self.engine),
        )
        self.core.on_outbox = self.sender.wake
        self.sender.on_refused = self.core.delivery_refused  # organisers told, people marked
        self.sender.on_resumed = self.core.delivery_resumed
        self.timers = Timers(self.core)
        await publish_menu(self.runner.transport, self.core.catalogue, self.settings.default_lang)
        self.sender.start()  # first: replies left queued by a crash go out now
        await self.timers.start()
        settle_heap()
        self._poll = asyncio.create_task(self.runner.poll(self.core.handle_many), name="polling")
        log.info(
            "tourbot started as @%s (%s)", self.runner.transport.bot_username, self.settings.backend
        )

    async def stop(self) -> None:
        self.timers.stop()
        if self._poll is not None:  # before the transport closes under a waiting long poll
            self._poll.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._poll
        await self.sender.stop()  # before the transport closes under a message in flight
        if self._web is not None:
            await self._web.cleanup()
            self._web = None
        await self.runner.stop()
        await self.sender.engine.dispose()
        await self.engine.dispose()
        close_drawer()

    async def run_forever(self) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await self.start()
        try:
            await stop.wait()
        finally:
            await self.stop()

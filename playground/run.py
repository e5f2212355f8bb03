"""``tourbot playground``: the fake Telegram, its page and the real bot, in one process.

The bot is the production ``App`` with a few settings changed: the token the local server
accepts, ``BOT_API_URL`` pointing at it, ``DATABASE_URL`` pointing at the playground's
state file, and the Mini App on (the page opens its links, with the local Telegram's
``telegram-web-app.js``). Everything else (backend, language, time zone, rate limit)
comes from the environment as for ``tourbot run``.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import signal
import sys
from dataclasses import replace
from pathlib import Path

from aiohttp import web

from bot.app import App
from bot.application.miniapp_links import MAIN
from bot.config import Settings
from bot.language.i18n import Catalogue
from bot.transport.live_page import LivePages
from bot.transport.miniapp import MiniApp
from playground import cast
from playground.botapi import BotAPIServer, webapp
from playground.store import FILENAME, WorldStore
from playground.web import Page


class UnreadableState(Exception):
    """The saved rehearsal was written by another version of the playground."""


class Playground:
    """The server, its page and the bot, started and stopped together."""

    def __init__(self, settings: Settings, directory: Path, port: int, fresh: bool) -> None:
        self.store = WorldStore(directory / FILENAME)
        if fresh:
            self.store.delete()
        self.server = BotAPIServer(
            cast.TOKEN, cast.BOT_ID, cast.BOT_USERNAME, bot_first_name="TourBot"
        )
        state = self.store.load()
        self.resumed = state is not None
        if state is None:
            cast.populate(self.server)
        else:
            try:
                self.server.restore(state)
            except (KeyError, TypeError, ValueError) as exc:
                raise UnreadableState(f"{self.store.path.name} ({exc!r})") from exc
        self.page = Page(self.server, on_change=lambda: self.store.save_soon(self.server))
        self.settings = settings
        self.port = port
        self.url = ""
        self._runner: web.AppRunner | None = None
        self._bot: App | None = None

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self.server.add_routes(app)
        self.page.add_routes(app)
        live = LivePages(self.settings, Catalogue())
        live.add_routes(app)  # the public live page (/live), once the bot has started
        miniapp = MiniApp(self.settings, Catalogue())
        miniapp.add_routes(app)  # the Mini App (/console), likewise
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        bot_settings = replace(
            self.settings,
            bot_token=cast.TOKEN,
            bot_api_url=self.url,
            database_url=self.store.database_url,
            public_url=self.settings.public_url or self.url,
            miniapp_name=self.settings.miniapp_name or MAIN,  # the page opens its links
            miniapp_script=webapp.SCRIPT_PATH,  # the local Telegram's stand-in
        )
        miniapp.settings = bot_settings
        self._bot = App(bot_settings)
        await self._bot.start()
        live.sessionmaker = miniapp.sessionmaker = self._bot.core.sessionmaker
        miniapp.act, miniapp.admins = self._bot.core.act, self._bot.core.admins
        await self.store.flush(self.server)

    async def stop(self) -> None:
        """Bot first (its last replies still land), then the page; the world is saved."""
        if self._bot is not None:
            await self._bot.stop()
        await self.page.stop()
        await self.server.stop()
        await self.store.flush(self.server)
        if self._runner is not None:
            await self._runner.cleanup()


async def serve(settings: Settings, port: int, fresh: bool) -> None:
    """Run until SIGINT or SIGTERM; the page's URL is the last line printed at start-up."""
    playground = Playground(settings, Path.cwd(), port, fresh)
    try:
        await playground.start()
        print(
            f"tourbot playground: {'the saved' if playground.resumed else 'a fresh'} rehearsal "
            f"in {playground.store.path.name}; stop with Ctrl-C. Open:",
            flush=True,
        )
        print(f"{playground.url}/", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        await playground.stop()


def main(settings: Settings, port: int, fresh: bool) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(serve(settings, port, fresh))
    except UnreadableState as exc:
        print(f"tourbot playground: cannot read {exc}; start over with --fresh", file=sys.stderr)
        return 2
    except OSError as exc:
        if exc.errno not in (errno.EADDRINUSE, errno.EACCES):
            raise
        print(
            f"tourbot playground: cannot listen on 127.0.0.1:{port}: {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    return 0

"""``tourbot playground``: the fake Telegram, its page and the real bot, in one process.

The bot is the production ``App`` with three settings changed: the token the local server
accepts, ``BOT_API_URL`` pointing at it, and ``DATABASE_URL`` pointing at the playground's
state file. Everything else (backend, language, time zone, rate limit) comes from the
environment as for ``tourbot run``.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from dataclasses import replace
from pathlib import Path

from aiohttp import web

from bot.app import App
from bot.config import Settings
from playground import cast
from playground.botapi import BotAPIServer
from playground.store import FILENAME, WorldStore
from playground.web import Page


async def serve(settings: Settings, port: int, fresh: bool) -> None:
    """Run until SIGINT or SIGTERM; the page's URL is the last line printed at start-up."""
    store = WorldStore(Path.cwd() / FILENAME)
    if fresh:
        store.delete()
    server = BotAPIServer(cast.TOKEN, cast.BOT_ID, cast.BOT_USERNAME, bot_first_name="TourBot")
    state = store.load()
    if state is None:
        cast.populate(server)
    else:
        server.restore(state)
    page = Page(server, on_change=lambda: store.save_soon(server))
    app = web.Application(client_max_size=64 * 1024 * 1024)
    server.add_routes(app)
    page.add_routes(app)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    bot: App | None = None
    try:
        await web.TCPSite(runner, "127.0.0.1", port).start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        bot = App(
            replace(
                settings,
                bot_token=cast.TOKEN,
                bot_api_url=url,
                database_url=store.database_url,
            )
        )
        await bot.start()
        await store.flush(server)
        print(
            f"tourbot playground: {'a fresh' if state is None else 'the saved'} rehearsal in "
            f"{store.path.name}; stop with Ctrl-C. Open:",
            flush=True,
        )
        print(f"{url}/", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        if bot is not None:
            await bot.stop()
        await page.stop()
        await server.stop()
        await store.flush(server)
        await runner.cleanup()


def main(settings: Settings, port: int, fresh: bool) -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(serve(settings, port, fresh))
    except OSError as exc:  # the port is taken
        print(
            f"tourbot playground: cannot listen on 127.0.0.1:{port}: {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    return 0

"""``tourbot gateway``: Telegram's webhook endpoint, in front of JetStream.

It only checks the secret, checks that the body is an update (:func:`read_update`),
finds the chat, and stores the raw update in the chat's shard; it answers 200 only once
JetStream has acknowledged the publish, so an update Telegram was told we have is on
disk. Anything else (NATS down, a timeout) is a 503 and
Telegram retries; the retry carries the same ``update_id``, which JetStream's duplicate
window drops if the first attempt had in fact been stored. Gateways keep no state, so
any number can run behind a load balancer. With ``PUBLIC_URL`` set (the gateways'
public address) they also serve the events' live pages and the Mini App, read from the
database; a Mini App action goes into its chat's shard like an update, and the gateway
waits for the worker's outcome on a NATS inbox.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import make_runner
from bot.application.core import Acted, Admins
from bot.application.types import Incoming, StartupError
from bot.config import Settings
from bot.language.i18n import Catalogue
from bot.transport.scaleout.bus import MSG_ID, Bus, acted_from, action_json, connect
from bot.transport.scaleout.process import wait_for_signal
from db.keys import INT64
from db.session import make_engine, make_sessionmaker

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
UPDATES = ["message", "callback_query", "my_chat_member"]
PUBLISH_TIMEOUT = 5.0
# Levels of nesting of an update's JSON: a callback's message quoting a reply with its
# entities is about 8; a body nested deeper is no update.
MAX_DEPTH = 32


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):  # 1e999: no Telegram field is infinite
        raise ValueError(text)
    return value


def _no_constant(text: str) -> float:
    raise ValueError(text)  # NaN, Infinity: not JSON, and no Telegram value


def _sound(body: Any) -> bool:
    """Nested at most :data:`MAX_DEPTH` deep, every integer within 64 bits (the columns
    Telegram's ids are kept in): walked without recursion."""
    stack = [(body, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, int) and value not in INT64:
            return False
    return True


def read_update(body: bytes) -> dict[str, Any] | None:
    """The update a webhook body holds, or None when it holds none: not JSON (or nested
    past what the parser takes), numbers no Telegram field has, nesting deeper than any
    update, no whole-number ``update_id``, or a field of the update that is not an object
    (every field of Telegram's ``Update`` but its id is one: a message, a callback query…).

    What lies inside those objects is the Telegram library's to read, in the worker: this
    gateway stays light (no Telegram library to import or run), and a worker skips an
    update its library cannot read, with a warning."""
    try:
        update = json.loads(body, parse_float=_finite, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # a UnicodeDecodeError is a ValueError
        return None
    if not isinstance(update, dict) or not _sound(update):
        return None
    update_id = update.get("update_id")
    if type(update_id) is not int or update_id < 0:
        return None
    if not all(isinstance(value, dict) for key, value in update.items() if key != "update_id"):
        return None
    return update


ACT_WAIT = 10.0  # seconds a Mini App action waits for its worker's outcome


def chat_of(update: dict[str, Any]) -> int:
    """The chat an update belongs to (0 when it has none, e.g. an inline query)."""
    for kind, body in update.items():
        if not isinstance(body, dict):
            continue
        if kind == "callback_query":
            body = body.get("message") or {}
        chat = body.get("chat")
        if isinstance(chat, dict) and isinstance(chat.get("id"), int):
            return int(chat["id"])
    return 0


async def set_webhook(settings: Settings) -> None:
    """Point Telegram at ``WEBHOOK_URL`` with our secret (through ``BOT_API_URL``)."""
    url = f"{settings.bot_api_url}/bot{settings.bot_token}/setWebhook"
    body = {
        "url": settings.webhook_url,
        "secret_token": settings.webhook_secret,
        "allowed_updates": UPDATES,
        "max_connections": 100,
    }
    try:
        async with aiohttp.ClientSession() as http, http.post(url, json=body) as resp:
            answer = await resp.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise StartupError("unreachable", str(exc)) from exc
    if resp.status == 401:
        raise StartupError("token", answer.get("description", "Unauthorized"))
    if not answer.get("ok"):
        raise StartupError("unreachable", f"setWebhook: {answer.get('description')}")


class Gateway:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.bus = Bus.of(settings)
        self.path = urlsplit(settings.webhook_url).path or "/"
        self.engine: AsyncEngine | None = None
        self.pages: Any = None
        self.miniapp: Any = None
        self.runner: Any = None  # a Bot API client, for the chats' admins (the Mini App)
        if settings.public_url:  # the gateways are the public address: /live, the Mini App
            from bot.transport.live_page import LivePages
            from bot.transport.miniapp import MiniApp

            self.engine = make_engine(settings.database_url)
            sessionmaker, catalogue = make_sessionmaker(self.engine), Catalogue()
            self.pages = LivePages(settings, catalogue, sessionmaker)
            self.miniapp = MiniApp(settings, catalogue, sessionmaker, act=self.act)

    def app(self) -> web.Application:
        """The webhook's route; with ``PUBLIC_URL`` set, the events' live pages too (read
        from the database, so any gateway behind the balancer can answer)."""
        app = web.Application(client_max_size=1024 * 1024)
        app.router.add_post(self.path, self.handle)
        if self.pages is not None:
            self.pages.add_routes(app)
            self.miniapp.add_routes(app)
        return app

    async def act(self, inc: Incoming, event: int) -> Acted:
        """A Mini App action, run by the worker of its chat's shard in the chat's order
        (as a typed command would be); its outcome, or TimeoutError when none came back
        in time (it is stored and will run: the page is told so)."""
        inbox = self.nc.new_inbox()
        answer = await self.nc.subscribe(inbox, max_msgs=1)
        try:
            body = json.dumps(action_json(inc, event, inbox), ensure_ascii=False).encode()
            await self.js.publish(self.bus.chat_subject(inc.chat_id), body, timeout=PUBLISH_TIMEOUT)
            try:
                reply = await answer.next_msg(timeout=ACT_WAIT)
            except NatsTimeout:
                raise TimeoutError(f"no outcome of update {inc.update_id} yet") from None
        finally:
            with contextlib.suppress(Exception):
                await answer.unsubscribe()
        return acted_from(reply.data)

    async def handle(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.settings.webhook_secret.encode()):
            return web.Response(status=401, text="wrong secret token")
        body = await request.read()
        update = read_update(body)
        if update is None:
            return web.Response(status=400, text="not a Telegram update")
        update_id = update["update_id"]
        subject = self.bus.chat_subject(chat_of(update))
        try:
            await self.js.publish(
                subject, body, timeout=PUBLISH_TIMEOUT, headers={MSG_ID: str(update_id)}
            )
        except (NatsError, TimeoutError, OSError) as exc:
            log.warning("update %s not stored (%s); Telegram will retry", update_id, exc)
            return web.Response(status=503, text="try again")
        return web.Response(text="ok")

    async def run_forever(self) -> None:
        nc = self.nc = await connect(self.settings, "tourbot-gateway")
        self.js = nc.jetstream()
        await self.bus.ensure(self.js)
        if self.miniapp is not None:
            self.runner = make_runner(self.settings)
            await self.runner.prepare()
            self.miniapp.admins = Admins(self.runner.transport.chat_admins)
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.settings.gateway_host, self.settings.gateway_port)
        await site.start()
        try:
            await set_webhook(self.settings)
            log.info(
                "gateway on %s:%s%s → %s",
                self.settings.gateway_host,
                self.settings.gateway_port,
                self.path,
                self.bus.stream,
            )
            await wait_for_signal()
        finally:
            await runner.cleanup()
            await nc.drain()
            if self.runner is not None:
                await self.runner.stop()
            if self.engine is not None:
                await self.engine.dispose()

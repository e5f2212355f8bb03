"""The Mini App's API over :class:`tests.handlers.memory.Chats`: the real routes
(``bot.transport.miniapp``) on a local aiohttp server, their actions run by the same
in-memory ``Core``, launch data signed as Telegram signs it (``playground.botapi.webapp``).
"""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

from bot.application.miniapp_links import CONSOLE, FORM, payload
from bot.config import Settings
from bot.transport.miniapp import MiniApp
from db.models import Tournament
from playground.botapi.webapp import init_data
from tests.handlers.memory import CATALOGUE, Chats

TOKEN = "123456:TEST"


@dataclass
class Answer:
    status: int
    body: Any


class MiniAppClient:
    """Speak to the Mini App as Telegram users of ``chats``."""

    def __init__(self, chats: Chats) -> None:
        self.chats = chats
        self.settings = Settings(bot_token=TOKEN)
        self.app = MiniApp(
            self.settings,
            CATALOGUE,
            chats.sessionmaker,
            chats.core.act,
            chats.core.admins,
            clock=lambda: chats.now,
        )
        self._requests = itertools.count(1)
        self.server: TestServer | None = None
        self.http: ClientSession | None = None

    async def __aenter__(self) -> MiniAppClient:
        app = web.Application()
        self.app.add_routes(app)
        self.server = TestServer(app)
        await self.server.start_server()
        self.http = ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.http is not None and self.server is not None
        await self.http.close()
        await self.server.close()

    def launch(self, uid: int, **changes: Any) -> str:
        """Launch data for user ``uid`` (as the chats know them), signed now."""
        user = self.chats.users[uid]
        who = {"id": uid, "first_name": user.name, "language_code": user.language_code}
        if user.username:
            who["username"] = user.username
        when = int(changes.pop("auth_date", self.chats.now.timestamp()))
        return init_data(changes.pop("token", TOKEN), who, when, **changes)

    def url(self, path: str) -> str:
        assert self.server is not None
        return str(self.server.make_url(path))

    async def get(self, path: str, init: str | None, **query: str) -> Answer:
        assert self.http is not None
        headers = {"Authorization": f"tma {init}"} if init is not None else {}
        async with self.http.get(self.url(path), params=query, headers=headers) as answer:
            return Answer(answer.status, await answer.json(content_type=None))

    async def post(self, path: str, init: str | None, body: Any) -> Answer:
        assert self.http is not None
        headers = {"Authorization": f"tma {init}"} if init is not None else {}
        async with self.http.post(self.url(path), json=body, headers=headers) as answer:
            return Answer(answer.status, await answer.json(content_type=None))

    async def state(self, uid: int, start: str) -> Answer:
        return await self.get("/app/api/state", self.launch(uid), start=start)

    async def act(
        self, uid: int, start: str, action: str, init: str | None = None, **fields: Any
    ) -> Answer:
        """One action, then the chat's messages delivered (as the sender would)."""
        body = {
            "start": start,
            "action": action,
            "fields": fields,
            "request": f"req{next(self._requests)}{secrets.token_hex(4)}",
        }
        answer = await self.post("/app/api/action", init or self.launch(uid), body)
        await self.chats.deliver()
        return answer


def console(t: Tournament) -> str:
    return payload(CONSOLE, t)


def form(t: Tournament) -> str:
    return payload(FORM, t)


def with_miniapp(chats: Chats) -> None:
    """The core's settings with a Mini App set up (its links in the chat)."""
    chats.core.settings = replace(
        chats.core.settings, public_url="https://tour.example", miniapp_name="console"
    )

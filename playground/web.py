"""The playground page: the group chat as Telegram would show it, on the Bot API's port.

The browser reads chats as JSON (``/api/chat/{id}``), hears that something changed by
Server-Sent Events (``/events``, a version number) and acts through small POSTs that
become real Telegram updates: ``say`` is a message, ``press`` a button press whose
answer (the toast) is returned. Photos and documents come from ``/media``, the CJK web
font from ``/fonts/cjk.woff`` (:mod:`playground.webfont`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from aiohttp import web

from playground import cast, demo, webfont
from playground.botapi import BotAPIServer, webapp
from playground.botapi.records import JSON, SentMessage
from playground.botapi.updates import Signal

STATIC = resources.files("playground") / "static"
STATIC_TYPES = {"index.html": "text/html", "app.js": "text/javascript", "style.css": "text/css"}
KEEPALIVE = 15.0  # seconds between SSE comments, so proxies and browsers keep the stream
PRESS_WAIT = 5.0  # seconds to wait for the bot's answer to a button press

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

log = logging.getLogger(__name__)


class Page:
    """The page's routes, and the change counter every open page listens to."""

    def __init__(self, server: BotAPIServer, on_change: Callable[[], None]) -> None:
        self.server = server
        self.version = 0
        self._signal = Signal()
        self._on_change = on_change
        self._demo: asyncio.Task[None] | None = None
        self._launches = 0  # each launch a page of its own

    def add_routes(self, app: web.Application) -> None:
        app.middlewares.append(self._track_bot)
        app.router.add_get("/", self._static)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get(webfont.PATH, webfont.serve)
        app.router.add_get(webfont.EMOJI_PATH, webfont.serve_emoji)
        app.router.add_get("/events", self._events)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/chat/{chat}", self._chat)
        app.router.add_get("/media/{chat}/{message}", self._media)
        app.router.add_post("/api/say", self._say)
        app.router.add_post("/api/press", self._press)
        app.router.add_post("/api/player", self._add_player)
        app.router.add_post("/api/demo", self._start_demo)
        app.router.add_post("/api/webapp", self._launch)

    def changed(self) -> None:
        """Something visible changed: wake every page and save soon."""
        self.version += 1
        self._signal.notify()
        self._on_change()

    async def stop(self) -> None:
        if self._demo is not None:
            self._demo.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._demo

    # ------------------------------------------------------------------ reading

    @web.middleware
    async def _track_bot(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every Bot API call but a read (``get…``, long polls too) may change the page."""
        response = await handler(request)
        method = request.match_info.get("method", "")
        if method and not method.lower().startswith("get"):
            self.changed()
        return response

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info.get("name", "index.html")
        if name not in STATIC_TYPES:
            raise web.HTTPNotFound()
        body = (STATIC / name).read_bytes()
        return web.Response(body=body, content_type=STATIC_TYPES[name], charset="utf-8")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The change counter as a stream, until the page goes away.

        A closed tab is only noticed at the next write, which then fails: that is the
        normal end of a stream, so it is one line in the log, not a traceback.
        """
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        sent = -1
        try:
            while True:
                if sent != self.version:
                    sent = self.version
                    await response.write(f"data: {sent}\n\n".encode())
                else:
                    await response.write(b": keepalive\n\n")
                await self._signal.wait(KEEPALIVE)
        except ConnectionResetError:  # aiohttp's ClientConnectionResetError is one
            log.info("a page closed (%s)", request.remote)
        return response

    async def _state(self, request: web.Request) -> web.Response:
        world = self.server.world
        chats = []
        for chat in world.chats.values():
            if chat.type == "private" and not chat.messages:
                continue
            title = chat.title or world.users.get(chat.id, {}).get("first_name", str(chat.id))
            chats.append(
                {
                    "id": chat.id,
                    "title": title,
                    "private": chat.type == "private",
                    "last": max(chat.messages, default=0),
                }
            )
        chats.sort(key=lambda c: (c["private"], c["id"] != cast.GROUP, c["title"]))
        return _json(
            {
                "version": self.version,
                "bot": world.bot_first_name,
                "people": cast.speaker_names(self.server),
                "chats": chats,
                "demo_running": self._demo is not None and not self._demo.done(),
            }
        )

    async def _chat(self, request: web.Request) -> web.Response:
        chat = self.server.world.chats.get(_int(request.match_info["chat"]))
        if chat is None:
            raise web.HTTPNotFound()
        sent = {m.message_id: m for m in self.server.outbox(chat.id)}
        messages = [
            self._view(chat.id, message, sent.get(mid))
            for mid, message in sorted(chat.messages.items())
        ]
        shown = [m for m in messages if m is not None]
        pinned = [m for m in shown if m["pinned"]]
        return _json({"id": chat.id, "messages": shown, "pinned": pinned[-1] if pinned else None})

    def _view(self, chat_id: int, message: JSON, sent: SentMessage | None) -> JSON | None:
        """What a Telegram client shows of one message; ``None`` for service messages."""
        author = message.get("sender_chat") or message.get("from") or {}
        view: JSON = {
            "id": message["message_id"],
            "date": message["date"],
            "from_id": (message.get("from") or {}).get("id"),
            "name": author.get("title") or author.get("first_name", ""),
            "bot": sent is not None,
            "text": message.get("text") or message.get("caption") or "",
            "edited": "edit_date" in message,
            "pinned": bool(sent and sent.pinned),
            # The bot's reaction: how it acknowledges a typed /join without a message.
            "reactions": self.server.reactions.get((chat_id, message["message_id"]), []),
            "buttons": [
                [
                    {
                        "text": b.get("text", ""),
                        "data": b.get("callback_data"),
                        "url": b.get("url"),
                        "web_app": (b.get("web_app") or {}).get("url"),
                    }
                    for b in row
                ]
                for row in (message.get("reply_markup") or {}).get("inline_keyboard", [])
            ],
        }
        if sent is not None and sent.photo is not None:
            # A new address after each edit, so a redrawn picture is not the cached one.
            view["photo"] = f"/media/{chat_id}/{sent.message_id}?v={len(sent.edits)}"
        if sent is not None and sent.document is not None:
            view["document"] = {
                "name": sent.filename or "file",
                "url": f"/media/{chat_id}/{sent.message_id}",
            }
        if replied := message.get("reply_to_message"):
            who = replied.get("sender_chat") or replied.get("from") or {}
            view["reply_to"] = {
                "name": who.get("title") or who.get("first_name", ""),
                "text": (replied.get("text") or replied.get("caption") or "")[:80],
            }
        if not (view["text"] or "photo" in view or "document" in view):
            return None
        return view

    async def _media(self, request: web.Request) -> web.Response:
        chat, message = _int(request.match_info["chat"]), _int(request.match_info["message"])
        sent = next((m for m in self.server.outbox(chat) if m.message_id == message), None)
        if sent is not None and sent.photo is not None:
            kind = "image/jpeg" if sent.photo[:2] == b"\xff\xd8" else "image/png"
            return web.Response(body=sent.photo, content_type=kind)
        if sent is not None and sent.document is not None:
            name = sent.filename or "file"
            disposition = f"attachment; filename*=UTF-8''{quote(name)}"
            return web.Response(
                body=sent.document,
                content_type="text/csv" if name.endswith(".csv") else "application/octet-stream",
                headers={"Content-Disposition": disposition},
            )
        raise web.HTTPNotFound()

    # ------------------------------------------------------------------ acting

    async def _say(self, request: web.Request) -> web.Response:
        body = await _body(request)
        chat, uid, text = _int(body.get("chat")), _int(body.get("as")), str(body.get("text", ""))
        self._check(chat, uid)
        if not text.strip():
            raise web.HTTPBadRequest(text="empty message")
        private = self.server.world.chats[chat].type == "private"
        if private and chat != uid:
            raise web.HTTPBadRequest(text="only that player can write in this private chat")
        anonymous = uid == cast.ANONYMOUS and not private
        self.server.user_says(chat, uid, text, sender_chat_id=chat if anonymous else None)
        self.changed()
        return _json({"ok": True})

    async def _press(self, request: web.Request) -> web.Response:
        body = await _body(request)
        chat, uid = _int(body.get("chat")), _int(body.get("as"))
        self._check(chat, uid)
        try:
            query = self.server.user_presses(
                chat, uid, _int(body.get("message")), str(body.get("data"))
            )
        except ValueError as exc:  # the button went away meanwhile
            return _json({"ok": False, "toast": str(exc)}, status=409)
        self.changed()
        try:
            answer = await self.server.wait_for_callback_answer(query, timeout=PRESS_WAIT)
        except TimeoutError:
            return _json({"ok": True, "toast": None})
        return _json({"ok": True, "toast": answer.text, "alert": answer.show_alert})

    async def _add_player(self, request: web.Request) -> web.Response:
        name = str((await _body(request)).get("name", "")).strip()[:64]
        if not name:
            raise web.HTTPBadRequest(text="a player needs a name")
        person = cast.new_player(self.server, name)
        self.changed()
        return _json({"ok": True, "uid": person.uid})

    async def _start_demo(self, request: web.Request) -> web.Response:
        if self._demo is not None and not self._demo.done():
            return _json({"ok": False, "chat": None}, status=409)
        chat = cast.new_demo_group(self.server)
        self._demo = asyncio.create_task(demo.play(self.server, chat, self.changed), name="demo")
        self.changed()
        return _json({"ok": True, "chat": chat})

    async def _launch(self, request: web.Request) -> web.Response:
        """What a Telegram client does when a Mini App button or link is tapped: the app's
        URL with the launch data of the player speaking, signed with the bot's token."""
        body = await _body(request)
        uid, target = _int(body.get("as")), urlsplit(str(body.get("url", "")))
        if uid not in self.server.world.users:
            raise web.HTTPBadRequest(text=f"nobody with id {uid}")
        bot = self.server.bot_username
        start = parse_qs(target.query).get("startapp", [""])[0]
        if target.netloc == "t.me" and target.path.split("/")[1:2] == [bot] and start:
            app = "/app"  # a direct link (or the main Mini App's): the payload is signed
        elif target.path == "/app":
            app, start = f"/app?{target.query}", ""  # a web_app button: the page itself
        else:
            raise web.HTTPBadRequest(text="not a Mini App of this bot")
        user = self.server.world.user(uid)
        signed = webapp.init_data(self.server.token, user, int(time.time()), start_param=start)
        self._launches += 1
        joiner = "&" if "?" in app else "?"
        return _json({"url": webapp.launch_url(f"{app}{joiner}n={self._launches}", signed)})

    def _check(self, chat: int, uid: int) -> None:
        if uid not in self.server.world.users:
            raise web.HTTPBadRequest(text=f"nobody with id {uid}")
        if chat not in self.server.world.chats:
            raise web.HTTPBadRequest(text=f"no chat {chat}")


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(data, ensure_ascii=False), status=status, content_type="application/json"
    )


async def _body(request: web.Request) -> JSON:
    try:
        data = await request.json()
    except (ValueError, RecursionError) as exc:  # not JSON, or nested past the parser
        raise web.HTTPBadRequest(text="expected a JSON object") from exc
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text="expected a JSON object")
    return data


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError) as exc:  # 1e999 is an infinite float
        raise web.HTTPBadRequest(text=f"not a number: {value!r}") from exc

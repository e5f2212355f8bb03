"""A local Telegram Bot API server that real aiogram and python-telegram-bot clients use.

Point a client at :attr:`BotAPIServer.url` (aiogram:
``TelegramAPIServer.from_base(server.url)``; PTB: ``base_url=server.url + "/bot"``,
``base_file_url=server.url + "/file/bot"``) and the bot runs unchanged. The test plays
the users (:meth:`~BotAPIServer.user_says`, :meth:`~BotAPIServer.user_presses`) and reads
what the bot sent (:meth:`~BotAPIServer.wait_for`, :meth:`~BotAPIServer.outbox`).
The full test-side API is described in the package docstring (``playground/botapi``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus

from aiohttp import web

from playground.botapi import snapshot, webapp
from playground.botapi.methods import BotMethods, Handler
from playground.botapi.outbox import Outbox, Predicate
from playground.botapi.records import JSON, Call, CallbackAnswer, SentMessage, Upload
from playground.botapi.updates import UpdateQueue
from playground.botapi.wire import ApiError, command_entities, read_request
from playground.botapi.world import (
    ADMIN_RIGHTS,
    ANONYMOUS_ADMIN,
    CHANNEL_BOT,
    Chat,
    World,
    without_reply,
)

# Load tests queue thousands of requests at once; the default backlog of 128 would make
# the kernel drop SYNs and the client retry a second later.
LISTEN_BACKLOG = 4096

_DEFAULT_FAILURES = {
    429: "Too Many Requests: retry after {retry_after}",
    500: "Internal Server Error",
    502: "Bad Gateway",
    403: "Forbidden: bot was blocked by the user",
}
# What a proxy in front of the Bot API answers when Telegram does not (nginx's page).
HTML_ERROR = (
    "<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n"
    "<center><h1>{status} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
# A button on a message older than this is pressed on an InaccessibleMessage (date 0):
# Telegram no longer sends such a message's content (seen after hours to days).
INACCESSIBLE_AFTER = 24 * 3600.0


@dataclass
class _Failure:
    status: int
    description: str
    parameters: JSON | None
    times: int
    html: bool = False  # answer with a proxy's HTML page, not Telegram's JSON
    delivered: bool = False  # do what was asked, then answer with the error
    chat_id: int | None = None  # only calls for this chat fail

    def error(self) -> ApiError:
        return ApiError(self.status, self.description, self.parameters)


class BotAPIServer:
    """The fake Telegram: chats, users, an update queue and everything the bot sent."""

    def __init__(
        self,
        token: str = "123456:TEST",
        bot_id: int = 123456,
        bot_username: str = "tourbot_bot",
        *,
        bot_first_name: str = "TourBot",
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.token = token
        self.calls: list[Call] = []
        self.unknown_methods: list[str] = []
        self._world = World(bot_id, bot_username, bot_first_name, privacy_mode, clock)
        self._updates = UpdateQueue()
        self._outbox = Outbox()
        self._api = BotMethods(self._world, self._updates, self._outbox)
        handlers: dict[str, Handler] = {"getUpdates": self._get_updates, **self._api.table()}
        self._methods = {name.lower(): (name, fn) for name, fn in handlers.items()}
        self._failures: dict[str, list[_Failure]] = {}
        self._callback_ids = itertools.count(7_000_001)
        self._last_activity = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port (see :attr:`url`)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.SockSite(self._runner, _listener(), backlog=LISTEN_BACKLOG)
        await site.start()
        self._port = int(self._runner.addresses[0][1])

    def listening_sockets(self) -> list[socket.socket]:
        """The listener's sockets (to check its options)."""
        if self._runner is None:
            return []
        return [
            sock
            for site in self._runner.sites
            for sock in getattr(getattr(site, "_server", None), "sockets", ())
        ]

    def add_routes(self, app: web.Application) -> None:
        """Serve the Bot API from ``app`` too: the playground shares one port with its page."""
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        app.router.add_get(webapp.SCRIPT_PATH, webapp.serve_script)  # as telegram.org does

    async def stop(self) -> None:
        """Answer pending long polls with no updates and close the listener."""
        self._updates.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> BotAPIServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321`` (no trailing slash)."""
        if self._port is None:
            raise RuntimeError("BotAPIServer.start() has not been awaited")
        return f"http://127.0.0.1:{self._port}"

    @property
    def bot_id(self) -> int:
        return self._world.bot_id

    @property
    def bot_username(self) -> str:
        return self._world.bot_username

    @property
    def answered_callbacks(self) -> dict[str, CallbackAnswer]:
        """The bot's ``answerCallbackQuery`` calls by callback query id, in order."""
        return self._api.answered_callbacks

    @property
    def reactions(self) -> dict[tuple[int, int], list[str]]:
        """The bot's current ``setMessageReaction`` emoji by (chat id, message id)."""
        return self._api.reactions

    @property
    def my_commands(self) -> dict[tuple[str, str], list[JSON]]:
        """``setMyCommands`` by (scope key, language code), e.g. ``("default", "")``,
        ``("all_group_chats", "zh")``, ``("chat:-100123", "en")``."""
        return self._api.my_commands

    @property
    def world(self) -> World:
        """The users and chats, with every stored message (the playground page reads them)."""
        return self._world

    def snapshot(self) -> JSON:
        """The world and everything the bot sent, as JSON (see ``snapshot.py``)."""
        return snapshot.dump(self._world, self._outbox, self._api, self._updates)

    def restore(self, state: JSON) -> None:
        """Load a :meth:`snapshot` into this server before the bot starts polling."""
        snapshot.load(state, self._world, self._outbox, self._api, self._updates)

    # ------------------------------------------------------------------ world setup

    def add_user(
        self,
        uid: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "zh",
    ) -> JSON:
        """Register a Telegram user; returns the ``User`` object updates will carry."""
        user: JSON = {"id": uid, "is_bot": False, "first_name": first_name}
        optional = {"last_name": last_name, "username": username, "language_code": language_code}
        user.update({k: v for k, v in optional.items() if v is not None})
        self._world.users[uid] = user
        return user

    def add_chat(
        self,
        chat_id: int,
        title: str | None = "Test group",
        type: str = "supergroup",
        admins: list[int] | None = None,
        is_forum: bool = False,
        *,
        bot_is_admin: bool = True,
        username: str | None = None,
        members: list[int] | None = None,
        bot_rights: tuple[str, ...] | None = None,
    ) -> None:
        """Create a chat. ``admins[0]`` is its creator; the bot is an admin unless told,
        with every administrator right unless ``bot_rights`` names the ones it has (e.g.
        ``()``: an admin that may not pin messages).

        A non-admin bot in a group with ``privacy_mode`` only receives commands, replies
        to its messages and mentions of it, as on Telegram.
        """
        self._world.chats[chat_id] = Chat(
            id=chat_id,
            type=type,
            title=None if type == "private" else title,
            admins=list(admins or []),
            is_forum=is_forum,
            bot_is_admin=bot_is_admin,
            username=username,
            members=set(admins or []) | set(members or []),
            bot_rights=frozenset(ADMIN_RIGHTS if bot_rights is None else bot_rights),
        )

    # ------------------------------------------------------------------ users act

    def user_says(
        self,
        chat_id: int,
        uid: int,
        text: str,
        thread_id: int | None = None,
        sender_chat_id: int | None = None,
        *,
        reply_to: int | None = None,
    ) -> JSON:
        """User ``uid`` sends ``text``; queues a ``message`` update and returns the Message.

        ``thread_id`` posts into a forum topic. ``sender_chat_id`` posts on behalf of a
        chat: the group itself for an anonymous admin (``from`` is GroupAnonymousBot and
        ``uid`` stays hidden, as on Telegram) or a channel. ``reply_to`` is a message id in
        the same chat. Messages the bot would not see (privacy mode) are stored but not
        queued. Unknown users get a placeholder name; ``chat_id == uid`` opens a private
        chat.
        """
        world = self._world
        chat = world.test_chat(chat_id, uid)
        message = world.new_message(chat, thread_id)
        if sender_chat_id is None:
            message["from"] = world.user(uid)
            chat.members.add(uid)
        elif sender_chat_id == chat.id:
            message["from"] = dict(ANONYMOUS_ADMIN)
            message["sender_chat"] = world.chat_json(chat)
        else:
            message["from"] = dict(CHANNEL_BOT)
            message["sender_chat"] = world.chat_json(world.test_chat(sender_chat_id, uid))
        message["text"] = text
        if entities := command_entities(text):
            message["entities"] = entities
        if reply_to is not None:
            if reply_to not in chat.messages:
                raise KeyError(f"no message {reply_to} in chat {chat_id}")
            message["reply_to_message"] = without_reply(chat.messages[reply_to])
        chat.messages[message["message_id"]] = message
        if world.bot_sees(chat, message):
            self._updates.push("message", message)
        return message

    def user_presses(
        self, chat_id: int, uid: int, message_id: int, data: str, *, inaccessible: bool = False
    ) -> str:
        """User ``uid`` presses the inline button carrying ``data`` on a bot message.

        Queues a ``callback_query`` update and returns its id. Refuses (``ValueError``)
        buttons that the message does not show, since no user could press them. On a
        message older than :data:`INACCESSIBLE_AFTER` (or with ``inaccessible``) the
        query carries an ``InaccessibleMessage`` (chat, id, date 0), as Telegram's does.
        The press must be answered within 15 seconds (``answerCallbackQuery``).
        """
        chat = self._world.test_chat(chat_id, uid)
        sent = self._outbox.get(chat.id, message_id)
        if sent is None or sent.deleted:
            raise ValueError(f"no bot message {message_id} in chat {chat_id}")
        offered = [b.get("callback_data") for b in sent.buttons]
        if data not in offered:
            raise ValueError(f"message {message_id} has no button with data {data!r}: {offered}")
        query_id = str(next(self._callback_ids))
        now = self._world.clock()
        self._api.open_callbacks[query_id] = now
        message = chat.messages[message_id]
        if inaccessible or now - message["date"] > INACCESSIBLE_AFTER:
            message = {"chat": self._world.chat_json(chat), "message_id": message_id, "date": 0}
        query = {
            "id": query_id,
            "from": self._world.user(uid),
            "message": message,
            "chat_instance": str(abs(chat.id) * 7919 % 10**12),
            "data": data,
        }
        self._updates.push("callback_query", query)
        return query_id

    def migrate_chat(self, old_id: int, new_id: int, *, by: int | None = None) -> None:
        """Upgrade a group to a supergroup with a new id, as Telegram does.

        Queues the ``migrate_to_chat_id`` service message in the old chat and the
        ``migrate_from_chat_id`` one in the new chat; afterwards sending to ``old_id``
        fails with ``migrate_to_chat_id`` in the error's parameters. ``by`` (default: the
        creator) is the user shown as doing it.
        """
        world = self._world
        old = world.chats[old_id]
        if by is None and not old.admins:
            raise ValueError("migrate_chat needs `by` for a chat without admins")
        actor = world.user(by if by is not None else old.admins[0])
        self.add_chat(new_id, old.title, "supergroup", old.admins, bot_is_admin=old.bot_is_admin)
        new = world.chats[new_id]
        new.members |= old.members
        service = ((old, "migrate_to_chat_id", new_id), (new, "migrate_from_chat_id", old_id))
        for chat, key, value in service:
            message = world.new_message(chat, None)
            message.update({"from": actor, key: value})
            chat.messages[message["message_id"]] = message
            self._updates.push("message", message)
        old.migrated_to = new_id

    # ------------------------------------------------------------------ Telegram says no

    def block_bot(self, uid: int, blocked: bool = True) -> None:
        """User ``uid`` blocks the bot (``blocked=False``: unblocks it): sends to them are
        refused with 403 "bot was blocked by the user", and the bot gets the
        ``my_chat_member`` update (kicked, or member again) Telegram sends."""
        chat = self._world.test_chat(uid, uid)
        was = self._bot_member(chat, uid in self._world.blocked)
        (self._world.blocked.add if blocked else self._world.blocked.discard)(uid)
        self._my_chat_member(chat, uid, was, self._bot_member(chat, blocked))

    def deactivate_user(self, uid: int) -> None:
        """User ``uid`` deletes their account: sends to them get 403 "user is deactivated"."""
        self._world.deactivated.add(uid)

    def restrict_chat(
        self,
        chat_id: int,
        *,
        text: bool | None = None,
        media: bool | None = None,
        reactions: bool | None = None,
    ) -> None:
        """Change what the group's members may do (``None`` leaves it): send text
        messages; send photos and documents; react (the group's available reactions).
        A bot that is not an administrator is refused as Telegram refuses a member
        (400 "not enough rights to send … to the chat", "REACTION_INVALID"). Telegram
        sends the bot no update for this: it learns by trying."""
        chat = self._world.chats[chat_id]
        rights = set(chat.member_rights)
        for allowed, names in (
            (text, ("can_send_messages",)),
            (media, ("can_send_photos", "can_send_documents")),
        ):
            if allowed is not None:
                rights = rights | set(names) if allowed else rights - set(names)
        chat.member_rights = frozenset(rights)
        if reactions is not None:
            chat.reactions = reactions

    def set_bot_admin(
        self,
        chat_id: int,
        admin: bool,
        rights: tuple[str, ...] | None = None,
        *,
        by: int | None = None,
    ) -> None:
        """Promote the bot to administrator (with ``rights``, default all) or demote it;
        queues the ``my_chat_member`` update Telegram sends. ``by``: the creator."""
        chat = self._world.chats[chat_id]
        was = self._world.member(chat, self._world.bot_id)
        chat.bot_is_admin = admin
        if rights is not None or admin:
            chat.bot_rights = frozenset(ADMIN_RIGHTS if rights is None else rights)
        actor = by if by is not None else (chat.admins[0] if chat.admins else self._world.bot_id)
        self._my_chat_member(chat, actor, was, self._world.member(chat, self._world.bot_id))

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """An admin deletes a message (a bot's too): edits, pins and reactions on it are
        refused from now on ("message to edit not found")."""
        chat = self._world.chats[chat_id]
        chat.messages.pop(message_id, None)
        sent = self._outbox.get(chat_id, message_id)
        if sent is not None:
            sent.deleted, sent.pinned = True, False

    def close_topic(self, chat_id: int, thread_id: int, closed: bool = True) -> None:
        """An admin closes a forum topic (``closed=False``: reopens it); a bot that is no
        administrator is refused there with 400 "TOPIC_CLOSED"."""
        chat = self._world.chats[chat_id]
        chat.topics.add(thread_id)
        (chat.closed_topics.add if closed else chat.closed_topics.discard)(thread_id)

    def _bot_member(self, chat: Chat, kicked: bool) -> JSON:
        status = {"status": "kicked", "until_date": 0} if kicked else {"status": "member"}
        return {**status, "user": self._world.bot_user()}

    def _my_chat_member(self, chat: Chat, actor: int, old: JSON, new: JSON) -> None:
        self._updates.push(
            "my_chat_member",
            {
                "chat": self._world.chat_json(chat),
                "from": self._world.user(actor),
                "date": int(self._world.clock()),
                "old_chat_member": old,
                "new_chat_member": new,
            },
        )

    @property
    def webhook(self) -> JSON:
        """What the bot passed to setWebhook (url, secret_token, …); {} when none."""
        return self._api.webhook

    def take_updates(self) -> list[JSON]:
        """Remove and return the queued updates, to deliver them as Telegram's webhook
        would (the test POSTs them to the bot's webhook URL)."""
        return self._updates.take_all()

    def fail_next(
        self,
        method: str,
        status: int = 429,
        retry_after: int = 1,
        times: int = 1,
        description: str | None = None,
        *,
        html: bool = False,
        delivered: bool = False,
        chat_id: int | None = None,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with an error instead.

        429 carries ``parameters.retry_after`` like Telegram's flood control; 500 says
        "Internal Server Error". ``html``: the answer is a proxy's HTML error page
        (``text/html``, no JSON), as nginx in front of the Bot API gives. ``delivered``:
        the call is carried out first (the message appears), and only the answer is the
        error: the bot cannot tell it from a failure. ``chat_id``: only calls for that
        chat fail (the others pass, and do not count). Injected failures are recorded in
        :attr:`calls`; only ``delivered`` ones produce output.
        """
        default = _DEFAULT_FAILURES.get(status, "Bad Request").format(retry_after=retry_after)
        parameters = {"retry_after": retry_after} if status == 429 else None
        failure = _Failure(
            status, description or default, parameters, times, html, delivered, chat_id
        )
        self._failures.setdefault(method.lower(), []).append(failure)

    def clear_failures(self) -> None:
        """Forget the failures :meth:`fail_next` queued and that have not happened yet."""
        self._failures.clear()

    # ------------------------------------------------------------------ assertions

    def outbox(self, chat_id: int | None = None) -> list[SentMessage]:
        """Every message the bot sent (optionally to one chat), in order, edits applied."""
        return self._outbox.messages(chat_id)

    @property
    def output_count(self) -> int:
        """How many outputs (sends and edits) the bot has made so far: a cheap counter
        for load tests that wait for N replies without scanning them."""
        return self._outbox.output_count

    def calls_to(self, method: str) -> list[Call]:
        """The recorded calls of one method (name case-insensitive)."""
        return [c for c in self.calls if c.method.lower() == method.lower()]

    async def wait_for(self, predicate: Predicate | str, timeout: float = 10.0) -> SentMessage:
        """The next bot output after the cursor that matches ``predicate``.

        Outputs are sends and edits, in the order they happened; an edit counts as a new
        output of the same :class:`SentMessage`, and the predicate sees the message's
        current state. A string predicate matches when it occurs in ``body`` (text or
        caption). Returning moves the cursor past the match, so outputs before it are
        consumed too and the same output is never returned twice. Raises
        ``TimeoutError`` listing the unconsumed outputs.
        """
        return await self._outbox.wait_for(predicate, timeout)

    def skip_outputs(self) -> None:
        """Move the :meth:`wait_for` cursor past everything the bot has sent so far."""
        self._outbox.skip()

    async def wait_idle(self, quiet: float = 0.5, timeout: float = 10.0) -> None:
        """Return once every queued update was fetched and no call came for ``quiet`` s.

        Long-poll ``getUpdates`` calls do not count as activity, only their deliveries.
        """
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            pending = self._updates.undelivered
            idle_for = now - self._last_activity
            if not pending and idle_for >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"bot still busy after {timeout}s (pending updates: {pending})")
            await asyncio.sleep(0.02 if pending else min(quiet - idle_for, deadline - now))

    async def wait_for_callback_answer(
        self, query_id: str, timeout: float = 10.0
    ) -> CallbackAnswer:
        """The bot's answer to one button press, once it arrives."""
        deadline = time.monotonic() + timeout
        while query_id not in self.answered_callbacks:
            if time.monotonic() >= deadline:
                raise TimeoutError(f"callback query {query_id} was not answered in {timeout}s")
            await asyncio.sleep(0.02)
        return self.answered_callbacks[query_id]

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        name = request.match_info["method"]
        known = self._methods.get(name.lower())
        call = Call(method=known[0] if known else name, params={})
        self.calls.append(call)
        failure: _Failure | None = None
        try:
            call.params, call.files = await read_request(request)
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            if known is None:
                self.unknown_methods.append(name)
                raise ApiError(404, "Not Found")
            if known[0] != "getUpdates":
                self._last_activity = time.monotonic()
            failure = self._injected_failure(name, call.params)
            if failure is not None and not failure.delivered:
                raise failure.error()
            result = await known[1](call.params, call.files)
            if failure is not None:
                raise failure.error()
        except ApiError as error:
            call.status, call.description = error.status, error.description
            if failure is not None and failure.html:
                return _html_response(error.status)
            body: JSON = {"ok": False, "error_code": error.status, "description": error.description}
            if error.parameters:
                body["parameters"] = error.parameters
            return _json_response(body, error.status)
        return _json_response({"ok": True, "result": result}, 200)

    async def _handle_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, 401
            )
        path = request.match_info["path"]
        for stored in self._api.files.values():
            if stored.path == path:
                return web.Response(body=stored.data)
        return _json_response({"ok": False, "error_code": 404, "description": "Not Found"}, 404)

    def _injected_failure(self, name: str, params: JSON) -> _Failure | None:
        queue = self._failures.get(name.lower(), [])
        chat = params.get("chat_id")
        for failure in queue:
            if failure.chat_id is not None and str(failure.chat_id) != str(chat):
                continue
            failure.times -= 1
            if failure.times <= 0:
                queue.remove(failure)
            return failure
        return None

    async def _get_updates(self, params: JSON, files: dict[str, Upload]) -> list[JSON]:
        batch = await self._updates.poll(
            offset=params.get("offset"),
            limit=int(params.get("limit") or 100),
            timeout=max(float(params.get("timeout") or 0), 0.0),
            allowed=params.get("allowed_updates"),
        )
        if batch:
            self._last_activity = time.monotonic()
        return batch


def _listener() -> socket.socket:
    """127.0.0.1 on a free port, Nagle off: an answer is written as headers then body,
    and with Nagle the body would wait for the client's delayed ACK (~40 ms). Linux
    passes TCP_NODELAY on to accepted sockets (aiohttp also sets it on each)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def _html_response(status: int) -> web.Response:
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Error"
    page = HTML_ERROR.format(status=status, reason=reason)
    return web.Response(text=page, status=status, content_type="text/html")


def _json_response(body: JSON, status: int) -> web.Response:
    return web.Response(
        text=json.dumps(body, ensure_ascii=False),
        status=status,
        content_type="application/json",
    )

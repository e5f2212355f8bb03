"""The Mini App on the web server of the live page: the page at ``/app``, what it asks
and does under ``/app/api/`` (docs/operations.md#mini-app, docs/guide.en.md#console).

Who asks comes from Telegram, checked: every API request carries ``Authorization: tma
<initData>``, the launch data Telegram signed with the bot's token, which aiogram's
``safe_parse_webapp_init_data`` verifies; older than :data:`MAX_AGE` it is refused like
a forged one (401). The event is named by the launch payload
(``bot.application.miniapp_links``), and the user's role there is the chat's: 403 for
someone who is neither organiser nor player of it, or for a player sending an
organiser's action. Nothing is written by a refused request.

- ``GET /app/api/state?start=<payload>[&v=<version>]``: the caller's view
  (``bot.application.console_view``); ``{"same": true}`` while the event has not changed
  since ``v``, which costs a read of its row. The page asks every second and a half.
- ``GET /app/api/standings?start=…``: the standings sheet (the whole event is read).
- ``GET /app/api/undo?start=…``: what ``/undo`` would take back, shown before it is sent.
- ``POST /app/api/check``: a result as the form has it, checked by the engine as the
  chat would check it (nothing is stored): the text, each seat's points, or the refusal.
- ``POST /app/api/action``: one action (``bot.application.console_actions``), run as its
  chat command through ``Core.act``: the same transaction, audit entries and messages in
  the chat as the typed command (scaled out, by the worker of the chat's shard; 202
  when its outcome is slow to come back). Each carries a ``request`` id of the page's; the same
  initData and id again is a replay, refused (401) without running anything.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import urlsplit

from aiogram.utils.web_app import WebAppUser, safe_parse_webapp_init_data
from aiohttp import web
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.application import console_view, miniapp_links
from bot.application.console_actions import (
    ACTIONS,
    BadField,
    Fields,
    command_text,
    compose,
    organisers_only,
)
from bot.application.context import Ctx
from bot.application.core import Acted
from bot.application.handlers.reports import latest_table, score_lines, vet_report
from bot.application.service import results
from bot.application.slip_links import genuine
from bot.application.tournament import game_of
from bot.application.types import CHANNEL_BOT, GROUP_ANONYMOUS_BOT, Incoming, Sender
from bot.config import Settings
from bot.language.errors import UserError, refusal
from bot.language.i18n import Catalogue
from db.models import AuditEntry, Tournament
from db.repo import Repo
from engine.errors import EngineError

PAGE = resources.files("paper") / "miniapp"
ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}
MAX_AGE = timedelta(days=1)  # initData older than this is refused as expired
AHEAD = timedelta(minutes=5)  # a clock that far ahead of ours is still believed
MAX_INIT_DATA = 4096  # bytes: Telegram's is well under 1 kB
MAX_BODY = 16 * 1024  # bytes of a POST's JSON
MAX_USER = 2**52  # Telegram ids have at most 52 significant bits
REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
# Refusals that say the user may not do it (403), not that the event says no (409).
FORBIDDEN = {
    "refuse.not-organiser",
    "refuse.not-signed-up",
    "refuse.player-removed",
    "refuse.not-at-table",
    "refuse.anonymous-admin",
    "refuse.sent-as-channel",
}
Act = Callable[[Incoming, int], Awaitable[Acted]]
AdminsOf = Callable[[int], Awaitable[set[int]]]  # a chat id → its administrators
T = TypeVar("T")


def _json(body: object, status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(body, ensure_ascii=False),
        status=status,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def _refuse(status: int, error: str, text: str = "") -> web.HTTPException:
    """An error answer the page can show: ``error`` a code, ``text`` in words."""
    body = json.dumps({"error": error, "text": text}, ensure_ascii=False)
    answer = web.HTTPException(text=body, content_type="application/json")
    answer.set_status(status)
    return answer


@dataclass(frozen=True)
class Launch:
    """A request's checked launch data: the user, and the signature that names it."""

    user: WebAppUser
    signature: str

    @property
    def sender(self) -> Sender:
        user = self.user
        name = " ".join(part for part in (user.first_name, user.last_name) if part)
        return Sender(user.id, name, user.username, user.language_code)


def launch_of(request: web.Request, token: str, now: datetime) -> Launch:
    """The ``Authorization: tma <initData>`` of a request, verified (401 otherwise)."""
    scheme, _, data = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "tma" or not data or len(data) > MAX_INIT_DATA:
        raise _refuse(401, "no-init-data")
    try:
        parsed = safe_parse_webapp_init_data(token, data)
    except (ValueError, TypeError):  # a wrong signature, or fields that do not parse
        raise _refuse(401, "forged") from None
    signed = parsed.auth_date
    signed = signed if signed.tzinfo is not None else signed.replace(tzinfo=UTC)
    if now - signed > MAX_AGE or signed - now > AHEAD:
        raise _refuse(401, "expired")
    user = parsed.user
    if user is None or not 0 < user.id <= MAX_USER:
        raise _refuse(401, "no-user")
    if user.id in (GROUP_ANONYMOUS_BOT, CHANNEL_BOT) or user.is_bot:
        raise _refuse(403, "not-a-person")  # shared identities act for nobody
    return Launch(user, parsed.hash)


def update_id(launch: Launch, request_id: str) -> int:
    """The update id an action is recorded under: negative, so never a Telegram one,
    and the same for the same launch and request id (a replay is then seen as one)."""
    digest = hashlib.sha256(f"{launch.signature}:{request_id}".encode()).digest()
    return -(int.from_bytes(digest[:7], "big") + 1)


class MiniApp:
    """The routes. ``sessionmaker``, ``act`` (``Core.act``, or the scale-out bus) and
    ``admins`` (the chat's administrators, as the core asks Telegram) may be given once
    the bot has started: the web server starts first."""

    def __init__(
        self,
        settings: Settings,
        catalogue: Catalogue,
        sessionmaker: async_sessionmaker[Any] | None = None,
        act: Act | None = None,
        admins: AdminsOf | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.settings, self.catalogue, self.clock = settings, catalogue, clock
        self.sessionmaker, self.act, self.admins = sessionmaker, act, admins

    def add_routes(self, app: web.Application) -> None:
        from playground import webfont  # fontTools and the charts' fonts: only to serve

        app.router.add_get("/app", self._page)
        app.router.add_get("/app/font.woff", webfont.serve)
        app.router.add_get("/app/{asset:app\\.(?:js|css)}", self._asset)
        app.router.add_get("/app/api/state", self._state)
        app.router.add_get("/app/api/standings", self._standings)
        app.router.add_get("/app/api/undo", self._undo)
        app.router.add_post("/app/api/check", self._check)
        app.router.add_post("/app/api/action", self._action)

    # --- the page --------------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        """The page, loading Telegram's script from ``MINIAPP_SCRIPT``; nothing but its own
        files and that script may run in it (the page writes every name as text)."""
        page = (PAGE / "index.html").read_text(encoding="utf-8")
        script = html.escape(self.settings.miniapp_script, quote=True)
        parts = urlsplit(self.settings.miniapp_script)
        scripts = f"'self' {parts.scheme}://{parts.netloc}" if parts.netloc else "'self'"
        policy = f"default-src 'self'; script-src {scripts}; img-src 'self' data:"
        return web.Response(
            text=page.replace("{{TELEGRAM_SCRIPT}}", script),
            content_type="text/html",
            headers={
                "Cache-Control": "no-store",
                "X-Robots-Tag": "noindex",
                "Content-Security-Policy": policy,
            },
        )

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["asset"]
        return web.Response(
            body=(PAGE / name).read_bytes(),
            content_type=ASSETS[name],
            headers={"Cache-Control": "no-cache"},
        )

    # --- who asks, about what --------------------------------------------------------------
    def _launch(self, request: web.Request) -> Launch:
        return launch_of(request, self.settings.bot_token, self.clock())

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise _refuse(413, "too-large")
        raw = await request.content.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            raise _refuse(413, "too-large")
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise _refuse(400, "not-json") from None
        if not isinstance(body, dict):
            raise _refuse(400, "not-an-object")
        return body

    @staticmethod
    def _opened(text: object) -> miniapp_links.Opened:
        opened = miniapp_links.read(text) if isinstance(text, str) else None
        if opened is None:
            raise _refuse(404, "no-event")
        return opened

    async def _visit(
        self,
        launch: Launch,
        opened: miniapp_links.Opened,
        work: Callable[[Ctx, Tournament, console_view.Visitor], Awaitable[T]],
    ) -> T:
        """``work`` as ``launch``'s user in the event ``opened`` names, in a transaction
        that only reads (rolled back, whatever ``work`` touched): 404 for no such event,
        403 for a user with no role in it."""
        if self.sessionmaker is None:
            raise web.HTTPServiceUnavailable(text="starting")
        async with self.sessionmaker() as session:
            repo = Repo(session)
            try:
                t = await repo.tournament(opened.tournament, whole=False)
                if t is None:
                    raise _refuse(404, "no-event")
                ctx = await self._ctx(repo, t, launch.sender)
                who = await console_view.visitor(ctx, t)
                if who is None:
                    raise _refuse(403, "not-yours", ctx.t("miniapp.not-yours", title=t.title))
                if opened.slip is not None and not genuine(t, opened.slip):
                    raise _refuse(404, "no-event")
                return await work(ctx, t, who)
            finally:
                await session.rollback()

    async def _ctx(self, repo: Repo, t: Tournament, sender: Sender) -> Ctx:
        """The context of the event's chat, the user speaking there (as a typed command)."""
        chat = await repo.chat(t.chat_id)
        inc = Incoming(0, t.chat_id, "supergroup", sender, thread_id=t.thread_id or None)

        async def admins(chat_id: int) -> set[int]:
            return await self.admins(chat_id) if self.admins is not None else set()

        async def never(_chat: int) -> bool:
            return False

        return Ctx(
            inc,
            repo,
            chat,
            self.catalogue[chat.lang or self.settings.default_lang],
            self.settings,
            self.clock(),
            admins,
            self.catalogue,
            never,
        )

    # --- reading ---------------------------------------------------------------------------
    async def _state(self, request: web.Request) -> web.Response:
        launch = self._launch(request)
        opened = self._opened(request.query.get("start"))
        since = request.query.get("v")

        async def state(ctx: Ctx, t: Tournament, who: console_view.Visitor) -> dict[str, Any]:
            if since is not None and since == str(t.version):
                return {"same": True, "now": ctx.now.isoformat()}
            view = await console_view.view(ctx, t, who)
            if opened.slip is not None:
                view["slip"] = {"round": opened.slip.round, "table": opened.slip.table}
            return view

        return _json(await self._visit(launch, opened, state))

    async def _standings(self, request: web.Request) -> web.Response:
        launch = self._launch(request)

        async def sheet(ctx: Ctx, t: Tournament, who: console_view.Visitor) -> object:
            await ctx.uow.repo.load_whole(t)
            return {"version": t.version, "standings": console_view.standings(ctx, t)}

        return _json(await self._visit(launch, self._opened(request.query.get("start")), sheet))

    async def _undo(self, request: web.Request) -> web.Response:
        """What the next /undo takes back (its audit entry), for the organiser to read
        before sending it."""
        launch = self._launch(request)

        async def preview(ctx: Ctx, t: Tournament, who: console_view.Visitor) -> object:
            if not who.organiser:
                raise _refuse(403, "organisers-only")
            entry = await results.undoable(ctx, t)
            if entry is None:
                return {"what": None, "text": ctx.t("refuse.nothing-to-undo")}
            return {"what": entry.action, "text": undo_text(ctx, entry)}

        return _json(await self._visit(launch, self._opened(request.query.get("start")), preview))

    async def _check(self, request: web.Request) -> web.Response:
        """A result checked as the chat checks it (``/report`` or, ``fix``, ``/fix``),
        stored nowhere: its text and each seat's points, or why it is refused."""
        launch = self._launch(request)
        body = await self._body(request)
        opened = self._opened(body.get("start"))
        fix = body.get("mode") == "fix"

        async def check(ctx: Ctx, t: Tournament, who: console_view.Visitor) -> object:
            if fix and not who.organiser:
                raise _refuse(403, "organisers-only")
            try:
                number = int(Fields(body).table())
                if fix:
                    r, row = await latest_table(ctx, t, number, open_only=False)
                    text = self._result(body, t, len(row.seats))
                    checked = results.check(t, r, row, text, whole=True)
                    who_sits = await ctx.uow.repo.names(t.id, row.seats)
                else:
                    r, row = await latest_table(ctx, t, number)
                    text = self._result(body, t, len(row.seats))
                    r, row, checked, who_sits = await vet_report(ctx, t, number, text)
            except BadField as exc:
                raise _refuse(400, "bad-field", str(exc)) from None
            except (UserError, EngineError) as exc:
                return {"ok": False, "reason": refusal(ctx.t, exc)}
            lines = score_lines(ctx, who_sits, row, list(checked.scores))
            return {"ok": True, "text": checked.outcome.text, "scores": lines}

        return _json(await self._visit(launch, opened, check))

    @staticmethod
    def _result(body: dict[str, Any], t: Tournament, seats: int) -> str:
        """The form's hands composed into the game's words, or the text as typed."""
        if "hands" in body:
            return compose(game_of(t), seats, body["hands"])
        return Fields(body).result()

    # --- doing -----------------------------------------------------------------------------
    async def _action(self, request: web.Request) -> web.Response:
        launch = self._launch(request)
        body = await self._body(request)
        opened = self._opened(body.get("start"))
        name = body.get("action")
        action = ACTIONS.get(name) if isinstance(name, str) else None
        fields, request_id = body.get("fields", {}), body.get("request")
        if action is None or not isinstance(fields, dict):
            raise _refuse(400, "no-such-action")
        if not isinstance(request_id, str) or not REQUEST_ID.match(request_id):
            raise _refuse(400, "no-request-id")

        async def command(ctx: Ctx, t: Tournament, who: console_view.Visitor) -> Incoming:
            if organisers_only(action) and not who.organiser:
                raise _refuse(403, "organisers-only", ctx.t("refuse.not-organiser"))
            try:
                if "hands" in fields and action.name in ("report", "fix"):
                    number = int(Fields(fields).table())
                    _, row = await latest_table(ctx, t, number, open_only=action.name == "report")
                    fields["result"] = compose(game_of(t), len(row.seats), fields["hands"])
                text = command_text(action, fields)
            except BadField as exc:
                raise _refuse(400, "bad-field", str(exc)) from None
            except UserError as exc:  # no such table in the latest round: as the chat says
                raise _refuse(409, "refused", refusal(ctx.t, exc)) from None
            return Incoming(
                update_id(launch, request_id),
                t.chat_id,
                "supergroup",
                launch.sender,
                thread_id=t.thread_id or None,
                text=text,
            )

        inc = await self._visit(launch, opened, command)
        if self.act is None:
            raise web.HTTPServiceUnavailable(text="starting")
        try:
            acted = await self.act(inc, opened.tournament)
        except TimeoutError:  # scale-out: stored in its chat's shard, not yet run
            return _json({"done": False, "queued": True}, 202)
        if acted.replayed:
            raise _refuse(401, "replayed")
        if acted.refusal is not None:
            status = 403 if acted.key in FORBIDDEN else 409
            return _json({"done": False, "refusal": acted.refusal}, status)
        return _json({"done": True, "said": list(acted.said)})


def undo_text(ctx: Ctx, entry: AuditEntry) -> str:
    """What ``/undo`` would take back, and when it was done (its audit entry)."""
    when = entry.at.astimezone(ctx.tz).strftime("%m-%d %H:%M") if entry.at else ""
    return ctx.t("miniapp.undo-preview", what=ctx.t(f"undo.what.{entry.action}"), when=when)

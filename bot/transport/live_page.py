"""The public live page of an event, for the hall's wall: ``PUBLIC_URL/e/<token>``.

It shows the event's title, the round, each table with its players and whether it has
reported, the standings (the same sheet the standings picture is drawn from, so no
surface ranks differently) and a clock counting down to the round's deadline;
``?screen=1`` sets it in large type for a projector. The page asks for
``/e/<token>/state?v=<version>`` every second: unchanged, the answer costs one small
read of the tournament row; after a change (every audited change bumps the version) the
whole state is built once and kept for every screen watching.

``/e/<token>/calendar.ics`` is the event's deadlines as a calendar feed (what
``/calendar`` sends as a file): a calendar app subscribed to it follows moved deadlines.

Read-only and without login: the token is the only key, it names the event and carries
a random secret kept in the event's options (``/live reset`` makes a new one, and the
old link is then a 404). Nothing personal is shown beyond display names.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any, Protocol, TypeVar

from aiohttp import web
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.application import console_view
from bot.application.context import Ctx
from bot.application.handlers.calendar import moments
from bot.application.handlers.common import event_status
from bot.application.live_links import read_token
from bot.application.service import results
from bot.application.tournament import latest_round, names
from bot.application.types import Incoming, Sender
from bot.config import Settings
from bot.language.i18n import Catalogue, without_emoji
from db.keys import could_be_key
from db.models import Tournament
from db.repo import Repo
from db.status import EventStatus, ReportStatus, RoundStatus, TableState
from engine.model import SEAT_LETTERS
from paper.ics import calendar_file

PAGE = resources.files("paper") / "live.html"
FONT_PATH = "/e/font.woff"


@dataclass
class Kept:
    version: int
    lang: str
    state: dict[str, Any]


T = TypeVar("T")


async def _nobody(_chat: int) -> set[int]:
    return set()


async def _never(_chat: int) -> bool:
    return False


def _table_state(row: Any) -> str:
    """One word per table for the page: reported (settled), waiting (a report awaits a
    confirmation), disputed, forfeit, or open (nothing yet)."""
    if row.status == TableState.CONFIRMED:
        return "confirmed"
    if row.status == TableState.FORFEIT:
        return "forfeit"
    current = results.live(row)
    if current is None:
        return "open"
    return "disputed" if current.status == ReportStatus.DISPUTED else "waiting"


def page_state(ctx: Ctx, t: Tournament) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data in the event's language."""
    r = latest_round(t)
    who = names(t)
    tables = []
    if r is not None:
        for row in r.tables:
            state = _table_state(row)
            tables.append(
                {
                    "number": row.number,
                    "label": ctx.t("webpage.table", table=row.number),
                    "players": [f"{SEAT_LETTERS[i]} {who[u]}" for i, u in enumerate(row.seats)],
                    "state": state,
                    "state_label": ctx.t(f"webpage.state-{state}"),
                }
            )
    standings = console_view.standings(ctx, t)
    deadline = r.deadline if r is not None and r.status == RoundStatus.OPEN else None
    return {
        "version": t.version,
        "lang": ctx.t.lang,
        "title": t.title,
        "status": without_emoji(
            ctx.t("webpage.signup") if t.status == EventStatus.SIGNUP else event_status(ctx, t)
        ),
        "round": ctx.t("webpage.round", round=r.number) if r is not None else "",
        "deadline": deadline.isoformat() if deadline is not None else None,
        "labels": {
            key: ctx.t(f"webpage.{key}")
            for key in ("tables", "standings", "left", "no-deadline", "passed", "reported")
        },
        "reported": sum(1 for x in tables if x["state"] in ("confirmed", "forfeit")),
        "tables": tables,
        "standings": standings,
    }


class LivePages:
    """The routes; ``sessionmaker`` may be given once the bot has started (the
    playground mounts the routes before its bot exists)."""

    def __init__(
        self,
        settings: Settings,
        catalogue: Catalogue,
        sessionmaker: async_sessionmaker[Any] | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.settings = settings
        self.catalogue = catalogue
        self.clock = clock
        self.sessionmaker = sessionmaker
        self._kept: dict[int, Kept] = {}
        self._lock = asyncio.Lock()

    def add_routes(self, app: web.Application) -> None:
        from playground import webfont  # fontTools and the charts' fonts: only to serve

        app.router.add_get(FONT_PATH, webfont.serve)
        app.router.add_get("/e/{token}", self._page)
        app.router.add_get("/e/{token}/state", self._state)
        app.router.add_get("/e/{token}/calendar.ics", self._calendar)

    async def _find(self, token: str) -> tuple[int, int]:
        """The event id and its current version, or 404 for any token that is not its."""
        claim = read_token(token)
        if claim is None or self.sessionmaker is None or not could_be_key(Tournament, claim[0]):
            raise web.HTTPNotFound()
        tid, secret = claim
        async with self.sessionmaker() as session:
            found = (
                await session.execute(
                    select(Tournament.options, Tournament.version).where(Tournament.id == tid)
                )
            ).first()
        if found is None:
            raise web.HTTPNotFound()
        options, version = found
        paper = options.get("paper", {}) if isinstance(options, dict) else {}
        kept = paper.get("live") if isinstance(paper, dict) else None
        if not isinstance(kept, str) or not hmac.compare_digest(kept, secret):
            raise web.HTTPNotFound()
        return tid, int(version)

    async def _page(self, request: web.Request) -> web.Response:
        await self._find(request.match_info["token"])
        return web.Response(
            body=PAGE.read_bytes(),
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store", "X-Robots-Tag": "noindex"},
        )

    async def _state(self, request: web.Request) -> web.Response:
        tid, version = await self._find(request.match_info["token"])
        now = self.clock()
        if request.query.get("v") == str(version):
            body: dict[str, Any] = {"same": True, "now": now.isoformat()}
        else:
            body = {**(await self._built(tid, version)), "now": now.isoformat()}
        return web.Response(
            text=json.dumps(body, ensure_ascii=False),
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    async def _calendar(self, request: web.Request) -> web.Response:
        """The event's deadlines as a calendar feed: subscribed to once, a calendar app
        follows every deadline that moves (``/calendar`` sends the same file)."""
        tid, _ = await self._find(request.match_info["token"])

        def build(ctx: Ctx, t: Tournament) -> bytes:
            return calendar_file(t.title, moments(ctx, t), ctx.tz, ctx.now)

        body = await self._read(tid, build)
        return web.Response(
            body=body,
            content_type="text/calendar",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def _built(self, tid: int, version: int) -> dict[str, Any]:
        """The state at ``version``, built once for every screen that asks."""
        async with self._lock:
            kept = self._kept.get(tid)
            if kept is not None and kept.version == version:
                return kept.state
            state = await self._read(tid, page_state)
            self._kept[tid] = Kept(int(state["version"]), state["lang"], state)
            return state

    async def _read(self, tid: int, build: Callable[[Ctx, Tournament], T]) -> T:
        """``build`` over the whole event, with a context in the event's language and
        zone, in a transaction that only reads."""
        assert self.sessionmaker is not None
        async with self.sessionmaker() as session:
            repo = Repo(session)
            t = await repo.tournament(tid)
            if t is None:
                raise web.HTTPNotFound()
            chat = await repo.chat(t.chat_id)
            ctx = Ctx(
                Incoming(0, t.chat_id, "supergroup", Sender(0, "web")),
                repo,
                chat,
                self.catalogue[chat.lang or self.settings.default_lang],
                self.settings,
                self.clock(),
                _nobody,
                self.catalogue,
                _never,
            )
            built = build(ctx, t)
            await session.rollback()  # a reader: nothing to keep
        return built


class Routes(Protocol):
    def add_routes(self, app: web.Application) -> None: ...


async def serve(sites: Sequence[Routes], host: str, port: int) -> tuple[web.AppRunner, str]:
    """Serve the pages (the live page, the Mini App) on ``host:port`` (0: a free port);
    the runner and its base URL."""
    app = web.Application()
    for site in sites:
        site.add_routes(app)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    bound = runner.addresses[0][1]
    return runner, f"http://{host}:{bound}"

"""The framework-free core: one update in, one transaction, replies out via the outbox.

For every update: skip it if its id was already processed (a redelivery after a crash);
otherwise run the use-case, and commit its changes, its audit rows, the processed-update
mark and its replies together. A refusal (:class:`UserError` or an engine error) rolls
the change back and commits only the mark and the refusal. Anything unexpected is logged
with the update id, and the user gets a short apology, never a traceback.

Updates of one chat that arrive together (a burst of sign-ups, a round's results) share
one transaction (:meth:`Core.handle_many`); if any of them is refused, they are run
again one at a time, so that each ends as it would alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from bot.application.commands import Command, admit, parse_command
from bot.application.context import Ctx
from bot.application.handlers import delivery
from bot.application.handlers.typos import hint
from bot.application.routes import CALLBACKS, COMMANDS, MIGRATE
from bot.application.types import Incoming, Outgoing, Sender, Timer, Transport
from bot.config import Settings
from bot.language.errors import UserError, refusal
from bot.language.i18n import Catalogue, Translator
from db.models import Chat
from db.repo import Repo
from db.session import is_transient
from engine.errors import EngineError

log = logging.getLogger(__name__)
Handler = Callable[[Ctx, str], Awaitable[None]]
Routed = tuple[Incoming, Handler, str]
ADMIN_CACHE_SECONDS = 60.0
TOAST_LIMIT = 200  # what answerCallbackQuery shows, in UTF-16 code units (an emoji is two)


@dataclass(frozen=True)
class Refused:
    """A use-case that was refused and rolled back: its context, what to say, and the
    message key of the refusal (None for an engine's or the database's)."""

    ctx: Ctx
    text: str
    key: str | None


@dataclass(frozen=True)
class Acted:
    """What :meth:`Core.act` did: ``done`` (committed; ``said``: the texts it queued),
    refused (``refusal`` in the chat's language, ``key`` its message key), or
    ``replayed`` (that update id was handled before: nothing was run)."""

    done: bool = False
    said: tuple[str, ...] = ()
    refusal: str | None = None
    key: str | None = None
    replayed: bool = False


class Admins:
    """A chat's administrators as Telegram lists them, asked at most once a minute a chat
    (``forget``: a promotion or demotion counts from the next update on)."""

    def __init__(self, fetch: Callable[[int], Awaitable[set[int]]]) -> None:
        self.fetch = fetch  # the transport's ``chat_admins``
        self._cache: dict[int, tuple[float, set[int]]] = {}

    async def __call__(self, chat_id: int) -> set[int]:
        cached = self._cache.get(chat_id)
        if cached and time.monotonic() - cached[0] < ADMIN_CACHE_SECONDS:
            return cached[1]
        try:
            ids = await self.fetch(chat_id)
        except Exception:
            # Telegram cannot say: the last list it gave, else the question is refused for
            # now ("try again in a moment"): a failed lookup must not make an organiser an
            # ordinary member, nor anyone an organiser
            log.warning("could not fetch the admins of chat %s", chat_id, exc_info=True)
            if cached:
                return cached[1]
            raise UserError("refuse.admins-unknown") from None
        self._cache[chat_id] = (time.monotonic(), ids)
        return ids

    def forget(self, chat_id: int) -> None:
        self._cache.pop(chat_id, None)


class Core:
    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[Any],
        catalogue: Catalogue,
        transport: Transport,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:

        self.settings = settings
        self.sessionmaker = sessionmaker
        self.catalogue = catalogue
        self.transport = transport
        self.clock = clock
        self.commands: dict[str, Command] = {c.name: c for c in COMMANDS}
        self.migrate: Handler = MIGRATE
        self.callbacks: dict[str, Handler] = dict(CALLBACKS)
        self.hint: Callable[[str], Handler | None] = lambda typed: hint(typed, COMMANDS)
        self.on_outbox: Callable[[], None] = lambda: None
        self.on_timer: Callable[[Timer], None] = lambda timer: None
        self.admins = Admins(lambda chat_id: self.transport.chat_admins(chat_id))
        self._locks: dict[int, asyncio.Lock] = {}

    # --- helpers -------------------------------------------------------------------------
    def _lock(self, chat_id: int) -> asyncio.Lock:
        """One chat's updates one after another; chats run concurrently, so a slow one
        (the first /standings picture) never holds up another chat's reply. On SQLite
        too: a write that finds the database locked by another chat's transaction
        waits for it asynchronously (``db.inline_sqlite``)."""
        return self._locks.setdefault(chat_id, asyncio.Lock())

    async def can_pin(self, chat_id: int) -> bool:
        """Whether the bot may pin here; False when Telegram cannot say."""
        try:
            return await self.transport.can_pin(chat_id)
        except Exception:
            log.warning("could not read the bot's rights in chat %s", chat_id, exc_info=True)
            return False

    def translator(self, chat: Chat) -> Translator:
        return self.catalogue[chat.lang or self.settings.default_lang]

    def _route(self, inc: Incoming) -> tuple[Handler, str] | None:
        if inc.callback_data is not None:
            prefix, _, arg = inc.callback_data.partition(":")
            handler = self.callbacks.get(prefix)
            return (handler, arg) if handler else None
        if inc.migrate_to_chat_id is not None:
            return self.migrate, str(inc.migrate_to_chat_id)
        if inc.bot_status is not None:
            return delivery.bot_status, inc.bot_status
        parsed = parse_command(inc.text, self.transport.bot_username)
        if parsed is None:
            return None
        name, arg = parsed
        if name not in self.commands:  # "/reprot": a hint if a command is close, else silence
            typo = self.hint(name)
            return (typo, arg) if typo else None
        return self._admitted(self.commands[name]), arg

    @staticmethod
    def _admitted(command: Command) -> Handler:
        """The command's handler, run once the caller's role and the stage fit."""

        async def run(ctx: Ctx, arg: str) -> None:
            await admit(ctx, command)
            await command.handler(ctx, arg)

        return run

    # --- the pipeline --------------------------------------------------------------------
    async def handle(self, inc: Incoming) -> None:
        """Handle one update exactly once."""
        if inc.admins_changed:  # a promotion or demotion counts from this update on
            self.admins.forget(inc.chat_id)
            if inc.bot_status is None:
                return
        route = self._route(inc)
        if route is None:
            if inc.callback_id:
                await self._answer(inc, None)
            return
        handler, arg = route
        async with self._lock(inc.chat_id):
            ctx = await self._run(inc, handler, arg)
        if ctx is not None:
            await self._committed(ctx)

    async def handle_many(self, incs: list[Incoming]) -> None:
        """Handle one chat's queued updates, in order, each exactly once: what a burst
        brings (a hundred sign-ups, a round's results) is run in one transaction, so
        they share its commit and its reads of the chat and the event.

        The updates a command or button is for are run together; each other one (an
        admin change, a chat migration, something of no interest) between them on its
        own, in its place. If any update of a group is refused or fails, the group's
        transaction is rolled back and its updates are handled one by one: the
        refusal, and only it, is then stored alone, as :meth:`handle` does."""
        group: list[Routed] = []
        for inc in incs:
            route = None if inc.admins_changed or inc.migrate_to_chat_id else self._route(inc)
            if route is not None:
                group.append((inc, *route))
                continue
            await self._handle_group(group)
            group = []
            await self.handle(inc)
        await self._handle_group(group)

    async def _handle_group(self, group: list[Routed]) -> None:
        if len(group) < 2:
            for inc, _, _ in group:
                await self.handle(inc)
            return
        async with self._lock(group[0][0].chat_id):
            try:
                done = await self._run_together(group)
            except Exception:  # rolled back: one by one, each with its own outcome
                done = None
        if done is None:
            for inc, _, _ in group:
                await self.handle(inc)
            return
        for ctx in done:
            await self._committed(ctx)

    async def _run_together(self, group: list[Routed]) -> list[Ctx]:
        async with self.sessionmaker() as session, session.begin():
            repo = Repo(session)
            seen = await repo.seen_updates([inc.update_id for inc, _, _ in group])
            done = []
            for inc, handler, arg in group:
                if inc.update_id in seen:
                    continue
                ctx = await self._ctx(repo, inc)
                await self._use_case(ctx, handler, arg)
                done.append(ctx)
            await repo.write_pending()
        return done

    async def _use_case(self, ctx: Ctx, handler: Handler, arg: str) -> None:
        """Run one update's use-case in the open transaction, and keep its mark and
        replies to be written with it."""
        if ctx.caller.inc.chat_type == "private":  # the bot may write to this user from now on
            await delivery.note_private_chat(ctx)
        await handler(ctx, arg)
        await ctx.uow.run_deferred()
        ctx.uow.repo.mark_update(ctx.caller.inc.update_id)
        self._enqueue(ctx.uow.repo, ctx.out.outgoing)

    async def _committed(self, ctx: Ctx) -> None:
        """After an update's transaction committed: schedule its timers, answer its
        button, wake the sender."""
        for timer in ctx.uow.timers:
            self.on_timer(timer)
        if ctx.caller.inc.callback_id:
            await self._answer(ctx.caller.inc, ctx.out.toast, ctx.out.toast_alert)
        self.on_outbox()

    async def _answer(self, inc: Incoming, text: str | None, alert: bool = False) -> None:
        try:
            await self.transport.answer_callback(inc.callback_id or "", text or "", alert=alert)
        except Exception:  # a late answer only leaves a spinner; never fail the update for it
            log.warning("could not answer callback of update %s", inc.update_id, exc_info=True)

    async def _attempt(self, inc: Incoming, handler: Handler, arg: str) -> Ctx | Refused | None:
        """Run the use-case in a transaction of its own: its context once committed, what
        refused it once rolled back, or None when the update was handled already."""
        async with self.sessionmaker() as session, session.begin():
            repo = Repo(session)
            if await repo.seen_updates([inc.update_id]):
                return None
            ctx = await self._ctx(repo, inc)
            try:
                await self._use_case(ctx, handler, arg)
                await repo.write_pending()
            except (UserError, EngineError, IntegrityError) as exc:
                await session.rollback()
                key = exc.key if isinstance(exc, UserError) else None
                return Refused(ctx, self._refusal(ctx, exc), key)
            except Exception as exc:
                await session.rollback()
                if is_transient(exc):  # the database was away: not the user's fault, and
                    raise  # the update is not consumed (polling hands it over again)
                log.exception("update %s failed", inc.update_id)
                return Refused(ctx, ctx.t("apology"), "apology")
            return ctx

    async def _run(self, inc: Incoming, handler: Handler, arg: str) -> Ctx | None:
        done = await self._attempt(inc, handler, arg)
        if not isinstance(done, Refused):
            return done
        # The change was rolled back: store only the mark and the refusal.
        ctx = done.ctx
        async with self.sessionmaker() as session, session.begin():
            repo = Repo(session)
            repo.mark_update(inc.update_id)
            ctx.out.outgoing, ctx.uow.timers = [], []
            if inc.callback_id and len(done.text.encode("utf-16-le")) <= 2 * TOAST_LIMIT:
                ctx.out.toast, ctx.out.toast_alert = done.text, True
            else:  # a button's done.text longer than a toast takes (the events of a forum's
                ctx.out.say(done.text)  # topics, say) is said in the chat instead
            self._enqueue(repo, ctx.out.outgoing)
            await repo.write_pending()
        return ctx

    async def act(self, inc: Incoming, event: int) -> Acted:
        """A chat command sent from elsewhere than the chat (the Mini App) about the
        chat's ``event``, run as if ``inc.text`` had been typed there: the same
        admission, handler, transaction, audit and replies. Refused (or no longer the
        chat's event), nothing is said in the chat and nothing is stored, not even the
        update's mark: the refusal is returned. An update id handled already is
        ``replayed`` and runs nothing."""
        route = self._route(inc)
        if route is None or inc.callback_id is not None:
            raise ValueError(f"not a command: {inc.text!r}")
        handler, arg = route

        async def about_event(ctx: Ctx, arg: str) -> None:
            latest = await ctx.uow.tournament(finished=True, whole=False)
            if latest.id != event:  # a newer event began in the chat since it opened
                raise UserError("console.other-event")
            await handler(ctx, arg)

        async with self._lock(inc.chat_id):
            done = await self._attempt(inc, about_event, arg)
        if done is None:
            return Acted(replayed=True)
        if isinstance(done, Refused):
            return Acted(refusal=done.text, key=done.key)
        await self._committed(done)
        said = tuple(out.text for out in done.out.outgoing if out.kind != "react")
        return Acted(done=True, said=said)

    def _refusal(self, ctx: Ctx, exc: Exception) -> str:
        if isinstance(exc, (UserError, EngineError)):
            return refusal(ctx.t, exc)
        return ctx.t("refuse.conflict")  # a concurrent change won the race

    async def _ctx(self, repo: Repo, inc: Incoming) -> Ctx:
        chat = await repo.chat(inc.chat_id)
        return Ctx(
            inc,
            repo,
            chat,
            self.translator(chat),
            self.settings,
            self.clock(),
            self.admins,
            self.catalogue,
            self.can_pin,
            bot_username=self.transport.bot_username,
        )

    @staticmethod
    def _enqueue(repo: Repo, outgoing: list[Outgoing]) -> None:
        for out in outgoing:
            repo.enqueue(
                chat_id=out.chat_id,
                thread_id=out.thread_id,
                kind=out.kind,
                text=out.text,
                buttons=out.buttons,
                file=out.file,
                filename=out.filename,
                edit_message_id=out.edit_message_id,
                broadcast=out.broadcast,
                tag=out.tag,
                edit_tag=out.edit_tag,
                pin=out.pin,
                fallback=out.fallback,
            )

    # --- what the outgoing queue found -------------------------------------------------
    async def delivery_refused(self, chat_id: int, thread_id: int | None, reason: str) -> None:
        """Telegram refuses the bot ``reason`` in the chat until something changes (a
        right, a closed topic), or the person of a private chat is gone: the organisers
        are told once, the person marked (``bot.application.handlers.delivery``)."""
        await self.system(chat_id, thread_id, delivery.refused, reason)

    async def delivery_resumed(self, chat_id: int, reason: str) -> None:
        """What the chat refused works again: a later refusal is told again."""
        await self.system(chat_id, None, delivery.resumed, reason)

    # --- time-driven work ----------------------------------------------------------------
    async def system(
        self,
        chat_id: int,
        thread_id: int | None,
        work: Handler,
        arg: str,
        timer: Timer | None = None,
    ) -> None:
        """Run scheduled work (a deadline, a reminder, a check-in cut-off) through the
        same transaction and outbox path. A ``timer`` runs once: it is recorded as fired
        in the transaction of its work, and skipped when it already was (a restart, or
        another scheduler process that got there first). A job that wakes before its
        moment on our clock is put back, never run early."""
        inc = Incoming(0, chat_id, "supergroup", Sender(0, "tourbot"), thread_id=thread_id or None)
        try:
            async with self._lock(chat_id), self.sessionmaker() as session, session.begin():
                repo = Repo(session)
                ctx = await self._ctx(repo, inc)
                if timer is not None:
                    if await repo.timer_fired(*timer):
                        return
                    if timer.at > ctx.now:
                        self.on_timer(timer)
                        return
                    repo.mark_timer(*timer)
                with ctx.out.announcing():  # nobody asked: everything said is for the whole chat
                    await work(ctx, arg)
                    await ctx.uow.run_deferred()
                self._enqueue(repo, ctx.out.outgoing)
                await repo.write_pending()
        except IntegrityError:  # most likely another process recorded this timer first
            log.warning("timer %s not run: integrity error (fired elsewhere?)", timer)
            return
        except DBAPIError as exc:
            if timer is None or not is_transient(exc):
                raise
            log.warning("timer %s put back: the database was away (%s)", timer, exc)
            self.on_timer(timer)  # rolled back, so not recorded as fired: try again
            return
        for planned in ctx.uow.timers:  # committed: schedule what the work planned
            self.on_timer(planned)
        self.on_outbox()

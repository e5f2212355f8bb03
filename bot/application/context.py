"""What a use-case receives for one update (:class:`Ctx`): who is asking
(:class:`Caller`), the update's unit of work (:class:`UnitOfWork`: the repository, the
audit log, the events it works on, work deferred to before the commit, timers planned
once committed), what it says (:class:`Replies`: they become outbox rows of the same
transaction), the chat's language and clock."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.application import topics
from bot.application.service.audit import Entry
from bot.application.types import (
    CHANNEL_BOT,
    GROUP_ANONYMOUS_BOT,
    Buttons,
    Incoming,
    Outgoing,
    Timer,
)
from bot.config import Settings
from bot.language.errors import UserError
from bot.language.i18n import Catalogue, Translator
from db.models import Chat, Tournament
from db.repo import Repo

if TYPE_CHECKING:
    from bot.application.event import Event

TELEGRAM_TEXT_LIMIT = 4096
TELEGRAM_CAPTION_LIMIT = 1024
PAGE_LIMIT = TELEGRAM_TEXT_LIMIT  # one page of a paged message


def page_buttons(source: str, page: int, count: int) -> Buttons:
    """◀ 2/5 ▶ under a paged message; the middle button just shows where you are."""
    row = [(f"{page + 1}/{count}", f"pg:{source}:{page}")]
    if page > 0:
        row.insert(0, ("◀", f"pg:{source}:{page - 1}"))
    if page < count - 1:
        row.append(("▶", f"pg:{source}:{page + 1}"))
    return [row]


def paginate(text: str, limit: int = TELEGRAM_TEXT_LIMIT) -> list[str]:
    """Cut long text on line ends into pieces Telegram accepts."""
    pages: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            pages.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            pages.append(current)
            current = line
        else:
            current = candidate
    if current or not pages:
        pages.append(current)
    return pages


class Caller:
    """Who sent the update, and what they may do: the incoming update itself, its
    sender (``actor``), whether they organise here."""

    def __init__(
        self, inc: Incoming, repo: Repo, admins: Callable[[int], Awaitable[set[int]]]
    ) -> None:
        self.inc, self._repo = inc, repo
        self.admins = admins  # a chat's administrators, as Telegram lists them
        self._organiser: bool | None = None  # see is_organiser()

    @property
    def actor(self) -> int:
        return self.inc.sender.id

    async def is_organiser(self) -> bool:
        """Group admins (anonymous admins too) and users granted the role with /grant.

        Tournaments live in groups: in a private chat nobody organises anything. Asked
        again in the same update (the admission, then the use-case), it is not looked up
        again."""
        if self._organiser is None:
            self._organiser = await self._find_organiser()
        return self._organiser

    async def _find_organiser(self) -> bool:
        inc = self.inc
        if inc.chat_type == "private":
            return False
        if self.is_anonymous_admin:
            return True
        if await self._repo.is_granted(inc.chat_id, inc.sender.id):
            return True
        return inc.sender.id in await self.admins(inc.chat_id)

    @property
    def is_anonymous_admin(self) -> bool:
        return (
            self.inc.sender.id == GROUP_ANONYMOUS_BOT or self.inc.sender_chat_id == self.inc.chat_id
        )

    def require_person(self) -> None:
        """Players are people. An anonymous admin (every one arrives as the same user
        1087968824) and a message sent as a channel (every channel arrives as 136817688)
        are shared identities: signing up, reporting or confirming as one would let any
        admin or any channel act for the others."""
        if self.is_anonymous_admin:
            raise UserError("refuse.anonymous-admin")
        if self.inc.sender_chat_id is not None or self.inc.sender.id in (CHANNEL_BOT, 0):
            raise UserError("refuse.sent-as-channel")

    async def require_organiser(self) -> None:
        if not await self.is_organiser():
            raise UserError("refuse.not-organiser")


class UnitOfWork:
    """The update's transaction: the repository, the audit log of its changes, the
    events it works on, work deferred to before the commit, timers planned once it is
    committed."""

    def __init__(self, repo: Repo, caller: Caller, translator: Callable[[], Translator]) -> None:
        self.repo, self._caller, self._t = repo, caller, translator
        self.timers: list[Timer] = []  # scheduled once committed
        # Work that needs the database after the use-case, in its transaction (e.g. the
        # rating changes under a final announcement, found from the chat's other events).
        self.deferred: list[Callable[[], Awaitable[None]]] = []
        # The events this update works on, one aggregate per tournament (``Event.of``).
        self.events: dict[int, Event] = {}
        # The tournament found for this update (by ``finished``): the command's admission
        # and its handler ask for it, and the second ask must not query again.
        self._found: dict[bool, Tournament] = {}
        self._whole: set[bool] = set()  # which of them were loaded whole

    def defer(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work`` once the use-case is done, before the transaction commits."""
        self.deferred.append(work)

    async def run_deferred(self) -> None:
        while self.deferred:
            await self.deferred.pop(0)()

    async def tournament(self, finished: bool = False, whole: bool = True) -> Tournament:
        """The chat's (or topic's) active tournament, or a refusal saying there is none.

        ``finished=True`` also accepts the latest one that has ended: its standings,
        export and draw stay readable, and an organiser may still correct it.
        ``whole=False`` loads the tournament row alone, for use-cases that must cost the
        same in an event of ten players or of two thousand (they ask the repository for
        the rows they need; ``repo.load_whole`` fetches the rest when it turns out to be
        needed). Asked again in the same update (the command's admission asks first),
        the same tournament comes back, loaded whole if now asked so."""
        if finished in self._found:
            known = self._found[finished]
            if whole and finished not in self._whole:
                await self.repo.load_whole(known)
                self._whole.add(finished)
            return known
        inc = self._caller.inc
        repo, chat, thread = self.repo, inc.chat_id, inc.thread_id
        found = await (
            repo.latest_tournament(chat, thread, whole)
            if finished
            else repo.active_tournament(chat, thread, whole)
        )
        if found is None:  # in a forum, the events of its other topics are named
            raise await topics.none_here(repo, self._t(), inc)
        self._found[finished] = found
        if whole:
            self._whole.add(finished)
        return found

    def record(self, t: Tournament | None, entry: Entry) -> None:
        """Write a typed audit entry (``bot.application.service.audit``) for a change to
        ``t`` (``None``: to the chat, not to an event)."""
        old, new = entry.rows()
        self.audit(entry.action, t, old, new)

    def audit(self, action: str, t: Tournament | None, old: Any = None, new: Any = None) -> None:
        """Record a change; it also moves the tournament to a new version, so whatever was
        derived from the old one (standings, their picture) is not served again."""
        caller = self._caller
        if caller.is_anonymous_admin:  # one user id for every anonymous admin: say so
            new = {**(new or {}), "by": "anonymous admin"}
        if t is not None:
            self.repo.bump_version(t)
        self.repo.audit(
            chat_id=caller.inc.chat_id,
            actor_id=caller.actor,
            action=action,
            tournament_id=t.id if t else None,
            update_id=caller.inc.update_id or None,
            old=old,
            new=new,
        )


class Replies:
    """What the update says: replies, announcements, edits, pictures, files, the answer
    to a button press; queued here, they become outbox rows of the same transaction."""

    def __init__(self, caller: Caller, translator: Callable[[], Translator]) -> None:
        self._caller, self._t = caller, translator
        self.outgoing: list[Outgoing] = []
        self.toast: str | None = None  # the answer to a button press
        self.toast_alert = False  # refusals pop up; confirmations just flash
        self.broadcasting = False  # see announcing()

    @contextmanager
    def announcing(self) -> Iterator[None]:
        """Messages queued inside are for the whole chat (a draw, a round, a result), so
        they wait behind refusals and replies to one person in the outgoing queue."""
        before, self.broadcasting = self.broadcasting, True
        try:
            yield
        finally:
            self.broadcasting = before

    def _out(self, kind: str, text: str, **fields: Any) -> Outgoing:
        inc = self._caller.inc
        out = Outgoing(
            inc.chat_id,
            kind,
            text,
            inc.thread_id,
            broadcast=fields.pop("broadcast", self.broadcasting),
            **fields,
        )
        self.outgoing.append(out)
        return out

    def react(self, emoji: str, words: str = "") -> None:
        """A reaction on the caller's message instead of a reply: the quiet way to say
        "got it" in a busy group. ``words``: what is said instead where the group allows
        no reactions (the acknowledgements of a moment go as one message)."""
        inc = self._caller.inc
        if inc.message_id is not None and not inc.is_callback:
            fallback = {"text": words} if words else None
            self._out("react", emoji, edit_message_id=inc.message_id, fallback=fallback)

    def resume(self) -> None:
        """Tell the outgoing queue that the bot's rights in this chat changed: what the
        chat refused is tried again at once (``bot.transport.holds``)."""
        self._out("resume", "", broadcast=False)

    def edit(
        self,
        message_id: int | None,
        text: str,
        buttons: Buttons | None = None,
        tag: str | None = None,
    ) -> None:
        """Edit one message of this chat in place: a button flow's own message, a
        turned page, a question whose answer replaces its buttons. ``tag`` names the
        message from then on, as :meth:`say`'s does."""
        self._out(
            "edit", text, buttons=buttons, edit_message_id=message_id, broadcast=False, tag=tag
        )

    def send(
        self,
        chat_id: int,
        text: str,
        buttons: Buttons | None = None,
        thread_id: int | None = None,
        fallback: dict[str, Any] | None = None,
    ) -> None:
        """A message into another chat than the caller's: an organiser's or a player's
        private chat, or the event's group (``thread_id``: its topic) from a private one.
        ``fallback``: where it is said instead if Telegram refuses it (``Outgoing``)."""
        self.outgoing.append(Outgoing(chat_id, "text", text, thread_id, buttons, fallback=fallback))

    def edit_tagged(
        self,
        tag: str,
        text: str,
        buttons: Buttons | None = None,
        kind: str = "edit",
        message_id: int | None = None,
    ) -> None:
        """Edit the latest message sent with ``tag`` (the sign-up message, the live
        standings); several edits queued for it are merged into the newest. ``kind``:
        ``edit`` (text) or ``edit_caption`` (``pictures.draw_later`` may make the latter
        an ``edit_media``, with its picture). ``message_id``: the message's id as its
        owner keeps it (``db.retention``), edited once the outbox no longer has the tag."""
        self._out(
            kind, text, buttons=buttons, edit_tag=tag, edit_message_id=message_id, broadcast=True
        )

    def say(
        self,
        text: str,
        buttons: Buttons | None = None,
        pages: str | None = None,
        tag: str | None = None,
        pin: bool = False,
    ) -> None:
        """Queue a text reply (``tag`` and ``pin``: see :class:`Outgoing`).

        Text longer than one Telegram message becomes ONE paged message when ``pages``
        names a source that can rebuild it (see ``bot/application/handlers/paging.py``): its buttons
        turn the page by editing the message. Otherwise it is cut into pieces."""
        chunks = paginate(text, PAGE_LIMIT)
        if len(chunks) > 1 and pages:
            buttons, chunks = page_buttons(pages, 0, len(chunks)), chunks[:1]
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            self._out(
                "text",
                chunk,
                buttons=buttons if last else None,
                tag=tag if i == 0 else None,
                pin=pin and i == 0,
            )

    def answer(self, text: str, refresh: Callable[[], tuple[str, Buttons]] | None = None) -> None:
        """A command gets ``text`` as a reply, a button press as a toast. ``refresh``
        (given when the press changed something) rebuilds the pressed message, which is
        edited in place: a room full of presses must not flood the group."""
        inc = self._caller.inc
        if not inc.is_callback:
            self.say(text)
            return
        self.toast = text
        if refresh is not None:
            body, buttons = refresh()
            self._out("edit", body, buttons=buttons, edit_message_id=inc.message_id, broadcast=True)

    def reply(self, key: str, buttons: Buttons | None = None, **params: object) -> None:
        """``say`` the catalogue's text ``key`` in the chat's language."""
        self.say(self._t()(key, **params), buttons)

    def photo(
        self,
        png: bytes,
        caption: str,
        filename: str = "picture.png",
        tag: str | None = None,
        pin: bool = False,
    ) -> None:
        """One picture; a caption over Telegram's 1024 limit continues as text."""
        caption, rest = caption[:TELEGRAM_CAPTION_LIMIT], caption[TELEGRAM_CAPTION_LIMIT:]
        self._out("photo", caption, file=png, filename=filename, tag=tag, pin=pin)
        if rest:
            self.say(rest)

    def document(self, data: bytes, filename: str, caption: str) -> None:
        self._out("document", caption[:TELEGRAM_CAPTION_LIMIT], file=data, filename=filename)


class Ctx:
    """One update's use-case context: ``caller`` (who asks), ``uow`` (the transaction's
    work), ``out`` (what it says), the chat, its language ``t`` and zone, and ``now``."""

    def __init__(
        self,
        inc: Incoming,
        repo: Repo,
        chat: Chat,
        t: Translator,
        settings: Settings,
        now: datetime,
        admins: Callable[[int], Awaitable[set[int]]],
        catalogue: Catalogue,
        can_pin: Callable[[int], Awaitable[bool]],
        bot_username: str = "",  # for links into the bot (t.me/<bot>?start=...)
    ) -> None:
        self.chat, self.t, self.settings, self.now = chat, t, settings, now
        self.catalogue, self.can_pin, self.bot_username = catalogue, can_pin, bot_username
        self.caller = Caller(inc, repo, admins)
        self.uow = UnitOfWork(repo, self.caller, lambda: self.t)
        self.out = Replies(self.caller, lambda: self.t)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.chat.tz or self.settings.default_tz)

    def set_lang(self, lang: str) -> None:
        """Switch the chat's language; replies from here on use it."""
        self.chat.lang = lang
        self.t = self.catalogue[lang]

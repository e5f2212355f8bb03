"""Forum topics: a forum group runs one event in each topic, so what one topic is told
names the events of the others, with links into their topics.

A command that needs an event, sent where there is none (General, or a topic whose
event was cancelled), is told which events run in which topics; /help in a forum says
that each topic can hold its own event and lists them; a second /new says how to run
another one beside the first (docs/guide.en.md#topics).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.application.types import Incoming
from bot.language.errors import UserError
from bot.language.i18n import Translator
from db.models import Tournament
from db.repo import Repo

SUPERGROUP = "-100"  # a supergroup's id is -100 followed by the id its links use


def topic_link(chat_id: int, thread_id: int) -> str | None:
    """The link that opens a supergroup's topic for its members (``t.me/c/<id>/<topic>``);
    None for General (no topic) and outside a supergroup."""
    text = str(chat_id)
    if not thread_id or not text.startswith(SUPERGROUP):
        return None
    return f"https://t.me/c/{text[len(SUPERGROUP) :]}/{thread_id}"


def event_lines(t: Translator, inc: Incoming, events: Sequence[Tournament]) -> str:
    """One line per event: its title, game and stage, and where it runs (a link)."""
    lines = []
    for ev in events:
        link = topic_link(inc.chat_id, ev.thread_id)
        if ev.thread_id == (inc.thread_id or 0):
            where = t("topics.here")
        else:
            where = link or t("topics.general")
        stage = t(f"topics.stage.{ev.status}")
        lines.append(
            t("topics.event", title=ev.title, game=t(f"game.{ev.game}"), stage=stage, where=where)
        )
    return "\n".join(lines)


async def elsewhere(repo: Repo, inc: Incoming) -> list[Tournament]:
    """The chat's active events in the other topics than the caller's."""
    here = inc.thread_id or 0
    return [ev for ev in await repo.active_tournaments(inc.chat_id) if ev.thread_id != here]


async def none_here(repo: Repo, t: Translator, inc: Incoming) -> UserError:
    """The refusal of a command that needs an event where there is none: with the
    events that run in the chat's other topics, when there are any."""
    others = await elsewhere(repo, inc)
    if not others:
        return UserError("refuse.no-tournament")
    return UserError("refuse.no-tournament-here", events=event_lines(t, inc, others))


async def cancelled_here(
    repo: Repo, t: Translator, inc: Incoming, cancelled: Tournament
) -> UserError | None:
    """A command for the record of this topic's latest event, which was cancelled,
    while events run in other topics: the refusal naming them (None: there are none,
    and the cancelled event is what the command is about)."""
    others = await elsewhere(repo, inc)
    if not others:
        return None
    lines = event_lines(t, inc, others)
    return UserError("refuse.cancelled-here", title=cancelled.title, events=lines)


async def second_event(repo: Repo, t: Translator, inc: Incoming, running: Tournament) -> UserError:
    """/new where an event runs already: in a forum, each topic can hold its own (the
    others listed); elsewhere, cancel the first, or turn on topics to run several."""
    if not inc.is_forum:
        return UserError("refuse.already-running", title=running.title)
    others = await elsewhere(repo, inc)
    lines = event_lines(t, inc, [running, *others])
    return UserError("refuse.already-running-topic", title=running.title, events=lines)


async def forum_help(repo: Repo, t: Translator, inc: Incoming) -> str:
    """/help's last lines in a forum: one event per topic, and the ones that run."""
    events = await repo.active_tournaments(inc.chat_id)
    if not events:
        return t("help.topics-none")
    return t("help.topics", events=event_lines(t, inc, events))

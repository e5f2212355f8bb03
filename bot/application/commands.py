"""Chat commands: the grammar (``/name[@bot] args``) and each command's declaration.

A :class:`Command` says who may use it (:class:`Role`) and what the chat's tournament
must be doing (:class:`Stage`). The core checks both before the handler runs, and the
"/" menu, ``/help`` for each role and the README's permission table are all generated
from the same declarations (``bot/application/handlers/__init__.py``), so they cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING

from bot.application import topics
from bot.language.errors import UserError
from db.status import EventStatus, PlayerStatus

if TYPE_CHECKING:
    from bot.application.context import Ctx
    from bot.language.i18n import Translator

_COMMAND = re.compile(r"^/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s+(.*))?$", re.S)


def parse_command(text: str, bot_username: str) -> tuple[str, str] | None:
    """Split a command; ``None`` when it is not a command or is addressed to another bot."""
    match = _COMMAND.match(text.strip())
    if not match:
        return None
    name, target, args = match.groups()
    if target and target.lower() != bot_username.lower():
        return None
    return name.lower(), (args or "").strip()


class Role(IntEnum):
    """Who may use a command; each role may also use everything the lower ones may."""

    ANYONE = 0
    PLAYER = 1  # signed up in the chat's event (docs/guide.en.md#before); organisers pass too
    ORGANISER = 2  # a group admin, anonymous admin, or granted with /grant


class Stage(StrEnum):
    """What the chat's tournament must be doing for the command to make sense."""

    ANY = "any"  # no tournament needed
    EVENT = "event"  # an active tournament, signing up or running
    SIGNUP = "signup"  # an active tournament still signing up
    RUNNING = "running"  # an active tournament that has been drawn
    RECORD = "record"  # the latest tournament, finished ones included


STAGE_REFUSAL = {Stage.SIGNUP: "refuse.signup-closed", Stage.RUNNING: "refuse.draw-first"}
Handler = Callable[["Ctx", str], Awaitable[None]]


@dataclass(frozen=True)
class Command:
    """One chat command. ``refusal`` overrides the stage's usual refusal message;
    ``menu`` puts it in Telegram's "/" menu; ``listed`` False keeps it out of /help;
    ``person``: something one does for oneself, so a shared identity (an anonymous
    admin, a message sent as a channel) is refused before anything else is checked."""

    name: str
    handler: Handler
    role: Role
    stage: Stage
    refusal: str | None = None
    menu: bool = False
    listed: bool = True
    person: bool = False


async def admit(ctx: Ctx, command: Command) -> None:
    """Refuse the caller unless their identity, role and the event's stage fit the
    declaration."""
    if command.person:
        ctx.caller.require_person()
    organiser = await ctx.caller.is_organiser() if command.role > Role.ANYONE else False
    if command.role is Role.ORGANISER and not organiser:
        raise UserError("refuse.not-organiser")
    if command.stage is Stage.ANY:
        return
    # The tournament row alone, and at most the caller's own player row: admission
    # costs the same in any size of event (the handler loads more if it needs it).
    t = await ctx.uow.tournament(finished=command.stage is Stage.RECORD, whole=False)
    if t.status == EventStatus.CANCELLED:
        inc = ctx.caller.inc  # events running in other topics are what the caller means
        if refusal := await topics.cancelled_here(ctx.uow.repo, ctx.t, inc, t):
            raise refusal
        if command.role is Role.ORGANISER:
            raise UserError("refuse.cancelled")  # /fix, /undo: a cancelled event's record stands
    if (command.stage is Stage.SIGNUP and t.status != EventStatus.SIGNUP) or (
        command.stage is Stage.RUNNING and t.status == EventStatus.SIGNUP
    ):
        raise UserError(command.refusal or STAGE_REFUSAL[command.stage])
    if command.role is Role.PLAYER and not organiser:
        player = await ctx.uow.repo.player(t.id, ctx.caller.actor)
        if player is None or player.status == PlayerStatus.LEFT:
            raise UserError("refuse.not-signed-up", title=t.title)
        if player.status == PlayerStatus.REMOVED:  # disqualified: no say in results
            raise UserError("refuse.player-removed", name=player.name)


def stage_fits(stage: Stage, status: str) -> bool:
    """Whether a command of ``stage`` fits an event of ``status`` (a page that offers the
    commands greys out the others; :func:`admit` decides, with the refusal)."""
    return {
        Stage.ANY: True,
        Stage.EVENT: status in (EventStatus.SIGNUP, EventStatus.RUNNING),
        Stage.SIGNUP: status == EventStatus.SIGNUP,
        Stage.RUNNING: status == EventStatus.RUNNING,
        Stage.RECORD: status != EventStatus.CANCELLED,
    }[stage]


async def role_of(ctx: Ctx) -> Role:
    """The caller's role in this chat, for /help."""
    if await ctx.caller.is_organiser():
        return Role.ORGANISER
    t = await ctx.uow.repo.active_tournament(
        ctx.caller.inc.chat_id, ctx.caller.inc.thread_id, whole=False
    )
    player = await ctx.uow.repo.player(t.id, ctx.caller.actor) if t is not None else None
    signed = player is not None and player.status == PlayerStatus.ACTIVE
    return Role.PLAYER if signed else Role.ANYONE


def usage_line(t: Translator, command: Command) -> str:
    """``/name <args>`` — what it does, in the chat's language."""
    syntax = f" {t(f'syntax.{command.name}')}" if t.has(f"syntax.{command.name}") else ""
    return t("help.line", command=f"/{command.name}{syntax}", what=t(f"menu.{command.name}"))


def help_text(t: Translator, commands: Iterable[Command], role: Role) -> str:
    """/help for one role: the commands it may use, its own first."""
    listed = [c for c in commands if c.listed and c.role <= role]
    parts = [t(f"help.header.{role.name.lower()}")]
    for level in sorted({c.role for c in listed}, reverse=True):
        parts.append(t(f"help.section.{level.name.lower()}"))
        parts.extend(usage_line(t, c) for c in listed if c.role is level)
    return "\n".join(parts)


def menu_entries(t: Translator, commands: Iterable[Command]) -> list[tuple[str, str]]:
    """Telegram's "/" menu: (command, description) in one language."""
    return [(c.name, t(f"menu.{c.name}")) for c in commands if c.menu]


def permission_table(t: Translator, commands: Iterable[Command]) -> str:
    """The README's table: every listed command, who may use it and when."""
    lines = ["| command | who | when |", "|---|---|---|"]
    for c in commands:
        if c.listed:
            syntax = f" {t(f'syntax.{c.name}')}" if t.has(f"syntax.{c.name}") else ""
            who, when = t(f"role.{c.role.name.lower()}"), t(f"stage.{c.stage.value}")
            usage = f"/{c.name}{syntax}".replace("|", "\\|")
            lines.append(f"| `{usage}` | {who} | {when} |")
    return "\n".join(lines)

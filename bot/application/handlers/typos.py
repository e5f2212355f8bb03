"""A mistyped command gets a hint: "没有 /reprot，是不是 /report？".

Without it an unknown command is met with silence, and whoever typed ``/reprot`` thinks the
bot is down. Only a command one could have meant is offered: one in /help or the "/"
menu, at most :data:`MAX_EDITS` letters away (Levenshtein: a letter added, dropped or
changed; ``reprot`` → ``report`` is two). Anything farther, such as another bot's command
sent without its ``@name``, still gets no answer; one addressed to another bot never
reaches this far (:func:`bot.application.commands.parse_command`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.application.commands import Command, Handler
from bot.application.context import Ctx
from engine.formats import edit_distance

MAX_EDITS = 2


def closest(typed: str, commands: Iterable[Command]) -> str | None:
    """The listed or menu command ``typed`` most likely meant, or ``None``.

    Also under :data:`MAX_EDITS`, at least one letter typed must stay: ``/x`` is two
    edits from ``/me`` but is not a try at it. Ties go to the command declared first.
    """
    best: tuple[int, str] | None = None
    for command in commands:
        if not (command.listed or command.menu):
            continue
        distance = edit_distance(typed, command.name)
        if distance <= MAX_EDITS and distance < len(typed) and (best is None or distance < best[0]):
            best = (distance, command.name)
    return best[1] if best else None


def hint(typed: str, commands: Iterable[Command]) -> Handler | None:
    """The use-case for an unknown command: a one-line hint when one is close, else
    ``None`` (no answer, nothing stored)."""
    known = closest(typed, commands)
    if known is None:
        return None

    async def did_you_mean(ctx: Ctx, arg: str) -> None:
        ctx.out.reply("typo.did-you-mean", typed=f"/{typed}", known=f"/{known}")

    return did_you_mean

"""/undo: take back the organiser's last ruling, read from the audit log.

Each undoable ruling records a typed audit entry of what it changed
(``bot.application.service.audit``); undoing restores that and writes an ``undo`` entry naming it,
so repeated /undo walks further back and the history stays complete. Results can only be
taken back while their round is the latest one: a later draw was made from them.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import tell


async def undo(ctx: Ctx, args: str) -> None:
    event = await Event.load(ctx, finished=True)
    done = await event.undo()
    ctx.out.reply("undo.done", what=ctx.t(f"undo.what.{done.action}"))
    await tell(ctx, event, done.then)  # every table settled again: what follows

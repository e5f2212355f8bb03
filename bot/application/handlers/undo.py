"""/undo: take back the organiser's last ruling, read from the audit log.

Each undoable ruling records a typed audit entry of what it changed
(``bot.application.service.audit``); undoing restores that and writes an ``undo`` entry naming it,
so repeated /undo walks further back and the history stays complete. Results can only be
taken back while their round is the latest one: a later draw was made from them.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.handlers.common import settle_round
from bot.application.service import results
from bot.application.tournament import latest_round


async def undo(ctx: Ctx, args: str) -> None:
    t = await ctx.tournament(finished=True)
    action = await results.undo(ctx, t)
    ctx.reply("undo.done", what=ctx.t(f"undo.what.{action}"))
    r = latest_round(t)
    if r is not None:
        settle_round(ctx, t, r)  # every table settled again: close it and say what follows

"""Turning the page of a long message (the ◀ ▶ buttons of ``Ctx.say(..., pages=…)``).

A page is rebuilt from the database on every press rather than stored: the lists it
shows (players, a round's tables) are derived from facts that do not change under it,
or, when they have changed, the reader sees the current state.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.application import context
from bot.application.context import Ctx, page_buttons, paginate
from bot.application.handlers.draw import draw_text
from bot.application.handlers.rounds import opened_text
from bot.application.handlers.signup import players_text
from bot.application.handlers.whole_ranking import whole_ranking_text
from bot.language.errors import UserError
from bot.language.inputs import id_or_none
from db.models import Round, Tournament


def _round(t: Tournament, number: str) -> Round:
    found = next((r for r in t.rounds if str(r.number) == number), None)
    if found is None:
        raise UserError("refuse.page-gone")
    return found


SOURCES: dict[str, Callable[[Ctx, Tournament, str], str]] = {
    "players": lambda ctx, t, _: players_text(ctx, t),
    "draw": lambda ctx, t, n: draw_text(ctx, t, _round(t, n)),
    "open": lambda ctx, t, n: opened_text(ctx, t, _round(t, n)),
    "ranking": lambda ctx, t, _: whole_ranking_text(ctx, t),
}


async def turn_page(ctx: Ctx, arg: str) -> None:
    """``pg:<source>[.<round>]:<page>``: show that page in the same message."""
    source, _, page_text = arg.rpartition(":")
    kind, _, param = source.partition(".")
    t = await ctx.uow.repo.latest_tournament(ctx.caller.inc.chat_id, ctx.caller.inc.thread_id)
    page_number = id_or_none(page_text)
    if t is None or kind not in SOURCES or page_number is None:
        raise UserError("refuse.page-gone")
    pages = paginate(SOURCES[kind](ctx, t, param), context.PAGE_LIMIT)
    page = min(page_number, len(pages) - 1)
    ctx.out.edit(ctx.caller.inc.message_id, pages[page], page_buttons(source, page, len(pages)))

"""``/standings all``: every line of the ranking, as one paged text message.

/standings shows the top of the ranking (its picture and caption); this is the rest for
anyone in the chat, players included (/export is the organiser's file)."""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.handlers.common import event_status, team_table_lines
from bot.application.tournament import latest_round
from bot.language.errors import UserError
from bot.presentation.board import ranking_lines
from db.models import Tournament

ALL_WORDS = ("all", "全部")


def whole_ranking_text(ctx: Ctx, t: Tournament) -> str:
    """The ranking's every line under the event's status, and a team event's team table
    (rebuilt for each page turned)."""
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    event = Event.of(ctx, t)
    b = event.board()
    lines = ranking_lines(ctx, t, b, limit=len(b.entries))
    head = (ctx.t("standings.caption", title=t.title, round=r.number), event_status(ctx, t))
    return "\n".join((*head, lines)) + team_table_lines(ctx, event)


async def whole_ranking(ctx: Ctx) -> None:
    t = await ctx.uow.tournament(finished=True)
    ctx.out.say(whole_ranking_text(ctx, t), pages="ranking")

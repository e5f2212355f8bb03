"""``/standings all``: every line of the ranking, as one paged text message.

/standings shows the top of the ranking (its picture and caption); this is the rest for
anyone in the chat, players included (/export is the organiser's file)."""

from __future__ import annotations

from bot.context import Ctx
from bot.errors import UserError
from bot.handlers.common import event_status, ranking_lines
from bot.tournament import format_of, latest_round, state_of
from db.models import Tournament
from db.status import EventStatus
from engine.formats.base import ranked

ALL_WORDS = ("all", "全部")


def whole_ranking_text(ctx: Ctx, t: Tournament) -> str:
    """The ranking's every line under the event's status (rebuilt for each page turned)."""
    r = latest_round(t)
    if r is None:
        raise UserError("refuse.not-drawn")
    _, rows = ranked(format_of(t), state_of(t), t.status == EventStatus.FINISHED)
    return "\n".join(
        (
            ctx.t("standings.caption", title=t.title, round=r.number),
            event_status(ctx, t),
            ranking_lines(ctx, t, rows, limit=len(rows)),
        )
    )


async def whole_ranking(ctx: Ctx) -> None:
    t = await ctx.tournament(finished=True)
    ctx.say(whole_ranking_text(ctx, t), pages="ranking")

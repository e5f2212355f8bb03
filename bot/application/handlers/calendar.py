"""``/calendar``: the event's deadlines as an ``.ics`` file for players' calendar apps.

Anyone may ask: the file holds only the event's title and its public deadlines (the
sign-up cut-off, each round's check-in cut-off and deadline, a table's own later
deadline), all of which the chat already announced. Sent again after a deadline moved,
it updates the entries it added before (``paper.ics``: stable UIDs); once the event has
a live page (``/live``), its calendar feed is offered too, which apps follow by
themselves.
"""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.live_links import live_token, page_url
from bot.language.errors import UserError
from db.models import Tournament
from paper.ics import Moment, calendar_file


def moments(ctx: Ctx, t: Tournament) -> list[Moment]:
    """Every deadline of ``t`` known now, each with a UID that never changes."""
    uid = f"tourbot-{t.chat_id}-{t.id}"
    found: list[Moment] = []
    if t.signup_until is not None:
        summary = ctx.t("calendar.signup", title=t.title)
        found.append(Moment(f"{uid}-signup", summary, t.signup_until))
    for r in t.rounds:
        if r.checkin_until is not None:
            summary = ctx.t("calendar.checkin", title=t.title, round=r.number)
            found.append(Moment(f"{uid}-round-{r.number}-checkin", summary, r.checkin_until))
        if r.deadline is not None:
            summary = ctx.t("calendar.deadline", title=t.title, round=r.number)
            found.append(Moment(f"{uid}-round-{r.number}", summary, r.deadline, r.deadline_set_at))
        for row in r.tables:
            if row.deadline is not None:
                summary = ctx.t(
                    "calendar.table-deadline", title=t.title, round=r.number, table=row.number
                )
                uid_table = f"{uid}-round-{r.number}-table-{row.number}"
                found.append(Moment(uid_table, summary, row.deadline, row.deadline_set_at))
    return found


async def calendar(ctx: Ctx, args: str) -> None:
    """``/calendar``: the ``.ics`` file, in the chat's zone, or why there is none yet."""
    t = await ctx.uow.tournament()
    found = moments(ctx, t)
    if not found:
        raise UserError("calendar.none")
    data = calendar_file(t.title, found, ctx.tz, ctx.now)
    caption = ctx.t("calendar.caption", title=t.title, count=len(found), zone=ctx.tz.key)
    token = live_token(t)
    page = page_url(ctx.settings, token) if token is not None else None
    if page is not None:  # the live page's feed: subscribed, it follows every move
        caption += "\n" + ctx.t("calendar.subscribe", url=f"{page}/calendar.ics")
    ctx.out.document(data, f"tourbot-{t.id}.ics", caption)

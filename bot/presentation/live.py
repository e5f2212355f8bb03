"""Live standings: one message per event, pinned, edited after every confirmed result
and when a round opens (who waits for which table).

A busy group should not fill with ``/standings`` answers. From the first settled table
on, the bot keeps one message up to date: the standings picture with the text ranking as
its caption, posted (and pinned, when the bot has the right) the first time, then edited
in place: the caption after every confirmed result, the picture at most once a minute
(drawing it costs more than the edit, and a flurry of results needs only the last one).
A picture left behind its caption is redrawn by one refresh at the end of that minute,
and the last refresh (the event over, or cancelled) always redraws it, so the picture
never stays on a state its caption has left.
When no picture can be drawn the message is plain text and stays so. The outgoing queue
merges edits that pile up and lets replies to one person go first (``bot/transport/outbox.py``).

Refreshing means reading the whole event and ranking it, which grows with the event; a
burst of results (a hundred tables confirming within a minute) would pay it for every
one, for edits the outgoing queue then merges anyway. So a result confirmed within one
edit gap of the last refresh plans a single refresh at the end of that gap (a timer,
``live_due`` on the tournament, so a restart still runs it), which shows it together
with every result that came meanwhile.
Whether the bot may pin is asked once, at the draw; without the right it says so once
and goes on unpinned.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.application.context import TELEGRAM_CAPTION_LIMIT, Ctx
from bot.application.event import Event
from bot.application.timers import live_timer
from bot.application.tournament import latest_round
from bot.presentation.pictures import draw_later, first_page, standings_sheet
from charts.data import Sheet
from charts.jobs import first_png
from db.models import Round, Tournament
from db.retention import owned_tag
from db.status import EventStatus

PICTURE_GAP = timedelta(minutes=1)


def tag(t: Tournament) -> str:
    return owned_tag("live", t.id)


def later(ctx: Ctx, t: Tournament, r: Round) -> bool:
    """Within one edit gap of the last refresh: plan one refresh at the end of the gap
    (once for the whole burst) instead of refreshing now. Whether it did."""
    gap = timedelta(seconds=ctx.settings.edit_gap)
    if t.live_at is None or ctx.now - t.live_at >= gap:
        return False
    due = t.live_at + gap
    if t.live_due is None or t.live_due > due:  # none yet, or only the picture's, later
        _plan(ctx, t, r.number, due)
    return True


def _plan(ctx: Ctx, t: Tournament, round_number: int, due: datetime) -> None:
    """One refresh at ``due`` (a timer the tournament's row remembers, ``live_due``)."""
    t.live_due = due
    ctx.uow.timers.append(live_timer(t, round_number, due))


async def check_pin_right(ctx: Ctx, t: Tournament) -> None:
    """At the draw: remember whether the live standings can be pinned; say so if not."""
    t.live_pin = await ctx.can_pin(ctx.caller.inc.chat_id)
    if not t.live_pin:
        with ctx.out.announcing():
            ctx.out.reply("live.no-pin")


def live_text(ctx: Ctx, t: Tournament, ranking: str) -> str:
    """The pinned message's text; once the event is over it says the ranking is final,
    once it is cancelled that it was, instead of promising further updates."""
    r = latest_round(t)
    head, foot = {
        EventStatus.FINISHED: ("live.final", "live.closed"),
        EventStatus.CANCELLED: ("live.cancelled", "live.cancelled-foot"),
    }.get(EventStatus(t.status), ("live.header", "live.updated"))
    text = "\n".join(
        [
            ctx.t(head, title=t.title, round=r.number if r else 0),
            ranking,
            ctx.t(foot, time=ctx.now.astimezone(ctx.tz).strftime("%H:%M")),
        ]
    )
    return text[:TELEGRAM_CAPTION_LIMIT]


def _picture_later(ctx: Ctx, event: Event, kind: str) -> None:
    """The message just queued becomes the standings' picture once it is drawn
    (``pictures.draw_later``); else it stays text. It shows the event's state when drawn
    (built once for the update, ``Event.state``)."""
    t = event.t

    def shown() -> None:
        t.live_picture_at = ctx.now

    def sheet() -> Sheet:
        return first_page(ctx, standings_sheet(ctx, t, event.board(), event.state))

    draw_later(ctx, ctx.out.outgoing[-1], kind, "standings.png", first_png, sheet, then=shown)


def refresh(ctx: Ctx, event: Event, ranking: str) -> None:
    """Post the live standings (``ranking``: the text ranking) the first time, edit them
    after that. Refreshed again by the update that posted them (a round's last result
    that also ends the event), the message not yet sent shows the newer text instead
    (and its picture, drawn once the update is done, the newer standings)."""
    t = event.t
    text = live_text(ctx, t, ranking)
    first, planned = t.live_at is None, t.live_due
    t.live_at, t.live_due = ctx.now, None
    posted = next((out for out in ctx.out.outgoing if out.tag == tag(t)), None)
    if posted is not None:
        posted.text = text
        return
    if first:
        with ctx.out.announcing():
            ctx.out.say(text, tag=tag(t), pin=t.live_pin)
        _picture_later(ctx, event, "photo")
        return
    if t.live_picture_at is None:  # a text message: it stays one
        ctx.out.edit_tagged(tag(t), text, message_id=t.live_message_id)
        return
    ctx.out.edit_tagged(tag(t), text, kind="edit_caption", message_id=t.live_message_id)
    redrawn = t.live_picture_at + PICTURE_GAP
    if ctx.now >= redrawn or t.status != EventStatus.RUNNING:  # nothing will change it later
        _picture_later(ctx, event, "edit_media")
    elif planned == redrawn:  # planned by a refresh before, in this same minute
        t.live_due = redrawn
    else:  # the caption is ahead of the picture until one refresh at the end of the burst
        r = latest_round(t)
        _plan(ctx, t, r.number if r is not None else 0, redrawn)

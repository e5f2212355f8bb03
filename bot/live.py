"""Live standings: one message per event, pinned, edited after every confirmed result.

A busy group should not fill with ``/standings`` answers. From the first settled table
on, the bot keeps one message with the ranking up to date: posted (and pinned, when the
bot has the right) the first time, edited in place after that. The outgoing queue merges
edits that pile up and lets replies to one person go first (``bot/outbox.py``). Whether
the bot may pin is asked once, at the draw; without the right it says so once and goes
on unpinned.
"""

from __future__ import annotations

from bot.context import Ctx
from bot.tournament import latest_round
from db.models import Tournament


def tag(t: Tournament) -> str:
    return f"live:{t.id}"


async def check_pin_right(ctx: Ctx, t: Tournament) -> None:
    """At the draw: remember whether the live standings can be pinned; say so if not."""
    t.live_pin = await ctx.can_pin(ctx.inc.chat_id)
    if not t.live_pin:
        with ctx.announcing():
            ctx.reply("live.no-pin")


def live_text(ctx: Ctx, t: Tournament, ranking: str) -> str:
    r = latest_round(t)
    return "\n".join(
        [
            ctx.t("live.header", title=t.title, round=r.number if r else 0),
            ranking,
            ctx.t("live.updated", time=ctx.now.astimezone(ctx.tz).strftime("%H:%M")),
        ]
    )


def refresh(ctx: Ctx, t: Tournament, ranking: str) -> None:
    """Post the live standings (``ranking``: the text ranking) the first time, edit them
    after that."""
    text = live_text(ctx, t, ranking)
    if t.live_at is None:
        with ctx.announcing():
            ctx.say(text, tag=tag(t), pin=t.live_pin)
    else:
        ctx.edit_tagged(tag(t), text)
    t.live_at = ctx.now

"""``/live``: the link (and QR code) of the event's public live page for the hall's
screen (``bot.transport.live_page``; its token: ``bot.application.live_links``);
``/live reset`` revokes it and makes a new one."""

from __future__ import annotations

from bot.application.context import Ctx
from bot.application.event import Event
from bot.application.live_links import live_token, page_url
from bot.language.errors import UserError
from paper.qr import qr_png

RESET_WORDS = {"reset", "重置"}


async def live(ctx: Ctx, args: str) -> None:
    """Post the page's link with its QR code; ``reset`` first revokes the old link."""
    word = args.strip().lower()
    if word and word not in RESET_WORDS:
        raise UserError("usage.live")
    if not ctx.settings.public_url:
        raise UserError("screen.no-web")
    event = await Event.load(ctx, whole=False)
    t = event.t
    token = live_token(t)
    if token is None or word:
        token = event.new_live_page()
    url = page_url(ctx.settings, token)
    assert url is not None
    key = "screen.reset" if word else "screen.link"
    ctx.out.photo(qr_png(url), ctx.t(key, url=url, screen=f"{url}?screen=1"), "live-qr.png")
